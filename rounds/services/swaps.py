"""Chinese Poker's swap at a three-player table (GAME_RULES.md §3, "Swap"): one seat's swap, recorded on the dealt
round in the order the seats announce it (``rules.surrender_swap`` checks and stores it)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from casino.errors import WrongState
from casino.events import AuditEventType
from casino.roles import TABLE_STAFF, require_role
from rounds.models import Round
from rounds.services.play import round_wagers
from rounds.services.transitions import round_check, round_transition
from rounds.sql import round_lock
from rounds.states import RoundState
from rules import surrender_swap
from rules.hands import stored_hands
from tables.permissions import require_act_at_table


def round_swap_record(*, actor: User | None, round: Round, seat: Any, gave: Any, took: Any) -> Round:
    """Record ``seat``'s swap: the cards it ``gave`` for as many it ``took`` from the 13 undealt cards.

    After the deal, before the hands are set (the round is ``dealt``); three players only, a seat once, in the
    order announced, each swap against the undealt cards as the swaps before it left them. When the system dealt,
    the cards given must be in the seat's hand and the cards taken among the undealt ones; with a live deal the
    dealer enters the cards taken. The swap costs the seat 2 points to each other player when the round settles.
    """
    require_role(actor, *TABLE_STAFF, action="record a swap")
    with transaction.atomic():
        locked, standing = round_lock(round)
        require_act_at_table(actor, locked.table, action="record a swap")
        round_check(locked, standing)
        if locked.state != RoundState.DEALT:
            when = (
                _("the hands are revealed: a swap is made before the hands are set")
                if locked.state in (RoundState.REVEALED, RoundState.SETTLED)
                else _("it is %(state)s: a swap is made after the deal, before the hands")
                % {"state": str(locked.state).replace("_", " ")}
            )
            raise WrongState(
                _("Round %(round)s cannot take a swap: %(when)s.") % {"round": locked.number, "when": when},
                extra={"field": "seat"},
            )
        snapshot = locked.rule_set_snapshot
        if "swap_allowed" not in snapshot["options"]:
            raise WrongState(
                _("%(game)s has no swap.") % {"game": locked.table.get_game_display()},
                extra={"field": "seat"},
            )
        swaps = surrender_swap.recorded_swaps(stored_hands(locked.hands))
        new = {"seat": seat, "gave": gave, "took": took}
        checked, _after, _moved, _loose = surrender_swap.swaps_check(
            [*swaps, new], snapshot=snapshot, seats_in_play=sorted(round_wagers(locked)), dealt=locked.dealt
        )
        return round_transition(
            standing=standing,
            actor=actor,
            round=locked,
            target=None,
            changes={"hands": {"seats": {}, surrender_swap.SWAPS: checked}},
            event=AuditEventType.ROUND_SWAPPED,
        )
