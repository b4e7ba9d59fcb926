"""Settlement speed: ``settle_round`` through the service and through the HTTP API, on a throwaway database.

Every round is a seven-position Pai Gow Poker round: a six-seat table, a wager on
each seat, the house banking. It is prepared through the services (open, six
wagers, close the betting, the system's seeded deal, then every seat's hand and
the bank's set by ``paigow_poker.house_way`` on the cards dealt, so the hands are
explicit), none of which is timed. Then only the settle is timed, one call at a
time, with ``time.perf_counter`` and the garbage collector off:

* ``service``: ``settlement.services.settle_round`` called in process;
* ``http``: ``POST /api/rounds/{id}/settle/`` with an ``Idempotency-Key`` and a
  DRF token, through Django's test ``Client`` (the whole request cycle: middleware,
  authentication, the view, the JSON answer; no network, no web server).

The rounds are played at ``--tables`` tables: one revealed round is prepared at
every table (a table has one unfinished round at a time), then those are settled
back to back, and so on. Each figure is rounds a second over all the rounds of a
run (their number over the sum of the settle calls' own times), the median and
99th percentile latency, and the bench process's own CPU time a settle (the rest
is mostly waiting for the database); ``--repeats`` runs a path, the best shown.

The data lives in a database made for the run and dropped after it: on
PostgreSQL (``DATABASE_URL`` is ``postgres://...``) a database called
``tableside_bench`` on that server, made afresh; otherwise a SQLite file in a
temporary directory. DEBUG is off while timing (no query log), as in production.

Run from the repository root::

    DJANGO_SETTINGS_MODULE=config.settings python bench/settlement.py --rounds 1000 --http
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tableside python bench/settlement.py --rounds 1000 --http

``--breakdown`` times each statement of a settle in the driver and the rest;
``--profile`` runs cProfile (on CPU time: waiting on the database counts for nothing) over more settles
and prints the top functions;
``--queries`` prints the SQL one settle sends. See docs/performance.md, "Settlement".
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import gc
import io
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.harness import close_connections, machine, setup_django, throwaway_database  # noqa: E402

BENCH_DATABASE = "tableside_bench"
SEED = 20261121
SEATS = 6
TARGET = 300  # rounds a second through the service, on PostgreSQL
MIN_WAGER, MAX_WAGER = 1_000, 50_000


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=500, help="rounds settled per run and path (default 500)")
    parser.add_argument("--http", action="store_true", help="also time the HTTP API (POST .../settle/)")
    parser.add_argument("--repeats", type=int, default=2, help="runs per path; the best is reported (default 2)")
    parser.add_argument("--tables", type=int, default=100, help="tables the rounds are played at (default 100)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--profile", action="store_true", help="cProfile extra service settles and print the top")
    parser.add_argument("--queries", action="store_true", help="print the SQL of one settle of each path")
    parser.add_argument("--breakdown", action="store_true", help="time each statement of a settle, and the rest")
    parser.add_argument("--keep", action="store_true", help="keep the throwaway database (and say where it is)")
    parser.add_argument(
        "--streams",
        type=int,
        default=1,
        help="also settle through the service in this many processes at once, as several tables do (default 1: not)",
    )
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.repeats < 1 or args.tables < 1 or args.streams < 1:
        parser.error("--rounds, --repeats, --tables and --streams are at least 1")
    return args


# --- the throwaway database -----------------------------------------------------------------------


# --- the floor and its rounds ---------------------------------------------------------------------


@dataclass
class Floor:
    dealer: Any
    tables: list[Any]
    token: str


def floor_build(tables: int) -> Floor:
    """Staff, a pit, an open gaming day and shift, and six-seat Pai Gow Poker tables worked by one dealer."""
    from django.contrib.auth.models import Group, User
    from rest_framework.authtoken.models import Token

    from casino.roles import Role
    from casino.services import gaming_day_open, pit_create, shift_open
    from tables.services import table_assign_dealer, table_create, table_open

    def user(name: str, role: Role) -> Any:
        made = User.objects.create_user(username=name, password=None)
        made.groups.add(Group.objects.get(name=role.value))
        return made

    pit_boss = user("bench_pit_boss", Role.PIT_BOSS)
    dealer = user("bench_dealer", Role.DEALER)
    pit = pit_create(actor=pit_boss, name="Bench pit")
    gaming_day_open(actor=pit_boss, business_date=dt.date(2026, 11, 21))
    shift_open(actor=pit_boss, name="Bench shift")
    made = []
    for number in range(1, tables + 1):
        table = table_create(
            actor=pit_boss,
            pit=pit,
            name=f"PGP-{number:03d}",
            game="paigow_poker",
            min_wager_cents=MIN_WAGER,
            max_wager_cents=MAX_WAGER,
            seat_count=SEATS,
        )
        table = table_assign_dealer(actor=pit_boss, table=table, dealer=dealer)
        made.append(table_open(actor=pit_boss, table=table))
    token = Token.objects.create(user=dealer).key
    return Floor(dealer=User.objects.get(pk=dealer.pk), tables=made, token=token)


def round_revealed(floor: Floor, table: Any, rng: random.Random) -> Any:
    """A revealed round at ``table``: six wagers, the seeded system deal, every hand set by the house way."""
    from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
    from rules.games.cards import cards_text, parse_cards
    from rules.games.paigow_poker import house_way

    dealer = floor.dealer
    round_ = round_open(actor=dealer, table=table)
    for seat in range(1, SEATS + 1):
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=rng.randint(MIN_WAGER, MAX_WAGER))
    round_close_betting(actor=dealer, round=round_)
    round_ = round_deal(actor=dealer, round=round_, auto=True, rng=random.Random(rng.getrandbits(64)))

    def setting(position: str) -> dict[str, str]:
        chosen = house_way(parse_cards(round_.dealt[position]))
        return {"high": cards_text(chosen.high), "low": cards_text(chosen.low)}

    hands = {"banker": setting("0"), "seats": {str(seat): setting(str(seat)) for seat in range(1, SEATS + 1)}}
    return round_hands_record(actor=dealer, round=round_, hands=hands)


# --- timing ---------------------------------------------------------------------------------------


@dataclass
class SettlePath:
    """One way of settling: ``prepare`` a revealed round (not timed), then ``settle`` it (timed)."""

    name: str
    prepare: Callable[[Any], Any]
    settle: Callable[[Any, str], None]


def service_path(floor: Floor) -> SettlePath:
    from django.contrib.auth.models import User

    from settlement.services import settle_round

    def prepare(round_: Any) -> tuple[Any, Any]:
        # Its own user object for every call, as every request has one (roles are read once per user object).
        return round_, User.objects.get(pk=floor.dealer.pk)

    def settle(prepared: tuple[Any, Any], key: str) -> None:
        round_, actor = prepared
        settle_round(round=round_, actor=actor, idempotency_key=key)

    return SettlePath("service", prepare, settle)


def http_path(floor: Floor) -> SettlePath:
    from django.test import Client

    client = Client()
    auth = f"Token {floor.token}"

    def settle(round_: Any, key: str) -> None:
        response = client.post(f"/api/rounds/{round_.pk}/settle/", HTTP_AUTHORIZATION=auth, HTTP_IDEMPOTENCY_KEY=key)
        if response.status_code != 200:
            raise RuntimeError(f"settle answered {response.status_code}: {response.content[:300]!r}")

    return SettlePath("http", lambda round_: round_, settle)


@dataclass
class Run:
    path: str
    latencies: list[float]  # seconds, one a settle
    cpu: float  # seconds of this process's CPU over all the settles (the rest is waiting, mostly on the database)
    prepare_seconds: float

    @property
    def rate(self) -> float:
        return len(self.latencies) / sum(self.latencies)

    @property
    def cpu_ms(self) -> float:
        return 1000 * self.cpu / len(self.latencies)

    def percentile_ms(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def prepared_batches(floor: Floor, path: SettlePath, rounds: int, rng: random.Random) -> Iterator[tuple[list, float]]:
    """Revealed rounds, one a table at a time (a table has one unfinished round), and the seconds they took."""
    done = 0
    while done < rounds:
        batch = floor.tables[: min(len(floor.tables), rounds - done)]
        started = time.perf_counter()
        prepared = [path.prepare(round_revealed(floor, table, rng)) for table in batch]
        yield prepared, time.perf_counter() - started
        done += len(batch)


def _pk(prepared: Any) -> int:
    return int((prepared[0] if isinstance(prepared, tuple) else prepared).pk)


def timed_run(floor: Floor, path: SettlePath, rounds: int, rng: random.Random, tag: str) -> Run:
    """Prepare and settle ``rounds`` rounds; only the settle calls are timed, with the garbage collector off."""
    latencies: list[float] = []
    cpu = preparing = 0.0
    for batch, seconds in prepared_batches(floor, path, rounds, rng):
        preparing += seconds
        gc.collect()
        gc.disable()
        try:
            for prepared in batch:
                key = f"{tag}-{_pk(prepared)}"
                cpu_started = time.process_time()
                started = time.perf_counter()
                path.settle(prepared, key)
                latencies.append(time.perf_counter() - started)
                cpu += time.process_time() - cpu_started
        finally:
            gc.enable()
    return Run(path.name, latencies, cpu, preparing)


@dataclass
class StreamsRun:
    streams: int
    rounds: int
    seconds: float  # wall time of the settles, from the first stream's start to the last one's end, batch by batch
    latencies: list[float]

    @property
    def rate(self) -> float:
        return self.rounds / self.seconds


def _stream(floor: Floor, round_ids: list[int], tag: str, barrier: Any, results: Any) -> None:
    """One process of ``streams_run``: settle ``round_ids`` one after the other, from the moment all are ready."""
    from django.db import connections

    from rounds.models import Round

    try:
        path = service_path(floor)  # the same call as the single stream's, with a user object a call
        rounds = Round.objects.select_related("table").filter(pk__in=round_ids).order_by("pk")
        prepared = [path.prepare(round_) for round_ in rounds]
        gc.collect()
        gc.disable()
        latencies = []
        barrier.wait()
        started = time.perf_counter()  # CLOCK_MONOTONIC: comparable between the processes
        for one in prepared:
            begun = time.perf_counter()
            path.settle(one, f"{tag}-{_pk(one)}")
            latencies.append(time.perf_counter() - begun)
        results.put(("ok", started, time.perf_counter(), latencies))
    except BaseException as exc:  # the parent waits for every stream: it must hear of a failure
        barrier.abort()
        results.put(("error", repr(exc), 0.0, []))
    finally:
        connections.close_all()


def streams_run(floor: Floor, rounds: int, streams: int, rng: random.Random, tag: str) -> StreamsRun:
    """``rounds`` settles through the service by ``streams`` processes at once, each on its own share of the rounds.

    Rounds are prepared in the parent, one a table (a batch), untimed; the database connection is closed and
    the streams are forked, each reconnecting; they start together at a barrier. A batch's time is from the
    first stream's start to the last one's end; the rate is the rounds over the batches' times.
    """
    import multiprocessing

    from django.db import connections

    context = multiprocessing.get_context("fork")
    total = seconds = 0.0
    latencies: list[float] = []
    done = 0
    while done < rounds:
        batch = floor.tables[: min(len(floor.tables), rounds - done)]
        ids = [round_revealed(floor, table, rng).pk for table in batch]
        connections.close_all()  # never share a connection with a child
        barrier, results = context.Barrier(streams), context.Queue()
        children = [
            context.Process(target=_stream, args=(floor, ids[i::streams], tag, barrier, results))
            for i in range(streams)
        ]
        for child in children:
            child.start()
        answers = [results.get(timeout=600) for _ in children]
        for child in children:
            child.join()
        failures = [answer[1] for answer in answers if answer[0] != "ok"]
        if failures:
            raise RuntimeError(f"a stream failed: {failures[0]}")
        seconds += max(answer[2] for answer in answers) - min(answer[1] for answer in answers)
        latencies += [latency for answer in answers for latency in answer[3]]
        total += len(ids)
        done += len(batch)
    return StreamsRun(streams, int(total), seconds, latencies)


def queries_of_one_settle(floor: Floor, path: SettlePath, rng: random.Random) -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    prepared = path.prepare(round_revealed(floor, floor.tables[0], rng))
    with CaptureQueriesContext(connection) as captured:
        path.settle(prepared, f"queries-{path.name}-{_pk(prepared)}")
    return [query["sql"] for query in captured.captured_queries]


def profile(floor: Floor, path: SettlePath, rng: random.Random, rounds: int) -> str:
    """cProfile over ``rounds`` settles (prepared beforehand, not profiled): the top by own and by total CPU time."""
    profiler = cProfile.Profile(time.process_time)
    for batch, _ in prepared_batches(floor, path, rounds, rng):
        profiler.enable()
        for prepared in batch:
            path.settle(prepared, f"profile-{path.name}-{_pk(prepared)}")
        profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(30)
    stats.sort_stats("cumulative").print_stats(60)
    return out.getvalue()


def breakdown(floor: Floor, path: SettlePath, rng: random.Random, rounds: int) -> list[str]:
    """Where one settle's time goes: each statement's time in the driver (send, server, answer) and the rest.

    Statements are matched by their position in the settle (every settle sends the same
    sequence); "the rest" is everything outside the driver's execute: the ORM building
    SQL and model objects, the hands re-read and the engine, the audit hash, DRF.
    """
    from django.db import connection

    per_position: dict[int, list[float]] = {}
    text: dict[int, str] = {}
    totals: list[float] = []
    seen: list[tuple[str, float]] = []

    def timed(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            seen.append((sql, time.perf_counter() - started))

    for batch, _ in prepared_batches(floor, path, rounds, rng):
        for prepared in batch:
            seen.clear()
            gc.disable()
            started = time.perf_counter()
            with connection.execute_wrapper(timed):
                path.settle(prepared, f"breakdown-{path.name}-{_pk(prepared)}")
            totals.append(time.perf_counter() - started)
            gc.enable()
            for position, (sql, seconds) in enumerate(seen):
                per_position.setdefault(position, []).append(seconds)
                text.setdefault(position, sql)
    mean_total = statistics.fmean(totals)
    lines = [f"{path.name}: {len(totals)} settles, {1000 * mean_total:.2f} ms each on average (with the timing hooks)"]
    in_driver = 0.0
    for position in sorted(per_position):
        mean = statistics.fmean(per_position[position])
        in_driver += mean
        sql = " ".join(text[position].split())
        lines.append(f"  {position + 1:2d}. {1000 * mean:6.3f} ms  {sql[:150]}")
    lines.append(f"      {1000 * in_driver:6.3f} ms  in the driver's execute ({len(per_position)} statements)")
    rest = 1000 * (mean_total - in_driver)
    lines.append(f"      {rest:6.3f} ms  outside it (BEGIN and COMMIT; Python: the ORM, the services, the engine)")
    return lines


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    with throwaway_database(BENCH_DATABASE, args.keep) as where:
        setup_django()
        from django.db import connection

        from ledger.verify import ledger_verify

        rng = random.Random(args.seed)
        print(
            f"Settlement: {args.rounds} rounds a run of seven-position Pai Gow Poker (six wagers, the house banks, "
            "every hand set explicitly); only the settle is timed"
        )
        print(f"machine:  {machine()}")
        print(f"database: {where}; DEBUG off; {args.repeats} run(s) a path, the best reported")
        started = time.perf_counter()
        floor = floor_build(min(args.tables, args.rounds))
        print(f"floor:    {len(floor.tables)} six-seat tables, built in {time.perf_counter() - started:.1f} s")
        paths = [service_path(floor)] + ([http_path(floor)] if args.http else [])
        for path in paths:  # warm up (imports, the engine's tables, the connection): not counted
            for batch, _ in prepared_batches(floor, path, min(5, len(floor.tables)), rng):
                for prepared in batch:
                    path.settle(prepared, f"warm-{path.name}-{_pk(prepared)}")
        runs: list[Run] = []
        for repeat in range(1, args.repeats + 1):
            for path in paths:
                run = timed_run(floor, path, args.rounds, rng, tag=f"{path.name}-{repeat}")
                runs.append(run)
                print(
                    f"  run {repeat} {path.name:<8}{run.rate:8.1f} rounds/s   p50 {run.percentile_ms(0.50):6.2f} ms"
                    f"   p99 {run.percentile_ms(0.99):6.2f} ms   CPU {run.cpu_ms:5.2f} ms a settle"
                    f"   (rounds prepared in {run.prepare_seconds:.1f} s)"
                )
        print()
        header = ("best run", "rounds/s", "p50 ms", "p99 ms", "mean ms", "CPU ms", "queries")
        print(f"{header[0]:<10}{header[1]:>10}" + "".join(f"{h:>9}" for h in header[2:]) + "   target")
        for path in paths:
            best = max((run for run in runs if run.path == path.name), key=lambda run: run.rate)
            sql = queries_of_one_settle(floor, path, rng)
            target = ""
            if path.name == "service":
                target = f">= {TARGET}/s " + (
                    ("PASS" if best.rate >= TARGET else "BELOW")
                    if connection.vendor == "postgresql"
                    else "(PostgreSQL)"
                )
            print(
                f"{path.name:<10}{best.rate:>10.1f}{best.percentile_ms(0.5):>9.2f}{best.percentile_ms(0.99):>9.2f}"
                f"{1000 * statistics.fmean(best.latencies):>9.2f}{best.cpu_ms:>9.2f}{len(sql):>9}   {target}"
            )
            if args.queries:
                print(f"  SQL of one {path.name} settle:")
                for number, statement in enumerate(sql, 1):
                    print(f"  {number:3d}. {statement[:240]}")
        if args.streams > 1:
            print()
            for repeat in range(1, args.repeats + 1):
                together = streams_run(floor, args.rounds, args.streams, rng, tag=f"streams-{repeat}")
                ordered = sorted(together.latencies)
                p50, p99 = (1000 * ordered[round(q * (len(ordered) - 1))] for q in (0.5, 0.99))
                verdict = ("PASS" if together.rate >= TARGET else "BELOW") if connection.vendor == "postgresql" else ""
                print(
                    f"  run {repeat} service in {together.streams} processes at once: {together.rate:.1f} rounds/s "
                    f"({together.rounds} settles in {together.seconds:.2f} s), each settle p50 "
                    f"{p50:.2f} ms p99 {p99:.2f} ms   target >= {TARGET}/s {verdict}"
                )
        report = ledger_verify()
        print(
            f"ledger:   {report.rounds} rounds, {report.postings} postings, {report.entries} entries: "
            + ("verifies" if report.ok else f"DOES NOT VERIFY: {report.problems[:3]}")
        )
        if args.breakdown:
            for path in paths:
                print()
                print("\n".join(breakdown(floor, path, rng, min(args.rounds, 300))))
        if args.profile:
            for path in paths:
                print(f"\ncProfile of {args.rounds} more {path.name} settles:")
                print(profile(floor, path, rng, args.rounds))
        close_connections()
        return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
