from __future__ import annotations

from django.apps import AppConfig


class SettlementConfig(AppConfig):
    name = "settlement"
    verbose_name = "Settlement"

    def ready(self) -> None:
        # The check reads the models: registered once the apps are ready.
        from ledger.verify import ledger_check_register
        from settlement.verify import rounds_ledger_check

        ledger_check_register("rounds", rounds_ledger_check, scoped=True)
