from __future__ import annotations

from django.apps import AppConfig


class RoundsConfig(AppConfig):
    name = "rounds"
    verbose_name = "Rounds"

    def ready(self) -> None:
        # The checks read the models: registered once the apps are ready.
        from casino.services import shift_close_vetoes
        from rounds.services.transitions import shift_close_refuse, table_close_refuse, table_push_wait
        from tables.services import push_now_vetoes, table_close_vetoes

        shift_close_vetoes.register("rounds in play and requests waiting", shift_close_refuse)
        table_close_vetoes.register("a round in play", table_close_refuse)
        push_now_vetoes.register("a round in play", table_push_wait)
