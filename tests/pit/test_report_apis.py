"""The shift and report API: closing a shift, listing shifts with their reports, and downloading a report
as CSV, HTML or PDF. Supervisors close; supervisors and auditors read; dealers do neither.

Celery runs eagerly here (even in the PostgreSQL + Redis pass) so a close's reports are built in-process.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from casino.models import Shift
from casino.services import shift_close
from settlement.models import ShiftReport
from settlement.services import settle_round
from tests.settlement.conftest import BANK, LOSES, PUSHES, WINS

pytestmark = pytest.mark.usefixtures("eager_celery")


def _client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def played_shift(shift: Shift, pgp_table, play_to_hands, dealer: User) -> Shift:  # type: ignore[no-untyped-def]
    """The open Day shift with one settled Pai Gow Poker round: a win, a push and a loss."""
    round_ = play_to_hands(
        pgp_table,
        wagers={1: 2500, 2: 1000, 3: 5000},
        hands={"banker": BANK, "seats": {"1": WINS, "2": PUSHES, "3": LOSES}},
    )
    settle_round(round=round_, actor=dealer, idempotency_key="api-reports-1")
    return shift


@pytest.fixture
def closed_shift(
    played_shift: Shift, pit_boss: User, django_capture_on_commit_callbacks: Callable[..., object]
) -> Shift:
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        shift_close(actor=pit_boss, shift=played_shift)
    return played_shift


@pytest.mark.django_db
def test_a_pit_boss_closes_the_shift_and_its_reports_are_listed(
    played_shift: Shift, pit_boss: User, django_capture_on_commit_callbacks: Callable[..., object]
) -> None:
    api = _client(pit_boss)
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        response = api.post(f"/api/v1/shifts/{played_shift.pk}/close/")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["id"] == played_shift.pk and body["closed_by"] == "paula_pitboss" and body["closed_at"]
    assert body["gaming_day"] == "2025-03-01" and body["name"] == "Day" and body["number"] == 1
    # The answer is read before the test's on-commit callbacks run; outside a test the eager build has run by then.
    assert body["reports"] == []

    reports = api.get(f"/api/v1/shifts/{played_shift.pk}/reports/").json()["results"]
    stored = {r.kind: r for r in ShiftReport.objects.filter(shift=played_shift)}
    assert len(reports) == 5
    for report in reports:
        assert report["status"] == "ready"
        assert report["content_hash"] == stored[report["kind"]].content_hash and len(report["content_hash"]) == 64
        assert report["urls"]["csv"] == f"http://testserver/api/v1/reports/{report['id']}/csv/"
        assert report["urls"]["html"] == f"http://testserver/api/v1/reports/{report['id']}/html/"
        has_pdf = bool(getattr(stored[report["kind"]], "pdf", b""))
        assert (report["urls"]["pdf"] is not None) == has_pdf

    # Closing again is a conflict, and changes nothing.
    again = api.post(f"/api/v1/shifts/{played_shift.pk}/close/")
    assert again.status_code == 409
    assert again.json()["message"] == "The Day shift is already closed."


@pytest.mark.django_db
def test_the_shift_list_has_every_shift_with_its_reports(closed_shift: Shift, pit_boss: User, auditor: User) -> None:
    from casino.services import shift_open

    later = shift_open(actor=pit_boss, name="Swing")
    body = _client(auditor).get("/api/v1/shifts/").json()["results"]
    assert [s["id"] for s in body] == [later.pk, closed_shift.pk]  # newest first
    assert body[0]["closed_at"] is None and body[0]["reports"] == []
    assert len(body[1]["reports"]) == 5
    closed_only = _client(auditor).get("/api/v1/shifts/?closed=true").json()["results"]
    assert [s["id"] for s in closed_only] == [closed_shift.pk]


@pytest.mark.django_db
def test_an_auditor_downloads_the_reports_but_may_not_close_a_shift(
    closed_shift: Shift, auditor: User, pit_boss: User
) -> None:
    from casino.services import shift_open

    api = _client(auditor)
    report = ShiftReport.objects.get(shift=closed_shift, kind=ShiftReport.Kind.COMMISSION)

    csv = api.get(f"/api/v1/reports/{report.pk}/csv/")
    assert csv.status_code == 200
    assert csv["Content-Type"] == "text/csv; charset=utf-8"
    assert csv["Content-Disposition"] == 'attachment; filename="tableside-2025-03-01-shift1-day-commission.csv"'
    assert csv.content.decode() == report.csv

    html = api.get(f"/api/v1/reports/{report.pk}/html/")
    assert html.status_code == 200 and html["Content-Type"] == "text/html; charset=utf-8"
    assert html.content.decode() == report.html

    pdf = api.get(f"/api/v1/reports/{report.pk}/pdf/")
    if bytes(getattr(report, "pdf", None) or b""):
        assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
        assert pdf["Content-Disposition"].startswith("attachment;") and pdf.content.startswith(b"%PDF")
    else:
        assert pdf.status_code == 404

    assert api.get(f"/api/v1/reports/{report.pk}/xml/").status_code == 404
    assert api.get("/api/v1/reports/999999/csv/").status_code == 404

    open_shift = shift_open(actor=pit_boss, name="Swing")
    refused = api.post(f"/api/v1/shifts/{open_shift.pk}/close/")
    assert refused.status_code == 403
    assert refused.json()["extra"]["required_roles"] == ["Floor supervisor", "Pit boss"]
    assert Shift.objects.get(pk=open_shift.pk).closed_at is None


@pytest.mark.django_db
def test_a_dealer_may_neither_close_nor_read(closed_shift: Shift, dealer: User, pit_boss: User) -> None:
    from casino.services import shift_open

    api = _client(dealer)
    report = ShiftReport.objects.filter(shift=closed_shift).first()
    assert report is not None
    for url in (
        "/api/v1/shifts/",
        f"/api/v1/shifts/{closed_shift.pk}/reports/",
        f"/api/v1/reports/{report.pk}/csv/",
        f"/api/v1/reports/{report.pk}/html/",
    ):
        response = api.get(url)
        assert response.status_code == 403, url
        assert "Auditor" in response.json()["message"]
    open_shift = shift_open(actor=pit_boss, name="Swing")
    assert api.post(f"/api/v1/shifts/{open_shift.pk}/close/").status_code == 403
    assert Shift.objects.get(pk=open_shift.pk).closed_at is None


@pytest.mark.django_db
def test_a_report_being_built_has_no_links_and_no_download(shift: Shift, pit_boss: User) -> None:
    shift_close(actor=pit_boss, shift=shift)  # on commit, which a test never reaches: nothing is built
    report = ShiftReport.objects.create(shift=shift, kind=ShiftReport.Kind.SHIFT)
    api = _client(pit_boss)
    [listed] = api.get(f"/api/v1/shifts/{shift.pk}/reports/").json()["results"]
    assert listed["status"] == "building" and listed["content_hash"] == ""
    assert listed["urls"] == {"csv": None, "html": None, "pdf": None}
    assert api.get(f"/api/v1/reports/{report.pk}/csv/").status_code == 404


@pytest.mark.django_db
def test_signed_out_callers_are_refused(closed_shift: Shift) -> None:
    assert APIClient().get("/api/v1/shifts/").status_code in (401, 403)
    assert APIClient().post(f"/api/v1/shifts/{closed_shift.pk}/close/").status_code in (401, 403)
