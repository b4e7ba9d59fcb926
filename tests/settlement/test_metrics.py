"""The floor's metrics at /metrics as Prometheus reads them: only with the metrics token, each settle's time by game,
each request's time by view (never by path), audited writes, the unanchored tail, open shifts, a task's time and a
report's build, and one reading that fails leaving the rest of the page standing."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.test import Client, override_settings
from prometheus_client.parser import text_string_to_metric_families

from casino import metrics
from casino.models import AuditEvent
from casino.services import shift_close
from rounds.models import Round
from settlement.services import settle_round
from tests.settlement.conftest import BANK, LOSES, WINS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

TOKEN = "metrics-token-for-the-test-0123456789"


def _page(**headers: str) -> tuple[int, str]:
    response = Client().get("/metrics", HTTP_HOST="10.0.0.12:8000", **headers)
    return response.status_code, response.content.decode()


def _read() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the page, by name and labels."""
    status, text = _page(HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert status == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_the_page_is_not_served_without_a_token_set_and_refused_without_the_right_one() -> None:
    with override_settings(TABLESIDE_METRICS_TOKEN=""):
        assert _page()[0] == 404
    with override_settings(TABLESIDE_METRICS_TOKEN=TOKEN):
        status, text = _page()
        assert status == 401 and "Authorization: Bearer" in text and "tableside_" not in text
        assert _page(HTTP_AUTHORIZATION="Bearer not-the-token")[0] == 401
        assert _page(HTTP_AUTHORIZATION=TOKEN)[0] == 401  # the token without its scheme


@override_settings(TABLESIDE_METRICS_TOKEN=TOKEN)
def test_a_settle_a_request_an_audited_write_and_a_closed_shifts_reports_are_counted(
    dealer,
    pit_boss,
    shift,
    pgp_table,
    play_to_hands,
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    before = _read()
    revealed = play_to_hands(
        pgp_table, wagers={1: 2500, 2: 1000}, hands={"banker": BANK, "seats": {"1": WINS, "2": LOSES}}
    )
    settle_round(round=revealed, actor=dealer, idempotency_key="settle-1")
    settle_round(round=Round.objects.get(pk=revealed.pk), actor=dealer, idempotency_key="settle-1")  # a retry
    Client().get(f"/api/v1/rounds/{revealed.pk}/")  # refused (no sign-in), still timed, by its view's name
    with django_capture_on_commit_callbacks(execute=True):
        shift_close(actor=pit_boss, shift=shift)  # its reports built by the (eager) task
    after = _read()

    settles = "tableside_settle_seconds_count"
    assert _value(after, settles, game="paigow_poker") - _value(before, settles, game="paigow_poker") == 1
    assert _value(after, "tableside_audited_writes_total") == max(AuditEvent.objects.values_list("seq", flat=True))
    assert _value(after, "tableside_open_shifts") == 0 and _value(before, "tableside_open_shifts") == 1
    views = {dict(labels).get("view") for name, labels in after if name == "tableside_request_seconds_count"}
    assert "api-round-detail" in views, views
    assert not any(view and re.search(r"\d", view) for view in views), "a view's name, never a path with its ids"
    task = ("tableside_task_seconds_count", {"task": "settlement.shift_reports_build", "outcome": "success"})
    assert _value(after, task[0], **task[1]) - _value(before, task[0], **task[1]) == 1
    assert _value(after, "tableside_report_build_seconds_count", kind="shift") >= 1
    assert _value(after, "tableside_audit_unanchored_events") >= 0
    assert ("tableside_metric_unreadable", ()) not in after or _value(after, "tableside_metric_unreadable") == 0


@override_settings(TABLESIDE_METRICS_TOKEN=TOKEN)
def test_a_reading_that_fails_is_named_and_the_others_still_answer() -> None:
    def broken() -> None:
        raise RuntimeError("the shifts table is gone")

    readings = tuple((name, broken if name == "open_shifts" else read) for name, read in metrics._FLOOR)
    with mock.patch.object(metrics, "_FLOOR", readings):
        samples = _read()
    assert _value(samples, "tableside_metric_unreadable", metric="open_shifts") == 1
    assert ("tableside_open_shifts", ()) not in samples
    assert ("tableside_audited_writes_total", ()) in samples
