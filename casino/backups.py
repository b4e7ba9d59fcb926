"""Backing up the database and restoring it into a new one, with pg_dump and pg_restore (docs/operations-backup.md).

* ``database_backup`` copies the audit checkpoint file (``TABLESIDE_AUDIT_CHECKPOINT_FILE``, its complete lines), then
  dumps the database the settings name in pg_dump's custom format. In that order every signed head in the copy is a
  head the dump holds: a head reaches the file only after its transaction committed, before the dump's snapshot.
  The dump is written under a temporary name and renamed once pg_dump succeeded: a file with the backup's name is a
  whole backup.
* ``database_restore`` restores a dump into a new, empty database (it refuses any other: a restore never writes over
  data), in one transaction, owned by the role it connects as, then grants the application's role its privileges
  (``casino.db_role``). The append-only triggers and the closed escape hatch of django-pgtrigger are in the dump and
  come back with the tables.
* ``checkpoints_held_split`` splits a checkpoint file written while the database ran on past the restore point: the
  heads the restored database holds go to a new file (the restored database's own), the ones it lost are named.

PostgreSQL only; the client programs are the ones on the PATH (``PG_DUMP``, ``PG_RESTORE``), of the server's major
version or newer.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import environ
import psycopg
from django.conf import settings
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

from casino.audit import checkpoints_from_file
from casino.db_role import app_role_grant, role_exists
from casino.models import AuditCheckpoint, AuditLeaf

PG_DUMP = "pg_dump"
PG_RESTORE = "pg_restore"
POSTGRESQL = "django.db.backends.postgresql"
PRIVATE = 0o600  # a backup holds the players and the whole audit log: its owner alone reads it

# The OPTIONS of a database's settings that are libpq's connection parameters (a DATABASE_URL's query string):
# handed to pg_dump and pg_restore as they are to the application's connections.
_LIBPQ_OPTIONS = frozenset(
    {
        "sslmode",
        "sslrootcert",
        "sslcert",
        "sslkey",
        "sslpassword",
        "options",
        "connect_timeout",
        "application_name",
        "target_session_attrs",
        "service",
        "passfile",
        "channel_binding",
    }
)


class BackupRefused(Exception):
    """A backup or a restore that cannot be done, in the operator's words; nothing was written."""


@dataclass(frozen=True)
class Backup:
    """What ``database_backup`` wrote."""

    dump: Path
    dump_bytes: int
    database: str
    checkpoints: Path | None  # the copy of the checkpoint file; None when there was none to copy
    checkpoint_lines: int


@dataclass(frozen=True)
class Restore:
    """What ``database_restore`` restored, and what it granted."""

    database: str
    tables: int
    audit_events: int
    last_event_at: str  # "" when the log is empty
    app_role: str  # "" when no role was granted
    grants: int


@dataclass(frozen=True)
class CheckpointSplit:
    """A checkpoint file split by ``checkpoints_held_split``: the heads this database holds, and the ones it lost."""

    held: int
    lost: tuple[Mapping[str, Any], ...]  # the lost heads as the file wrote them, in its order
    malformed: int
    leaves: int  # this database's tree


# --- where a database is ---------------------------------------------------------------------------------------


def _conninfo(database: Mapping[str, Any]) -> str:
    """libpq's connection string for a database's settings, without its password (that goes in PGPASSWORD, never
    on a command line another user's ``ps`` would show)."""
    options = {k: v for k, v in (database.get("OPTIONS") or {}).items() if k in _LIBPQ_OPTIONS and v not in ("", None)}
    params = {
        "dbname": database.get("NAME") or "",
        "host": database.get("HOST") or "",
        "port": str(database.get("PORT") or ""),
        "user": database.get("USER") or "",
        **{k: str(v) for k, v in options.items()},
    }
    return psycopg.conninfo.make_conninfo(**{k: v for k, v in params.items() if v})


def _environment(database: Mapping[str, Any]) -> dict[str, str]:
    environment = dict(os.environ)
    if database.get("PASSWORD"):
        environment["PGPASSWORD"] = str(database["PASSWORD"])
    return environment


def database_described(database: Mapping[str, Any]) -> str:
    """A database as an operator names it: ``tableside (postgres@127.0.0.1:5432)``, never its password."""
    user = database.get("USER") or "(your login)"
    host = database.get("HOST") or "the local socket"
    port = database.get("PORT") or 5432
    return f"{database.get('NAME')} ({user}@{host}:{port})"


