from __future__ import annotations

from django.apps import AppConfig


class PokerRoomConfig(AppConfig):
    name = "poker_room"
    verbose_name = "The poker room"

    def ready(self) -> None:
        # The check reads the models: registered once the apps are ready.
        from ledger.verify import ledger_check_register
        from poker_room.tournaments.verify import tournament_ledger_check

        ledger_check_register("tournaments", tournament_ledger_check, scoped=False)
