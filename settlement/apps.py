from __future__ import annotations

from django.apps import AppConfig


class SettlementConfig(AppConfig):
    name = "settlement"
    verbose_name = "Settlement and ledger"

    def ready(self) -> None:
        from casino.signals import shift_closing
        from settlement.services.rounds import shift_close_refuse  # the receivers import models: loaded once ready

        shift_closing.connect(shift_close_refuse, dispatch_uid="settlement.shift_close_refuse")

        from settlement.table_money import chips_moved_post
        from tables.signals import chips_moved

        chips_moved.connect(chips_moved_post, dispatch_uid="settlement.chips_moved_post")
