"""The settle and what follows it (DESIGN.md, "One round, end to end"):

* ``settle``: settling once on an idempotency key, and the dealer's preview;
* ``corrections``: corrections, and the dealer's requests for voids and corrections decided from the pit.

A round's life up to the settle is ``rounds.services``'. Money moves as balanced postings (``ledger.services.post``).
Callers import the services from here.
"""

from __future__ import annotations

from settlement.services.corrections import (
    adjustment_approve,
    adjustment_reject,
    adjustment_request,
    correct_round,
    correction_submit,
)
from settlement.services.settle import (
    MAX_KEY_LENGTH,
    SettlementAnswer,
    SettlementPreview,
    settle_round,
    settlement_body,
    settlement_preview,
)

__all__ = [
    "MAX_KEY_LENGTH",
    "SettlementAnswer",
    "SettlementPreview",
    "adjustment_approve",
    "adjustment_reject",
    "adjustment_request",
    "correct_round",
    "correction_submit",
    "settle_round",
    "settlement_body",
    "settlement_preview",
]
