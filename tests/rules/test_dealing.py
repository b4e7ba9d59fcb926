"""Dice, the action order they give, and the Pai Gow Poker deal."""

from __future__ import annotations

import random

import pytest

from rules.games.cards import deck
from rules.games.dealing import action_order, deal_paigow_poker, roll_dice, secure_rng, shuffled
from rules.games.errors import InvalidHand

SEVEN = (1, 2, 3, 4, 5, 6, 7)


@pytest.mark.parametrize(
    ("dice", "first"),
    [
        ((1, 1, 1), 3),  # 3: bank is 1, then 2, then 3
        ((1, 2, 4), 7),  # 7: the last position before the bank
        ((2, 3, 3), 1),  # 8: round the table once, back to the bank
        ((3, 5, 6), 7),  # 14: twice round, the position before the bank
        ((6, 6, 6), 4),  # 18
        ((1, 1, 5), 7),
    ],
)
def test_the_dice_count_from_the_bank_as_one_counter_clockwise(dice: tuple[int, int, int], first: int) -> None:
    order = action_order(dice, positions=SEVEN, banker=1)
    assert order[0] == first
    assert sorted(order) == list(SEVEN)
    assert order == tuple(SEVEN[(SEVEN.index(first) + i) % 7] for i in range(7))


def test_counting_starts_at_a_player_bank_wherever_it_sits() -> None:
    assert action_order((1, 1, 1), positions=SEVEN, banker=5)[0] == 7
    assert action_order((1, 1, 2), positions=SEVEN, banker=5)[0] == 1


def test_every_position_counts_even_an_empty_one_with_eight_tile_positions() -> None:
    assert action_order((2, 2, 6), positions=tuple(range(1, 9)), banker=1) == (2, 3, 4, 5, 6, 7, 8, 1)
    assert action_order((2, 2, 5), positions=tuple(range(1, 9)), banker=1)[0] == 1


@pytest.mark.parametrize(
    ("dice", "message"),
    [((1, 2), "3 dice expected, got 2"), ((1, 2, 7), "a die shows 1 to 6, not 7"), ((0, 2, 3), "not 0")],
)
def test_impossible_dice_are_refused(dice: tuple[int, ...], message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        action_order(dice, positions=SEVEN, banker=1)


def test_a_pai_gow_poker_deal_gives_seven_hands_of_seven_and_drops_four() -> None:
    dealt = deal_paigow_poker(random.Random(7))
    assert sorted(dealt.hands) == list(SEVEN)
    assert all(len(hand) == 7 for hand in dealt.hands.values())
    assert len(dealt.dropped) == 4
    every = [c for hand in dealt.hands.values() for c in hand] + list(dealt.dropped)
    assert sorted(every) == sorted(deck(joker=True))
    assert dealt.order == action_order(dealt.dice, positions=SEVEN, banker=1)


def test_the_same_seed_deals_the_same_and_given_dice_are_used() -> None:
    one = deal_paigow_poker(random.Random(99), dice=(2, 2, 2))
    two = deal_paigow_poker(random.Random(99), dice=(2, 2, 2))
    assert one == two
    assert one.dice == (2, 2, 2)
    assert one.order[0] == 6


def test_the_secure_generator_draws_from_the_operating_system() -> None:
    rng = secure_rng()
    assert isinstance(rng, random.SystemRandom)
    assert sorted(shuffled(range(52), rng)) == list(range(52))
    assert all(1 <= d <= 6 for d in roll_dice(rng))


def test_shuffles_are_uniform_enough_over_many_seeded_runs() -> None:
    rng = random.Random(3)
    firsts = [shuffled(range(4), rng)[0] for _ in range(8000)]
    counts = [firsts.count(i) for i in range(4)]
    assert all(1800 < c < 2200 for c in counts), counts
