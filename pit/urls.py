"""URLs of the pit: the floor, the pit-boss dashboard, the reports (pages), and the shifts with their reports
under ``/api/`` (``api_urlpatterns``)."""

from __future__ import annotations

from django.urls import path

from pit import apis as report_apis
from pit import cage_views, count_views, day_views, lab_views, player_views, report_views, setup_views, views
from pit import credit_views as credit_pages
from pit import dealer_performance_apis as dealer_apis
from pit import dealer_performance_views as dealer_pages
from pit import rotation_views as rotation_pages

page_urlpatterns = [
    path("", views.floor, name="floor"),
    path("pit/", views.pit, name="pit-dashboard"),
    path("pit/live/", views.pit_live, name="pit-dashboard-live"),
    path("pit/tables/<int:table_id>/", views.pit_table_history, name="pit-table-history"),
    path("pit/adjustments/<int:adjustment_id>/", views.pit_adjustment, name="pit-adjustment"),
    path("pit/rounds/<int:round_id>/correct/", views.pit_round_correct, name="pit-round-correct"),
    path("pit/adjustments/<int:adjustment_id>/approve/", views.pit_adjustment_approve, name="pit-adjustment-approve"),
    path("pit/adjustments/<int:adjustment_id>/reject/", views.pit_adjustment_reject, name="pit-adjustment-reject"),
    # The dashboard's "Close shift": the gaming-day page's close, which lands there (the next shift opens there).
    path("pit/shifts/<int:shift_id>/close/", day_views.day_shift_close, name="pit-shift-close"),
    path("pit/day/", day_views.day, name="pit-day"),
    path("pit/day/open/", day_views.day_open, name="pit-day-open"),
    path("pit/day/<int:gaming_day_id>/close/", day_views.day_close, name="pit-day-close"),
    path("pit/day/shifts/open/", day_views.day_shift_open, name="pit-shift-open"),
    path("pit/day/shifts/<int:shift_id>/close/", day_views.day_shift_close, name="pit-day-shift-close"),
    path("pit/tables/<int:table_id>/setup/", setup_views.table_setup, name="pit-table-setup"),
    path("pit/tables/<int:table_id>/setup/peer/", setup_views.table_setup_peer, name="pit-table-setup-peer"),
    path("reports/", report_views.reports, name="reports"),
    path("reports/<int:report_id>/<str:fmt>/", report_views.report_download, name="report-download"),
    path("reports/shifts/<int:shift_id>/master-game/", report_views.master_game_build, name="report-master-game-build"),
    path("reports/shifts/<int:shift_id>/ratings/", report_views.rating_report_build, name="report-ratings-build"),
    # The table's money: the cage's queue, the slip PDF, the count room.
    path("cage/", cage_views.cage, name="cage"),
    path("cage/slips/<int:slip_id>/issue/", cage_views.cage_slip_issue, name="cage-slip-issue"),
    path("cage/slips/<int:slip_id>/void/", cage_views.cage_slip_void, name="cage-slip-void"),
    path("slips/<int:slip_id>/pdf/", cage_views.slip_pdf_download, name="slip-pdf"),
    # Credit at the table: the cage's markers (the outstanding-markers report), a player's credit page.
    path("cage/markers/", credit_pages.cage_markers, name="cage-markers"),
    path("cage/markers.csv", credit_pages.markers_outstanding_csv, name="cage-markers-csv"),
    path("cage/markers/<int:marker_id>/redeem/", credit_pages.cage_marker_redeem, name="cage-marker-redeem"),
    path("cage/markers/<int:marker_id>/returned/", credit_pages.cage_marker_returned, name="cage-marker-returned"),
    path("players/<int:player_id>/credit/", credit_pages.player_credit_view, name="player-credit"),
    path("players/<int:player_id>/credit/line/", credit_pages.credit_line_view, name="player-credit-line"),
    path(
        "players/<int:player_id>/credit/changes/<int:change_id>/",
        credit_pages.credit_change_view,
        name="player-credit-change",
    ),
    path("count/", count_views.count, name="count"),
    path("count/<int:shift_id>/<int:table_id>/", count_views.count_record, name="count-record"),
    # Players and rated play: the list with its search and enrolment, a player's page.
    path("players/", player_views.players, name="players"),
    path("players/enrol/", player_views.player_enrol, name="player-enrol"),
    path("players/<int:player_id>/", player_views.player, name="player"),
    path("players/<int:player_id>/anonymise/", player_views.player_anonymise_view, name="player-anonymise"),
    # The dealers' figures: every dealer in a shift, one dealer's last shifts, a dealer's own pace.
    path("pit/dealers/", dealer_pages.dealers, name="pit-dealers"),
    path("pit/dealers/<int:dealer_id>/", dealer_pages.dealer, name="pit-dealer"),
    path("pace/", dealer_pages.dealer_pace, name="dealer-pace"),
    # Dealer rotation: strings of tables, clock-ins, pushes and breaks.
    path("pit/rotation/", rotation_pages.rotation, name="pit-rotation"),
    path("pit/rotation/clock-in/", rotation_pages.clock_in_view, name="pit-rotation-clock-in"),
    path("pit/rotation/clock-out/", rotation_pages.clock_out_view, name="pit-rotation-clock-out"),
    path("pit/rotation/strings/", rotation_pages.string_new_view, name="pit-rotation-string-new"),
    path("pit/rotation/strings/<int:string_id>/start/", rotation_pages.string_start_view, name="pit-rotation-start"),
    path("pit/rotation/tables/<int:table_id>/push/", rotation_pages.push_view, name="pit-rotation-push"),
    # The game-math lab: a rule set's house edges, simulated or counted exactly by a task.
    path("pit/lab/", lab_views.lab, name="pit-lab"),
    path("pit/lab/start/", lab_views.lab_start, name="pit-lab-start"),
    path("pit/lab/runs/<int:run_id>/", lab_views.lab_run, name="pit-lab-run"),
    path("pit/lab/runs/<int:run_id>/progress/", lab_views.lab_run_progress_json, name="pit-lab-run-progress"),
    path("pit/lab/runs/<int:run_id>/chart.png", lab_views.lab_run_chart, name="pit-lab-run-chart"),
]

