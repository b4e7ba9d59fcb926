"""URLs of the dealer tablet's pages."""

from __future__ import annotations

from django.urls import path

from dealer import views

_round = "dealer/rounds/<int:round_id>"
page_urlpatterns = [
    path("dealer/", views.dealer_home, name="dealer-home"),
    path("dealer/tables/<int:table_id>/", views.dealer_table, name="dealer-table"),
    path("dealer/tables/<int:table_id>/open/", views.round_open_view, name="dealer-round-open"),
    path("dealer/tables/<int:table_id>/version/", views.tablet_version_view, name="dealer-table-version"),
    path(f"{_round}/wager/", views.wager_view, name="dealer-wager"),
    path(f"{_round}/close-betting/", views.close_betting_view, name="dealer-close-betting"),
    path(f"{_round}/deal/", views.deal_view, name="dealer-deal"),
    path(f"{_round}/hands/", views.hands_view, name="dealer-hands"),
    path(f"{_round}/placements/", views.placements_view, name="dealer-placements"),
    path(f"{_round}/preview/", views.hands_preview_view, name="dealer-preview"),
    path(f"{_round}/advice/", views.advice_view, name="dealer-advice"),
    path(f"{_round}/settle/", views.settle_view, name="dealer-settle"),
    path(f"{_round}/void-request/", views.void_request_view, name="dealer-void-request"),
    path(f"{_round}/correction-request/", views.correction_request_view, name="dealer-correction-request"),
]
