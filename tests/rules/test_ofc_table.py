"""Open-Face at a table (GAME_RULES.md §4): the button, the turn order and Fantasyland, as a dealer calls them."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.games import ofc, ofc_table
from rules.games.cards import parse_cards
from rules.games.errors import InvalidHand

# --- the button -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("previous", "in_play", "button"),
    [
        (None, (1, 2, 3), 3),  # the first round: the highest seat in play, so seat 1 acts first
        (None, (2, 5), 5),
        (1, (1, 2, 3), 2),  # clockwise: up the seat numbers
        (3, (1, 2, 3), 1),  # round from the highest seat to the lowest
        (2, (1, 3, 4), 3),  # seat 2 left the game: the button goes on to the next seat in play
        (4, (1, 2, 3), 1),  # the button's own seat left, and nobody sits higher
        (5, (2, 6), 6),  # empty seats 3, 4 and 5 are skipped
    ],
)
def test_the_button_moves_clockwise_to_the_next_seat_in_play(previous, in_play, button) -> None:  # type: ignore[no-untyped-def]
    assert ofc_table.button_next(previous=previous, seats_in_play=in_play) == button


@pytest.mark.parametrize(
    ("button", "in_play", "order"),
    [
        (3, (1, 2, 3), (1, 2, 3)),
        (1, (1, 2, 3), (2, 3, 1)),  # the player left of the button first, the button last
        (2, (1, 2, 4), (4, 1, 2)),
        (6, (2, 6), (2, 6)),
    ],
)
def test_the_player_left_of_the_button_acts_first_then_clockwise(button, in_play, order) -> None:  # type: ignore[no-untyped-def]
    assert ofc_table.turn_order(button=button, seats_in_play=in_play) == order
    assert ofc_table.button_of(order) == button


def test_a_button_on_a_seat_not_in_play_is_refused() -> None:
    with pytest.raises(InvalidHand, match=r"the button \(seat 4\) is not a seat in play"):
        ofc_table.turn_order(button=4, seats_in_play=(1, 2))


# --- turns ----------------------------------------------------------------------------------------------


def test_each_street_goes_round_the_table_before_the_next_starts() -> None:
    turns = ofc_table.turn_sequence((2, 3, 1))
    assert [(t.seat, t.street, t.cards) for t in turns[:6]] == [
        (2, 1, 5), (3, 1, 5), (1, 1, 5), (2, 2, 1), (3, 2, 1), (1, 2, 1),
    ]  # fmt: skip
    assert len(turns) == 3 * 9 and sum(t.cards for t in turns) == 3 * 13


def test_a_fantasyland_seat_places_once_all_its_cards_on_its_first_turn() -> None:
    turns = ofc_table.turn_sequence((2, 3, 1), fantasyland={3})
    assert [(t.seat, t.street, t.cards, t.places) for t in turns[:4]] == [
        (2, 1, 5, 5), (3, 1, 14, 13), (1, 1, 5, 5), (2, 2, 1, 1),
    ]  # fmt: skip
    assert [t.seat for t in turns].count(3) == 1 and len(turns) == 2 * 9 + 1


@pytest.mark.parametrize(
    ("turns", "fantasyland", "message"),
    [
        ([(2, 5)], (), "placement 1 is seat 2's, but it is seat 1's turn"),
        ([(1, 5), (1, 1)], (), "placement 2 is seat 1's, but it is seat 2's turn"),  # a double tap
        ([(1, 4)], (), "street 1 places 5 cards, not 4"),
        ([(1, 5), (2, 5), (1, 2)], (), "street 2 places 1 cards, not 2"),
        ([(1, 5), (2, 5)], (2,), "seat 2 is in Fantasyland and sets 13 cards at once, not 5"),
        ([(1, 13)], (), "street 1 places 5 cards, not 13"),  # 13 at once without Fantasyland
    ],
)
def test_a_placement_history_out_of_turn_or_of_the_wrong_size_is_refused(turns, fantasyland, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidHand, match=message):
        ofc_table.check_turns(turns, (1, 2), fantasyland=fantasyland)


def test_a_history_must_hold_what_the_boards_hold() -> None:
    ofc_table.check_turns([(1, 5), (2, 13)], (1, 2), fantasyland={2}, cards_on_boards={1: 5, 2: 13})
    with pytest.raises(InvalidHand, match="seat 1's board holds 6 cards, its placements 5"):
        ofc_table.check_turns([(1, 5), (2, 13)], (1, 2), fantasyland={2}, cards_on_boards={1: 6, 2: 13})


# --- Fantasyland ----------------------------------------------------------------------------------------

QUEENS = ofc.Board.from_rows("Qs Qd 2c", "Kc Kh 7d 7s 2h", "Ac Ad Ah 3s 3d")  # QQ in front, no foul
JACKS = ofc.Board.from_rows("Js Jd 2c", "Kc Kh 7d 7s 2h", "Ac Ad Ah 3s 3d")  # JJ: not enough
QUEENS_FOULED = ofc.Board.from_rows("Qs Qd 2c", "Kc Jh 7d 5s 2h", "Ac Ad 9h 3s 4d")  # middle below the front
TRIPS_FRONT = ofc.Board.from_rows("7s 7d 7c", "8c 8h 8d 2s 2h", "Ac Ad Ah 3s 3d")
FULL_HOUSE_MIDDLE = ofc.Board.from_rows("4s 5d 6c", "8c 8h 8d 2s 2h", "Ac Ad Ah 3s 3h")
QUADS_BACK = ofc.Board.from_rows("2s 3d 4c", "Tc Th 7d 7s 2h", "Ac Ad Ah As 3h")
FLUSH_BACK = ofc.Board.from_rows("Ks Kd 4c", "Tc Th 7d 7s 2h", "Ah Qh 9h 6h 3h")  # KK: would qualify, not stay


@pytest.mark.parametrize(
    ("board", "in_fantasyland", "next_round"),
    [
        (QUEENS, False, True),  # QQ or better in front qualifies
        (JACKS, False, False),
        (QUEENS_FOULED, False, False),  # a fouled board never qualifies
        (QUEENS, True, False),  # in Fantasyland, QQ is not enough to stay
        (FLUSH_BACK, True, False),  # a flush in the back: not enough to stay
        (TRIPS_FRONT, True, True),  # stays: trips in front
        (FULL_HOUSE_MIDDLE, True, True),  # stays: a full house in the middle
        (QUADS_BACK, True, True),  # stays: four of a kind in the back
        (ofc.Board.from_rows("7s 7d 7c", "8c 8h 2d 3s 4h", "Ac Kd Qh 5s 9d"), True, False),  # trips, but fouled
    ],
)
def test_fantasyland_is_earned_with_queens_and_kept_with_trips_a_full_house_or_quads(  # type: ignore[no-untyped-def]
    board, in_fantasyland, next_round
) -> None:
    assert ofc_table.fantasyland_next(board, in_fantasyland=in_fantasyland) is next_round


def test_a_fantasyland_player_receives_fourteen_cards_unless_four_play() -> None:
    assert [ofc_table.fantasyland_cards(n) for n in (2, 3, 4)] == [14, 14, 13]


def test_the_system_deals_fourteen_cards_to_a_fantasyland_seat_from_one_deck() -> None:
    dealt = ofc_table.deal(random.Random(7), order=(2, 3, 1), fantasyland={3})
    assert {seat: len(cards) for seat, cards in dealt.items()} == {2: 13, 3: 14, 1: 13}
    assert max(Counter(card for cards in dealt.values() for card in cards).values()) == 1


def test_a_fantasyland_seat_sets_thirteen_and_discards_the_fourteenth() -> None:
    dealt = parse_cards("Qs Qd 2c Kc Kh 7d 7s 2h Ac Ad Ah 3s 3d 9c")
    rows = {"front": dealt[:3], "middle": dealt[3:8], "back": dealt[8:13]}
    assert ofc_table.set_fantasyland(dealt, rows, dealt[13:]) == QUEENS
    with pytest.raises(InvalidHand, match="14 cards dealt: set 13 and discard 1, not 0"):
        ofc_table.set_fantasyland(dealt, rows, ())
    with pytest.raises(InvalidHand, match="5♥ was not dealt to this seat"):
        ofc_table.set_fantasyland(dealt, rows, parse_cards("5h"))
    with pytest.raises(InvalidHand, match="a finished front holds 3 cards, got 2"):
        ofc_table.set_fantasyland(dealt, {**rows, "front": dealt[:2]}, dealt[2:3])
