"""The task outbox: a Celery task asked for is never lost, and asking never holds a request for long.

``outbox_enqueue`` writes a ``TaskOutbox`` row in the caller's transaction and, once it commits, publishes the
task (``outbox_publish``). A broker that refuses, or does not answer within the Redis timeouts
(``REDIS_SOCKET_TIMEOUT``, ``config.settings``), costs the request at most that long: the row stays unsent with
the error, and ``outbox_flush`` (Celery beat every minute, ``manage.py outbox_flush``) publishes it once the
broker is back. Without a broker (Celery eager, the embedded default) publishing runs the task in-process, as
``delay()`` did.

A task may arrive twice (the publish reached the broker but its answer did not, or a flush and a commit raced):
every task published through the outbox must be idempotent (``pit.tasks.shift_reports_build`` is).

Tasks are named, not imported: the ground imports no app above it, and a name is what a queued message carries.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass

from celery import current_app
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from casino.models import TaskOutbox

logger = logging.getLogger(__name__)

# A row younger than this and never tried may still be publishing on its own commit: a flush leaves it alone.
OUTBOX_GRACE = dt.timedelta(seconds=30)
# One flush publishes at most this many rows; the next takes the rest.
OUTBOX_FLUSH_BATCH = 500


@dataclass(frozen=True)
class FlushReport:
    """What one ``outbox_flush`` did: rows sent, rows left unsent, and the broker's last refusal."""

    sent: int
    waiting: int
    last_error: str

    def describe(self) -> str:
        if not self.sent and not self.waiting:
            return "Every queued task has been sent."
        text = f"Sent {self.sent} queued task{'s' if self.sent != 1 else ''}; {self.waiting} still waiting."
        return f"{text} The broker said: {self.last_error}" if self.waiting and self.last_error else text


def outbox_enqueue(*, task_name: str, args: list[object]) -> TaskOutbox:
    """Ask for the task ``task_name(*args)``: kept in the caller's transaction, published once it commits."""
    row = TaskOutbox.objects.create(task_name=task_name, args=list(args))
    transaction.on_commit(lambda: outbox_publish(row_id=row.pk), robust=True)
    return row


def _publish(row: TaskOutbox) -> None:
    """Hand the task to the broker, or run it here when Celery is eager. Raises whatever the broker raised."""
    if current_app.conf.task_always_eager:
        current_app.tasks[row.task_name].apply(args=row.args, throw=True)
        return
    # retry=False and no result wanted: one try, bounded by the broker's socket timeouts (config.settings).
    current_app.send_task(row.task_name, args=row.args, retry=False, ignore_result=True)


def outbox_publish(*, row_id: int) -> bool:
    """Publish one queued task unless it has been sent; mark it sent, or count the failed attempt. True if sent.

    Never raises for the broker's sake: a refusal is logged and kept on the row for ``outbox_flush``.
    """
    row = TaskOutbox.objects.filter(pk=row_id, sent_at__isnull=True).first()
    if row is None:
        return False
    try:
        _publish(row)
    except Exception as exc:  # the broker down or hanging, or the task failing in-process (eager)
        error = f"{type(exc).__name__}: {exc}"[:2000]
        TaskOutbox.objects.filter(pk=row.pk, sent_at__isnull=True).update(attempts=F("attempts") + 1, last_error=error)
        logger.warning("Could not publish queued task %s (%s), kept for outbox_flush: %s", row.pk, row, error)
        return False
    TaskOutbox.objects.filter(pk=row.pk, sent_at__isnull=True).update(
        sent_at=timezone.now(), attempts=F("attempts") + 1, last_error=""
    )
    return True


def outbox_waiting(*, now: dt.datetime | None = None) -> list[TaskOutbox]:
    """The unsent rows a flush may take, oldest first: every row tried before, and untried ones past the grace."""
    now = now or timezone.now()
    return list(
        TaskOutbox.objects.filter(sent_at__isnull=True)
        .filter(Q(attempts__gt=0) | Q(created_at__lte=now - OUTBOX_GRACE))
        .order_by("pk")[:OUTBOX_FLUSH_BATCH]
    )


def outbox_flush(*, now: dt.datetime | None = None) -> FlushReport:
    """Publish the queued tasks left unsent, oldest first; stop at the broker's first refusal (it is still down:
    the next flush tries again). Eager, a task that fails is kept and the others still run."""
    sent, last_error = 0, ""
    waiting = outbox_waiting(now=now)
    for row in waiting:
        if outbox_publish(row_id=row.pk):
            sent += 1
            continue
        last_error = TaskOutbox.objects.filter(pk=row.pk).values_list("last_error", flat=True).first() or ""
        if not current_app.conf.task_always_eager:  # the broker refused: the rest would wait as long for nothing
            break
    left = TaskOutbox.objects.filter(sent_at__isnull=True).count()
    return FlushReport(sent=sent, waiting=left, last_error=last_error)
