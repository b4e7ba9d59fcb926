"""Closing the shift from the pit-boss dashboard and the reports page, and the Celery beat task that
closes an overdue shift and builds missing reports.

Celery runs eagerly here (even in the PostgreSQL + Redis pass) so a close's reports are built in-process.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.models import AuditEvent, Shift
from casino.services import shift_close
from pit.tasks import shift_boundaries
from settlement.models import ShiftReport
from tables.models import Table
from tests.pit.test_pit_dashboard import PGP_HANDS, PGP_WAGERS, play, settle

pytestmark = pytest.mark.usefixtures("eager_celery")


@pytest.fixture
def played_shift(make_table: Callable[..., Table], shift: Shift, dealer: User) -> Shift:
    """The open Day shift with one settled Pai Gow Poker round at PGP-1."""
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    settle(play(table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)
    return shift


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _close(client: Client, shift: Shift, capture: Callable[..., object], **form: str) -> str:
    """Post the dashboard's close form, run what the close enqueued on commit, and answer the page it leads to."""
    with capture(execute=True):  # type: ignore[attr-defined]
        response = client.post(f"/pit/shifts/{shift.pk}/close/", form)
    assert response.status_code == 302
    assert response["Location"] == "/pit/day/"
    return client.get("/pit/day/").content.decode()


# --- closing the shift from the dashboard ---------------------------------------------------------


@pytest.mark.django_db
def test_the_pit_boss_closes_the_shift_with_a_second_tap_and_its_reports_are_built(
    played_shift: Shift, pit_boss: User, django_capture_on_commit_callbacks: Callable[..., object]
) -> None:
    client = signed_in(pit_boss)
    page = client.get("/pit/").content.decode()
    assert "Close shift" in page and f'action="/pit/shifts/{played_shift.pk}/close/"' in page
    assert 'href="/reports/"' in page

    # The first tap only opens the confirmation: a post without it closes nothing.
    page = _close(client, played_shift, django_capture_on_commit_callbacks)
    assert "Confirm to close the shift" in page
    assert Shift.objects.get(pk=played_shift.pk).closed_at is None

    page = _close(client, played_shift, django_capture_on_commit_callbacks, confirm="yes")
    assert "The Day shift is closed: its reports are being built." in page
    closed = Shift.objects.get(pk=played_shift.pk)
    assert closed.closed_at is not None and closed.closed_by == pit_boss
    reports = ShiftReport.objects.filter(shift=closed)
    assert sorted(r.kind for r in reports) == ["audit", "commission", "dealers", "ratings", "shift"]
    assert {r.status for r in reports} == {ShiftReport.Status.READY}
    assert "Close shift" not in page  # no open shift any more


@pytest.mark.django_db
def test_closing_a_closed_shift_shows_the_services_refusal(
    shift: Shift, pit_boss: User, django_capture_on_commit_callbacks: Callable[..., object]
) -> None:
    shift_close(actor=pit_boss, shift=shift)
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[attr-defined]
        response = signed_in(pit_boss).post(f"/pit/shifts/{shift.pk}/close/", {"confirm": "yes"})
    # The gaming-day page, with the refusal and the status the API gives.
    assert response.status_code == 409
    assert "The Day shift is already closed." in response.content.decode()


@pytest.mark.django_db
def test_the_floor_supervisor_may_close_but_auditor_and_dealer_may_not(
    shift: Shift, floor_supervisor: User, auditor: User, dealer: User
) -> None:
    assert "Close shift" in signed_in(floor_supervisor).get("/pit/").content.decode()
    auditor_page = signed_in(auditor).get("/pit/").content.decode()
    assert "Close shift" not in auditor_page and 'href="/reports/"' in auditor_page
    for user in (auditor, dealer):
        assert signed_in(user).post(f"/pit/shifts/{shift.pk}/close/", {"confirm": "yes"}).status_code == 403
    assert Shift.objects.get(pk=shift.pk).closed_at is None
    assert signed_in(floor_supervisor).get(f"/pit/shifts/{shift.pk}/close/").status_code == 405


# --- the reports page and the downloads -----------------------------------------------------------


@pytest.fixture
def closed_shift(
    played_shift: Shift, pit_boss: User, django_capture_on_commit_callbacks: Callable[..., object]
) -> Shift:
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        shift_close(actor=pit_boss, shift=played_shift)
    return played_shift


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["pit_boss", "floor_supervisor", "auditor"])
def test_supervisors_and_auditors_list_the_reports_with_their_hashes_and_links(
    closed_shift: Shift, persona: str, request: pytest.FixtureRequest
) -> None:
    page = signed_in(request.getfixturevalue(persona)).get("/reports/").content.decode()
    assert "2025-03-01" in page
    for report in ShiftReport.objects.filter(shift=closed_shift):
        assert len(report.content_hash) == 64 and report.content_hash in page
        assert f'href="/reports/{report.pk}/csv/"' in page
        assert f'href="/reports/{report.pk}/html/"' in page
        assert (f'href="/reports/{report.pk}/pdf/"' in page) == bool(getattr(report, "pdf", b""))


