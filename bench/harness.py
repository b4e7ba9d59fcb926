"""What the benches share: a throwaway database for the run, Django set up on it, gunicorn serving it (with the CPU
its workers have spent), a device's connection to it, and the machine's description.

The benches run as scripts (``python bench/settlement.py``); each puts the project
root on ``sys.path`` and imports this module as ``bench.harness``.
"""

from __future__ import annotations

import ctypes
import http.client
import json
import os
import platform
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse, urlunparse

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def throwaway_database(name: str, keep: bool, *, reuse: bool = False) -> Iterator[str]:
    """Point DATABASE_URL at a fresh database ``name`` for the run; drop it afterwards. Yields a description.

    ``reuse``: if the database ``name`` already exists (on PostgreSQL; with SQLite, the file
    ``<temporary directory>/name/bench.sqlite3``), point at it as it is instead of making it afresh; the
    database is kept after the run either way (``keep``), so the next run can reuse it. The caller decides
    what in it can be reused.
    """
    keep = keep or reuse
    url = os.environ.get("DATABASE_URL", "").strip()
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme in ("postgres", "postgresql", "pgsql"):
        import psycopg

        parts = urlparse(url)
        server = {
            "host": parts.hostname or "127.0.0.1",
            "port": parts.port or 5432,
            "user": unquote(parts.username or "postgres"),
            "password": unquote(parts.password) if parts.password else None,
            "dbname": "postgres",
            "autocommit": True,
        }
        with psycopg.connect(**server) as admin:
            exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is not None
            if not (reuse and exists):
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                admin.execute(f'CREATE DATABASE "{name}"')
        os.environ["DATABASE_URL"] = urlunparse(parts._replace(path=f"/{name}"))
        made = "reused as it was" if reuse and exists else "made for the run"
        where = f"PostgreSQL database {name} on {server['host']}:{server['port']}, {made}"
        try:
            yield where
        finally:
            close_connections()
            if keep:
                print(f"kept: {os.environ['DATABASE_URL']}")
            else:
                with psycopg.connect(**server) as admin:
                    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        return
    if url and scheme != "sqlite":
        raise SystemExit(f"DATABASE_URL must be PostgreSQL or SQLite for this bench, got {url!r}")
    if reuse:
        directory = str(Path(tempfile.gettempdir()) / name)
        Path(directory).mkdir(exist_ok=True)
    else:
        directory = tempfile.mkdtemp(prefix=f"{name}-")
    path = Path(directory) / "bench.sqlite3"
    made = "reused as it was" if path.exists() else "made for the run"
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    try:
        yield f"SQLite file {path}, {made}"
    finally:
        close_connections()
        if keep:
            print(f"kept: {path}")
        else:
            shutil.rmtree(directory, ignore_errors=True)


def close_connections() -> None:
    if "django.db" in sys.modules:
        from django.db import connections

        connections.close_all()


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # A throwaway database's audit checkpoints go to a throwaway file, not the project's var/ (whose database
    # they do not belong to: verify_audit there would read them as a chain cut short).
    os.environ.setdefault(
        "TABLESIDE_AUDIT_CHECKPOINT_FILE", str(Path(tempfile.mkdtemp(prefix="tableside-bench-")) / "checkpoints.jsonl")
    )
    import django
    from django.conf import settings
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False, skip_checks=True)
    settings.DEBUG = False  # no query log while timing, as in production


def cpu_model() -> str:
    """The CPU's model name as /proc/cpuinfo gives it (or what the platform says): named with every figure."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def machine() -> str:
    import django
    from django.db import connection

    model = cpu_model()
    if connection.vendor == "postgresql":
        import psycopg

        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            engine = f"PostgreSQL {cursor.fetchone()[0]} (psycopg {psycopg.__version__})"
    else:
        import sqlite3

        engine = f"SQLite {sqlite3.sqlite_version}"
    return f"{model}, {os.cpu_count()} cores; Python {platform.python_version()}, Django {django.__version__}; {engine}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def session_cookie(user: Any) -> str:
    """A signed-in session for ``user``, as the sign-in page would make it (kept where the server reads it)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.utils.module_loading import import_string

    store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return f"{settings.SESSION_COOKIE_NAME}={store.session_key}"


@cache
def process_cpu_clock(pid: int) -> int:
    """The CPU-time clock of another process (``clock_getcpuclockid``, Linux), looked up once a process:
    ``time.clock_gettime`` of it is the CPU seconds that process has spent, to the nanosecond (``/proc/PID/stat``
    counts in ticks of 10 ms); once the process is gone, reading it fails."""
    clock = ctypes.c_int()
    failed = ctypes.CDLL(None, use_errno=True).clock_getcpuclockid(pid, ctypes.byref(clock))
    if failed:
        raise OSError(failed, f"no CPU clock for process {pid}: {os.strerror(failed)}")
    return clock.value


def process_cpu(pid: int) -> float:
    """The CPU seconds the process ``pid`` has spent so far, through its CPU-time clock (``process_cpu_clock``)."""
    return time.clock_gettime(process_cpu_clock(pid))


class Server:
    """gunicorn serving the throwaway database, as ``make serve`` does (``config/gunicorn.conf.py``, DEBUG off), with
    ``workers`` sync workers."""

    def __init__(self, workers: int) -> None:
        self.port = free_port()
        env = dict(os.environ)
        env.update(
            DEBUG="0",
            ALLOWED_HOSTS="127.0.0.1",
            SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto",
            WEB_CONCURRENCY=str(workers),
            DJANGO_SETTINGS_MODULE="config.settings",
        )
        gunicorn = Path(sys.executable).parent / "gunicorn"
        command = [str(gunicorn), "-c", "config/gunicorn.conf.py", "--bind", f"127.0.0.1:{self.port}"]
        command += ["--access-logfile", "/dev/null"]
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                status, _ = Client(self.port, "").get("/accounts/login/")
                if status == 200:
                    return
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.3)
        self.stop()
        said = self.process.stderr.read().decode(errors="replace") if self.process.stderr else ""
        reason = [line for line in said.splitlines() if line.strip()][-3:]
        raise SystemExit("gunicorn did not answer within a minute" + "".join(f"\n  {line}" for line in reason))

    def workers(self) -> list[int]:
        """The process ids of the workers serving now (the master's children)."""
        master = self.process.pid
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
        return [int(pid) for pid in children]

    def worker_cpu(self, workers: list[int]) -> float:
        """The CPU seconds the processes ``workers`` have spent so far (a worker gone meanwhile fails the call: the
        figure would miss its share)."""
        return sum(process_cpu(pid) for pid in workers)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Client:
    """One device's keep-alive connection: a token for the API, a session cookie for the pages."""

    def __init__(self, port: int, cookie: str, token: str = "") -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {"X-Forwarded-Proto": "https", "Cookie": cookie}
        if token:
            self.headers["Authorization"] = f"Token {token}"

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = dict(self.headers)
        data = None
        if body is not None or method == "POST":
            data = json.dumps(body or {}).encode()
            headers |= {"Content-Type": "application/json", "Idempotency-Key": uuid.uuid4().hex}
        self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        payload = response.read()
        kind = response.getheader("Content-Type", "")
        return response.status, json.loads(payload) if kind.startswith("application/json") and payload else payload

    def get(self, path: str) -> tuple[int, Any]:
        return self.request("GET", path)
