"""URLs of the poker room's deal pages and API (issue 19), included by poker_room.urls."""

from __future__ import annotations

from django.urls import URLPattern, path

from poker_room import deal_apis, deal_views

page_urlpatterns: list[URLPattern] = [
    path("poker-room/<int:tournament_id>/deal/", deal_views.deal_view, name="poker-room-deal"),
]
api_urlpatterns: list[URLPattern] = [
    path("tournaments/<int:tournament_id>/deal/", deal_apis.DealApi.as_view(), name="api-tournament-deal"),
]
