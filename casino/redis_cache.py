"""The cache's Redis client, which leaves a failed Redis alone for a while.

django-redis, told to ignore Redis's errors (``IGNORE_EXCEPTIONS``), answers a miss for every call while Redis is
down, but each call first waits for its timeouts: a Redis that accepts connections and never answers costs every
``cache.get`` half a second, and a page that reads and keeps a few things waits seconds. This client notes the first
failure to reach it and, for ``BACK_OFF_SECONDS``, answers every cache call at once as a failure (which django-redis
turns into a miss, or a write not kept) without touching the network. The raw Redis calls of ``casino.live`` share
the same back-off, so a request waits for a failing Redis once at most, whichever way it reaches it.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import Any

import redis
from django.conf import settings
from django_redis.client import DefaultClient
from django_redis.client.default import _main_exceptions
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

BACK_OFF_SECONDS = 10.0
_down_until = [0.0]
# What says Redis cannot be reached (refused, reset, not answering within its timeout): backed off. An answer that
# is an error (out of memory, read-only, a wrong type) is Redis answering: that call fails alone.
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)


def backing_off() -> bool:
    """Whether Redis failed within the last ``BACK_OFF_SECONDS`` (in this process)."""
    return time.monotonic() < _down_until[0]


def redis_failed() -> None:
    """Leave Redis alone for ``BACK_OFF_SECONDS`` from now."""
    _down_until[0] = time.monotonic() + BACK_OFF_SECONDS


def redis_trusted_again() -> None:
    """Forget a failure (a test that took Redis away, ending)."""
    _down_until[0] = 0.0


class BackedOff(ConnectionInterrupted):  # type: ignore[misc]  # django-redis ships no types
    """A cache call not made: Redis failed moments ago."""


class QuietWhileBackingOff(logging.Filter):
    """django-redis logs every error it ignores with its traceback; the first failure is worth one, the calls not
    made while backing off are not (``LOGGING`` puts this on django-redis's logger)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], BackedOff))


def _backing_off_around(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def call(self: DefaultClient, *args: Any, **kwargs: Any) -> Any:
        if backing_off():
            raise BackedOff(connection=None) from RedisConnectionError("Redis failed moments ago")
        try:
            return method(self, *args, **kwargs)
        except BackedOff:
            raise
        except ConnectionInterrupted as interrupted:
            if isinstance(interrupted.__cause__, UNREACHABLE):
                redis_failed()
            raise
        except _main_exceptions as failure:
            if isinstance(failure, UNREACHABLE):
                redis_failed()
            raise ConnectionInterrupted(connection=None) from failure

    return call


class BackingOffClient(DefaultClient):  # type: ignore[misc]  # django-redis ships no types
    """django-redis's client; every cache operation answers at once while Redis is being backed off."""


for _name in (
    "add",
    "clear",
    "decr",
    "delete",
    "delete_many",
    "expire",
    "get",
    "get_many",
    "has_key",
    "incr",
    "incr_version",
    "set",
    "set_many",
    "touch",
    "ttl",
):
    setattr(BackingOffClient, _name, _backing_off_around(getattr(DefaultClient, _name)))


def direct_client(url: str) -> redis.Redis:
    """A client of the Redis at ``url`` with the floor's timeouts and no back-off: for asking whether it answers
    (``/readyz``) or how long its queues are (``/metrics``), where a failure is the answer. The caller closes it."""
    return redis.Redis.from_url(
        url,
        socket_timeout=settings.REDIS_SOCKET_TIMEOUT,
        socket_connect_timeout=settings.REDIS_SOCKET_CONNECT_TIMEOUT,
    )
