"""The deal page's ICM: how long the exact Malmuth-Harville equities take for a final table, against the
textbook way of working them out in the same process.

``poker_room.pure.icm.icm_equities`` is exact (``fractions.Fraction``) and memoised over the sets of players already
placed: 2^n sets, each extended by the players left. The peer is the definition itself: every finishing order (n!
of them) with its Malmuth-Harville probability, in floats, summed into each player's equity — what a spreadsheet or
a naive calculator does. Both run on the same stacks (a 10-handed final table's, spread like a real one) and must
agree to a millionth of a cent; the peer is timed only up to 9 players (9! = 362,880 orders), where it already
takes seconds. Each figure is the median of ``--repeats`` runs, garbage collector off.

Run: ``.venv/bin/python bench/icm.py``.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from poker_room.pure.icm import icm_deal_cents, icm_equities  # noqa: E402

STACKS = (412_000, 318_500, 260_000, 201_000, 155_500, 120_000, 96_000, 71_000, 44_500, 21_500, 15_000, 9_000)
PRIZES = (1_500_000, 950_000, 640_000, 470_000, 360_000, 285_000, 230_000, 190_000, 160_000, 140_000, 0, 0)


def orders_equities(stacks: Sequence[int], prizes: Sequence[int]) -> list[float]:
    """Every finishing order with its probability (the definition), in floats."""
    equity = [0.0] * len(stacks)
    for order in itertools.permutations(range(len(stacks))):
        left = float(sum(stacks))
        chance = 1.0
        for player in order:
            chance *= stacks[player] / left
            left -= stacks[player]
        for place, player in enumerate(order):
            equity[player] += chance * prizes[place]
    return equity


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    times = []
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--peer-up-to", type=int, default=9)
    args = parser.parse_args()
    print(f"{'players':>7} {'exact ICM':>12} {'every order':>13} {'ratio':>8}  deal (cents) sums to the money")
    for players in range(2, len(STACKS) + 1):
        stacks, prizes = STACKS[:players], PRIZES[:players]
        exact = median_seconds(lambda s=stacks, p=prizes: icm_equities(s, p), args.repeats)
        deal = icm_deal_cents(stacks, prizes)
        assert sum(deal) == sum(prizes), (players, deal)
        peer_text = ratio_text = "—"
        if players <= args.peer_up_to:
            peer = median_seconds(lambda s=stacks, p=prizes: orders_equities(s, p), max(1, args.repeats // 2))
            for mine, theirs in zip(icm_equities(stacks, prizes), orders_equities(stacks, prizes), strict=True):
                assert abs(float(mine) - theirs) < 1e-6, (players, float(mine), theirs)
            peer_text, ratio_text = f"{peer * 1000:10.2f} ms", f"{peer / exact:7.1f}×"
        print(f"{players:>7} {exact * 1000:9.2f} ms {peer_text:>13} {ratio_text:>8}  yes")


if __name__ == "__main__":
    main()
