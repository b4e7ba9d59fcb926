from __future__ import annotations

from django.apps import AppConfig


class SettlementConfig(AppConfig):
    name = "settlement"
    verbose_name = "Settlement and ledger"

    def ready(self) -> None:
        from casino.signals import shift_closing
        from settlement.services.rounds import shift_close_refuse  # the receivers import models: loaded once ready

        shift_closing.connect(shift_close_refuse, dispatch_uid="settlement.shift_close_refuse")

        from ledger.verify import ledger_check_register
        from settlement.verify import rounds_ledger_check

        ledger_check_register("rounds", rounds_ledger_check, scoped=True)
