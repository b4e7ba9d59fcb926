"""What the tablet offers for Chinese Poker's swap at a three-player table (GAME_RULES.md §3): presentation only; the
swap itself is ``rounds.services.round_swap_record``, checked and stored by ``rules.surrender_swap``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rounds.models import Round
from rules import surrender_swap
from rules.hands import Swap, stored_hands


@dataclass
class SwapPanel:
    """Who may still swap (in the action order), the swaps so far, the undealt cards when the system dealt."""

    seats: list[int]
    swaps: list[Swap]
    undealt: str


def swap_panel(round_: Round, *, wagers: Mapping[int, int]) -> SwapPanel | None:
    """The swap on a dealt round, or None where the rules or the number of players do not allow it."""
    snapshot = round_.rule_set_snapshot
    if not snapshot["options"].get("swap_allowed") or len(wagers) != surrender_swap.SWAP_PLAYERS:
        return None
    recorded = stored_hands(round_.hands)
    swaps = surrender_swap.recorded_swaps(recorded)
    swapped = {swap["seat"] for swap in swaps}
    order = [seat for seat in (round_.action_order or []) if seat in wagers]
    order += sorted(seat for seat in wagers if seat not in order)
    undealt = ""
    if round_.dealt:
        undealt = surrender_swap.undealt_now(round_.dealt, stored=recorded, snapshot=snapshot)
    return SwapPanel(seats=[seat for seat in order if seat not in swapped], swaps=swaps, undealt=undealt)
