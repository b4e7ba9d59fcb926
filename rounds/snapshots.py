"""A round as its audit events record it, before and after each change (``rounds.services.round_transition``):
``verify_ledger`` holds every round to the chain of its events (``settlement.verify.round_audit_check``)."""

from __future__ import annotations

from typing import Any

from rounds.models import Round


def round_snapshot(round_: Round) -> dict[str, Any]:
    """The round's state, as an audit event's ``before`` and ``after`` hold it."""
    return {
        "table": round_.table.name,
        "number": round_.number,
        "shift": round_.shift_id,
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
