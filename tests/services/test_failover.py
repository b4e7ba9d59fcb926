"""Losing the primary database mid-shift: the standby is promoted and nothing a tablet was answered is lost.

The drill builds what docs/operations-failover.md describes, on two PostgreSQL clusters of its own (new ports, a
temporary folder, removed at the end whatever happens): a primary (``wal_level=replica``, ``synchronous_commit=on``,
``synchronous_standby_names`` naming the standby) and a streaming standby made from it with ``pg_basebackup -R``,
whose ``cluster_name`` is the name the primary waits for. The floor is migrated and seeded on the primary as its
owner; gunicorn serves it (DEBUG off, as on a floor) as the application's role through a multi-host
``DATABASE_URL`` with ``target_session_attrs=read-write``, so it always writes to whichever server is the primary.

Two tablets (threads) play Pai Gow Poker rounds through the REST API, each at its own table, every write with an
``Idempotency-Key`` it sends again, unchanged, after a 503. Mid-shift the primary is stopped hard
(``pg_ctl stop -m immediate``: its server processes end at once, as a lost machine's would); a second later the
standby is promoted (``pg_ctl promote``). Meanwhile the tablets are told 503 with ``Retry-After`` and send again;
once the promoted server takes writes they play on. On the promoted database every round a tablet was answered for
is there once, settled once, with the wagers it was answered for; ``verify_audit`` holds the log to every head signed
on either server (one checkpoint file shared by every process), ``verify_ledger --replay`` and ``verify_ratings``
pass. In between, while the floor plays on, a new standby is built from the promoted server where the old primary was
(``pg_basebackup -R`` again) and the promoted server waits for it on every commit again; it holds the same rounds.

The Celery broker is named (DEBUG off requires one) but nothing listens there: a round publishes no task.

``make failover-drill`` runs this alone and prints the figures (``-s``); in CI it runs in the PostgreSQL pass. It skips
with its reason where PostgreSQL's server programs are missing, or where it runs as root and there is no ``postgres``
user to run the servers (initdb refuses root).
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.services.test_celery_worker import worker_stop

pytestmark = pytest.mark.services

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).parent / "gunicorn"
SERVER_PROGRAMS = ("initdb", "pg_ctl", "pg_basebackup", "postgres")
DATABASE = "tableside_failover_drill"
APP_ROLE = "tableside_app"
PASSWORD = "failover-drill-pass-2026"

# The drill's pace: rounds each tablet settles before the primary is lost and after the promotion, how long the
# operator (or the tool that watches the primary) takes to decide to promote, and how often a tablet asks again
# while it is told 503 (a tablet waits the 5 s of Retry-After; the drill asks sooner to measure the gap closely).
ROUNDS_BEFORE = 3
ROUNDS_AFTER = 3
DECIDE_SECONDS = 1.0
ASK_AGAIN_SECONDS = 0.2
DEADLINE_SECONDS = 60

# Pai Gow Poker against the bank's queens / jacks (tests/api/test_rounds_api.py): seat 1 wins, seat 2 loses.
BANK = {"high": "Qs Qd 8s 5d 3c", "low": "Jh Jc"}
WINS = {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"}
LOSES = {"high": "Ts Th 9c 6d 2h", "low": "9h 8d"}
WAGERS = {1: 2500, 2: 1000}

# The floor, seeded through the services as the pit boss would set it up: three people, two open tables with their
# trays counted and confirmed, an open gaming day and shift. Prints the tables' ids.
SEED = f"""
import json
from django.contrib.auth.models import Group, User
from django.utils import timezone
from casino.roles import Role
from casino.services import gaming_day_open, pit_create, shift_open
from rules.models import Game
from rules.services import rule_set_default
from tables.services import table_assign_dealer, table_create, table_open
from tables.tray import tray_count_confirm, tray_count_record

people = {{}}
for username, role in (("pitboss", Role.PIT_BOSS), ("floor", Role.FLOOR_SUPERVISOR), ("dealer", Role.DEALER)):
    people[username] = User.objects.create_user(username, password={PASSWORD!r}, is_staff=role == Role.PIT_BOSS)
    people[username].groups.add(Group.objects.get(name=role.value))
