"""The rounds' hand-written SQL, in one place: the statements of the settle path (docs/performance.md,
"Settlement": 13 statements down to 7, 39 to 74 rounds/s on the same machine), each with an ORM twin that
``tests/rounds/test_sql.py`` holds it to.

* ``round_standing``: where a round stands (its shift, shared, and a void asked for), in one statement;
* ``round_lock`` / ``round_lock_reading``: the round's row locked with its table and bank seat, where it stands,
  and scalar subqueries read under the lock (the wagers, whether an idempotency key was used:
  ``ledger.sql.key_used_sql``), in one round trip on PostgreSQL;
* ``wagers_in_seat_order``: the round's wagers with their seats' numbers, what a step of play answers (the ORM took
  longer to build that statement than the database to answer it: docs/performance.md, "A round over HTTP");
  ``wagers_of_locked`` reads them once for a write holding the round's lock, which checks them and answers them.

The one vendor switch is ``_dialect()``: what differs between PostgreSQL and SQLite is said there and
nowhere else.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.utils import timezone

from casino.models import Shift
from casino.rows import columns_sql, concrete_names, instance_from_row, per_connection, quote, statements_in_one_trip
from rounds.models import Adjustment, Round, Wager
from tables.models import Seat, Table


@dataclass(frozen=True)
class _Dialect:
    """What this module's SQL needs to know of the database."""

    json_rows: Callable[[str], str]  # a JSON array of the rows of ``row``, as text
    lock_of: str  # the clause that locks the round's row only (none where the database locks whole files)
    share: str  # the clause that locks a row against change but not against other readers that share it


@cache
def _dialect_of(vendor: str, has_select_for_update_of: bool) -> _Dialect:
    if vendor == "postgresql":
        return _Dialect(
            json_rows=lambda row: f"json_agg(json_build_array({row}))::text",
            lock_of=" FOR UPDATE OF r" if has_select_for_update_of else "",
            share=" FOR SHARE",
        )
    if vendor == "sqlite":
        return _Dialect(
            json_rows=lambda row: f"json_group_array(json_array({row}))",
            lock_of="",
            share="",
        )
    raise ImproperlyConfigured(f"Tableside runs on PostgreSQL or SQLite, not {vendor}.")


