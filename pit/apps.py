from __future__ import annotations

from django.apps import AppConfig


class PitConfig(AppConfig):
    name = "pit"
    verbose_name = "Pit: dashboard and reports"

    def ready(self) -> None:
        from casino.signals import shift_closed
        from pit.signals import shift_reports_enqueue  # the receivers import models: loaded once the apps are

        shift_closed.connect(shift_reports_enqueue, dispatch_uid="pit.shift_reports_enqueue")
