"""Emptying the cache between tests without touching another pytest-xdist worker's keys.

Every worker keys the shared cache apart (``tests/conftest.py``, ``KEY_PREFIX``); Django's ``cache.clear()`` on Redis
empties the whole Redis database, the other workers' one-time form keys and cached figures with it. This deletes
the keys under this worker's prefix only (django-redis's ``delete_pattern`` applies the prefix), and is
``clear()`` on the in-process cache of the embedded default.
"""

from __future__ import annotations

from django.core.cache import cache


def cache_clear() -> None:
    delete_pattern = getattr(cache, "delete_pattern", None)
    if delete_pattern is not None:
        delete_pattern("*")
    else:
        cache.clear()
