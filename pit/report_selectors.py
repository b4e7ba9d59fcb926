"""Reads on shifts and their reports: the lists, one report, and a report as a downloadable file.

The lists never load a report's figures or files (only whether it has a PDF), so a page of shifts stays a
fixed number of small queries however big the reports are.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet
from django.db.models.functions import Coalesce, Length
from django.http import Http404
from django.shortcuts import get_object_or_404

from casino.models import Shift
from ledger.models import Posting
from pit.count_selectors import drop_box_sources
from settlement.models import ShiftReport
from tables.models import Table

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


@dataclass(frozen=True)
class ShiftReportsRow:
    """A closed shift on the reports page: its reports, and whether its Master Game Report (waiting for the count)
    and its rating report are not built yet, each then a row of its own."""

    shift: Shift
    reports: list[ShiftReport]
    master_game_pending: bool
    ratings_pending: bool

    @property
    def report_rows(self) -> int:
        """The rows the shift spans: one a report, one a report not built yet."""
        return len(self.reports) + self.master_game_pending + self.ratings_pending


def shift_reports_row(shift: Shift) -> ShiftReportsRow:
    """A shift of ``shift_list`` (its reports prefetched) as the reports page draws it."""
    reports = list(shift.reports.all())
    return ShiftReportsRow(
        shift=shift,
        reports=reports,
        master_game_pending=not any(r.kind == ShiftReport.Kind.MASTER_GAME for r in reports),
        ratings_pending=not any(r.kind == ShiftReport.Kind.RATINGS for r in reports),
    )


def shift_get(*, shift_id: int) -> Shift:
    """One shift with its reports, or 404."""
    return get_object_or_404(shift_list(), pk=shift_id)


def shift_report_get(*, report_id: int) -> ShiftReport:
    """One report with its shift and gaming day (figures and files included), or 404."""
    return get_object_or_404(ShiftReport.objects.select_related("shift__gaming_day"), pk=report_id)


# --- the count the Master Game Report waits for -------------------------------------------------
#
# A table expects a drop box in a shift when it recorded anything there: a round, a confirmed tray count, a buy-in
# or a slip. Its box is final when two counts agree, which is when the drop is posted (``tables.drop``, in the
# count's transaction; ``verify_ledger`` holds every final box to its posting): so "final" is a drop posting on the
# table and shift. The Master Game Report waits while a box the shift expects is not final. The rule is written
# twice, as a list for one shift (``shift_boxes_awaited``) and as a test on every closed shift (``_awaits_count``,
# for ``shifts_needing_reports``); tests/pit/test_master_game_report.py holds the two to the same answer.

# What gives a table a drop box in a shift (the count room's rule too).
_PLAYED = drop_box_sources()


def _drop_posted() -> QuerySet[Posting]:
    return Posting.objects.filter(kind=Posting.Kind.DROP)


def shift_boxes_awaited(*, shift: Shift) -> list[str]:
    """The tables (by name, in pit and table order) whose drop box ``shift`` expects and is not final: one query."""
    played = Q()
    for rows in _PLAYED:
        played |= Q(pk__in=rows.filter(shift=shift).values("table_id"))
    final = _drop_posted().filter(shift=shift).values("table_id")
    return list(
        Table.objects.filter(played).exclude(pk__in=final).order_by("pit__name", "name").values_list("name", flat=True)
    )


def _awaits_count() -> Q:
    """True on a shift with a box it expects not final: whether anything a table recorded in the shift has no drop
    posted for that table (each test stops at the first such row)."""
    final = Exists(_drop_posted().filter(shift=OuterRef("shift_id"), table_id=OuterRef("table_id")))
    return Q(*(Exists(rows.filter(shift=OuterRef("pk")).exclude(final)) for rows in _PLAYED), _connector=Q.OR)


def shift_awaits_count(*, shift: Shift) -> bool:
    """Whether a drop box ``shift`` expects is not final yet. The list's query, not ``_awaits_count``'s: a few ms on
    the bench's shift of 200,000 rounds whatever is counted, where the test on every shift scans its rounds once no
    box is awaited (0.5 s); this runs in each count that makes a box final."""
    return bool(shift_boxes_awaited(shift=shift))


def shifts_needing_reports() -> QuerySet[Shift]:
    """Closed shifts that lack a ``ready`` report of some kind (never built, or left ``building`` by a crash).

    The Master Game Report counts as lacking only once every drop box of the shift is final: a shift waiting for
    its count is not listed for it (its report is built when the count's last box is final, ``pit.signals``, or
    when a supervisor builds it with boxes missing), so the beat does not try it again every run."""
    master_game = ShiftReport.Kind.MASTER_GAME
    others_ready = Count("reports", filter=Q(reports__status=ShiftReport.Status.READY) & ~Q(reports__kind=master_game))
    master_game_ready = Exists(
        ShiftReport.objects.filter(shift=OuterRef("pk"), kind=master_game, status=ShiftReport.Status.READY)
    )
    return (
        Shift.objects.filter(closed_at__isnull=False)
        .annotate(others_ready=others_ready)
        .filter(Q(others_ready__lt=len(ShiftReport.Kind.values) - 1) | (~master_game_ready & ~_awaits_count()))
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
