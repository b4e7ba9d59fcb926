"""Corrections (a supervisor's act, with a reason), and the requests for voids and corrections, decided from the
pit. A correction reverses the settlement in force and settles again with the corrected hands; a void
(``rounds.services.voids``) returns the wagers; both stay in the ledger and the audit trail.

Four eyes (DESIGN.md, "Trust": whoever asked for or caused a void or correction cannot approve it):

* a request is approved by someone other than who asked for it, and other than a party to the round
  (who opened it, took a wager on it, dealt it, recorded its hands or settled it: ``rounds.services.round_party``);
* a correction always needs a request, so two people: a supervisor who wants one asks for it
  (``correction_submit``, the correct endpoint) and another supervisor approves it;
* a supervisor voids a round directly (a void before the settlement only returns the wagers) unless
  they are a party to it: then they ask, and another supervisor approves;
* a request is rejected by a supervisor who is not a party to the round, or withdrawn (rejected) by
  whoever asked for it: rejecting moves no money, but the party whose work is questioned does not
  dismiss the question.

``TABLESIDE_FOUR_EYES=0`` (a one-supervisor room) lifts all of this; the shift and audit reports say so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit_event_record
from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.events import AuditEventType
from casino.roles import SUPERVISORS, TABLE_STAFF, require_role
from ledger.lines import reversal_lines
from ledger.models import Posting
from ledger.services import post
from ledger.sql import key_used_sql
from players.rating import round_settled_rate
from rounds.models import Adjustment, Round
from rounds.results import HouseLine, posting_hands, posting_result
from rounds.services.play import read_hands, round_seat_ids, round_wagers
from rounds.services.transitions import round_check, round_transition
from rounds.services.voids import four_eyes_required, require_second_person, round_party, void_round
from rounds.sql import round_lock, round_lock_reading, stakes_read, stakes_sql
from rounds.states import RoundState, check_move
from settlement.services.settle import (
    SettlementAnswer,
    check_key,
    entered_hands,
    key_race,
    replay,
    settle_into,
    settlement_body,
    settlement_money,
    used_key_posting,
)
from tables.live import table_changed
from tables.permissions import require_act_at_table


def _settlement_to_correct(locked: Round, hands: Mapping[str, Any]) -> Posting:
    """The settlement in force of a settled round, which ``hands`` (as stored) would correct; refused when they are
    the hands it settled."""
    current = Posting.objects.get(round_id=locked.pk, kind=Posting.Kind.SETTLEMENT, reversed_by__isnull=True)
    if entered_hands(hands) == entered_hands(posting_hands(current) or {"seats": {}}):
        raise ApplicationError(
            _("The corrected hands are the hands already settled: nothing to correct."), extra={"field": "hands"}
        )
    return current


def correct_round(
    *,
    actor: User | None,
    round: Round,
    hands: Mapping[str, Any],
    reason: str,
    idempotency_key: str,
    requested_by: User | None = None,
) -> SettlementAnswer:
    """Correct a settled round: reverse its settlement and settle again with the corrected hands.

    A Floor supervisor's or Pit boss's act, with a reason. Two postings, linked: a
    ``reversal`` that undoes the settlement in force line for line, and a new
    ``settlement`` that names the one it corrects; one audit event holds both. For OFC
    the corrected hands are the finished boards (front, middle, back for each seat).
    The same key returns the same answer.

    Four eyes: a correction carries out a request (``adjustment_approve`` passes its ``requested_by``), and
    ``actor`` is neither who asked for it nor a party to the round (who settled or dealt it). A supervisor
    asks through ``correction_submit``. In a one-supervisor room (``TABLESIDE_FOUR_EYES=0``) none of this holds.
    """
    require_role(actor, *SUPERVISORS, action="correct a settled round")
    key = check_key(idempotency_key)
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError(_("A correction needs a reason."), extra={"field": "reason"})
    if requested_by is None and actor is not None and four_eyes_required():
        raise NotAllowed(
            _("A correction needs a second supervisor: ask for it, and another supervisor approves it."),
            extra={"four_eyes": "unasked"},
        )
    with key_race(), transaction.atomic():
        locked, standing, (key_used, stakes) = round_lock_reading(round, key_used_sql(key), stakes_sql(round))
        if key_used:
            return replay(used_key_posting(key), locked, correction=True)
        if locked.state != RoundState.SETTLED:
            raise WrongState(
                _(
                    "Round %(round)s is %(state)s: only a settled round is corrected "
                    "(change the hands, or void it, before it settles)."
                )
                % {"round": locked.number, "state": locked.state}
            )
        require_second_person(actor=actor, round=locked, kind="correction", requested_by=requested_by, asked=True)
        wagers, seat_ids = stakes_read(locked, stakes)
        read = read_hands(locked, hands, wagers=wagers, complete_boards=True)
        current = _settlement_to_correct(locked, read.stored)
        seat_ids = round_seat_ids(locked)
        numbers = {pk: number for number, pk in seat_ids.items()}
        reversal = post(
            round_id=locked.pk,
            kind=Posting.Kind.REVERSAL,
            lines=reversal_lines(current.entries.all(), numbers),
            actor=actor,
            seat_ids=seat_ids,
            reverses=current,
            reason=reason,
        )
        posting = settle_into(
            locked,
            actor=actor,
            key=key,
            read=read,
            wagers=wagers,
            seat_ids=seat_ids,
            stored=read.stored,
            corrects=current,
            reason=reason,
        )
        round_settled_rate(round=locked, posting=posting, corrects=current)  # the ratings it feeds
        before_hands = locked.hands
        round_transition(
            standing=standing,
            actor=actor,
            round=locked,
            target=None,
            changes={"hands": read.stored},
            event=AuditEventType.ROUND_CORRECTED,
            reason=reason,
        )
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.SETTLEMENT_CORRECTED,
            subject=posting,
            before={"settlement": current.pk, "hands": before_hands, "house": _house(current)},
            after={
                "settlement": posting.pk,
                "hands": read.stored,
                "house": _house(posting),
                "money": settlement_money(posting, reversal),
                "four_eyes": four_eyes_required(),
            },
            reason=reason,
        )
    return settlement_body(posting, locked)


def _house(settlement: Posting) -> HouseLine | None:
    result = posting_result(settlement)
    return result["house"] if result is not None else None


@dataclass(frozen=True)
class CorrectionSubmitted:
    """What a supervisor's correction did: ``settlement`` (``correct_round``'s answer) when the round was corrected
    at once, or ``request``, the correction waiting for another supervisor."""

    settlement: SettlementAnswer | None = None
    request: Adjustment | None = None


def correction_submit(
    *,
    actor: User | None,
    round: Round,
    hands: Mapping[str, Any],
    reason: str,
    idempotency_key: str,
) -> CorrectionSubmitted:
    """A Floor supervisor or Pit boss corrects a settled round: with four eyes (the default) they ask for the
    correction and another supervisor approves it (``adjustment_approve``); in a one-supervisor room
    (``TABLESIDE_FOUR_EYES=0``) the round is corrected at once (``correct_round``).

    The idempotency key is required either way, so a client sends the same request in both rooms.
    """
    require_role(actor, *SUPERVISORS, action="correct a settled round")
    if not four_eyes_required():
        settled = correct_round(
            actor=actor,
            round=round,
            hands=hands,
            reason=reason,
            idempotency_key=idempotency_key,
            requested_by=actor,
        )
        return CorrectionSubmitted(settlement=settled)
    check_key(idempotency_key)
    asked = adjustment_request(actor=actor, round=round, kind=Adjustment.Kind.CORRECTION, reason=reason, hands=hands)
    return CorrectionSubmitted(request=asked)


# --- requests for voids and corrections, approved from the pit ------------------------------------


# The event of a request asked for (pending), approved or rejected, by its kind.
_ADJUSTMENT_EVENTS: Mapping[tuple[str, str], AuditEventType] = {
    (Adjustment.Kind.VOID, Adjustment.Status.PENDING): AuditEventType.ADJUSTMENT_VOID_REQUESTED,
    (Adjustment.Kind.VOID, Adjustment.Status.APPROVED): AuditEventType.ADJUSTMENT_VOID_APPROVED,
    (Adjustment.Kind.VOID, Adjustment.Status.REJECTED): AuditEventType.ADJUSTMENT_VOID_REJECTED,
    (Adjustment.Kind.CORRECTION, Adjustment.Status.PENDING): AuditEventType.ADJUSTMENT_CORRECTION_REQUESTED,
    (Adjustment.Kind.CORRECTION, Adjustment.Status.APPROVED): AuditEventType.ADJUSTMENT_CORRECTION_APPROVED,
    (Adjustment.Kind.CORRECTION, Adjustment.Status.REJECTED): AuditEventType.ADJUSTMENT_CORRECTION_REJECTED,
}


class AdjustmentSnapshot(TypedDict):
    """A request for a void or a correction as its audit events record it."""

    round: int
    kind: str
    status: str
    reason: str
    requested_by: str | None
    decided_by: str | None
    decision_note: str
    hands: dict[str, Any] | None
    four_eyes: bool


def _adjustment_snapshot(adjustment: Adjustment) -> AdjustmentSnapshot:
    return {
        "round": adjustment.round_id,
        "kind": adjustment.kind,
        "status": adjustment.status,
        "reason": adjustment.reason,
        "requested_by": adjustment.requested_by.get_username() if adjustment.requested_by else None,
        "decided_by": adjustment.decided_by.get_username() if adjustment.decided_by else None,
        "decision_note": adjustment.decision_note,
        "hands": adjustment.hands,
        "four_eyes": four_eyes_required(),  # as it held for this act (a report states the setting it is built under)
    }


def adjustment_request(
    *,
    actor: User | None,
    round: Round,
    kind: str,
    reason: str,
    hands: Mapping[str, Any] | None = None,
) -> Adjustment:
    """The table's dealer asks a supervisor to void a round (before it settles) or correct it (after).

    The request is checked now (the round's state; for a correction, the corrected hands)
    so the supervisor approves something that can be done; one request per round waits
    at a time.
    """
    require_role(actor, *TABLE_STAFF, action="ask for a void or a correction")
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError(
            _("Say why: a void or a correction is asked for with a reason."), extra={"field": "reason"}
        )
    if kind not in Adjustment.Kind.values:
        raise ApplicationError(
            _("Ask for a void or a correction, not %(kind)s.") % {"kind": repr(kind)}, extra={"field": "kind"}
        )
    with transaction.atomic():
        locked, standing = round_lock(round)
        require_act_at_table(actor, locked.table, action="ask for a void or a correction")
        round_check(locked, standing, hold=None)
        if kind == Adjustment.Kind.VOID:
            check_move(locked.state, RoundState.VOIDED, round_number=locked.number, round_id=locked.pk)
            hands = None
        else:
            if locked.state != RoundState.SETTLED:
                raise WrongState(
                    _("Round %(round)s is %(state)s: only a settled round is corrected.")
                    % {"round": locked.number, "state": locked.state}
                )
            if not isinstance(hands, Mapping):
                raise ApplicationError(_("A correction needs the corrected hands."), extra={"field": "hands"})
            hands = read_hands(locked, hands, wagers=round_wagers(locked), complete_boards=True).stored
            _settlement_to_correct(locked, hands)
        if locked.adjustments.filter(status=Adjustment.Status.PENDING).exists():
            raise WrongState(
                _("Round %(round)s already has a request waiting for a supervisor.") % {"round": locked.number}
            )
        adjustment = Adjustment.objects.create(
            round=locked, kind=kind, reason=reason, hands=entered_hands(hands) if hands else None, requested_by=actor
        )
        audit_event_record(
            actor=actor,
            event_type=_ADJUSTMENT_EVENTS[kind, Adjustment.Status.PENDING],
            subject=adjustment,
            after=_adjustment_snapshot(adjustment),
            reason=reason,
        )
        table_changed(locked.table_id)
    return adjustment


def _adjustment_decide(adjustment: Adjustment) -> Adjustment:
    locked = Adjustment.objects.select_for_update(of=("self",)).select_related("round").get(pk=adjustment.pk)
    if locked.status != Adjustment.Status.PENDING:
        raise WrongState(_("This request was already %(status)s.") % {"status": locked.status})
    return locked


def adjustment_approve(*, actor: User | None, adjustment: Adjustment, note: str = "") -> Adjustment:
    """A Floor supervisor or Pit boss approves a request: the round is voided, or corrected, at once.

    Four eyes: not by whoever asked for it, nor by a party to the round (``void_round``, ``correct_round``).
    """
    require_role(actor, *SUPERVISORS, action="approve a void or a correction")
    with transaction.atomic():
        locked = _adjustment_decide(adjustment)
        before = _adjustment_snapshot(locked)
        if locked.kind == Adjustment.Kind.VOID:
            void_round(actor=actor, round=locked.round, reason=locked.reason, requested_by=locked.requested_by)
            posting = Posting.objects.filter(round_id=locked.round_id, kind=Posting.Kind.VOID).first()
        else:
            body = correct_round(
                actor=actor,
                round=locked.round,
                hands=locked.hands or {},
                reason=locked.reason,
                idempotency_key=f"adjustment-{locked.pk}",
                requested_by=locked.requested_by,
            )
            posting = Posting.objects.get(pk=body["settlement_id"])
        locked.status = Adjustment.Status.APPROVED
        locked.decided_by = actor
        locked.decided_at = timezone.now()
        locked.decision_note = (note or "").strip()
        locked.posting = posting
        locked.save(update_fields=["status", "decided_by", "decided_at", "decision_note", "posting"])
        audit_event_record(
            actor=actor,
            event_type=_ADJUSTMENT_EVENTS[locked.kind, Adjustment.Status.APPROVED],
            subject=locked,
            before=before,
            after=_adjustment_snapshot(locked),
            reason=locked.decision_note,
        )
        table_changed(locked.round.table_id)
    return locked


def adjustment_reject(*, actor: User | None, adjustment: Adjustment, note: str) -> Adjustment:
    """A Floor supervisor or Pit boss turns a request down, saying why; the round stays as it is.

    Four eyes: whoever asked for it may withdraw it so (it moves no money); anyone else who is a party to
    the round may not dismiss a request about their own work: another supervisor decides it.
    """
    require_role(actor, *SUPERVISORS, action="reject a void or a correction")
    note = (note or "").strip()
    if not note:
        raise ApplicationError(_("Say why the request is rejected."), extra={"field": "note"})
    with transaction.atomic():
        locked = _adjustment_decide(adjustment)
        if actor is not None and locked.requested_by_id != actor.pk and four_eyes_required():
            party = round_party(user=actor, round=locked.round)
            if party is not None:
                raise NotAllowed(
                    # Translators: party is "settled" or "dealt" (English, as the API's four_eyes names it).
                    _("You %(party)s round %(round)s: another supervisor decides this request.")
                    % {"party": party, "round": locked.round.number},
                    extra={"four_eyes": party},
                )
        before = _adjustment_snapshot(locked)
        locked.status = Adjustment.Status.REJECTED
        locked.decided_by = actor
        locked.decided_at = timezone.now()
        locked.decision_note = note
        locked.save(update_fields=["status", "decided_by", "decided_at", "decision_note"])
        audit_event_record(
            actor=actor,
            event_type=_ADJUSTMENT_EVENTS[locked.kind, Adjustment.Status.REJECTED],
            subject=locked,
            before=before,
            after=_adjustment_snapshot(locked),
            reason=note,
        )
        table_changed(locked.round.table_id)
    return locked
