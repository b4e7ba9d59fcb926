from __future__ import annotations

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players and rated play"

    def ready(self) -> None:
        # The receiver and the check read the models: connected once the apps are ready.
        from casino.verify import kept_check_register
        from players.rating import buy_in_rate, table_closing_refuse
        from players.verify import sessions_kept_check
        from tables.services import table_close_vetoes
        from tables.signals import buy_in_recorded

        buy_in_recorded.connect(buy_in_rate, dispatch_uid="players.buy_in_rate")
        table_close_vetoes.register("rated players seated", table_closing_refuse)
        kept_check_register("rating sessions' sums", sessions_kept_check)
