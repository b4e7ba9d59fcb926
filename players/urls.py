"""URLs of rated play under ``/api/``: players, their rating sessions and the floor's alerts."""

from __future__ import annotations

from django.urls import path

from players import apis

api_urlpatterns = [
    path("players/", apis.PlayerListApi.as_view(), name="api-player-list"),
    path("players/<int:player_id>/", apis.PlayerDetailApi.as_view(), name="api-player-detail"),
    path("players/<int:player_id>/anonymise/", apis.PlayerAnonymiseApi.as_view(), name="api-player-anonymise"),
    path("rating-sessions/", apis.SessionStartApi.as_view(), name="api-rating-session-start"),
    path("rating-sessions/<int:session_id>/", apis.SessionDetailApi.as_view(), name="api-rating-session-detail"),
    path("rating-sessions/<int:session_id>/pause/", apis.SessionPauseApi.as_view(), name="api-rating-session-pause"),
    path("rating-sessions/<int:session_id>/resume/", apis.SessionResumeApi.as_view(), name="api-rating-session-resume"),
    path("rating-sessions/<int:session_id>/move/", apis.SessionMoveApi.as_view(), name="api-rating-session-move"),
    path("rating-sessions/<int:session_id>/end/", apis.SessionEndApi.as_view(), name="api-rating-session-end"),
    path("tables/<int:table_id>/rating-sessions/", apis.TableSessionsApi.as_view(), name="api-table-rating-sessions"),
    path("rating-alerts/", apis.AlertsApi.as_view(), name="api-rating-alerts"),
]
