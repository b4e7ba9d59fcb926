"""Buy-ins and the drop box (DESIGN.md "The table's money"): cash or a marker exchanged for chips at a
seat goes into the table's drop box for the shift; once the shift is closed the count team counts each box twice,
independently, and the box is final when two counts by two different people agree.

* ``buy_in_record``: the table's dealer (or a supervisor) records a buy-in at a seat, in the open shift.
* ``drop_count_record``: a member of the Count team counts a closed shift's box: notes by denomination, markers,
  promotional chips. A box already final is not counted again, and nobody counts the same box twice.
* ``drop_box``: where a box stands (not counted, counted once, counts that disagree, final) and its final figures.

Each write records its audit event; refusals say what is wrong and write nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from casino import numbers
from casino.audit import audit_event_record
from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.events import AuditEventType
from casino.models import Shift
from casino.roles import SUPERVISORS, Role, require_role
from casino.selectors import shift_current_held
from tables.live import table_changed
from tables.models import BuyIn, Counted, DropCount, Table
from tables.money import chips_post
from tables.permissions import require_act_at_table
from tables.signals import buy_in_recorded, drop_box_final

# The notes a drop box holds, in cents: the dollar's and the euro's (1, 2, 5, 10, 20, 50, 100, 200, 500).
NOTES_CENTS = (100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000)
# The most one buy-in, or one figure of a count, may be: far above any table, far below a typo's reach.
MOST_CENTS = 100_000_000  # 1,000,000.00
MOST_NOTES = 100_000


def _cents(value: object, *, refusal: str, field: str, positive: bool) -> int:
    """``value`` checked: whole cents from 0 (or 1 if ``positive``) to ``MOST_CENTS``, or ``refusal`` (a message
    marked with ``gettext_noop``, translated here) naming the range and the value."""
    low = 1 if positive else 0
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MOST_CENTS:
        raise ApplicationError(
            _(refusal) % {"low": low, "most": numbers.whole(MOST_CENTS), "value": repr(value)},
            extra={"field": field},
        )
    return value


def buy_in_record(
    *,
    actor: User | None,
    table: Table,
    seat: int,
    medium: str,
    amount_cents: int,
    for_issued_marker: bool = False,
) -> BuyIn:
    """The dealer records cash exchanged for chips at ``seat``: it goes into the drop box. A buy-in paid with a
    marker is recorded only by the marker's approval (``players.credit.marker_issue``, which passes
    ``for_issued_marker``): a marker has a credit line, the player's signature, a second person and a number."""
    if actor is None:
        raise NotAllowed(_("A buy-in is recorded by a person."))
    require_act_at_table(actor, table, action="record a buy-in")
    if medium not in BuyIn.Medium.values:
        raise ApplicationError(
            _("A buy-in is paid in cash or with a marker, not %(medium)s.") % {"medium": repr(medium)},
            extra={"field": "medium"},
        )
    if medium == BuyIn.Medium.MARKER and not for_issued_marker:
        raise ApplicationError(
            _(
                "A marker is asked for on the Markers page, signed by the player and approved by a supervisor: "
                "its chips are recorded then, not as a buy-in here."
            ),
            extra={"field": "medium"},
        )
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= table.seat_count:
        raise ApplicationError(
            _("Table %(table)s has seats 1 to %(seats)s, not %(seat)s.")
            % {"table": table.name, "seats": table.seat_count, "seat": repr(seat)},
            extra={"field": "seat"},
        )
    amount = _cents(
        amount_cents,
        refusal=gettext_noop("A buy-in is a whole number of cents from %(low)s to %(most)s, not %(value)s."),
        field="amount_cents",
        positive=True,
    )
    with transaction.atomic():
        # The table's row first, then the shift's (as a tray count takes them): see ``tables.slips.slip_request``.
        held = Table.objects.select_for_update(of=("self",)).get(pk=table.pk)
        if held.status != Table.Status.OPEN:
            raise WrongState(_("Table %(table)s is closed: open it before taking a buy-in.") % {"table": held.name})
        shift = shift_current_held()
        if shift is None:
            raise WrongState(_("No shift is open: a supervisor opens one before a buy-in is taken."))
        buy_in = BuyIn.objects.create(
            table=table,
            shift=shift,
            seat_number=seat,
            medium=medium,
            amount_cents=amount,
            recorded_by=actor,
            recorded_at=timezone.now(),
        )
        posted = chips_post(
            table=table, shift=shift, kind="buy_in", cents=amount, actor=actor, key=f"buy-in:{buy_in.pk}"
        )
        buy_in_recorded.send(sender=BuyIn, buy_in=buy_in)
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.BUY_IN_RECORDED,
            subject=buy_in,
            after={
                "table": table.name,
                "seat": seat,
                "medium": medium,
                "amount_cents": amount,
                "shift": shift.pk,
                "postings": [posted],
            },
            rows=[buy_in],
        )
        table_changed(buy_in.table_id)
    return buy_in


