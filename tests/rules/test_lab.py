"""The game-math lab's engines: the batched Pai Gow Poker simulation settles every hand as the engine does,
and the exact tiles enumeration counts what ``outcome`` says deal by deal."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from rules.games.cards import ALL_CARDS, deck
from rules.games.lab import (
    TILES_DEALS,
    Tally,
    deal_paigow_poker,
    low_values,
    paigow_poker_outcomes,
    simulate_paigow_poker_batched,
    tiles_exact_counts,
    tiles_player_hands,
)
from rules.games.paigow_poker import house_way, outcome
from rules.games.paigow_tiles import house_way as tiles_house_way
from rules.games.paigow_tiles import outcome as tiles_outcome
from rules.games.poker import low_hand
from rules.games.tiles import TILE_SET, parse_tiles

SIGN = {"WIN": 1, "PUSH": 0, "LOSS": -1}


def test_every_deal_is_fourteen_different_cards_of_the_53() -> None:
    rows = deal_paigow_poker(5_000, np.random.default_rng(3))
    assert rows.shape == (5_000, 14)
    assert rows.min() >= 0 and rows.max() <= 52
    assert all(len(set(row)) == 14 for row in rows.tolist())


def test_the_shuffle_gives_every_card_its_fair_share_of_the_player_hand() -> None:
    rows = deal_paigow_poker(53_000, np.random.default_rng(11))
    seen = np.bincount(rows[:, :7].ravel(), minlength=53)
    expected = 53_000 * 7 / 53  # 7,000 a card
    assert np.all(np.abs(seen - expected) < 5 * math.sqrt(expected))  # five standard deviations


@pytest.mark.parametrize(
    "options",
    [
        {"way": "golden_nugget"},
        {"way": "trump_plaza", "wheel_second_highest": False},
        {"way": "foxwoods", "joker_flush_as_ace": True},
    ],
)
def test_the_batched_outcome_is_the_engines_outcome_hand_by_hand(options: dict[str, object]) -> None:
    rows = deal_paigow_poker(1_500, np.random.default_rng(2026))
    fast = paigow_poker_outcomes(rows[:, :7], rows[:, 7:], **options)  # type: ignore[arg-type]
    rules = {k: v for k, v in options.items() if k != "way"}
    way = str(options["way"])
    for row, got in zip(rows.tolist(), fast.tolist(), strict=True):
        cards = [ALL_CARDS[i] for i in row]
        want = outcome(house_way(cards[:7], way, **rules), house_way(cards[7:], way, **rules), way=way, **rules)  # type: ignore[arg-type]
        assert got == SIGN[want.name], [str(c) for c in cards]


def test_low_hands_rank_as_the_engine_ranks_them_a_pair_over_two_ranks_and_the_joker_an_ace() -> None:
    cards = deck(joker=True)
    pairs = list(itertools.combinations(cards, 2))
    mine = low_values(np.array([[a.index, b.index] for a, b in pairs]))
    theirs = [low_hand(pair) for pair in pairs]
    for i in range(0, len(pairs), 7):
        for j in range(0, len(pairs), 13):
            assert (mine[i] > mine[j]) == (theirs[i] > theirs[j])
            assert (mine[i] == mine[j]) == (theirs[i] == theirs[j])


def test_a_seeded_simulation_repeats_and_reports_every_step() -> None:
    steps: list[Tally] = []
    first = simulate_paigow_poker_batched(25_000, seed=7, batch=10_000, progress=steps.append)
    again = simulate_paigow_poker_batched(25_000, seed=7, batch=10_000)
    assert first == again and first.hands == 25_000
    assert [s.hands for s in steps] == [10_000, 20_000, 25_000]
    assert steps[-1] == first
    assert simulate_paigow_poker_batched(25_000, seed=8) != first


def test_the_simulation_agrees_with_the_shipped_million_hands_within_their_intervals() -> None:
    """The shipped Golden Nugget counts (1,000,000 hands, seed 2026, rules/games/data/house_edges.json): push rate
    42.30%, player wins 28.26%. 200,000 hands here land within five standard errors of both."""
    tally = simulate_paigow_poker_batched(200_000, seed=99)
    for got, shipped in ((tally.pushes, 0.422978), (tally.wins, 0.282616)):
        se = math.sqrt(shipped * (1 - shipped) / tally.hands)
        assert abs(got / tally.hands - shipped) < 5 * se


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown house way 'bellagio'"):
        simulate_paigow_poker_batched(1_000, seed=1, way="bellagio")
    with pytest.raises(ValueError, match="at least 1"):
        simulate_paigow_poker_batched(0, seed=1)
    with pytest.raises(ValueError, match="unknown house way"):
        tiles_exact_counts(way="nowhere")


def test_the_tiles_enumeration_covers_every_deal_of_the_32_tiles() -> None:
    hands = tiles_player_hands()
    assert len(hands) == 8_130
    assert sum(weight for _, weight in hands) == math.comb(32, 4)
    assert TILES_DEALS == 736_281_000


def test_one_player_hand_counts_exactly_what_outcome_says_against_every_bank_hand() -> None:
    """Gee Joon and a pair of 5-5: every one of the 20,475 bank hands from the 28 tiles left, set by the house
    way, settled by the engine."""
    player = parse_tiles("1-2 2-4 5-5 5-5")
    steps: list[Tally] = []
    counted = tiles_exact_counts(player_hands=[(player, 1)], progress=steps.append, zero_zero_copy=True)
    left = list(TILE_SET)
    for tile in player:
        left.remove(tile)
    want = {"WIN": 0, "PUSH": 0, "LOSS": 0}
    rules = {"gee_joon_single_rank": "seed", "zero_zero_copy": True}
    mine = tiles_house_way(player, "foxwoods", **rules)
    for bank in itertools.combinations(left, 4):
        want[tiles_outcome(mine, tiles_house_way(bank, "foxwoods", **rules), **rules).name] += 1
    assert (counted.wins, counted.pushes, counted.losses) == (want["WIN"], want["PUSH"], want["LOSS"])
    assert counted.hands == math.comb(28, 4)
    assert steps == [counted]
