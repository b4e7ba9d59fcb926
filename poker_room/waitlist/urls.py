"""URLs of the card room's waitlist: the desk and the room display with its kiosk (``page_urlpatterns``), and the
REST API (``api_urlpatterns``). Included by ``poker_room.urls``."""

from __future__ import annotations

from django.urls import URLPattern, path

from poker_room.waitlist import apis, views

page_urlpatterns: list[URLPattern] = [
    path("poker-room/waitlist/", views.desk, name="poker-room-waitlist"),
    path("poker-room/waitlist/screen/<str:token>/", views.screen, name="poker-room-waitlist-screen"),
]

api_urlpatterns: list[URLPattern] = [
    path("cash-games/", apis.CashGameListApi.as_view(), name="api-cash-games"),
    path("cash-games/<int:cash_game_id>/close/", apis.CashGameCloseApi.as_view(), name="api-cash-game-close"),
    path("cash-games/<int:cash_game_id>/tables/", apis.CashTableAddApi.as_view(), name="api-cash-game-tables"),
    path("cash-games/<int:cash_game_id>/entries/", apis.WaitlistPutDownApi.as_view(), name="api-cash-game-entries"),
    path("cash-games/<int:cash_game_id>/call/", apis.WaitlistCallApi.as_view(), name="api-cash-game-call"),
    path("cash-games/<int:cash_game_id>/move/", apis.WaitlistMoveApi.as_view(), name="api-cash-game-move"),
    path("cash-tables/<int:cash_table_id>/remove/", apis.CashTableRemoveApi.as_view(), name="api-cash-table-remove"),
    path("waitlist-entries/<int:entry_id>/seat/", apis.WaitlistSeatApi.as_view(), name="api-waitlist-seat"),
    path("waitlist-entries/<int:entry_id>/no-show/", apis.WaitlistNoShowApi.as_view(), name="api-waitlist-no-show"),
    path("waitlist-entries/<int:entry_id>/leave/", apis.WaitlistLeaveApi.as_view(), name="api-waitlist-leave"),
    path("waitlist-entries/<int:entry_id>/remove/", apis.WaitlistRemoveApi.as_view(), name="api-waitlist-remove"),
]
