"""How the tablet learns that another device changed its table: a short marker of what it shows, polled every few
seconds (``dealer.views.tablet_version_view``).

The marker is kept in the cache under the table's generation (``tables.live``), which every write the tablet shows
raises once it commits; and, for a minute, that the session the poll comes with (its cookie's key, hashed) was
signed in as a user who may see the table, under the generation of who may (``tablet_staff_key``), which a change of
the table's dealer raises. A poll while nothing changed is two cache round trips (the generations; the marker and the
leave) and no query: not even the session is read. A poll right after a write (the tablet's own, mostly) finds the
leave and computes the marker only, in one statement (``dealer.sql``): the session, the user and their roles are not
read again. A change of the table's dealer is felt at once; a role taken away or a sign-out within
``ALLOWED_SECONDS`` by the poll (every page checks at once), and all the poll answers is the marker.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.http import Http404

from casino.live import cache_seconds, floor_key, generations
from dealer.sql import SETUP_NAMES, tablet_marker_read
from tables.live import tablet_key, tablet_staff_key
from tables.models import Table

ALLOWED_SECONDS = 60


def tablet_version(table: Table) -> str:
    """A short marker of what the tablet shows of ``table``: its set-up (status, limits, rule set, dealer), its
    newest round's state, wagers, dice, hands and placements, and its requests and their decisions, and its rated
    seats (a player seated, moved, on a break or gone, from another device, redraws the strip of rated seats).
    Another device's change (a wager, a settle, a void approved from the pit, new limits) changes it; the tablet
    polls it and draws itself again (``dealer.views.tablet_version_view``). The set-up is ``table``'s as the page
    drew it; the rest is read in one statement (``dealer.sql``), which the page does before it reads the round, so
    that a change made while it draws makes the next poll differ."""
    read = tablet_marker_read(table.pk)
    if read is None:
        raise Table.DoesNotExist(f"table {table.pk} is gone")
    return _marker(read.round, _setup(table), read.rated)


def tablet_version_of(table_id: int) -> str | None:
    """``tablet_version`` of the table ``table_id`` as it stands in the database, set-up included (None: no such
    table): what the poll answers."""
    read = tablet_marker_read(table_id)
    return None if read is None else _marker(read.round, read.setup, read.rated)


def _setup(table: Table) -> tuple[Any, ...]:
    return tuple(getattr(table, name) for name in SETUP_NAMES)


def _marker(round_: Any, setup: tuple[Any, ...], rated: dict[str, Any]) -> str:
    text = json.dumps([round_, setup, rated], default=str, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _keys(session_key: str, table_id: int) -> tuple[str, str] | None:
    """The cache keys of the table's marker, at the table's current generation, and of the session being allowed to
    see it, at the generation of who may (its dealer) (None: no session, or the cache cannot answer). Both
    generations are read in one round trip."""
    if not session_key:
        return None
    current = generations(tablet_key(table_id), tablet_staff_key(table_id))
    if current is None:
        return None
    session = hashlib.sha256(session_key.encode()).hexdigest()[:32]
    return (
        floor_key("tables", "tablet-v", table_id, current[0]),
        floor_key("tables", "tablet-ok", table_id, current[1], session),
    )


@dataclass(frozen=True)
class TabletPoll:
    """What the cache knows of a poll: the table's marker (None: not kept at this generation, compute it) and
    whether the session was allowed to see the table at the generation of who may (False: check the user)."""

    version: str | None
    allowed: bool


def _leave_holds(checked_at: Any) -> bool:
    """Whether a leave kept at ``checked_at`` (the time of its check) still holds: for ``ALLOWED_SECONDS`` from it,
    by the clock of the process reading it, whatever the cache's own expiry (which only clears it away)."""
    if isinstance(checked_at, bool) or not isinstance(checked_at, (int, float)):
        return False
    return 0 <= time.time() - checked_at < ALLOWED_SECONDS


def tablet_version_cached(session_key: str, table_id: int) -> TabletPoll:
    """The table's marker and the session's leave to see it, as far as the cache has them: a marker only with the
    leave (the caller checks the user when there is none, and computes the marker when there is none)."""
    keys = _keys(session_key, table_id)
    if keys is None:
        return TabletPoll(None, allowed=False)
    found = cache.get_many(list(keys))  # none while Redis is backed off (casino.redis_cache)
    allowed = _leave_holds(found.get(keys[1]))
    version = found.get(keys[0])
    return TabletPoll(version if allowed and isinstance(version, str) else None, allowed=allowed)


def tablet_version_keep(session_key: str, table_id: int, *, checked: bool) -> str:
    """The marker of table ``table_id``, computed and kept (a 404 when there is no such table); with the leave to
    see the table when the caller has ``checked`` it just now (a leave found kept is not kept longer: it ends
    ``ALLOWED_SECONDS`` after its check). The generations are read before the rows: a write committing meanwhile
    raises the table's, so this marker is never taken for the newer one; a new dealer raises the other, so this
    leave is never taken for the new one's."""
    keys = _keys(session_key, table_id)
    version = tablet_version_of(table_id)
    if version is None:
        raise Http404("No table with this number.")
    if keys is not None:
        cache.set(keys[0], version, cache_seconds())
        if checked:
            cache.set(keys[1], time.time(), min(ALLOWED_SECONDS, cache_seconds()))  # the check's time
    return version
