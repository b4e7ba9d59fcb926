"""Reading the revealed hands of a round: parse, check and write them out in one canonical form, one game's way at a
time: the registry's game says which (a banked game's settings, ``banked``; rows set at once, ``rows``; boards placed
street by street, ``ofc``), and what every game shares is ``reading``.

What a dealer enters (``POST /api/rounds/{id}/hands/``) is checked here before anything
is stored, and what is stored is read back here when the round settles:

* Pai Gow Poker and Pai Gow tiles: ``{"banker": {...}, "seats": {"3": {"high": ..., "low": ...}}}``.
  The banker's hand is a setting (``high`` and ``low``) or, when the house banks, the
  unset ``cards`` (``tiles``) for the house way to set; when the system dealt the
  round, a hand left out is set by the house way from the cards it was dealt
  (training and simulation mode). When the house wagers against a player bank (Pai Gow
  Poker), ``"house": {"cards": ...}`` is the dealer's own seven cards, which the
  house way sets.
* Chinese Poker: ``{"seats": {"1": {"front": ..., "middle": ..., "back": ...}}}``.
* The tiles' peer variant: ``{"seats": {"1": {"high": ..., "low": ...}}}``, no banker.

Every problem is refused with the position it is in ("Seat 3, high hand: 5 cards
expected, got 4"); a card or tile used more often than the deck or set holds is
named with every position holding it. Nothing here touches the database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from casino.errors import ApplicationError
from rules import options as rule_options
from rules.games import registry
from rules.hands.banked import banked_hands, peer_hands
from rules.hands.ofc import boards_read, ofc_hands, ofc_history_check, ofc_place
from rules.hands.reading import BANK, DEALER, RoundHands, StoredHand, StoredHands, Swap, position_name
from rules.hands.rows import arranged_hands
from rules.hands.stored import (
    PEER_PLAYERS,
    HandsEntered,
    dealt_bank_position,
    dealt_hands_set,
    entry_fields,
    round_is_banked,
    round_is_peer,
    stored_hands,
)

__all__ = [
    "BANK",
    "DEALER",
    "HandsEntered",
    "PEER_PLAYERS",
    "RoundHands",
    "StoredHand",
    "StoredHands",
    "Swap",
    "boards_read",
    "dealt_bank_position",
    "dealt_hands_set",
    "entry_fields",
    "ofc_hands",
    "ofc_history_check",
    "ofc_place",
    "position_name",
    "round_hands_read",
    "round_is_banked",
    "round_is_peer",
    "stored_hands",
]


def round_hands_read(
    *,
    game: str,
    snapshot: Mapping[str, Any],
    payload: Mapping[str, Any],
    seats_in_play: Sequence[int],
    bank_seat: int | None,
    dealt: Mapping[str, str] | None,
    house_plays: bool = False,
) -> RoundHands:
    """Check a round's hands for its game and rules (the one entry point; see the module's docstring).
    ``house_plays``: the house wagers against the player bank."""
    if not isinstance(payload, Mapping):
        raise ApplicationError(_("Give the hands as an object with the seats' hands."), extra={"field": "hands"})
    engine = rule_options.engine_options(snapshot)
    banking = snapshot["banking_mode"]
    spec = registry.game(game)
    if spec.placed_by_street:
        raise ApplicationError(
            _("%(game)s is placed street by street: post each street to the round's placements.") % {"game": spec.name},
            extra={"field": "hands"},
        )
    if not spec.bankable:
        return arranged_hands(game=game, payload=payload, seats_in_play=seats_in_play, dealt=dealt)
    if banking == rule_options.NO_BANK:
        return peer_hands(game=game, engine=engine, payload=payload, seats_in_play=seats_in_play, dealt=dealt)
    return banked_hands(
        game=game,
        engine=engine,
        payload=payload,
        seats_in_play=seats_in_play,
        bank_seat=bank_seat,
        house_banks=bank_seat is None,
        dealt=dealt,
        house_plays=house_plays,
    )
