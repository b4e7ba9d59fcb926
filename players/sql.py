"""The ratings' hand-written SQL on the settle path, in one place (docs/performance.md, "Settlement": through the
ORM the rating's three statements cost a settle more CPU than the whole settle had, 2.7 ms; written out they are
three cheap statements, in one round trip on PostgreSQL). Each has its ORM twin, which the correction path uses and
``tests/settlement/test_rated_play.py`` holds this to:

* the round's ``HoldRound`` row (``row_insert`` would write the same);
* the table's hold window rewritten from its last rounds (``players.rating.hold_window_update``);
* the rating sessions playing at the table's seats now (``players.rating.sessions_playing_at``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from casino.rows import insert_statement, quote, statements_in_one_trip
from players.models import HoldRound, RatingSeat, RatingSession, TableHold

_SUMS = ("action_cents", "house_win_cents", "theo_millicents", "variance_cents2")


def _window_sql() -> str:
    return _statements(connection.vendor)[0]


def _seats_sql() -> str:
    return _statements(connection.vendor)[1]


@cache
def _statements(vendor: str) -> tuple[str, str]:
    """The window's and the seats' statements for this database, written once (the names quoted as it quotes them:
    both vendors quote alike)."""
    return _window_sql_text(), _seats_sql_text()


def _window_sql_text() -> str:
    hold, window = quote(HoldRound._meta.db_table), quote(TableHold._meta.db_table)
    table_id = quote("table_id")
    sums = ", ".join(f"COALESCE(SUM(w.{quote(name)}), 0)" for name in _SUMS)
    picked = ", ".join(quote(name) for name in _SUMS)
    names = ", ".join(quote(name) for name in ("table_id", "rounds", *_SUMS, "updated_at"))
    updates = ", ".join(f"{quote(name)} = excluded.{quote(name)}" for name in ("rounds", *_SUMS, "updated_at"))
    # ``WHERE true``: SQLite reads an INSERT ... SELECT ... ON CONFLICT only with a WHERE before the ON CONFLICT.
    return (
        f"INSERT INTO {window} ({names}) "
        f"SELECT %s, COUNT(*), {sums}, %s FROM (SELECT {picked} FROM {hold} WHERE {table_id} = %s "
        f"ORDER BY {quote('id')} DESC LIMIT %s) w WHERE true "
        f"ON CONFLICT ({table_id}) DO UPDATE SET {updates}"
    )


def _seats_sql_text() -> str:
    seat, session = quote(RatingSeat._meta.db_table), quote(RatingSession._meta.db_table)
    return (
        f"SELECT s.{quote('seat_number')}, s.{quote('session_id')} FROM {seat} s "
        f"JOIN {session} r ON r.{quote('id')} = s.{quote('session_id')} "
        f"WHERE s.{quote('table_id')} = %s AND s.{quote('ended_at')} IS NULL AND r.{quote('status')} = %s"
    )


def hold_settled(hold: HoldRound) -> dict[int, int]:
    """INSERT the settled round's hold row, rewrite its table's hold window, and read which rating session plays at
    which seat of the table now (``{seat number: session id}``): three statements, one round trip where the driver
    allows."""
    table_id = hold.table_id
    insert_sql, insert_values = insert_statement(hold)
    window_values: list[Any] = [
        table_id,
        connection.ops.adapt_datetimefield_value(timezone.now()),
        table_id,
        settings.TABLESIDE_HOLD_WINDOW_ROUNDS,
    ]
    seats_values: list[Any] = [table_id, RatingSession.Status.PLAYING.value]
    with connection.cursor() as cursor:
        if statements_in_one_trip():
            cursor.execute(
                f"{insert_sql}; {_window_sql()}; {_seats_sql()}", [*insert_values, *window_values, *seats_values]
            )
            cursor.nextset()
            cursor.nextset()
        else:
            cursor.execute(insert_sql, insert_values)
            cursor.execute(_window_sql(), window_values)
            cursor.execute(_seats_sql(), seats_values)
        return {seat: session for seat, session in cursor.fetchall()}
