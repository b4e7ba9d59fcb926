"""Points games speed: Chinese Poker scoring and setting advice, Open-Face Chinese Poker scoring, on seeded hands.

Rows, each with its target and PASS or BELOW:

* ``chinese_poker.score`` of a four-player table, tables a second (target
  20,000/s). The hands are seeded deals set by ``suggest`` beforehand; an
  ``Arrangement`` computes its row values when it is built, so a second row
  shows building the four arrangements and scoring them together.
* ``chinese_poker_suggest.suggest`` (strength objective), milliseconds a hand,
  max and median over ``SUGGEST_HANDS`` seeded hands, each the best of
  ``SUGGEST_REPEATS`` calls (target: no hand above 20 ms). The process's first
  call, which loads the calibration and builds the lookup tables, is timed apart.
* ``ofc.score`` of a three-player table of finished boards, tables a second
  (target 20,000/s); a finished board values its rows when its last card is
  placed, so a second row shows building the three boards and scoring them. Two boards in
  three are set by ``suggest``, the third dealt into rows as they come (mostly
  fouled), so the foul path is timed too.
* How close the strength objective is to the simulation objective
  (``compare_objectives``): agreement, the simulation's agreement with itself
  under other opponents, and the expected points a hand the strength choice
  gives up. ``--quick`` skips it (it takes about half a minute).

Timings are the best of ``REPEATS`` runs with the garbage collector off, as in
``bench/evaluators.py`` and ``bench/tiles.py``. Run from the repository root:
``python bench/points_games.py``.
"""

from __future__ import annotations

import functools
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.evaluators import machine  # noqa: E402
from bench.tiles import best_seconds  # noqa: E402
from rules.games import chinese_poker as cp  # noqa: E402
from rules.games import ofc  # noqa: E402
from rules.games.cards import CARDS, Card  # noqa: E402
from rules.games.chinese_poker_suggest import compare_objectives, suggest  # noqa: E402

SEED = 20261204
CP_TABLES = 250
OFC_TABLES = 300
PASSES = 20  # passes over the tables in one timed run
SUGGEST_HANDS = 60
SUGGEST_REPEATS = 3
COMPARE_HANDS = 20
COMPARE_SAMPLES = 100

SCORE_TARGET = 20_000
SUGGEST_TARGET_MS = 20.0


def verdict(ok: bool) -> str:
    return "PASS" if ok else "BELOW"


def row(label: str, figure: str, target: str, ok: bool | None = None) -> None:
    print(f"{label:<52}{figure:>18}{target:>14}  {'' if ok is None else verdict(ok)}")


def deal(rng: random.Random, players: int) -> list[list[Card]]:
    cards = rng.sample(CARDS, 13 * players)
    return [cards[13 * i : 13 * i + 13] for i in range(players)]


def set_by_suggest(hand: list[Card]) -> cp.Arrangement:
    return suggest(hand, top=1)[0].arrangement


def chinese_poker_rows(rng: random.Random) -> None:
    tables = [{seat: set_by_suggest(hand) for seat, hand in enumerate(deal(rng, 4))} for _ in range(CP_TABLES)]
    rows = [{seat: (a.front, a.middle, a.back) for seat, a in table.items()} for table in tables]

    def score_all() -> None:
        for _ in range(PASSES):
            for table in tables:
                cp.score(table)

    def build_and_score_all() -> None:
        for _ in range(PASSES):
            for table in rows:
                cp.score({seat: cp.Arrangement(*r) for seat, r in table.items()})

    per_second = CP_TABLES * PASSES / best_seconds(score_all)
    row(
        "chinese_poker.score, 4 players (2-4, seed)",
        f"{per_second:,.0f}/s",
        f">= {SCORE_TARGET:,}/s",
        per_second >= 2e4,
    )
    per_second = CP_TABLES * PASSES / best_seconds(build_and_score_all)
    row("  with the 4 arrangements built in the run", f"{per_second:,.0f}/s", "")


def suggest_rows(rng: random.Random) -> None:
    hands = [deal(rng, 1)[0] for _ in range(SUGGEST_HANDS)]
    times = [best_seconds(functools.partial(suggest, hand), SUGGEST_REPEATS) * 1e3 for hand in hands]
    worst, median = max(times), statistics.median(times)
    row(
        f"chinese_poker_suggest.suggest, {SUGGEST_HANDS} hands",
        f"max {worst:.2f} ms",
        f"<= {SUGGEST_TARGET_MS:g} ms",
        worst <= SUGGEST_TARGET_MS,
    )
    row("", f"median {median:.2f} ms", "")


def ofc_rows(rng: random.Random) -> None:
    tables = []
    for _ in range(OFC_TABLES):
        hands = deal(rng, 3)
        boards = {}
        for seat, hand in enumerate(hands):
            if seat < 2:
                a = set_by_suggest(hand)
                boards[f"p{seat}"] = ofc.Board.from_rows(a.front, a.middle, a.back)
            else:
                boards[f"p{seat}"] = ofc.Board.from_rows(hand[:3], hand[3:8], hand[8:])
        tables.append(boards)
    fouls = sum(len(ofc.score(t).fouls) for t in tables)

    def score_all() -> None:
        for _ in range(PASSES):
            for table in tables:
                ofc.score(table)

    rows = [{seat: (b.front, b.middle, b.back) for seat, b in table.items()} for table in tables]

    def build_and_score_all() -> None:
        for _ in range(PASSES):
            for table in rows:
                ofc.score({seat: ofc.Board.from_rows(*r) for seat, r in table.items()})

    per_second = OFC_TABLES * PASSES / best_seconds(score_all)
    row("ofc.score, 3 players (mainz)", f"{per_second:,.0f}/s", f">= {SCORE_TARGET:,}/s", per_second >= 2e4)
    per_second = OFC_TABLES * PASSES / best_seconds(build_and_score_all)
    row("  with the 3 finished boards built in the run", f"{per_second:,.0f}/s", "")
    print(f"{'':<52}{f'{fouls} fouled of {3 * OFC_TABLES} boards':>18}")


def comparison_rows() -> None:
    started = time.perf_counter()
    found = compare_objectives(hands=COMPARE_HANDS, samples=COMPARE_SAMPLES, seed=SEED)
    seconds = time.perf_counter() - started
    print(
        f"strength vs simulation objective, {found.hands} seeded hands, {found.samples} opponents each "
        f"(2-4, seed royalties; {seconds:.0f} s):"
    )
    baseline = f"a second simulation agrees with the first: {found.baseline_agreement:.0%}"
    print(f"  same choice: {found.agreement:.0%} ({baseline})")
    print(f"  points a hand the strength choice gives up: mean {found.mean_loss:.3f}, worst {found.max_loss:.3f}")


def main() -> int:
    print(f"Machine: {machine()}")
    rng = random.Random(SEED)
    started = time.perf_counter()
    suggest(deal(rng, 1)[0])
    first_ms = (time.perf_counter() - started) * 1e3
    print(f"{'what':<52}{'measured':>18}{'target':>14}  verdict")
    chinese_poker_rows(rng)
    suggest_rows(rng)
    print(f"{'':<52}(the process's first call, loading its tables: {first_ms:,.0f} ms)")
    ofc_rows(rng)
    if "--quick" not in sys.argv:
        comparison_rows()
    return 0


if __name__ == "__main__":
    sys.exit(main())
