"""The tables' answer to a shift's close (registered with ``casino.services.shift_close_vetoes`` by ``tables.apps``):
a shift does not close while its table money is half done, or that money would land in a shift already reported.

* a fill or a credit requested or issued in the shift and not yet received or voided: its chips are between the
  cage and the table, and received later it would be posted to a shift whose reports are built;
* a tray count of the shift waiting for a supervisor's confirmation: the opener or the closer the Master Game
  Report needs.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from casino.errors import WrongState
from casino.models import Shift
from tables.models import Slip, TrayCount


def slips_outstanding(**where: Any) -> list[Slip]:
    """The slips ``where`` says (a table's, a shift's) still requested or issued, by kind and number."""
    return list(
        Slip.objects.filter(status__in=(Slip.Status.REQUESTED, Slip.Status.ISSUED), **where)
        .select_related("table")
        .order_by("kind", "number")
    )


def slip_outstanding_text(slip: Slip, *, closing: str) -> str:
    """The refusal of a close (``closing``: "the table", "the shift") while ``slip`` is outstanding."""
    return _(
        "%(kind)s slip %(number)s at table %(table)s is still %(status)s: sign it as received or void it before "
        "closing %(closing)s"
    ) % {
        "kind": slip.get_kind_display().capitalize(),
        "number": slip.number,
        "table": slip.table.name,
        "status": slip.get_status_display(),
        "closing": closing,
    }


def shift_close_refuse_money(shift: Shift) -> None:
    """Refuse to close ``shift`` while a slip of it is outstanding or a tray count of it waits (under the shift's
    lock: ``tables.slips``, ``tables.drop`` and ``tables.tray`` write in the open shift under the same lock)."""
    outstanding = slips_outstanding(shift=shift)
    if outstanding:
        first = outstanding[0]
        more = " " + _("(%(count)s more slip(s) too)") % {"count": len(outstanding) - 1} if len(outstanding) > 1 else ""
        raise WrongState(
            slip_outstanding_text(first, closing=_("the shift")) + more + ".",
            extra={
                "slips_outstanding": [
                    {"id": s.pk, "kind": s.kind, "number": s.number, "table": s.table.name, "status": s.status}
                    for s in outstanding
                ]
            },
        )
    waiting = TrayCount.objects.filter(shift=shift, status=TrayCount.Status.COUNTED).select_related("table").first()
    if waiting is not None:
        raise WrongState(
            _(
                "The %(tray_count)s of table %(table)s waits for a supervisor's confirmation: "
                "confirm it before closing the shift."
            )
            % {"tray_count": waiting.get_kind_display(), "table": waiting.table.name},
            extra={"tray_count_waiting": waiting.pk},
        )
