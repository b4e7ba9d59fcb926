"""The room display's speed: its server time with 20 tournaments running (goal <= 50 ms), and how many open
displays one server process keeps live.

The room: ``--tournaments`` (20) running tournaments of ``--entries`` (30) entries each, with a generated structure
(``poker_room.pure.structure.structure_generate``: 10,000 chips, 20-minute levels, breaks with colour-ups), their clocks
started through the clock service at staggered times in the last few hours (so they are at different levels, some on
a break, one in five paused), one entry in six busted and re-entered, one in five with a rebuy, one in three with the
add-on, each payment a ``Purchase`` row and its posting in the ledger (``poker_room.tournaments.money``, as the entry
services write them). Building it is not timed.

(a) **Server time.** Each address is fetched ``--requests`` times (200) through Django's test ``Client`` (the whole
request cycle: middleware, the view, the JSON; no network, no web server), the tournaments in turn, with
``time.perf_counter`` and the garbage collector off, after a few warm-up requests:

* ``display.json?v=`` while nothing changed: the 204 a screen gets on almost every poll, decided from the cached
  version (``poker_room.display.live``) without a query; the floor of a request through the same stack, the ratio column
  of the others is against it;
* ``display.json`` in full for the first screen after a change (the tournament, its entries and its money read:
  three queries; the version's figures are removed from the cache before each request, untimed), and for every
  other screen of the room after it (the figures of that version cached: one query);
* the display page (HTML) and the staff's ``display.json`` (signed in: a session and a user read), after a change.

The figures: median and 99th percentile server time, queries a request, size, the ratio of the median to the floor,
and PASS/OVER against the 50 ms budget.

(b) **Open displays one process keeps live.** A screen polls 2.5 times a second (every 400 ms,
``poker_room.display.views.POLL_MS``); one process keeps live as many screens as the polls a second it answers,
divided by 2.5. Measured twice, each for ``--seconds`` (3):

* in process: Django's WSGI handler (``django.core.handlers.wsgi.WSGIHandler``, the object gunicorn calls) called in
  a loop with the conditional poll's request, the tournaments in turn: the server's own cost of a poll, nothing else;
* over HTTP: one gunicorn sync worker (``make serve``'s kind, one request at a time) serving this database on a
  local port, loaded by ``--clients`` (2) client processes that send the same raw request over a new connection each
  time (a sync worker closes it after every answer), counting the answers in the last ``--seconds``. The clients
  share the machine's cores with the server, so this is a floor of what a server of its own would answer.

Each also runs with every poll answered in full: in process as the first screen after a change (the worst case:
a change between every two polls, and one screen), over HTTP as the other screens after it. The version a process
caches on the embedded default (local memory) is believed for half a second (``poker_room.display.live.LOCAL_SECONDS``),
so each process reads each tournament's version from the database twice a second, as it would without Redis.

The data lives in a database made for the run and dropped after it: on PostgreSQL (``DATABASE_URL`` is
``postgres://...``) a database called ``tableside_bench_poker_room`` on that server; otherwise a SQLite file in a
temporary directory. DEBUG is off while timing (no query log).

Run from the repository root::

    python bench/poker_room_display.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tableside REDIS_URL=redis://127.0.0.1:6379/1 \\
        python bench/poker_room_display.py
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.dashboard import SEED, percentile_ms  # noqa: E402
from bench.harness import machine, setup_django, throwaway_database  # noqa: E402

BENCH_DATABASE = "tableside_bench_poker_room"
TARGET_MS = 50  # the room display's server time with 20 tournaments running


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=20, help="running tournaments (default 20)")
    parser.add_argument("--entries", type=int, default=30, help="entries a tournament (default 30)")
    parser.add_argument("--requests", type=int, default=200, help="timed requests an address (default 200)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds each throughput run lasts (default 3)")
    parser.add_argument("--clients", type=int, default=2, help="client processes loading the HTTP server (default 2)")
    parser.add_argument("--no-http", action="store_true", help="skip the measure over HTTP (gunicorn)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--queries", action="store_true", help="print the SQL of one full display.json")
    parser.add_argument("--keep", action="store_true", help="keep the throwaway database (and say where it is)")
    parser.add_argument("--serve", type=int, default=0, help=argparse.SUPPRESS)  # the HTTP measure's server
    args = parser.parse_args(argv)
    if min(args.tournaments, args.entries, args.requests, args.clients) < 1 or args.seconds <= 0:
        parser.error("every count and --seconds must be positive")
    return args


# --- the room ------------------------------------------------------------------------------------------------------


def room_build(args: argparse.Namespace, rng: random.Random) -> tuple[Any, list[Any]]:
    """The director and the running tournaments (the module's docstring); the tournaments as stored."""
    from django.contrib.auth.models import Group, User
    from django.db import transaction
    from django.utils import timezone

    from casino.roles import Role
    from ledger.models import Posting
    from ledger.services import post
    from poker_room.pure.structure import DEFAULT_CHIPS, structure_as_dicts, structure_generate
    from poker_room.tournaments import money
    from poker_room.tournaments.clock_services import clock_pause, clock_start
    from poker_room.tournaments.models import Entry, Purchase, Tournament

    director = User.objects.create_user(username="bench_director", password="bench-pass-word")
    director.groups.add(Group.objects.get_or_create(name=Role.TOURNAMENT_DIRECTOR.value)[0])
    levels = structure_as_dicts(
        structure_generate(
            starting_stack=10_000, level_minutes=20, target_minutes=480, chips=DEFAULT_CHIPS, players=args.entries
        )
    )
    now = timezone.now()
    tournaments = []
    for n in range(args.tournaments):
        with transaction.atomic():
            tournament = Tournament.objects.create(
                name=f"Bench event {n + 1:02d}", games=["nlhe"], starting_stack=10_000, buy_in_cents=5_000,
                fee_cents=1_000, guarantee_cents=200_000 if n % 4 == 0 else 0, levels=levels, created_by=director,
                status=Tournament.Status.RUNNING, started_at=now,
            )  # fmt: skip
            entries, purchases = [], []
            for number in range(1, args.entries + 1):
                busted = number % 6 == 0
                rebuys = 1 if number % 5 == 0 else 0
                addon = number % 3 == 0
                chips = 10_000 + rebuys * 10_000 + (15_000 if addon else 0)
                entries.append(
                    Entry(
                        tournament=tournament,
                        number=number,
                        name=f"Player {number}",
                        chips=chips,
                        rebuys=rebuys,
                        addon=addon,
                        created_by=director,
                        status=Entry.Status.BUSTED if busted else Entry.Status.ACTIVE,
                        place=args.entries + 1 - number if busted else None,
                    )  # fmt: skip
                )
            Entry.objects.bulk_create(entries)
            for made in entries:
                kinds = [Purchase.Kind.ENTRY] + [Purchase.Kind.REBUY] * made.rebuys
                kinds += [Purchase.Kind.ADDON] if made.addon else []
                for kind in kinds:
                    chips = {Purchase.Kind.ADDON: 15_000}.get(kind, 10_000)
                    posting = post( kind=Posting.Kind.T_ENTRY, actor=director, seat_ids={},
                        lines=money.purchase_lines(prize_cents=5_000, fee_cents=1_000, bounty_cents=0),
                        idempotency_key=money.purchase_key(tournament.pk, entry_number=made.number, kind=str(kind),
                                                           ordinal=1),
                    )  # fmt: skip
                    purchases.append(
                        Purchase(
                            tournament=tournament,
                            entry=made,
                            kind=kind,
                            prize_cents=5_000,
                            fee_cents=1_000,
                            bounty_cents=0,
                            chips=chips,
                            posting=posting,
                            actor=director,
                        )  # fmt: skip
                    )
            Purchase.objects.bulk_create(purchases)
        started = now - dt.timedelta(minutes=rng.uniform(5, 240))
        tournament = clock_start(actor=director, tournament=tournament, now=started)
        if n % 5 == 4:
            tournament = clock_pause(actor=director, tournament=tournament, now=now - dt.timedelta(minutes=1))
        tournaments.append(tournament)
    return User.objects.get(pk=director.pk), tournaments


# --- (a) server time -----------------------------------------------------------------------------------------------


def timed(
    client: Any, urls: list[str], requests: int, status: int, before: Callable[[int], None] | None = None
) -> list[float]:
    """``requests`` GETs over ``urls`` in turn; the seconds each took (the garbage collector off while timing).
    ``before(n)`` runs before the n-th request, untimed."""
    for url in urls[:5]:
        _get(client, url, status)
    latencies = []
    gc.collect()
    gc.disable()
    try:
        for n in range(requests):
            url = urls[n % len(urls)]
            if before is not None:
                before(n)
            started = time.perf_counter()
            _get(client, url, status)
            latencies.append(time.perf_counter() - started)
    finally:
        gc.enable()
    return latencies


def _get(client: Any, url: str, status: int) -> Any:
    response = client.get(url)
    if response.status_code != status:
        raise RuntimeError(f"{url} answered {response.status_code}, not {status}: {response.content[:300]!r}")
    return response


def queries_of(client: Any, url: str, status: int) -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        _get(client, url, status)
    return [query["sql"] for query in captured.captured_queries]


# --- (b) polls a second --------------------------------------------------------------------------------------------


def wsgi_rate(paths: list[str], seconds: float, before: Callable[[int], None] | None = None) -> float:
    """Requests a second Django's WSGI handler answers in this process, called in a loop on ``paths`` in turn
    (``before(n)`` runs before the n-th, and counts)."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.test.client import RequestFactory

    handler = WSGIHandler()
    factory = RequestFactory()
    environs = []
    for path in paths:
        route, _, query = path.partition("?")
        environs.append(factory._base_environ(PATH_INFO=route, QUERY_STRING=query, REQUEST_METHOD="GET"))
    statuses: list[str] = []

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        statuses.append(status)

    def one(n: int) -> None:
        if before is not None:
            before(n)
        environ = dict(environs[n % len(environs)])
        environ["wsgi.input"] = environs[0]["wsgi.input"].__class__(b"")
        result = handler(environ, start_response)
        for _chunk in result:
            pass
        result.close()

    for n in range(20):  # warm up
        one(n)
    done, started = 0, time.perf_counter()
    gc.collect()
    gc.disable()
    try:
        while time.perf_counter() - started < seconds:
            one(done)
            done += 1
    finally:
        gc.enable()
    elapsed = time.perf_counter() - started
    bad = [status for status in statuses if not status.startswith(("200", "204"))]
    if bad:
        raise RuntimeError(f"the display answered {bad[0]}")
    return done / elapsed


def _client(port: int, paths: list[str], stop_at: float, count_from: float, results: Any) -> None:
    """One load process: raw GETs over a new connection each, until ``stop_at``; the answers after ``count_from``."""
    requests = [f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode() for path in paths]
    answered = failed = n = 0
    while time.time() < stop_at:
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.sendall(requests[n % len(requests)])
            head = b""
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                head = head or chunk[:12]
        n += 1
        if time.time() >= count_from:
            if head[9:12] in (b"200", b"204"):
                answered += 1
            else:
                failed += 1
    results.put((answered, failed))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def http_rate(paths: list[str], seconds: float, clients: int) -> float:
    """Polls a second one gunicorn sync worker answers over HTTP on a local port."""
    port = _free_port()
    with tempfile.TemporaryFile() as log:  # the server's own output: read only if it fails to start
        server = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(port)],
            env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.time() + 60
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if server.poll() is not None or time.time() > deadline:
                        log.seek(0)
                        raise RuntimeError(f"the server did not start: {log.read().decode()[-2000:]}") from None
                    time.sleep(0.2)
            count_from = time.time() + 1.0  # a second of warming up, not counted
            stop_at = count_from + seconds
            out: Any = multiprocessing.Queue()
            loaders = [
                multiprocessing.Process(
                    target=_client, args=(port, paths[i::clients] or paths, stop_at, count_from, out)
                )
                for i in range(clients)
            ]
            for loader in loaders:
                loader.start()
            counts = [out.get() for _ in loaders]
            for loader in loaders:
                loader.join()
        finally:
            server.terminate()
            server.wait(timeout=30)
    failed = sum(f for _, f in counts)
    if failed:
        raise RuntimeError(f"{failed} answers over HTTP were neither 200 nor 204")
    return sum(a for a, _ in counts) / seconds


def serve(port: int) -> None:
    """The HTTP measure's server: this database, DEBUG off, one gunicorn sync worker on ``port``."""
    setup_django()
    from django.core.handlers.wsgi import WSGIHandler
    from gunicorn.app.base import BaseApplication

    class One(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in {"bind": f"127.0.0.1:{port}", "workers": 1, "worker_class": "sync",
                               "accesslog": None, "loglevel": "warning", "backlog": 64}.items():  # fmt: skip
                self.cfg.set(key, value)

        def load(self) -> Any:
            return WSGIHandler()

    One().run()


# --- the run -------------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.serve:
        serve(args.serve)
        return 0
    with throwaway_database(BENCH_DATABASE, args.keep) as where:
        setup_django()
        from django.conf import settings
        from django.core.cache import cache
        from django.test import Client
        from django.urls import reverse

        from poker_room.display.live import tournament_version
        from poker_room.display.views import POLL_MS, display_token
        from poker_room.tournaments.selectors import figures_key

        polls_a_second = 1000 / POLL_MS
        print(
            f"Room display: {args.tournaments} running tournaments of {args.entries} entries; "
            f"{args.requests} timed requests an address; screens poll {polls_a_second:g} times a second"
        )
        print(f"machine:  {machine()}")
        print(f"database: {where}; cache: {settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}; DEBUG off")
        started = time.perf_counter()
        director, tournaments = room_build(args, random.Random(args.seed))
        print(f"room:     built in {time.perf_counter() - started:.1f} s (not timed)")

        tokens = [display_token(t.pk) for t in tournaments]
        full = [reverse("poker-room-screen-json", args=[token]) for token in tokens]
        versions = [tournament_version(t.pk) for t in tournaments]
        unchanged = [f"{url}?v={version}" for url, version in zip(full, versions, strict=True)]
        pages = [reverse("poker-room-screen", args=[token]) for token in tokens]
        staff = [reverse("poker-room-display-json", args=[t.pk]) for t in tournaments]

        keys = [figures_key(t.pk, version) for t, version in zip(tournaments, versions, strict=True)]

        def changed(n: int) -> None:  # the first screen after a change: its version's figures not read yet
            cache.delete(keys[n % len(keys)])

        screen, signed_in = Client(), Client()
        signed_in.force_login(director)
        floor_latencies = timed(screen, unchanged, args.requests, 204)
        floor = percentile_ms(floor_latencies, 0.5)
        width = 52
        print()
        print(
            f"{'(a) server time':<{width}}{'p50 ms':>8}{'p99 ms':>8}{'mean ms':>8}{'queries':>8}{'KiB':>6}{'/floor':>8}"
        )
        rows: list[tuple[str, Any, list[str], int, Callable[[int], None] | None]] = [
            ("display.json?v=, nothing changed (the floor)", screen, unchanged, 204, None),
            ("display.json, the first screen after a change", screen, full, 200, changed),
            ("display.json, every other screen after it", screen, full, 200, None),
            ("the display page (HTML), after a change", screen, pages, 200, changed),
            ("display.json, the staff's (signed in), after a change", signed_in, staff, 200, changed),
        ]
        failed = False
        for label, client, urls, status, before in rows:
            latencies = floor_latencies if urls is unchanged else timed(client, urls, args.requests, status, before)
            if before is not None:
                before(0)
            sql = queries_of(client, urls[0], status)
            size = len(_get(client, urls[0], status).content) / 1024
            p50, p99 = percentile_ms(latencies, 0.5), percentile_ms(latencies, 0.99)
            failed |= p50 > TARGET_MS
            print(
                f"{label:<{width}}{p50:>8.2f}{p99:>8.2f}{statistics.fmean(latencies) * 1000:>8.2f}{len(sql):>8}"
                f"{size:>6.1f}{p50 / floor:>8.1f}   {'PASS' if p50 <= TARGET_MS else 'OVER'} (<= {TARGET_MS} ms)"
            )
        if args.queries:
            changed(0)
            for number, statement in enumerate(queries_of(screen, full[0], 200), start=1):
                print(f"    {number:>2}. {statement[:300]}")

        print()
        print(f"{'(b) polls one process answers':<{width + 8}}{'polls/s':>10}{'displays':>10}")
        measures: list[tuple[str, Callable[[], float]]] = [
            ("in process, nothing changed (204)", lambda: wsgi_rate(unchanged, args.seconds)),
            ("in process, every poll a change (figures read)", lambda: wsgi_rate(full, args.seconds, changed)),
        ]
        if not args.no_http:
            http = f"HTTP, 1 sync worker, {args.clients} clients"
            measures += [
                (f"{http}, nothing changed", lambda: http_rate(unchanged, args.seconds, args.clients)),
                (f"{http}, the payload (figures cached)", lambda: http_rate(full, args.seconds, args.clients)),
            ]
        for label, measure in measures:
            rate = measure()
            print(f"{label:<{width + 8}}{rate:>10.0f}{rate / polls_a_second:>10.0f}")
        print()
        print(
            f"displays = polls a second / {polls_a_second:g} (a screen polls every {POLL_MS} ms); a room's screens "
            "cost one 204 a poll, and one payload each per change."
        )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
