"""The floor's metrics in the Prometheus text format, at ``/metrics`` (prometheus-client).

Two kinds (docs/monitoring.md lists every metric, with a dashboard built from them):

* **What a process measured**: each request's time by view, each settle's time by game, each Celery task's time and
  failures, each report's build time. Under gunicorn every worker process measures its own; with
  ``PROMETHEUS_MULTIPROC_DIR`` set (an empty directory, the same for the web's workers and a Celery worker on the
  same host) the page sums them all (prometheus-client's multiprocess mode; ``config.gunicorn.conf`` marks a worker
  that ended). A Celery worker on another host answers its own at ``TABLESIDE_WORKER_METRICS_PORT``.
* **What the floor holds now**, read from the database and the broker when the page is asked for, so every app
  server answers the same: audited writes (the log's newest number, a counter that never goes back), events not yet
  in a signed head and the oldest one's age, open shifts, tasks waiting in the outbox, each queue's length, and
  backends waiting on a lock (PostgreSQL). One that cannot be read is left out and named in
  ``tableside_metric_unreadable``; the page still answers.

The page answers only a request with ``Authorization: Bearer`` and ``TABLESIDE_METRICS_TOKEN``; with no token set it
is not served at all (404), so nothing about the floor leaks past a proxy that forgot to hide it.
"""

from __future__ import annotations

import hmac
import logging
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Max
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
    start_http_server,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from casino.audit import audit_unanchored_tail
from casino.models import AuditEvent, Shift, TaskOutbox
from casino.redis_cache import direct_client

logger = logging.getLogger(__name__)

# Seconds: a poll answers in milliseconds, a settle in tens of them, a report or a lab chunk in seconds.
_FAST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_SLOW = (0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 900.0)

REQUEST_SECONDS = Histogram(
    "tableside_request_seconds", "Time to answer a request, by view, method and status class.",
    ["view", "method", "status"], buckets=_FAST,
)  # fmt: skip
SETTLE_SECONDS = Histogram(
    "tableside_settle_seconds", "Time to settle a round (checks, engine, postings, audit event), by game.",
    ["game"], buckets=_FAST,
)  # fmt: skip
TASK_SECONDS = Histogram(
    "tableside_task_seconds", "Time a Celery task ran, by task and outcome (success, failure).",
    ["task", "outcome"], buckets=_SLOW,
)  # fmt: skip
TASK_FAILURES = Counter("tableside_task_failures", "Celery tasks that raised, by task.", ["task"])
REPORT_BUILD_SECONDS = Histogram(
    "tableside_report_build_seconds", "Time to build one shift report (figures, CSV, HTML, PDF), by kind.",
    ["kind"], buckets=_SLOW,
)  # fmt: skip