boss = people["pitboss"]
pit = pit_create(actor=boss, name="Pit 1")
tables = []
for name in ("PGP-1", "PGP-2"):
    table = table_create(actor=boss, pit=pit, name=name, game=Game.PAIGOW_POKER, min_wager_cents=1000,
                         max_wager_cents=200000, seat_count=6, rule_set=rule_set_default(game=Game.PAIGOW_POKER))
    tables.append(table_open(actor=boss, table=table_assign_dealer(actor=boss, table=table, dealer=people["dealer"])))
gaming_day_open(actor=boss, business_date=timezone.localdate())
shift_open(actor=boss, name="Day")
for table in tables:
    opener = tray_count_record(actor=people["dealer"], table=table, kind="opener", counts={{10000: 20, 2500: 40}})
    tray_count_confirm(actor=people["floor"], count=opener)
print(json.dumps([table.pk for table in tables]))
"""


# --- the machine: PostgreSQL's server programs, run as the postgres user when this is root ----------------------


@dataclass(frozen=True)
class Machine:
    bindir: Path
    as_postgres: tuple[str, ...]  # the prefix that runs a program as the servers' owner (none when not root)
    owner: tuple[int, int] | None  # the postgres user's uid and gid when this is root


def _server_bindir() -> Path | None:
    """Where initdb, pg_ctl, pg_basebackup and postgres are: ``TABLESIDE_PG_BINDIR`` where it is set (and only
    there), else ``pg_config --bindir`` or the newest of Debian's /usr/lib/postgresql/<version>/bin."""
    if os.environ.get("TABLESIDE_PG_BINDIR"):
        named = Path(os.environ["TABLESIDE_PG_BINDIR"])
        return named if all((named / program).is_file() for program in SERVER_PROGRAMS) else None
    candidates = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            found = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=True)
            candidates.append(Path(found.stdout.strip()))
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        versions = [p for p in debian.iterdir() if p.name.isdigit()]
        candidates.extend(p / "bin" for p in sorted(versions, key=lambda p: int(p.name), reverse=True))
    for bindir in candidates:
        if all((bindir / program).is_file() for program in SERVER_PROGRAMS):
            return bindir
    return None


@pytest.fixture
def machine() -> Machine:
    """The drill runs its own PostgreSQL servers: where it cannot, it says why in one line and skips."""
    if os.environ.get("TABLESIDE_CI_PASS") == "1":
        pytest.skip("the failover drill runs in the PostgreSQL pass (.ci/run's second)")
    bindir = _server_bindir()
    if bindir is None:
        pytest.skip(f"the failover drill needs PostgreSQL's server programs ({', '.join(SERVER_PROGRAMS)})")
    if os.geteuid() != 0:
        return Machine(bindir=bindir, as_postgres=(), owner=None)
    try:
        postgres = pwd.getpwnam("postgres")
    except KeyError:
        pytest.skip("the failover drill runs as root, and there is no postgres user to run its servers")
    runuser = shutil.which("runuser")
    if runuser is None:
        pytest.skip("the failover drill runs as root, and there is no runuser to run its servers as postgres")
    return Machine(
        bindir=bindir, as_postgres=(runuser, "-u", "postgres", "--"), owner=(postgres.pw_uid, postgres.pw_gid)
    )


