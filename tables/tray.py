"""The table's chip tray (DESIGN.md "The table's money"): the opener and the closer, counted by
denomination and confirmed by two people, and the discrepancy of an opener against the last closer.

* ``tray_count_record``: the table's dealer (or a supervisor) counts the tray, chips by denomination, in the open
  shift. One count waits for its confirmation at a time.
* ``tray_count_confirm``: a second person, a Floor supervisor or Pit boss who did not count it, confirms it.
* ``tray_variance``: how far an opener is from the table's last confirmed closer, and what that asks of the floor:
  over ``TABLESIDE_TRAY_REPORT_ABOVE_CENTS`` (25.00) a written report, from ``TABLESIDE_TRAY_ESCALATE_FROM_CENTS``
  (100.00) an escalation (the New Jersey thresholds; both are settings).

Each write records its audit event; refusals say what is wrong in the dealer's words and write nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeAlias

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino import numbers
from casino.audit import audit_event_record
from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.events import AuditEventType
from casino.roles import SUPERVISORS, require_role
from casino.selectors import shift_current_held
from tables.live import table_changed
from tables.models import ChipDenomination, Counted, Table, TrayCount
from tables.permissions import require_act_at_table

# How many chips of one denomination a count may name: more than any tray holds, fewer than a typo of a total.
MOST_CHIPS = 100_000

# Chips counted, by value in cents: a number (the services, the API's JSON read) or as typed on a page.
ChipsCounted: TypeAlias = Mapping[int, object] | Mapping[str, object]


def _chips_in_use() -> dict[int, ChipDenomination]:
    return {chip.value_cents: chip for chip in ChipDenomination.objects.filter(in_use=True)}


def _denomination(key: object, chips: Mapping[int, ChipDenomination], field: str = "counts") -> int:
    """A denomination as a count names it: its value in cents, as a number or the digits 0-9."""
    text = str(key).strip()
    value = int(text) if not isinstance(key, bool) and text.isascii() and text.isdigit() else None
    if value is None or value not in chips:
        known = numbers.amounts(sorted(chips))
        shown = numbers.amount(value) if value is not None else repr(key)
        raise ApplicationError(
            _("There is no %(chip)s chip in this house: the chips are %(known)s.") % {"chip": shown, "known": known},
            extra={"field": f"{field}.{key}"},
        )
    return value


def tray_counts_read(counts: object, *, field: str = "counts") -> dict[int, int]:
    """A tray count as entered (``{denomination in cents: chips}``) checked: known chips in use, whole numbers of
    chips from 0 to ``MOST_CHIPS``; the chips counted by denomination, in value order. A refusal names the request's
    ``field`` (``counts`` for a tray, ``chips`` for a slip) and the denomination (``chips.333``).

    Every problem is refused naming the denomination ("A count is a whole number of chips, not -3 (25.00 chips)").
    """
    if not isinstance(counts, Mapping) or not counts:
        raise ApplicationError(_("A tray count names the chips of each denomination."), extra={"field": field})
    chips = _chips_in_use()
    read: dict[int, int] = {}
    for key, number in counts.items():
        value = _denomination(key, chips, field)
        if value in read:
            raise ApplicationError(
                _("The %(value)s chips are counted twice.") % {"value": numbers.amount(value)},
                extra={"field": field},
            )
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= MOST_CHIPS:
            raise ApplicationError(
                _("A count is a whole number of chips from 0 to %(most)s, not %(number)s (%(value)s chips).")
                % {
                    "most": numbers.whole(MOST_CHIPS),
                    "number": repr(number),
                    "value": numbers.amount(value),
                },
                extra={"field": f"{field}.{key}"},
            )
        read[value] = number
    return dict(sorted(read.items()))


@dataclass(frozen=True)
class TrayVariance:
    """An opener against the table's last confirmed closer: ``difference_cents`` is counted − expected (over when
    positive); ``level`` is ``none``, ``report`` (a written report) or ``escalate``."""

    counted_cents: int
    expected_cents: int | None
    difference_cents: int
    level: str


def tray_variance(count: TrayCount) -> TrayVariance:
    """How far ``count`` is from what the table was left with; none for a closer or a table's first opener.

    >>> from django.test.utils import override_settings
    >>> with override_settings(TABLESIDE_TRAY_REPORT_ABOVE_CENTS=2500, TABLESIDE_TRAY_ESCALATE_FROM_CENTS=10000):
    ...     [tray_variance(TrayCount(kind="opener", total_cents=t, expected_cents=100_000)).level
    ...      for t in (100_000, 102_500, 102_501, 90_000, 89_999)]
    ['none', 'none', 'report', 'escalate', 'escalate']
    """
    if count.kind != TrayCount.Kind.OPENER or count.expected_cents is None:
        return TrayVariance(count.total_cents, None, 0, "none")
    difference = count.total_cents - count.expected_cents
    if abs(difference) >= settings.TABLESIDE_TRAY_ESCALATE_FROM_CENTS:
        level = "escalate"
    elif abs(difference) > settings.TABLESIDE_TRAY_REPORT_ABOVE_CENTS:
        level = "report"
    else:
        level = "none"
    return TrayVariance(count.total_cents, count.expected_cents, difference, level)


def tray_last_closer(table: Table) -> TrayCount | None:
    """The table's last confirmed closer: what its next opener is expected to find."""
    return (
        TrayCount.objects.filter(table=table, kind=TrayCount.Kind.CLOSER, status=TrayCount.Status.CONFIRMED)
        .order_by("-confirmed_at", "-pk")
        .first()
    )


