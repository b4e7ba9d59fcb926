"""Getting past the database's guards, as an attacker with full power over the database would (and as the
test suite's flush between transactional tests must): the append-only triggers and the application's role.

* PostgreSQL: the test connection logs in as the superuser and, in the second CI pass, works as the
  application's role (``SET ROLE``, see ``tests/conftest.py``). ``guards_off`` drops back to the superuser
  (``SET ROLE NONE``) and turns the triggers off for the session (``session_replication_role = replica``,
  a superuser's setting), on the same connection, so what it changes is the test's own uncommitted data.
* SQLite: whoever holds the file can do anything; ``guards_off`` drops the triggers and writes them again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import connection

from casino.append_only import sqlite_triggers_drop, sqlite_triggers_install

TAMPERED = "_tableside_test_tampered"


@contextmanager
def guards_off() -> Iterator[None]:
    """Inside: the connection is a superuser's with every trigger off (PostgreSQL), or has no triggers (SQLite)."""
    connection.__dict__[TAMPERED] = True  # what the test changes past the guards is not the services' to answer for
    if connection.vendor == "sqlite":
        sqlite_triggers_drop(connection)
        try:
            yield
        finally:
            sqlite_triggers_install(connection)
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('role')")
        role = cursor.fetchone()[0]
        cursor.execute("SET ROLE NONE")
        cursor.execute("SET session_replication_role = replica")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = origin")
            if role and role != "none":
                cursor.execute(f"SET ROLE {connection.ops.quote_name(role)}")


def tamper(sql: str, params: Sequence[Any] | None = None) -> int:
    """Run ``sql`` past every guard, as a superuser with the database (not the audit key) would; the rows changed."""
    with guards_off(), connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount
