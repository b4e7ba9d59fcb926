"""URLs of the heads-up pages (the bracket, a match's tablet) and their REST API, included by ``poker_room.urls``."""

from __future__ import annotations

from django.urls import URLPattern, path

from poker_room.heads_up import apis, views

page_urlpatterns: list[URLPattern] = [
    path("poker-room/<int:tournament_id>/bracket/", views.bracket_page, name="poker-room-bracket"),
    path("poker-room/<int:tournament_id>/bracket/draw/", views.bracket_draw_view, name="poker-room-bracket-draw"),
    path("poker-room/<int:tournament_id>/matches/<int:match_id>/", views.match_view, name="poker-room-match"),
    path(
        "poker-room/<int:tournament_id>/matches/<int:match_id>/<str:action>/",
        views.match_action_view,
        name="poker-room-match-action",
    ),
]

_TOURNAMENT = "tournaments/<int:tournament_id>/"
_MATCH = _TOURNAMENT + "matches/<int:match_id>/"
api_urlpatterns: list[URLPattern] = [
    path(_TOURNAMENT + "bracket/", apis.BracketApi.as_view(), name="api-tournament-bracket"),
    path(_MATCH + "hand/", apis.MatchHandApi.as_view(), name="api-tournament-match-hand"),
    path(_MATCH + "decide/", apis.MatchDecideApi.as_view(), name="api-tournament-match-decide"),
    path(_MATCH + "undo/", apis.MatchUndoApi.as_view(), name="api-tournament-match-undo"),
]
