"""URLs of the league pages (the leagues, a league, its standings as a PDF, the Master Class) and their REST API,
included by ``poker_room.urls``."""

from __future__ import annotations

from django.urls import URLPattern, path

from poker_room.leagues import apis, views

_LEAGUE = "poker-room/leagues/<int:league_id>/"
page_urlpatterns: list[URLPattern] = [
    path("poker-room/leagues/", views.leagues_view, name="poker-room-leagues"),
    path("poker-room/leagues/new/", views.league_new_view, name="poker-room-league-new"),
    path(_LEAGUE, views.league_view, name="poker-room-league"),
    path(_LEAGUE + "settings/", views.league_settings_view, name="poker-room-league-settings"),
    path(_LEAGUE + "events/", views.league_event_add_view, name="poker-room-league-event-add"),
    path(
        _LEAGUE + "events/<int:tournament_id>/remove/",
        views.league_event_remove_view,
        name="poker-room-league-event-remove",
    ),
    path(_LEAGUE + "master-class/", views.master_class_view, name="poker-room-league-master-class"),
    path(_LEAGUE + "standings.pdf", views.league_pdf_view, name="poker-room-league-pdf"),
]

_API = "leagues/<int:league_id>/"
api_urlpatterns: list[URLPattern] = [
    path("leagues/", apis.LeagueListApi.as_view(), name="api-league-list"),
    path(_API, apis.LeagueDetailApi.as_view(), name="api-league-detail"),
    path(_API + "standings/", apis.LeagueStandingsApi.as_view(), name="api-league-standings"),
    path(_API + "events/", apis.LeagueEventsApi.as_view(), name="api-league-events"),
    path(_API + "master-class/", apis.MasterClassApi.as_view(), name="api-league-master-class"),
]
