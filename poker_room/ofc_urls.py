"""URLs of the poker room's Open-Face points pages and API (issue 19), included by poker_room.urls."""

from __future__ import annotations

from django.urls import URLPattern, path

from poker_room import ofc_apis, ofc_views

_PAGE = "poker-room/<int:tournament_id>/ofc/"
page_urlpatterns: list[URLPattern] = [
    path(_PAGE + "tables/<int:number>/", ofc_views.ofc_table_view, name="poker-room-ofc-table"),
    path(_PAGE + "tables/<int:number>/hands/", ofc_views.ofc_hand_view, name="poker-room-ofc-hand"),
    path(
        _PAGE + "tables/<int:number>/hands/<int:hand_id>/void/",
        ofc_views.ofc_void_view,
        name="poker-room-ofc-void",
    ),
    path(_PAGE + "rounds/", ofc_views.ofc_round_view, name="poker-room-ofc-round"),
    path(_PAGE + "finish/", ofc_views.ofc_finish_view, name="poker-room-ofc-finish"),
    path(_PAGE + "standings/", ofc_views.ofc_standings_view, name="poker-room-ofc-standings"),
]

_API = "tournaments/<int:tournament_id>/ofc/"
api_urlpatterns: list[URLPattern] = [
    path(_API + "rounds/", ofc_apis.OfcRoundApi.as_view(), name="api-tournament-ofc-rounds"),
    path(_API + "tables/<int:table_number>/hands/", ofc_apis.OfcHandApi.as_view(), name="api-tournament-ofc-hands"),
    path(
        _API + "hands/<int:hand_id>/void/",
        ofc_apis.OfcHandVoidApi.as_view(),
        name="api-tournament-ofc-hand-void",
    ),
    path(_API + "standings/", ofc_apis.OfcStandingsApi.as_view(), name="api-tournament-ofc-standings"),
    path(_API + "finish/", ofc_apis.OfcFinishApi.as_view(), name="api-tournament-ofc-finish"),
]
