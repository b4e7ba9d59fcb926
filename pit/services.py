"""Writes of the pit: building a closed shift's reports (and its Master Game Report)."""

from __future__ import annotations

import time

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from casino.metrics import REPORT_BUILD_SECONDS
from casino.models import Shift
from casino.roles import SUPERVISORS, require_role
from casino.users import Actor
from pit import report_files, report_pdf
from pit.report_selectors import shift_boxes_awaited
from settlement.models import ShiftReport


class CountPending(WrongState):
    """The Master Game Report waits for the count: a drop box the shift expects is not final yet."""


def shift_report_build(
    *,
    shift: Shift,
    kind: str,
    force: bool = False,
    actor: Actor | None = None,
) -> ShiftReport:
    """Build a closed shift's report of one kind: idempotent, and never half written.

    * Only a closed shift is reported on (``WrongState`` otherwise): its rounds can no longer change.
    * A ``ready`` report is returned as it is: building again changes nothing.
    * The Master Game Report needs the drop, which the count team counts after the close: while a box the shift
      expects is not final (``pit.report_selectors.shift_boxes_awaited``) it is not built (``CountPending``,
      naming the boxes; no row is written). ``force`` builds it all the same, for a supervisor (``actor``, a Floor
      supervisor or Pit boss) once the count team says a box is missing: the boxes not final are then its
      drop-variance lines, and the audit event names the supervisor and the boxes.
    * Otherwise a ``building`` row marks the work, the figures, CSV, HTML and PDF are built in memory from
      the ledger and the audit log (``pit.reports``), and one transaction writes them and turns the
      row ``ready``, with its audit event: a crash before that leaves the ``building`` row, finished by the
      next run. The figures hold nothing of the build, so the same shift gives the same ``content_hash``.
    """
    if kind not in ShiftReport.Kind.values:
        raise ApplicationError(
            _("There is no %(kind)s report: ask for one of %(values)s.")
            % {"kind": repr(kind), "values": ", ".join(ShiftReport.Kind.values)}
        )
    if force:
        require_role(actor, *SUPERVISORS, action="build the Master Game Report before the count is done")
        if kind != ShiftReport.Kind.MASTER_GAME:
            raise ApplicationError(_("Only the Master Game Report waits for the count: the others need no forcing."))
    shift = Shift.objects.select_related("gaming_day").get(pk=shift.pk)
    if shift.closed_at is None:
        raise WrongState(
            _("The %(shift)s shift is still open: its reports are built once it is closed.") % {"shift": shift.name}
        )
    existing = ShiftReport.objects.filter(shift=shift, kind=kind).first()
    if existing is not None and existing.status == ShiftReport.Status.READY:
        return existing
    awaited = shift_boxes_awaited(shift=shift) if kind == ShiftReport.Kind.MASTER_GAME else []
    if awaited and not force:
        raise CountPending(
            _(
                "The Master Game Report of the %(shift)s shift waits for the count: %(boxes)s not final "
                "yet. It is built once the count team has counted every box, or now by a supervisor (“Build now”), the "
                "missing boxes shown as drop variances."
            )
            % {"shift": shift.name, "boxes": _boxes(awaited)},
            extra={"boxes_awaited": awaited},
        )
    if existing is None:
        try:
            with transaction.atomic():
                ShiftReport.objects.create(shift=shift, kind=kind)
        except IntegrityError:  # another worker started the same report: its row is reused below
            pass
    started = time.perf_counter()
    data, csv_text, html, digest = report_files.report_render(shift=shift, kind=kind)
    pdf = report_pdf.render_pdf(data, digest)
    REPORT_BUILD_SECONDS.labels(kind).observe(time.perf_counter() - started)
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
        after: dict[str, object] = {"shift": shift.pk, "kind": kind, "content_hash": digest}
        if awaited:
            after["boxes_missing"] = awaited
        audit_event_record(
            actor=actor if force else None,
            event_type=AuditEventType.SHIFT_REPORT_BUILT,
            subject=report,
            after=after,
        )
    return report


def _boxes(tables: list[str], shown: int = 5) -> str:
    """The boxes named in a sentence: "the drop box of table PGP-1 is", "the drop boxes of tables PGP-1 and PGP-2
    are", "… PGP-5 and 12 more are"."""
    if len(tables) == 1:
        return _("the drop box of table %(table)s is") % {"table": tables[0]}
    if len(tables) <= shown:
        return _("the drop boxes of tables %(tables)s and %(last)s are") % {
            "tables": ", ".join(tables[:-1]),
            "last": tables[-1],
        }
    return _("the drop boxes of tables %(tables)s and %(count)s more are") % {
        "tables": ", ".join(tables[:shown]),
        "count": len(tables) - shown,
    }
