"""A whole round's CPU through the HTTP API against the same round through the services, in one process and run.

A round is what a dealer's tablet does at a six-seat Pai Gow Poker table: open, six wagers, close the betting, the
system's seeded deal, every hand (set by the house way on the cards dealt), settle: eleven writes. Two ways of
playing it, alternated batch by batch so the machine's drift falls on both alike:

* ``service``: the services called in process, as the API's views call them (``round_open``, ``wager_place``, …,
  ``settle_round``), each with a fresh user object as a request has;
* ``http``: the same eleven writes as ``POST`` requests to ``/api/...`` with a DRF token and an ``Idempotency-Key``,
  through Django's test ``Client`` (the whole request cycle: middleware, authentication, the idempotency key, the
  view, the JSON answer; no network, no web server).

Measured: this process's CPU time a round (``time.process_time``; the database server's CPU is not in it, and is the
same for both up to what the HTTP path reads again), the wall time a round, and the ratio HTTP / service.

Run from the repository root (the data lives in a database made for the run and dropped after it)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tableside python bench/round_http.py --rounds 300

``--profile`` prints where the HTTP path's CPU goes beyond the services'. See docs/performance.md, "A round over
HTTP".
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import random
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.harness import close_connections, machine, setup_django, throwaway_database  # noqa: E402
from bench.settlement import MAX_WAGER, MIN_WAGER, SEATS, Floor, floor_build  # noqa: E402

BENCH_DATABASE = "tableside_bench_round_http"
BOUND = 1.3  # HTTP / service, CPU a round
PROFILE_SORT, PROFILE_LINES = "cumulative", 40


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=300, help="rounds a path (default 300)")
    parser.add_argument("--batch", type=int, default=25, help="rounds a batch; the paths alternate (default 25)")
    parser.add_argument("--tables", type=int, default=25, help="tables played at (default 25)")
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--profile", action="store_true", help="cProfile 100 rounds of each path, print the top")
    parser.add_argument("--keep", action="store_true", help="keep the throwaway database")
    args = parser.parse_args(argv)
    if min(args.rounds, args.batch, args.tables) < 1:
        parser.error("--rounds, --batch and --tables are at least 1")
    return args


def _hands(dealt: dict[str, str]) -> dict[str, Any]:
    from rules.games.cards import cards_text, parse_cards
    from rules.games.paigow_poker import house_way

    def setting(position: str) -> dict[str, str]:
        chosen = house_way(parse_cards(dealt[position]))
        return {"high": cards_text(chosen.high), "low": cards_text(chosen.low)}

    return {"banker": setting("0"), "seats": {str(seat): setting(str(seat)) for seat in range(1, SEATS + 1)}}


def service_round(floor: Floor) -> Callable[[Any, random.Random], None]:
    from django.contrib.auth.models import User

    from rounds.selectors import round_get_for_action
    from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
    from settlement.services import settle_round

    def actor() -> Any:  # every request has its own user object (its roles are read once per object)
        return User.objects.get(pk=floor.dealer.pk)

    def play(table: Any, rng: random.Random) -> None:
        round_ = round_open(actor=actor(), table=table)
        for seat in range(1, SEATS + 1):
            wager_place(
                actor=actor(),
                round=round_get_for_action(round_id=round_.pk),
                seat=seat,
                amount_cents=rng.randint(MIN_WAGER, MAX_WAGER),
            )
        round_close_betting(actor=actor(), round=round_get_for_action(round_id=round_.pk))
        dealt = round_deal(actor=actor(), round=round_get_for_action(round_id=round_.pk), auto=True)
        round_hands_record(actor=actor(), round=round_get_for_action(round_id=round_.pk), hands=_hands(dealt.dealt))
        settle_round(round=round_get_for_action(round_id=round_.pk), actor=actor(), idempotency_key=uuid.uuid4().hex)

    return play


def http_round(floor: Floor) -> Callable[[Any, random.Random], None]:
    from django.test import Client

    client = Client()
    auth = f"Token {floor.token}"

    def post(url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        response = client.post(
            url,
            body or {},
            content_type="application/json",
            HTTP_AUTHORIZATION=auth,
            HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
        )
        if response.status_code not in (200, 201):
            raise RuntimeError(f"{url} answered {response.status_code}: {response.content[:300]!r}")
        answer: dict[str, Any] = response.json()
        return answer

    def play(table: Any, rng: random.Random) -> None:
        round_id = post(f"/api/tables/{table.pk}/rounds/")["id"]
        for seat in range(1, SEATS + 1):
            post(f"/api/rounds/{round_id}/wagers/", {"seat": seat, "amount_cents": rng.randint(MIN_WAGER, MAX_WAGER)})
        post(f"/api/rounds/{round_id}/close-betting/")
        dealt = post(f"/api/rounds/{round_id}/deal/", {"auto": True})["dealt"]
        post(f"/api/rounds/{round_id}/hands/", _hands(dealt))
        post(f"/api/rounds/{round_id}/settle/")

    return play


def timed_batch(
    play: Callable[[Any, random.Random], None], tables: list[Any], rounds: int, rng: random.Random
) -> tuple[float, float]:
    """CPU seconds and wall seconds of ``rounds`` rounds, played table after table, the garbage collector off."""
    gc.collect()
    gc.disable()
    try:
        cpu, wall = time.process_time(), time.perf_counter()
        for number in range(rounds):
            play(tables[number % len(tables)], rng)
        return time.process_time() - cpu, time.perf_counter() - wall
    finally:
        gc.enable()


def profiled(play: Callable[[Any, random.Random], None], tables: list[Any], rng: random.Random) -> str:
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for number in range(100):
        play(tables[number % len(tables)], rng)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats(PROFILE_SORT).print_stats(PROFILE_LINES)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    with throwaway_database(BENCH_DATABASE, args.keep) as where:
        setup_django()
        from ledger.verify import ledger_verify

        rng = random.Random(args.seed)
        print("A whole round (open, six wagers, close, the system's deal, the hands, settle) through the services")
        print("and through the HTTP API, this process's CPU a round; the two alternate batch by batch")
        print(f"machine:  {machine()}")
        print(f"database: {where}; DEBUG off")
        floor = floor_build(args.tables)
        paths = {"service": service_round(floor), "http": http_round(floor)}
        for play in paths.values():  # warm up: imports, the engine's tables, the connection, the token's user
            timed_batch(play, floor.tables, min(10, args.tables), rng)
        cpu = dict.fromkeys(paths, 0.0)
        wall = dict.fromkeys(paths, 0.0)
        done = 0
        while done < args.rounds:
            batch = min(args.batch, args.rounds - done)
            for name, play in paths.items():
                spent, took = timed_batch(play, floor.tables, batch, rng)
                cpu[name] += spent
                wall[name] += took
            done += batch
        print()
        print(f"{'path':<9}{'CPU ms a round':>16}{'wall ms a round':>17}")
        for name in paths:
            print(f"{name:<9}{1000 * cpu[name] / done:>16.2f}{1000 * wall[name] / done:>17.2f}")
        ratio = cpu["http"] / cpu["service"]
        verdict = "PASS" if ratio <= BOUND else "ABOVE"
        print(f"\nHTTP / service, CPU a round: {ratio:.2f}x   (bound <= {BOUND}x: {verdict});")
        print(f"wall: {wall['http'] / wall['service']:.2f}x")
        if args.profile:
            for name, play in paths.items():
                print(f"\ncProfile of 100 {name} rounds (CPU time, cumulative):")
                print(profiled(play, floor.tables, rng))
        report = ledger_verify()
        print(f"ledger: {report.rounds} rounds, {report.postings} postings: " + ("verifies" if report.ok else "FAILS"))
        close_connections()
        return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