def buy_in_void(*, actor: User | None, buy_in: BuyIn, reason: str) -> BuyIn:
    """A Floor supervisor or Pit boss voids a buy-in keyed wrong, in its own shift, saying why: a correcting row of
    the opposite amount (the buy-in itself never changes), posted back from the drop box to the tray. The dealer then
    records the right one."""
    if actor is None:
        raise NotAllowed(_("A buy-in is voided by a person."))
    require_role(actor, *SUPERVISORS, action="void a buy-in")
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError(_("Say why the buy-in is voided."), extra={"field": "reason"})
    with transaction.atomic():
        Table.objects.select_for_update(of=("self",)).get(pk=buy_in.table_id)  # as a buy-in is taken
        shift = shift_current_held()
        original = BuyIn.objects.select_related("table").get(pk=buy_in.pk)
        if original.corrects_id is not None or original.amount_cents < 0:
            raise WrongState(_("This row voids another buy-in: it is not voided in turn."))
        if shift is None or original.shift_id != shift.pk:
            raise WrongState(_("This buy-in belongs to a shift that is closed: its drop box is counted as it is."))
        if BuyIn.objects.filter(corrects=original).exists():
            raise WrongState(_("This buy-in is already voided."))
        voiding = BuyIn.objects.create(
            table=original.table,
            shift=shift,
            seat_number=original.seat_number,
            medium=original.medium,
            amount_cents=-original.amount_cents,
            recorded_by=actor,
            recorded_at=timezone.now(),
            corrects=original,
        )
        posted = chips_post(
            table=original.table,
            shift=shift,
            kind="buy_in",
            cents=-original.amount_cents,
            actor=actor,
            key=f"buy-in:{voiding.pk}",
        )
        buy_in_recorded.send(sender=BuyIn, buy_in=voiding)
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.BUY_IN_VOIDED,
            subject=voiding,
            after={
                "table": original.table.name,
                "seat": original.seat_number,
                "medium": original.medium,
                "amount_cents": voiding.amount_cents,
                "voids": original.pk,
                "shift": shift.pk,
                "postings": [posted],
            },
            reason=reason,
            rows=[voiding],
        )
        table_changed(voiding.table_id)
    return voiding


def drop_notes_read(cash: object) -> dict[int, int]:
    """Notes counted (``{note in cents: how many}``) checked: notes the floor takes, whole numbers from 0."""
    if not isinstance(cash, Mapping):
        raise ApplicationError(_("The cash is counted note by note."), extra={"field": "cash"})
    read: dict[int, int] = {}
    for key, number in cash.items():
        text = str(key).strip()
        value = int(text) if not isinstance(key, bool) and text.isascii() and text.isdigit() else None
        if value is None or value not in NOTES_CENTS:
            known = numbers.amounts(NOTES_CENTS)
            raise ApplicationError(
                _("There is no %(note)s note: the notes are %(known)s.") % {"note": repr(key), "known": known},
                extra={"field": f"cash.{key}"},
            )
        if value in read:
            raise ApplicationError(
                _("The %(value)s notes are counted twice.") % {"value": numbers.amount(value)}, extra={"field": "cash"}
            )
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= MOST_NOTES:
            raise ApplicationError(
                _("A count is a whole number of notes from 0 to %(most)s, not %(number)s (%(value)s notes).")
                % {
                    "most": numbers.whole(MOST_NOTES),
                    "number": repr(number),
                    "value": numbers.amount(value),
                },
                extra={"field": f"cash.{key}"},
            )
        read[value] = number
    return {value: number for value, number in sorted(read.items()) if number}


