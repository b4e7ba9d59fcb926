"""How a room display learns that its tournament changed: the tournament's version, so that every change
reaches every open screen within a second.

Every write a screen shows (a clock change, an entry, a bust, a seat move, the prize pool) calls
``tournament_changed`` inside its transaction: ``Tournament.version`` goes up by one on the locked row, and once the
transaction commits the new number is written to the cache (``poker_room:v:<id>``). A display polls with the version
it shows; ``tournament_version`` answers from the cache without touching the database, so hundreds of screens polling
several times a second cost one cache read each. A change rolled back never reaches the cache; a time-run level
change is not a change at all (every screen works it out from the stored instant, ``poker_room.pure.clock``).

Where the cache lives decides how long a cached version is believed. Redis (``REDIS_URL``) is one cache for every
server process: the writer's commit updates it for all, and an entry is kept ``SHARED_SECONDS`` so that one lost
write (Redis down a moment) heals by itself. The embedded default's local-memory cache belongs to one process: a
commit in another worker process (``make serve`` runs several) never reaches it, so there an entry is believed for
``LOCAL_SECONDS`` only and a process reads the number from the database at most twice a second per tournament,
however many screens poll it. A cache that cannot answer is a miss (settings, "When Redis is down"): the database
answers.
"""

from __future__ import annotations

from django.core.cache import cache
from django.db import transaction
from django.db.models import F

from casino.live import LOCAL_SECONDS, SHARED_SECONDS
from casino.live import cache_seconds as _cache_seconds
from casino.live import floor_key as _floor_key
from poker_room.tournaments.models import Tournament

__all__ = ["LOCAL_SECONDS", "SHARED_SECONDS", "floor_key", "tournament_changed", "tournament_version", "version_key"]


def floor_key(*parts: object) -> str:
    """A cache key of this floor's poker room (``casino.live.floor_key``)."""
    return _floor_key("poker_room", *parts)


def version_key(tournament_id: int) -> str:
    return floor_key("v", tournament_id)


def _publish(tournament_id: int, version: int) -> None:
    """Write ``version`` unless a later one is there already (two commits' callbacks may run out of order)."""
    key = version_key(tournament_id)
    cached = cache.get(key)
    if isinstance(cached, int) and cached >= version:
        return
    cache.set(key, version, _cache_seconds())


def tournament_changed(tournament: Tournament) -> int:
    """Raise the tournament's version by one, inside the caller's transaction, on its locked row; return it.

    The new number is kept on ``tournament`` and reaches the cache when the transaction commits (never if it rolls
    back). Two queries: the UPDATE, and reading the number back (SQLite has no row lock, so the number on the
    instance is not trusted).
    """
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    version: int = Tournament.objects.filter(pk=tournament.pk).values_list("version", flat=True).get()
    tournament.version = version
    tournament_id = tournament.pk
    transaction.on_commit(lambda: _publish(tournament_id, version))
    return version


def tournament_version(tournament_id: int) -> int | None:
    """The tournament's version: from the cache when it has it (no query), else from the database (then cached).

    ``None``: there is no such tournament. Filling the cache uses ``add``: a commit's own write, which may land
    between this read and this fill, is never overwritten by the older number read here.
    """
    key = version_key(tournament_id)
    cached = cache.get(key)
    if isinstance(cached, int):
        return cached
    version: int | None = Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()
    if version is not None:
        cache.add(key, version, _cache_seconds())
    return version