api_urlpatterns = [
    path("gaming-days/", report_apis.GamingDayListApi.as_view(), name="api-gaming-day-list"),
    path(
        "gaming-days/<int:gaming_day_id>/close/", report_apis.GamingDayCloseApi.as_view(), name="api-gaming-day-close"
    ),
    path("shifts/", report_apis.ShiftListApi.as_view(), name="api-shift-list"),
    path("shifts/<int:shift_id>/close/", report_apis.ShiftCloseApi.as_view(), name="api-shift-close"),
    path("shifts/<int:shift_id>/reports/", report_apis.ShiftReportListApi.as_view(), name="api-shift-reports"),
    path(
        "shifts/<int:shift_id>/reports/master-game/",
        report_apis.ShiftMasterGameBuildApi.as_view(),
        name="api-shift-master-game-build",
    ),
    path(
        "shifts/<int:shift_id>/reports/ratings/",
        report_apis.ShiftRatingReportBuildApi.as_view(),
        name="api-shift-ratings-build",
    ),
    path("shifts/<int:shift_id>/dealers/", dealer_apis.ShiftDealersApi.as_view(), name="api-shift-dealers"),
    path("dealers/me/pace/", dealer_apis.OwnPaceApi.as_view(), name="api-own-pace"),
    # ``file_format``, not ``format``: DRF reads a ``format`` argument as a renderer choice and would 404 on csv.
    path(
        "reports/<int:report_id>/<str:file_format>/", report_apis.ShiftReportFileApi.as_view(), name="api-report-file"
    ),
]
