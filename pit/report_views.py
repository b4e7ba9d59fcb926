"""Pages of issue 8: closing the shift from the pit-boss dashboard, and the closed shifts' reports to download."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from pit.report_selectors import ReportFile, report_file, shift_list, shift_report_get
from pit.views import PIT_VIEWERS, _require

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
    """The closed shifts, newest first, each with its reports: kind, status, content hash and downloads."""
    _require(request, PIT_VIEWERS)
    page = Paginator(shift_list(closed_only=True), SHIFTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "pit/reports.html", {"page": page, "shifts": page.object_list})


@login_required
@require_GET
def report_download(request: HttpRequest, report_id: int, fmt: str) -> HttpResponse:
    """One report as CSV, HTML or PDF (404 when that file is not there, or the report is still being built)."""
    _require(request, PIT_VIEWERS)
    return report_http_response(report_file(report=shift_report_get(report_id=report_id), fmt=fmt))