def database_from_url(url: str) -> dict[str, Any]:
    """A database's settings from a URL such as ``postgres://postgres@127.0.0.1:5432/tableside_restored``."""
    try:
        database: dict[str, Any] = environ.Env.db_url_config(url)
    except Exception as exc:  # django-environ raises whatever its parser meets
        raise BackupRefused(f"{url!r} is not a database URL (postgres://USER@HOST:PORT/NAME): {exc}") from exc
    if database.get("ENGINE") != POSTGRESQL or not database.get("NAME"):
        raise BackupRefused(f"{url!r} is not a PostgreSQL database URL (postgres://USER@HOST:PORT/NAME).")
    return database


def _program(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupRefused(
            f"{name} is not installed here (PostgreSQL's client programs: apt-get install postgresql-client, "
            "of the server's major version or newer)."
        )
    return found


def _failure(program: str, completed: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in (completed.stderr or "").splitlines() if line.strip()]
    return f"{program} failed (exit {completed.returncode}): " + ("\n".join(lines[-8:]) or "no message")


# --- backing up ------------------------------------------------------------------------------------------------


def _checkpoints_copy(source: Path, target: Path) -> int:
    """Copy the checkpoint file's complete lines (a sequencer may be appending one this instant); their number."""
    data = source.read_bytes()
    whole = data[: data.rfind(b"\n") + 1]
    with os.fdopen(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE), "wb") as handle:
        handle.write(whole)
    return whole.count(b"\n")


def checkpoints_copy_path(dump: Path) -> Path:
    """Where ``database_backup`` copies the checkpoint file for the dump ``dump``: beside it."""
    return dump.with_name(dump.name + ".checkpoints.jsonl")


