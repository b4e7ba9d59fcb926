"""How the tablet learns, from the cache alone, that its table changed (``casino.live``): every write the tablet
shows (the table's set-up and status, a round's moves, a wager, a request and its decision, a rated player seated,
moved, on a break or gone) calls ``table_changed`` inside its transaction; the tablet's poll reads the table's
generation and the marker computed for it (``dealer.tablet_version``), with no query while nothing changed."""

from __future__ import annotations

from casino.live import changed_on_commit, changed_since, floor_key, log_position

FLOOR_LOG = "tables"


def tablet_key(table_id: int) -> str:
    """The cache key of the table's generation."""
    return floor_key("tables", "tablet", table_id)


def tablet_staff_key(table_id: int) -> str:
    """The cache key of the generation of who may see the table (its dealer): raised when its dealer changes."""
    return floor_key("tables", "tablet-staff", table_id)


def table_staff_changed(table_id: int) -> None:
    """Raise the generation of who may see the table once the caller's transaction commits (a new dealer: every
    session's leave to poll the table is checked again)."""
    changed_on_commit(tablet_staff_key(table_id))


def table_changed(table_id: int) -> None:
    """Raise the table's generation once the caller's transaction commits: every open tablet draws itself again,
    and the pit's dashboards redraw its row at their next refresh (``tables_changed_since``)."""
    changed_on_commit(tablet_key(table_id), log=FLOOR_LOG, member=table_id)


def tables_position() -> str | None:
    """Where the floor's log of changed tables stands now (None: no shared cache, a dashboard redraws everything)."""
    return log_position(FLOOR_LOG)


def tables_changed_since(position: str) -> tuple[str, set[int]] | None:
    """The tables changed after ``position`` and the position now; None: redraw everything."""
    return changed_since(FLOOR_LOG, position)
