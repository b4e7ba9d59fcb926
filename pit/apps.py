from __future__ import annotations

from django.apps import AppConfig


class PitConfig(AppConfig):
    name = "pit"
    verbose_name = "Pit: dashboard and reports"

    def ready(self) -> None:
        # The receivers import models: loaded once the apps are.
        from casino.signals import shift_closed
        from pit.signals import master_game_enqueue, shift_reports_enqueue
        from tables.signals import drop_box_final

        shift_closed.connect(shift_reports_enqueue, dispatch_uid="pit.shift_reports_enqueue")
        drop_box_final.connect(master_game_enqueue, dispatch_uid="pit.master_game_enqueue")