def _snapshot(count: TrayCount) -> dict[str, object]:
    return {
        "table": count.table.name,
        "shift": count.shift_id,
        "kind": count.kind,
        "counts": count.counts,
        "total_cents": count.total_cents,
        "expected_cents": count.expected_cents,
        "status": count.status,
    }


def tray_count_record(*, actor: User | None, table: Table, kind: str, counts: ChipsCounted) -> TrayCount:
    """The table's dealer (or a supervisor) counts its tray, in the open shift: an opener or a closer.

    The count waits for a second person's confirmation (``tray_count_confirm``); one count waits at a table at a
    time. An opener keeps the table's last confirmed closer as what it is expected to find.
    """
    if kind not in TrayCount.Kind.values:
        raise ApplicationError(
            _("A tray count is an opener or a closer, not %(kind)s.") % {"kind": repr(kind)}, extra={"field": "kind"}
        )
    if actor is None:
        raise NotAllowed(_("A tray is counted by a person, who signs the count."))
    require_act_at_table(actor, table, action="count the chip tray")
    counted = Counted(tray_counts_read(counts))
    with transaction.atomic():
        locked = Table.objects.select_for_update(of=("self",)).get(pk=table.pk)
        shift = shift_current_held()
        if shift is None:
            raise WrongState(_("No shift is open: a supervisor opens one before the tray is counted."))
        if TrayCount.objects.filter(table=locked, status=TrayCount.Status.COUNTED).exists():
            raise WrongState(
                _("A count of table %(table)s's tray waits for a supervisor's confirmation: confirm it first.")
                % {"table": locked.name}
            )
        closer = tray_last_closer(locked) if kind == TrayCount.Kind.OPENER else None
        try:
            with transaction.atomic():
                count = TrayCount.objects.create(
                    table=locked,
                    shift=shift,
                    kind=kind,
                    counts=counted.stored(),
                    total_cents=counted.total_cents,
                    expected_cents=closer.total_cents if closer is not None else None,
                    counted_by=actor,
                    counted_at=timezone.now(),
                )
        except IntegrityError as exc:  # a second device counted at the same moment
            raise WrongState(
                _("Table %(table)s's tray was counted at the same moment: reload.") % {"table": locked.name}
            ) from exc
        audit_event_record(
            actor=actor, event_type=AuditEventType.TRAY_COUNTED, subject=count, after=_snapshot(count), rows=[count]
        )
        table_changed(count.table_id)
    return count


def tray_count_confirm(*, actor: User | None, count: TrayCount) -> TrayCount:
    """A Floor supervisor or Pit boss confirms a tray count: a second person, never who counted it."""
    if actor is None:
        raise NotAllowed(_("A tray count is confirmed by a person, who signs it."))
    require_role(actor, *SUPERVISORS, action="confirm a tray count")
    with transaction.atomic():
        locked = TrayCount.objects.select_for_update(of=("self",)).select_related("table").get(pk=count.pk)
        if locked.status == TrayCount.Status.CONFIRMED:
            if locked.kind == TrayCount.Kind.OPENER:
                refusal = _("This opener of table %(table)s is already confirmed.")
            else:
                refusal = _("This closer of table %(table)s is already confirmed.")
            raise WrongState(refusal % {"table": locked.table.name})
        if actor.pk == locked.counted_by_id:
            raise NotAllowed(
                _("You counted this tray: a second person confirms the count."), extra={"two_people": "counted"}
            )
        before = _snapshot(locked)
        locked.status = TrayCount.Status.CONFIRMED
        locked.confirmed_by = actor
        locked.confirmed_at = timezone.now()
        locked.save(update_fields=["status", "confirmed_by", "confirmed_at"])
        variance = tray_variance(locked)
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.TRAY_COUNT_CONFIRMED,
            subject=locked,
            before=before,
            after={**_snapshot(locked), "difference_cents": variance.difference_cents, "level": variance.level},
            rows=[locked],
        )
        table_changed(locked.table_id)
    return locked
