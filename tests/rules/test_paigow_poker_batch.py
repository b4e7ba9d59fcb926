"""The vectorised Pai Gow Poker house way against the per-hand one, row by row.

Equality is exact: the same five cards high and the same two cards low (suits
included) as ``paigow_poker.house_way``, for every row checked.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from rules.games import paigow_poker_batch as batch
from rules.games.cards import ALL_CARDS, parse_cards
from rules.games.errors import InvalidHand
from rules.games.paigow_poker import HOUSE_WAYS, house_way
from rules.games.paigow_poker_batch import SORT7, flush_possible, house_way_many, low_hand_distribution, rank_multisets

WAYS = sorted(HOUSE_WAYS)


def random_hands(count: int, seed: int) -> np.ndarray:
    """``count`` seven-card hands from the 53-card deck, uniformly, seeded."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 53)), axis=1)[:, :7].astype(np.int8)


def cards_text(indices: list[int]) -> str:
    return " ".join(str(ALL_CARDS[i]) for i in indices)


def mismatches(rows: np.ndarray, way: str, **options: bool) -> list[tuple[str, str, str]]:
    """Rows where ``house_way_many`` and ``house_way`` differ: (hand, per-hand setting, batch setting)."""
    high, low = house_way_many(rows, way, **options)
    bad = []
    for row, h, lo in zip(rows.tolist(), high.tolist(), low.tolist(), strict=True):
        setting = house_way([ALL_CARDS[i] for i in row], way, **options)
        if [c.index for c in setting.high] != h or [c.index for c in setting.low] != lo:
            bad.append((cards_text(row), str(setting), f"high: {cards_text(h)}, low: {cards_text(lo)}"))
    return bad


def test_the_sorting_network_sorts_every_zero_one_input() -> None:
    # The 0/1 principle: a comparator network that sorts every 0/1 sequence sorts every sequence.
    for bits in itertools.product((0, 1), repeat=7):
        cols = list(bits)
        for i, j in SORT7:
            cols[i], cols[j] = min(cols[i], cols[j]), max(cols[i], cols[j])
        assert cols == sorted(bits)


def test_there_is_one_table_entry_per_rank_multiset_of_seven() -> None:
    multisets = rank_multisets()
    assert len(multisets) == len(set(multisets)) == 67_600
    table = batch.low_position_table("golden_nugget", True, False)
    assert int((table != 255).sum()) == len(multisets)


@pytest.mark.parametrize("way", WAYS)
def test_two_hundred_thousand_random_hands_are_set_as_the_per_hand_house_way_sets_them(way: str) -> None:
    rows = random_hands(200_000, seed=20 + WAYS.index(way))
    assert mismatches(rows, way)[:5] == []


@pytest.mark.parametrize(
    "options",
    [{"wheel_second_highest": False}, {"joker_flush_as_ace": True}],
    ids=["wheel-lowest", "joker-flush-as-ace"],
)
@pytest.mark.parametrize("way", WAYS)
def test_the_rule_options_are_honoured(way: str, options: dict[str, bool]) -> None:
    rows = random_hands(30_000, seed=7)
    assert mismatches(rows, way, **options)[:5] == []


@pytest.mark.parametrize("way", WAYS)
def test_every_rank_multiset_with_shuffled_suits_is_set_as_the_per_hand_house_way_sets_it(way: str) -> None:
    # The table holds one hand of each multiset, suits dealt round-robin; here each multiset comes with
    # other suits (and some of them make flushes), so the suits cannot matter beyond what the tests see.
    rng = np.random.default_rng(5)
    rows = []
    for ranks in rank_multisets():
        by_rank: dict[int, list[int]] = {}
        for r in ranks:
            by_rank.setdefault(r, [])
        for r in by_rank:
            by_rank[r] = [52] if r == 13 else (r * 4 + rng.permutation(4)).tolist()
        rows.append([by_rank[r].pop() for r in ranks])
    hands = np.array(rows, dtype=np.int8)
    hands = np.take_along_axis(hands, np.argsort(rng.random(hands.shape), axis=1), axis=1)  # any column order
    assert mismatches(hands, way)[:5] == []


