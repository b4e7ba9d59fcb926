"""How the tablet learns, from the cache alone, that its table changed (``casino.live``): every write the tablet
shows (the table's set-up and status, a round's moves, a wager, a request and its decision, a rated player seated,
moved, on a break or gone) calls ``table_changed`` inside its transaction; the tablet's poll reads the table's
generation and the marker computed for it (``dealer.tablet_version``), with no query while nothing changed."""

from __future__ import annotations

from casino.live import changed_on_commit, floor_key


def tablet_key(table_id: int) -> str:
    """The cache key of the table's generation."""
    return floor_key("tables", "tablet", table_id)


def table_changed(table_id: int) -> None:
    """Raise the table's generation once the caller's transaction commits: every open tablet draws itself again."""
    changed_on_commit(tablet_key(table_id))
