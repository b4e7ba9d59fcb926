"""URLs of the poker room's heads-up pages and API (issue 19), included by poker_room.urls."""

from __future__ import annotations

from django.urls import URLPattern, path

from poker_room import heads_up_apis, match_views

page_urlpatterns: list[URLPattern] = [
    path("poker-room/<int:tournament_id>/bracket/", match_views.bracket_page, name="poker-room-bracket"),
    path("poker-room/<int:tournament_id>/bracket/draw/", match_views.bracket_draw_view, name="poker-room-bracket-draw"),
    path("poker-room/<int:tournament_id>/matches/<int:match_id>/", match_views.match_view, name="poker-room-match"),
    path(
        "poker-room/<int:tournament_id>/matches/<int:match_id>/<str:action>/",
        match_views.match_action_view,
        name="poker-room-match-action",
    ),
]

_TOURNAMENT = "tournaments/<int:tournament_id>/"
_MATCH = _TOURNAMENT + "matches/<int:match_id>/"
api_urlpatterns: list[URLPattern] = [
    path(_TOURNAMENT + "bracket/", heads_up_apis.BracketApi.as_view(), name="api-tournament-bracket"),
    path(_MATCH + "hand/", heads_up_apis.MatchHandApi.as_view(), name="api-tournament-match-hand"),
    path(_MATCH + "decide/", heads_up_apis.MatchDecideApi.as_view(), name="api-tournament-match-decide"),
    path(_MATCH + "undo/", heads_up_apis.MatchUndoApi.as_view(), name="api-tournament-match-undo"),
]
