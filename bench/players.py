"""Rated play's pages: a player's page with 1,000 sessions, and the pit-boss dashboard with rated players seated at
200 open tables (goal <= 100 ms server time each, in a fixed number of queries).

The floor: the dashboard bench's (``bench.dashboard.floor_build``): ``--tables`` open tables (200) of the four games
in turn, each with ``--hours`` hours (8) of rounds at ``--per-hour`` (30) rounds an hour, bulk-created in the shape the
services write them, with the table's money of the shift. Then rated play, bulk-created through the ORM as
``players.rating`` keeps it (no round is played through the settle; only the pages' reads are under test):

* ``--players`` (2,000) enrolled players, one in twenty anonymous;
* one regular with ``--sessions`` (1,000) ended sessions, one a day going back, each of 20 to 120 rounds at one or
  two tables (its ``RatingSeat`` rows), with a ``RatedRound`` row for each round it played (a settled round's
  settlement posting of the floor, as the receivers write them: the action, the win/loss, theo by a 1.5% edge and
  the variance by a 1.1 sd), the one in ten that banked a round with its bank's row too; the session's kept figures
  are those rows' sums; its buy-ins, walk-with and breaks in its clock;
* at every open table ``--seated`` (3) rated players seated now, one in three of them on a break, with their kept
  figures (one in fifty 3σ up), and the table's hold window (``TableHold``) over its last 100 rounds (one table in
  ten drifting beyond its 95% band).

Timed: ``GET /players/<id>/`` (its first page of sessions, and page 10) for the regular, ``GET /players/`` and a
search, and the dashboard ``GET /pit/`` and ``GET /pit/live/`` (its sealed figures warm, as on every refresh but the
shift's first), before the rated players sit down and after: each fetched ``--requests`` times (100) through Django's
test ``Client`` (signed in as a Pit boss: the whole request cycle, session, middleware, the view, the template; no
network, no web server), with ``time.perf_counter`` and the garbage collector off, after a few warm-up requests. The
figures: median and 99th percentile server time, the ratio of the median to the 100 ms budget, and the number of
queries one request sends. The player's page is timed once more with all 1,000 sessions on one page
(``SESSIONS_A_PAGE`` patched to 1,000), to show why it is paginated.

The data lives in a database made for the run and dropped after it: on PostgreSQL (``DATABASE_URL`` is
``postgres://...``) a database called ``tableside_bench_players`` on that server (analysed after the bulk load, as
autovacuum would); otherwise a SQLite file in a temporary directory. DEBUG is off while timing (no query log).

Run from the repository root::

    python bench/players.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tableside python bench/players.py
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.dashboard import SEED, _get, floor_build, percentile_ms, queries_of_one_request, timed  # noqa: E402
from bench.harness import machine, setup_django, throwaway_database  # noqa: E402

BENCH_DATABASE = "tableside_bench_players"
TARGET_MS = 100  # server time of one page
EDGE, SD = 0.015, 1.1  # the regular's edge and standard deviation a unit of action (about Pai Gow Poker's)
TIERS = ("Bronze", "Silver", "Gold", "Platinum")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="open tables (default 200)")
    parser.add_argument("--hours", type=float, default=8.0, help="hours of the shift played so far (default 8)")
    parser.add_argument("--per-hour", type=int, default=30, help="rounds an hour at each table (default 30)")
    parser.add_argument("--sessions", type=int, default=1_000, help="the regular's ended sessions (default 1,000)")
    parser.add_argument("--players", type=int, default=2_000, help="players enrolled (default 2,000)")
    parser.add_argument("--seated", type=int, default=3, help="rated players seated at each table (default 3)")
    parser.add_argument("--requests", type=int, default=100, help="timed requests a page (default 100)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--queries", action="store_true", help="print the SQL of one request of each page")
    parser.add_argument("--keep", action="store_true", help="keep the throwaway database (and say where it is)")
    args = parser.parse_args(argv)
    numbers = (args.tables, args.requests, args.per_hour, args.sessions, args.players, args.seated)
    if min(numbers) < 1 or args.hours <= 0:
        parser.error("every count and --hours must be positive")
    if args.seated > 3:
        parser.error("--seated is at most 3 (the smallest table, OFC, has three seats)")
    return args


# --- rated play, bulk-created ----------------------------------------------------------------------


def _variance(action: int) -> int:
    return round(action * action * SD * SD)


def regular_build(args: argparse.Namespace, rng: random.Random, *, by: Any) -> tuple[Any, dict[str, int]]:
    """The players enrolled, and the regular with ``--sessions`` ended sessions, their seats and rated rounds."""
    from django.db import transaction
    from django.utils import timezone

    from ledger.models import Posting
    from players.models import Player, RatedRound, RatingSeat, RatingSession
    from rounds.selectors import round_value
    from tables.models import Table

    now = timezone.now()
    players = [
        Player(tier=rng.choice(TIERS), anonymous=True, created_by=by)
        if n % 20 == 0
        else Player(name=f"Player {n:05d}", card_number=f"{100000 + n}", tier=rng.choice(TIERS), created_by=by)
        for n in range(1, args.players + 1)
    ]
    Player.objects.bulk_create(players, batch_size=2000)
    regular = Player.objects.create(name="Mr Lee Regular", card_number="1001", tier="Gold", created_by=by)
    settled = list(
        Posting.objects.filter(kind=Posting.Kind.SETTLEMENT)
        .annotate(round_table=round_value("table_id"))
        .values_list("pk", "round_id", "round_table")
    )
    tables = list(Table.objects.values_list("pk", "seat_count"))
    counts = {"players": len(players) + 1, "sessions": 0, "rated seats": 0, "rated rounds": 0}
    for chunk in range(0, args.sessions, 100):
        with transaction.atomic():
            sessions, plans = [], []
            for n in range(chunk, min(chunk + 100, args.sessions)):
                started = now - dt.timedelta(days=n + 1, hours=rng.randint(0, 6))
                rounds = rng.randint(20, 120)
                seconds = rounds * 120 + rng.randint(0, 1800)  # 30 rounds an hour, and a break or not
                rows = []
                for posting, round_id, table_id in rng.sample(settled, rounds):
                    bet = rng.randrange(1_000, 50_001, 500)
                    net = rng.choice((bet, -bet, 0, round(bet * 0.95)))
                    rows.append(("player", posting, round_id, table_id, bet, net))
                    if rng.random() < 0.02:  # now and then the bank, at the same settlement
                        bank = bet * rng.randint(2, 5)
                        rows.append(("banker", posting, round_id, table_id, bank, -net))
                mine = [row for row in rows if row[0] == "player"]
                bank = [row for row in rows if row[0] == "banker"]
                sessions.append(
                    RatingSession(
                        player=regular,
                        status=RatingSession.Status.ENDED,
                        started_at=started,
                        started_by=by,
                        ended_at=started + dt.timedelta(seconds=seconds + 600),
                        seconds_played=seconds,
                        rounds=len(mine),
                        banker_rounds=len(bank),
                        wagered_cents=sum(row[4] for row in mine),
                        banker_wagered_cents=sum(row[4] for row in bank),
                        win_loss_cents=sum(row[5] for row in rows),
                        theo_millicents=sum(round(row[4] * EDGE * 1000) for row in rows),
                        variance_cents2=sum(_variance(row[4]) for row in rows),
                        chips_in_cents=rng.choice((0, 50_000)),
                        cash_in_cents=rng.randrange(0, 500_001, 10_000),
                        markers_in_cents=rng.choice((0, 0, 0, 1_000_000)),
                        walk_with_cents=rng.randrange(0, 1_000_001, 500),
                    )
                )
                plans.append((started, seconds, rows))
            RatingSession.objects.bulk_create(sessions)
            seats, rated = [], []
            for session, (started, seconds, rows) in zip(sessions, plans, strict=True):
                moves = 1 if rng.random() < 0.7 else 2
                for move in range(moves):
                    table_id, seat_count = rng.choice(tables)
                    seats.append(
                        RatingSeat(
                            session=session,
                            table_id=table_id,
                            seat_number=rng.randint(1, seat_count),
                            started_at=started + dt.timedelta(seconds=seconds * move / moves),
                            ended_at=started + dt.timedelta(seconds=seconds * (move + 1) / moves),
                        )
                    )
                rated += [
                    RatedRound(
                        session=session,
                        round_id=round_id,
                        posting_id=posting,
                        table_id=table_id,
                        seat_number=1,
                        position=position,
                        rounds=1,
                        action_cents=action,
                        win_loss_cents=net,
                        theo_millicents=round(action * EDGE * 1000),
                        variance_cents2=_variance(action),
                        edge_ppm=round(EDGE * 1_000_000),
                    )  # fmt: skip
                    for position, posting, round_id, table_id, action, net in rows
                ]
            RatingSeat.objects.bulk_create(seats)
            RatedRound.objects.bulk_create(rated, batch_size=2000)
        counts["sessions"] += len(sessions)
        counts["rated seats"] += len(seats)
        counts["rated rounds"] += len(rated)
    return regular, counts


def seated_build(args: argparse.Namespace, rng: random.Random, *, by: Any) -> dict[str, int]:
    """At every open table ``--seated`` rated players seated now (one in three on a break, one in fifty 3σ up), and
    the table's hold window over its last 100 rounds (one table in ten drifting)."""
    from django.utils import timezone

    from players.models import Player, RatingSeat, RatingSession, TableHold
    from tables.models import Table

    now = timezone.now()
    tables = list(Table.objects.filter(status=Table.Status.OPEN).order_by("pk"))
    free = list(Player.objects.filter(sessions__isnull=True).order_by("pk")[: len(tables) * args.seated])
    sessions, placed = [], []
    for n, player in enumerate(free):
        table = tables[n // args.seated]
        rounds = rng.randint(5, 200)
        bet = rng.randrange(1_000, 30_001, 500)
        action = rounds * bet
        theo = round(action * EDGE * 1000)
        variance = rounds * _variance(bet)
        hot = n % 50 == 0
        win = round(4 * variance**0.5) if hot else rng.randint(-action // 10, action // 10)
        paused = n % 3 == 1
        since = now - dt.timedelta(seconds=rounds * 120)
        sessions.append(
            RatingSession(
                player=player,
                status=RatingSession.Status.PAUSED if paused else RatingSession.Status.PLAYING,
                started_at=since,
                started_by=by,
                seconds_played=rounds * 100,
                running_since=None if paused else now - dt.timedelta(minutes=5),
                rounds=rounds,
                wagered_cents=action,
                win_loss_cents=win,
                theo_millicents=theo,
                variance_cents2=variance,
                cash_in_cents=rng.randrange(10_000, 200_001, 10_000),
            )
        )
        placed.append((table, n % args.seated + 1, since))
    RatingSession.objects.bulk_create(sessions, batch_size=2000)
    RatingSeat.objects.bulk_create(
        (
            RatingSeat(session=session, table=table, seat_number=seat, started_at=since)
            for session, (table, seat, since) in zip(sessions, placed, strict=True)
        ),
        batch_size=2000,
    )
    holds = []
    for n, table in enumerate(tables):
        action = 100 * rng.randrange(5_000, 30_001, 500) * 5
        theo = round(action * EDGE * 1000)
        sd = (100 * _variance(action // 100)) ** 0.5  # 100 rounds of one action each
        drift = 3 if n % 10 == 0 else rng.uniform(-1.5, 1.5)
        holds.append(
            TableHold(
                table=table,
                rounds=100,
                action_cents=action,
                house_win_cents=round(theo / 1000 + drift * sd),
                theo_millicents=theo,
                variance_cents2=round(sd * sd),
            )  # fmt: skip
        )
    TableHold.objects.bulk_create(holds)
    return {"rated players seated": len(sessions), "hold windows": len(holds)}


# --- timing ----------------------------------------------------------------------------------------


def row(client: Any, label: str, url: str, args: argparse.Namespace) -> tuple[float, int]:
    latencies = timed(client, url, args.requests)
    sql = queries_of_one_request(client, url)
    size = len(_get(client, url).content) / 1024
    p50, p99 = percentile_ms(latencies, 0.5), percentile_ms(latencies, 0.99)
    print(
        f"{label:<34}{p50:>8.1f}{p99:>8.1f}{statistics.fmean(latencies) * 1000:>8.1f}{len(sql):>8}{size:>7.0f}"
        f"{p50 / TARGET_MS:>8.2f}   {'PASS' if p50 <= TARGET_MS else 'OVER'}"
    )
    if args.queries:
        for number, statement in enumerate(sql, start=1):
            print(f"    {number:>2}. {statement[:300]}")
    return p50, len(sql)


def header() -> None:
    print(f"{'page':<34}{'p50 ms':>8}{'p99 ms':>8}{'mean ms':>8}{'queries':>8}{'KiB':>7}{'/100ms':>8}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    with throwaway_database(BENCH_DATABASE, args.keep) as where:
        setup_django()
        from django.db import connection
        from django.test import Client

        print(
            f"Rated play's pages: a player with {args.sessions:,} sessions; {args.tables} open tables "
            f"({args.hours:g} hours at {args.per_hour} rounds an hour), {args.seated} rated players seated at each; "
            f"{args.requests} timed requests a page"
        )
        print(f"machine:  {machine()}")
        print(f"database: {where}; DEBUG off")
        rng = random.Random(args.seed)
        started = time.perf_counter()
        pit_boss, counts = floor_build(args, rng)
        regular, made = regular_build(args, rng, by=pit_boss)
        counts.update(made)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        print(f"floor:    {', '.join(f'{n:,} {name}' for name, n in counts.items())}")
        print(f"          built in {time.perf_counter() - started:.1f} s (not timed)")
        client = Client()
        client.force_login(pit_boss)
        print()
        header()
        before_pit, before_queries = row(client, "/pit/ (no rated player yet)", "/pit/", args)
        seated = seated_build(args, rng, by=pit_boss)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        print(f"          then {', '.join(f'{n:,} {name}' for name, n in seated.items())}")
        results = [
            row(client, "/pit/ (rated players seated)", "/pit/", args),
            row(client, "/pit/live/ (rated players seated)", "/pit/live/", args),
            row(client, f"/players/{regular.pk}/ (page 1 of sessions)", f"/players/{regular.pk}/", args),
            row(client, f"/players/{regular.pk}/?page=10", f"/players/{regular.pk}/?page=10", args),
            row(client, "/players/ (the list, page 1)", "/players/", args),
            row(client, "/players/?q=Player 01 (a search)", "/players/?q=Player+01", args),
        ]
        with mock.patch("players.page_selectors.SESSIONS_A_PAGE", args.sessions):
            whole, _ = row(client, f"/players/{regular.pk}/ all on one page", f"/players/{regular.pk}/", args)
        pit_after, pit_queries = results[0]
        print()
        print(
            f"the rated players add {pit_after - before_pit:+.1f} ms and {pit_queries - before_queries:+d} "
            f"queries to the dashboard; the player's page with all {args.sessions:,} sessions on one page: "
            f"{whole:.1f} ms ({whole / TARGET_MS:.2f} of the budget)"
        )
        failed = any(p50 > TARGET_MS for p50, _ in results)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
