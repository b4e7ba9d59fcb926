"""How fast Pai Gow Poker's setting advice answers, and how close its sampled EVs come to the exact ones.

``paigow_poker_advice.advise`` compares the 21 settings of a player's seven
cards with a seeded sample of the bank's hands (200,000 by default) instead of
all 53,524,680 the other 46 cards allow. This bench, in one process:

* times ``advise`` on ``--hands`` random hands (seeded): the first call apart
  (it builds the house way's tables), then the rest, median and slowest;
* runs the exact enumeration (``advise(..., exact=True)``) on ``--exact``
  of them and prints its time against the sampled one, and how far each
  sampled EV lies from the exact one against its stated 95% margin (about one
  setting in twenty may lie outside it; a bad bound shows many more);
* exits 1 if a sampled answer takes longer than a second, or the best setting
  by the sample loses more than twice the margin against the exact best.

Run from the repository root: ``python bench/paigow_poker_advice.py``
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import cpu_model  # noqa: E402
from rules.games.cards import ALL_CARDS, cards_text  # noqa: E402
from rules.games.paigow_poker_advice import BANK_HANDS, DEFAULT_SAMPLES, advise  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30, help="random hands to advise on (default 30)")
    parser.add_argument("--exact", type=int, default=2, help="of them, how many to enumerate exactly (default 2)")
    parser.add_argument("--way", default="golden_nugget")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}, NumPy {np.__version__}")
    rng = np.random.default_rng(args.seed)
    hands = [[ALL_CARDS[i] for i in rng.permutation(53)[:7].tolist()] for _ in range(args.hands)]
    start = time.perf_counter()
    advise(hands[0], args.way)
    cold = time.perf_counter() - start
    times, answers = [], []
    for cards in hands:
        start = time.perf_counter()
        answers.append(advise(cards, args.way))
        times.append(time.perf_counter() - start)
    print(f"{args.way}: {DEFAULT_SAMPLES:,} of the {BANK_HANDS:,} bank hands per answer")
    print(f"  first answer in a fresh process (tables built): {cold:.2f} s")
    print(f"  then, {len(hands)} hands: median {statistics.median(times):.3f} s, slowest {max(times):.3f} s")
    print(f"  widest 95% margin: {max(a.margin for a in answers):.4f} (EV per unit)")
    failed = max(times) > 1.0
    outside = settings = 0
    for cards, sampled, fast in list(zip(hands, answers, times, strict=True))[: args.exact]:
        start = time.perf_counter()
        exact = advise(cards, args.way, exact=True)
        slow = time.perf_counter() - start
        by_setting = {str(r.setting): r.ev for r in exact.settings}
        worst = max(abs(r.ev - by_setting[str(r.setting)]) / r.margin for r in sampled.settings if r.margin)
        outside += sum(abs(r.ev - by_setting[str(r.setting)]) > r.margin for r in sampled.settings if r.margin)
        settings += sum(1 for r in sampled.settings if r.margin)
        regret = exact.best.ev - by_setting[str(sampled.best.setting)]
        failed |= regret > 2 * sampled.margin
        print(f"\n  {cards_text(cards)}: exact in {slow:.1f} s, {slow / fast:,.0f}x the sampled answer")
        print(f"    exact best {exact.best.setting} EV {exact.best.ev:+.4f}; sampled best {sampled.best.setting}")
        print(f"    the sampled best gives up {regret:.4f} EV; worst |sampled - exact| / margin: {worst:.2f}")
    if settings:
        print(f"\n  settings whose sampled EV lies outside its 95% margin: {outside} of {settings}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
