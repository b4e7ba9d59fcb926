"""Credit at the table: players' credit lines and their markers (docs/markers.md). Each write is one transaction
with its audit event (the player named by id and tier only); a refusal says what is wrong and writes nothing.

* ``credit_line_set``: a Credit manager sets a player's line. Lowering it, or setting it at most
  ``TABLESIDE_CREDIT_APPROVAL_ABOVE_CENTS``, takes effect at once; raising it above that waits
  (``CreditLineChange``) for ``credit_change_decide`` by a second Credit manager, never the one who asked.
* ``marker_request``: at a seat, the table's dealer (or a supervisor) asks for a marker for the player rated there,
  with their signature; it must fit in what the line has left (``credit_available``).
* ``marker_issue``: a supervisor (never the one who asked) approves it: the next number without gaps, the chips out
  of the tray as a buy-in paid with a marker (``tables.drop.buy_in_record``: the marker into the drop box).
* ``markers_counted``: once the table's drop box for the shift is final, its markers leave the cage's count for the
  markers receivable (the ledger's ``markers`` account): connected to ``tables.signals.drop_box_final``.
* ``marker_redeem``: a Cage cashier takes the player's cash, chips or cheque for an outstanding marker.
* ``marker_cheque_returned``: a cheque that came back unpaid re-opens the marker.
* ``marker_void``: a supervisor voids a marker asked for, or issued while its shift is open (its buy-in voided: the
  chips back to the tray), saying why.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from casino import numbers
from casino.audit import audit_event_record
from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.events import AuditEventType
from casino.models import Shift
from casino.roles import SUPERVISORS, Role, require_role
from ledger.lines import Line
from ledger.services import PostingRecord, post, posting_record
from players.models import (
    CreditLine,
    CreditLineChange,
    Marker,
    MarkerPayment,
    MarkerSequence,
    Player,
    RatingSeat,
)
from tables.drop import buy_in_record, buy_in_void, drop_final
from tables.models import BuyIn, DropCount, Table
from tables.permissions import require_act_at_table

MOST_CENTS = 100_000_000_000  # a billion in money: beyond it, a key was held down
MOST_MARKER_CENTS = 100_000_000  # as a buy-in (``tables.drop.MOST_CENTS``)
MOST_SIGNATURE = 200_000  # characters of a drawn signature's data URL
SIGNATURE_PREFIX = "data:image/png;base64,"
MOST_REASON = 500
# Markers that count against a line: every one not redeemed or voided.
OWING = (Marker.Status.REQUESTED, Marker.Status.IN_DROP, Marker.Status.AT_CAGE)
# What the cage takes for a marker, and the accounts a marker's posting moves between (out of, into).
REDEEMED_WITH = (MarkerPayment.Method.CASH, MarkerPayment.Method.CHIPS, MarkerPayment.Method.CHEQUE)
COUNTED_MOVE = ("cage", "markers")  # the counted marker leaves the cage's count for the markers receivable
REDEEMED_MOVE = ("markers", "cage")  # the player pays: the receivable becomes cash, chips or a cheque at the cage


def _person(actor: User | None, what: str) -> User:
    if actor is None:
        raise NotAllowed(_("%(what)s is done by a person.") % {"what": what})
    return actor


def _cents(value: object, *, field: str, low: int, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= most:
        raise ApplicationError(
            _("The amount is a whole number of cents from %(low)s to %(most)s, not %(value)s.")
            % {"low": low, "most": numbers.whole(most), "value": repr(value)},
            extra={"field": field},
        )
    return value


def _reason(value: object, *, required: bool, what: str) -> str:
    text = " ".join(value.split()) if isinstance(value, str) else ""
    if required and not text:
        raise ApplicationError(what, extra={"field": "reason"})
    return text[:MOST_REASON]


def _player_record(player: Player) -> dict[str, Any]:
    """The player as the audit trail records them: never their name or card number."""
    return {"player": player.pk, "tier": player.tier}


def _marker_post(marker: Marker, *, move: tuple[str, str], cents: int, actor: User, key: str) -> PostingRecord:
    source, target = move
    posting = post(
        kind="marker",
        lines=[Line(source, None, -cents, "marker"), Line(target, None, cents, "marker")],
        actor=actor,
        idempotency_key=key,
    )
    return posting_record(posting)


# --- credit lines -------------------------------------------------------------------------------------------------


def credit_limit_cents(player: Player) -> int:
    """The player's credit line in cents (0 without one)."""
    return CreditLine.objects.filter(player=player).values_list("limit_cents", flat=True).first() or 0


