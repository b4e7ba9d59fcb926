"""URLs of the room display: the TV's signed address (no sign-in) and the staff's by the tournament's id, each with
the JSON it polls (``page_urlpatterns``); the display's payload in the REST API (``api_urlpatterns``). Included by
``poker_room.urls``."""

from __future__ import annotations

from django.urls import URLPattern, path

from poker_room.display import apis, views

page_urlpatterns: list[URLPattern] = [
    path("poker-room/screen/<str:token>/", views.screen, name="poker-room-screen"),
    path("poker-room/screen/<str:token>/display.json", views.screen_json, name="poker-room-screen-json"),
    path("poker-room/<int:tournament_id>/display/", views.display, name="poker-room-display"),
    path("poker-room/<int:tournament_id>/display.json", views.display_json, name="poker-room-display-json"),
]

api_urlpatterns: list[URLPattern] = [
    path("tournaments/<int:tournament_id>/display/", apis.DisplayApi.as_view(), name="api-tournament-display"),
]
