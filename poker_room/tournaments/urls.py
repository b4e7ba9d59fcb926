"""URLs of the chip tournaments: the director's console and its pages, the dealer's tournament table
(``page_urlpatterns``), and their REST API (``api_urlpatterns``), included by ``poker_room.urls``."""

from __future__ import annotations

from django.urls import URLPattern, path

from poker_room.tournaments import apis, clock_apis, entry_apis, setup_views, table_apis, table_views, views

page_urlpatterns: list[URLPattern] = [
    path("poker-room/", views.tournaments, name="poker-room"),
    path("poker-room/new/", views.tournament_new, name="poker-room-new"),
    path("poker-room/<int:tournament_id>/", views.console_view, name="poker-room-console"),
    path("poker-room/<int:tournament_id>/clock/<str:action>/", views.clock_view, name="poker-room-clock"),
    path("poker-room/<int:tournament_id>/entries/", views.entry_register_view, name="poker-room-register"),
    path(
        "poker-room/<int:tournament_id>/entries/<int:entry_id>/<str:action>/",
        views.entry_action_view,
        name="poker-room-entry",
    ),
    path("poker-room/<int:tournament_id>/bust/", views.bust_view, name="poker-room-bust"),
    path(
        "poker-room/<int:tournament_id>/eliminations/<int:elimination_id>/undo/",
        views.elimination_undo_view,
        name="poker-room-undo",
    ),
    path("poker-room/<int:tournament_id>/tables/", views.tables_count_view, name="poker-room-tables"),
    path("poker-room/<int:tournament_id>/tables/<int:number>/", table_views.table_view, name="poker-room-table"),
    path(
        "poker-room/<int:tournament_id>/tables/<int:number>/dealer/",
        views.table_dealer_view,
        name="poker-room-table-dealer",
    ),
    path(
        "poker-room/<int:tournament_id>/tables/<int:number>/button/",
        table_views.table_button_view,
        name="poker-room-table-button",
    ),
    path(
        "poker-room/<int:tournament_id>/tables/<int:number>/bust/",
        table_views.table_bust_view,
        name="poker-room-table-bust",
    ),
    path(
        "poker-room/<int:tournament_id>/tables/<int:number>/hand/",
        table_views.table_hand_view,
        name="poker-room-table-hand",
    ),
    path("poker-room/<int:tournament_id>/settings/<str:group>/", setup_views.settings_view, name="poker-room-settings"),
    path("poker-room/<int:tournament_id>/structure/", setup_views.structure_view, name="poker-room-structure"),
    path(
        "poker-room/<int:tournament_id>/structure/generate/",
        setup_views.structure_generate_view,
        name="poker-room-structure-generate",
    ),
    path("poker-room/<int:tournament_id>/payouts/", setup_views.payouts_view, name="poker-room-payouts"),
    path("poker-room/<int:tournament_id>/results/", setup_views.results_view, name="poker-room-results"),
    path("poker-room/<int:tournament_id>/results.csv", setup_views.results_csv, name="poker-room-results-csv"),
    path("poker-room/<int:tournament_id>/chip-race/", setup_views.chip_race_view, name="poker-room-chip-race"),
]

# The REST API: entries by their number in the tournament, as the director says them.
_TOURNAMENT = "tournaments/<int:tournament_id>/"
_ENTRY = _TOURNAMENT + "entries/<int:entry_number>/"
_TABLE = _TOURNAMENT + "tables/<int:table_number>/"
api_urlpatterns: list[URLPattern] = [
    path("tournaments/", apis.TournamentListApi.as_view(), name="api-tournament-list"),
    path("tournament-templates/", apis.TemplateListApi.as_view(), name="api-tournament-templates"),
    path(_TOURNAMENT, apis.TournamentDetailApi.as_view(), name="api-tournament-detail"),
    path(_TOURNAMENT + "structure/", apis.StructureApi.as_view(), name="api-tournament-structure"),
    path(_TOURNAMENT + "payouts/", apis.PayoutsApi.as_view(), name="api-tournament-payouts"),
    path(_TOURNAMENT + "tables/", table_apis.TablesApi.as_view(), name="api-tournament-tables"),
    path(_TOURNAMENT + "start/", apis.StartApi.as_view(), name="api-tournament-start"),
    path(_TOURNAMENT + "clock/start/", clock_apis.ClockStartApi.as_view(), name="api-tournament-clock-start"),
    path(_TOURNAMENT + "clock/pause/", clock_apis.ClockPauseApi.as_view(), name="api-tournament-clock-pause"),
    path(_TOURNAMENT + "clock/resume/", clock_apis.ClockResumeApi.as_view(), name="api-tournament-clock-resume"),
    path(_TOURNAMENT + "clock/skip/", clock_apis.ClockSkipApi.as_view(), name="api-tournament-clock-skip"),
    path(_TOURNAMENT + "clock/adjust/", clock_apis.ClockAdjustApi.as_view(), name="api-tournament-clock-adjust"),
    path(_TOURNAMENT + "clock/hand/", clock_apis.ClockHandApi.as_view(), name="api-tournament-clock-hand"),
    path(_TOURNAMENT + "entries/", entry_apis.EntryListApi.as_view(), name="api-tournament-entries"),
    path(_ENTRY + "reenter/", entry_apis.EntryReenterApi.as_view(), name="api-tournament-entry-reenter"),
    path(_ENTRY + "rebuy/", entry_apis.EntryRebuyApi.as_view(), name="api-tournament-entry-rebuy"),
    path(_ENTRY + "addon/", entry_apis.EntryAddonApi.as_view(), name="api-tournament-entry-addon"),
    path(_ENTRY + "eliminate/", entry_apis.EntryEliminateApi.as_view(), name="api-tournament-entry-eliminate"),
    path(
        _TOURNAMENT + "eliminations/<int:elimination_id>/undo/",
        entry_apis.EliminationUndoApi.as_view(),
        name="api-tournament-elimination-undo",
    ),
    path(_TOURNAMENT + "seats/", entry_apis.SeatingApi.as_view(), name="api-tournament-seats"),
    path(_TABLE + "button/", table_apis.TableButtonApi.as_view(), name="api-tournament-table-button"),
    path(_TABLE + "dealer/", table_apis.TableDealerApi.as_view(), name="api-tournament-table-dealer"),
    path(_TOURNAMENT + "results/", entry_apis.ResultsApi.as_view(), name="api-tournament-results"),
]
