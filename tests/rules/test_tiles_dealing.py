"""The wall of eight stacks and the Pai Gow tiles deal (GAME_RULES.md §1 "Dealing")."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.games.dealing import action_order
from rules.games.errors import InvalidHand
from rules.games.tiles import TILE_SET
from rules.games.tiles_dealing import TILE_POSITIONS, build_wall, deal_paigow_tiles

EIGHT = TILE_POSITIONS


def test_the_wall_is_the_whole_set_in_eight_stacks_of_four() -> None:
    wall = build_wall(random.Random(4))
    assert len(wall) == 8
    assert all(len(stack) == 4 for stack in wall)
    assert Counter(t for stack in wall for t in stack) == Counter(TILE_SET)


def test_the_same_seed_builds_the_same_wall_and_another_seed_another() -> None:
    assert build_wall(random.Random(10)) == build_wall(random.Random(10))
    assert build_wall(random.Random(10)) != build_wall(random.Random(11))


@pytest.mark.parametrize(
    ("dice", "first"),
    [
        ((1, 1, 1), 3),  # 3: the bank is 1, then 2, then 3
        ((1, 2, 4), 7),  # 7
        ((2, 2, 4), 8),  # 8: the last position before the bank
        ((2, 3, 4), 1),  # 9: once round the table, back to the bank
        ((4, 6, 6), 8),  # 16: twice round, the position before the bank
        ((6, 6, 6), 2),  # 18
    ],
)
def test_the_position_the_dice_reach_takes_the_first_stack_and_the_next_ones_follow_counter_clockwise(
    dice: tuple[int, int, int], first: int
) -> None:
    dealt = deal_paigow_tiles(random.Random(2), dice=dice)
    assert dealt.order[0] == first
    assert dealt.order == tuple(EIGHT[(EIGHT.index(first) + i) % 8] for i in range(8))
    assert dealt.stacks[first] == 1
    assert dealt.hands[first] == dealt.wall[0]
    next_one = EIGHT[(EIGHT.index(first) + 1) % 8]
    assert dealt.stacks[next_one] == 2 and dealt.hands[next_one] == dealt.wall[1]


def test_every_position_takes_its_own_stack_and_the_whole_set_is_dealt_at_a_full_table() -> None:
    dealt = deal_paigow_tiles(random.Random(8))
    assert sorted(dealt.hands) == list(EIGHT)
    assert sorted(dealt.stacks.values()) == list(range(1, 9))
    assert all(dealt.hands[p] == dealt.wall[dealt.stacks[p] - 1] for p in EIGHT)
    assert Counter(t for hand in dealt.hands.values() for t in hand) == Counter(TILE_SET)
    assert dealt.undealt == ()
    assert dealt.order == action_order(dealt.dice, positions=EIGHT, banker=1)


def test_a_player_bank_counts_as_one_wherever_it_sits() -> None:
    dealt = deal_paigow_tiles(random.Random(3), banker=6, dice=(1, 1, 1))
    assert dealt.order[0] == 8  # 6 is 1, 7 is 2, 8 is 3
    assert dealt.stacks[8] == 1


def test_a_smaller_table_leaves_the_last_stacks_in_the_wall() -> None:
    dealt = deal_paigow_tiles(random.Random(5), positions=(1, 2, 3, 4, 5), dice=(1, 1, 1))
    assert dealt.order == (3, 4, 5, 1, 2)
    assert len(dealt.hands) == 5
    assert dealt.undealt == dealt.wall[5:]
    assert Counter(t for hand in [*dealt.hands.values(), *dealt.undealt] for t in hand) == Counter(TILE_SET)


def test_the_same_seed_and_dice_deal_the_same_and_the_dice_are_rolled_when_not_given() -> None:
    assert deal_paigow_tiles(random.Random(9)) == deal_paigow_tiles(random.Random(9))
    dealt = deal_paigow_tiles(random.Random(9))
    assert len(dealt.dice) == 3 and all(1 <= d <= 6 for d in dealt.dice)


def test_the_secure_generator_is_the_default() -> None:
    dealt = deal_paigow_tiles()
    assert Counter(t for hand in dealt.hands.values() for t in hand) == Counter(TILE_SET)


@pytest.mark.parametrize(
    ("positions", "dice", "message"),
    [
        (tuple(range(1, 10)), (1, 1, 1), "2 to 8 positions expected \\(the bank's included\\), got 9"),
        ((1,), (1, 1, 1), "got 1"),
        (EIGHT, (1, 1), "3 dice expected, got 2"),
        (EIGHT, (1, 1, 7), "a die shows 1 to 6, not 7"),
        ((2, 3, 4), (1, 1, 1), "the bank's position 1 is not at the table"),
        ((1, 2, 2), (1, 1, 1), "a position is listed twice"),
    ],
)
def test_an_impossible_table_or_roll_is_refused(
    positions: tuple[int, ...], dice: tuple[int, ...], message: str
) -> None:
    with pytest.raises(InvalidHand, match=message):
        deal_paigow_tiles(random.Random(1), positions=positions, dice=dice)
