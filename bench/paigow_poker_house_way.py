"""Hands per second of the vectorised Pai Gow Poker house way against the per-hand one, for each way.

For each way in ``HOUSE_WAYS``: 1,000,000 random seven-card hands (seeded) go
through ``paigow_poker_batch.house_way_many``, and a sample of them through
``paigow_poker.house_way`` one by one, in the same process; the ratio of the two
rates is printed. The batch rate is given three ways, because the rows that can
make a flush are looked up in a memo that grows as hands are set:

* cold: the first million, the memo empty (the rank tables already built;
  their build time is printed apart);
* warm: a second, fresh million with the memo of the first;
* repeat: the first million again (every flush row found in the memo);
* complete: a third million once the memo holds every flush hand of the deck
  (``flush_memo_prepare``, as the tablet's advice and ``manage.py
  paigow_poker_tables`` make it): nothing is set one by one any more.

The bench also checks the batch against the per-hand sample (exits 1 on any
difference) and prints the distribution of the bank's two-card low hand over
the first million hands of each way (random, not exhaustive).

Run from the repository root: ``python bench/paigow_poker_house_way.py``
(``--hands`` and ``--per-hand`` change the sizes).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import cpu_model  # noqa: E402
from rules.games.cards import ALL_CARDS  # noqa: E402
from rules.games.paigow_poker import HOUSE_WAYS, house_way  # noqa: E402
from rules.games.paigow_poker_batch import (  # noqa: E402
    flush_memo_prepare,
    flush_memo_size,
    flush_possible,
    flush_rule_table,
    house_way_many,
    low_hand_distribution,
    low_position_table,
)

RANKS = "23456789TJQKA"
COMPLETE_BOUND = 5_000_000
T = TypeVar("T")


def random_hands(count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` seven-card hands from the 53-card deck, uniformly."""
    hands = np.empty((count, 7), dtype=np.int8)
    for start in range(0, count, 100_000):
        part = min(100_000, count - start)
        hands[start : start + part] = np.argsort(rng.random((part, 53)), axis=1)[:, :7]
    return hands


def timed(run: Callable[[], T]) -> tuple[float, T]:
    """Seconds that ``run()`` took, and what it returned."""
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def rank_name(rank: int) -> str:
    return "Jk" if rank == 15 else RANKS[rank - 2]


def low_hand_lines(low: np.ndarray) -> list[str]:
    """The low hands by their top card (pairs apart), with their share of the hands."""
    counts = low_hand_distribution(low)
    total = sum(counts.values())
    pairs = {hi: n for (hi, lo), n in counts.items() if hi == lo}
    tops: dict[int, int] = {}
    for (hi, lo), n in counts.items():
        if hi != lo:
            tops[hi] = tops.get(hi, 0) + n
    cells = [f"{rank_name(r)}{rank_name(r)} {pairs[r] / total:7.4%}" for r in sorted(pairs, reverse=True)]
    cells += [f"{rank_name(r)}-high {tops[r] / total:7.4%}" for r in sorted(tops, reverse=True)]
    return ["    " + "   ".join(cells[k : k + 5]) for k in range(0, len(cells), 5)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands per batch (default 1,000,000)")
    parser.add_argument("--per-hand", type=int, default=100_000, help="hands set one by one (default 100,000)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}, NumPy {np.__version__}")
    print(f"{args.hands:,} random hands per batch, {args.per_hand:,} of them set one by one; seed {args.seed}")
    failed = False
    for way in HOUSE_WAYS:
        rng = np.random.default_rng(args.seed)
        first, second = random_hands(args.hands, rng), random_hands(args.hands, rng)
        build, _ = timed(lambda: (low_position_table(way, True, False), flush_rule_table(way)))  # noqa: B023
        cold, (high, low) = timed(lambda: house_way_many(first, way))  # noqa: B023
        one_by_one = flush_memo_size(way)
        warm, _ = timed(lambda: house_way_many(second, way))  # noqa: B023
        repeat, _ = timed(lambda: house_way_many(first, way))  # noqa: B023
        prepared, _ = timed(lambda: flush_memo_prepare(way))  # noqa: B023
        third = random_hands(args.hands, rng)
        complete, (high_c, low_c) = timed(lambda: house_way_many(third, way))  # noqa: B023
        sample = [[ALL_CARDS[i] for i in row] for row in first[: args.per_hand].tolist()]
        slow, settings = timed(lambda: [house_way(cards, way) for cards in sample])  # noqa: B023
        per_hand = len(sample) / slow
        differ = sum(
            [c.index for c in s.high] != h or [c.index for c in s.low] != lo
            for s, h, lo in zip(settings, high[: args.per_hand].tolist(), low[: args.per_hand].tolist(), strict=True)
        )
        sample_c = [[ALL_CARDS[i] for i in row] for row in third[: args.per_hand // 10].tolist()]
        differ += sum(
            [c.index for c in s.high] != h or [c.index for c in s.low] != lo
            for s, h, lo in zip(
                (house_way(cards, way) for cards in sample_c),
                high_c[: len(sample_c)].tolist(),
                low_c[: len(sample_c)].tolist(),
                strict=True,
            )
        )
        failed |= differ > 0
        share = float(flush_possible(first).mean())
        print(f"\n{way}: tables built in {build:.2f} s; {share:.2%} of hands can make a flush")
        print(f"  set one by one in the cold batch (the slow path): {one_by_one:,} ({one_by_one / args.hands:.2%})")
        print(f"  per hand (house_way):     {per_hand:>12,.0f} hands/s")
        for name, seconds in (("cold", cold), ("warm", warm), ("repeat", repeat)):
            rate = args.hands / seconds
            print(f"  house_way_many, {name:<7}  {rate:>12,.0f} hands/s  ({rate / per_hand:5.1f}x)")
        rate = args.hands / complete
        print(
            f"  house_way_many, the flush memo complete (set in {prepared:.1f} s, once; then read from var/):"
            f" {rate:,.0f} hands/s ({rate / per_hand:5.1f}x; bound {COMPLETE_BOUND:,})"
        )
        print(f"  {len(sample) + len(sample_c):,} hands compared with house_way: {differ} differ")
        print("  the bank's low hand over the first batch (random hands, not exhaustive):")
        print("\n".join(low_hand_lines(low)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
