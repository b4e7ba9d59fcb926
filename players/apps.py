from __future__ import annotations

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players and rated play"

    def ready(self) -> None:
        # The receiver and the check read the models: connected once the apps are ready.
        from casino.verify import kept_check_register
        from ledger.verify import ledger_check_register
        from players.credit import marker_buy_in_voided, marker_counted_receive
        from players.credit_verify import markers_ledger_check
        from players.rating import buy_in_rate, table_closing_refuse
        from players.verify import sessions_kept_check
        from tables.services import table_close_vetoes
        from tables.signals import buy_in_recorded, drop_box_final

        buy_in_recorded.connect(buy_in_rate, dispatch_uid="players.buy_in_rate")
        buy_in_recorded.connect(marker_buy_in_voided, dispatch_uid="players.marker_buy_in_voided")
        drop_box_final.connect(marker_counted_receive, dispatch_uid="players.marker_counted_receive")
        ledger_check_register("markers", markers_ledger_check, scoped=False)
        table_close_vetoes.register("rated players seated", table_closing_refuse)
        kept_check_register("rating sessions' sums", sessions_kept_check)
