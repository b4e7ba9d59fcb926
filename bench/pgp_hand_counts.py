"""Count the best five-card hand of every seven cards from the 53-card Pai Gow Poker deck.

All C(53, 7) = 154,143,080 hands go through ``poker_batch.evaluate_many`` and
the category counts are compared with the published table (Brian Alspach's
2003 seven-card counts for the deck with a joker, as also given by the Wizard
of Odds for Pai Gow Poker). The joker is an ace or completes a straight, a flush or a
straight flush (GAME_RULES.md §2); royal flushes include those the joker
completes. Neither rule option changes a count: the wheel's place among the
straights and the rank a joker takes in a flush only order hands inside a
category.

Enumeration: for every second card ``b`` the last five cards are the
five-card combinations of the cards above ``b`` (a suffix of all combinations
of cards 2..52 in lexicographic order); the first cards ``a < b`` go in front
of copies of them, about a million hands a batch. Every hand appears once:
its two lowest cards are ``a < b`` and its other five are above ``b``.

Run from the repository root: ``python bench/pgp_hand_counts.py``. Exits 1 on
any mismatch.
"""

from __future__ import annotations

import platform
import resource
import sys
import time
from math import comb
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.games.poker import Category  # noqa: E402
from rules.games.poker_batch import evaluate_many  # noqa: E402

DECK = 53
BATCH = 1_000_000  # hands per evaluate_many call, about
PUBLISHED: dict[Category, int] = {
    Category.FIVE_ACES: 1_128,
    Category.ROYAL_FLUSH: 26_132,
    Category.STRAIGHT_FLUSH: 184_832,
    Category.FOUR_OF_A_KIND: 307_472,
    Category.FULL_HOUSE: 4_188_528,
    Category.FLUSH: 6_172_088,
    Category.STRAIGHT: 11_236_028,
    Category.THREE_OF_A_KIND: 7_470_676,
    Category.TWO_PAIR: 35_553_816,
    Category.ONE_PAIR: 64_221_960,
    Category.HIGH_CARD: 24_780_420,
}


def lex_combinations(n: int, k: int) -> np.ndarray:
    """Every ``k`` of ``range(n)``, ascending within a row, rows in lexicographic order.

    Built up by size: the rows of size ``k - 1`` whose cards are all above
    ``first`` are the last C(n - 1 - first, k - 1) of them, so each first card
    is put in front of a suffix.
    """
    combos = np.arange(n, dtype=np.int8)[:, None]
    for size in range(2, k + 1):
        parts = []
        for first in range(n - size + 1):
            rest = combos[len(combos) - comb(n - 1 - first, size - 1) :]
            parts.append(np.concatenate([np.full((len(rest), 1), first, np.int8), rest], axis=1))
        combos = np.concatenate(parts)
    return combos


def count_categories() -> tuple[np.ndarray, int]:
    """(hands per category, hands evaluated) over every seven cards of the deck."""
    tails = lex_combinations(DECK - 2, 5) + 2  # every five of the cards 2..52
    counts = np.zeros(len(Category), np.int64)
    hands = 0
    for b in range(1, DECK - 5):
        rows = comb(DECK - 1 - b, 5)  # the fives above b: a suffix of tails
        group = min(b, max(1, BATCH // rows))  # first cards a < b per batch
        block = np.empty((group, rows, 7), np.int8)
        block[:, :, 1] = b
        block[:, :, 2:] = tails[len(tails) - rows :]
        for first in range(0, b, group):
            firsts = np.arange(first, min(first + group, b), dtype=np.int8)
            batch = block[: len(firsts)]
            batch[:, :, 0] = firsts[:, None]
            values = evaluate_many(batch.reshape(-1, 7))
            counts += np.bincount(values >> 20, minlength=len(Category))
            hands += len(values)
    return counts, hands


def peak_mib() -> float:
    """The process's peak resident memory (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    print(f"Python {platform.python_version()}, NumPy {np.__version__}")
    started = time.perf_counter()
    evaluate_many(np.arange(7, dtype=np.int8)[None, :])  # builds the lookup tables
    built = time.perf_counter()
    counts, hands = count_categories()
    elapsed = time.perf_counter() - started
    ok = True
    print(f"{'hand':<18}{'computed':>14}{'published':>14}")
    for category in sorted(Category, reverse=True):
        computed, published = int(counts[category]), PUBLISHED[category]
        ok &= computed == published
        verdict = "OK" if computed == published else f"MISMATCH ({computed - published:+,})"
        print(f"{category.name.lower():<18}{computed:>14,}{published:>14,}  {verdict}")
    total_ok = hands == comb(DECK, 7) == sum(PUBLISHED.values()) == int(counts.sum())
    ok &= total_ok
    print(f"{'total':<18}{int(counts.sum()):>14,}{comb(DECK, 7):>14,}  {'OK' if total_ok else 'MISMATCH'}")
    counting = elapsed - (built - started)
    print(
        f"{hands:,} hands in {elapsed:.1f} s: tables {built - started:.1f} s, counting {counting:.1f} s"
        f" ({hands / counting / 1e6:.1f} million hands/s); peak memory {peak_mib():.0f} MiB"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
