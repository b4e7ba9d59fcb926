"""The exact distribution of the bank's two-card low hand over all 154,143,080 Pai Gow Poker hands, per house way.

For each way (all of ``HOUSE_WAYS`` unless ``--way`` names some), every hand of
seven of the 53 cards is set by the vectorised house way
(``paigow_poker_exact.low_hand_counts``, shared out over ``--workers``
processes) and timed; the counts are then reached the other road
(``low_hand_counts_by_multiset``: rank multisets weighted by their deals, the
flush hands one by one) and the two must agree exactly (exit 1 if not). For the
Trump Plaza readings the rows published by the Wizard of Odds are printed beside
ours, row by row.

``--write`` stores the counts in ``rules/games/data/pgp_low_hands.json``, which
the tests hold the multiset road to and docs/game-math.md prints.

Run from the repository root: ``python bench/paigow_poker_low_hands.py``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import cpu_model  # noqa: E402
from rules.games.paigow_poker import HOUSE_WAYS  # noqa: E402
from rules.games.paigow_poker_exact import (  # noqa: E402
    ALL_HANDS,
    DATA_FILE,
    PUBLISHED_TRUMP_PLAZA_LOWS,
    as_ace_ranks,
    low_hand_counts,
    low_hand_counts_by_multiset,
)

RANKS = "23456789TJQKA"


def name(hi: int, lo: int) -> str:
    return f"{RANKS[hi - 2]}{RANKS[lo - 2]}" if hi != lo else f"{RANKS[hi - 2]}{RANKS[lo - 2]} (pair)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--way", action="append", choices=list(HOUSE_WAYS), help="a house way (repeatable)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--write", action="store_true", help=f"store the counts in {DATA_FILE.name}")
    args = parser.parse_args(argv)
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}, NumPy {np.__version__}")
    print(f"all {ALL_HANDS:,} hands per way, {args.workers} worker processes")
    stored = json.loads(DATA_FILE.read_text()) if DATA_FILE.exists() else {}
    failed = False
    for way in args.way or list(HOUSE_WAYS):
        start = time.perf_counter()
        counts = low_hand_counts(way, workers=args.workers)
        every = time.perf_counter() - start
        start = time.perf_counter()
        check = low_hand_counts_by_multiset(way)
        by_multiset = time.perf_counter() - start
        agree = counts == check
        failed |= not agree
        print(f"\n{way}: every hand set in {every:.1f} s ({ALL_HANDS / every:,.0f} hands/s); ", end="")
        print(f"by rank multiset in {by_multiset:.1f} s; the two roads {'agree' if agree else 'DIFFER'}")
        aces = as_ace_ranks(counts)
        if way.startswith("trump_plaza"):
            print("  row   published      ours   difference")
            for (hi, lo), published in PUBLISHED_TRUMP_PLAZA_LOWS.items():
                ours = aces.get((hi, lo), 0)
                print(f"  {name(hi, lo):<5} {published:>9,} {ours:>9,} {ours - published:>+11,}")
        else:
            top = sorted(aces.items(), key=lambda kv: -kv[1])[:5]
            print("  most frequent: " + ", ".join(f"{name(*k)} {n:,}" for k, n in top))
        stored[way] = {f"{hi},{lo}": n for (hi, lo), n in counts.items()}
    if args.write:
        DATA_FILE.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
        print(f"\nwritten: {DATA_FILE}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
