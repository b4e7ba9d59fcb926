"""A round's whole life up to its settlement, one topic a module (DESIGN.md, "One round, end to end"):

* ``transitions``: opening a round (who banks, what the bank puts up) and ``round_transition``, the one
  service that moves a round, under its row lock, with its audit event;
* ``play``: wagers, closing the betting, the deal, the hands and the Open-Face placements;
* ``house_wager``: the house's wager against a player bank; ``swaps``: Chinese Poker's swaps;
* ``voids``: voids, and the four eyes every void and correction is held to.

The settle and the corrections are ``settlement.services``'. Money moves as balanced postings
(``ledger.services.post``). Callers import the services from here.
"""

from __future__ import annotations

from rounds.services.play import (
    round_close_betting,
    round_deal,
    round_hands_record,
    round_placements_record,
    wager_place,
)
from rounds.services.swaps import round_swap_record
from rounds.services.transitions import round_open, round_transition
from rounds.services.voids import four_eyes_required, round_party, void_round

__all__ = [
    "four_eyes_required",
    "round_close_betting",
    "round_deal",
    "round_hands_record",
    "round_open",
    "round_party",
    "round_placements_record",
    "round_swap_record",
    "round_transition",
    "void_round",
    "wager_place",
]