def credit_owing_cents(player: Player) -> int:
    """What the player's markers not redeemed or voided add up to."""
    owing = Marker.objects.filter(player=player, status__in=OWING).aggregate(total=Sum("amount_cents"))["total"]
    return int(owing or 0)


def credit_available(player: Player) -> int:
    """What the line has left for another marker: the line less every marker not redeemed or voided (never below 0)."""
    return max(0, credit_limit_cents(player) - credit_owing_cents(player))


def _line_apply(player: Player, *, limit: int, set_by: User, approved_by: User | None) -> CreditLine:
    line = CreditLine.objects.filter(player=player).first()
    if line is None:
        line = CreditLine(player=player)
    line.limit_cents, line.set_by, line.approved_by, line.set_at = limit, set_by, approved_by, timezone.now()
    line.save()
    return line


def credit_line_set(
    *, actor: User | None, player: Player, limit_cents: int, reason: str = ""
) -> CreditLine | CreditLineChange:
    """A Credit manager sets ``player``'s credit line: at once (the ``CreditLine``), or, raised above the approval
    threshold, as a change waiting for a second Credit manager (the ``CreditLineChange``)."""
    person = _person(actor, _("Setting a credit line"))
    require_role(person, Role.CREDIT_MANAGER, action=_("set a credit line"))
    limit = _cents(limit_cents, field="limit_cents", low=0, most=MOST_CENTS)
    why = _reason(reason, required=False, what="")
    if player.anonymous:
        raise WrongState(_("An anonymous player has no credit line: enrol them by name first."))
    threshold = settings.TABLESIDE_CREDIT_APPROVAL_ABOVE_CENTS
    with transaction.atomic():
        Player.objects.select_for_update().get(pk=player.pk)
        before = credit_limit_cents(player)
        if CreditLineChange.objects.filter(player=player, status=CreditLineChange.Status.PENDING).exists():
            raise WrongState(
                _("A change of this player's credit line is waiting for approval: approve or refuse it first.")
            )
        if limit > threshold and limit > before:
            change = CreditLineChange.objects.create(
                player=player,
                limit_cents=limit,
                previous_cents=before,
                reason=why,
                asked_by=person,
                asked_at=timezone.now(),
            )
            audit_event_record(
                actor=person,
                event_type=AuditEventType.CREDIT_CHANGE_ASKED,
                subject=change,
                before={"limit_cents": before},
                after={**_player_record(player), "limit_cents": limit, "status": change.status},
                reason=why,
                rows=[change],
            )
            return change
        line = _line_apply(player, limit=limit, set_by=person, approved_by=None)
        audit_event_record(
            actor=person,
            event_type=AuditEventType.CREDIT_LINE_SET,
            subject=line,
            before={"limit_cents": before},
            after={**_player_record(player), "limit_cents": limit},
            reason=why,
            rows=[line],
        )
    return line


def credit_change_decide(*, actor: User | None, change: CreditLineChange, approve: bool) -> CreditLineChange:
    """A second Credit manager approves (the line changes) or refuses a change waiting for approval."""
    person = _person(actor, _("Approving a credit line"))
    require_role(person, Role.CREDIT_MANAGER, action=_("approve a credit line"))
    with transaction.atomic():
        locked = CreditLineChange.objects.select_for_update().select_related("player").get(pk=change.pk)
        if locked.status != CreditLineChange.Status.PENDING:
            raise WrongState(_("This change of the credit line is decided already."))
        if locked.asked_by_id == person.pk:
            raise NotAllowed(
                _("You asked for this credit line: a second Credit manager approves it."),
                extra={"two_people": "asked"},
            )
        locked.status = CreditLineChange.Status.APPROVED if approve else CreditLineChange.Status.REFUSED
        locked.decided_by, locked.decided_at = person, timezone.now()
        locked.save(update_fields=["status", "decided_by", "decided_at"])
        rows: list[Any] = [locked]
        if approve:
            rows.append(
                _line_apply(locked.player, limit=locked.limit_cents, set_by=locked.asked_by, approved_by=person)
            )
        audit_event_record(
            actor=person,
            event_type=AuditEventType.CREDIT_CHANGE_DECIDED,
            subject=locked,
            before={"limit_cents": locked.previous_cents},
            after={**_player_record(locked.player), "limit_cents": locked.limit_cents, "status": locked.status},
            rows=rows,
        )
    return locked


