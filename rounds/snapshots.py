"""A round as its audit events record it, before and after each change (``rounds.services.round_transition``):
``verify_ledger`` holds every round to the chain of its events (``settlement.verify.round_audit_check``)."""

from __future__ import annotations

from typing import TypedDict

from rounds.models import Round
from rules.hands import StoredHands


class RoundSnapshot(TypedDict):
    """A round as an audit event holds it: its table, number and shift, its dealer (the user's id), its state, its
    bank, its rules' version, why it was voided, its dice and action order, its hands and its Open-Face placements
    (as stored)."""

    table: str
    number: int
    shift: int
    dealer: int | None
    state: str
    bank_seat: int | None
    bank_cents: int | None
    rule_set_version: int
    void_reason: str
    dice: list[int] | None
    action_order: list[int] | None
    hands: StoredHands | None
    placements: dict[str, object] | None


def round_snapshot(round_: Round) -> RoundSnapshot:
    """The round's state, as an audit event's ``before`` and ``after`` hold it."""
    return {
        "table": round_.table.name,
        "number": round_.number,
        "shift": round_.shift_id,
        "dealer": round_.dealer_id,
        "state": round_.state,
        "bank_seat": round_.bank_seat.number if round_.bank_seat is not None else None,
        "bank_cents": round_.bank_cents,
        "rule_set_version": round_.rule_set_snapshot["version"],
        "void_reason": round_.void_reason,
        "dice": round_.dice,
        "action_order": round_.action_order,
        "hands": round_.hands,
        "placements": round_.placements,
    }
