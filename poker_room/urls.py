"""URLs of the poker room: its pages (``page_urlpatterns``) and its REST API under ``/api/``
(``api_urlpatterns``), both included by ``config.urls``."""

from __future__ import annotations

from django.urls import URLPattern

from poker_room.deals import urls as deal_urls
from poker_room.display import urls as display_urls
from poker_room.heads_up import urls as heads_up_urls
from poker_room.leagues import urls as league_urls
from poker_room.ofc_events import urls as ofc_urls
from poker_room.tournaments import urls as tournaments_urls
from poker_room.waitlist import urls as waitlist_urls

page_urlpatterns: list[URLPattern] = [
    *display_urls.page_urlpatterns,
    *tournaments_urls.page_urlpatterns,
    *deal_urls.page_urlpatterns,
    *heads_up_urls.page_urlpatterns,
    *ofc_urls.page_urlpatterns,
    *league_urls.page_urlpatterns,
    *waitlist_urls.page_urlpatterns,
]

api_urlpatterns: list[URLPattern] = [
    *tournaments_urls.api_urlpatterns,
    *display_urls.api_urlpatterns,
    *deal_urls.api_urlpatterns,
    *heads_up_urls.api_urlpatterns,
    *ofc_urls.api_urlpatterns,
    *league_urls.api_urlpatterns,
    *waitlist_urls.api_urlpatterns,
]