# --- markers ------------------------------------------------------------------------------------------------------


def _marker_record(marker: Marker, **extra: Any) -> dict[str, Any]:
    return {
        **_player_record(marker.player),
        "marker": marker.pk,
        "number": marker.number,
        "table": marker.table.name,
        "seat": marker.seat_number,
        "amount_cents": marker.amount_cents,
        "status": marker.status,
        **extra,
    }


def _signature(signature: object, signed_name: object) -> tuple[str, str]:
    drawn = signature.strip() if isinstance(signature, str) else ""
    typed = " ".join(signed_name.split())[:120] if isinstance(signed_name, str) else ""
    if drawn and (not drawn.startswith(SIGNATURE_PREFIX) or len(drawn) > MOST_SIGNATURE):
        raise ApplicationError(
            _("The signature is a drawing from the tablet (a PNG image), not something else."),
            extra={"field": "signature"},
        )
    if not drawn and not typed:
        raise ApplicationError(
            _("The player signs the marker: on the tablet, or by typing their name."), extra={"field": "signature"}
        )
    return drawn, typed


def _over_line(player: Player, amount: int, *, besides: int = 0) -> None:
    """Refuse ``amount`` over what the player's line has left (``besides``: the amount of a marker counted in what
    they owe that is this one)."""
    available = max(0, credit_limit_cents(player) - credit_owing_cents(player) + besides)
    if amount > available:
        raise WrongState(
            _("A marker of %(amount)s is over this player's credit: %(available)s is left of a line of %(line)s.")
            % {
                "amount": numbers.amount(amount),
                "available": numbers.amount(available),
                "line": numbers.amount(credit_limit_cents(player)),
            },
            extra={"field": "amount_cents", "available_cents": available},
        )


def marker_request(
    *,
    actor: User | None,
    table: Table,
    seat: int,
    amount_cents: int,
    signature: str = "",
    signed_name: str = "",
) -> Marker:
    """At ``seat`` of ``table``, the dealer asks for a marker for the player rated there, signed by the player; it
    waits for a supervisor (``marker_issue``). Refused over what the player's line has left."""
    person = _person(actor, _("Asking for a marker"))
    require_act_at_table(person, table, action=_("ask for a marker"))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= table.seat_count:
        raise ApplicationError(
            _("Table %(table)s has seats 1 to %(seats)s, not %(seat)s.")
            % {"table": table.name, "seats": table.seat_count, "seat": repr(seat)},
            extra={"field": "seat"},
        )
    amount = _cents(amount_cents, field="amount_cents", low=1, most=MOST_MARKER_CENTS)
    drawn, typed = _signature(signature, signed_name)
    with transaction.atomic():
        rated = RatingSeat.objects.filter(table=table, seat_number=seat, ended_at__isnull=True).first()
        if rated is None:
            raise WrongState(
                _("Nobody is rated at seat %(seat)s: seat the player for a rating before a marker.") % {"seat": seat},
                extra={"field": "seat"},
            )
        player = Player.objects.select_for_update().get(sessions__pk=rated.session_id)
        _over_line(player, amount)
        marker = Marker.objects.create(
            player=player,
            table=table,
            seat_number=seat,
            amount_cents=amount,
            signature=drawn,
            signed_name=typed,
            requested_by=person,
            requested_at=timezone.now(),
        )
        audit_event_record(
            actor=person,
            event_type=AuditEventType.MARKER_REQUESTED,
            subject=marker,
            after=_marker_record(marker, signed="drawn" if drawn else "typed"),
            rows=[marker],
        )
    return marker


def _locked(marker: Marker) -> Marker:
    return Marker.objects.select_for_update(of=("self",)).select_related("player", "table").get(pk=marker.pk)


