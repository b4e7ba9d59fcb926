"""The batch evaluator against the published five-card counts and, row by row, against poker.best_hand."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from functools import cache
from math import comb

import numpy as np
import pytest

from rules.games import poker_batch
from rules.games.cards import ALL_CARDS, parse_cards
from rules.games.errors import InvalidHand
from rules.games.poker import Category, HandValue, best_hand
from rules.games.poker_batch import RANK_KEYS, category_counts, evaluate_many

C = Category


@cache
def every_five_cards() -> np.ndarray:
    """All C(53, 5) hands, ascending indices: the joker (52), when present, is the last card."""
    combos = itertools.combinations(range(53), 5)
    return np.fromiter(combos, dtype=np.dtype((np.int8, 5)), count=comb(53, 5))


# The classic table for five cards from 52 (every probability text since Hoyle).
FIFTY_TWO_CARDS = {
    C.FIVE_ACES: 0,
    C.ROYAL_FLUSH: 4,
    C.STRAIGHT_FLUSH: 36,
    C.FOUR_OF_A_KIND: 624,
    C.FULL_HOUSE: 3_744,
    C.FLUSH: 5_108,
    C.STRAIGHT: 10_200,
    C.THREE_OF_A_KIND: 54_912,
    C.TWO_PAIR: 123_552,
    C.ONE_PAIR: 1_098_240,
    C.HIGH_CARD: 1_302_540,
}

# Four natural cards and the joker, counted by hand from the rule (joker: an ace, or the card that completes a
# straight or a flush). Four distinct ranks fit some five-rank straight window in 41 ways (ten windows of five
# four-rank subsets, nine shared by neighbouring windows); 5 of them fit A-K-Q-J-T, 8 contain an ace.
NOT_ONE_SUIT = 4**4 - 4
JOKER_WITH_FOUR = {
    C.FIVE_ACES: 1,  # four aces
    C.ROYAL_FLUSH: 4 * 5,  # four suited of T-J-Q-K-A
    C.STRAIGHT_FLUSH: 4 * (41 - 5),
    C.FOUR_OF_A_KIND: 12 + 4 * 48,  # quads of a non-ace; three aces and another card
    C.FULL_HOUSE: 12 * 4 * 4 + 6 * 12 * 6,  # trips and an ace; a pair of aces and another pair
    C.FLUSH: 4 * (comb(13, 4) - 41),
    C.STRAIGHT: 41 * NOT_ONE_SUIT,
    C.THREE_OF_A_KIND: 12 * 4 * 44 + 6 * comb(12, 2) * 16,  # trips and a non-ace; a pair of aces and two singles
    C.TWO_PAIR: comb(12, 2) * 36 + 12 * 6 * 4 * 44,  # two pairs; a pair, an ace and a single
    C.ONE_PAIR: 12 * 6 * comb(11, 2) * 16 + (comb(12, 3) - 8) * NOT_ONE_SUIT,  # a pair, no ace; four singles, an ace
    C.HIGH_CARD: (comb(12, 4) - (41 - 8)) * NOT_ONE_SUIT,
}


def test_the_joker_table_covers_every_four_natural_cards_once() -> None:
    assert sum(JOKER_WITH_FOUR.values()) == comb(52, 4)
    assert sum(FIFTY_TWO_CARDS.values()) == comb(52, 5)


def test_five_cards_from_52_fall_into_the_classic_counts() -> None:
    hands = every_five_cards()
    values = evaluate_many(hands[hands[:, 4] != 52])
    assert category_counts(values) == FIFTY_TWO_CARDS


def test_five_cards_from_53_add_the_joker_hands_counted_by_hand() -> None:
    values = evaluate_many(every_five_cards())
    expected = {category: FIFTY_TWO_CARDS[category] + JOKER_WITH_FOUR[category] for category in Category}
    assert category_counts(values) == expected
    assert expected[C.STRAIGHT] == 20_532 and expected[C.ONE_PAIR] == 1_215_024


def sample_rows(rng: np.random.Generator, rows: int, size: int, *, joker: bool, deck: int = 52) -> np.ndarray:
    """``rows`` random hands of ``size`` distinct cards from the first ``deck`` cards; the joker added when asked."""
    drawn = np.argsort(rng.random((rows, deck)), axis=1)[:, : size - joker]
    if joker:
        drawn = np.concatenate([drawn, np.full((rows, 1), 52)], axis=1)
        drawn = np.take_along_axis(drawn, np.argsort(rng.random((rows, size)), axis=1), axis=1)
    return drawn


def suit_rich_rows(rng: np.random.Generator, rows: int, size: int, *, joker: bool) -> np.ndarray:
    """Hands from the spades and hearts only (and the joker): flushes and straight flushes are common."""
    two_suits = np.array([i for i in range(52) if i % 4 < 2])
    drawn = two_suits[sample_rows(rng, rows, size - joker, joker=False, deck=26)]
    if joker:
        drawn = np.concatenate([np.full((rows, 1), 52), drawn], axis=1)
    return drawn


@pytest.mark.parametrize("joker_flush_as_ace", [False, True])
@pytest.mark.parametrize("wheel_second_highest", [True, False])
@pytest.mark.parametrize("size", [5, 6, 7])
def test_every_sampled_row_gets_the_value_best_hand_gives(
    size: int, wheel_second_highest: bool, joker_flush_as_ace: bool
) -> None:
    rng = np.random.default_rng(size * 4 + wheel_second_highest * 2 + joker_flush_as_ace)
    hands = np.concatenate(
        [
            sample_rows(rng, 10_000, size, joker=False),
            sample_rows(rng, 10_000, size, joker=True),
            suit_rich_rows(rng, 2_000, size, joker=False),
            suit_rich_rows(rng, 2_000, size, joker=True),
        ]
    )
    options = {"wheel_second_highest": wheel_second_highest, "joker_flush_as_ace": joker_flush_as_ace}
    values = evaluate_many(hands, **options)
    expected = [best_hand([ALL_CARDS[i] for i in row], **options)[0] for row in hands.tolist()]
    mismatches = [
        (row, HandValue(v), e) for row, v, e in zip(hands.tolist(), values.tolist(), expected, strict=True) if v != e
    ]
    assert mismatches == []
    assert len(set(category_counts(values).values()) - {0}) > 5, "the sample should reach many categories"


@pytest.mark.parametrize(
    ("text", "options", "described"),
    [
        ("As Ks Qs Js Jk 2c 3d", {}, "royal flush"),
        ("Ah Ad Ac As Jk 2c 3d", {}, "five aces"),
        ("Ah 2c 3d 4s Jk 9h 9c", {}, "five-high straight"),
        ("Ks 9s 7s 2s Jk Qh Qd", {}, "ace-high flush"),
        ("Kh Kd Ks 9c 9d 2s 3s", {}, "full house, kings over nines"),
    ],
)
def test_dealer_hands_read_as_the_dealer_reads_them(text: str, options: dict[str, bool], described: str) -> None:
    row = [c.index for c in parse_cards(text)]
    assert HandValue(int(evaluate_many(np.array([row]), **options)[0])).describe() == described


def test_the_wheel_ranks_second_or_last_by_the_option() -> None:
    texts = ("Ah 2c 3d 4s 5h", "Kh Qc Jd Ts 9h", "2h 3c 4d 5s 6h")
    wheel, king_high, six_high = ([c.index for c in parse_cards(t)] for t in texts)
    second = evaluate_many(np.array([wheel, king_high]))
    assert second[0] > second[1]
    lowest = evaluate_many(np.array([wheel, six_high]), wheel_second_highest=False)
    assert lowest[0] < lowest[1]


def rank_multisets(size: int) -> list[tuple[int, ...]]:
    """Every multiset of ``size`` of the 14 rank keys' symbols: 13 ranks up to four times, the joker once."""
    found = []
    for jokers in (0, 1):
        for combo in itertools.combinations_with_replacement(range(13), size - jokers):
            if max(Counter(combo).values(), default=0) <= 4:
                found.append(combo + (13,) * jokers)
    return found


