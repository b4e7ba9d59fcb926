"""Writes of the pit: building a closed shift's reports (issue 8)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from casino.models import Shift
from pit import report_pdf, reports
from settlement.models import ShiftReport


def shift_report_build(*, shift: Shift, kind: str) -> ShiftReport:
    """Build a closed shift's report of one kind (issue 8): idempotent, and never half written.

    * Only a closed shift is reported on (``WrongState`` otherwise): its rounds can no longer change.
    * A ``ready`` report is returned as it is: building again changes nothing.
    * Otherwise a ``building`` row marks the work, the figures, CSV, HTML and PDF are built in memory from
      the ledger and the audit log (``pit.reports``), and one transaction writes them and turns the
      row ``ready``, with its audit event: a crash before that leaves the ``building`` row, finished by the
      next run. The figures hold nothing of the build, so the same shift gives the same ``content_hash``.
    """
    if kind not in ShiftReport.Kind.values:
        raise ApplicationError(f"There is no {kind!r} report: ask for one of {', '.join(ShiftReport.Kind.values)}.")
    shift = Shift.objects.select_related("gaming_day").get(pk=shift.pk)
    if shift.closed_at is None:
        raise WrongState(f"The {shift.name} shift is still open: its reports are built once it is closed.")
    existing = ShiftReport.objects.filter(shift=shift, kind=kind).first()
    if existing is not None and existing.status == ShiftReport.Status.READY:
        return existing
    if existing is None:
        try:
            with transaction.atomic():
                ShiftReport.objects.create(shift=shift, kind=kind)
        except IntegrityError:  # another worker started the same report: its row is reused below
            pass
    data, csv_text, html, digest = reports.report_render(shift=shift, kind=kind)
    pdf = report_pdf.render_pdf(data, digest)
    with transaction.atomic():
        report = ShiftReport.objects.select_for_update().get(shift=shift, kind=kind)
        if report.status == ShiftReport.Status.READY:  # another worker finished it meanwhile
            return report
        report.data = data
        report.csv = csv_text
        report.html = html
        report.pdf = pdf
        report.content_hash = digest
        report.status = ShiftReport.Status.READY
        report.finished_at = timezone.now()
        report.save(update_fields=["data", "csv", "html", "pdf", "content_hash", "status", "finished_at"])
        audit_event_record(
            actor=None,
            event_type=AuditEventType.SHIFT_REPORT_BUILT,
            subject=report,
            after={"shift": shift.pk, "kind": kind, "content_hash": digest},
        )
    return report