@pytest.mark.django_db
def test_the_csv_html_and_pdf_download_with_their_content_types(closed_shift: Shift, auditor: User) -> None:
    client = signed_in(auditor)
    report = ShiftReport.objects.get(shift=closed_shift, kind=ShiftReport.Kind.SHIFT)

    csv = client.get(f"/reports/{report.pk}/csv/")
    assert csv.status_code == 200
    assert csv["Content-Type"] == "text/csv; charset=utf-8"
    assert csv["Content-Disposition"] == 'attachment; filename="tableside-2025-03-01-shift1-day-shift.csv"'
    assert csv.content.decode() == report.csv and "PGP-1" in report.csv

    html = client.get(f"/reports/{report.pk}/html/")
    assert html.status_code == 200
    assert html["Content-Type"] == "text/html; charset=utf-8"
    assert html["Content-Security-Policy"] == "sandbox"
    assert html.content.decode() == report.html

    pdf = client.get(f"/reports/{report.pk}/pdf/")
    if bytes(getattr(report, "pdf", None) or b""):
        assert pdf.status_code == 200
        assert pdf["Content-Type"] == "application/pdf"
        assert pdf["Content-Disposition"] == 'attachment; filename="tableside-2025-03-01-shift1-day-shift.pdf"'
        assert pdf.content.startswith(b"%PDF")
    else:
        assert pdf.status_code == 404

    assert client.get(f"/reports/{report.pk}/xlsx/").status_code == 404
    assert client.get("/reports/999999/csv/").status_code == 404


@pytest.mark.django_db
def test_a_report_still_being_built_has_no_download(shift: Shift, pit_boss: User) -> None:
    shift_close(actor=pit_boss, shift=shift)  # on commit, which a test never reaches: no report is built
    report = ShiftReport.objects.create(shift=shift, kind=ShiftReport.Kind.AUDIT)
    client = signed_in(pit_boss)
    page = client.get("/reports/").content.decode()
    assert "being built" in page and f"/reports/{report.pk}/csv/" not in page
    assert client.get(f"/reports/{report.pk}/csv/").status_code == 404


@pytest.mark.django_db
def test_a_dealer_may_not_see_the_reports(closed_shift: Shift, dealer: User) -> None:
    client = signed_in(dealer)
    report = ShiftReport.objects.filter(shift=closed_shift).first()
    assert report is not None
    assert client.get("/reports/").status_code == 403
    for fmt in ("csv", "html", "pdf"):
        assert client.get(f"/reports/{report.pk}/{fmt}/").status_code == 403


@pytest.mark.django_db
def test_signed_out_visitors_are_sent_to_sign_in(closed_shift: Shift) -> None:
    response = Client().get("/reports/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


# --- Celery beat: the shift boundaries ------------------------------------------------------------


def _opened_hours_ago(shift: Shift, hours: float) -> None:
    Shift.objects.filter(pk=shift.pk).update(opened_at=shift.opened_at - dt.timedelta(hours=hours))


@pytest.mark.django_db
def test_beat_closes_an_overdue_shift_as_the_system_and_builds_its_reports(played_shift: Shift, settings) -> None:  # type: ignore[no-untyped-def]
    settings.SHIFT_HOURS = 8
    _opened_hours_ago(played_shift, 8.5)

    result = shift_boundaries.delay().get()

    closed = Shift.objects.get(pk=played_shift.pk)
    assert closed.closed_at is not None and closed.closed_by is None
    assert result["closed_shift"] == closed.pk
    event = AuditEvent.objects.filter(event_type="shift.closed").latest("seq")
    assert event.actor is None
    reports = ShiftReport.objects.filter(shift=closed)
    assert sorted(r.kind for r in reports) == ["audit", "commission", "dealers", "ratings", "shift"]
    assert {r.status for r in reports} == {ShiftReport.Status.READY}
    hashes = {r.kind: r.content_hash for r in reports}

    # The next run finds nothing to do and changes nothing.
    assert shift_boundaries() == {"closed_shift": None, "built": {}, "failed": []}
    assert {r.kind: r.content_hash for r in ShiftReport.objects.filter(shift=closed)} == hashes


@pytest.mark.django_db
def test_beat_leaves_a_shift_that_is_not_overdue_alone(played_shift: Shift, settings) -> None:  # type: ignore[no-untyped-def]
    settings.SHIFT_HOURS = 8
    _opened_hours_ago(played_shift, 7.5)

    assert shift_boundaries() == {"closed_shift": None, "built": {}, "failed": []}
    assert Shift.objects.get(pk=played_shift.pk).closed_at is None
    assert not ShiftReport.objects.exists()


@pytest.mark.django_db
def test_beat_builds_missing_and_unfinished_reports_of_closed_shifts(played_shift: Shift, pit_boss: User) -> None:
    shift_close(actor=pit_boss, shift=played_shift)  # on commit, which a test never reaches: no report yet
    ShiftReport.objects.create(shift=played_shift, kind=ShiftReport.Kind.COMMISSION)  # a crashed build

    result = shift_boundaries()

    assert result["closed_shift"] is None
    assert sorted(result["built"][str(played_shift.pk)]) == ["audit", "commission", "dealers", "ratings", "shift"]
    reports = ShiftReport.objects.filter(shift=played_shift)
    assert reports.count() == 5
    assert all(r.status == ShiftReport.Status.READY and len(r.content_hash) == 64 for r in reports)
