"""URLs of the poker room (issue 18): its pages (``page_urlpatterns``) and its REST API under ``/api/``
(``api_urlpatterns``), both included by ``config.urls``."""

from __future__ import annotations

from django.urls import URLPattern, path

from poker_room import deal_urls, display_views, heads_up_urls, league_urls, ofc_urls
from poker_room.tournaments import urls as tournaments_urls

page_urlpatterns: list[URLPattern] = [
    # The room display: the TV's signed address (no sign-in), and the staff's by the tournament's id.
    path("poker-room/screen/<str:token>/", display_views.screen, name="poker-room-screen"),
    path("poker-room/screen/<str:token>/display.json", display_views.screen_json, name="poker-room-screen-json"),
    path("poker-room/<int:tournament_id>/display/", display_views.display, name="poker-room-display"),
    path("poker-room/<int:tournament_id>/display.json", display_views.display_json, name="poker-room-display-json"),
    *tournaments_urls.page_urlpatterns,
    # Issue 19: deals, heads-up brackets, Open-Face points events, leagues and the Master Class.
    *deal_urls.page_urlpatterns,
    *heads_up_urls.page_urlpatterns,
    *ofc_urls.page_urlpatterns,
    *league_urls.page_urlpatterns,
]

api_urlpatterns: list[URLPattern] = [
    *tournaments_urls.api_urlpatterns,
    *deal_urls.api_urlpatterns,
    *heads_up_urls.api_urlpatterns,
    *ofc_urls.api_urlpatterns,
    *league_urls.api_urlpatterns,
]
