"""Reads for Open-Face Chinese Poker at a table: the button, the turn order and who is in Fantasyland.

Nothing here is kept in a session or a column of its own: every answer is derived from the
table's stored rounds, so the replay and an auditor can derive it again
(``rules.games.ofc_table`` holds the rules; GAME_RULES.md §4).

* A round's **turn order** is its ``action_order``, fixed when it is dealt: the seats in play,
  left of the button first, the button (the last) acting last. A round dealt before the button
  existed has the dice's order, which holds the dealer's position 0: it has no turn order.
* The **button** moves clockwise after every hand: the next seat in play after the button of the
  table's previous round that was not voided (a voided round is dealt again with the same button);
  the table's first round has it on the highest seat in play.
* A seat is in **Fantasyland** when the rule set has the option on and the seat's board qualified
  (or, played in Fantasyland, stayed) in the table's previous round that was not voided, that round
  settled: its stored hands (the hands its settlement in force was made of) say so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rounds.models import Round
from rounds.states import RoundState
from rules.games import ofc, ofc_table, registry
from rules.games.cards import parse_cards
from rules.hands import StoredHands, stored_hands

DEALER = 0  # the dealer's own position in a dice order (``rules.hands.DEALER``)


def turn_order(round_: Round) -> tuple[int, ...] | None:
    """The round's turn order (its ``action_order``), or None before its deal, or for a round dealt before the
    button (a dice order, with the dealer's position in it), or a game not placed street by street."""
    order = round_.action_order
    if not order or DEALER in order or not registry.game(round_.table.game).placed_by_street:
        return None
    return tuple(order)


def button(round_: Round) -> int | None:
    """The seat holding the dealer button in ``round_`` once it is dealt (the seat acting last)."""
    order = turn_order(round_)
    return ofc_table.button_of(order) if order else None


def previous_round(round_: Round) -> Round | None:
    """The table's round before ``round_`` that was not voided (None at the table's first round)."""
    return (
        Round.objects.filter(table_id=round_.table_id, number__lt=round_.number)
        .exclude(state=RoundState.VOIDED)
        .order_by("-number")
        .first()
    )


def button_next(round_: Round, seats_in_play: Sequence[int]) -> int:
    """Where the button is for ``round_`` with these seats in play: moved on from the previous round's."""
    previous = previous_round(round_)
    return ofc_table.button_next(previous=button(previous) if previous else None, seats_in_play=seats_in_play)


def _board(rows: Mapping[str, Any]) -> ofc.Board:
    return ofc.Board.from_rows(*(parse_cards(rows[row]) for row in ofc.ROWS))


def fantasyland_of(hands: StoredHands | None) -> dict[int, str]:
    """The seats a round's stored hands played in Fantasyland, each with its discard ("" when none)."""
    played = (hands.get("fantasyland") if hands is not None else None) or {}
    return {int(seat): str(discard) for seat, discard in played.items()}


def fantasyland_seats(round_: Round, seats_in_play: Sequence[int]) -> frozenset[int]:
    """The seats in play in Fantasyland this round (see the module's docstring)."""
    if not round_.rule_set_snapshot["options"].get("fantasyland"):
        return frozenset()
    if not registry.game(round_.table.game).placed_by_street:
        return frozenset()
    previous = previous_round(round_)
    hands = stored_hands(previous.hands) if previous is not None else None
    if previous is None or previous.state != RoundState.SETTLED or hands is None:
        return frozenset()
    played = hands["seats"]
    was_in = fantasyland_of(hands)
    seats = set()
    for seat in seats_in_play:
        rows = played.get(str(seat))
        if rows is None:
            continue
        if ofc_table.fantasyland_next(_board(rows), in_fantasyland=seat in was_in):
            seats.add(seat)
    return frozenset(seats)


def placed_turns(placements: Mapping[str, Any] | None) -> list[tuple[int, int]]:
    """The placements made so far, ``(seat, cards placed)`` each, as stored under ``turns``."""
    return [(int(seat), int(cards)) for seat, cards in (placements or {}).get("turns", [])]


def next_turn(round_: Round, seats_in_play: Sequence[int]) -> ofc_table.Turn | None:
    """Whose turn it is in a dealt round (the seat, the street, the cards it receives), None once every board is
    complete or when the round has no turn order."""
    order = turn_order(round_)
    if order is None:
        return None
    fantasyland = fantasyland_seats(round_, seats_in_play)
    return ofc_table.next_turn(order, len(placed_turns(round_.placements)), fantasyland=fantasyland)


def dealt_so_far(round_: Round) -> dict[str, str] | None:
    """The system's deal as far as it has gone: each seat's cards placed and, for the seat whose turn it is, the
    cards of its street; the cards of players still waiting are not dealt yet (what the API shows)."""
    if round_.dealt is None:
        return None
    order = turn_order(round_)
    if order is None or round_.state != RoundState.DEALT:
        return dict(round_.dealt)
    turns = placed_turns(round_.placements)
    received = dict.fromkeys(order, 0)
    for seat, cards in turns:
        received[seat] += cards
    turn = ofc_table.next_turn(order, len(turns), fantasyland=fantasyland_seats(round_, order))
    if turn is not None:
        received[turn.seat] += turn.cards
    shown = {}
    for seat in order:
        cards = round_.dealt[str(seat)].split()
        if received[seat] >= len(cards) - 1 and len(cards) > ofc.BOARD_SIZE:
            received[seat] = len(cards)  # a Fantasyland seat that has set its 13 has seen all 14
        shown[str(seat)] = " ".join(cards[: received[seat]])
    return shown
