"""Reads on shifts and their reports (issue 8): the lists, one report, and a report as a downloadable file.

The lists never load a report's figures or files (only whether it has a PDF), so a page of shifts stays a
fixed number of small queries however big the reports are.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q, QuerySet
from django.db.models.functions import Coalesce, Length
from django.http import Http404
from django.shortcuts import get_object_or_404

from casino.models import Shift
from settlement.models import ShiftReport

# The formats a report downloads in, with their content type and whether the browser saves (not shows) them.
REPORT_FORMATS: dict[str, tuple[str, bool]] = {
    "csv": ("text/csv; charset=utf-8", True),
    "html": ("text/html; charset=utf-8", False),
    "pdf": ("application/pdf", True),
}


def _report_summaries() -> QuerySet[ShiftReport]:
    """Reports without their figures and files; ``pdf_size`` says whether the PDF is there (0 when it is not)."""
    rows = ShiftReport.objects.only("id", "shift_id", "kind", "status", "content_hash", "created_at", "finished_at")
    return rows.annotate(pdf_size=Coalesce(Length("pdf"), 0))


def shift_list(*, closed_only: bool = False) -> QuerySet[Shift]:
    """Shifts, newest first, with their gaming day, who opened and closed them, and their reports (in kind order)."""
    rows = Shift.objects.select_related("gaming_day", "opened_by", "closed_by").prefetch_related(
        Prefetch("reports", queryset=_report_summaries().order_by("kind"))
    )
    if closed_only:
        rows = rows.filter(closed_at__isnull=False)
    return rows.order_by("-gaming_day__business_date", "-number")


def shift_get(*, shift_id: int) -> Shift:
    """One shift with its reports, or 404."""
    return get_object_or_404(shift_list(), pk=shift_id)


def shift_report_get(*, report_id: int) -> ShiftReport:
    """One report with its shift and gaming day (figures and files included), or 404."""
    return get_object_or_404(ShiftReport.objects.select_related("shift__gaming_day"), pk=report_id)


def shifts_needing_reports() -> QuerySet[Shift]:
    """Closed shifts that lack a ``ready`` report of some kind (never built, or left ``building`` by a crash)."""
    ready = Count("reports", filter=Q(reports__status=ShiftReport.Status.READY))
    return (
        Shift.objects.filter(closed_at__isnull=False)
        .annotate(ready_reports=ready)
        .filter(ready_reports__lt=len(ShiftReport.Kind.values))
        .order_by("closed_at", "pk")
    )


@dataclass(frozen=True)
class ReportFile:
    """A report in one format, ready to send."""

    content: bytes
    content_type: str
    filename: str
    attachment: bool


def report_filename(report: ShiftReport, fmt: str) -> str:
    """``tableside-2025-03-01-shift1-day-commission.pdf``: the gaming day, the shift and the report's kind."""
    shift = report.shift
    name = "".join(ch if ch.isalnum() else "-" for ch in shift.name.lower()).strip("-") or "shift"
    day = shift.gaming_day.business_date.isoformat()
    return f"tableside-{day}-shift{shift.number}-{name}-{report.kind}.{fmt}"


def report_file(*, report: ShiftReport, fmt: str) -> ReportFile:
    """The report in ``fmt`` (csv, html or pdf), or 404: an unknown format, a report still being built, or a PDF
    not (yet) made."""
    if fmt not in REPORT_FORMATS:
        raise Http404(f"No {fmt!r} format: ask for csv, html or pdf.")
    if report.status != ShiftReport.Status.READY:
        raise Http404("This report is still being built.")
    if fmt == "pdf":
        content = bytes(report.pdf or b"")  # a memoryview on PostgreSQL
    else:
        content = (report.csv if fmt == "csv" else report.html).encode("utf-8")
    if not content:
        raise Http404(f"This report has no {fmt.upper()} file.")
    content_type, attachment = REPORT_FORMATS[fmt]
    return ReportFile(
        content=content, content_type=content_type, filename=report_filename(report, fmt), attachment=attachment
    )
