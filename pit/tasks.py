"""Celery tasks of the pit: the shift's reports, and the floor's clock. Each takes plain arguments and calls a
service or selector. Their names are the ones they were registered under before the pit app had them
(``settlement.…``, ``casino.…``): a name is what a queued message and the beat schedule carry.

``shift_boundaries`` runs from Celery beat every 5 minutes (``CELERY_BEAT_SCHEDULE`` in ``config.settings``;
start beat with ``make run-beat``, beside ``make run-worker``). It reads ``SHIFT_HOURS`` (default 8).
"""

from __future__ import annotations

import datetime as dt
import logging

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from casino.errors import WrongState
from casino.models import Shift
from casino.selectors import shift_current
from casino.services import shift_close
from pit.report_selectors import shifts_needing_reports
from pit.services import CountPending, shift_report_build
from settlement.models import ShiftReport

logger = logging.getLogger(__name__)


@shared_task(name="settlement.shift_reports_build")
def shift_reports_build(shift_id: int) -> dict[str, str]:
    """Build a closed shift's reports (and its Master Game Report); answer each kind's content
    hash, or for the Master Game Report while the count is not done ``waiting: `` and why (not an error: it is
    queued again when the count's last box is final, ``pit.signals``).

    Idempotent, as ``shift_report_build`` is: a retry, or a run after a worker died, finishes what is
    missing and leaves the ready reports as they are.
    """
    shift = Shift.objects.get(pk=shift_id)
    answer: dict[str, str] = {}
    for kind in ShiftReport.Kind.values:
        try:
            answer[kind] = shift_report_build(shift=shift, kind=kind).content_hash
        except CountPending as exc:
            answer[kind] = f"waiting: {exc.message}"
    return answer


@shared_task(name="casino.shift_boundaries")
def shift_boundaries() -> dict[str, object]:
    """The floor's clock (Celery beat, every 5 minutes).

    * The open shift, once it has run longer than ``SHIFT_HOURS``, is closed by the system (actor ``None``,
      as the audit log records it); the close enqueues its reports on commit. No shift is opened: a supervisor
      opens the next one.
    * Every closed shift missing a ready report (never built, or left ``building`` by a crash or a dead worker)
      gets it built (``shift_report_build`` is idempotent). One shift's failure is logged and does not stop the
      others; the next run tries again. A Master Game Report waiting for the count is neither built nor a failure.

    Answers the closed shift's id (or None) and, per shift id, the report kinds built.
    """
    closed_id: int | None = None
    shift = shift_current()
    if shift is not None and shift.opened_at <= timezone.now() - dt.timedelta(hours=settings.SHIFT_HOURS):
        try:
            closed_id = shift_close(actor=None, shift=shift).pk
        except WrongState as exc:  # closed meanwhile by a supervisor, or a round of it still being played
            logger.warning(
                "Could not close the %s shift (id %s), open longer than %s hours: %s The next run tries again.",
                shift.name,
                shift.pk,
                settings.SHIFT_HOURS,
                exc.message,
            )
        else:
            logger.info(
                "Closed the %s shift (id %s): open longer than %s hours", shift.name, shift.pk, settings.SHIFT_HOURS
            )

    built: dict[str, list[str]] = {}
    failed: list[int] = []
    for needing in shifts_needing_reports():
        ready = set(needing.reports.filter(status=ShiftReport.Status.READY).values_list("kind", flat=True))
        for kind in ShiftReport.Kind.values:
            if kind in ready:
                continue
            try:
                shift_report_build(shift=needing, kind=kind)
            except CountPending:
                continue
            except Exception:
                logger.exception(
                    "Building the %s report of shift %s failed; the next run tries again", kind, needing.pk
                )
                failed.append(needing.pk)
                break
            built.setdefault(str(needing.pk), []).append(kind)
    return {"closed_shift": closed_id, "built": built, "failed": failed}
