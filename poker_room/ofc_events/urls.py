"""URLs of the Open-Face points pages (a table's tablet, the rounds, the finish, the standings) and their REST API,
included by ``poker_room.urls``."""

from __future__ import annotations

from django.urls import URLPattern, path

from poker_room.ofc_events import apis, views

_PAGE = "poker-room/<int:tournament_id>/ofc/"
page_urlpatterns: list[URLPattern] = [
    path(_PAGE + "tables/<int:number>/", views.ofc_table_view, name="poker-room-ofc-table"),
    path(_PAGE + "tables/<int:number>/hands/", views.ofc_hand_view, name="poker-room-ofc-hand"),
    path(
        _PAGE + "tables/<int:number>/hands/<int:hand_id>/void/",
        views.ofc_void_view,
        name="poker-room-ofc-void",
    ),
    path(_PAGE + "rounds/", views.ofc_round_view, name="poker-room-ofc-round"),
    path(_PAGE + "finish/", views.ofc_finish_view, name="poker-room-ofc-finish"),
    path(_PAGE + "standings/", views.ofc_standings_view, name="poker-room-ofc-standings"),
]

_API = "tournaments/<int:tournament_id>/ofc/"
api_urlpatterns: list[URLPattern] = [
    path(_API + "rounds/", apis.OfcRoundApi.as_view(), name="api-tournament-ofc-rounds"),
    path(_API + "tables/<int:table_number>/hands/", apis.OfcHandApi.as_view(), name="api-tournament-ofc-hands"),
    path(
        _API + "hands/<int:hand_id>/void/",
        apis.OfcHandVoidApi.as_view(),
        name="api-tournament-ofc-hand-void",
    ),
    path(_API + "standings/", apis.OfcStandingsApi.as_view(), name="api-tournament-ofc-standings"),
    path(_API + "finish/", apis.OfcFinishApi.as_view(), name="api-tournament-ofc-finish"),
]
