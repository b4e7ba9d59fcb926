"""REST endpoints of issue 8: the shifts, closing one, and their reports to download.

Supervisors (Floor supervisor, Pit boss) and Auditors read; only supervisors close a shift (``shift_close``
decides: 403 for anyone else, 409 when the shift is already closed). Refusals are ``{"message", "extra"}``.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.errors import NotAllowed
from casino.models import Shift
from casino.roles import OVERSEERS, Role, user_has_role
from casino.services import shift_close
from pit.report_selectors import REPORT_FORMATS, report_file, shift_get, shift_list, shift_report_get
from pit.report_views import report_http_response
from settlement.models import ShiftReport

REPORT_READERS: tuple[Role, ...] = OVERSEERS


def _require_reader(request: Request) -> None:
    if not (request.user.is_superuser or user_has_role(request.user, *REPORT_READERS)):
        needed = " or ".join(role.value for role in REPORT_READERS)
        raise NotAllowed(
            f"Only a {needed} may read the shift reports.",
            extra={"required_roles": [role.value for role in REPORT_READERS]},
        )


class ReportOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    shift = serializers.IntegerField(source="shift_id")
    kind = serializers.CharField()
    status = serializers.CharField()
    content_hash = serializers.CharField(help_text="SHA-256 of the report's figures; empty while it is being built.")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    urls = serializers.SerializerMethodField(help_text="Download links per format; null when that file is not there.")

    @extend_schema_field(
        {
            "type": "object",
            "properties": {fmt: {"type": "string", "format": "uri", "nullable": True} for fmt in REPORT_FORMATS},
        }
    )
    def get_urls(self, report: ShiftReport) -> dict[str, str | None]:
        request = self.context.get("request")
        ready = report.status == ShiftReport.Status.READY
        has = {"csv": ready, "html": ready, "pdf": ready and bool(getattr(report, "pdf_size", 0))}
        urls: dict[str, str | None] = {}
        for fmt in REPORT_FORMATS:
            if not has[fmt]:
                urls[fmt] = None
                continue
            path = reverse("api-report-file", kwargs={"report_id": report.pk, "file_format": fmt})
            urls[fmt] = request.build_absolute_uri(path) if request is not None else path
        return urls


class ShiftOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    gaming_day = serializers.DateField(source="gaming_day.business_date")
    number = serializers.IntegerField()
    name = serializers.CharField()
    opened_at = serializers.DateTimeField()
    opened_by = serializers.CharField(source="opened_by.username", allow_null=True, default=None)
    closed_at = serializers.DateTimeField(allow_null=True)
    closed_by = serializers.CharField(
        source="closed_by.username", allow_null=True, default=None, help_text="Null when open, or closed by the system."
    )
    reports = ReportOutputSerializer(many=True, source="reports.all")


class ShiftListApi(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("closed", bool, description="true: closed shifts only")],
        responses=ShiftOutputSerializer(many=True),
        summary="Shifts, newest first, with their reports (Floor supervisor, Pit boss or Auditor)",
    )
    def get(self, request: Request) -> Response:
        _require_reader(request)
        closed_only = request.query_params.get("closed", "").lower() in {"1", "true", "yes"}
        shifts = shift_list(closed_only=closed_only)
        return Response(ShiftOutputSerializer(shifts, many=True, context={"request": request}).data)


class ShiftCloseApi(APIView):
    @extend_schema(
        request=None,
        responses={200: ShiftOutputSerializer, 403: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
        summary="Close the shift: no round opens in it any more and its reports are built (Floor supervisor, Pit boss)",
    )
    def post(self, request: Request, shift_id: int) -> Response:
        shift_close(actor=request.user, shift=shift_get(shift_id=shift_id))
        return Response(ShiftOutputSerializer(shift_get(shift_id=shift_id), context={"request": request}).data)


class ShiftReportListApi(APIView):
    @extend_schema(
        responses=ReportOutputSerializer(many=True),
        summary="A shift's reports with their hashes and download links (Floor supervisor, Pit boss or Auditor)",
    )
    def get(self, request: Request, shift_id: int) -> Response:
        _require_reader(request)
        shift: Shift = shift_get(shift_id=shift_id)
        return Response(ReportOutputSerializer(shift.reports.all(), many=True, context={"request": request}).data)


class ShiftReportFileApi(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("file_format", str, OpenApiParameter.PATH, enum=list(REPORT_FORMATS))],
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY, description="The report as CSV (attachment)"),
            (200, "text/html"): OpenApiResponse(OpenApiTypes.STR, description="The report's HTML page"),
            (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="The PDF (attachment)"),
            404: OpenApiTypes.OBJECT,
        },
        summary="Download a report as CSV, HTML or PDF (Floor supervisor, Pit boss or Auditor)",
    )
    def get(self, request: Request, report_id: int, file_format: str) -> HttpResponse:
        _require_reader(request)
        return report_http_response(report_file(report=shift_report_get(report_id=report_id), fmt=file_format))