_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class RequestMetrics:
    """Middleware: each request's time by the view that answered it (its URL name, never its path: a path holds
    ids, and a label per id would grow without end)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        view = (match.view_name or "unnamed") if match is not None else "unmatched"
        method = request.method if request.method in _METHODS else "other"
        REQUEST_SECONDS.labels(view, method, f"{response.status_code // 100}xx").observe(time.perf_counter() - started)
        return response


# --- Celery (connected in config.celery) -----------------------------------------------------------------------------

_task_started: dict[str, float] = {}


def task_started(task_id: str = "", **_: Any) -> None:
    _task_started[task_id] = time.perf_counter()


def task_ended(task_id: str = "", task: Any = None, state: str | None = None, **_: Any) -> None:
    started = _task_started.pop(task_id, None)
    if started is None or task is None:
        return
    outcome = "success" if state in (None, "SUCCESS") else "failure"
    TASK_SECONDS.labels(task.name, outcome).observe(time.perf_counter() - started)


def task_failed(sender: Any = None, **_: Any) -> None:
    TASK_FAILURES.labels(getattr(sender, "name", "unknown")).inc()


def worker_metrics_serve(**_: Any) -> None:
    """``worker_init``: a Celery worker answers its measurements (every pool process's, with
    ``PROMETHEUS_MULTIPROC_DIR``) at ``TABLESIDE_WORKER_METRICS_ADDRESS``:``TABLESIDE_WORKER_METRICS_PORT`` (the
    loopback by default: set the host's internal address for a Prometheus elsewhere); the floor's state is the
    web's to answer."""
    port = settings.TABLESIDE_WORKER_METRICS_PORT
    if not port:
        return
    registry: CollectorRegistry = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    start_http_server(port, addr=settings.TABLESIDE_WORKER_METRICS_ADDRESS, registry=registry)
    logger.info("Worker metrics at http://%s:%s/metrics", settings.TABLESIDE_WORKER_METRICS_ADDRESS, port)


# --- What the floor holds now ----------------------------------------------------------------------------------------


def _audit_events() -> Iterator[Metric]:
    newest = AuditEvent.objects.aggregate(seq=Max("seq"))["seq"] or 0
    yield CounterMetricFamily(
        "tableside_audited_writes", "Audited writes recorded on the floor (the audit log's newest number).", newest
    )


def _unanchored() -> Iterator[Metric]:
    events, oldest = audit_unanchored_tail()
    yield GaugeMetricFamily("tableside_audit_unanchored_events", "Audit events not yet in a signed head.", events)
    age = (timezone.now() - oldest).total_seconds() if oldest is not None else 0.0
    yield GaugeMetricFamily(
        "tableside_audit_unanchored_age_seconds", "Age of the oldest audit event not yet in a signed head.", age
    )


def _open_shifts() -> Iterator[Metric]:
    yield GaugeMetricFamily("tableside_open_shifts", "Shifts open now.", Shift.objects.filter(closed_at=None).count())


def _outbox() -> Iterator[Metric]:
    waiting = TaskOutbox.objects.filter(sent_at=None).count()
    yield GaugeMetricFamily("tableside_outbox_waiting", "Tasks asked for and not yet handed to the broker.", waiting)


def _queues() -> Iterator[Metric]:
    broker = settings.CELERY_BROKER_URL
    if not broker:
        return
    queues = sorted({settings.CELERY_TASK_DEFAULT_QUEUE, settings.TABLESIDE_LAB_QUEUE})
    client = direct_client(broker)
    try:
        family = GaugeMetricFamily("tableside_queue_length", "Tasks waiting in a Celery queue.", labels=["queue"])
        for queue in queues:
            family.add_metric([queue], int(client.llen(queue)))
    finally:
        client.close()
    yield family


def _lock_waits() -> Iterator[Metric]:
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*), coalesce(extract(epoch FROM max(now() - query_start)), 0) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        waiting, longest = cursor.fetchone()
    yield GaugeMetricFamily("tableside_db_lock_waits", "Database backends waiting on a lock now.", int(waiting))
    yield GaugeMetricFamily(
        "tableside_db_lock_wait_longest_seconds", "How long the longest lock wait now has lasted.", float(longest)
    )


_FLOOR: tuple[tuple[str, Callable[[], Iterator[Metric]]], ...] = (
    ("audited_writes", _audit_events),
    ("audit_unanchored", _unanchored),
    ("open_shifts", _open_shifts),
    ("outbox_waiting", _outbox),
    ("queue_length", _queues),
    ("db_lock_waits", _lock_waits),
)


class FloorCollector:
    """The floor's state read when the page is asked for; each reading on its own, a failed one named."""

    def collect(self) -> Iterator[Metric]:
        unreadable = GaugeMetricFamily(
            "tableside_metric_unreadable", "A floor metric that could not be read this time (1).", labels=["metric"]
        )
        for name, read in _FLOOR:
            try:
                yield from list(read())
            except Exception:  # one reading lost must not cost the others or the page
                logger.warning("The metric %s could not be read", name, exc_info=True)
                unreadable.add_metric([name], 1)
        yield unreadable


class _ThisProcess:
    """The process's own measurements, for a page built without the multiprocess directory."""

    def collect(self) -> Iterator[Metric]:
        yield from REGISTRY.collect()


def metrics_text() -> bytes:
    """The page: every process's measurements (or this one's) and the floor's state."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry.register(_ThisProcess())
    registry.register(FloorCollector())
    return generate_latest(registry)


def metrics_token_bearer(request: HttpRequest) -> bool:
    """Whether the request bears the metrics token (``Authorization: Bearer``); never, with no token set."""
    token = settings.TABLESIDE_METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


def metrics_page(request: HttpRequest) -> HttpResponse:
    token = settings.TABLESIDE_METRICS_TOKEN
    if not token:
        return JsonResponse({"detail": "No metrics here: TABLESIDE_METRICS_TOKEN is not set."}, status=404)
    if not metrics_token_bearer(request):
        answer = JsonResponse(
            {"detail": "The metrics need the header Authorization: Bearer <metrics token>."}, status=401
        )
        answer["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return answer
    response = HttpResponse(metrics_text(), content_type=CONTENT_TYPE_LATEST)
    response["Cache-Control"] = "no-store"
    return response
