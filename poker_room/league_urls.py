"""URLs of the poker room's league pages and API (issue 19), included by poker_room.urls."""

from __future__ import annotations

from django.urls import URLPattern, path

from poker_room import league_apis, league_views

_LEAGUE = "poker-room/leagues/<int:league_id>/"
page_urlpatterns: list[URLPattern] = [
    path("poker-room/leagues/", league_views.leagues_view, name="poker-room-leagues"),
    path("poker-room/leagues/new/", league_views.league_new_view, name="poker-room-league-new"),
    path(_LEAGUE, league_views.league_view, name="poker-room-league"),
    path(_LEAGUE + "settings/", league_views.league_settings_view, name="poker-room-league-settings"),
    path(_LEAGUE + "events/", league_views.league_event_add_view, name="poker-room-league-event-add"),
    path(
        _LEAGUE + "events/<int:tournament_id>/remove/",
        league_views.league_event_remove_view,
        name="poker-room-league-event-remove",
    ),
    path(_LEAGUE + "master-class/", league_views.master_class_view, name="poker-room-league-master-class"),
    path(_LEAGUE + "standings.pdf", league_views.league_pdf_view, name="poker-room-league-pdf"),
]

_API = "leagues/<int:league_id>/"
api_urlpatterns: list[URLPattern] = [
    path("leagues/", league_apis.LeagueListApi.as_view(), name="api-league-list"),
    path(_API, league_apis.LeagueDetailApi.as_view(), name="api-league-detail"),
    path(_API + "standings/", league_apis.LeagueStandingsApi.as_view(), name="api-league-standings"),
    path(_API + "events/", league_apis.LeagueEventsApi.as_view(), name="api-league-events"),
    path(_API + "master-class/", league_apis.MasterClassApi.as_view(), name="api-league-master-class"),
]
