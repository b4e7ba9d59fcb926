"""How a screen that polls learns, from the cache alone, that what it shows changed: a generation number per thing
shown, raised once a write to it commits.

A write calls ``changed_on_commit(key)`` inside its transaction; once it commits, the generation under ``key`` goes
up (never if it rolls back). A poll reads the generation, then what it computed for that generation; both are cache
reads, so while nothing changed a poll costs no query. A poll that finds no answer for the current generation
computes it from the database and keeps it under that generation: a write committing meanwhile raises the
generation, so an answer computed from the rows before it is never taken for the new one.

Where the cache lives decides how long an answer is believed. Redis (``REDIS_URL``) is one cache for every server
process: the writer's commit reaches every reader, and an entry is kept ``SHARED_SECONDS`` so that one lost write
(Redis down a moment) heals by itself. The embedded default's local-memory cache belongs to one process: a commit in
another worker process (``make serve`` runs several) never reaches it, so there an entry is believed for
``LOCAL_SECONDS`` only. A cache that cannot answer is a miss: the database answers.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

LOCAL_SECONDS = 0.5  # a process-local cache cannot hear another process's commit: still within the second
SHARED_SECONDS = 300  # a shared cache hears every commit; the timeout only heals a write lost while it was down


def floor_key(*parts: object) -> str:
    """A cache key of this floor's: the database's name in it, so two floors (or two test databases) sharing one
    Redis never read each other's entries for things with the same id."""
    return ":".join((str(settings.DATABASES["default"]["NAME"]), *(str(part) for part in parts)))


def cache_seconds() -> float:
    backend: str = settings.CACHES["default"]["BACKEND"]
    return LOCAL_SECONDS if backend.endswith("LocMemCache") else SHARED_SECONDS


def _raise(key: str) -> None:
    try:
        cache.incr(key)
    except ValueError:  # not there (never read, expired, or the cache was emptied): a number no reader holds
        cache.set(key, time.time_ns(), cache_seconds())


def changed_on_commit(key: str) -> None:
    """Raise the generation under ``key`` once the caller's transaction commits."""
    transaction.on_commit(lambda: _raise(key), robust=True)


def generation(key: str) -> Any:
    """The generation under ``key``, made if there is none (a cache that cannot answer: None, read the database)."""
    current = cache.get(key)
    if current is None:
        cache.add(key, time.time_ns(), cache_seconds())
        current = cache.get(key)
    return current
