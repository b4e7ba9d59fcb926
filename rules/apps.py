from __future__ import annotations

from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"
    verbose_name = "House rules"

    def ready(self) -> None:
        # The lab's task is registered with Celery in every process: run eagerly (no broker), the web plays it itself.
        from rules import tasks  # noqa: F401
