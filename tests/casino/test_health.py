"""What a load balancer asks of an app server: /healthz (the process answers) and /readyz (it can work now: the
database reachable and migrated, Redis and the broker reachable where configured, an audit key, a young unanchored
tail), answered without a sign-in, by any host name, naming what failed and nothing secret."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any
from unittest import mock

import pytest
from django.db import OperationalError
from django.db.migrations import Migration
from django.test import Client, override_settings
from django.utils import timezone

from casino import audit, health
from casino.audit import audit_checkpoint_make, audit_event_record
from casino.defaults import DEVELOPMENT_AUDIT_KEY
from casino.events import AuditEventType
from casino.models import AuditEvent

pytestmark = pytest.mark.django_db

# Nothing listens on port 1: a connection there is refused at once.
NOWHERE = "redis://:s3cret-password@127.0.0.1:1/0"


TOKEN = "metrics-token-of-the-monitoring-system-0123"


def _ask(path: str, *, detailed: bool = True, fresh: bool = True, **headers: str) -> tuple[int, dict[str, Any]]:
    """The answer as the monitoring system (the metrics token's bearer) reads it, or as anyone else does; ``fresh``:
    the checks run again (a probe two seconds after the last)."""
    if fresh:
        health._last_readiness.clear()
    if detailed:
        headers.setdefault("HTTP_AUTHORIZATION", f"Bearer {TOKEN}")
    response = Client().get(path, **headers)
    assert response["Content-Type"] == "application/json" and response["Cache-Control"] == "no-store"
    return response.status_code, json.loads(response.content)


@pytest.fixture(autouse=True)
def _each_probe_checks_afresh(settings) -> None:  # type: ignore[no-untyped-def]
    health._migrated_at.clear()
    health._last_readiness.clear()
    audit._witness_failing_since.clear()
    settings.TABLESIDE_METRICS_TOKEN = TOKEN


def test_healthz_answers_without_a_sign_in_by_an_address_no_host_list_names_and_over_plain_http() -> None:
    with override_settings(ALLOWED_HOSTS=["tables.example"], SECURE_SSL_REDIRECT=True, DEBUG=False):
        status, body = _ask("/healthz", HTTP_HOST="10.0.3.7:8000")
    assert (status, body) == (200, {"status": "ok"})


def test_readyz_is_ready_when_everything_answers() -> None:
    status, body = _ask("/readyz", HTTP_HOST="10.0.3.7")
    assert status == 200 and body["status"] == "ready"
    assert body["checks"]["database"] == {"ok": True} and body["checks"]["audit_key"] == {"ok": True}
    assert body["checks"]["audit_unanchored_tail"]["ok"] is True


def test_readyz_names_a_database_that_does_not_answer_and_still_answers_itself() -> None:
    def refused(*args: object, **kwargs: object) -> None:
        raise OperationalError('connection to server at "db1" (10.0.0.9), port 5432 failed: Connection refused')

    with mock.patch.object(health.connection, "cursor", refused):
        status, body = _ask("/readyz")
    assert status == 503 and body["status"] == "not ready"
    assert body["checks"]["database"] == {
        "ok": False,
        "error": 'connection to server at "db1" (10.0.0.9), port 5432 failed: Connection refused',
    }
    assert "audit_unanchored_tail" not in body["checks"]  # not read from a database that did not answer


def test_readyz_names_migrations_not_yet_applied() -> None:
    waiting = [(Migration("0099_new_rule", "rules"), False)]
    with mock.patch("django.db.migrations.executor.MigrationExecutor.migration_plan", return_value=waiting):
        status, body = _ask("/readyz")
    assert status == 503
    assert body["checks"]["database"]["error"] == "1 migrations not applied: rules.0099_new_rule (manage.py migrate)"


def test_readyz_names_the_broker_and_the_cache_that_do_not_answer_without_their_password() -> None:
    with override_settings(CELERY_BROKER_URL=NOWHERE, REDIS_URL=NOWHERE):
        status, body = _ask("/readyz")
    assert status == 503
    assert body["checks"]["broker"]["ok"] is False and body["checks"]["cache"]["ok"] is False
    assert "127.0.0.1:1" in body["checks"]["broker"]["error"]
    assert body["checks"]["database"] == {"ok": True}
    assert "s3cret" not in json.dumps(body)


def test_readyz_names_a_missing_audit_key_and_never_shows_one() -> None:
    with override_settings(TABLESIDE_AUDIT_KEYS={}):
        status, body = _ask("/readyz")
    assert status == 503 and body["checks"]["audit_key"] == {
        "ok": False,
        "error": "No audit key: set TABLESIDE_AUDIT_KEYS.",
    }
    status, body = _ask("/readyz")
    assert status == 200 and DEVELOPMENT_AUDIT_KEY not in json.dumps(body)


@override_settings(TABLESIDE_AUDIT_SEQUENCE_AFTER_WRITES=False, TABLESIDE_READY_UNANCHORED_SECONDS=60)
def test_readyz_fails_while_an_event_has_waited_too_long_outside_a_signed_head(
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    audit_event_record(actor=None, event_type=AuditEventType.TABLE_OPENED, subject=("tables.table", 1))
    assert _ask("/readyz")[0] == 200  # just written: younger than the limit
    later = timezone.now() + dt.timedelta(seconds=61)
    with mock.patch("casino.health.timezone.now", return_value=later):
        status, body = _ask("/readyz")
    assert status == 503
    tail = body["checks"]["audit_unanchored_tail"]
    assert tail["ok"] is False and tail["seconds"] >= 61 and "Celery beat" in tail["error"]

    with django_capture_on_commit_callbacks(execute=True):  # the head handed to the checkpoint file as it commits
        audit_checkpoint_make(reason="test")
    with mock.patch("casino.health.timezone.now", return_value=later):
        assert _ask("/readyz")[0] == 200
    assert AuditEvent.objects.count() >= 1


def test_a_probe_is_read_only() -> None:
    response = Client().post("/readyz")
    assert response.status_code == 405 and response["Allow"] == "GET, HEAD"
    assert Client().head("/healthz").status_code == 200


def test_readyz_fails_while_signed_heads_do_not_reach_the_checkpoint_file_and_says_why(tmp_path, settings) -> None:  # type: ignore[no-untyped-def]
    """A process that cannot write the checkpoint file (here its directory is a file; in the field a root-owned file)
    logs, counts and goes on: the database keeps signing heads the witness outside it never gets."""
    from casino.audit import _witness, checkpoint_record
    from casino.models import AuditCheckpoint

    blocked = tmp_path / "not-a-directory"
    blocked.write_text("")
    settings.TABLESIDE_AUDIT_CHECKPOINT_FILE = str(blocked / "checkpoints.jsonl")
    audit_event_record(actor=None, event_type=AuditEventType.TABLE_OPENED, subject=("tables.table", 1))
    audit_checkpoint_make(reason="test")
    head = checkpoint_record(AuditCheckpoint.objects.latest("seq"))
    failures = audit.WITNESS_FAILURES.labels("file")._value.get()
    with mock.patch("casino.audit.logger.exception") as logged:
        _witness(head)  # as its commit hands it over
    assert logged.called and audit.WITNESS_FAILURES.labels("file")._value.get() == failures + 1
    status, body = _ask("/readyz")
    assert status == 503 and "not reaching file" in body["checks"]["audit_witnesses"]["error"]
    status, body = _ask("/readyz", detailed=False)
    assert status == 503 and body["checks"]["audit_witnesses"] == {"ok": False}  # the reason is for the monitor

    settings.TABLESIDE_AUDIT_CHECKPOINT_FILE = str(tmp_path / "checkpoints.jsonl")  # writable again
    _witness(head)
    health._last_readiness.clear()
    assert _ask("/readyz")[1]["checks"]["audit_witnesses"] == {"ok": True}


def test_without_the_monitors_token_readyz_names_the_failing_check_and_nothing_of_why() -> None:
    def refused(*args: object, **kwargs: object) -> None:
        raise OperationalError('connection to server at "db1.internal" (10.0.0.9), port 5432 failed: user "tableside"')

    with mock.patch.object(health.connection, "cursor", refused):
        status, body = _ask("/readyz", detailed=False)
    assert status == 503 and body["status"] == "not ready" and body["checks"]["database"] == {"ok": False}
    assert all(set(check) == {"ok"} for check in body["checks"].values())  # no error text, no seconds
    assert "db1" not in json.dumps(body) and "tableside" not in json.dumps(body)


def test_a_flood_of_probes_runs_the_checks_once_in_two_seconds() -> None:
    with mock.patch.object(health, "readiness", wraps=health.readiness) as checked:
        for _ in range(20):
            assert _ask("/readyz", fresh=False)[0] == 200
    assert checked.call_count <= 2  # once, or twice if the two seconds ran out during the loop
