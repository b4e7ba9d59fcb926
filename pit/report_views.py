"""Closing the shift from the pit-boss dashboard, and the closed shifts' reports to download; and
a supervisor's "Build now" of a Master Game Report still waiting for the count, or of a rating report
not built yet (a shift closed before rated play was reported, or whose build failed)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from casino.errors import ApplicationError
from casino.models import Shift
from casino.users import actor_of
from pit.report_selectors import ReportFile, report_file, shift_list, shift_report_get, shift_reports_row
from pit.services import shift_report_build
from pit.views import PIT_DECIDERS, PIT_VIEWERS, _may, _require
from settlement.models import ShiftReport

SHIFTS_PER_PAGE = 20


def report_http_response(file: ReportFile) -> HttpResponse:
    """A report file as an HTTP answer: CSV and PDF saved under their file name, HTML shown.

    The stored HTML is shown sandboxed (no script runs, no cookie is read), as any stored document should be.
    """
    response = HttpResponse(file.content, content_type=file.content_type)
    disposition = "attachment" if file.attachment else "inline"
    response["Content-Disposition"] = f'{disposition}; filename="{file.filename}"'
    if not file.attachment:
        response["Content-Security-Policy"] = "sandbox"
    return response


@login_required
@require_GET
def reports(request: HttpRequest) -> HttpResponse:
    """The closed shifts, newest first, each with its reports: kind, status, content hash and downloads; a shift
    whose Master Game Report is not built yet (it waits for the count) says so, with "Build now" for supervisors."""
    _require(request, PIT_VIEWERS)
    page = Paginator(shift_list(closed_only=True), SHIFTS_PER_PAGE).get_page(request.GET.get("page"))
    shifts = [shift_reports_row(shift) for shift in page.object_list]
    context = {"page": page, "shifts": shifts, "can_decide": _may(request, PIT_DECIDERS)}
    return render(request, "pit/reports.html", context)


@login_required
@require_POST
def master_game_build(request: HttpRequest, shift_id: int) -> HttpResponse:
    """A Floor supervisor or Pit boss builds the shift's Master Game Report now, drop boxes missing or not (the
    count team said a box is missing): ``shift_report_build(force=True)``; the boxes not final are its drop-variance
    lines, and the audit event names the supervisor."""
    _require(request, PIT_DECIDERS)
    shift = get_object_or_404(Shift, pk=shift_id)
    try:
        shift_report_build(shift=shift, kind=ShiftReport.Kind.MASTER_GAME, force=True, actor=actor_of(request.user))
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The Master Game Report of the %(name)s shift is built.") % {"name": shift.name})
    return redirect("reports")


@login_required
@require_POST
def rating_report_build(request: HttpRequest, shift_id: int) -> HttpResponse:
    """A Floor supervisor or Pit boss builds the shift's rating report now (it is built at the close; this is for a
    shift closed before rated play was reported, or whose build failed). Built once: a second tap changes nothing."""
    _require(request, PIT_DECIDERS)
    shift = get_object_or_404(Shift, pk=shift_id)
    try:
        shift_report_build(shift=shift, kind=ShiftReport.Kind.RATINGS)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The rating report of the %(name)s shift is built.") % {"name": shift.name})
    return redirect("reports")


@login_required
@require_GET
def report_download(request: HttpRequest, report_id: int, fmt: str) -> HttpResponse:
    """One report as CSV, HTML or PDF (404 when that file is not there, or the report is still being built)."""
    _require(request, PIT_VIEWERS)
    return report_http_response(report_file(report=shift_report_get(report_id=report_id), fmt=fmt))