def database_backup(*, out: Path, database: Mapping[str, Any] | None = None) -> Backup:
    """Copy the checkpoint file, then dump ``database`` (the settings' by default) to ``out`` in pg_dump's custom
    format (compressed, restored by pg_restore in any order or in part). Refuses to write over a file."""
    database = database if database is not None else settings.DATABASES["default"]
    if database.get("ENGINE") != POSTGRESQL:
        raise BackupRefused(
            "This installation runs on SQLite: pg_dump backs up PostgreSQL only. Stop the application and copy "
            f"{database.get('NAME')} instead (docs/operations-backup.md)."
        )
    copy = checkpoints_copy_path(out)
    for path in (out, copy):
        if path.exists():
            raise BackupRefused(f"{path} already exists: a backup never writes over a file; choose a new name.")
    if not out.parent.is_dir():
        raise BackupRefused(f"There is no directory {out.parent}: make it first.")
    pg_dump = _program(PG_DUMP)
    source = Path(settings.TABLESIDE_AUDIT_CHECKPOINT_FILE) if settings.TABLESIDE_AUDIT_CHECKPOINT_FILE else None
    lines = _checkpoints_copy(source, copy) if source is not None and source.is_file() else 0
    partial = out.with_name(f".{out.name}.partial")
    partial.unlink(missing_ok=True)  # left by a backup that was killed
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE))  # pg_dump keeps its mode
    completed = subprocess.run(
        [pg_dump, "--format=custom", "--no-password", f"--file={partial}", f"--dbname={_conninfo(database)}"],
        env=_environment(database),
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        partial.unlink(missing_ok=True)
        copy.unlink(missing_ok=True)
        raise BackupRefused(f"The backup of {database_described(database)} failed. {_failure('pg_dump', completed)}")
    os.replace(partial, out)
    return Backup(
        dump=out,
        dump_bytes=out.stat().st_size,
        database=database_described(database),
        checkpoints=copy if copy.exists() else None,
        checkpoint_lines=lines,
    )


# --- restoring -------------------------------------------------------------------------------------------------


def _connect(database: Mapping[str, Any]) -> psycopg.Connection[Any]:
    try:
        return psycopg.connect(_conninfo(database), password=database.get("PASSWORD") or None, autocommit=True)
    except psycopg.OperationalError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise BackupRefused(
            f"Cannot connect to {database_described(database)}: {first}. A restore goes into a new, empty database: "
            f"create it first (createdb -O OWNER {database.get('NAME')})."
        ) from exc


_OBJECTS_SQL = """
SELECT n.nspname || '.' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_(toast|temp)'
  AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
UNION ALL
SELECT n.nspname || '.' || p.proname || '()' FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
ORDER BY 1
"""


def database_objects(database: Mapping[str, Any]) -> list[str]:
    """The tables, views, sequences and functions a database holds outside PostgreSQL's own schemas."""
    with _connect(database) as conn:
        return [row[0] for row in conn.execute(_OBJECTS_SQL).fetchall()]


def _archive_checked(dump: Path, pg_restore: str) -> None:
    if not dump.is_file():
        raise BackupRefused(f"There is no backup at {dump}.")
    listed = subprocess.run([pg_restore, "--list", str(dump)], capture_output=True, text=True, check=False)
    if listed.returncode != 0:
        raise BackupRefused(
            f"{dump} is not a backup pg_dump wrote in its custom format (pg_restore cannot read it). "
            + _failure("pg_restore", listed)
        )
    if "TABLE DATA public casino_auditevent" not in listed.stdout:
        raise BackupRefused(f"{dump} is a pg_dump archive, but not of a Tableside database: it has no audit log.")


@contextmanager
def _django_connection(database: Mapping[str, Any], alias: str) -> Iterator[BaseDatabaseWrapper]:
    """A Django connection to another database, under an alias of its own for as long as it is used."""
    connections.settings[alias] = connections.configure_settings({"default": dict(database)})["default"]
    connection = connections[alias]
    try:
        yield connection
    finally:
        connection.close()
        del connections[alias]
        del connections.settings[alias]


def database_restore(*, dump: Path, into: Mapping[str, Any], app_role: str = "") -> Restore:
    """Restore ``dump`` into the database ``into`` names, which must exist and be empty, in one transaction (all or
    nothing); the tables then belong to the role the restore connects as (the owner who runs the migrations), and
    ``app_role``, when named, gets the application's privileges on them (``casino.db_role``)."""
    if into.get("ENGINE") != POSTGRESQL:
        raise BackupRefused("A restore goes into a PostgreSQL database (postgres://USER@HOST:PORT/NAME).")
    pg_restore = _program(PG_RESTORE)
    _archive_checked(dump, pg_restore)
    found = database_objects(into)
    if found:
        shown = ", ".join(found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")
        raise BackupRefused(
            f"The database {database_described(into)} is not empty: it holds {len(found)} tables, sequences or "
            f"functions ({shown}). A restore never writes over a database: create a new, empty one "
            f"(createdb -O OWNER NEWNAME) and restore into it."
        )
    if app_role:
        with _connect(into) as conn:
            if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [app_role]).fetchone() is None:
                raise BackupRefused(
                    f"There is no role {app_role!r} on {database_described(into)}: create it first "
                    f"(manage.py db_app_role {app_role} --create, against the new database), or restore without it."
                )
    completed = subprocess.run(
        [
            pg_restore,
            "--single-transaction",
            "--exit-on-error",
            "--no-owner",
            "--no-acl",
            "--no-password",
            f"--dbname={_conninfo(into)}",
            str(dump),
        ],
        env=_environment(into),
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise BackupRefused(
            f"The restore into {database_described(into)} failed and was rolled back: the database is empty again. "
            + _failure("pg_restore", completed)
        )
    grants = 0
    if app_role:
        with _django_connection(into, alias="restore-target") as connection:
            if not role_exists(connection, app_role):  # dropped since the check above
                raise BackupRefused(f"The role {app_role!r} was dropped during the restore: grant it by hand.")
            grants = len(app_role_grant(connection, app_role))
    with _connect(into) as conn:
        tables = (conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone() or (0,))[0]
        events, last = conn.execute("SELECT count(*), max(occurred_at) FROM casino_auditevent").fetchone() or (0, None)
    return Restore(
        database=database_described(into),
        tables=int(tables),
        audit_events=int(events),
        last_event_at=last.isoformat(timespec="seconds") if last is not None else "",
        app_role=app_role,
        grants=grants,
    )


# --- the checkpoint file after a restore to an earlier point ---------------------------------------------------


def checkpoints_held_split(*, source: Path, out: Path) -> CheckpointSplit:
    """Write to ``out`` the lines of the checkpoint file ``source`` whose signed head this database holds (as they
    are, in their order), and name the heads it does not hold: after a restore to an earlier point, the heads
    signed after it, over events the restore lost. ``source`` is never changed; ``out`` must be new."""
    if not source.is_file():
        raise BackupRefused(f"There is no checkpoint file at {source}.")
    if out.exists():
        raise BackupRefused(f"{out} already exists: the split never writes over a file; choose a new name.")
    held_here = set(AuditCheckpoint.objects.values_list("seq", "head_hash", "signature"))
    lines = [line for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    records = checkpoints_from_file(source)
    if len(records) != len(lines):
        raise BackupRefused(f"{source} changed while it was read: stop the application first (it appends to it).")
    kept: list[str] = []
    lost: list[Mapping[str, Any]] = []
    malformed = 0
    for line, record in zip(lines, records, strict=True):
        if "malformed" in record:
            malformed += 1
        elif (record["seq"], record["head_hash"], record["signature"]) in held_here:
            kept.append(line)
        else:
            lost.append(record)
    out.write_text("".join(line + "\n" for line in kept), encoding="utf-8")
    return CheckpointSplit(held=len(kept), lost=tuple(lost), malformed=malformed, leaves=AuditLeaf.objects.count())
