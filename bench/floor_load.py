"""A floor under load: C dealers' tablets playing Pai Gow Poker rounds at once through gunicorn and PostgreSQL, a pit
boss's dashboard refreshing beside them, for C = 1, 2, 4, 8, 16.

The floor (``--tables`` six-seat tables, open, with their dealer; a gaming day and a shift) is made through the
services in a throwaway PostgreSQL database. Then gunicorn serves it as in production (``config/gunicorn.conf.py``,
DEBUG off, Redis for the cache, the sessions and the broker, ``--workers`` processes), and C tablets each play
rounds at a table of their own over the REST API for ``--seconds``: open, six wagers, close the betting, the
system's deal, the hands (set by the house way, computed by the tablet), settle; between every two steps the tablet
polls its table's marker (``/dealer/tables/{id}/version/``), as the dealer's screen does. A pit boss's dashboard
fetches its live part (``/pit/live/``) once a second all along, and a sampler reads ``pg_stat_activity`` every 20 ms.

Before each C is measured, the same C tablets play ``--warmup`` seconds whose figures are dropped: a gunicorn
worker's first requests load the engines and fill its caches, and a p99 taken over a few dozen settles is their
largest, so that one cold request would be the figure. Printed for each C: how many settles the percentiles stand
on, rounds a second, the settle's latency (p50, p99), the share of the database's busy connections
that were waiting on a lock when sampled (a settle's time spent on locks, from outside), the poll's p50 right after a
write (a miss: the table just changed), and
the dashboard's p99 under that load; then the ratios the floor is held to (p99 at 8 / p99 at 1, rounds/s at 8 /
rounds/s at 1). The harness is its own (threads over ``http.client``): it runs on this machine beside the server,
and its own CPU is small next to the server's (a round's JSON and seven house-way settings).

Run from the repository root (PostgreSQL and Redis needed)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tableside REDIS_URL=redis://127.0.0.1:6379/1 \\
        python bench/floor_load.py --tables 200
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.harness import (  # noqa: E402
    Client,
    Server,
    close_connections,
    machine,
    session_cookie,
    setup_django,
    throwaway_database,
)

DATABASE = "tableside_bench_floor_load"
AUDIT_KEY = f"bench:{secrets.token_urlsafe(40)}"


@dataclass
class Measured:
    settles: list[float] = field(default_factory=list)
    polls: list[float] = field(default_factory=list)
    dashboard: list[float] = field(default_factory=list)
    rounds: int = 0
    errors: list[str] = field(default_factory=list)
    samples_active: int = 0
    samples_waiting: int = 0


def _hands(dealt: dict[str, str]) -> dict[str, Any]:
    from rules.games.cards import cards_text, parse_cards
    from rules.games.paigow_poker import house_way

    def setting(position: str) -> dict[str, str]:
        chosen = house_way(parse_cards(dealt[position]))
        return {"high": cards_text(chosen.high), "low": cards_text(chosen.low)}

    return {"banker": {"cards": dealt["0"]}, "seats": {seat: setting(seat) for seat in dealt if seat != "0"}}


def tablet(port: int, token: str, cookie: str, table_id: int, stop: threading.Event, out: Measured) -> None:
    client, rng = Client(port, cookie, token), random.Random(table_id)
    version = f"/dealer/tables/{table_id}/version/"

    def step(method: str, path: str, body: Any = None) -> Any:
        status, answer = client.request(method, path, body)
        if status >= 300:
            raise RuntimeError(f"{method} {path}: {status} {str(answer)[:200]}")
        began = time.perf_counter()
        polled, _ = client.get(version)
        out.polls.append(time.perf_counter() - began)
        if polled != 200:
            raise RuntimeError(f"poll: {polled}")
        return answer

    while not stop.is_set():
        try:
            opened = step("POST", f"/api/tables/{table_id}/rounds/")
            round_ = f"/api/rounds/{opened['id']}"
            for seat in range(1, 7):
                step("POST", f"{round_}/wagers/", {"seat": seat, "amount_cents": rng.randrange(1000, 10001, 500)})
            step("POST", f"{round_}/close-betting/")
            dealt = step("POST", f"{round_}/deal/", {"auto": True})["dealt"]
            step("POST", f"{round_}/hands/", _hands(dealt))
            began = time.perf_counter()
            status, answer = client.request("POST", f"{round_}/settle/")
            out.settles.append(time.perf_counter() - began)
            if status != 200:
                raise RuntimeError(f"settle: {status} {str(answer)[:200]}")
            out.rounds += 1
        except Exception as exc:  # noqa: BLE001 - counted and shown; the tablet plays on
            out.errors.append(str(exc))
            time.sleep(0.2)


def dashboard(port: int, cookie: str, stop: threading.Event, out: Measured) -> None:
    client = Client(port, cookie)
    while not stop.is_set():
        began = time.perf_counter()
        status, _ = client.get("/pit/live/")
        out.dashboard.append(time.perf_counter() - began)
        if status != 200:
            out.errors.append(f"dashboard: {status}")
        stop.wait(max(0.0, 1.0 - (time.perf_counter() - began)))


def sampler(database: str, stop: threading.Event, out: Measured) -> None:
    import psycopg

    with psycopg.connect(host="127.0.0.1", user="postgres", dbname="postgres", autocommit=True) as connection:
        query = (
            "SELECT count(*) FILTER (WHERE state = 'active'), "
            "count(*) FILTER (WHERE state = 'active' AND wait_event_type = 'Lock') "
            "FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()"
        )
        while not stop.wait(0.02):
            active, waiting = connection.execute(query, [database]).fetchone()
            out.samples_active += active
            out.samples_waiting += waiting


def percentile_ms(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def load(port: int, floor: Any, cookies: tuple[str, str], tablets: int, seconds: float) -> tuple[Measured, float]:
    out, stop = Measured(), threading.Event()
    threads = [
        threading.Thread(target=tablet, args=(port, floor.token, cookies[0], floor.tables[i].pk, stop, out))
        for i in range(tablets)
    ]
    threads += [
        threading.Thread(target=dashboard, args=(port, cookies[1], stop, out)),
        threading.Thread(target=sampler, args=(DATABASE, stop, out)),
    ]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    return out, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables on the floor (default 200)")
    parser.add_argument("--tablets", default="1,2,4,8,16", help="concurrent tablets to try (default 1,2,4,8,16)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of play at each C (default 20)")
    parser.add_argument("--workers", type=int, default=0, help="gunicorn workers (default: 2 per core + 1)")
    parser.add_argument(
        "--warmup", type=float, default=10.0, help="seconds played at each C before it is measured (default 10)"
    )
    args = parser.parse_args()
    if args.seconds <= 0 or args.warmup < 0:
        parser.error("--seconds is above 0 and --warmup at least 0")
    if "postgres" not in os.environ.get("DATABASE_URL", "") or not os.environ.get("REDIS_URL"):
        raise SystemExit("Set DATABASE_URL to PostgreSQL and REDIS_URL to Redis: the floor runs on both.")
    # One secret key and one audit key for the floor's making here and the server: the sessions made here are
    # signed-in sessions there, and the events written here verify there.
    os.environ["TABLESIDE_AUDIT_KEYS"] = AUDIT_KEY
    os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)
    os.environ.setdefault("CELERY_BROKER_URL", os.environ["REDIS_URL"].rsplit("/", 1)[0] + "/0")
    counts = [int(c) for c in args.tablets.split(",")]
    if max(counts) > args.tables:
        raise SystemExit("Every tablet plays a table of its own: --tables must be at least the largest C.")
    workers = args.workers or (os.cpu_count() or 1) * 2 + 1
    with throwaway_database(DATABASE, False) as where:
        setup_django()
        from django.contrib.auth.models import User

        from bench.settlement import floor_build

        floor = floor_build(args.tables)
        pit_boss = User.objects.get(username="bench_pit_boss")
        cookies = (session_cookie(floor.dealer), session_cookie(pit_boss))
        print(f"A floor under load: {machine()}; {where}; {args.tables} tables, gunicorn with {workers} workers.")
        close_connections()
        server = Server(workers)
        try:
            results = {}
            print(
                f"{'tablets':>7} {'settles':>7} {'rounds/s':>9} {'settle p50':>11} {'settle p99':>11} "
                f"{'lock waits':>11} "
                f"{'poll after a write, p50':>23} {'dashboard p99':>14} {'errors':>7}"
            )
            for tablets in counts:
                if args.warmup:
                    warm, _ = load(server.port, floor, cookies, tablets, args.warmup)
                    for error in sorted(set(warm.errors))[:3]:
                        print(f"        while warming up: {error}")
                out, wall = load(server.port, floor, cookies, tablets, args.seconds)
                results[tablets] = out
                waits = out.samples_waiting / out.samples_active if out.samples_active else 0.0
                print(
                    f"{tablets:>7} {len(out.settles):>7} {out.rounds / wall:>9.2f} "
                    f"{percentile_ms(out.settles, 0.5):>9.1f}ms "
                    f"{percentile_ms(out.settles, 0.99):>9.1f}ms {100 * waits:>10.1f}% "
                    f"{percentile_ms(out.polls, 0.5):>21.1f}ms {percentile_ms(out.dashboard, 0.99):>12.1f}ms "
                    f"{len(out.errors):>7}"
                )
                for error in sorted(set(out.errors))[:3]:
                    print(f"        {error}")
                out.rate = out.rounds / wall  # type: ignore[attr-defined]
            if 1 in results and 8 in results and results[1].settles and results[8].settles:
                p99 = percentile_ms(results[8].settles, 0.99) / percentile_ms(results[1].settles, 0.99)
                rate = results[8].rate / results[1].rate  # type: ignore[attr-defined]
                print(f"settle p99 at 8 / at 1: {p99:.2f}x (≤ 4x); rounds/s at 8 / at 1: {rate:.2f}x (≥ 1.2x)")
            print(f"median settle: {statistics.median(results[counts[0]].settles) * 1000:.1f} ms at C={counts[0]}")
        finally:
            server.stop()
        close_connections()


if __name__ == "__main__":
    main()
