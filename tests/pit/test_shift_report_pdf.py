"""The PDF of the shift reports: every kind has one, the end-of-shift report's hours add up to the floor,
and the same figures give the same bytes."""

from __future__ import annotations

import pytest

from pit.report_files import report_render
from pit.report_pdf import hourly_chart_png, render_pdf
from pit.reports import HOUR_FIGURES
from settlement.models import ShiftReport
from tests.pit.test_shift_reports import closed_shift  # noqa: F401  (a fixture)

pytestmark = pytest.mark.usefixtures("eager_celery")


@pytest.mark.django_db
def test_every_kind_has_a_pdf_with_pages(closed_shift) -> None:  # noqa: F811
    for report in ShiftReport.objects.filter(shift=closed_shift):
        pdf = bytes(report.pdf)
        assert pdf.startswith(b"%PDF-"), report.kind
        assert b"/Type /Page\n" in pdf or b"/Type /Page " in pdf or b"/Type /Page>" in pdf
        assert pdf.rstrip().endswith(b"%%EOF")


@pytest.mark.django_db
def test_the_hours_sum_to_the_floor(closed_shift) -> None:  # noqa: F811
    data = ShiftReport.objects.get(shift=closed_shift, kind="shift").data
    assert data["hours"], "the shift's ledger entries fall in at least one hour"
    for name in HOUR_FIGURES:
        assert sum(hour[name] for hour in data["hours"]) == data["floor"][name], name
    assert [hour["hour"] for hour in data["hours"]] == sorted(hour["hour"] for hour in data["hours"])
    assert hourly_chart_png(data["hours"]).startswith(b"\x89PNG")


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["shift", "commission", "audit"])
def test_rebuilding_gives_the_same_bytes(closed_shift, kind: str) -> None:  # noqa: F811
    stored = ShiftReport.objects.get(shift=closed_shift, kind=kind)
    data, _csv, _html, digest = report_render(shift=closed_shift, kind=kind)
    assert digest == stored.content_hash
    first = render_pdf(data, digest)
    assert render_pdf(data, digest) == first
    assert first == bytes(stored.pdf)


def test_the_chart_is_deterministic() -> None:
    hours = [
        {
            "hour": "2026-01-01T10:00:00+00:00",
            "commission_cents": 500,
            "rake_cents": 0,
            "house_cents": -300,
            "banker_cents": 0,
            "player_cents": 200,
        },
        {
            "hour": "2026-01-01T11:00:00+00:00",
            "commission_cents": 125,
            "rake_cents": 75,
            "house_cents": 900,
            "banker_cents": -100,
            "player_cents": -900,
        },
    ]
    assert hourly_chart_png(hours) == hourly_chart_png(hours)


def test_an_audit_report_of_many_events_lists_every_event_once_across_its_pages() -> None:
    """A busy shift's audit report runs to dozens of pages: every event is listed once, in order, a long reason
    wrapped in its cell and a short one as it is (the grids a few pages each: pit.report_pdf)."""
    import io
    import re

    from pypdf import PdfReader

    long_reason = "Card exposed while dealing the second hand; the supervisor approved the void at the table. " * 2
    events = [
        {
            "seq": seq,
            "occurred_at": f"2026-11-29T10:{seq // 60 % 60:02d}:{seq % 60:02d}+00:00",
            "actor": "dealer",
            "event_type": "round.settled",
            "subject": f"Round #{seq}",
            "reason": long_reason if seq % 97 == 0 else ("Misdeal" if seq % 5 == 0 else ""),
            "hash": f"{seq:016x}" + "f" * 48,
        }
        for seq in range(1, 451)
    ]
    shift = {"name": "Day", "gaming_day": "2026-11-29", "number": 1, "opened_at": "08:00", "closed_at": "16:00"}
    pdf = render_pdf({"kind": "audit", "shift": shift, "chain": {"ok": True}, "events": events}, "ab" * 32)
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    hashes = re.findall(r"\b0{10}[0-9a-f]{6}\b", text)  # each event's hash, its first 16 digits
    assert hashes == [f"{seq:016x}" for seq in range(1, 451)]
    assert text.count("Misdeal") == 90 and "approved the void at the table." in text
