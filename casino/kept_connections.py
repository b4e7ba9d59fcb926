"""A kept database connection is checked before a request uses it by looking at its socket, not with a round trip.

Connections are kept between requests (``CONN_MAX_AGE``) and checked before a request uses one
(``CONN_HEALTH_CHECKS``): Django's check sends ``SELECT 1`` and waits for it, about 40 µs of a worker's CPU and one
round trip on every request (docs/performance.md, "A round over HTTP through gunicorn").

A connection the server has ended has said so on its socket. A restart, a failover's shutdown, an idle timeout or
``pg_terminate_backend`` make PostgreSQL send its FATAL message and close; a proxy or pooler in between closes too.
The kernel then marks the socket readable (a message, the end of the stream, or an error). A healthy connection
between requests has nothing to read: its last statement's answer was read whole.

So, at the start of each request, after Django has reset its checks (``close_old_connections``): a PostgreSQL
connection that is idle, outside a transaction, and has nothing to read counts as checked. Anything else (something to
read, a transaction left open, a connection psycopg knows is broken) is left to Django's own check, which sends
``SELECT 1`` and replaces a connection that fails it. What the socket cannot show, neither can ``SELECT 1`` do much
with: a server machine that vanished without closing makes both wait.
"""

from __future__ import annotations

import select
from typing import Any

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

# What makes a socket worth Django's round trip: anything to read, urgent data, or (always reported) an error or a
# hang-up.
_SOMETHING_SAID = select.POLLIN | select.POLLPRI


def kept_connection_quiet(wrapper: BaseDatabaseWrapper) -> bool:
    """Whether ``wrapper``'s open PostgreSQL connection is idle, outside a transaction, and has nothing to read on its
    socket: the server has not ended it. False for anything else (no connection, another database, a transaction
    open, a broken connection, anything on the socket)."""
    raw: Any = wrapper.connection
    if wrapper.vendor != "postgresql" or raw is None or raw.closed or raw.broken:
        return False
    from psycopg import pq

    if raw.pgconn.transaction_status != pq.TransactionStatus.IDLE:
        return False
    try:
        socket = raw.pgconn.socket
    except Exception:  # noqa: BLE001  (psycopg: the connection has no socket any more; Django's check decides)
        return False
    poller = select.poll()
    poller.register(socket, _SOMETHING_SAID)
    return not poller.poll(0)


def kept_connections_check(**_: Any) -> None:
    """``request_started``, after Django's ``close_old_connections``: each kept connection that is quiet
    (``kept_connection_quiet``) counts as checked for this request, and Django's ``SELECT 1`` is not sent."""
    for kept in connections.all(initialized_only=True):
        wrapper: Any = kept  # Django's health-check attributes are not in its type stubs
        if wrapper.health_check_enabled and not wrapper.health_check_done and kept_connection_quiet(wrapper):
            wrapper.health_check_done = True
