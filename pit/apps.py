from __future__ import annotations

from typing import Any

from django.apps import AppConfig


def _shift_reports_enqueue(sender: Any, *, shift: Any, **kwargs: Any) -> None:
    """A shift's close committed: a worker builds its three reports (``pit.tasks.shift_reports_build``)."""
    from pit.tasks import shift_reports_build  # tasks import models: loaded once the apps are ready

    shift_reports_build.delay(shift.pk)


class PitConfig(AppConfig):
    name = "pit"
    verbose_name = "Pit: dashboard and reports"

    def ready(self) -> None:
        from casino.signals import shift_closed

        shift_closed.connect(_shift_reports_enqueue, dispatch_uid="pit.shift_reports_enqueue")