def marker_issue(*, actor: User | None, marker: Marker) -> Marker:
    """A supervisor, never the one who asked, approves a marker: it takes the next number, and the chips leave the
    tray for the player as a buy-in paid with the marker, which goes into the drop box."""
    person = _person(actor, _("Approving a marker"))
    require_role(person, *SUPERVISORS, action=_("approve a marker"))
    with transaction.atomic():
        locked = _locked(marker)
        if locked.status != Marker.Status.REQUESTED:
            raise WrongState(
                _("This marker is %(status)s: only one waiting for a supervisor is approved.")
                % {"status": locked.get_status_display()}
            )
        if locked.requested_by_id == person.pk:
            raise NotAllowed(
                _("You asked for this marker: another supervisor approves it."), extra={"two_people": "asked"}
            )
        Player.objects.select_for_update().get(pk=locked.player_id)
        # The line again, without this marker: it may have been lowered since the marker was asked for.
        _over_line(locked.player, locked.amount_cents, besides=locked.amount_cents)
        buy_in = buy_in_record(
            actor=person,
            table=locked.table,
            seat=locked.seat_number,
            medium=BuyIn.Medium.MARKER,
            amount_cents=locked.amount_cents,
            for_issued_marker=True,
        )
        MarkerSequence.objects.get_or_create(name="marker")
        sequence = MarkerSequence.objects.select_for_update().get(name="marker")
        sequence.last_number += 1
        sequence.save(update_fields=["last_number"])
        locked.number, locked.buy_in, locked.status = sequence.last_number, buy_in, Marker.Status.IN_DROP
        locked.issued_by, locked.issued_at = person, timezone.now()
        locked.save(update_fields=["number", "buy_in", "status", "issued_by", "issued_at"])
        audit_event_record(
            actor=person,
            event_type=AuditEventType.MARKER_ISSUED,
            subject=locked,
            after=_marker_record(locked, buy_in=buy_in.pk, shift=buy_in.shift_id),
            rows=[locked, sequence],
        )
    return locked


def markers_counted(*, table: Table, shift: Shift, actor: User | None) -> list[Marker]:
    """The markers issued at ``table`` in ``shift`` whose drop box is now final: each leaves the cage's count for the
    markers receivable, outstanding at the cage. Run inside the count's transaction (``drop_box_final``). Where the
    count's markers figure is not what these markers add up to, the count stands and the difference is named
    (``markers_count_differences``: the cage's markers page, ``verify_ledger``); each marker's audit event records
    what the box was counted at."""
    counted: list[Marker] = []
    markers = Marker.objects.select_for_update(of=("self",)).select_related("player", "table")
    final = drop_final(list(DropCount.objects.filter(table=table, shift=shift).order_by("counted_at", "pk")))
    in_box = list(markers.filter(table=table, buy_in__shift=shift, status=Marker.Status.IN_DROP).order_by("number"))
    box = {
        "counted_cents": final.markers_cents if final is not None else None,
        "issued_cents": sum(m.amount_cents for m in in_box),
    }
    for marker in in_box:
        marker.status, marker.counted_at = Marker.Status.AT_CAGE, timezone.now()
        marker.save(update_fields=["status", "counted_at"])
        posted = (
            _marker_post(marker, move=COUNTED_MOVE, cents=marker.amount_cents, actor=actor, key=f"marker:{marker.pk}")
            if actor is not None
            else None
        )
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.MARKER_COUNTED,
            subject=marker,
            after=_marker_record(marker, shift=shift.pk, box=box, postings=[posted] if posted else []),
            rows=[marker],
        )
        counted.append(marker)
    return counted


@dataclass(frozen=True)
class MarkersCountDiffers:
    """A final drop box whose counted markers are not the markers issued into it: a marker missing from the box, or
    a slip counted as a marker that no one issued. The count stands (two counters agreed on what the box held); the
    difference is the cage's to account for."""

    table: Table
    shift: Shift
    counted_cents: int
    issued_cents: int

    @property
    def difference_cents(self) -> int:
        return self.counted_cents - self.issued_cents


