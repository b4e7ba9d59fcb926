"""How a screen that polls learns, from the cache alone, that what it shows changed: a generation number per thing
shown, raised once a write to it commits, and a log of what changed on the floor.

A write calls ``changed_on_commit(key)`` inside its transaction; once it commits, the generation under ``key`` goes
up (never if it rolls back). A poll reads the generation, then what it computed for that generation; both are cache
reads, so while nothing changed a poll costs no query. A poll that finds no answer for the current generation
computes it from the database and keeps it under that generation: a write committing meanwhile raises the
generation, so an answer computed from the rows before it is never taken for the new one. ``changed_on_commit``
with a ``log`` also notes the thing in a floor-wide log (Redis only), so a screen showing many things asks which
changed since it last drew (``changed_since``) and redraws those alone.

Where the cache lives decides how long an answer is believed. Redis (``REDIS_URL``) is one cache for every server
process: the writer's commit reaches every reader, and an entry is kept ``SHARED_SECONDS`` so that one lost write
(Redis down a moment) heals by itself. The embedded default's local-memory cache belongs to one process: a commit in
another worker process (``make serve`` runs several) never reaches it, so there an entry is believed for
``LOCAL_SECONDS`` only, and there is no floor log (a screen redraws everything). Redis that fails or does not answer
within its timeout is left alone by this process for a while (``casino.redis_cache``, shared with every cache call):
meanwhile every poll reads the database, as it would on a miss, and no write or page waits for Redis more than once.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from casino.redis_cache import UNREACHABLE, backing_off, redis_failed

LOCAL_SECONDS = 0.5  # a process-local cache cannot hear another process's commit: still within the second
SHARED_SECONDS = 300  # a shared cache hears every commit; the timeout only heals a write lost while it was down


def floor_key(*parts: object) -> str:
    """A cache key of this floor's: the database's name in it, so two floors (or two test databases) sharing one
    Redis never read each other's entries for things with the same id."""
    return ":".join((str(settings.DATABASES["default"]["NAME"]), *(str(part) for part in parts)))


def cache_seconds() -> float:
    backend: str = settings.CACHES["default"]["BACKEND"]
    return LOCAL_SECONDS if backend.endswith("LocMemCache") else SHARED_SECONDS


def _shared() -> bool:
    backend: str = settings.CACHES["default"]["BACKEND"]
    return backend.startswith("django_redis")


def _client() -> Any:
    """The Redis client behind the cache, or None: not Redis, or Redis failed moments ago (backing off)."""
    if not _shared() or backing_off():
        return None
    from django_redis import get_redis_connection

    return get_redis_connection("default")


def _redis(work: Any) -> Any:
    """``work(pipeline)`` in one round trip to Redis: its results, or None (no Redis, backing off, or it failed)."""
    client = _client()
    if client is None:
        return None
    try:
        pipeline = client.pipeline(transaction=False)
        work(pipeline)
        return pipeline.execute()
    except Exception as failure:  # noqa: BLE001 - Redis down, slow or erring: the database answers
        if isinstance(failure, UNREACHABLE):  # and a Redis that cannot be reached is left alone a while
            redis_failed()
        return None


def _raise(key: str) -> None:
    if _shared():
        _redis(lambda p: (p.incr(key), p.expire(key, SHARED_SECONDS)))
        return
    try:
        cache.incr(key)
    except ValueError:  # not there (never read, expired, or the cache was emptied): a number no reader holds
        cache.set(key, time.time_ns(), cache_seconds())


def changed_on_commit(key: str, *, log: str = "", member: int = 0) -> None:
    """Raise the generation under ``key`` once the caller's transaction commits; with a ``log``, also note there that
    ``member`` (a table's id) changed (``_note``). With Redis the raise and the log's new generation go in one round
    trip, the member's note in a second."""
    if log and _shared():
        transaction.on_commit(lambda: _note(log, member, also=key), robust=True)
        return
    transaction.on_commit(lambda: _raise(key), robust=True)


def generation(key: str) -> Any:
    """The generation under ``key``, made if there is none (None: the cache cannot answer; read the database)."""
    found = generations(key)
    return None if found is None else found[0]


def generations(*keys: str) -> list[Any] | None:
    """The generations under ``keys``, each made if there is none, in one round trip to Redis (None: the cache
    cannot answer; read the database)."""
    if _shared():

        def read(pipeline: Any) -> None:
            for key in keys:
                pipeline.set(key, time.time_ns(), ex=SHARED_SECONDS, nx=True)
                pipeline.get(key)

        answer = _redis(read)
        if answer is None or any(value is None for value in answer[1::2]):
            return None
        return [int(value) for value in answer[1::2]]
    found = []
    for key in keys:
        current = cache.get(key)
        if current is None:
            cache.add(key, time.time_ns(), cache_seconds())
            current = cache.get(key)
        found.append(current)
    return found


# --- what changed on the floor since a screen last looked -------------------------------------------------------


def _log_keys(log: str) -> tuple[str, str, str]:
    return floor_key("changes", log, "epoch"), floor_key("changes", log, "generation"), floor_key("changes", log)


def _note(log: str, member: int, *, also: str) -> None:
    """Note in the floor's change log ``log`` that ``member`` changed: one generation for the whole log, raised, and
    the member's latest generation kept (Redis only); the generation under ``also`` raised in the same trip."""
    epoch_key, generation_key, members_key = _log_keys(log)

    def raise_both(pipeline: Any) -> None:
        pipeline.incr(also)
        pipeline.expire(also, SHARED_SECONDS)
        pipeline.set(epoch_key, str(time.time_ns()), nx=True)
        pipeline.incr(generation_key)

    # The member's score is the generation this INCR gives: read back, then written (a Lua-free way).
    answer = _redis(raise_both)
    if answer is not None:
        _redis(lambda p: p.zadd(members_key, {str(member): int(answer[-1])}))


def log_position(log: str) -> str | None:
    """Where the change log ``log`` stands now ("epoch.generation"), to be given back to ``changed_since``; None
    where there is no shared log (a process-local cache) or it cannot answer."""
    epoch_key, generation_key, _ = _log_keys(log)
    answer = _redis(lambda p: (p.set(epoch_key, str(time.time_ns()), nx=True), p.get(epoch_key), p.get(generation_key)))
    if answer is None or answer[1] is None:
        return None
    return f"{answer[1].decode()}.{int(answer[2] or 0)}"


def changed_since(log: str, position: str) -> tuple[str, set[int]] | None:
    """The members of ``log`` changed after ``position`` (``log_position``) and the position now; None when that
    cannot be told (another epoch: the log was lost; no shared log; a malformed position): read everything."""
    epoch, _, given = position.partition(".")
    if not given.isdigit() or len(given) > 18:
        return None
    epoch_key, generation_key, members_key = _log_keys(log)
    answer = _redis(
        lambda p: (p.get(epoch_key), p.get(generation_key), p.zrangebyscore(members_key, f"({int(given)}", "+inf"))
    )
    if answer is None:
        return None
    stored, current, members = answer
    if stored is None or stored.decode() != epoch or int(given) > int(current or 0):
        return None
    return f"{epoch}.{int(current or 0)}", {int(m) for m in members}
