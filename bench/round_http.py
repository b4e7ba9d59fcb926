"""A whole round's CPU through the HTTP API against the same round through the services, in one run.

A round is what a dealer's tablet does at a six-seat Pai Gow Poker table: open, six wagers, close the betting, the
system's seeded deal, every hand (set by the house way on the cards dealt), settle: eleven writes. Two ways of
playing it, alternated batch by batch so the machine's drift falls on both alike:

* ``service``: the services called in process, as the API's views call them (``round_open``, ``wager_place``, …,
  ``settle_round``), each with a fresh user object as a request has;
* ``http``: the same eleven writes as ``POST`` requests to ``/api/...`` with a DRF token and an ``Idempotency-Key``,
  sent over a socket to gunicorn serving the same database as ``make serve`` does (one sync worker, DEBUG off): the
  whole request cycle as a floor runs it, the web server's own work included (reading the request, building its
  environ, writing the answer). This process plays the tablet; its own CPU (encoding the bodies, reading the
  answers) is the tablet's, not the server's, and is not counted.

Through gunicorn a third path plays beside them, ``apart``: the services' steps of ``service``, sent one by one over
a pipe to a process of their own (this script, ``--serve-steps``) that waits between them as a worker waits between
requests. It tells how much of the HTTP path's CPU is the server being a process of its own, woken for each step, and
how much is HTTP's own work: ``HTTP / apart`` is the latter alone.

Measured: the CPU time a round of the process that did the server's work (the services: this process,
``time.process_time``; HTTP: the gunicorn worker, through its CPU-time clock, ``clock_getcpuclockid``), the wall time
a round, and the ratio HTTP / service. The garbage collector runs in both as in a server (on; what start-up loaded
frozen out of it, as ``config/gunicorn.conf.py`` does in a worker). The database server's CPU is in neither, and is
the same for both up to what the HTTP path reads again.

``--through client`` plays the HTTP path in this process instead, through Django's test ``Client`` (the middleware,
the view and the answer, no socket, no web server; the test client's own work stands in for the server's, and the
answer's JSON is read in the same process), the garbage collector off in both paths; ``--profile`` (cProfile of 100
rounds a path, where the HTTP path's CPU goes beyond the services') always plays it so.

Run from the repository root (the data lives in a database made for the run and dropped after it; the server, as in
production, hands its tasks to a broker, and this process does the same)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tableside CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \\
        REDIS_URL=redis://127.0.0.1:6379/1 python bench/round_http.py --rounds 300

See docs/performance.md, "A round over HTTP through gunicorn" and "A round over HTTP beside the same services in a
process of their own" (and, for the test client's figures, the sections before them).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import pstats
import random
import secrets
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.harness import (  # noqa: E402
    Client,
    Server,
    close_connections,
    machine,
    process_cpu,
    setup_django,
    throwaway_database,
)
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
    parser.add_argument(
        "--through",
        choices=("gunicorn", "client"),
        default="gunicorn",
        help="the HTTP path through gunicorn over a socket (default), or Django's test client in this process",
    )
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


def service_steps(tables: dict[int, Any], dealer_pk: int) -> Callable[[str, dict[str, Any] | None], dict[str, Any]]:
    """The services as the API's views call them, one step at a time, addressed as the tablet addresses the API (an
    address, a body: the answer the round goes on with); ``tables`` by pk, as loaded once."""
    from django.contrib.auth.models import User

    from rounds.selectors import round_get_for_action
    from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
    from settlement.services import settle_round

    def actor() -> Any:  # every request has its own user object (its roles are read once per object)
        return User.objects.get(pk=dealer_pk)

    def step(url: str, body: dict[str, Any] | None) -> dict[str, Any]:
        parts = url.strip("/").split("/")  # api, tables|rounds, pk, what
        if parts[1] == "tables":
            return {"id": round_open(actor=actor(), table=tables[int(parts[2])]).pk}
        round_ = round_get_for_action(round_id=int(parts[2]))
        what, body = parts[3], body or {}
        if what == "wagers":
            wager_place(actor=actor(), round=round_, seat=body["seat"], amount_cents=body["amount_cents"])
        elif what == "close-betting":
            round_close_betting(actor=actor(), round=round_)
        elif what == "deal":
            return {"dealt": round_deal(actor=actor(), round=round_, auto=body["auto"]).dealt}
        elif what == "hands":
            round_hands_record(actor=actor(), round=round_, hands=body)
        elif what == "settle":
            settle_round(round=round_, actor=actor(), idempotency_key=uuid.uuid4().hex)
        else:
            raise ValueError(f"no step {url}")
        return {}

    return step


def service_round(floor: Floor) -> Callable[[Any, random.Random], None]:
    """The round through the services, called in this process."""
    return api_round(service_steps({table.pk: table for table in floor.tables}, floor.dealer.pk))


class ServiceProcess:
    """The services called in a process of their own, one step a message over a pipe, as a server's worker is sent
    one request at a time: the same steps as ``service_round``, in a process that waits between them as a worker
    does (``--serve-steps``, this script's own mode). Its CPU is read through its CPU-time clock."""

    def __init__(self, floor: Floor) -> None:
        command = [sys.executable, str(Path(__file__).resolve()), "--serve-steps", str(floor.dealer.pk)]
        command += [str(table.pk) for table in floor.tables]
        self.process = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self.process.stdout is None or self.process.stdout.readline().strip() != "ready":
            self.process.kill()
            raise SystemExit("the services' process did not start")

    def post(self, url: str, body: dict[str, Any] | None) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps([url, body]) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if "error" in answer:
            raise RuntimeError(f"{url}: {answer['error']}")
        return dict(answer)

    def cpu(self) -> float:
        return process_cpu(self.process.pid)

    def stop(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(20)


def serve_steps(dealer_pk: int, table_pks: list[int]) -> int:
    """``--serve-steps``: answer ``ServiceProcess``'s steps on standard input until it closes."""
    setup_django()
    from tables.models import Table

    step = service_steps(Table.objects.in_bulk(table_pks), dealer_pk)
    gc.freeze()  # what start-up loaded, out of the collector's reach, as config/gunicorn.conf.py does in a worker
    print("ready", flush=True)
    for line in sys.stdin:
        url, body = json.loads(line)
        try:
            answer = step(url, body)
        except Exception as error:  # noqa: BLE001  (said to the bench, which stops on it)
            answer = {"error": repr(error)}
        print(json.dumps(answer), flush=True)
    close_connections()
    return 0


Post = Callable[[str, dict[str, Any] | None], dict[str, Any]]


def api_round(post: Post) -> Callable[[Any, random.Random], None]:
    """The round as the tablet plays it over the API, each write sent by ``post`` (an address, a body: the answer)."""

    def play(table: Any, rng: random.Random) -> None:
        round_id = post(f"/api/tables/{table.pk}/rounds/", None)["id"]
        for seat in range(1, SEATS + 1):
            post(f"/api/rounds/{round_id}/wagers/", {"seat": seat, "amount_cents": rng.randint(MIN_WAGER, MAX_WAGER)})
        post(f"/api/rounds/{round_id}/close-betting/", None)
        dealt = post(f"/api/rounds/{round_id}/deal/", {"auto": True})["dealt"]
        post(f"/api/rounds/{round_id}/hands/", _hands(dealt))
        post(f"/api/rounds/{round_id}/settle/", None)

    return play


def answered(url: str, status: int, answer: Any) -> dict[str, Any]:
    """The answer of a write that succeeded; any other stops the bench, saying what the server answered."""
    if status not in (200, 201):
        raise RuntimeError(f"{url} answered {status}: {str(answer)[:300]}")
    return dict(answer)


def client_round(floor: Floor) -> Callable[[Any, random.Random], None]:
    """The round through Django's test client, in this process."""
    from django.test import Client as TestClient

    client = TestClient()
    auth = f"Token {floor.token}"

    def post(url: str, body: dict[str, Any] | None) -> dict[str, Any]:
        response = client.post(
            url,
            body or {},
            content_type="application/json",
            HTTP_AUTHORIZATION=auth,
            HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
        )
        ok = response.status_code in (200, 201) and response.get("Content-Type", "").startswith("application/json")
        return answered(url, response.status_code, response.json() if ok else response.content)

    return api_round(post)


def served_round(floor: Floor, server: Server) -> Callable[[Any, random.Random], None]:
    """The round sent over a socket to gunicorn, as a tablet sends it (``Client``: a new ``Idempotency-Key`` each)."""
    client = Client(server.port, "", floor.token)

    def post(url: str, body: dict[str, Any] | None) -> dict[str, Any]:
        status, answer = client.request("POST", url, body or {})
        return answered(url, status, answer)

    return api_round(post)


def timed_batch(
    play: Callable[[Any, random.Random], None],
    tables: list[Any],
    rounds: int,
    rng: random.Random,
    *,
    cpu: Callable[[], float] = time.process_time,
    collect: bool = False,
) -> tuple[float, float]:
    """CPU seconds (by the clock ``cpu``) and wall seconds of ``rounds`` rounds, played table after table. With
    ``collect`` this process's garbage collector runs as a server's does (on, nothing collected beforehand); without,
    it collects first and is off while the batch is timed."""
    if not collect:
        gc.collect()
        gc.disable()
    try:
        spent, wall = cpu(), time.perf_counter()
        for number in range(rounds):
            play(tables[number % len(tables)], rng)
        return cpu() - spent, time.perf_counter() - wall
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
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--serve-steps"]:  # this script as ServiceProcess's other end
        return serve_steps(int(argv[1]), [int(pk) for pk in argv[2:]])
    args = parse_args(argv)
    served = args.through == "gunicorn"
    if served and not os.environ.get("CELERY_BROKER_URL"):
        raise SystemExit(
            "Through gunicorn the server runs as in production, with a broker for its tasks: set CELERY_BROKER_URL "
            "(and REDIS_URL), or play the HTTP path in this process with --through client."
        )
    if served:
        # One secret key and one audit key for this process and the server: the events the services write here and
        # the ones the server writes are one log, verified with one key.
        os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)
        os.environ["TABLESIDE_AUDIT_KEYS"] = f"bench:{secrets.token_urlsafe(40)}"
    with throwaway_database(BENCH_DATABASE, args.keep) as where:
        setup_django()
        from ledger.verify import ledger_verify

        rng = random.Random(args.seed)
        print("A whole round (open, six wagers, close, the system's deal, the hands, settle) through the services")
        print("and through the HTTP API, the CPU a round of the process doing the server's work; the two alternate")
        print("batch by batch")
        print(f"machine:  {machine()}")
        print(f"database: {where}; DEBUG off")
        floor = floor_build(args.tables)
        server = Server(workers=1) if served else None
        apart = None
        try:
            if server is not None:
                apart = ServiceProcess(floor)
                workers = server.workers()
                print(f"HTTP:     gunicorn, {len(workers)} sync worker, its CPU clock; the garbage collector on, as a")
                print("          server runs it, in the worker and here (what start-up loaded frozen out of it)")
                print("apart:    the services' steps sent one by one over a pipe to a process of their own, its CPU")
                print("          clock (as a worker waits between requests, without HTTP)")
                paths = {
                    "service": service_round(floor),
                    "apart": api_round(apart.post),
                    "http": served_round(floor, server),
                }
                clocks = {"service": time.process_time, "apart": apart.cpu, "http": lambda: server.worker_cpu(workers)}
            else:
                print("HTTP:     Django's test client in this process; the garbage collector off")
                paths = {"service": service_round(floor), "http": client_round(floor)}
                clocks = dict.fromkeys(paths, time.process_time)
            for name, play in paths.items():  # warm up: imports, the engine's tables, the connection, the token's user
                timed_batch(play, floor.tables, min(10, args.tables), rng, cpu=clocks[name], collect=served)
            if served:  # what start-up loaded, out of the collector's reach here as in the worker (gunicorn.conf.py)
                gc.freeze()
            cpu = dict.fromkeys(paths, 0.0)
            wall = dict.fromkeys(paths, 0.0)
            done = 0
            while done < args.rounds:
                batch = min(args.batch, args.rounds - done)
                for name, play in paths.items():
                    spent, took = timed_batch(play, floor.tables, batch, rng, cpu=clocks[name], collect=served)
                    cpu[name] += spent
                    wall[name] += took
                done += batch
        finally:
            if server is not None:
                server.stop()
            if apart is not None:
                apart.stop()
        print()
        print(f"{'path':<9}{'CPU ms a round':>16}{'wall ms a round':>17}")
        for name in paths:
            print(f"{name:<9}{1000 * cpu[name] / done:>16.2f}{1000 * wall[name] / done:>17.2f}")
        ratio = cpu["http"] / cpu["service"]
        verdict = "PASS" if ratio <= BOUND else "ABOVE"
        print(f"\nHTTP / service, CPU a round: {ratio:.2f}x   (bound <= {BOUND}x: {verdict});")
        print(f"wall: {wall['http'] / wall['service']:.2f}x")
        if "apart" in paths:
            print(f"HTTP / apart, CPU a round: {cpu['http'] / cpu['apart']:.2f}x (what HTTP adds to a process that")
            print(f"waits between steps); apart / service: {cpu['apart'] / cpu['service']:.2f}x (the same steps in a")
            print("process of their own, without HTTP)")
        if args.profile:
            profiles = {"service": service_round(floor), "http (test client)": client_round(floor)}
            for name, play in profiles.items():
                print(f"\ncProfile of 100 {name} rounds (CPU time, cumulative):")
                print(profiled(play, floor.tables, rng))
        report = ledger_verify()
        print(f"ledger: {report.rounds} rounds, {report.postings} postings: " + ("verifies" if report.ok else "FAILS"))
        close_connections()
        return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
