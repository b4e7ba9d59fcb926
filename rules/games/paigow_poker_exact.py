"""Exact counts over every seven-card hand of the 53-card deck (GAME_RULES.md §2), through the vectorised house way.

There are C(53, 7) = 154,143,080 hands. ``every_hand_blocks`` walks all of them
in blocks of NumPy rows (the first two cards fixed, the other five every choice
from the cards above the second), and ``low_hand_counts`` sets every one by the
house way (``paigow_poker_batch.house_way_many``) and counts the bank's two-card
low hands by rank: the table the Wizard of Odds publishes for the Trump Plaza way
("Pai Gow Poker Power Ratings", appendix 1 of its Pai Gow Poker pages), computed
here for any way. With ``workers`` > 1 the blocks are shared out between
processes; each process builds its own tables.

``low_hand_counts_by_multiset`` reaches the same counts another way, as a check
that needs no enumeration of the common hands: a hand no suit of which can make a
flush is set by its ranks alone (see ``paigow_poker_batch``), so each rank
multiset is set once and counted as often as it can be dealt without five of a
suit; only the hands that hold five of a suit (counting the joker) are set one by
one, and only those whose flush is in spades, times four (the ways never look at
which suit a flush is in); for a way that compares low hands by suit
(``HouseWay.low_by_rank_then_suit``, the Trump Plaza way) the flush suit's place
among the suits can change the setting, so the flush hands of all four suits are set.

>>> from math import comb
>>> sum(len(rows) for rows in every_hand_blocks(range(1))) == comb(52, 6)  # every hand holding card 0
True
"""

from __future__ import annotations

import json
import math
import multiprocessing
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from rules.games.paigow_poker import HouseWay
from rules.games.paigow_poker_batch import _representative, house_way_many, low_hand_distribution, rank_multisets
from rules.games.paigow_poker_ways import _house_way

DECK = 53  # 52 cards and the joker (index 52)
HAND = 7
ALL_HANDS = math.comb(DECK, HAND)  # 154,143,080
# Each way's counts as ``bench/paigow_poker_low_hands.py --write`` enumerated them: way -> "higher,lower" -> hands.
DATA_FILE = Path(__file__).resolve().parent / "data" / "pgp_low_hands.json"

LowCounts = dict[tuple[int, int], int]

# The Wizard of Odds, "Pai Gow Poker Power Ratings" (appendix 1 of its Pai Gow Poker pages), the dealer's
# two-card hand under the Trump Plaza house way, "Combinations ... out of a possible 154,143,080": the rows
# the stored copies hold (https://ourgyn.com/games/pai-gow-poker/appendix/1/ and
# https://internetradiomercedes.com/games/pai-gow-poker/appendix/1, both copies of the Wizard's page), from
# 3,2 to 9,2. ``(higher, lower)`` ranks, as ``low_hand_counts``.
PUBLISHED_TRUMP_PLAZA_LOWS: dict[tuple[int, int], int] = {
    (3, 2): 221_460,
    (4, 2): 203_436,
    (4, 3): 188_708,
    (5, 2): 183_192,
    (5, 3): 170_756,
    (5, 4): 163_256,
    (6, 2): 165_882,
    (6, 3): 153_212,
    (6, 4): 147_932,
    (6, 5): 146_594,
    (7, 2): 157_212,
    (7, 3): 153_030,
    (7, 4): 148_574,
    (7, 5): 187_184,
    (7, 6): 272_000,
    (8, 2): 148_254,
    (8, 3): 138_024,
    (8, 4): 142_064,
    (8, 5): 181_434,
    (8, 6): 306_278,
    (8, 7): 842_290,
    (9, 2): 149_448,
}


