"""URLs of the dealer tablet's pages."""

from __future__ import annotations

from django.urls import path

from dealer import marker_views, money_views, rating_views, rotation_views, views

_round = "dealer/rounds/<int:round_id>"
_money = "dealer/tables/<int:table_id>/money"
_players = "dealer/tables/<int:table_id>/players"
page_urlpatterns = [
    path("dealer/", views.dealer_home, name="dealer-home"),
    path("dealer/tables/<int:table_id>/", views.dealer_table, name="dealer-table"),
    path("dealer/tables/<int:table_id>/open/", views.round_open_view, name="dealer-round-open"),
    path("dealer/tables/<int:table_id>/version/", views.tablet_version_view, name="dealer-table-version"),
    path("dealer/tables/<int:table_id>/tap-in/", rotation_views.tap_in_view, name="dealer-tap-in"),
    path(f"{_round}/wager/", views.wager_view, name="dealer-wager"),
    path(f"{_round}/close-betting/", views.close_betting_view, name="dealer-close-betting"),
    path(f"{_round}/deal/", views.deal_view, name="dealer-deal"),
    path(f"{_round}/hands/", views.hands_view, name="dealer-hands"),
    path(f"{_round}/placements/", views.placements_view, name="dealer-placements"),
    path(f"{_round}/swap/", views.swap_view, name="dealer-swap"),
    path(f"{_round}/preview/", views.hands_preview_view, name="dealer-preview"),
    path(f"{_round}/advice/", views.advice_view, name="dealer-advice"),
    path(f"{_round}/settle/", views.settle_view, name="dealer-settle"),
    path(f"{_round}/void-request/", views.void_request_view, name="dealer-void-request"),
    path(f"{_round}/correction-request/", views.correction_request_view, name="dealer-correction-request"),
    # The table's money: dealer/money_views.py.
    path(f"{_money}/", money_views.money_view, name="dealer-money"),
    path(f"{_money}/tray/", money_views.tray_count_view, name="dealer-money-tray"),
    path(f"{_money}/counts/<int:count_id>/confirm/", money_views.count_confirm_view, name="dealer-money-confirm"),
    path(f"{_money}/slips/new/", money_views.slip_request_view, name="dealer-money-slip"),
    path(f"{_money}/slips/<int:slip_id>/sign/", money_views.slip_sign_view, name="dealer-money-sign"),
    path(f"{_money}/slips/<int:slip_id>/void/", money_views.slip_void_view, name="dealer-money-void"),
    path(f"{_money}/buy-in/", money_views.buy_in_view, name="dealer-money-buy-in"),
    path(f"{_money}/buy-ins/<int:buy_in_id>/void/", money_views.buy_in_void_view, name="dealer-money-buy-in-void"),
    # Markers at the table's seats: dealer/marker_views.py.
    path(f"{_money}/markers/", marker_views.markers_view, name="dealer-markers"),
    path(f"{_money}/markers/new/", marker_views.marker_request_view, name="dealer-marker-new"),
    path(f"{_money}/markers/<int:marker_id>/issue/", marker_views.marker_issue_view, name="dealer-marker-issue"),
    path(f"{_money}/markers/<int:marker_id>/void/", marker_views.marker_void_view, name="dealer-marker-void"),
    # Rated players at the table: dealer/rating_views.py.
    path(f"{_players}/", rating_views.players_view, name="dealer-players"),
    path(f"{_players}/seat/", rating_views.seat_view, name="dealer-players-seat"),
    path(f"{_players}/enrol/", rating_views.enrol_view, name="dealer-players-enrol"),
    path(f"{_players}/<int:session_id>/break/", rating_views.pause_view, name="dealer-players-break"),
    path(f"{_players}/<int:session_id>/back/", rating_views.resume_view, name="dealer-players-back"),
    path(f"{_players}/<int:session_id>/move/", rating_views.move_view, name="dealer-players-move"),
    path(f"{_players}/<int:session_id>/end/", rating_views.end_view, name="dealer-players-end"),
]
