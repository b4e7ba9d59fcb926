"""The shift and audit reports state whether four eyes were on for voids and corrections (DESIGN.md, "Trust"): a
one-supervisor room (``TABLESIDE_FOUR_EYES=0``) shows as RELAXED in the figures, the CSV, the HTML and the PDF."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

import pytest
from reportlab import rl_config

from casino.models import Shift
from casino.services import shift_close
from pit.report_files import report_render
from pit.report_pdf import render_pdf
from settlement.models import ShiftReport

pytestmark = pytest.mark.usefixtures("eager_celery")

REQUIRED = "Four eyes on voids and corrections: required"
RELAXED = "Four eyes on voids and corrections: RELAXED (one-supervisor room, TABLESIDE_FOUR_EYES=0)"


@pytest.fixture
def close(shift: Shift, pit_boss: Any, django_capture_on_commit_callbacks: Any) -> Callable[[], Shift]:
    """Close the Day shift; its reports are built on commit (Celery is eager here)."""

    def close_it() -> Shift:
        with django_capture_on_commit_callbacks(execute=True):
            return shift_close(actor=pit_boss, shift=shift)

    return close_it


def _pdf_text(report: ShiftReport, monkeypatch: pytest.MonkeyPatch) -> str:
    """The report's PDF drawn again without page compression, so its words can be read in the bytes."""
    monkeypatch.setattr(rl_config, "pageCompression", 0)
    return render_pdf(report.data, report.content_hash).decode("latin-1").replace("\\(", "(").replace("\\)", ")")


def _stated(report: ShiftReport, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Where the report states the four-eyes line: figures, CSV, HTML, PDF."""
    four_eyes = report.data["controls"]["four_eyes"]
    control, state = (REQUIRED if four_eyes else RELAXED).split(": ", 1)
    places = []
    if ["control", control, state] in list(csv.reader(io.StringIO(report.csv))):
        places.append("csv")
    if f"{control}: {state}" in report.html or f"{control}: <strong>{state}</strong>" in report.html:
        places.append("html")
    if f"{control}: {state}" in _pdf_text(report, monkeypatch):
        places.append("pdf")
    return places


@pytest.mark.django_db
def test_the_shift_and_audit_reports_say_four_eyes_were_required(close, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    closed = close()
    for kind in ("shift", "audit"):
        report = ShiftReport.objects.get(shift=closed, kind=kind)
        assert report.data["controls"] == {"four_eyes": True}, kind
        assert _stated(report, monkeypatch) == ["csv", "html", "pdf"], kind
    commission = ShiftReport.objects.get(shift=closed, kind="commission")
    assert "controls" not in commission.data and "Four eyes" not in commission.csv


@pytest.mark.django_db
def test_a_one_supervisor_room_is_stated_as_relaxed_in_every_format(close, settings, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    settings.TABLESIDE_FOUR_EYES = False
    closed = close()
    for kind in ("shift", "audit"):
        report = ShiftReport.objects.get(shift=closed, kind=kind)
        assert report.data["controls"] == {"four_eyes": False}, kind
        assert _stated(report, monkeypatch) == ["csv", "html", "pdf"], kind
        assert "<strong>RELAXED" in report.html


@pytest.mark.django_db
def test_the_statement_is_part_of_the_content_hash_and_rebuilding_gives_the_same(close, settings) -> None:  # type: ignore[no-untyped-def]
    closed = close()
    for kind in ("shift", "audit"):
        stored = ShiftReport.objects.get(shift=closed, kind=kind)
        assert report_render(shift=closed, kind=kind)[3] == stored.content_hash, kind
        settings.TABLESIDE_FOUR_EYES = False
        assert report_render(shift=closed, kind=kind)[3] != stored.content_hash, kind
        settings.TABLESIDE_FOUR_EYES = True