@cache
def _choose(n: int, k: int) -> npt.NDArray[np.uint8]:
    """Every k-subset of range(n), increasing, one per row, in lexicographic order."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.uint8)
    if n < k:
        return np.zeros((0, k), dtype=np.uint8)
    parts = []
    for first in range(n - k + 1):
        rest = _choose(n - first - 1, k - 1) + np.uint8(first + 1)
        parts.append(np.hstack([np.full((len(rest), 1), first, dtype=np.uint8), rest]))
    return np.vstack(parts)


def every_hand_blocks(first_cards: Iterable[int] = range(DECK), *, deck: int = DECK) -> Iterator[npt.NDArray[np.uint8]]:
    """Every seven-card hand of cards ``0 .. deck - 1`` whose lowest card is in ``first_cards``, as
    ``(N, 7)`` blocks.

    One block per pair of lowest cards (a, b): the five others every choice from the
    cards above b. Over ``range(53)`` the blocks hold each of the 154,143,080 hands once.
    """
    for a in first_cards:
        for b in range(a + 1, deck - HAND + 2):
            above = deck - b - 1
            rest = _choose(above, HAND - 2)
            if not len(rest):
                continue
            rows = np.empty((len(rest), HAND), dtype=np.uint8)
            rows[:, 0] = a
            rows[:, 1] = b
            rows[:, 2:] = rest + np.uint8(b + 1)
            yield rows


def _count_share(args: tuple[Sequence[int], str | HouseWay, bool, bool]) -> tuple[Counter[tuple[int, int]], int]:
    firsts, way, wheel, joker_ace = args
    counts: Counter[tuple[int, int]] = Counter()
    hands = 0
    for rows in every_hand_blocks(firsts):
        _high, low = house_way_many(rows, way, wheel_second_highest=wheel, joker_flush_as_ace=joker_ace)
        counts.update(low_hand_distribution(low))
        hands += len(rows)
    return counts, hands


def _shares(workers: int) -> list[list[int]]:
    """The first cards shared out so each worker sets about as many hands (card a starts C(52 - a, 6))."""
    sizes = sorted(((math.comb(DECK - 1 - a, HAND - 1), a) for a in range(DECK)), reverse=True)
    shares: list[list[int]] = [[] for _ in range(workers)]
    loads = [0] * workers
    for size, a in sizes:
        lightest = loads.index(min(loads))
        shares[lightest].append(a)
        loads[lightest] += size
    return shares


def low_hand_counts(
    way: str | HouseWay = "golden_nugget",
    *,
    wheel_second_highest: bool = True,
    joker_flush_as_ace: bool = False,
    workers: int = 1,
) -> LowCounts:
    """How many of the 154,143,080 hands the house way sets with each two-card low hand, by ranks:
    ``(higher, lower)``, 2-14, a pair ``(r, r)``, the joker as rank 15 (it plays as an ace there)."""
    jobs = [(share, way, wheel_second_highest, joker_flush_as_ace) for share in _shares(max(1, workers))]
    if workers > 1:
        # "spawn": a fresh interpreter per worker, safe beside threads (Celery, Django) in the parent.
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            results = pool.map(_count_share, jobs)
    else:
        results = [_count_share(job) for job in jobs]
    total: Counter[tuple[int, int]] = Counter()
    hands = 0
    for counts, n in results:
        total.update(counts)
        hands += n
    if hands != ALL_HANDS:  # pragma: no cover - the enumeration's own check
        raise AssertionError(f"{hands} hands set, not {ALL_HANDS}")
    return dict(sorted(total.items()))


def as_ace_ranks(counts: LowCounts) -> LowCounts:
    """The counts with the joker read as the ace it plays as (rank 15 → 14), as published tables give them."""
    merged: Counter[tuple[int, int]] = Counter()
    for (hi, lo), n in counts.items():
        merged[min(hi, 14), min(lo, 14)] += n
    return dict(sorted(merged.items()))


# --- the check: by rank multiset, the flush hands one by one -------------------------------------------


def _non_flush_deals(counts: Sequence[int]) -> int:
    """How many ways the multiset (13 rank counts, then the joker's 0 or 1) can be dealt with no suit
    holding five cards, the joker counting in every suit."""
    *ranks, joker = counts
    need = 5 - joker  # natural cards of one suit that make five with the joker
    total = math.prod(math.comb(4, c) for c in ranks)
    # In spades: the rank's c cards include the spade or not: C(3, c - 1) ways with, C(3, c) without.
    spades = [1]
    for c in ranks:
        step = [0] * (len(spades) + 1)
        for k, ways in enumerate(spades):
            step[k] += ways * math.comb(3, c)
            if c:
                step[k + 1] += ways * math.comb(3, c - 1)
        spades = step
    flushing = sum(spades[need:])  # at most one suit can hold five of seven (4 + 4 + joker is nine)
    return total - 4 * flushing


def _spade_flush_blocks(suit: int = 0) -> Iterator[npt.NDArray[np.uint8]]:
    """Every hand holding five spades or more (or of ``suit``: 0-3, spades, hearts, diamonds, clubs),
    counting the joker: the suited cards every choice of k of 13, the rest every choice from the 39 others."""
    spades = np.arange(suit, 52, 4, dtype=np.uint8)  # card index = 4 * rank + suit, spades suit 0
    others = np.array([i for i in range(52) if i % 4 != suit], dtype=np.uint8)
    for joker in (0, 1):
        for k in range(5 - joker, HAND - joker + 1):
            picked = spades[_choose(13, k)]
            rest = others[_choose(39, HAND - joker - k)]
            rows = np.empty((len(picked) * len(rest), HAND), dtype=np.uint8)
            rows[:, :k] = np.repeat(picked, len(rest), axis=0)
            rows[:, k : HAND - joker] = np.tile(rest, (len(picked), 1))
            if joker:
                rows[:, -1] = 52
            yield rows


def low_hand_counts_by_multiset(
    way: str | HouseWay = "golden_nugget", *, wheel_second_highest: bool = True, joker_flush_as_ace: bool = False
) -> LowCounts:
    """``low_hand_counts`` by the other road: each rank multiset set once and weighted by its deals
    without five of a suit; the hands with five spades (joker counted) set one by one, times four, or,
    for a way that compares low hands by suit, the hands with five of each suit set one by one."""
    options = {"wheel_second_highest": wheel_second_highest, "joker_flush_as_ace": joker_flush_as_ace}
    by_suit = _house_way(way).low_by_rank_then_suit
    suits, times = ((0, 1, 2, 3), 1) if by_suit else ((0,), 4)
    multisets = rank_multisets()
    reps = np.array([_representative(ms) for ms in multisets], dtype=np.uint8)
    _high, low = house_way_many(reps, way, **options)
    total: Counter[tuple[int, int]] = Counter()
    weights = [_non_flush_deals(_rank_counts(ms)) for ms in multisets]
    for row, weight in zip(low.tolist(), weights, strict=True):
        if weight:
            (key,) = low_hand_distribution(np.array([row])).keys()
            total[key] += weight
    hands = sum(weights)
    for suit in suits:
        for rows in _spade_flush_blocks(suit):
            _high, low = house_way_many(rows, way, **options)
            for key, n in low_hand_distribution(low).items():
                total[key] += times * n
            hands += times * len(rows)
    if hands != ALL_HANDS:  # pragma: no cover - the check's own check
        raise AssertionError(f"{hands} hands counted, not {ALL_HANDS}")
    return dict(sorted(total.items()))


def _rank_counts(multiset: Sequence[int]) -> list[int]:
    """13 counts (twos to aces) and the joker's (rank index 13 in ``rank_multisets``)."""
    counts = [0] * 14
    for rank in multiset:
        counts[rank] += 1
    return counts


def stored_low_hand_counts(way: str) -> LowCounts:
    """The counts of ``way`` as the bench stored them (``DATA_FILE``); KeyError if the way has none."""
    table = json.loads(DATA_FILE.read_text())[way]
    return {(int(k.split(",")[0]), int(k.split(",")[1])): n for k, n in table.items()}
