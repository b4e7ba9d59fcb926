"""The ledger's hand-written SQL, in one place: a posting and its entries written in one statement on PostgreSQL
(docs/performance.md, "Settlement"), held to its ORM twin (``Posting.objects.create`` and
``LedgerEntry.objects.bulk_create``) by tests/ledger/test_sql.py.

The one vendor switch is ``_in_one_statement()``: what differs between PostgreSQL and SQLite is said there and
nowhere else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from casino.rows import column, insert_statement, inserted, inserted_from, per_connection, quote, stored_field
from ledger.lines import Line
from ledger.models import LedgerEntry, Posting


def _in_one_statement() -> bool:
    """Whether a posting's entries go in the posting's own INSERT (PostgreSQL: from arrays in its ``WITH``)."""

    def ask(wrapper: BaseDatabaseWrapper) -> bool:
        vendor = wrapper.vendor
        if vendor not in ("postgresql", "sqlite"):
            raise ImproperlyConfigured(f"Tableside runs on PostgreSQL or SQLite, not {vendor}.")
        return vendor == "postgresql"

    return per_connection("_tableside_ledger_one_statement", ask)


def key_used_sql(key: str) -> tuple[str, list[Any]]:
    """A scalar subquery: whether a posting already holds this idempotency key."""
    return f"SELECT COUNT(*) FROM {quote(Posting._meta.db_table)} WHERE {quote('idempotency_key')} = %s", [key]


def ledger_insert(posting: Posting, *, lines: Sequence[Line], seat_ids: Mapping[int, int]) -> Posting:
    """INSERT a new posting and its entries, one a line (``seat_ids`` maps seat numbers to ids); return it stored."""
    connection = connections[LedgerEntry.objects.db]
    created_at = connection.ops.adapt_datetimefield_value(timezone.now())
    shared = [posting.round_id, posting.actor_id, created_at, posting.idempotency_key or ""]
    columns = (
        [line.account for line in lines],
        [seat_ids[line.seat] if line.seat is not None else None for line in lines],
        [line.amount for line in lines],
        [line.kind for line in lines],
    )
    posting_sql, posting_values = insert_statement(posting)
    # The same rows ``save()`` and ``bulk_create`` would write (insert only, never an update), written out
    # so a settlement costs as few round trips as it can: on PostgreSQL the posting and its entries go in
    # one statement (the entries take the posting's new id from it, their lines as four arrays); elsewhere
    # two, the entries as one multi-row INSERT.
    with connection.cursor() as cursor:
        if lines and _in_one_statement():
            cursor.execute(
                f"WITH p AS ({posting_sql}), e AS ({_entries_unnest_sql()}) SELECT id FROM p",
                [*posting_values, *shared, *columns],
            )
            return inserted(posting, cursor.fetchone()[0])
        cursor.execute(posting_sql, posting_values)
        inserted_from(cursor, posting)
        if lines:
            rows = [[posting.pk, *shared, *line] for line in zip(*columns, strict=True)]
            cursor.execute(_entries_rows_sql(len(rows)), [value for row in rows for value in row])
    return posting


# An entry's columns: those every entry of a posting shares, then those of each line.
_SHARED_COLUMNS = ("round_id", "actor", "created_at", "idempotency_key")
_LINE_COLUMNS = ("account", "seat_id", "amount_cents", "kind")


def _entry_columns() -> str:
    names = ("posting", *_SHARED_COLUMNS, *_LINE_COLUMNS)
    return ", ".join(column(stored_field(LedgerEntry, name)) for name in names)


@cache
def _entries_rows_sql(count: int) -> str:
    """``INSERT`` of ``count`` entries as rows of every column."""
    table = quote(LedgerEntry._meta.db_table)
    row = "(" + ", ".join(["%s"] * (1 + len(_SHARED_COLUMNS) + len(_LINE_COLUMNS))) + ")"
    return f"INSERT INTO {table} ({_entry_columns()}) VALUES " + ", ".join([row] * count)


@cache
def _entries_unnest_sql() -> str:
    """PostgreSQL: ``INSERT`` of a posting's entries in its ``WITH`` (as ``p``): the posting's id from ``p``,
    the values every entry shares once, each line's values from four arrays; all cast to their columns' types."""
    connection = connections[LedgerEntry.objects.db]
    meta = LedgerEntry._meta

    def db_type(name: str) -> str:
        # Text as text, not varchar(n): an explicit cast to varchar(n) would cut an over-long value, where the
        # INSERT into the column refuses it, as the ORM's would.
        field = meta.get_field(name)
        return "text" if isinstance(field, models.CharField | models.TextField) else str(field.db_type(connection))

    shared = ", ".join(f"CAST(%s AS {db_type(name)})" for name in _SHARED_COLUMNS)
    arrays = ", ".join(f"CAST(%s AS {db_type(name)}[])" for name in _LINE_COLUMNS)
    names = ", ".join(f"v{i}" for i in range(len(_LINE_COLUMNS)))
    return (
        f"INSERT INTO {quote(meta.db_table)} ({_entry_columns()}) SELECT p.{quote('id')}, {shared}, {names} "
        f"FROM p, unnest({arrays}) AS v({names})"
    )
