"""``manage.py outbox_flush``: publish the queued tasks the broker could not take when they were asked for."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino.outbox import outbox_flush


class Command(BaseCommand):
    help = (
        "Publish the Celery tasks left unsent in the outbox (the broker was down when they were asked for); "
        "Celery beat does it every minute."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = outbox_flush()
        if report.last_error:  # the broker refused (or, eager, a task failed): say so with a failing exit
            raise CommandError(report.describe())
        self.stdout.write(report.describe())
