from __future__ import annotations

from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables"

    def ready(self) -> None:
        from casino.signals import shift_closing
        from tables.closing import shift_close_refuse_money  # the receiver imports models: loaded once ready

        shift_closing.connect(shift_close_refuse_money, dispatch_uid="tables.shift_close_refuse_money")

        from ledger.verify import ledger_check_register
        from tables.verify import table_money_ledger_check

        ledger_check_register("table money", table_money_ledger_check, scoped=False)
