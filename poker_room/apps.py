from __future__ import annotations

from django.apps import AppConfig


class PokerRoomConfig(AppConfig):
    name = "poker_room"
    verbose_name = "The poker room"

    def ready(self) -> None:
        # The receiver reads the models: connected once the apps are ready.
        from ledger.verify import ledger_check_register
        from poker_room.verify import tournament_ledger_check

        ledger_check_register("tournaments", tournament_ledger_check, scoped=False)
