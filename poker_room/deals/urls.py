"""URLs of the deal's page and its REST API, included by ``poker_room.urls``."""

from __future__ import annotations

from django.urls import URLPattern, path

from poker_room.deals import apis, views

page_urlpatterns: list[URLPattern] = [
    path("poker-room/<int:tournament_id>/deal/", views.deal_view, name="poker-room-deal"),
]
api_urlpatterns: list[URLPattern] = [
    path("tournaments/<int:tournament_id>/deal/", apis.DealApi.as_view(), name="api-tournament-deal"),
]