def _dialect() -> _Dialect:
    """The one vendor switch of this module."""
    return per_connection(
        "_tableside_rounds_dialect",
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
def _standing_sql(dialect: _Dialect, *, of_round: bool) -> str:
    """Params: the round's id (for the void asked for), then the shift's id, or with ``of_round`` the round's id
    again (its shift looked up by the round)."""
    q = quote
    void_pending = (
        f"EXISTS (SELECT 1 FROM {q(Adjustment._meta.db_table)} a WHERE a.{q('round_id')} = %s "
        f"AND a.{q('kind')} = 'void' AND a.{q('status')} = 'pending')"
    )
    shift = f"(SELECT r.{q('shift_id')} FROM {q(Round._meta.db_table)} r WHERE r.{q('id')} = %s)" if of_round else "%s"
    share = f"{dialect.share} OF s" if dialect.share else ""
    return (
        f"SELECT s.{q('name')}, s.{q('closed_at')}, {void_pending} FROM {q(Shift._meta.db_table)} s "
        f"WHERE s.{q('id')} = {shift}{share}"
    )


def _standing_of(row: Sequence[Any]) -> RoundStanding:
    name, closed_at, void_pending = row
    if isinstance(closed_at, str):  # SQLite may hand back the text it stored, and stores UTC without a zone
        closed_at = dt.datetime.fromisoformat(closed_at)
    if closed_at is not None and timezone.is_naive(closed_at):
        closed_at = closed_at.replace(tzinfo=dt.UTC)
    return RoundStanding(shift_name=name, shift_closed_at=closed_at, void_pending=bool(void_pending))


def round_standing(*, shift_id: int, round_id: int | None) -> RoundStanding:
    """Where a round stands, in one statement: its shift's name and close, the shift's row share-locked until
    the transaction ends (``FOR SHARE``), and whether a void of it waits for a supervisor (never, for a round
    about to be opened: ``round_id`` None).

    Every write to a round reads it so, in the round trip that locks the round (``round_lock``), and
    ``rounds.services.transitions.round_check`` refuses by it: round writes share the shift's lock and never wait
    for each other, while a shift close, which locks the row for update, waits for the writes under way to commit
    (then finds their rounds as they left them), and a write that comes during a close waits for it and reads the
    shift closed. The ORM has no ``FOR SHARE``; what this reads is
    ``Shift.objects.values_list("name", "closed_at").get(pk=shift_id)`` and
    ``Adjustment.objects.filter(round=round_id, kind="void", status="pending").exists()``
    (tests/rounds/test_sql.py).
    """
    with connection.cursor() as cursor:
        cursor.execute(_standing_sql(_dialect(), of_round=False), [round_id, shift_id])
        return _standing_of(cursor.fetchone())


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


def round_lock(round: Round) -> tuple[Round, RoundStanding]:
    """The round's row, locked until the transaction ends, with its table and bank seat; and where it stands
    (``round_standing``: its shift share-locked, a void asked for), read once the lock is held.

    What ``Round.objects.select_for_update(of=("self",)).select_related("table", "bank_seat")
    .get(pk=...)`` reads, in one hand-written statement (every service that changes a round
    starts here: its SQL is built once, not on every call), and the standing's statement, in one round trip on
    PostgreSQL.
    """
    locked, standing, _values = round_lock_reading(round)
    return locked, standing


def round_lock_reading(round: Round, *then: tuple[str, Sequence[Any]]) -> tuple[Round, RoundStanding, tuple[Any, ...]]:
    """``round_lock``, then the values of ``then``, (SQL, params) scalar subqueries read once the lock is held.

    The standing and ``then`` are read by statements after the lock's, so under PostgreSQL's READ COMMITTED they
    see what a transaction that held the lock before us committed (a statement's snapshot is taken when it
    starts, and the lock may be waited for); all go in one round trip where the driver allows.
    Returns the round, its standing and those values.
    """
    dialect = _dialect()
    lock_sql, standing_sql = _round_lock_sql(dialect), _standing_sql(dialect, of_round=True)
    after = "SELECT " + ", ".join(f"({sql})" for sql, _ in then)
    after_params = [param for _, values in then for param in values]
    values: tuple[Any, ...] = ()
    standing: RoundStanding | None = None
    with connection.cursor() as cursor:
        if statements_in_one_trip():
            sql = f"{lock_sql}; {standing_sql}" + (f"; {after}" if then else "")
            cursor.execute(sql, [round.pk, round.pk, round.pk, *after_params])
            row = cursor.fetchone()
            cursor.nextset()
            standing_row = cursor.fetchone()
            standing = _standing_of(standing_row) if standing_row is not None else None
            if then:
                cursor.nextset()
                values = tuple(cursor.fetchone())
        else:
            cursor.execute(lock_sql, [round.pk])
            row = cursor.fetchone()
            if row is not None and then:
                cursor.execute(after, after_params)
                values = tuple(cursor.fetchone())
    if row is None:
        raise Round.DoesNotExist(f"Round id {round.pk} does not exist.")
    ends = list(itertools.accumulate(len(names) for names in (_ROUND_NAMES, _TABLE_NAMES)))
    locked = instance_from_row(Round, _ROUND_NAMES, row[: ends[0]])
    Round.table.field.set_cached_value(locked, instance_from_row(Table, _TABLE_NAMES, row[ends[0] : ends[1]]))
    seat = instance_from_row(Seat, _SEAT_NAMES, row[ends[1] :]) if locked.bank_seat_id is not None else None
    Round.bank_seat.field.set_cached_value(locked, seat)
    if standing is None:  # a statement of its own, the shift known from the row
        standing = round_standing(shift_id=locked.shift_id, round_id=locked.pk)
    return locked, standing, values


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


# --- the wagers in seat order: what a write checks and a step of play answers ---------------------

_WAGER_NAMES = concrete_names(Wager)


@cache
def _wagers_sql(vendor: str) -> str:
    """Built once a database vendor (the names quoted as its connection quotes them)."""
    q = quote
    return (
        f"SELECT {columns_sql(Wager, _WAGER_NAMES, 'w')}, s.{q('number')} FROM {q(Wager._meta.db_table)} w "
        f"JOIN {q(Seat._meta.db_table)} s ON s.{q('id')} = w.{q('seat_id')} "
        f"WHERE w.{q('round_id')} = %s ORDER BY s.{q('number')}"
    )


def wagers_in_seat_order(round_: Round) -> list[Wager]:
    """The round's wagers in seat order, each with its seat (``wager.seat``: the seat's id, table and number; its other
    fields load if read), in one statement."""
    with connection.cursor() as cursor:
        cursor.execute(_wagers_sql(connection.vendor), [round_.pk])
        rows = cursor.fetchall()
    wagers = []
    for *values, number in rows:
        wager = instance_from_row(Wager, _WAGER_NAMES, values)
        wager.seat = Seat.from_db(
            connection.alias, ["id", "table_id", "number"], [wager.seat_id, round_.table_id, number]
        )
        wagers.append(wager)
    return wagers


WAGERS_KEPT = "wagers_in_seat_order"


def wagers_of_locked(locked: Round) -> list[Wager]:
    """``wagers_in_seat_order`` of a round its caller holds locked (the instance ``round_lock`` made), read on first
    asking and kept on that instance: the write checks them (a seat taken, the seats in play) and its step answers
    them, from one statement. Every wager is placed under its round's lock, so the list holds until the caller's
    transaction ends; a wager the caller places itself is added with ``wager_kept``. (The settlement's preview, which
    locks nothing, reads an instance of its own once, for that one answer.)"""
    kept: list[Wager] | None = locked.__dict__.get(WAGERS_KEPT)
    if kept is None:
        kept = locked.__dict__[WAGERS_KEPT] = wagers_in_seat_order(locked)
    return kept


def wager_kept(locked: Round, wager: Wager) -> None:
    """Add the wager just placed on ``locked`` (its seat read) to the wagers kept on it, in seat order."""
    kept = wagers_of_locked(locked)  # read now, if not before: then it holds the wager already
    if all(placed.pk != wager.pk for placed in kept):
        kept.append(wager)
        kept.sort(key=lambda placed: placed.seat.number)
