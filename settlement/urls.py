"""URLs of the settlement app under ``/api/``: playing a round, voids, corrections and their requests."""

from __future__ import annotations

from django.urls import path

from settlement import apis
from settlement.table_apis import TableDetailApi, TableListApi

api_urlpatterns = [
    path("tables/", TableListApi.as_view(), name="api-table-list"),
    path("tables/<int:table_id>/", TableDetailApi.as_view(), name="api-table-detail"),
    path("tables/<int:table_id>/rounds/", apis.RoundOpenApi.as_view(), name="api-round-open"),
    path("rounds/<int:round_id>/", apis.RoundDetailApi.as_view(), name="api-round-detail"),
    path("rounds/<int:round_id>/wagers/", apis.WagerCreateApi.as_view(), name="api-round-wagers"),
    path("rounds/<int:round_id>/close-betting/", apis.CloseBettingApi.as_view(), name="api-round-close-betting"),
    path("rounds/<int:round_id>/deal/", apis.DealApi.as_view(), name="api-round-deal"),
    path("rounds/<int:round_id>/hands/", apis.HandsApi.as_view(), name="api-round-hands"),
    path("rounds/<int:round_id>/placements/", apis.PlacementsApi.as_view(), name="api-round-placements"),
    path("rounds/<int:round_id>/swaps/", apis.SwapApi.as_view(), name="api-round-swaps"),
    path("rounds/<int:round_id>/settle/", apis.SettleApi.as_view(), name="api-round-settle"),
    path("rounds/<int:round_id>/void/", apis.VoidApi.as_view(), name="api-round-void"),
    path("rounds/<int:round_id>/corrections/", apis.CorrectionApi.as_view(), name="api-round-corrections"),
    path("rounds/<int:round_id>/requests/", apis.AdjustmentRequestApi.as_view(), name="api-round-requests"),
    path("adjustments/", apis.AdjustmentListApi.as_view(), name="api-adjustment-list"),
    path(
        "adjustments/<int:adjustment_id>/approve/", apis.AdjustmentApproveApi.as_view(), name="api-adjustment-approve"
    ),
    path("adjustments/<int:adjustment_id>/reject/", apis.AdjustmentRejectApi.as_view(), name="api-adjustment-reject"),
]
