"""What the benches share: a throwaway database for the run, Django set up on it, and the machine's description.

The benches run as scripts (``python bench/settlement.py``); each puts the project
root on ``sys.path`` and imports this module as ``bench.harness``.
"""

from __future__ import annotations

import os
import platform
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote, urlparse, urlunparse


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
