"""URLs of rated play under ``/api/``: players, their rating sessions and the floor's alerts."""

from __future__ import annotations

from django.urls import path

from players import apis, credit_apis

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
    # Credit at the table: players/credit_apis.py.
    path("players/<int:player_id>/credit/", credit_apis.PlayerCreditApi.as_view(), name="api-player-credit"),
    path("players/<int:player_id>/credit-line/", credit_apis.CreditLineApi.as_view(), name="api-credit-line"),
    path(
        "credit-changes/<int:change_id>/decide/",
        credit_apis.CreditChangeDecideApi.as_view(),
        name="api-credit-change-decide",
    ),
    path("tables/<int:table_id>/markers/", credit_apis.TableMarkersApi.as_view(), name="api-table-markers"),
    path("markers/", credit_apis.MarkersOutstandingApi.as_view(), name="api-markers-outstanding"),
    path("markers/<int:marker_id>/", credit_apis.MarkerDetailApi.as_view(), name="api-marker-detail"),
    path("markers/<int:marker_id>/issue/", credit_apis.MarkerIssueApi.as_view(), name="api-marker-issue"),
    path("markers/<int:marker_id>/void/", credit_apis.MarkerVoidApi.as_view(), name="api-marker-void"),
    path("markers/<int:marker_id>/redeem/", credit_apis.MarkerRedeemApi.as_view(), name="api-marker-redeem"),
    path(
        "markers/<int:marker_id>/cheque-returned/",
        credit_apis.MarkerChequeReturnedApi.as_view(),
        name="api-marker-cheque-returned",
    ),
]
