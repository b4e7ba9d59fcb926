"""Hand evaluator speed: ours against eval7, treys and pokerkit, on the same seeded hands.

Rows: per-call nanoseconds of ``poker.high_hand`` (five cards) and
``poker.best_hand`` (seven cards) against the peers, on joker-free hands
because the peers know no joker (our five-card time on 53-card hands is shown
too); ``poker_batch.evaluate_many`` on a million seven-card hands from the
53-card deck; and ``paigow_poker.house_way`` when that module is present.
"ours vs it" is the peer's time over ours: 2.0x means ours takes half as long.
Each target is printed beside its ratio with PASS or BELOW.

Before timing, the orderings are checked: ours (with the wheel as the lowest
straight, the peers' rule) and each peer must rank the sampled hands alike.

Run from the repository root: ``python bench/evaluators.py``. The peers come
from ``pip install -r requirements-bench.txt``; a missing one is skipped with
that hint.
"""

from __future__ import annotations

import gc
import importlib
import importlib.metadata
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import cpu_model  # noqa: E402
from rules.games.cards import ALL_CARDS, CARDS, Card  # noqa: E402
from rules.games.poker import best_hand, high_hand  # noqa: E402
from rules.games.poker_batch import evaluate_many  # noqa: E402

SEED = 20260613
FIVE_CARD_HANDS = 100_000
SEVEN_CARD_HANDS = 50_000
BATCH_HANDS = 1_000_000
HOUSE_WAY_HANDS = 20_000
REPEATS = 7
INSTALL_HINT = "pip install -r requirements-bench.txt"


def machine() -> str:
    return f"{cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}, NumPy {np.__version__}"


def peer(name: str) -> ModuleType | None:
    try:
        module = importlib.import_module(name)
    except ImportError:
        print(f"  {name} is not installed: {INSTALL_HINT}")
        return None
    return module


def version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def ns_per_call(run: Callable[[], object], calls: int) -> float:
    """The best of ``REPEATS`` runs of ``run`` (which makes ``calls`` calls), in nanoseconds a call.

    The cyclic garbage collector is off while timing, as ``timeit`` does, so a
    collection triggered by one evaluator's allocations is not charged to a call.
    """
    best = float("inf")
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(REPEATS):
            started = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - started)
    finally:
        if was_enabled:
            gc.enable()
    return best / calls * 1e9


def same_order(ours: Sequence[int], theirs: Sequence[int]) -> bool:
    """True when both lists rank the hands alike: sorted by ours, theirs rises exactly where ours does."""
    a, b = np.asarray(ours, np.int64), np.asarray(theirs, np.int64)
    order = np.argsort(a, kind="stable")
    up_a, up_b = np.diff(a[order]), np.diff(b[order])
    return bool(np.all(up_b >= 0) and np.all((up_a > 0) == (up_b > 0)))


class Table:
    def __init__(self) -> None:
        print(f"{'evaluator':<44}{'ns/call':>10}{'ours vs it':>12}{'target':>10}  verdict")

    def row(self, label: str, ns: float, ours_ns: float | None = None, target: float | None = None) -> None:
        ratio = f"{ns / ours_ns:.2f}x" if ours_ns else ""
        goal = f">= {target:g}x" if target is not None else ""
        verdict = "" if target is None or ours_ns is None else ("PASS" if ns / ours_ns >= target else "BELOW")
        print(f"{label:<44}{ns:>10,.0f}{ratio:>12}{goal:>10}  {verdict}")

    @staticmethod
    def rate(label: str, per_second: float, target: float, unit: str) -> None:
        verdict = "PASS" if per_second >= target else "BELOW"
        print(f"{label:<44}{per_second / 1e6:>9.2f}M {unit + '/s':>11}{f'>= {target / 1e6:g}M':>10}  {verdict}")


def random_hands(rng: random.Random, count: int, size: int, deck: Sequence[Card]) -> list[tuple[Card, ...]]:
    return [tuple(rng.sample(deck, size)) for _ in range(count)]


def random_index_rows(rng: np.random.Generator, count: int, size: int, deck: int) -> np.ndarray:
    """``count`` rows of ``size`` distinct card indices below ``deck``: rows with a repeat are drawn again."""
    rows = rng.integers(0, deck, (count, size), dtype=np.int8)
    while True:
        ordered = np.sort(rows, axis=1)
        repeats = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if not repeats.size:
            return rows
        rows[repeats] = rng.integers(0, deck, (repeats.size, size), dtype=np.int8)


