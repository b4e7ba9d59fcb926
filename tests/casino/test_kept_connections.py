"""A kept PostgreSQL connection is checked at the start of a request by its socket (``casino.kept_connections``): a
healthy one is taken without Django's ``SELECT 1``, and one the server ended (a restart, a failover,
``pg_terminate_backend``) is still found and replaced before the request uses it."""

from __future__ import annotations

import select
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.core.signals import request_started
from django.db import connection, connections

from casino.kept_connections import kept_connection_quiet, kept_connections_check

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def kept() -> Iterator[Any]:
    """A connection of its own, kept between requests with health checks on, as a gunicorn worker keeps one."""
    if connection.vendor != "postgresql":
        pytest.skip("the socket check is PostgreSQL's (SQLite has no server to end a connection)")
    wrapper: Any = connections.create_connection("default")
    wrapper.health_check_enabled = True
    wrapper.ensure_connection()
    yield wrapper
    wrapper.close()


def backend_pid(wrapper: Any) -> int:
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def request_starts(wrapper: Any) -> None:
    """What a request's start does to a kept connection: Django's reset of its check, then the socket's look."""
    wrapper.close_if_unusable_or_obsolete()
    if wrapper.health_check_enabled and not wrapper.health_check_done and kept_connection_quiet(wrapper):
        wrapper.health_check_done = True


def server_ends(pid: int, wrapper: Any) -> None:
    """The server ends the backend ``pid`` (as a restart or a failover does), asked as the database's owner."""
    settings = wrapper.settings_dict
    with psycopg.connect(
        host=settings["HOST"], port=settings["PORT"] or 5432, user=settings["USER"], dbname=settings["NAME"]
    ) as admin:
        admin.execute("SET ROLE NONE")  # the suite's connections enter its least-privilege role; the owner ends it
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    poller = select.poll()
    poller.register(wrapper.connection.pgconn.socket, select.POLLIN)
    assert poller.poll(5000), "the ended connection's socket never said so"


def test_a_healthy_kept_connection_is_taken_without_a_round_trip(kept: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    pid = backend_pid(kept)
    asked: list[str] = []
    monkeypatch.setattr(kept, "is_usable", lambda: asked.append("SELECT 1") or True)
    request_starts(kept)
    assert kept.health_check_done and asked == []
    assert backend_pid(kept) == pid  # the same connection, used as it was


def test_a_kept_connection_the_server_ended_is_replaced_before_the_request_uses_it(kept: Any) -> None:
    pid = backend_pid(kept)
    server_ends(pid, kept)
    request_starts(kept)
    assert not kept.health_check_done  # left to Django's own check
    assert backend_pid(kept) != pid  # which found it ended and opened another: the request is answered


def test_a_connection_left_inside_a_transaction_is_left_to_djangos_check(kept: Any) -> None:
    kept.connection.execute("BEGIN")
    assert not kept_connection_quiet(kept)
    kept.connection.execute("ROLLBACK")
    assert kept_connection_quiet(kept)


def test_each_request_looks_at_the_sockets_of_the_connections_it_keeps(kept: Any) -> None:
    receivers = [receiver() for _key, receiver, *_rest in request_started.receivers]
    assert kept_connections_check in receivers
    connection.ensure_connection()
    connection.close_if_unusable_or_obsolete()  # Django's part of a request's start: the check to do again
    assert connection.health_check_enabled and not connection.health_check_done
    kept_connections_check()
    assert connection.health_check_done
