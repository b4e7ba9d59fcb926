"""URLs of the poker room's league pages and API (issue 19), included by poker_room.urls."""

from __future__ import annotations

from django.urls import URLPattern

page_urlpatterns: list[URLPattern] = []
api_urlpatterns: list[URLPattern] = []