@dataclass(frozen=True)
class DropBox:
    """A table's drop box for a shift: its counts, and ``final`` once two by different people agree.

    ``status``: ``not counted``, ``counted once``, ``counts disagree`` or ``final``."""

    table: Table
    shift: Shift
    counts: list[DropCount]
    final: DropCount | None

    @property
    def status(self) -> str:
        if self.final is not None:
            return "final"
        return {0: "not counted", 1: "counted once"}.get(len(self.counts), "counts disagree")

    @property
    def drop_cents(self) -> int | None:
        """The drop: the cash and the markers of the final count (promotional chips are not drop)."""
        return None if self.final is None else self.final.cash_cents + self.final.markers_cents


def drop_box(*, table: Table, shift: Shift) -> DropBox:
    """The box's counts, oldest first, and the first that a count by someone else agrees with."""
    counts = list(DropCount.objects.filter(table=table, shift=shift).order_by("counted_at", "pk"))
    return DropBox(table=table, shift=shift, counts=counts, final=drop_final(counts))


def drop_final(counts: Sequence[DropCount]) -> DropCount | None:
    """Of one box's counts (oldest first), the first that an earlier count by someone else agrees with; None if
    none does yet."""
    return next(
        (
            later
            for i, earlier in enumerate(counts)
            for later in counts[i + 1 :]
            if later.counted_by_id != earlier.counted_by_id and later.figures == earlier.figures
        ),
        None,
    )


def drop_count_record(
    *,
    actor: User | None,
    table: Table,
    shift: Shift,
    cash: Mapping[object, object],
    markers_cents: int,
    promo_cents: int,
) -> DropCount:
    """A member of the Count team counts a closed shift's drop box of ``table``."""
    if actor is None:
        raise NotAllowed(_("A drop box is counted by a person, who signs the count."))
    require_role(actor, Role.COUNT_TEAM, action="count a drop box")
    counted = Counted(drop_notes_read(cash))
    markers = _cents(
        markers_cents,
        refusal=gettext_noop("The markers is a whole number of cents from %(low)s to %(most)s, not %(value)s."),
        field="markers_cents",
        positive=False,
    )
    promo = _cents(
        promo_cents,
        refusal=gettext_noop(
            "The promotional chips is a whole number of cents from %(low)s to %(most)s, not %(value)s."
        ),
        field="promo_cents",
        positive=False,
    )
    with transaction.atomic():
        locked = Shift.objects.select_for_update().get(pk=shift.pk)
        if locked.closed_at is None:
            raise WrongState(
                _("The %(shift)s shift is still open: its drop boxes are counted once it closes.")
                % {"shift": locked.name}
            )
        Table.objects.select_for_update(of=("self",)).get(pk=table.pk)  # one count of this box at a time
        box = drop_box(table=table, shift=locked)
        if box.final is not None:
            raise WrongState(
                _("The drop box of table %(table)s for the %(shift)s shift is already final.")
                % {"table": table.name, "shift": locked.name}
            )
        if any(count.counted_by_id == actor.pk for count in box.counts):
            raise NotAllowed(
                _(
                    "You counted the drop box of table %(table)s already: a second, independent count is another "
                    "person's."
                )
                % {"table": table.name},
                extra={"two_people": "counted"},
            )
        count = DropCount.objects.create(
            table=table,
            shift=locked,
            cash=counted.stored(),
            cash_cents=counted.total_cents,
            markers_cents=markers,
            promo_cents=promo,
            counted_by=actor,
            counted_at=timezone.now(),
        )
        box = drop_box(table=table, shift=locked)
        after: dict[str, object] = {
            "table": table.name,
            "shift": locked.pk,
            "cash": count.cash,
            "cash_cents": count.cash_cents,
            "markers_cents": markers,
            "promo_cents": promo,
            "status": box.status,
        }
        if box.drop_cents is not None:
            # Final: the counted cash and markers leave the box for the cage, in the ledger with the count.
            after["postings"] = [
                chips_post(
                    table=table,
                    shift=locked,
                    kind="drop",
                    cents=box.drop_cents,
                    actor=actor,
                    key=f"drop:{table.pk}:{locked.pk}",
                )
            ]
        audit_event_record(
            actor=actor, event_type=AuditEventType.DROP_COUNTED, subject=count, after=after, rows=[count]
        )
        table_changed(count.table_id)
        if box.drop_cents is not None:
            drop_box_final.send(sender=Table, table=table, shift=locked)
    return count
