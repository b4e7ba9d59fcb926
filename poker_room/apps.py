from __future__ import annotations

from django.apps import AppConfig


class PokerRoomConfig(AppConfig):
    name = "poker_room"
    verbose_name = "The poker room"

    def ready(self) -> None:
        # The receiver reads the models: connected once the apps are ready.
        from poker_room.tournaments.verify import tournament_ledger_check
        from settlement.signals import ledger_verifying

        ledger_verifying.connect(tournament_ledger_check, dispatch_uid="poker_room.tournament_ledger_check")
