"""Pai Gow tiles engine speed: hand values, the house way and the setting advice, on seeded hands.

Rows: ``paigow_tiles.hand_value`` calls a second on two-tile hands (target
1,000,000/s), ``paigow_tiles.house_way`` hands a second on four-tile hands
(target 100,000/s), each the best of ``REPEATS`` runs over the whole sample.
``house_way`` builds its setting of every multiset of faces (there are 8,130)
once per way and rule options, on first use, like the poker engine's tables; a
second row times that one-time build, under a fresh copy of the way each repeat. Then
``paigow_tiles_advice.advise`` in milliseconds a hand over ``ADVISE_HANDS`` seeded
hands (target: no hand above 200 ms), each hand the best of ``ADVISE_REPEATS``
calls; the first call of the process, which builds the bank tables (and with
them the house way's memory of all 8,130 multisets), is timed before anything
else and shown apart. The cyclic garbage collector is off while
timing, as ``timeit`` does and as ``bench/evaluators.py`` does.

Run from the repository root: ``python bench/tiles.py``.
"""

from __future__ import annotations

import dataclasses
import gc
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.evaluators import machine  # noqa: E402
from rules.games.paigow_tiles import HOUSE_WAYS, hand_value, house_way  # noqa: E402
from rules.games.paigow_tiles_advice import advise  # noqa: E402
from rules.games.tiles import TILE_FACES, TILE_SET, Tile  # noqa: E402

SEED = 20261121
HAND_VALUE_HANDS = 200_000
HOUSE_WAY_HANDS = 50_000
ADVISE_HANDS = 60
REPEATS = 7
ADVISE_REPEATS = 3

HAND_VALUE_TARGET = 1_000_000
HOUSE_WAY_TARGET = 100_000
ADVISE_TARGET_MS = 200.0


def best_seconds(run: Callable[[], object], repeats: int = REPEATS) -> float:
    """The best of ``repeats`` runs of ``run``, in seconds, with the garbage collector off."""
    best = float("inf")
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            started = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - started)
    finally:
        if was_enabled:
            gc.enable()
    return best


def hands(rng: random.Random, count: int, size: int) -> list[tuple[Tile, ...]]:
    return [tuple(rng.sample(TILE_SET, size)) for _ in range(count)]


def every_multiset() -> list[tuple[Tile, ...]]:
    """Every four-tile hand the set allows, one per multiset of faces (8,130)."""
    return [
        hand
        for hand in itertools.combinations_with_replacement(TILE_FACES, 4)
        if all(hand.count(t) <= t.copies for t in hand)
    ]


def first_sight_seconds(hands: list[tuple[Tile, ...]]) -> float:
    """The best of ``REPEATS`` passes of ``house_way`` over ``hands``, each under a never-seen copy of Foxwoods
    (so each pass includes building that copy's table of settings)."""
    fresh = (dataclasses.replace(HOUSE_WAYS["foxwoods"], name=f"foxwoods, cold {n}") for n in itertools.count())

    def one_pass() -> None:
        way = next(fresh)
        for hand in hands:
            house_way(hand, way)

    return best_seconds(one_pass)


def advice_of(hand: tuple[Tile, ...]) -> Callable[[], object]:
    return lambda: advise(hand)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "BELOW"


def row(label: str, figure: str, target: str, ok: bool) -> None:
    print(f"{label:<44}{figure:>16}{target:>16}  {verdict(ok)}")


def main() -> int:
    print(f"Machine: {machine()}")
    rng = random.Random(SEED)
    sample = hands(rng, ADVISE_HANDS, 4)
    started = time.perf_counter()
    advise(sample[0])  # first, while nothing is built or remembered: the bank tables and the house way's memory
    first_ms = (time.perf_counter() - started) * 1e3
    print(f"{'what':<44}{'measured':>16}{'target':>16}  verdict")

    pairs = hands(rng, HAND_VALUE_HANDS, 2)
    per_second = len(pairs) / best_seconds(lambda: [hand_value(p) for p in pairs])
    row("paigow_tiles.hand_value, 2 of 32", f"{per_second:,.0f}/s", f">= {HAND_VALUE_TARGET:,}/s", per_second >= 1e6)

    fours = hands(rng, HOUSE_WAY_HANDS, 4)
    per_second = len(fours) / best_seconds(lambda: [house_way(h) for h in fours])
    row("paigow_tiles.house_way, 4 of 32", f"{per_second:,.0f}/s", f">= {HOUSE_WAY_TARGET:,}/s", per_second >= 1e5)
    distinct = every_multiset()
    build_ms = first_sight_seconds(distinct[:1]) * 1e3
    label = f"  one-time build of all {len(distinct):,} settings"
    print(f"{label:<44}{f'{build_ms:,.0f} ms':>16}  (once per way and options)")

    times = [best_seconds(advice_of(hand), ADVISE_REPEATS) * 1e3 for hand in sample]
    worst, median = max(times), statistics.median(times)
    row(
        f"paigow_tiles_advice.advise, {ADVISE_HANDS} hands",
        f"max {worst:.2f} ms",
        f"<= {ADVISE_TARGET_MS:g} ms",
        worst <= ADVISE_TARGET_MS,
    )
    print(
        f"{'':<44}{f'median {median:.2f} ms':>16}   (the process's first call, building the tables: {first_ms:,.0f} ms)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
