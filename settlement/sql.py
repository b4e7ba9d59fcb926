"""The settlement's hand-written SQL, in one place: the statements of the settle path (docs/performance.md,
"Settlement": 13 statements down to 7, 39 to 74 rounds/s on the same machine), each with an ORM twin that
``tests/settlement/test_rows.py`` holds it to.

* ``round_lock`` / ``round_lock_reading``: the round's row locked with its table and bank seat, and scalar
  subqueries read under the lock (the wagers, whether an idempotency key was used), in one round trip on
  PostgreSQL;
* ``ledger_insert``: a posting and its entries, in one statement on PostgreSQL.

The one vendor switch is ``_dialect()``: what differs between PostgreSQL and SQLite is said there and
nowhere else.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import connection, connections, models
from django.utils import timezone

from casino.models import Shift
from casino.rows import (
    columns_sql,
    concrete_names,
    insert_statement,
    inserted,
    inserted_from,
    instance_from_row,
    per_connection,
    quote,
    statements_in_one_trip,
)
from ledger.lines import Line
from ledger.models import LedgerEntry, Posting
from settlement.models import Adjustment, Wager
from tables.models import Round, Seat, Table


@dataclass(frozen=True)
class _Dialect:
    """What this module's SQL needs to know of the database."""

    json_rows: Callable[[str], str]  # a JSON array of the rows of ``row``, as text
    lock_of: str  # the clause that locks the round's row only (none where the database locks whole files)
    share: str  # the clause that locks a row against change but not against other readers that share it
    entries_in_the_posting_statement: bool  # a posting's entries from arrays in the posting's own INSERT


@cache
def _dialect_of(vendor: str, has_select_for_update_of: bool) -> _Dialect:
    if vendor == "postgresql":
        return _Dialect(
            json_rows=lambda row: f"json_agg(json_build_array({row}))::text",
            lock_of=" FOR UPDATE OF r" if has_select_for_update_of else "",
            share=" FOR SHARE",
            entries_in_the_posting_statement=True,
        )
    if vendor == "sqlite":
        return _Dialect(
            json_rows=lambda row: f"json_group_array(json_array({row}))",
            lock_of="",
            share="",
            entries_in_the_posting_statement=False,
        )
    raise ImproperlyConfigured(f"Tableside runs on PostgreSQL or SQLite, not {vendor}.")


def _dialect() -> _Dialect:
    """The one vendor switch of this module."""
    return per_connection(
        "_tableside_settlement_dialect",
        lambda wrapper: _dialect_of(wrapper.vendor, wrapper.features.has_select_for_update_of),
    )


# --- where a round stands: its shift, shared, and a void asked for -----------------------------------


@dataclass(frozen=True)
class RoundStanding:
    """What every write to a round asks first: its shift's name and close, and whether a void waits."""

    shift_name: str
    shift_closed_at: dt.datetime | None
    void_pending: bool


@cache
def _standing_sql(dialect: _Dialect) -> str:
    q = quote
    void_pending = (
        f"EXISTS (SELECT 1 FROM {q(Adjustment._meta.db_table)} a WHERE a.{q('round_id')} = %s "
        f"AND a.{q('kind')} = 'void' AND a.{q('status')} = 'pending')"
    )
    share = f"{dialect.share} OF s" if dialect.share else ""
    return (
        f"SELECT s.{q('name')}, s.{q('closed_at')}, {void_pending} FROM {q(Shift._meta.db_table)} s "
        f"WHERE s.{q('id')} = %s{share}"
    )


def round_standing(*, shift_id: int, round_id: int | None) -> RoundStanding:
    """Where a round stands, in one statement: its shift's name and close, the shift's row share-locked until
    the transaction ends (``FOR SHARE``), and whether a void of it waits for a supervisor (never, for a round
    about to be opened: ``round_id`` None).

    Every write to a round reads it so (``settlement.services.rounds.round_check``): round writes share the
    shift's lock and never wait for each other, while a shift close, which locks the row for update, waits for
    the writes under way to commit (then finds their rounds as they left them), and a write that comes during a
    close waits for it and reads the shift closed. The ORM has no ``FOR SHARE``; what this reads is
    ``Shift.objects.values_list("name", "closed_at").get(pk=shift_id)`` and
    ``Adjustment.objects.filter(round=round_id, kind="void", status="pending").exists()``
    (tests/settlement/test_rows.py).
    """
    with connection.cursor() as cursor:
        cursor.execute(_standing_sql(_dialect()), [round_id, shift_id])
        name, closed_at, void_pending = cursor.fetchone()
    if isinstance(closed_at, str):  # SQLite may hand back the text it stored, and stores UTC without a zone
        closed_at = dt.datetime.fromisoformat(closed_at)
    if closed_at is not None and timezone.is_naive(closed_at):
        closed_at = closed_at.replace(tzinfo=dt.UTC)
    return RoundStanding(shift_name=name, shift_closed_at=closed_at, void_pending=bool(void_pending))


# --- the round's lock -----------------------------------------------------------------------------

_ROUND_NAMES, _TABLE_NAMES, _SEAT_NAMES = concrete_names(Round), concrete_names(Table), concrete_names(Seat)


