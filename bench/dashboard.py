"""Pit-boss dashboard speed: ``GET /pit/`` and its live part ``GET /pit/live/`` with 200 open tables.

The floor: ``--tables`` open tables (200 by default) of the four games in turn, each
with a shift's worth of rounds: ``--hours`` hours (8) at ``--per-hour`` rounds an hour
(30, a full Pai Gow Poker table's pace), so 48,000 rounds by default. Every round is
settled but the table's last, which is open with its wagers taken; about one in a
hundred is voided. The rows are bulk-created in the shape the services write them
(``settlement.compute``, ``ledger.services``): in the banked games (Pai Gow Poker,
tiles; the house banks) six (tiles: seven) wagers a round, each a ``wager`` posting
that moves the stake from the player to the layout, and a ``settlement`` posting
that pays a win even money less 5% commission, returns a push and takes a loss; in
the points games (Chinese Poker, OFC) four (three) wagers that move no money and a
settlement that pays what the losers lose, less a 5% rake. A void posting returns a
voided round's stakes. Each table has a big-win alert threshold, a few seats win
above it, and ten rounds wait with a void request. The table's money: at each
table ``BUY_INS_PER_HOUR`` buy-ins an hour (cash, one in five a marker), three fills and a
credit received, and at one table in four a slip still pending (requested or issued); a
confirmed closer left by the last shift and this shift's confirmed opener, 30.00 over it at
one table in ten (a written report) and 150.00 short at one in twenty-five (escalated); one
opener in fifty waits for its confirmation (the money's ledger postings are left out: the
dashboard does not read them). Building the floor is not timed.

The dashboard keeps the sums of what can no longer change (finished rounds, ledger entries,
postings older than a minute) in the cache and reads only what is newer on each refresh
(``pit.selectors``); the first refresh of a shift reads all of it, and is timed apart
("cold", the cache cleared). Then each page is fetched ``--requests`` times through Django's test ``Client``
(signed in as a Pit boss: the whole request cycle, session, middleware, the view, the
template; no network, no web server), with ``time.perf_counter`` and the garbage
collector off, after a few warm-up requests. The figures are the median and 99th
percentile server time, and the number of queries one request sends (which must not
grow with the tables: the dashboard reads with aggregate queries grouped by table).

The data lives in a database made for the run and dropped after it: on PostgreSQL
(``DATABASE_URL`` is ``postgres://...``) a database called ``tableside_bench_dashboard``
on that server, made afresh (and analysed after the bulk load, as autovacuum would);
otherwise a SQLite file in a temporary directory. DEBUG is off while timing (no query
log), as in production.

With ``REDIS_URL`` set (the cache, and the floor's log of changed tables), it also times the live refresh after
one table changed ("one changed"): a table marked changed as a settle there marks it, then the poll the dashboard's
last answer gave, which sends the head and that table's rows alone (``pit.views.pit_live``). With the floor's log,
each process keeps the lines it read and reads again only the tables changed since (``pit.selectors``): the timed
requests after the warm-up are the ones a pit boss meets; the cold line is a process's first read of the floor.
From ``LARGE_FLOOR`` tables the page's bound is its p99 (``LARGE_TARGET_P99_MS``), as for a whole floor of 2,000.

``--keep`` leaves the database for a later ``--reuse`` (same floor options), which times it without building it.

Run from the repository root::

    python bench/dashboard.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tableside python bench/dashboard.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tableside REDIS_URL=redis://127.0.0.1:6379/1 \
        python bench/dashboard.py --tables 2000 --hours 1
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import itertools
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.harness import machine, setup_django, throwaway_database  # noqa: E402

BENCH_DATABASE = "tableside_bench_dashboard"
SEED = 20261121
TARGET_MS = 100  # server time of one dashboard request, with 200 open tables
DELTA_TARGET_MS, DELTA_TARGET_KIB = 100, 50  # the live refresh after one table changed, at 2,000 tables
LARGE_FLOOR, LARGE_TARGET_P99_MS = 1_000, 300  # from this many tables: the page's p99 bound instead (a whole floor)
MAX_QUERIES = 12  # 17 added the rated players seated now; 18 the poker room's running tournaments (none run here)
COMMISSION_BP = RAKE_BP = 500
# The games in turn, with their seats and whether the house banks (else a points game with a rake).
GAMES = (("paigow_poker", 6, True), ("paigow_tiles", 7, True), ("chinese_poker", 4, False), ("ofc", 3, False))
MIN_WAGER, MAX_WAGER = 1_000, 50_000  # the banked games' limits; the points games play for 5.00 to 50.00 a point
POINT_MIN, POINT_MAX = 500, 5_000
# A pair's points in the points games (a scoop with royalties is rare) and their weights.
PAIR_POINTS, PAIR_WEIGHTS = (-9, -6, -4, -3, -2, -1, 0, 1, 2, 3, 4, 6, 9), (1, 2, 4, 8, 12, 14, 10, 14, 12, 8, 4, 2, 1)
BIG_WIN = 40_000  # the alert threshold at every table: a few seats win more than 400.00 in a shift
BUY_INS_PER_HOUR = 5  # at each table: 40 buy-ins a table in an eight-hour shift, 8,000 on the floor
TRAY_CENTS = 3_000_000  # what each tray was left with: 30,000.00


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="open tables (default 200)")
    parser.add_argument("--hours", type=float, default=8.0, help="hours of the shift played so far (default 8)")
    parser.add_argument("--per-hour", type=int, default=30, help="rounds an hour at each table (default 30)")
    parser.add_argument("--requests", type=int, default=100, help="timed requests a page (default 100)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--queries", action="store_true", help="print the SQL of one dashboard request")
    parser.add_argument("--keep", action="store_true", help="keep the throwaway database (and say where it is)")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="time the floor a run with --keep left (same --tables, --hours, --per-hour) instead of building it",
    )
    args = parser.parse_args(argv)
    if args.tables < 1 or args.requests < 1 or args.per_hour < 1 or args.hours <= 0:
        parser.error("--tables, --requests, --per-hour and --hours must be positive")
    return args


# --- the throwaway database -----------------------------------------------------------------------


# --- the floor and a shift of rounds --------------------------------------------------------------


def _fee(amount: int, bp: int) -> int:
    return amount * bp // 10_000


def _banked_settlement(wagers: dict[int, int], rng: random.Random) -> tuple[list[tuple], dict[str, Any]]:
    """Ledger lines (account, seat, amount, kind) and the result of a house-banked round, as compute.settle_banked."""
    lines: list[tuple] = []
    seats, house_won, commission_total = [], 0, 0
    for seat, amount in wagers.items():
        outcome = rng.choices(("win", "loss", "push"), weights=(40, 42, 18))[0]
        won = commission = 0
        if outcome == "loss":
            lines += [("wagers", None, -amount, "bank"), ("house", None, amount, "bank")]
            won, house_won = -amount, house_won + amount
        else:
            lines += [("wagers", None, -amount, "payout"), ("player", seat, amount, "payout")]
            if outcome == "win":
                commission = _fee(amount, COMMISSION_BP)
                lines += [("house", None, -amount, "payout"), ("player", seat, amount, "payout")]
                lines += [("player", seat, -commission, "commission"), ("commission", None, commission, "commission")]
                won, house_won, commission_total = amount, house_won - amount, commission_total + commission
        seats.append({"seat": seat, "wager_cents": amount, "outcome": outcome, "won_cents": won,
                      "commission_cents": commission, "net_cents": won - commission})  # fmt: skip
    house = {"bank_won_cents": house_won, "commission_cents": commission_total, "rake_cents": 0,
             "total_cents": house_won + commission_total}  # fmt: skip
    return lines, {"seats": seats, "bank": None, "house": house}


def _points_settlement(wagers: dict[int, int], rng: random.Random) -> tuple[list[tuple], dict[str, Any]]:
    """Ledger lines and result of a points round (Chinese Poker, OFC), as compute.settle_points."""
    order = list(wagers)
    cents = dict.fromkeys(order, 0)
    for a, b in itertools.combinations(order, 2):
        points = rng.choices(PAIR_POINTS, PAIR_WEIGHTS)[0]
        stake = min(wagers[a], wagers[b])
        cents[a] += points * stake
        cents[b] -= points * stake
    lines: list[tuple] = [("player", seat, amount, "payout") for seat, amount in cents.items() if amount]
    seats, rake_total = [], 0
    for seat, amount in cents.items():
        rake = _fee(amount, RAKE_BP) if amount > 0 else 0
        if rake:
            lines += [("player", seat, -rake, "rake"), ("rake", None, rake, "rake")]
        rake_total += rake
        seats.append({"seat": seat, "stake_cents": wagers[seat], "won_cents": amount, "rake_cents": rake,
                      "net_cents": amount - rake})  # fmt: skip
    house = {"bank_won_cents": 0, "commission_cents": 0, "rake_cents": rake_total, "total_cents": rake_total}
    return lines, {"seats": seats, "pairs": [], "bank": None, "house": house}


def floor_build(args: argparse.Namespace, rng: random.Random) -> tuple[Any, dict[str, int]]:
    """Staff, pits, an open shift ``--hours`` old, and the tables with their rounds; the pit boss and the counts."""
    from django.contrib.auth.models import Group, User
    from django.db import connection, transaction
    from django.utils import timezone

    from casino.models import Shift
    from casino.roles import Role
    from casino.services import gaming_day_open, pit_create, shift_open
    from ledger.models import LedgerEntry, Posting
    from rounds.models import Adjustment, BankTurn, Round, Wager
    from rules.services import rule_set_create
    from tables.models import Seat, Table
    from tables.services import table_assign_dealer, table_create, table_open

    def user(name: str, role: Role) -> Any:
        made = User.objects.create_user(username=name, password="bench-pass-word")
        made.groups.add(Group.objects.get(name=role.value))
        return made

    pit_boss = user("bench_pit_boss", Role.PIT_BOSS)
    dealers = [user(f"bench_dealer_{n:02d}", Role.DEALER) for n in range(1, 21)]
    pits = [pit_create(actor=pit_boss, name=f"Pit {n}") for n in range(1, 5)]
    gaming_day_open(actor=pit_boss, business_date=dt.date(2026, 11, 21))
    shift = shift_open(actor=pit_boss, name="Day")
    now = timezone.now()
    started = now - dt.timedelta(hours=args.hours)
    Shift.objects.filter(pk=shift.pk).update(opened_at=started)
    extra = {"commission_on_player_wins": True}
    rule_sets = {
        game: rule_set_create(actor=pit_boss, name=f"Bench {game}", game=game, **(extra if banked else {}))
        if banked
        else rule_set_create(actor=pit_boss, name=f"Bench {game}", game=game, rake_bp=RAKE_BP)
        for game, _, banked in GAMES
    }
    snapshots = {game: rule_set.snapshot() for game, rule_set in rule_sets.items()}
    tables = []
    for number in range(1, args.tables + 1):
        game, seats, _ = GAMES[(number - 1) % len(GAMES)]
        table = table_create(
            actor=pit_boss,
            pit=pits[(number - 1) * len(pits) // args.tables],
            name=f"T-{number:03d}",
            game=game,
            min_wager_cents=MIN_WAGER,
            max_wager_cents=MAX_WAGER,
            seat_count=seats,
            rule_set=rule_sets[game],
        )
        table = table_assign_dealer(actor=pit_boss, table=table, dealer=dealers[number % len(dealers)])
        tables.append(table_open(actor=pit_boss, table=table))
    Table.objects.update(big_win_cents=BIG_WIN)
    seat_rows = Seat.objects.bulk_create(Seat(table=t, number=n) for t in tables for n in range(1, t.seat_count + 1))
    seat_ids = {(seat.table_id, seat.number): seat.pk for seat in seat_rows}

    per_table = max(1, round(args.hours * args.per_hour))
    step = dt.timedelta(hours=args.hours) / per_table
    counts = {"rounds": 0, "wagers": 0, "postings": 0, "ledger entries": 0}
    for table in tables:  # a table at a time: its rounds, then their wagers, postings and entries in bulk
        game, seats, banked = next(g for g in GAMES if g[0] == table.game)
        rounds, plans = [], []
        in_a_row = 0
        lag = step * rng.random()  # the tables do not deal in step: each has its last round open since a moment
        for number in range(1, per_table + 1):
            last = number == per_table
            voided = not last and rng.random() < 0.01
            state = "open" if last else ("voided" if voided else "settled")
            opened = now - step * (per_table - number) - lag
            rounds.append(
                Round(
                    table=table,
                    number=number,
                    shift=shift,
                    state=state,
                    rule_set_snapshot=snapshots[game],
                    opened_at=opened,
                    state_changed_at=opened + step * 0.9,
                    void_reason="Misdeal" if voided else "",
                )  # fmt: skip
            )
            low, high = (MIN_WAGER, MAX_WAGER) if banked else (POINT_MIN, POINT_MAX)
            wagers = {seat: rng.randrange(low, high + 1, 500) for seat in range(1, seats + 1)}
            plans.append(wagers)
        with transaction.atomic():
            Round.objects.bulk_create(rounds)
            turns = []
            for round_ in rounds:
                if banked:
                    in_a_row = 1 if round_.state == "voided" else in_a_row + 1
                    turns.append(BankTurn(round=round_, seat=None, consecutive=max(in_a_row, 1)))
            BankTurn.objects.bulk_create(turns)
            Wager.objects.bulk_create(
                Wager(round=r, seat_id=seat_ids[(table.pk, seat)], amount_cents=amount)
                for r, wagers in zip(rounds, plans, strict=True)
                for seat, amount in wagers.items()
            )
            postings: list[tuple[Any, list[tuple], Any]] = []
            for round_, wagers in zip(rounds, plans, strict=True):
                if banked:
                    for seat, amount in wagers.items():
                        lines = [("player", seat, -amount, "wager"), ("wagers", None, amount, "wager")]
                        postings.append((Posting(round_id=round_.pk, kind="wager"), lines, round_))
                if round_.state == "voided" and banked:
                    lines = [
                        (a, s, -amount, "reversal") for _, posted, _ in postings[-seats:] for a, s, amount, _ in posted
                    ]
                    postings.append((Posting(round_id=round_.pk, kind="void", reason="Misdeal"), lines, round_))
                elif round_.state == "settled":
                    lines, result = (_banked_settlement if banked else _points_settlement)(wagers, rng)
                    posting = Posting(round_id=round_.pk, kind="settlement", idempotency_key=f"bench-{round_.pk}",
                                      result=result, hands={})  # fmt: skip
                    postings.append((posting, lines, round_))
            # Stamped when they were posted, not now (auto_now_add off for this insert: postings are append-only,
            # in the database too, so they cannot be re-dated after it).
            created_at = Posting._meta.get_field("created_at")
            created_at.auto_now_add = False
            try:
                for p, _, of in postings:
                    p.created_at = of.state_changed_at
                Posting.objects.bulk_create(p for p, _, _ in postings)
            finally:
                created_at.auto_now_add = True
            entries = [
                LedgerEntry(
                    posting=p,
                    round_id=p.round_id,
                    account=account,
                    seat_id=seat_ids[(table.pk, seat)] if seat else None,
                    amount_cents=amount,
                    kind=kind,
                    created_at=of.state_changed_at,
                )  # fmt: skip
                for p, lines, of in postings
                for account, seat, amount, kind in lines
            ]
            LedgerEntry.objects.bulk_create(entries, batch_size=2000)
        counts["rounds"] += len(rounds)
        counts["wagers"] += sum(len(w) for w in plans)
        counts["postings"] += len(postings)
        counts["ledger entries"] += len(entries)
    counts.update(money_build(args, rng, tables=tables, shift=shift, dealers=dealers, pit_boss=pit_boss, now=now))
    if connection.vendor == "postgresql":  # the planner's statistics, as autovacuum keeps them after a shift's writes
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    open_rounds = list(Round.objects.filter(state="open").order_by("table_id")[:10])
    Adjustment.objects.bulk_create(
        Adjustment(round=r, kind="void", reason="Card exposed", requested_by=dealers[0]) for r in open_rounds
    )
    return User.objects.get(pk=pit_boss.pk), counts


def money_build(
    args: argparse.Namespace, rng: random.Random, *, tables: list[Any], shift: Any, dealers: list[Any],
    pit_boss: Any, now: dt.datetime
) -> dict[str, int]:  # fmt: skip
    """The table's money of the shift at every table (see the module's docstring), bulk-created."""
    from django.contrib.auth.models import Group, User

    from casino.roles import Role
    from tables.models import BuyIn, Slip, SlipSequence, TrayCount

    cage = User.objects.create_user(username="bench_cage", password="bench-pass-word")
    cage.groups.add(Group.objects.get(name=Role.CAGE_CASHIER.value))
    started = now - dt.timedelta(hours=args.hours)
    per_table = max(1, round(args.hours * BUY_INS_PER_HOUR))
    buy_ins, slips, trays = [], [], []
    numbers = {"fill": 0, "credit": 0}

    def slip(table: Any, kind: str, status: str, cents: int, at: dt.datetime) -> Slip:
        numbers[kind] += 1
        done = status != "requested"
        return Slip(kind=kind, number=numbers[kind], table=table, shift=shift, chips={"100000": cents // 100_000},
                    total_cents=cents, status=status, requested_by=table.dealer, requested_at=at,
                    issued_by=cage if done else None, issued_at=at if done else None,
                    dealer_signed_by=table.dealer if status == "received" else None,
                    supervisor_signed_by=pit_boss if status == "received" else None,
                    received_at=at if status == "received" else None)  # fmt: skip

    for number, table in enumerate(tables, start=1):
        dealer = table.dealer
        for n in range(per_table):
            at = started + dt.timedelta(hours=args.hours) * (n + rng.random()) / per_table
            medium = "marker" if rng.random() < 0.2 else "cash"
            buy_ins.append(BuyIn(table=table, shift=shift, seat_number=rng.randint(1, table.seat_count), medium=medium,
                                 amount_cents=rng.randrange(10_000, 200_001, 5_000), recorded_by=dealer,
                                 recorded_at=at))  # fmt: skip
        for hour in (1, 3, 5):
            slips.append(slip(table, "fill", "received", 1_000_000, started + dt.timedelta(hours=hour)))
        slips.append(slip(table, "credit", "received", 500_000, started + dt.timedelta(hours=6)))
        if number % 4 == 0:
            kind, status = ("fill", "requested") if number % 8 == 0 else ("credit", "issued")
            slips.append(slip(table, kind, status, 500_000, now - dt.timedelta(minutes=rng.randint(2, 40))))
        off = 3_000 if number % 10 == 0 else -15_000 if number % 25 == 0 else 0
        waiting = number % 50 == 0
        trays.append(TrayCount(table=table, shift=shift, kind="closer", counts={"100000": TRAY_CENTS // 100_000},
                               total_cents=TRAY_CENTS, counted_by=dealer, counted_at=started - dt.timedelta(minutes=5),
                               status="confirmed", confirmed_by=pit_boss,
                               confirmed_at=started - dt.timedelta(minutes=4)))  # fmt: skip
        trays.append(TrayCount(table=table, shift=shift, kind="opener", counts={"100000": TRAY_CENTS // 100_000},
                               total_cents=TRAY_CENTS + off, expected_cents=TRAY_CENTS, counted_by=dealer,
                               counted_at=started, status="counted" if waiting else "confirmed",
                               confirmed_by=None if waiting else pit_boss,
                               confirmed_at=None if waiting else started))  # fmt: skip
    BuyIn.objects.bulk_create(buy_ins, batch_size=2000)
    Slip.objects.bulk_create(slips, batch_size=2000)
    TrayCount.objects.bulk_create(trays, batch_size=2000)
    for kind, last in numbers.items():
        SlipSequence.objects.update_or_create(kind=kind, defaults={"last_number": last})
    pending = sum(1 for made in slips if made.status in ("requested", "issued"))
    return {"buy-ins": len(buy_ins), "slips": len(slips), "pending slips": pending, "tray counts": len(trays)}


def floor_kept() -> Any:
    """The pit boss of a floor an earlier run built and kept (``--keep``), or None when there is none."""
    from django.contrib.auth.models import User
    from django.db import DatabaseError

    try:
        return User.objects.filter(username="bench_pit_boss").first()
    except DatabaseError:  # a database made afresh: nothing migrated yet
        return None


# --- timing ---------------------------------------------------------------------------------------


def timed(client: Any, url: str, requests: int) -> list[float]:
    """``requests`` GETs of ``url``; the seconds each took (the garbage collector off while timing)."""
    for _ in range(5):  # warm up: templates compiled, caches and the connection ready
        _get(client, url)
    latencies = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(requests):
            started = time.perf_counter()
            _get(client, url)
            latencies.append(time.perf_counter() - started)
    finally:
        gc.enable()
    return latencies


def _get(client: Any, url: str) -> Any:
    response = client.get(url)
    if response.status_code != 200:
        raise RuntimeError(f"{url} answered {response.status_code}: {response.content[:300]!r}")
    return response


def percentile_ms(latencies: list[float], q: float) -> float:
    ordered = sorted(latencies)
    return 1000 * ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def queries_of_one_request(client: Any, url: str) -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        _get(client, url)
    return [query["sql"] for query in captured.captured_queries]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    with throwaway_database(BENCH_DATABASE, args.keep, reuse=args.reuse) as where:
        setup_django()
        from django.core.cache import cache
        from django.test import Client

        print(
            f"Pit-boss dashboard: {args.tables} open tables of the four games, {args.hours:g} hours of the shift "
            f"at {args.per_hour} rounds an hour; {args.requests} timed requests a page"
        )
        print(f"machine:  {machine()}")
        print(f"database: {where}; DEBUG off")
        started = time.perf_counter()
        pit_boss = floor_kept() if args.reuse else None
        if pit_boss is None:
            pit_boss, counts = floor_build(args, random.Random(args.seed))
            made = ", ".join(f"{count:,} {name}" for name, count in counts.items())
            print(f"floor:    {made}; built in {time.perf_counter() - started:.1f} s (not timed)")
        else:
            print("floor:    the one the last run kept")
        client = Client()
        client.force_login(pit_boss)
        cold = []
        for _ in range(3):  # the first refresh of a shift reads all of it and seals what can no longer change
            cache.clear()
            started = time.perf_counter()
            _get(client, "/pit/")
            cold.append(time.perf_counter() - started)
        print(f"cold:     the first /pit/ of the shift (nothing sealed yet) {1000 * min(cold):.0f} ms (best of 3)")
        print()
        print(f"{'page':<14}{'p50 ms':>9}{'p99 ms':>9}{'mean ms':>9}{'queries':>9}{'KiB':>7}   target")
        failed = False
        for url in ("/pit/", "/pit/live/"):
            latencies = timed(client, url, args.requests)
            sql = queries_of_one_request(client, url)
            size = len(_get(client, url).content) / 1024
            p50, p99 = percentile_ms(latencies, 0.5), percentile_ms(latencies, 0.99)
            if args.tables >= LARGE_FLOOR:
                ok, bound = p99 <= LARGE_TARGET_P99_MS and len(sql) <= MAX_QUERIES, f"<= {LARGE_TARGET_P99_MS} ms p99"
            else:
                ok, bound = p50 <= TARGET_MS and len(sql) <= MAX_QUERIES, f"<= {TARGET_MS} ms"
            failed |= not ok
            print(
                f"{url:<14}{p50:>9.1f}{p99:>9.1f}{1000 * statistics.fmean(latencies):>9.1f}{len(sql):>9}{size:>7.0f}"
                f"   {bound}, <= {MAX_QUERIES} queries: {'PASS' if ok else 'BELOW'}"
            )
            if args.queries and url == "/pit/":
                for number, statement in enumerate(sql, start=1):
                    print(f"  {number:>2}. {statement}")
        delta = one_table_changed(client, args.requests)
        if delta is None:
            print("/pit/live/ after one table changed: needs REDIS_URL (the floor's log of changed tables)")
        else:
            latencies, sizes = delta
            p50, p99 = percentile_ms(latencies, 0.5), percentile_ms(latencies, 0.99)
            kib = statistics.median(sizes) / 1024
            ok = p99 <= DELTA_TARGET_MS and kib <= DELTA_TARGET_KIB
            failed |= not ok
            print(
                f"{'one changed':<14}{p50:>9.1f}{p99:>9.1f}{1000 * statistics.fmean(latencies):>9.1f}{'':>9}"
                f"{kib:>7.1f}   <= {DELTA_TARGET_MS} ms p99, <= {DELTA_TARGET_KIB} KiB: {'PASS' if ok else 'BELOW'}"
                f" (largest {max(sizes) / 1024:.1f} KiB: the lists sent again, as they changed)"
            )
    return 1 if failed else 0


def one_table_changed(client: Any, requests: int) -> tuple[list[float], list[int]] | None:
    """The live refresh after one table changed, as a dashboard polls: a table marked changed (as a settle there
    marks it, on commit), then the poll the last answer gave, timed; ``requests`` times, a table in turn. None
    without Redis (the embedded default's refresh draws everything: the /pit/live/ line above)."""
    import re

    from django.conf import settings
    from django.db import transaction

    from tables.live import table_changed
    from tables.models import Table

    if "redis" not in settings.CACHES["default"]["BACKEND"].lower():
        return None
    ids = list(Table.objects.order_by("pk").values_list("pk", flat=True))

    def poll_of(html: str) -> str:
        found = re.search(r'id="pit-poll" hidden hx-get="([^"]+)"', html)
        assert found, "the live part carries its poll"
        return found.group(1).replace("&amp;", "&")

    url = poll_of(_get(client, "/pit/").content.decode())
    latencies, sizes = [], []
    gc.collect()
    gc.disable()
    try:
        for n in range(requests + 5):
            with transaction.atomic():
                table_changed(ids[(n * 7) % len(ids)])
            started = time.perf_counter()
            answer = _get(client, url)
            took = time.perf_counter() - started
            html = answer.content.decode()
            if html.count('class="table-rows"') != 1:
                raise RuntimeError("the refresh after one table changed did not send that table alone")
            url = poll_of(html)
            if n >= 5:  # the first few warm up
                latencies.append(took)
                sizes.append(len(answer.content))
    finally:
        gc.enable()
    return latencies, sizes


if __name__ == "__main__":
    raise SystemExit(main())
