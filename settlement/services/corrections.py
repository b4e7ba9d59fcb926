"""Voids and corrections (a supervisor's acts, with a reason), and the dealer's requests for them, decided from the
pit. A void returns the wagers; a correction reverses the settlement in force and settles again with the
corrected hands; both stay in the ledger and the audit trail.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from casino.roles import SUPERVISORS, require_role
from settlement.ledger import post, reversal_lines
from settlement.models import Adjustment, LedgerEntry, Posting
from settlement.services.play import read_hands, round_seat_ids, round_wagers
from settlement.services.rounds import round_transition
from settlement.services.settle import (
    check_key,
    entered_hands,
    key_race,
    replay,
    settle_into,
    settlement_body,
    used_key_posting,
)
from settlement.sql import key_used_sql, round_lock, round_lock_reading, stakes_read, stakes_sql
from tables.models import Round
from tables.permissions import TABLE_STAFF, require_act_at_table
from tables.states import RoundState, check_move

# --- voids and corrections ------------------------------------------------------------------------


def void_round(*, actor: AbstractBaseUser | None, round: Round, reason: str) -> Round:
    """Void a round not yet settled (a Floor supervisor's or Pit boss's act, with a reason); return its wagers.

    Every wager posting is undone line for line by one ``void`` posting.
    """
    require_role(actor, *SUPERVISORS, action="void a round")
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError("A round is voided only with a reason.", extra={"field": "reason"})
    with transaction.atomic():
        locked = round_lock(round)
        check_move(locked.state, RoundState.VOIDED, round_number=locked.number)
        entries = list(LedgerEntry.objects.filter(posting__round=locked, posting__kind=Posting.Kind.WAGER))
        if entries:
            numbers = {pk: number for number, pk in round_seat_ids(locked).items()}
            post(
                round=locked,
                kind=Posting.Kind.VOID,
                lines=reversal_lines(entries, numbers),
                actor=actor,
                seat_ids=round_seat_ids(locked),
                reason=reason,
            )
        return round_transition(already_locked=True, actor=actor, round=locked, target=RoundState.VOIDED, reason=reason)


def correct_round(
    *,
    actor: AbstractBaseUser | None,
    round: Round,
    hands: Mapping[str, Any],
    reason: str,
    idempotency_key: str,
) -> dict[str, Any]:
    """Correct a settled round: reverse its settlement and settle again with the corrected hands.

    A Floor supervisor's or Pit boss's act, with a reason. Two postings, linked: a
    ``reversal`` that undoes the settlement in force line for line, and a new
    ``settlement`` that names the one it corrects; one audit event holds both. For OFC
    the corrected hands are the finished boards (front, middle, back for each seat).
    The same key returns the same answer.
    """
    require_role(actor, *SUPERVISORS, action="correct a settled round")
    key = check_key(idempotency_key)
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError("A correction needs a reason.", extra={"field": "reason"})
    with key_race(), transaction.atomic():
        locked, (key_used, stakes) = round_lock_reading(round, key_used_sql(key), stakes_sql(round))
        if key_used:
            return replay(used_key_posting(key), locked, correction=True)
        if locked.state != RoundState.SETTLED:
            raise WrongState(
                f"Round {locked.number} is {locked.state}: only a settled round is corrected "
                "(change the hands, or void it, before it settles)."
            )
        wagers, seat_ids = stakes_read(locked, stakes)
        read = read_hands(locked, hands, wagers=wagers, complete_boards=True)
        current = Posting.objects.get(round=locked, kind=Posting.Kind.SETTLEMENT, reversed_by__isnull=True)
        if entered_hands(read.stored) == entered_hands(current.hands or {"seats": {}}):
            raise ApplicationError(
                "The corrected hands are the hands already settled: nothing to correct.", extra={"field": "hands"}
            )
        seat_ids = round_seat_ids(locked)
        numbers = {pk: number for number, pk in seat_ids.items()}
        post(
            round=locked,
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
        before_hands = locked.hands
        round_transition(
            already_locked=True,
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
            before={"settlement": current.pk, "hands": before_hands, "house": (current.result or {}).get("house")},
            after={"settlement": posting.pk, "hands": read.stored, "house": (posting.result or {}).get("house")},
            reason=reason,
        )
    return settlement_body(posting)


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


def _adjustment_snapshot(adjustment: Adjustment) -> dict[str, Any]:
    return {
        "round": adjustment.round_id,
        "kind": adjustment.kind,
        "status": adjustment.status,
        "reason": adjustment.reason,
        "requested_by": adjustment.requested_by.get_username() if adjustment.requested_by else None,
        "decided_by": adjustment.decided_by.get_username() if adjustment.decided_by else None,
        "decision_note": adjustment.decision_note,
    }


def adjustment_request(
    *,
    actor: AbstractBaseUser | None,
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
        raise ApplicationError("Say why: a void or a correction is asked for with a reason.", extra={"field": "reason"})
    if kind not in Adjustment.Kind.values:
        raise ApplicationError(f"Ask for a void or a correction, not {kind!r}.", extra={"field": "kind"})
    with transaction.atomic():
        locked = round_lock(round)
        require_act_at_table(actor, locked.table, action="ask for a void or a correction")
        if kind == Adjustment.Kind.VOID:
            check_move(locked.state, RoundState.VOIDED, round_number=locked.number)
            hands = None
        else:
            if locked.state != RoundState.SETTLED:
                raise WrongState(f"Round {locked.number} is {locked.state}: only a settled round is corrected.")
            if not isinstance(hands, Mapping):
                raise ApplicationError("A correction needs the corrected hands.", extra={"field": "hands"})
            hands = read_hands(locked, hands, wagers=round_wagers(locked), complete_boards=True).stored
        if locked.adjustments.filter(status=Adjustment.Status.PENDING).exists():
            raise WrongState(f"Round {locked.number} already has a request waiting for a supervisor.")
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
    return adjustment


def _adjustment_decide(adjustment: Adjustment) -> Adjustment:
    locked = Adjustment.objects.select_for_update(of=("self",)).select_related("round").get(pk=adjustment.pk)
    if locked.status != Adjustment.Status.PENDING:
        raise WrongState(f"This request was already {locked.status}.")
    return locked


def adjustment_approve(*, actor: AbstractBaseUser | None, adjustment: Adjustment, note: str = "") -> Adjustment:
    """A Floor supervisor or Pit boss approves a request: the round is voided, or corrected, at once."""
    require_role(actor, *SUPERVISORS, action="approve a void or a correction")
    with transaction.atomic():
        locked = _adjustment_decide(adjustment)
        before = _adjustment_snapshot(locked)
        if locked.kind == Adjustment.Kind.VOID:
            void_round(actor=actor, round=locked.round, reason=locked.reason)
            posting = Posting.objects.filter(round=locked.round, kind=Posting.Kind.VOID).first()
        else:
            body = correct_round(
                actor=actor,
                round=locked.round,
                hands=locked.hands or {},
                reason=locked.reason,
                idempotency_key=f"adjustment-{locked.pk}",
            )
            posting = Posting.objects.get(pk=body["settlement_id"])
        locked.status = Adjustment.Status.APPROVED
        locked.decided_by = actor  # type: ignore[assignment]
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
    return locked


def adjustment_reject(*, actor: AbstractBaseUser | None, adjustment: Adjustment, note: str) -> Adjustment:
    """A Floor supervisor or Pit boss turns a request down, saying why; the round stays as it is."""
    require_role(actor, *SUPERVISORS, action="reject a void or a correction")
    note = (note or "").strip()
    if not note:
        raise ApplicationError("Say why the request is rejected.", extra={"field": "note"})
    with transaction.atomic():
        locked = _adjustment_decide(adjustment)
        before = _adjustment_snapshot(locked)
        locked.status = Adjustment.Status.REJECTED
        locked.decided_by = actor  # type: ignore[assignment]
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
    return locked
