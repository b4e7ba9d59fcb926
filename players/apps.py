from __future__ import annotations

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players and rated play"

    def ready(self) -> None:
        # The receivers import models: connected once the apps are ready.
        from players.rating import buy_in_rate, round_settled_rate, table_closing_refuse
        from settlement.signals import round_settled
        from tables.signals import buy_in_recorded, table_closing

        round_settled.connect(round_settled_rate, dispatch_uid="players.round_settled_rate")
        buy_in_recorded.connect(buy_in_rate, dispatch_uid="players.buy_in_rate")
        table_closing.connect(table_closing_refuse, dispatch_uid="players.table_closing_refuse")