@cache
def _round_lock_sql(dialect: _Dialect) -> str:
    lock, q = dialect.lock_of, quote
    return (
        f"SELECT {columns_sql(Round, _ROUND_NAMES, 'r')}, {columns_sql(Table, _TABLE_NAMES, 't')}, "
        f"{columns_sql(Seat, _SEAT_NAMES, 's')} FROM {q(Round._meta.db_table)} r "
        f"JOIN {q(Table._meta.db_table)} t ON t.{q('id')} = r.{q('table_id')} "
        f"LEFT JOIN {q(Seat._meta.db_table)} s ON s.{q('id')} = r.{q('bank_seat_id')} "
        f"WHERE r.{q('id')} = %s{lock}"
    )


def round_lock(round: Round) -> Round:
    """The round's row, locked until the transaction ends, with its table and bank seat.

    What ``Round.objects.select_for_update(of=("self",)).select_related("table", "bank_seat")
    .get(pk=...)`` reads, in one hand-written statement (every service that changes a round
    starts here: its SQL is built once, not on every call).
    """
    return round_lock_reading(round)[0]


def round_lock_reading(round: Round, *then: tuple[str, Sequence[Any]]) -> tuple[Round, tuple[Any, ...]]:
    """``round_lock``, then the values of ``then``, (SQL, params) scalar subqueries read once the lock is held.

    They are read by a second statement, so under PostgreSQL's READ COMMITTED they see what a
    transaction that held the lock before us committed (a statement's snapshot is taken when it
    starts, and the lock may be waited for); both go in one round trip where the driver allows.
    Returns the round and those values.
    """
    lock_sql = _round_lock_sql(_dialect())
    after = "SELECT " + ", ".join(f"({sql})" for sql, _ in then)
    after_params = [param for _, values in then for param in values]
    values: tuple[Any, ...] = ()
    with connection.cursor() as cursor:
        if then and statements_in_one_trip():
            cursor.execute(f"{lock_sql}; {after}", [round.pk, *after_params])
            row = cursor.fetchone()
            cursor.nextset()
            values = tuple(cursor.fetchone())
        else:
            cursor.execute(lock_sql, [round.pk])
            row = cursor.fetchone()
            if then and row is not None:
                cursor.execute(after, after_params)
                values = tuple(cursor.fetchone())
    if row is None:
        raise Round.DoesNotExist(f"Round id {round.pk} does not exist.")
    ends = list(itertools.accumulate(len(names) for names in (_ROUND_NAMES, _TABLE_NAMES)))
    locked = instance_from_row(Round, _ROUND_NAMES, row[: ends[0]])
    Round.table.field.set_cached_value(locked, instance_from_row(Table, _TABLE_NAMES, row[ends[0] : ends[1]]))
    seat = instance_from_row(Seat, _SEAT_NAMES, row[ends[1] :]) if locked.bank_seat_id is not None else None
    Round.bank_seat.field.set_cached_value(locked, seat)
    return locked, values


# --- read under the lock: the wagers, and whether a key was used -----------------------------------


def stakes_sql(round_: Round) -> tuple[str, list[Any]]:
    """A scalar subquery: the round's wagers as JSON, [[seat number, seat id, cents], ...].

    The seat's number is a correlated look-up by primary key rather than a join: on PostgreSQL
    that plans in a fraction of the time for the six or seven rows a round has.
    """
    q = quote
    number = f"(SELECT s.{q('number')} FROM {q(Seat._meta.db_table)} s WHERE s.{q('id')} = w.{q('seat_id')})"
    row = f"{number}, w.{q('seat_id')}, w.{q('amount_cents')}"
    rows = _dialect().json_rows(row)
    return f"SELECT {rows} FROM {q(Wager._meta.db_table)} w WHERE w.{q('round_id')} = %s", [round_.pk]


def key_used_sql(key: str) -> tuple[str, list[Any]]:
    """A scalar subquery: whether a posting already holds this idempotency key."""
    q = quote
    return f"SELECT COUNT(*) FROM {q(Posting._meta.db_table)} WHERE {q('idempotency_key')} = %s", [key]


def stakes_read(round_: Round, stakes: str | None) -> tuple[dict[int, int], dict[int, int]]:
    """The round's wagers by seat number, and the seat ids of its players and banker, from ``stakes_sql``."""
    wagers: dict[int, int] = {}
    seat_ids: dict[int, int] = {}
    for number, seat_id, amount in json.loads(stakes) if stakes else ():
        wagers[number] = amount
        seat_ids[number] = seat_id
    if round_.bank_seat is not None:
        seat_ids[round_.bank_seat.number] = round_.bank_seat.pk
    return wagers, seat_ids


# --- a posting and its entries --------------------------------------------------------------------


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
        if lines and _dialect().entries_in_the_posting_statement:
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
_SHARED_COLUMNS = ("round", "actor", "created_at", "idempotency_key")
_LINE_COLUMNS = ("account", "seat", "amount_cents", "kind")


def _entry_columns() -> str:
    q = quote
    names = ("posting", *_SHARED_COLUMNS, *_LINE_COLUMNS)
    return ", ".join(q(LedgerEntry._meta.get_field(name).column) for name in names)


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
    q = quote
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
        f"INSERT INTO {q(meta.db_table)} ({_entry_columns()}) SELECT p.{q('id')}, {shared}, {names} "
        f"FROM p, unnest({arrays}) AS v({names})"
    )