def libpq_free_environment() -> dict[str, str]:
    """This process's environment without libpq's variables: the PostgreSQL pass sets ``PGOPTIONS`` (its role, its
    ``synchronous_commit=off``) for its own server, which must reach neither the drill's servers nor its commits."""
    return {k: v for k, v in os.environ.items() if not k.startswith("PG")}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """One PostgreSQL cluster of the drill's, in its own data directory."""

    machine: Machine
    name: str
    port: int
    data: Path
    log: Path

    def run(self, program: str, *args: str, timeout: float = 60) -> str:
        completed = subprocess.run(
            [*self.machine.as_postgres, str(self.machine.bindir / program), *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env={**libpq_free_environment(), "PGCONNECT_TIMEOUT": "5"},
        )
        assert completed.returncode == 0, f"{program} {' '.join(args)}: {completed.stderr}\n{self.log_tail()}"
        return completed.stdout

    def configure(self, lines: str) -> None:
        with open(self.data / "postgresql.conf", "a", encoding="utf-8") as conf:  # appended: the owner stays
            conf.write(lines)

    def start(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "30", "start")

    def stop(self, mode: str) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "30", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def promote(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-w", "-t", "30", "promote")

    def connect(self, dbname: str = "postgres") -> psycopg.Connection[Any]:
        # options given, if empty: libpq does not read PGOPTIONS (the PostgreSQL pass sets it for its own server).
        return psycopg.connect(
            host="127.0.0.1", port=self.port, user="postgres", dbname=dbname, options="", autocommit=True
        )

    def standby_of(self, source: Server) -> None:
        """Made a streaming standby of ``source`` (``pg_basebackup -R``, its replication slot named after it), with
        its own port, and its ``cluster_name`` the name ``source`` waits for. Its ``synchronous_standby_names`` is
        empty: promoted, it commits alone until a standby is built from it."""
        self.run(
            "pg_basebackup",
            *("-h", "127.0.0.1", "-p", str(source.port), "-U", "postgres", "-D", str(self.data)),
            *("-R", "-C", "-S", self.name, "-X", "stream", "-c", "fast"),
        )
        self.configure(f"\nport = {self.port}\ncluster_name = '{self.name}'\nsynchronous_standby_names = ''\n")
        self.start()

    def log_tail(self) -> str:
        try:
            return f"--- {self.log.name} ---\n" + "\n".join(self.log.read_text().splitlines()[-20:])
        except OSError:
            return ""


@dataclass
class Pair:
    """Two servers: ``a`` begins as the primary, ``b`` as its synchronous standby."""

    a: Server
    b: Server

    def url(self, user: str) -> str:
        """The multi-host URL the application uses: whichever of the two takes writes."""
        return (
            f"postgres://{user}@127.0.0.1:{self.a.port},127.0.0.1:{self.b.port}/{DATABASE}"
            "?target_session_attrs=read-write&connect_timeout=3"
        )


def _wait_until(what: str, condition: Any, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {seconds:g} s"
        time.sleep(0.1)


def _synchronous(primary: Server, standby: Server) -> bool:
    with primary.connect() as conn:
        rows = conn.execute("SELECT application_name, sync_state FROM pg_stat_replication").fetchall()
    return (standby.name, "sync") in rows


@pytest.fixture
def pair(machine: Machine) -> Iterator[Pair]:
    """A primary and its synchronous streaming standby, on free ports in a folder of their own; both stopped and
    removed at the end, whatever happened."""
    base = Path(tempfile.mkdtemp(prefix="tableside-failover-"))
    if machine.owner is not None:
        os.chown(base, *machine.owner)
    sockets = base / "sockets"
    a = Server(machine, "tableside_a", free_port(), base / "a", base / "a.log")
    b = Server(machine, "tableside_b", free_port(), base / "b", base / "b.log")
    try:
        subprocess.run([*machine.as_postgres, "mkdir", str(sockets)], check=True)
        a.run("initdb", "-D", str(a.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        a.configure(
            f"""
# The drill's primary (docs/operations-failover.md)
listen_addresses = '127.0.0.1'
port = {a.port}
unix_socket_directories = '{sockets}'
cluster_name = '{a.name}'
wal_level = replica
max_wal_senders = 4
max_replication_slots = 4
wal_log_hints = on
synchronous_commit = on
synchronous_standby_names = 'FIRST 1 ({b.name})'
"""
        )
        a.start()
        b.standby_of(a)
        _wait_until("the standby replicating synchronously", lambda: _synchronous(a, b))
        yield Pair(a, b)
    finally:
        for server in (a, b):
            if server.running():
                with contextlib.suppress(AssertionError, subprocess.SubprocessError):
                    server.stop("immediate")
        shutil.rmtree(base, ignore_errors=True)


# --- the application: manage.py and gunicorn, each a process of its own ----------------------------------------


def production(pair: Pair, user: str, checkpoints: Path) -> dict[str, str]:
    """The environment every process of the drill runs with: DEBUG off, the same keys, the same checkpoint file."""
    inherited = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHONPATH")}
    return {
        **inherited,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": DRILL_SECRET_KEY,
        "TABLESIDE_AUDIT_KEYS": f"drill:{DRILL_AUDIT_KEY}",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto",
        "DATABASE_URL": pair.url(user),
        "CELERY_BROKER_URL": f"redis://127.0.0.1:{free_port()}/0",  # named, nothing listens: rounds publish nothing
        "TABLESIDE_DB_APP_ROLE": APP_ROLE,
        "TABLESIDE_AUDIT_CHECKPOINT_FILE": str(checkpoints),
        "TABLESIDE_AUDIT_ANCHOR_SECONDS": "1",
    }


DRILL_SECRET_KEY = secrets.token_urlsafe(50)
DRILL_AUDIT_KEY = secrets.token_urlsafe(40)


def manage(environment: dict[str, str], *args: str) -> str:
    completed = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, f"manage.py {' '.join(args)}: exit {completed.returncode}\n{completed.stderr}"
    return completed.stdout


@contextlib.contextmanager
def gunicorn(environment: dict[str, str], log: Path) -> Iterator[int]:
    port = free_port()
    with open(log, "w", encoding="utf-8") as output:
        process = subprocess.Popen(
            [str(GUNICORN), "-c", "config/gunicorn.conf.py", "--bind", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env={**environment, "WEB_CONCURRENCY": "2"},
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_until("gunicorn answering /healthz", lambda: process.poll() is None and _answers(port), seconds=30)
        yield port
    finally:
        worker_stop(process)


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def call(port: int, path: str, body: Any, headers: dict[str, str]) -> tuple[int, dict[str, str], Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "X-Forwarded-Proto": "https", **headers},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read() or b"null")


# --- the tablets -------------------------------------------------------------------------------------------------


@dataclass(eq=False)
class Tablet(threading.Thread):
    """A dealer's tablet at one table: plays rounds until told to stop, each write sent again with its key after a
    503 until it is answered, and keeps what it was answered."""

    port: int
    token: str
    table_id: int
    stop: threading.Event
    rounds: list[dict[str, Any]] = field(default_factory=list)  # per round settled: its id, wagers and settle answer
    unavailable: list[float] = field(default_factory=list)  # when each 503 came
    answered: list[float] = field(default_factory=list)  # when each write was answered
    replayed: int = 0  # answers given again from an Idempotency-Key (the first answer lost with the primary)
    failure: str = ""

    def __post_init__(self) -> None:
        threading.Thread.__init__(self, name=f"tablet-{self.table_id}", daemon=True)

    def write(self, path: str, body: Any, expected: int) -> Any:
        headers = {"Authorization": f"Token {self.token}", "Idempotency-Key": f"drill-{uuid.uuid4().hex}"}
        deadline = time.monotonic() + DEADLINE_SECONDS
        while True:
            status, answer_headers, answer = call(self.port, path, body, headers)
            if status == 503:
                assert answer_headers.get("Retry-After") == "5", answer_headers
                self.unavailable.append(time.monotonic())
                assert time.monotonic() < deadline, f"{path}: still 503 after {DEADLINE_SECONDS} s"
                time.sleep(ASK_AGAIN_SECONDS)
                continue
            assert status == expected, f"{path}: {status} {answer}"
            self.answered.append(time.monotonic())
            self.replayed += answer_headers.get("Idempotent-Replayed") == "true"
            return answer

    def play_round(self) -> None:
        opened = self.write(f"/api/v1/tables/{self.table_id}/rounds/", {}, 201)
        round_path = f"/api/v1/rounds/{opened['id']}"
        for seat, amount in WAGERS.items():
            self.write(f"{round_path}/wagers/", {"seat": seat, "amount_cents": amount}, 201)
        closed = self.write(f"{round_path}/close-betting/", {}, 200)
        self.write(f"{round_path}/deal/", {"dice": [3, 5, 6]}, 200)
        self.write(f"{round_path}/hands/", {"banker": BANK, "seats": {"1": WINS, "2": LOSES}}, 200)
        settled = self.write(f"{round_path}/settle/", {}, 200)
        wagers = sorted((wager["seat"], wager["amount_cents"]) for wager in closed["wagers"])
        self.rounds.append({"id": opened["id"], "wagers": wagers, "settled": settled, "at": time.monotonic()})

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.play_round()
        except BaseException as exc:  # reported by the test's thread
            self.failure = f"{type(exc).__name__}: {exc}"


def sign_in(port: int) -> str:
    status, _, answer = call(port, "/api/v1/auth/token/", {"username": "dealer", "password": PASSWORD}, {})
    assert status == 200, answer
    return str(answer["token"])


# --- the drill ---------------------------------------------------------------------------------------------------


def test_the_standby_promoted_mid_shift_has_every_round_the_tablets_were_answered_for_once(
    pair: Pair, tmp_path: Path
) -> None:
    a, b = pair.a, pair.b
    checkpoints = tmp_path / "audit-checkpoints.jsonl"
    as_owner = production(pair, "postgres", checkpoints)
    as_app = production(pair, APP_ROLE, checkpoints)
    with a.connect() as conn:
        conn.execute(f'CREATE DATABASE "{DATABASE}"')
        conn.execute(f"CREATE ROLE {APP_ROLE} LOGIN")  # granted what it may do by migrate (TABLESIDE_DB_APP_ROLE)
    manage(as_owner, "migrate", "--noinput", "-v", "0")
    tables = json.loads(manage(as_app, "shell", "-c", SEED).strip().splitlines()[-1])

    stop = threading.Event()
    with gunicorn(as_app, tmp_path / "gunicorn.log") as port:
        token = sign_in(port)
        tablets = [Tablet(port=port, token=token, table_id=table_id, stop=stop) for table_id in tables]

        def played(rounds: int, since: float = 0.0) -> Any:
            return lambda: (
                any(t.failure for t in tablets)
                or all(sum(r["at"] > since for r in t.rounds) >= rounds for t in tablets)
            )

        for tablet in tablets:
            tablet.start()
        try:
            _wait_until(f"{ROUNDS_BEFORE} rounds at each table", played(ROUNDS_BEFORE), seconds=DEADLINE_SECONDS)
            _wait_until("a head of the log signed", checkpoints.is_file)
            heads_before = len(checkpoints.read_text().splitlines())
            assert _synchronous(a, b), "the standby stopped replicating synchronously before the drill"

            # The primary is lost mid-shift; the standby is promoted once that is decided.
            lost_at = time.monotonic()
            a.stop("immediate")
            time.sleep(DECIDE_SECONDS)
            promoting_at = time.monotonic()
            b.promote()
            promoted_at = time.monotonic()
            _wait_until("rounds after the promotion", played(ROUNDS_AFTER, promoted_at), seconds=DEADLINE_SECONDS)

            # A new standby, built from the promoted server where the old primary was, while the floor plays on; then
            # the promoted server waits for it on every commit again.
            shutil.rmtree(a.data)
            a.standby_of(b)
            with b.connect() as conn:
                conn.execute(f"ALTER SYSTEM SET synchronous_standby_names = 'FIRST 1 ({a.name})'")
                conn.execute("SELECT pg_reload_conf()")
            _wait_until("the new standby replicating synchronously", lambda: _synchronous(b, a))
            rebuilt_at = time.monotonic()
            _wait_until("rounds with the new standby", played(ROUNDS_AFTER, rebuilt_at), seconds=DEADLINE_SECONDS)
        finally:
            stop.set()
            for tablet in tablets:
                tablet.join(timeout=DEADLINE_SECONDS)
        failures = [f"{t.name}: {t.failure}" for t in tablets if t.failure]
        assert not failures, "\n".join(failures) + "\n" + (tmp_path / "gunicorn.log").read_text()[-3000:]

    # Every round a tablet was answered for is on the promoted server once, settled once, with its wagers, as it was
    # answered; no other round is there; each table's rounds are numbered on with no gap.
    acknowledged = {r["id"]: r for t in tablets for r in t.rounds}
    with b.connect(DATABASE) as conn:
        assert conn.execute("SELECT pg_is_in_recovery()").fetchone() == (False,)
        rounds = dict(conn.execute("SELECT id, state FROM tables_round").fetchall())
        numbers = dict(
            conn.execute("SELECT table_id, array_agg(number ORDER BY number) FROM tables_round GROUP BY table_id")
        )
        settlements = dict(
            conn.execute(
                "SELECT round_id, count(*) FROM ledger_posting WHERE kind = 'settlement' GROUP BY round_id"
            ).fetchall()
        )
        wagers: dict[int, list[tuple[int, int]]] = {}
        for round_id, seat, amount in conn.execute(
            "SELECT w.round_id, s.number, w.amount_cents FROM settlement_wager w JOIN tables_seat s ON s.id = w.seat_id"
        ):
            wagers.setdefault(round_id, []).append((seat, amount))
        kept = {
            round_id: {"settlement_id": posting, "idempotency_key": key, **result}
            for round_id, posting, key, result in conn.execute(
                "SELECT round_id, id, idempotency_key, result FROM ledger_posting WHERE kind = 'settlement'"
            )
        }
        newest = conn.execute("SELECT pg_current_wal_lsn()").fetchone()
    assert sorted(rounds) == sorted(acknowledged)
    assert set(rounds.values()) == {"settled"}
    assert all(found == list(range(1, len(found) + 1)) for found in numbers.values()), numbers
    assert settlements == dict.fromkeys(acknowledged, 1)
    assert {round_id: sorted(w) for round_id, w in wagers.items()} == {
        round_id: r["wagers"] for round_id, r in acknowledged.items()
    }
    assert all(r["wagers"] == sorted(WAGERS.items()) for r in acknowledged.values())
    # A settle's answer is its stored posting's result with the round's particulars (settlement.services.settle).
    lost = [
        round_id
        for round_id, r in acknowledged.items()
        if round_id not in kept or any(r["settled"].get(name) != value for name, value in kept[round_id].items())
    ]
    assert not lost, f"rounds answered to a tablet and not on the promoted server as answered: {lost}"

    # The new standby holds the same rounds once it has replayed what it was sent.
    with a.connect(DATABASE) as conn:
        _wait_until(
            "the new standby replaying",
            lambda: conn.execute("SELECT pg_last_wal_replay_lsn() >= %s", newest).fetchone() == (True,),
        )
        assert conn.execute("SELECT count(*) FROM tables_round").fetchone() == (len(acknowledged),)

    # Every verifier passes on the promoted server, its log held to the heads the primary signed as well as its own
    # (the serving processes sign one within a second of a write; the operator signs its head once play is over).
    manage(as_app, "audit_checkpoint")
    heads = checkpoints.read_text().splitlines()
    assert heads_before >= 1 and len(heads) > heads_before
    audit = manage(as_app, "verify_audit")
    ledger = manage(as_app, "verify_ledger", "--replay")
    ratings = manage(as_app, "verify_ratings")

    unavailable = sorted(when for t in tablets for when in t.unavailable)
    assert unavailable, "no tablet was told 503 while no server took writes"
    back = min(when for t in tablets for when in t.answered if when > unavailable[-1])
    print(
        "\nFailover drill:"
        f"\n  rounds acknowledged: {len(acknowledged)}: {sum(r['at'] < lost_at for r in acknowledged.values())} before "
        f"the primary stopped, {sum(r['at'] > rebuilt_at for r in acknowledged.values())} after the new standby; "
        f"lost: {len(lost)}"
        f"\n  primary stopped at 0.00 s; promote asked at {promoting_at - lost_at:.2f} s, done at "
        f"{promoted_at - lost_at:.2f} s; new standby synchronous at {rebuilt_at - lost_at:.2f} s"
        f"\n  503 answers: {len(unavailable)}, the first at {unavailable[0] - lost_at:.2f} s, the last at "
        f"{unavailable[-1] - lost_at:.2f} s; first write answered again at {back - lost_at:.2f} s"
        f"\n  writes answered again from their Idempotency-Key: {sum(t.replayed for t in tablets)}"
        f"\n  audit heads signed before the loss: {heads_before}, in all: {len(heads)}"
        f"\n  {audit.strip().splitlines()[0]}\n  {ledger.strip().splitlines()[0]}\n  {ratings.strip()}"
    )
