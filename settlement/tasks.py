"""Celery tasks of settlement. Each takes plain arguments and calls a service."""

from __future__ import annotations

from celery import shared_task

from casino.models import Shift
from settlement.models import ShiftReport
from settlement.services import shift_report_build


@shared_task(name="settlement.shift_reports_build")
def shift_reports_build(shift_id: int) -> dict[str, str]:
    """Build a closed shift's three reports (issue 8); answer each kind's content hash.

    Idempotent, as ``shift_report_build`` is: a retry, or a run after a worker died, finishes what is
    missing and leaves the ready reports as they are.
    """
    shift = Shift.objects.get(pk=shift_id)
    return {kind: shift_report_build(shift=shift, kind=kind).content_hash for kind in ShiftReport.Kind.values}
