"""How fast Pai Gow Poker's setting advice answers exactly, that its exact counts are the enumeration's, and how
close the sampled fallback comes to them.

``paigow_poker_advice.advise`` answers every setting of a player's seven cards against all 53,524,680 bank hands
the other 46 cards allow, exactly, once the house way's flush memo is complete (``warm_up``); before that it
samples. This bench, in one process:

* sets the way's flush memo (into a temporary directory, as ``manage.py paigow_poker_tables`` does into var/) and
  reads it back, timing both;
* times the exact answer on ``--hands`` random hands (seeded): the first call apart (the multisets' settings are
  built), then median and slowest;
* enumerates every bank hand one by one (``enumerate_every_hand``) for ``--check`` of them and requires the same
  wins, pushes and losses of every setting, to the hand;
* times the sampled answer (the fallback) on the same hands and how far each sampled EV lies from the exact one
  against its stated 95% margin.

Exits 1 if the exact median exceeds 2 seconds, a count differs from the enumeration, or the sample's best setting
gives up more than twice its margin. Run from the repository root: ``python bench/paigow_poker_advice.py``
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import cpu_model  # noqa: E402
from rules.games import paigow_poker_batch  # noqa: E402
from rules.games.cards import ALL_CARDS, cards_text  # noqa: E402
from rules.games.paigow_poker_advice import BANK_HANDS, DEFAULT_SAMPLES, advise  # noqa: E402
from rules.games.paigow_poker_batch import flush_memo_prepare  # noqa: E402

EXACT_MEDIAN_BOUND = 2.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30, help="random hands to advise on (default 30)")
    parser.add_argument("--check", type=int, default=3, help="of them, how many to enumerate one by one (default 3)")
    parser.add_argument("--way", default="golden_nugget")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}, NumPy {np.__version__}")
    rng = np.random.default_rng(args.seed)
    hands = [[ALL_CARDS[i] for i in rng.permutation(53)[:7].tolist()] for _ in range(args.hands)]
    failed = False

    with tempfile.TemporaryDirectory() as directory:
        start = time.perf_counter()
        flush_memo_prepare(args.way, directory=Path(directory))
        built = time.perf_counter() - start
        paigow_poker_batch._flush_memo.cache_clear()  # a fresh process: read the memo back
        start = time.perf_counter()
        flush_memo_prepare(args.way, directory=Path(directory))
        read = time.perf_counter() - start
    print(f"{args.way}: the flush memo set in {built:.1f} s (once per installation), read back in {read:.3f} s")

    start = time.perf_counter()
    advise(hands[0], args.way, exact=True)
    cold = time.perf_counter() - start
    times, exact = [], []
    for cards in hands:
        start = time.perf_counter()
        exact.append(advise(cards, args.way, exact=True))
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    print(f"  exact, all {BANK_HANDS:,} bank hands: first answer {cold:.2f} s (the multisets' settings built)")
    print(
        f"  then {len(hands)} hands: median {median:.3f} s, slowest {max(times):.3f} s (bound {EXACT_MEDIAN_BOUND} s)"
    )
    failed |= median > EXACT_MEDIAN_BOUND

    for cards, answer, fast in list(zip(hands, exact, times, strict=True))[: args.check]:
        start = time.perf_counter()
        enumerated = advise(cards, args.way, exact=True, enumerate_every_hand=True)
        slow = time.perf_counter() - start
        same = all(
            (a.setting, a.win, a.push, a.loss) == (b.setting, b.win, b.push, b.loss)
            for a, b in zip(answer.settings, enumerated.settings, strict=True)
        )
        failed |= not same
        print(
            f"  {cards_text(cards)}: every hand set one by one in {slow:.1f} s ({slow / fast:,.0f}x): "
            f"{'the same' if same else 'DIFFERENT'} wins, pushes and losses for all 21 settings; "
            f"best {answer.best.setting} EV {answer.best.ev:+.6f}"
        )

    times, outside, settings, worst_regret = [], 0, 0, 0.0
    for cards, truth in zip(hands, exact, strict=True):
        start = time.perf_counter()
        sampled = advise(cards, args.way, exact=False)
        times.append(time.perf_counter() - start)
        by_setting = {str(r.setting): r.ev for r in truth.settings}
        outside += sum(abs(r.ev - by_setting[str(r.setting)]) > r.margin for r in sampled.settings if r.margin)
        settings += sum(1 for r in sampled.settings if r.margin)
        regret = truth.best.ev - by_setting[str(sampled.best.setting)]
        worst_regret = max(worst_regret, regret)
        failed |= regret > 2 * sampled.margin
    print(
        f"  sampled fallback ({DEFAULT_SAMPLES:,} bank hands): median {statistics.median(times):.3f} s; "
        f"{outside} of {settings} settings' EVs outside their 95% margin; the sampled best gives up at most "
        f"{worst_regret:.4f} EV"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
