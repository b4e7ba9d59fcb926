"""What a load balancer and a monitoring system ask of an app server: ``/healthz``, ``/readyz`` and ``/metrics``.

* ``/healthz``: the process answers (200, nothing read). A load balancer restarts or drops a server that does not.
* ``/readyz``: the server can do its work now: the database reachable and every migration applied, Redis (the cache)
  and the broker reachable where they are configured, an audit key present (a server with DEBUG off and the
  development key does not start at all: ``casino.checks``), the audit log's unanchored tail younger than
  ``TABLESIDE_READY_UNANCHORED_SECONDS``, and the witnesses outside the database taking this process's signed
  heads. 200 when every check passes, 503 naming each that failed; why, only to the bearer of the metrics token (a
  monitoring system); JSON, no sign-in, nothing secret (no address with a password, no key). The checks run at most
  every two seconds in a process, however often the load balancers ask.
* ``/metrics``: ``casino.metrics``.

``HealthProbes`` answers these three first in the middleware, before the host is checked, the HTTPS redirect or the
session: a load balancer probes by the server's address and over plain HTTP, and a probe must not need a host name
in ``ALLOWED_HOSTS``, a cookie or a certificate. Every other path goes on down the stack. docs/monitoring.md says how
to point a load balancer and Prometheus at them.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import time
from collections.abc import Callable
from typing import TypedDict

from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone

from casino.audit import audit_unanchored_since, audit_witnesses_failing
from casino.metrics import metrics_page, metrics_token_bearer
from casino.redis_cache import direct_client

logger = logging.getLogger(__name__)


class Check(TypedDict, total=False):
    ok: bool
    error: str
    seconds: float


_CREDENTIALS = re.compile(r"//[^/@\s]*@")
# A database found migrated stays so until this process is replaced by new code (and its migrations), or this long.
_MIGRATED_FOR = 60.0
_migrated_at: list[float] = []


def _said(exc: BaseException) -> str:
    """What went wrong, in one line, with any user:password of an address taken out."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return _CREDENTIALS.sub("//***@", text)[:300]


def _database() -> Check:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    if not (_migrated_at and time.monotonic() - _migrated_at[0] < _MIGRATED_FOR):
        executor = MigrationExecutor(connection)
        waiting = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if waiting:
            names = ", ".join(f"{migration.app_label}.{migration.name}" for migration, _ in waiting[:5])
            more = f" and {len(waiting) - 5} more" if len(waiting) > 5 else ""
            return {"ok": False, "error": f"{len(waiting)} migrations not applied: {names}{more} (manage.py migrate)"}
        _migrated_at[:] = [time.monotonic()]
    return {"ok": True}


def _redis(url: str) -> Check:
    client = direct_client(url)
    try:
        client.ping()
    finally:
        client.close()
    return {"ok": True}


def _audit_key() -> Check:
    keys = settings.TABLESIDE_AUDIT_KEYS
    if not keys:
        return {"ok": False, "error": "No audit key: set TABLESIDE_AUDIT_KEYS."}
    return {"ok": True}


def _unanchored_tail() -> Check:
    limit = float(settings.TABLESIDE_READY_UNANCHORED_SECONDS)
    oldest = audit_unanchored_since()
    age = (timezone.now() - oldest).total_seconds() if oldest is not None else 0.0
    if limit and age > limit:
        return {
            "ok": False,
            "error": (
                f"The oldest audit event not in a signed head was written {age:.0f} s ago (limit {limit:.0f} s): "
                "is Celery beat running (the audit-sequence task)?"
            ),
            "seconds": round(age, 1),
        }
    return {"ok": True, "seconds": round(age, 1)}


def _witnesses() -> Check:
    failing = audit_witnesses_failing()
    if failing:
        since = min(failing.values())
        return {
            "ok": False,
            "error": (
                f"Signed heads are not reaching {', '.join(sorted(failing))} (since "
                f"{since.astimezone(dt.UTC):%Y-%m-%d %H:%M:%S} UTC): for the checkpoint file, can every process write "
                "TABLESIDE_AUDIT_CHECKPOINT_FILE (its owner, its permissions, the disk)?"
            ),
        }
    return {"ok": True}


def _checked(check: Callable[[], Check]) -> Check:
    try:
        return check()
    except Exception as exc:  # any failure of a dependency is the answer, never a 500
        return {"ok": False, "error": _said(exc)}


def readiness() -> tuple[bool, dict[str, Check]]:
    """Every check, each on its own (the tail is read only from a database that answered)."""
    checks: dict[str, Check] = {"database": _checked(_database)}
    cache, broker = settings.REDIS_URL, settings.CELERY_BROKER_URL
    if cache:
        checks["cache"] = _checked(lambda: _redis(cache))
    if broker:
        checks["broker"] = _checked(lambda: _redis(broker))
    checks["audit_key"] = _checked(_audit_key)
    if checks["database"]["ok"]:
        checks["audit_unanchored_tail"] = _checked(_unanchored_tail)
        checks["audit_witnesses"] = _checked(_witnesses)
    return all(check["ok"] for check in checks.values()), checks


def _no_store(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    return response


def healthz(request: HttpRequest) -> HttpResponse:
    return _no_store(JsonResponse({"status": "ok"}))


_failing_before: list[frozenset[str]] = [frozenset()]


# A load balancer (or several) probing every second or two: the checks run at most this often in a process.
_READY_FOR = 2.0
_last_readiness: list[tuple[float, bool, dict[str, Check]]] = []


def _readiness_recent() -> tuple[bool, dict[str, Check]]:
    now = time.monotonic()
    if _last_readiness and now - _last_readiness[0][0] < _READY_FOR:
        return _last_readiness[0][1], _last_readiness[0][2]
    ready, checks = readiness()
    _last_readiness[:] = [(now, ready, checks)]
    return ready, checks


def readyz(request: HttpRequest) -> HttpResponse:
    ready, checks = _readiness_recent()
    failing = frozenset(name for name, check in checks.items() if not check["ok"])
    if failing != _failing_before[0]:  # a load balancer asks every few seconds: logged when it changes, not each time
        if failing:
            logger.warning(
                "Not ready: %s", "; ".join(f"{name}: {checks[name].get('error', '')}" for name in sorted(failing))
            )
        else:
            logger.info("Ready again")
        _failing_before[0] = failing
    # Why a check failed (a server's name, a migration's) only to the monitoring system: the metrics token's bearer.
    # Anyone else gets each check's name and whether it passed; the server logs the reasons.
    shown = checks if metrics_token_bearer(request) else {name: {"ok": check["ok"]} for name, check in checks.items()}
    body = {"status": "ready" if ready else "not ready", "checks": shown}
    return _no_store(JsonResponse(body, status=200 if ready else 503))


_PROBES: dict[str, Callable[[HttpRequest], HttpResponse]] = {
    "/healthz": healthz,
    "/readyz": readyz,
    "/metrics": metrics_page,
}


class HealthProbes:
    """Middleware, first: the probes answered before the host check, the HTTPS redirect and the session."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        probe = _PROBES.get(request.path_info.rstrip("/") or "/")
        if probe is None:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            answer = JsonResponse({"detail": "Only GET and HEAD are answered here."}, status=405)
            answer["Allow"] = "GET, HEAD"
            return answer
        response = probe(request)
        # Answered, and its failure (if any) logged by ``readyz`` once: Django's "Service Unavailable" line for every
        # probe would fill the log while a dependency is down.
        response._has_been_logged = True  # type: ignore[attr-defined]
        return response
