from __future__ import annotations

from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables"

    def ready(self) -> None:
        # The checks read the models: registered once the apps are ready.
        from casino.services import shift_close_vetoes
        from ledger.verify import ledger_check_register
        from tables.closing import shift_close_refuse_money
        from tables.verify import table_money_ledger_check

        shift_close_vetoes.register("the table's money", shift_close_refuse_money)
        ledger_check_register("table money", table_money_ledger_check, scoped=False)
