"""The tablet's hand-written SQL, in one place: what its poll reads after a change, in one statement.

Every step of play changes the table, so the tablet's next poll misses the cache and reads its marker again
(``dealer.tablet_version``): on a floor, as many marker reads as writes. Through the ORM that was three queries (the
table, its newest round with five aggregates, the rated seats' aggregate), and building them cost the app server
more CPU than any write's statements (docs/performance.md, "The tablet's poll after a write in one statement").
``tablet_marker_read`` reads the same values in one statement built once a database vendor;
``tests/dealer/test_sql.py`` holds it to the ORM's reads, value for value.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connection

from casino.rows import columns_sql, instance_from_row, quote
from players.models import RatingPause, RatingSeat
from rounds.models import Adjustment, Round, Wager
from tables.models import Table

SETUP_NAMES = ("status", "min_wager_cents", "max_wager_cents", "rule_set_id", "dealer_id")
ROUND_NAMES = ("id", "state", "state_changed_at", "dice", "hands", "placements")  # in the model's field order


@dataclass(frozen=True)
class TabletMarkerRead:
    """What the tablet's marker is made of: the table's set-up, its newest round (None: no round yet) with its
    wagers' count and sum and its requests' count, pending count and last decision, and its rated seats."""

    setup: tuple[Any, ...]
    round: tuple[Any, ...] | None
    rated: dict[str, Any]


@cache
def _marker_sql(vendor: str) -> str:
    """Built once a database vendor (the names quoted as its connection quotes them). Each aggregate of the round is
    grouped by the round, as the ORM's subqueries are: a round with no wager has no count (NULL), not 0."""
    q = quote
    wagers, adjustments = q(Wager._meta.db_table), q(Adjustment._meta.db_table)

    def per_round(table: str, value: str) -> str:
        return f"(SELECT {value} FROM {table} x WHERE x.{q('round_id')} = r.{q('id')} GROUP BY x.{q('round_id')})"

    newest = (
        f"SELECT n.{q('id')} FROM {q(Round._meta.db_table)} n WHERE n.{q('table_id')} = t.{q('id')} "
        f"ORDER BY n.{q('number')} DESC LIMIT 1"
    )
    rated = (
        f"SELECT MAX(s.{q('id')}) AS last_seat, "
        f"COUNT(CASE WHEN s.{q('ended_at')} IS NULL THEN s.{q('id')} END) AS seated, "
        f"MAX(p.{q('id')}) AS breaks, "
        f"COUNT(CASE WHEN s.{q('ended_at')} IS NULL AND p.{q('ended_at')} IS NULL THEN p.{q('id')} END) AS on_break "
        f"FROM {q(RatingSeat._meta.db_table)} s "
        f"LEFT JOIN {q(RatingPause._meta.db_table)} p ON p.{q('session_id')} = s.{q('session_id')} "
        f"WHERE s.{q('table_id')} = %s"
    )
    aggregates = [
        per_round(wagers, f"COUNT(x.{q('id')})"),
        per_round(wagers, f"SUM(x.{q('amount_cents')})"),
        per_round(adjustments, f"COUNT(x.{q('id')})"),
        per_round(adjustments, f"COUNT(CASE WHEN x.{q('status')} = %s THEN x.{q('id')} END)"),
        per_round(adjustments, f"MAX(x.{q('decided_at')})"),
    ]
    return (
        f"SELECT {columns_sql(Table, SETUP_NAMES, 't')}, {columns_sql(Round, ROUND_NAMES, 'r')}, "
        f"{', '.join(aggregates)}, rated.last_seat, rated.seated, rated.breaks, rated.on_break "
        f"FROM {q(Table._meta.db_table)} t "
        f"LEFT JOIN {q(Round._meta.db_table)} r ON r.{q('id')} = ({newest}) "
        f"CROSS JOIN ({rated}) rated "
        f"WHERE t.{q('id')} = %s"
    )


def tablet_marker_read(table_id: int) -> TabletMarkerRead | None:
    """What the marker of table ``table_id`` is made of, in one statement (None: no such table)."""
    with connection.cursor() as cursor:
        cursor.execute(_marker_sql(connection.vendor), [Adjustment.Status.PENDING.value, table_id, table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    setup, values = tuple(row[:5]), row[5:]
    newest = values[:6]
    wager_count, wager_cents, asked, waiting, decided, last_seat, seated, breaks, on_break = values[6:]
    round_: tuple[Any, ...] | None = None
    if newest[0] is not None:
        read = instance_from_row(Round, ROUND_NAMES, newest)
        if decided is not None:  # as its field reads it (SQLite answers text)
            decided = instance_from_row(Adjustment, ("decided_at",), [decided]).decided_at
        round_ = (
            read.pk, read.state, read.state_changed_at, read.dice, read.hands, read.placements,
            wager_count, None if wager_cents is None else int(wager_cents), asked, waiting, decided,
        )  # fmt: skip
    rated = {"last": last_seat, "seated": seated, "breaks": breaks, "on_break": on_break}
    return TabletMarkerRead(setup=setup, round=round_, rated=rated)
