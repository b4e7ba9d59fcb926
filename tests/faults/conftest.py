"""Redis failing, two ways: nothing listens at its port (the connection is refused at once), or
something accepts the connection and never answers (a hung server, a dead NAT entry: only a timeout ends the
wait). The cache and the Celery broker are pointed at one for the length of a test."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest
from django.conf import settings as django_settings

from config.celery import app as celery_app

T = TypeVar("T")

# A fault bound, not a benchmark: what Redis failing may cost one request (the timeouts are 0.5 s each).
FAULT_BOUND_SECONDS = 2.0


def redis_caches(url: str) -> dict[str, Any]:
    """``CACHES`` as ``config.settings`` builds it for ``REDIS_URL=url`` (tests/faults/test_settings.py holds the
    two to the same shape)."""
    return {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": url,
            "OPTIONS": {
                "CLIENT_CLASS": "casino.redis_cache.BackingOffClient",
                "SOCKET_CONNECT_TIMEOUT": django_settings.REDIS_SOCKET_CONNECT_TIMEOUT,
                "SOCKET_TIMEOUT": django_settings.REDIS_SOCKET_TIMEOUT,
                "IGNORE_EXCEPTIONS": True,
            },
        }
    }


def refused_port() -> int:
    """A port nothing listens at: bound, read and closed again."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def silent_server() -> Iterator[int]:
    """A port that accepts every connection and never reads or writes a byte; its port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    listener.settimeout(0.05)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue
            except OSError:
                return

    thread = threading.Thread(target=accept, name="silent-redis", daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        stop.set()
        thread.join(timeout=1)
        for conn in [*held, listener]:
            conn.close()


@pytest.fixture(params=["refused", "silent"])
def redis_down(request: pytest.FixtureRequest) -> Iterator[str]:
    """A Redis URL that fails: ``refused`` (nothing listens) or ``silent`` (accepts, never answers)."""
    if request.param == "refused":
        yield f"redis://127.0.0.1:{refused_port()}/1"
        return
    with silent_server() as port:
        yield f"redis://127.0.0.1:{port}/1"


@pytest.fixture
def cache_down(redis_down: str, settings: Any) -> str:
    """The cache is Redis (django-redis, configured as the settings do) and Redis is down."""
    settings.CACHES = redis_caches(redis_down)  # setting_changed resets django.core.cache.caches
    return redis_down


def _celery_connections_drop() -> None:
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def broker_down(redis_down: str) -> Iterator[str]:
    """Celery publishes to a broker (not eagerly), at the failing Redis; the settings' timeouts and retries."""
    saved = {
        "broker_url": celery_app.conf.broker_url,
        "broker_write_url": celery_app.conf.get("broker_write_url"),
        "task_always_eager": celery_app.conf.task_always_eager,
    }
    _celery_connections_drop()
    # Publishing connects to the write URL; Celery reads CELERY_BROKER_URL from the environment before its own
    # ``broker_url`` (the PostgreSQL + Redis pass sets it), but its ``broker_write_url`` setting before that.
    celery_app.conf.update(broker_url=redis_down, broker_write_url=redis_down, task_always_eager=False)
    yield redis_down
    _celery_connections_drop()
    celery_app.conf.update(saved)


@pytest.fixture
def broker_back() -> Callable[[], None]:
    """Call it to have the broker back: Celery runs what it is given in-process again (the embedded default)."""

    def back() -> None:
        _celery_connections_drop()
        celery_app.conf.update(task_always_eager=True)

    return back


def quickly(call: Callable[[], T]) -> T:
    """``call()``'s answer, once it has come within the fault bound."""
    start = time.monotonic()
    answer = call()
    took = time.monotonic() - start
    assert took < FAULT_BOUND_SECONDS, f"took {took:.2f} s with Redis down"
    return answer
