"""Exact counts over all 154,143,080 Pai Gow Poker hands (GAME_RULES.md §2): the enumeration and its check."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from rules.games.paigow_poker import HOUSE_WAYS
from rules.games.paigow_poker_batch import house_way_many, low_hand_distribution, rank_multisets
from rules.games.paigow_poker_exact import (
    ALL_HANDS,
    PUBLISHED_TRUMP_PLAZA_LOWS,
    _non_flush_deals,
    _rank_counts,
    _spade_flush_blocks,
    as_ace_ranks,
    every_hand_blocks,
    low_hand_counts_by_multiset,
    stored_low_hand_counts,
)


def test_the_blocks_hold_every_hand_of_a_small_deck_once_in_order() -> None:
    rows = np.vstack(list(every_hand_blocks(range(12), deck=12)))
    assert len(rows) == math.comb(12, 7)
    assert {tuple(r) for r in rows.tolist()} == set(itertools.combinations(range(12), 7))


def test_the_blocks_of_the_whole_deck_add_up_to_154_143_080_hands() -> None:
    assert ALL_HANDS == 154_143_080
    assert sum(math.comb(52 - a, 6) for a in range(53)) == ALL_HANDS  # a block per lowest card, as enumerated


@pytest.mark.parametrize(
    "multiset", [(0, 1, 2, 3, 4, 5, 6), (0, 0, 1, 1, 2, 2, 13), (12, 12, 12, 12, 11, 10, 13), (3, 4, 5, 6, 7, 8, 9)]
)
def test_the_deals_without_five_of_a_suit_are_counted_as_a_dealer_would_lay_them_out(multiset: tuple[int, ...]) -> None:
    """Every way to give the ranks suits, laid out one by one, against the closed form."""
    counts = _rank_counts(multiset)
    naturals = [r for r in multiset if r != 13]
    joker = 13 in multiset
    suits_per_rank = [list(itertools.combinations(range(4), counts[r])) for r in sorted(set(naturals))]
    plain = 0
    for choice in itertools.product(*suits_per_rank):
        held = [s for group in choice for s in group]
        if max(held.count(s) for s in range(4)) + joker < 5:
            plain += 1
    assert _non_flush_deals(counts) == plain


def test_the_hands_with_five_spades_are_each_counted_once() -> None:
    rows = np.vstack(list(_spade_flush_blocks()))
    spades = (rows % 4 == 0) & (rows != 52)
    assert ((spades.sum(axis=1) + (rows == 52).any(axis=1)) >= 5).all()
    card_sets = (np.int64(1) << rows.astype(np.int64)).sum(axis=1)  # one bit a card: equal sets, equal hands
    assert len(np.unique(card_sets)) == len(rows)
    # The spade hands (five to seven spades, or four to six and the joker), by counting.
    expected = sum(math.comb(13, k) * math.comb(39, 7 - k) for k in (5, 6, 7))
    expected += sum(math.comb(13, k) * math.comb(39, 6 - k) for k in (4, 5, 6))
    assert len(rows) == expected == 1_604_031


def test_every_multiset_is_counted() -> None:
    assert len(rank_multisets()) == 67_600


@pytest.mark.parametrize("way", list(HOUSE_WAYS))
def test_the_multiset_road_gives_the_counts_every_hand_gave(way: str) -> None:
    """The stored counts come from setting all 154,143,080 hands (bench/paigow_poker_low_hands.py --write);
    the other road, by rank multiset with the flush hands set one by one, must reach the same numbers."""
    counts = low_hand_counts_by_multiset(way)
    assert sum(counts.values()) == ALL_HANDS
    assert counts == stored_low_hand_counts(way)


def test_the_published_reading_of_trump_plaza_gives_the_wizards_count_on_every_row() -> None:
    """All 22 rows of the Wizard of Odds' table of the dealer's low hand under the Trump Plaza way (3,2 to 9,2),
    exactly: https://wizardofodds.com/games/pai-gow-poker/appendix/1/ (docs/game-math.md)."""
    reading = as_ace_ranks(stored_low_hand_counts("trump_plaza"))
    assert {row: reading[row] for row in PUBLISHED_TRUMP_PLAZA_LOWS} == PUBLISHED_TRUMP_PLAZA_LOWS


def test_the_literal_reading_of_trump_plaza_misses_every_published_row() -> None:
    literal = as_ace_ranks(stored_low_hand_counts("trump_plaza_literal"))
    assert all(literal[row] != published for row, published in PUBLISHED_TRUMP_PLAZA_LOWS.items())


def test_a_way_that_compares_low_hands_by_suit_counts_the_flushes_of_every_suit() -> None:
    """With the suit tie-break the spade flushes are not every suit's: a hand and its suit-swapped twin
    are set apart (the flush kept in one, the straight in the other), so counting spades times four
    would not give the enumeration's counts."""
    spade_rows = np.vstack(list(_spade_flush_blocks(0)))
    heart_rows = np.vstack(list(_spade_flush_blocks(1)))
    suit_swapped = np.array([1, 0, 2, 3])[spade_rows % 4]  # spades and hearts trade places
    twins = np.where(spade_rows == 52, 52, spade_rows - spade_rows % 4 + suit_swapped)
    bits = (np.int64(1) << twins.astype(np.int64)).sum(axis=1)  # one bit a card: equal sets, equal hands
    assert np.array_equal(np.sort(bits), np.sort((np.int64(1) << heart_rows.astype(np.int64)).sum(axis=1)))
    spades = low_hand_distribution(house_way_many(spade_rows, "trump_plaza")[1])
    hearts = low_hand_distribution(house_way_many(heart_rows, "trump_plaza")[1])
    assert spades != hearts
    literal = low_hand_distribution(house_way_many(spade_rows, "trump_plaza_literal")[1])
    assert literal == low_hand_distribution(house_way_many(heart_rows, "trump_plaza_literal")[1])
