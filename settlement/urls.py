"""URLs of the settlement app under ``/api/``: playing a round, and the shifts with their reports."""

from __future__ import annotations

from django.urls import path

from settlement import apis, report_apis

api_urlpatterns = [
    path("tables/<int:table_id>/rounds/", apis.RoundOpenApi.as_view(), name="api-round-open"),
    path("rounds/<int:round_id>/", apis.RoundDetailApi.as_view(), name="api-round-detail"),
    path("rounds/<int:round_id>/wagers/", apis.WagerCreateApi.as_view(), name="api-round-wagers"),
    path("rounds/<int:round_id>/close-betting/", apis.CloseBettingApi.as_view(), name="api-round-close-betting"),
    path("rounds/<int:round_id>/deal/", apis.DealApi.as_view(), name="api-round-deal"),
    path("rounds/<int:round_id>/hands/", apis.HandsApi.as_view(), name="api-round-hands"),
    path("rounds/<int:round_id>/placements/", apis.PlacementsApi.as_view(), name="api-round-placements"),
    path("rounds/<int:round_id>/settle/", apis.SettleApi.as_view(), name="api-round-settle"),
    path("rounds/<int:round_id>/void/", apis.VoidApi.as_view(), name="api-round-void"),
    path("rounds/<int:round_id>/corrections/", apis.CorrectionApi.as_view(), name="api-round-corrections"),
    path("rounds/<int:round_id>/requests/", apis.AdjustmentRequestApi.as_view(), name="api-round-requests"),
    path("adjustments/", apis.AdjustmentListApi.as_view(), name="api-adjustment-list"),
    path(
        "adjustments/<int:adjustment_id>/approve/", apis.AdjustmentApproveApi.as_view(), name="api-adjustment-approve"
    ),
    path("adjustments/<int:adjustment_id>/reject/", apis.AdjustmentRejectApi.as_view(), name="api-adjustment-reject"),
    path("shifts/", report_apis.ShiftListApi.as_view(), name="api-shift-list"),
    path("shifts/<int:shift_id>/close/", report_apis.ShiftCloseApi.as_view(), name="api-shift-close"),
    path("shifts/<int:shift_id>/reports/", report_apis.ShiftReportListApi.as_view(), name="api-shift-reports"),
    # ``file_format``, not ``format``: DRF reads a ``format`` argument as a renderer choice and would 404 on csv.
    path(
        "reports/<int:report_id>/<str:file_format>/", report_apis.ShiftReportFileApi.as_view(), name="api-report-file"
    ),
]
