"""REST endpoints of the gaming days and their shifts (opening and closing them), and the closed
shifts' reports to download.

Supervisors (Floor supervisor, Pit boss) and Auditors read; only supervisors open and close a gaming day or a shift
(the services decide: 403 for anyone else, 409 when the state does not allow it, a shift with a round still being
played included). Refusals are ``{"message", "extra"}``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_inputs import valid_input
from casino.api_pages import GAMING_DAY_FILTER, ApiCursorPagination, filtered, page_response, since_filter
from casino.errors import NotAllowed
from casino.fields import StrictCharField, StrictDateField, query_flag
from casino.models import Shift
from casino.roles import OVERSEERS, SUPERVISORS, Role, require_role, user_has_role
from casino.selectors import gaming_day_get, gaming_day_list
from casino.services import gaming_day_close, gaming_day_open, shift_close, shift_open
from casino.users import actor_of
from pit.report_selectors import REPORT_FORMATS, report_file, shift_get, shift_list, shift_report_get
from pit.report_views import report_http_response
from pit.services import shift_report_build
from settlement.models import ShiftReport

REPORT_READERS: tuple[Role, ...] = OVERSEERS


def _require_reader(request: Request, *, what: str = gettext_noop("the shift reports")) -> None:
    if not (request.user.is_superuser or user_has_role(request.user, *REPORT_READERS)):
        needed = " or ".join(role.value for role in REPORT_READERS)
        raise NotAllowed(
            _("Only a %(roles)s may read %(what)s.") % {"roles": needed, "what": _(what)},
            extra={"required_roles": [role.value for role in REPORT_READERS]},
        )


class ReportOutputSerializer(serializers.Serializer[Any]):
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


class ShiftOutputSerializer(serializers.Serializer[Any]):
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


class ShiftOpenInputSerializer(serializers.Serializer[Any]):
    name = StrictCharField(max_length=40, help_text="Day, Swing, Graveyard, or any name up to 40 characters.")


class ShiftListApi(APIView):
    pagination_class = ApiCursorPagination
    page_ordering = ("-opened_at", "-pk")

    @extend_schema(
        parameters=[
            OpenApiParameter("closed", bool, description="true: closed shifts only"),
            GAMING_DAY_FILTER,
            since_filter("opened"),
        ],
        responses=ShiftOutputSerializer(many=True),
        summary="Shifts, newest first, with their reports (Floor supervisor, Pit boss or Auditor)",
    )
    def get(self, request: Request) -> Response:
        _require_reader(request)
        closed_only = query_flag(request.query_params.get("closed"), field="closed")
        shifts = shift_list(closed_only=closed_only)
        shifts = filtered(request, shifts, gaming_day="gaming_day__business_date", since="opened_at__gte")
        context = {"request": request}
        return page_response(
            self, request, shifts, lambda page: ShiftOutputSerializer(page, many=True, context=context).data
        )

    @extend_schema(
        request=ShiftOpenInputSerializer,
        responses={
            201: ShiftOutputSerializer,
            400: OpenApiTypes.OBJECT,
            403: OpenApiTypes.OBJECT,
            409: OpenApiTypes.OBJECT,
        },
        summary="Open the next shift of the open gaming day (Floor supervisor, Pit boss); 409 while one is open",
        examples=[OpenApiExample("The day shift", value={"name": "Day"})],
    )
    def post(self, request: Request) -> Response:
        data = valid_input(ShiftOpenInputSerializer, request)
        shift = shift_open(actor=actor_of(request.user), name=data["name"])
        body = ShiftOutputSerializer(shift_get(shift_id=shift.pk), context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED)


class ShiftCloseApi(APIView):
    @extend_schema(
        request=None,
        responses={200: ShiftOutputSerializer, 403: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
        summary="Close the shift: no round opens in it any more and its reports are built (Floor supervisor, Pit boss)",
        description="409 while a round of the shift is still being played (listed in `extra.unfinished_rounds`: "
        "settle or void each first) or a void or correction request on one waits for a supervisor.",
    )
    def post(self, request: Request, shift_id: int) -> Response:
        shift_close(actor=actor_of(request.user), shift=shift_get(shift_id=shift_id))
        return Response(ShiftOutputSerializer(shift_get(shift_id=shift_id), context={"request": request}).data)


class ShiftReportListApi(APIView):
    pagination_class = ApiCursorPagination
    page_ordering = ("kind", "pk")

    @extend_schema(
        responses=ReportOutputSerializer(many=True),
        summary="A shift's reports with their hashes and download links (Floor supervisor, Pit boss or Auditor)",
    )
    def get(self, request: Request, shift_id: int) -> Response:
        _require_reader(request)
        shift: Shift = shift_get(shift_id=shift_id)
        context = {"request": request}
        return page_response(
            self,
            request,
            shift.reports.all(),
            lambda page: ReportOutputSerializer(page, many=True, context=context).data,
        )


class ShiftMasterGameBuildApi(APIView):
    @extend_schema(
        request=None,
        responses={200: ReportOutputSerializer, 403: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
        summary="Build the shift's Master Game Report now, before every drop box is final (Floor supervisor, Pit boss)",
        description="For a box the count team says is missing: the boxes not final are the report's drop-variance "
        "lines, and the audit event names who built it. A report already built is answered as it is; 409 while the "
        "shift is open.",
    )
    def post(self, request: Request, shift_id: int) -> Response:
        report = shift_report_build(
            shift=shift_get(shift_id=shift_id),
            kind=ShiftReport.Kind.MASTER_GAME,
            force=True,
            actor=actor_of(request.user),
        )
        return Response(ReportOutputSerializer(report, context={"request": request}).data)


class ShiftRatingReportBuildApi(APIView):
    @extend_schema(
        request=None,
        responses={200: ReportOutputSerializer, 403: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
        summary="Build the shift's rating report now, if it is not built yet (Floor supervisor, Pit boss)",
        description="It is built with the other reports when the shift closes; this builds it for a shift closed "
        "before rated play was reported, or whose build failed. A report already built is answered as it is; 409 "
        "while the shift is open.",
    )
    def post(self, request: Request, shift_id: int) -> Response:
        require_role(request.user, *SUPERVISORS, action="build a rating report")
        report = shift_report_build(shift=shift_get(shift_id=shift_id), kind=ShiftReport.Kind.RATINGS)
        return Response(ReportOutputSerializer(report, context={"request": request}).data)


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


# --- gaming days -----------------------------------------------------------------------


class GamingDayShiftOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    number = serializers.IntegerField()
    name = serializers.CharField()
    opened_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)


class GamingDayOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    business_date = serializers.DateField()
    opened_at = serializers.DateTimeField()
    opened_by = serializers.CharField(source="opened_by.username", allow_null=True, default=None)
    closed_at = serializers.DateTimeField(allow_null=True)
    closed_by = serializers.CharField(source="closed_by.username", allow_null=True, default=None)
    shifts = GamingDayShiftOutputSerializer(many=True, source="shifts.all", help_text="First shift first.")


class GamingDayOpenInputSerializer(serializers.Serializer[Any]):
    business_date = StrictDateField(help_text="The gaming day's business date, YYYY-MM-DD.")


class GamingDayListApi(APIView):
    pagination_class = ApiCursorPagination
    page_ordering = ("-business_date",)

    @extend_schema(
        responses=GamingDayOutputSerializer(many=True),
        summary="Gaming days, newest first, with their shifts (Floor supervisor, Pit boss or Auditor)",
    )
    def get(self, request: Request) -> Response:
        _require_reader(request, what=gettext_noop("the gaming days"))
        return page_response(
            self, request, gaming_day_list(), lambda page: GamingDayOutputSerializer(page, many=True).data
        )

    @extend_schema(
        request=GamingDayOpenInputSerializer,
        responses={
            201: GamingDayOutputSerializer,
            400: OpenApiTypes.OBJECT,
            403: OpenApiTypes.OBJECT,
            409: OpenApiTypes.OBJECT,
        },
        summary="Open a gaming day (Floor supervisor, Pit boss); 409 while another is open, or when the date was used",
        examples=[OpenApiExample("1 March 2025", value={"business_date": "2025-03-01"})],
    )
    def post(self, request: Request) -> Response:
        data = valid_input(GamingDayOpenInputSerializer, request)
        day = gaming_day_open(actor=actor_of(request.user), business_date=data["business_date"])
        body = GamingDayOutputSerializer(gaming_day_get(gaming_day_id=day.pk)).data
        return Response(body, status=status.HTTP_201_CREATED)


class GamingDayCloseApi(APIView):
    @extend_schema(
        request=None,
        responses={200: GamingDayOutputSerializer, 403: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
        summary="Close the gaming day once its last shift is closed (Floor supervisor, Pit boss)",
    )
    def post(self, request: Request, gaming_day_id: int) -> Response:
        gaming_day_close(actor=actor_of(request.user), gaming_day=gaming_day_get(gaming_day_id=gaming_day_id))
        return Response(GamingDayOutputSerializer(gaming_day_get(gaming_day_id=gaming_day_id)).data)
