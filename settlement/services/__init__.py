"""A round's whole life, one topic a module (DESIGN.md, "One round, end to end"):

* ``rounds``: opening a round (who banks, what the bank puts up) and ``round_transition``, the one
  service that moves a round, under its row lock, with its audit event;
* ``play``: wagers, closing the betting, the deal, the hands and the Open-Face placements;
* ``settle``: settling once on an idempotency key, and the dealer's preview;
* ``corrections``: voids and corrections, and the dealer's requests for them decided from the pit.

Money moves as balanced postings (``ledger.services.post``). Callers import the services from here.
"""

from __future__ import annotations

from settlement.services.corrections import (
    adjustment_approve,
    adjustment_reject,
    adjustment_request,
    correct_round,
    correction_submit,
    four_eyes_required,
    round_party,
    void_round,
)
from settlement.services.play import (
    round_close_betting,
    round_deal,
    round_hands_record,
    round_placements_record,
    wager_place,
)
from settlement.services.rounds import round_open, round_transition
from settlement.services.settle import MAX_KEY_LENGTH, settle_round, settlement_body, settlement_preview
from settlement.services.swaps import round_swap_record

__all__ = [
    "MAX_KEY_LENGTH",
    "adjustment_approve",
    "adjustment_reject",
    "adjustment_request",
    "correct_round",
    "correction_submit",
    "four_eyes_required",
    "round_close_betting",
    "round_deal",
    "round_hands_record",
    "round_open",
    "round_party",
    "round_placements_record",
    "round_swap_record",
    "round_transition",
    "settle_round",
    "settlement_body",
    "settlement_preview",
    "void_round",
    "wager_place",
]