@pytest.mark.parametrize("size", [5, 6, 7])
def test_rank_key_sums_name_their_ranks_uniquely_and_fit_their_field(size: int) -> None:
    sums = [sum(RANK_KEYS[r] for r in m) for m in rank_multisets(size)]
    assert len(sums) == len(set(sums)) == {5: 7_995, 6: 24_570, 7: 67_600}[size]
    assert max(sums) < 1 << 24  # bits 24 and up hold the suit counts


@pytest.mark.parametrize(
    ("text", "nibbles"),
    [
        ("2s 5s 7s 9s Js Ks As", [10, 3, 3, 3]),  # seven spades: 7 + the bias of 3
        ("2c 5c 7c 9c Jc Kc Jk", [4, 4, 4, 10]),  # six clubs and the joker, which counts in every suit
        ("2s 3h 4d 5c 6s Jk", [6, 5, 5, 5]),
    ],
)
def test_suit_counts_fill_their_own_nibbles_without_a_carry(text: str, nibbles: list[int]) -> None:
    card_set = sum(1 << c.index for c in parse_cards(text))
    key = int(poker_batch._keys_of(np.array([card_set], np.int64))[0])
    assert [key >> (24 + 4 * suit) & 0xF for suit in range(4)] == nibbles
    assert key >> 40 == 0


def test_the_greedy_search_reproduces_the_first_rank_keys() -> None:
    assert poker_batch._greedy_rank_keys(10) == list(RANK_KEYS[:10])


def test_an_empty_batch_gives_no_values() -> None:
    assert evaluate_many(np.zeros((0, 7), np.int64)).shape == (0,)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64])
def test_any_integer_type_of_index_gives_the_same_values(dtype: type) -> None:
    hands = sample_rows(np.random.default_rng(1), 500, 7, joker=True)
    assert (evaluate_many(hands.astype(dtype)) == evaluate_many(hands)).all()


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ([[0, 1, 2, 3, 53, 5, 6]], "hand 0: 53 is not a card index"),
        ([[0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, -1, 5, 6]], "hand 1: -1 is not a card index"),
        ([[51, 1, 2, 3, 4, 5, 51]], "hand 0: A♣ appears twice"),
        ([[52, 1, 2, 3, 4, 5, 52]], "hand 0: Joker appears twice"),
        ([[0, 1, 2, 3]], "5 to 7 cards per hand expected, got 4"),
        ([[0, 1, 2, 3, 4, 5, 6, 7]], "5 to 7 cards per hand expected, got 8"),
        ([0, 1, 2, 3, 4], "a table of hands expected"),
        ([[0.0, 1, 2, 3, 4]], "card indices (integers 0-52) expected, got float64"),
    ],
)
def test_bad_hands_raise_invalid_hand_naming_the_problem(hands: list[object], message: str) -> None:
    with pytest.raises(InvalidHand, match=re.escape(message)):
        evaluate_many(np.array(hands))


def test_a_repeated_card_is_found_in_a_later_chunk_too() -> None:
    hands = sample_rows(np.random.default_rng(2), 100_000, 7, joker=False)
    hands[77_777, 3] = hands[77_777, 5]
    with pytest.raises(InvalidHand, match="hand 77777: .* appears twice"):
        evaluate_many(hands)