def flush_heavy_hands(count: int, seed: int) -> np.ndarray:
    """Hands with four to seven cards of one suit (and the joker a third of the time): mostly flushes,
    many with a straight or pairs beside."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(count):
        suit, suited = int(rng.integers(4)), int(rng.integers(4, 8))
        first = [int(r) * 4 + suit for r in rng.choice(13, suited, replace=False)]
        joker = [52] if rng.random() < 1 / 3 else []
        rest = [i for i in rng.permutation(52).tolist() if i % 4 != suit][: 7 - suited - len(joker)]
        rows.append((first + joker + rest)[:7])
    return np.array(rows, dtype=np.int8)


@pytest.mark.parametrize("way", WAYS)
def test_forty_thousand_hands_full_of_flushes_are_set_as_the_per_hand_house_way_sets_them(way: str) -> None:
    rows = flush_heavy_hands(40_000, seed=11)
    assert flush_possible(rows).mean() > 0.5
    assert mismatches(rows, way)[:5] == []


EDGE_CASES = [
    "Jk As Ad Ac Ah Kd Ks",  # five aces with a pair of kings
    "Jk As Ad Ac Ah 2d 3s",  # five aces, split
    "Jk As Ks Qs Js 2c 3d",  # a royal flush the joker completes
    "Jk Ks Qs Js Ts 9s 2d",  # a straight flush, six suited
    "As Ks Qs Js Ts 9s 8s",  # seven of a suit: a straight flush
    "Jk 5s 4d 3c 2h 9c Kd",  # a wheel the joker completes
    "Jk As 5d 4c 3h 2s 9c",  # the wheel or the joker as an ace
    "Ah Kh 9h 5h 2h Ad Kd",  # a flush beside two pairs
    "7s 7h 8d 8c 9s Ts Jh",  # a straight beside two pairs
    "Jk 7s 7h 8d 8c 9s Ts",  # the joker's straight beside two pairs
    "Ks Kh 6s 6d 5s 4s 3s",  # a flush beside two pairs, kings and sixes
    "Qs Qh Js Jh 9s 8s 2s",  # a flush beside two pairs, queens and jacks
    "As Ad Kh Kc 7s 4d 2c",  # two pairs: aces with any pair
    "Kh Kc Qs Qd 9h 5c 3d",  # two pairs, kings and queens
    "6s 6d 5h 5c Qs 4d 2c",  # two low pairs
    "9s 9h 9d 2c 2d Ah Kc",  # a full house kept for an ace and king low
    "9s 9h 9d 2c 2d 2h Kc",  # two three of a kinds
    "Qs Qh Qd Qc 7s 7h 2d",  # four queens and a pair
    "7s 7h 7d 7c As Kd 2c",  # four sevens and an ace
    "Jk Ks Kh Kd Kc 2s 3d",  # four kings and the joker
    "Jk Ks Kh 5d 5c 2s 3d",  # the joker with two pairs
    "Ks 9h 7d 5c 4s 3h 2d",  # no pair
    "Jk 9h 7d 5c 4s 3h Qd",  # the joker alone, a straight the joker completes
    "Jk Ah 4c 3d 2s 7s 2h",  # the joker completes the wheel beside an ace and a pair
    "9s 8s 7s 6s 5s 9h 5h",  # a straight flush beside two pairs
    "9s 8s 7s 6s 5s 4h Td",  # a straight flush or a straight with a better low
    "8s 7s 6s 5s 5h 4h 2s",  # a flush or a straight, the low's top cards equal in rank
    "8h 7h 6h 5h 5s 4s 2h",  # the same with spades and hearts swapped
]


@pytest.mark.parametrize("way", WAYS)
def test_flush_hands_in_every_order_of_their_suits_are_set_as_the_per_hand_house_way_sets_them(way: str) -> None:
    """The Trump Plaza way compares low hands by suit, so which suit holds the flush, and the suits of the
    cards beside it, can change the setting: each hand comes in all 24 orders of its suits."""
    base = flush_heavy_hands(1_500, seed=23)
    rows = []
    for order in itertools.permutations(range(4)):
        suit = np.array(order)[base % 4]
        rows.append(np.where(base == 52, 52, base - base % 4 + suit))
    assert mismatches(np.vstack(rows), way)[:5] == []


@pytest.mark.parametrize("way", WAYS)
def test_hand_picked_edge_cases_are_set_as_the_per_hand_house_way_sets_them(way: str) -> None:
    rows = np.array([[c.index for c in parse_cards(text)] for text in EDGE_CASES])
    assert mismatches(rows, way) == []


def test_the_rows_sent_to_the_flush_memo_are_those_where_a_suit_holds_five() -> None:
    rows = np.array([[c.index for c in parse_cards(t)] for t in ("Ah Kh 9h 5h 2h Ad Kd", "Jk Ks Qs Js 2s 3d 4c")])
    plain = np.array([[c.index for c in parse_cards("Ah Kh 9h 5h 2d Ad Kd")]])
    assert flush_possible(rows).tolist() == [True, True]
    assert flush_possible(plain).tolist() == [False]


def test_a_second_call_answers_from_the_memo_with_the_same_settings() -> None:
    rows = random_hands(5_000, seed=3)
    first = house_way_many(rows, "foxwoods")
    second = house_way_many(rows, "foxwoods")
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))


def test_bad_rows_are_refused_in_the_dealers_words() -> None:
    with pytest.raises(InvalidHand, match="appears twice"):
        house_way_many(np.array([[0, 0, 1, 2, 3, 4, 5]]))
    with pytest.raises(InvalidHand, match="0-52"):
        house_way_many(np.array([[0, 1, 2, 3, 4, 5, 53]]))
    with pytest.raises(InvalidHand, match="shape"):
        house_way_many(np.array([[0, 1, 2, 3, 4, 5]]))


def test_an_empty_batch_gives_empty_arrays() -> None:
    high, low = house_way_many(np.empty((0, 7), dtype=np.int64))
    assert high.shape == (0, 5) and low.shape == (0, 2)


def test_the_low_hand_distribution_counts_rank_pairs_with_the_joker_as_rank_15() -> None:
    low = np.array([[c.index for c in parse_cards(t)] for t in ("Ks Kh", "Jk 2c", "Kd Kc", "9s 7d")])
    assert low_hand_distribution(low) == {(13, 13): 2, (15, 2): 1, (9, 7): 1}