def markers_count_differences() -> list[MarkersCountDiffers]:
    """Each final drop box whose count's markers figure is not what its markers add up to (those issued at its table
    in its shift and counted with it), by shift and table. Only boxes with a marker in them, or counted with one."""
    issued: dict[tuple[int, int], int] = defaultdict(int)
    counted_markers = Marker.objects.filter(counted_at__isnull=False, buy_in__isnull=False)
    for table_id, shift_id, cents in counted_markers.values_list("table_id", "buy_in__shift_id", "amount_cents"):
        issued[(table_id, shift_id)] += cents
    boxes = set(issued) | set(
        DropCount.objects.filter(markers_cents__gt=0).values_list("table_id", "shift_id").distinct()
    )
    found: list[MarkersCountDiffers] = []
    for table_id, shift_id in sorted(boxes, key=lambda box: (box[1], box[0])):
        counts = list(
            DropCount.objects.filter(table_id=table_id, shift_id=shift_id)
            .select_related("table", "shift")
            .order_by("counted_at", "pk")
        )
        final = drop_final(counts)
        if final is not None and final.markers_cents != issued[(table_id, shift_id)]:
            found.append(
                MarkersCountDiffers(
                    table=final.table,
                    shift=final.shift,
                    counted_cents=final.markers_cents,
                    issued_cents=issued[(table_id, shift_id)],
                )
            )
    return found


def marker_counted_receive(sender: object, *, table: Table, shift: Shift, **kwargs: Any) -> None:
    """``tables.signals.drop_box_final``'s receiver: the box's markers go to the cage as outstanding, posted by the
    count that made the box final."""
    last = DropCount.objects.filter(table=table, shift=shift).select_related("counted_by").order_by("-pk").first()
    markers_counted(table=table, shift=shift, actor=last.counted_by if last is not None else None)


def marker_redeem(*, actor: User | None, marker: Marker, method: str, reference: str = "") -> MarkerPayment:
    """A Cage cashier takes the player's cash, chips or cheque (its number in ``reference``) for an outstanding
    marker: redeemed in full."""
    person = _person(actor, _("Redeeming a marker"))
    require_role(person, Role.CAGE_CASHIER, action=_("redeem a marker"))
    if method not in REDEEMED_WITH:
        raise ApplicationError(
            _("A marker is redeemed with cash, chips or a cheque, not %(method)s.") % {"method": repr(method)},
            extra={"field": "method"},
        )
    cheque = " ".join(reference.split())[:40] if isinstance(reference, str) else ""
    if method == MarkerPayment.Method.CHEQUE and not cheque:
        raise ApplicationError(_("Type the cheque's number."), extra={"field": "reference"})
    with transaction.atomic():
        locked = _locked(marker)
        if locked.status == Marker.Status.IN_DROP:
            raise WrongState(
                _(
                    "Marker %(number)s is still in the drop box of table %(table)s: it is redeemed once the box is "
                    "counted."
                )
                % {"number": locked.number, "table": locked.table.name}
            )
        if locked.status != Marker.Status.AT_CAGE:
            raise WrongState(
                _("Marker %(number)s is %(status)s: only an outstanding marker is redeemed.")
                % {"number": locked.number or "-", "status": locked.get_status_display()}
            )
        payment = MarkerPayment.objects.create(
            marker=locked,
            method=method,
            amount_cents=locked.amount_cents,
            reference=cheque if method == MarkerPayment.Method.CHEQUE else "",
            recorded_by=person,
            recorded_at=timezone.now(),
        )
        locked.status, locked.redeemed_at = Marker.Status.REDEEMED, payment.recorded_at
        locked.save(update_fields=["status", "redeemed_at"])
        posted = _marker_post(
            locked, move=REDEEMED_MOVE, cents=locked.amount_cents, actor=person, key=f"marker-payment:{payment.pk}"
        )
        audit_event_record(
            actor=person,
            event_type=AuditEventType.MARKER_REDEEMED,
            subject=locked,
            after=_marker_record(locked, method=method, payment=payment.pk, postings=[posted]),
            rows=[locked, payment],
        )
    return payment


