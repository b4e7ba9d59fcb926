"""Setting advice for four tiles: exact odds against every bank hand the other 28 tiles allow (GAME_RULES.md §1)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.games.errors import InvalidHand
from rules.games.paigow_tiles import Outcome, Setting, house_way, outcome
from rules.games.paigow_tiles import settings as settings_of
from rules.games.paigow_tiles_advice import BANK_HANDS, advise
from rules.games.tiles import TILE_SET, Tile, parse_tiles


def remaining(tiles: tuple[Tile, ...]) -> list[Tile]:
    """The 28 physical tiles left once the player's four are taken from the set."""
    left = list(TILE_SET)
    for tile in tiles:
        left.remove(tile)
    return left


@cache
def enumerate_plainly(text: str, gee_joon_single_rank: str = "seed") -> dict[str, Counter[Outcome]]:
    """Every setting's results over all C(28, 4) combinations of physical tiles, one house way call each."""
    tiles = parse_tiles(text)
    rank = gee_joon_single_rank
    mine = set(settings_of(tiles, gee_joon_single_rank=rank))  # repeated tiles can make two settings the same
    tallies: dict[str, Counter[Outcome]] = {str(s): Counter() for s in mine}
    for bank_tiles in itertools.combinations(remaining(tiles), 4):
        bank = house_way(bank_tiles, "foxwoods", gee_joon_single_rank=rank)
        for setting in mine:
            tallies[str(setting)][outcome(setting, bank, gee_joon_single_rank=rank)] += 1
    return tallies


HANDS = [
    "6-6 1-1 4-2 2-1",  # Teen, Day and the Gee Joon pair
    "6-6 6-6 5-5 3-1",  # both Teens: the bank can hold no Teen
    "6-3 5-4 6-2 5-3",  # four singles: no copy of them is left
    "4-4 6-5 2-2 4-1",
    "6-1 5-2 4-3 3-2",
]


@pytest.mark.parametrize("text", HANDS)
@pytest.mark.parametrize("player_pays", [False, True])
def test_the_advice_agrees_with_a_plain_enumeration_of_every_bank_hand(text: str, player_pays: bool) -> None:
    tallies = enumerate_plainly(text)
    advice = advise(parse_tiles(text), commission_on_player_wins=player_pays)
    assert {str(s.setting) for s in advice.settings} == set(tallies)
    payout = Fraction(95, 100) if player_pays else Fraction(1)
    for row in advice.settings:
        tally = tallies[str(row.setting)]
        assert (row.wins, row.pushes, row.losses) == (tally[Outcome.WIN], tally[Outcome.PUSH], tally[Outcome.LOSS])
        assert row.ev == pytest.approx(float((tally[Outcome.WIN] * payout - tally[Outcome.LOSS]) / BANK_HANDS))
        assert row.win == pytest.approx(tally[Outcome.WIN] / BANK_HANDS)


@pytest.mark.parametrize("text", ["4-2 3-3 4-1 1-1", "5-2 4-2 6-5 3-2"])
def test_a_rule_option_reaches_both_the_bank_and_the_ranking(text: str) -> None:
    tallies = enumerate_plainly(text, "lowest")
    advice = advise(parse_tiles(text), gee_joon_single_rank="lowest")
    for row in advice.settings:
        tally = tallies[str(row.setting)]
        assert (row.wins, row.pushes, row.losses) == (tally[Outcome.WIN], tally[Outcome.PUSH], tally[Outcome.LOSS])
    seed = advise(parse_tiles(text))
    assert [(r.wins, r.losses) for r in seed.settings] != [(r.wins, r.losses) for r in advice.settings]


hands_of_four = st.lists(st.sampled_from(range(32)), min_size=4, max_size=4, unique=True).map(
    lambda picks: tuple(TILE_SET[i] for i in picks)
)


@settings(max_examples=60, deadline=None)
@given(hands_of_four)
def test_every_setting_counts_all_20475_bank_hands_and_its_chances_sum_to_one(tiles: tuple[Tile, ...]) -> None:
    advice = advise(tiles)
    assert BANK_HANDS == 20_475
    assert len(advice.settings) == len(settings_of(tiles))
    for row in advice.settings:
        assert row.wins + row.pushes + row.losses == row.total == 20_475
        assert row.win + row.push + row.loss == pytest.approx(1.0, abs=1e-12)
        assert -1.0 <= row.ev <= 1.0
    assert advice.best.ev == max(row.ev for row in advice.settings)
    assert advice.house.setting == house_way(tiles, "foxwoods")


@settings(max_examples=30, deadline=None)
@given(hands_of_four)
def test_a_player_commission_costs_five_percent_of_each_win_and_nothing_else(tiles: tuple[Tile, ...]) -> None:
    free, charged = advise(tiles), advise(tiles, commission_on_player_wins=True)
    for a, b in zip(free.settings, charged.settings, strict=True):
        assert (a.wins, a.pushes, a.losses) == (b.wins, b.pushes, b.losses)
        assert b.ev == pytest.approx(a.ev - 0.05 * a.win)
    at_zero = advise(tiles, commission_on_player_wins=True, commission_bp=0)
    assert [row.ev for row in at_zero.settings] == [row.ev for row in free.settings]


def test_the_best_setting_of_a_teen_day_gee_joon_hand_is_named_with_its_odds() -> None:
    advice = advise(parse_tiles("6-6 1-1 4-2 2-1"))
    by_text = {str(row.setting): row for row in advice.settings}
    assert advice.best in advice.settings and advice.house in advice.settings
    assert advice.best.ev >= advice.house.ev
    assert all(advice.best.ev >= row.ev for row in by_text.values())


def test_a_hand_that_cannot_lose_both_ways_never_loses() -> None:
    # Gee Joon high, both Teens low: the bank can make neither, and no bank low beats a pair of Teens.
    advice = advise(parse_tiles("4-2 2-1 6-6 6-6"))
    assert advice.best.wins == 20_475 and advice.best.ev == 1.0
    assert advice.best.setting == Setting.parse("4-2 2-1", "6-6 6-6")


@pytest.mark.parametrize(
    ("text", "message"),
    [("6-6 1-1 4-2", "4 tiles expected, got 3"), ("6-6 1-1 4-2 2-1 3-1", "4 tiles expected, got 5")],
)
def test_a_hand_of_the_wrong_size_is_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        advise(parse_tiles(text))


def test_a_single_tile_twice_is_refused() -> None:
    with pytest.raises(InvalidHand, match="appears 2 times; the set has 1"):
        advise((Tile(6, 3), Tile(6, 3), Tile(1, 1), Tile(2, 2)))


def test_an_unknown_way_and_an_impossible_commission_are_refused() -> None:
    tiles = parse_tiles("6-6 1-1 4-2 2-1")
    with pytest.raises(ValueError, match="unknown house way 'caesars'"):
        advise(tiles, way="caesars")
    with pytest.raises(ValueError, match="0 to 10000 basis points"):
        advise(tiles, commission_bp=20_000)