def five_cards(table: Table, rng: random.Random) -> None:
    hands = random_hands(rng, FIVE_CARD_HANDS, 5, CARDS)
    with_joker = random_hands(rng, FIVE_CARD_HANDS, 5, ALL_CARDS)
    ours = ns_per_call(lambda: [high_hand(h) for h in hands], len(hands))
    table.row("poker.high_hand, 5 of 52", ours)
    table.row("poker.high_hand, 5 of 53", ns_per_call(lambda: [high_hand(h) for h in with_joker], len(hands)))
    ordered = [high_hand(h, wheel_second_highest=False) for h in hands]
    eval7 = peer("eval7")
    if eval7 is not None:
        theirs = [tuple(eval7.Card(str(c)) for c in h) for h in hands]
        evaluate = eval7.evaluate
        check(same_order(ordered, [evaluate(h) for h in theirs]), "eval7, 5 cards")
        table.row("eval7.evaluate, 5 of 52", ns_per_call(lambda: [evaluate(h) for h in theirs], len(hands)), ours, 1.0)
    treys = peer("treys")
    if treys is not None:
        split = [([treys.Card.new(str(c)) for c in h[:2]], [treys.Card.new(str(c)) for c in h[2:]]) for h in hands]
        treys_evaluate = treys.Evaluator().evaluate
        check(same_order(ordered, [-treys_evaluate(a, b) for a, b in split]), "treys, 5 cards")
        ns = ns_per_call(lambda: [treys_evaluate(a, b) for a, b in split], len(hands))
        table.row("treys Evaluator.evaluate, 5 of 52", ns, ours, 2.0)
    pokerkit = peer("pokerkit")
    if pokerkit is not None:
        hand_class: Any = pokerkit.StandardHighHand
        parsed = [tuple(pokerkit.Card.parse("".join(str(c) for c in h))) for h in hands]
        check(same_order(ordered, [hand_class(h).entry.index for h in parsed]), "pokerkit, 5 cards")
        ns = ns_per_call(lambda: [hand_class(h).entry for h in parsed], len(hands))
        table.row("pokerkit StandardHighHand(cards).entry", ns, ours)


def seven_cards(table: Table, rng: random.Random) -> None:
    hands = random_hands(rng, SEVEN_CARD_HANDS, 7, CARDS)
    ours = ns_per_call(lambda: [best_hand(h) for h in hands], len(hands))
    table.row("poker.best_hand, 7 of 52", ours)
    ordered = [best_hand(h, wheel_second_highest=False)[0] for h in hands]
    eval7 = peer("eval7")
    if eval7 is not None:
        theirs = [tuple(eval7.Card(str(c)) for c in h) for h in hands]
        evaluate = eval7.evaluate
        check(same_order(ordered, [evaluate(h) for h in theirs]), "eval7, 7 cards")
        table.row("eval7.evaluate, 7 of 52", ns_per_call(lambda: [evaluate(h) for h in theirs], len(hands)), ours, 0.75)
    treys = peer("treys")
    if treys is not None:
        split = [([treys.Card.new(str(c)) for c in h[:2]], [treys.Card.new(str(c)) for c in h[2:]]) for h in hands]
        treys_evaluate = treys.Evaluator().evaluate
        check(same_order(ordered, [-treys_evaluate(a, b) for a, b in split]), "treys, 7 cards")
        ns = ns_per_call(lambda: [treys_evaluate(a, b) for a, b in split], len(hands))
        table.row("treys Evaluator.evaluate, 7 of 52", ns, ours, 10.0)


def batch(table: Table) -> None:
    rows = random_index_rows(np.random.default_rng(SEED), BATCH_HANDS, 7, 53)
    evaluate_many(rows[:10])  # builds the tables
    times = []
    for _ in range(5):
        started = time.perf_counter()
        evaluate_many(rows)
        times.append(time.perf_counter() - started)
    table.rate("poker_batch.evaluate_many, 1M x 7 of 53", BATCH_HANDS / min(times), 20e6, "hands")
    print(f"{'':<44}(best of 5; median {BATCH_HANDS / statistics.median(times) / 1e6:.2f}M hands/s)")


def house_way(table: Table, rng: random.Random) -> None:
    from rules.games.paigow_poker import house_way as setter

    hands = random_hands(rng, HOUSE_WAY_HANDS, 7, ALL_CARDS)
    ns = ns_per_call(lambda: [setter(h) for h in hands], len(hands))
    table.rate("paigow_poker.house_way, 7 of 53", 1e9 / ns, 100e3, "hands")


def check(agrees: bool, what: str) -> None:
    if not agrees:
        print(f"  WARNING: {what}: the rankings disagree with ours on the sampled hands")


def main() -> int:
    print(f"Machine: {machine()}")
    print("Peers: " + ", ".join(f"{name} {version(name)}" for name in ("eval7", "treys", "pokerkit")))
    rng = random.Random(SEED)
    table = Table()
    five_cards(table, rng)
    seven_cards(table, rng)
    batch(table)
    house_way(table, rng)
    return 0


if __name__ == "__main__":
    sys.exit(main())