def marker_cheque_returned(*, actor: User | None, marker: Marker, reason: str) -> MarkerPayment:
    """A Cage cashier or Credit manager records that the cheque a marker was redeemed with came back unpaid: the
    marker is outstanding again, and the receivable with it."""
    person = _person(actor, _("Recording a returned cheque"))
    require_role(person, Role.CAGE_CASHIER, Role.CREDIT_MANAGER, action=_("record a returned cheque"))
    why = _reason(reason, required=True, what=_("Say why the cheque came back."))
    with transaction.atomic():
        locked = _locked(marker)
        paid = (
            MarkerPayment.objects.filter(marker=locked, returns__isnull=True, returned_by__isnull=True)
            .exclude(method=MarkerPayment.Method.RETURNED)
            .order_by("-pk")
            .first()
        )
        if locked.status != Marker.Status.REDEEMED or paid is None or paid.method != MarkerPayment.Method.CHEQUE:
            raise WrongState(
                _("Marker %(number)s was not redeemed with a cheque: there is no cheque to return.")
                % {"number": locked.number or "-"}
            )
        returned = MarkerPayment.objects.create(
            marker=locked,
            method=MarkerPayment.Method.RETURNED,
            amount_cents=-paid.amount_cents,
            reference=paid.reference,
            returns=paid,
            recorded_by=person,
            recorded_at=timezone.now(),
        )
        locked.status, locked.redeemed_at = Marker.Status.AT_CAGE, None
        locked.save(update_fields=["status", "redeemed_at"])
        posted = _marker_post(
            locked,
            move=COUNTED_MOVE,
            cents=paid.amount_cents,
            actor=person,
            key=f"marker-payment:{returned.pk}",
        )
        audit_event_record(
            actor=person,
            event_type=AuditEventType.MARKER_CHEQUE_RETURNED,
            subject=locked,
            after=_marker_record(locked, payment=returned.pk, returns=paid.pk, postings=[posted]),
            reason=why,
            rows=[locked, returned],
        )
    return returned


def marker_void(*, actor: User | None, marker: Marker, reason: str) -> Marker:
    """A supervisor voids a marker asked for, or issued in the shift still open (its buy-in voided: the chips back to
    the tray, the marker out of the drop box), saying why. A counted marker is redeemed, never voided."""
    person = _person(actor, _("Voiding a marker"))
    require_role(person, *SUPERVISORS, action=_("void a marker"))
    why = _reason(reason, required=True, what=_("Say why the marker is voided."))
    with transaction.atomic():
        locked = _locked(marker)
        if locked.status not in (Marker.Status.REQUESTED, Marker.Status.IN_DROP):
            raise WrongState(
                _("Marker %(number)s is %(status)s: only a marker waiting or in the drop box is voided.")
                % {"number": locked.number or "-", "status": locked.get_status_display()}
            )
        issued = locked.status == Marker.Status.IN_DROP
        locked.status, locked.voided_by, locked.voided_at, locked.void_reason = (
            Marker.Status.VOIDED,
            person,
            timezone.now(),
            why,
        )
        locked.save(update_fields=["status", "voided_by", "voided_at", "void_reason"])
        audit_event_record(
            actor=person,
            event_type=AuditEventType.MARKER_VOIDED,
            subject=locked,
            after=_marker_record(locked),
            reason=why,
            rows=[locked],
        )
        if issued and locked.buy_in is not None:
            buy_in_void(actor=person, buy_in=locked.buy_in, reason=why)
    return locked


def marker_buy_in_voided(sender: object, *, buy_in: BuyIn, **kwargs: Any) -> None:
    """``tables.signals.buy_in_recorded``'s receiver: a marker's buy-in voided on the table's money page voids the
    marker with it (who voided the buy-in, and that it was the buy-in)."""
    if buy_in.corrects_id is None:
        return
    marker = Marker.objects.select_for_update(of=("self",)).filter(buy_in_id=buy_in.corrects_id).first()
    if marker is None or marker.status != Marker.Status.IN_DROP:
        return
    marker.status, marker.voided_by, marker.voided_at = Marker.Status.VOIDED, buy_in.recorded_by, timezone.now()
    marker.void_reason = "its buy-in was voided"
    marker.save(update_fields=["status", "voided_by", "voided_at", "void_reason"])
    audit_event_record(
        actor=buy_in.recorded_by,
        event_type=AuditEventType.MARKER_VOIDED,
        subject=marker,
        after=_marker_record(Marker.objects.select_related("player", "table").get(pk=marker.pk)),
        reason=marker.void_reason,
        rows=[marker],
    )
