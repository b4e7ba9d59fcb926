"""Setting advice for Chinese Poker: the best legal arrangements of 13 cards (GAME_RULES.md §3).

``suggest`` looks at every way to set 13 cards as a front of 3, a middle of 5 and
a back of 5 (C(13,3) x C(10,5) = 72,072 splits), drops the fouled ones (back
below middle, or middle below front, the wheel lowest) and ranks the rest by
one of two documented objectives, both "expected points against one opponent"
under the table's points system (``scoring``) and royalty table (``royalties``)
of ``rules.games.chinese_poker``:

``objective="strength"`` (the default, fast)
    Each row's chance to beat, tie or lose to the same row of a typical
    opponent's hand is read from a table: the distribution of that row over
    ``CALIBRATION_ROUNDS * CALIBRATION_HANDS`` seeded 13-card hands, each set
    by this same objective with the tables of the hands before it (fictitious
    play; the first round uses every 3-card hand of the deck for the front and
    seeded random 5-card hands for the middle and the back), calibrated once
    under the default options and used under all.
    Treating the three rows as independent, the chances give the distribution of
    rows won and lost and so the expected points under ``scoring``; the
    arrangement's own royalties are added (the opponent's, and the opponent's
    foul or natural, do not depend on this choice). The tables ignore which
    cards this hand holds (card removal). They are built once, on first use.

``objective="simulation"`` (slow, seeded)
    ``samples`` opponents are dealt 13 cards each from the 39 cards not in this
    hand (``numpy.random.default_rng(seed)``), each set by the strength
    objective's best; every legal split is scored against each of them exactly
    under ``scoring`` and ``royalties`` (rows, then the royalties' difference),
    and the mean is its score. The opponents' naturals are left out: a natural
    scores the same whatever this hand does.

How close the two are: ``compare_objectives`` (used by ``bench/points_games.py``
and a test) counts how often the strength objective's choice is the
simulation's choice, and the expected points it gives up, measured on fresh
opponents that neither choice has seen.

A natural (§3) is claimed whatever the setting; ``suggest`` ranks settings for
the showdown all the same.

>>> from rules.games.cards import parse_cards
>>> best = suggest(parse_cards("As Ah Kd Kc 7s 7h 7d 9c Jd 2s 4h 5c Qd"), top=1)[0]
>>> [value.describe() for value in best.values]
['pair of kings', 'pair of aces', 'three sevens']
>>> print(best.arrangement)
front: Jd Kd Kc, middle: 5c 9c Qd As Ah, back: 2s 4h 7s 7h 7d
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from rules.games.cards import CARDS, Card, check_distinct, check_jokerless
from rules.games.chinese_poker import (
    Arrangement,
    PointsSystem,
    RoyaltiesOption,
    RoyaltyTable,
    is_foul,
    points_system,
    royalty_table,
)
from rules.games.errors import InvalidHand
from rules.games.poker import HandValue, front_hand
from rules.games.poker_batch import evaluate_many

Objective = Literal["strength", "simulation"]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

CALIBRATION_HANDS: Final = 250  # a round
CALIBRATION_ROUNDS: Final = 6
RANDOM_FIVES: Final = 400_000
CALIBRATION_SEED: Final = 20260301
DEFAULT_SAMPLES: Final = 100
_CATEGORY_SHIFT: Final = 20


# --- the 72,072 splits, once ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Splits:
    """Every split of 13 positions as (front, middle, back) subset numbers, and the subsets' positions."""

    threes: npt.NDArray[np.intp]  # (286, 3) positions of each front
    fives: npt.NDArray[np.intp]  # (1287, 5) positions of each five
    front: npt.NDArray[np.intp]  # (72072,) front subset number of each split
    middle: npt.NDArray[np.intp]
    back: npt.NDArray[np.intp]


@cache
def _splits() -> _Splits:
    threes = list(itertools.combinations(range(13), 3))
    fives = list(itertools.combinations(range(13), 5))
    three_id = {sum(1 << p for p in t): i for i, t in enumerate(threes)}
    five_id = {sum(1 << p for p in f): i for i, f in enumerate(fives)}
    full = (1 << 13) - 1
    front, middle, back = [], [], []
    for b, back_positions in enumerate(fives):
        back_mask = sum(1 << p for p in back_positions)
        rest = [p for p in range(13) if not back_mask >> p & 1]
        for middle_positions in itertools.combinations(rest, 5):
            middle_mask = sum(1 << p for p in middle_positions)
            front.append(three_id[full & ~back_mask & ~middle_mask])
            middle.append(five_id[middle_mask])
            back.append(b)
    return _Splits(
        np.array(threes, np.intp),
        np.array(fives, np.intp),
        np.array(front, np.intp),
        np.array(middle, np.intp),
        np.array(back, np.intp),
    )


@cache
def _front_table() -> npt.NDArray[np.int64]:
    """``front_hand`` of three ranks (0 for a deuce .. 12 for an ace), indexed ``[low, mid, high]`` ascending."""
    table = np.zeros((13, 13, 13), np.int64)
    for ranks in itertools.combinations_with_replacement(range(13), 3):
        cards = [CARDS[4 * r + ranks[:i].count(r)] for i, r in enumerate(ranks)]
        table[ranks] = front_hand(cards)
    return table


def _hand_indices(cards13: Sequence[Card]) -> npt.NDArray[np.int64]:
    cards = check_jokerless(cards13, where="hand", game="Chinese Poker")
    if len(cards) != 13:
        raise InvalidHand(f"hand: 13 cards expected, got {len(cards)}")
    check_distinct(cards)
    return np.sort(np.array([c.index for c in cards], np.int64))


@dataclass(frozen=True)
class _Legal:
    """A hand's legal splits: their numbers, subset numbers and row values, and every subset's value."""

    hand: npt.NDArray[np.int64]  # 13 card indices, ascending
    split: npt.NDArray[np.intp]  # numbers of the legal splits, ascending
    front_id: npt.NDArray[np.intp]  # the front's number among the 286 threes, a legal split
    middle_id: npt.NDArray[np.intp]  # the middle's number among the 1,287 fives
    back_id: npt.NDArray[np.intp]
    front: IntArray  # row values, a legal split
    middle: IntArray
    back: IntArray
    royalties: IntArray
    values3: IntArray  # the value of each of the 286 threes
    values5: IntArray  # the value of each of the 1,287 fives

    def take(self, keep: npt.NDArray[np.intp]) -> _Legal:
        """The splits at positions ``keep`` only."""
        return _Legal(
            self.hand,
            self.split[keep],
            self.front_id[keep],
            self.middle_id[keep],
            self.back_id[keep],
            self.front[keep],
            self.middle[keep],
            self.back[keep],
            self.royalties[keep],
            self.values3,
            self.values5,
        )


def _legal(hand: npt.NDArray[np.int64], table: RoyaltyTable) -> _Legal:
    """Every split of ``hand`` that does not foul: the back not below the middle, the middle not below the front."""
    s = _splits()
    values5 = evaluate_many(hand[s.fives], wheel_second_highest=False).astype(np.int64)
    ranks3 = hand[s.threes] >> 2
    values3 = _front_table()[ranks3[:, 0], ranks3[:, 1], ranks3[:, 2]]
    fv, mv, bv = values3[s.front], values5[s.middle], values5[s.back]
    legal = np.flatnonzero((fv <= mv) & (mv <= bv))
    fid, mid, bid = s.front[legal], s.middle[legal], s.back[legal]
    front_roy, middle_roy, back_roy = (np.array(row, np.int64) for row in table.by_category)
    category3, category5 = values3 >> _CATEGORY_SHIFT, values5 >> _CATEGORY_SHIFT
    roy = front_roy[category3][fid] + middle_roy[category5][mid] + back_roy[category5][bid]
    return _Legal(hand, legal, fid, mid, bid, fv[legal], mv[legal], bv[legal], roy, values3, values5)


# --- the strength objective -------------------------------------------------------------------------


@dataclass(frozen=True)
class _RowTable:
    """A row's value distribution: the distinct values ascending and how many fall below / on each."""

    values: IntArray
    below: FloatArray  # share of the distribution strictly below values[i]
    equal: FloatArray  # share equal to values[i]

    @classmethod
    def of(cls, sample: IntArray) -> _RowTable:
        values, counts = np.unique(sample, return_counts=True)
        share = counts / counts.sum()
        return cls(values, np.concatenate(([0.0], np.cumsum(share)[:-1])), share)

    def chances(self, mine: IntArray) -> tuple[FloatArray, FloatArray]:
        """(win, tie) chances of each of ``mine`` against this distribution."""
        at = np.searchsorted(self.values, mine)
        inside = np.minimum(at, len(self.values) - 1)
        hit = self.values[inside] == mine
        below = np.where(at < len(self.values), self.below[inside], 1.0)
        return below, np.where(hit, self.equal[inside], 0.0)


@cache
def _random_hand_tables() -> tuple[_RowTable, _RowTable, _RowTable]:
    """Every 3-card hand of the deck for the front; ``RANDOM_FIVES`` seeded 5-card hands for the middle and back."""
    threes = np.array(list(itertools.combinations(range(52), 3)), np.int64) >> 2
    front = _front_table()[threes[:, 0], threes[:, 1], threes[:, 2]]
    rng = np.random.default_rng(CALIBRATION_SEED)
    fives = rng.integers(0, 52, (RANDOM_FIVES, 5))
    while True:  # a row with a card twice is drawn again
        ordered = np.sort(fives, axis=1)
        repeats = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if not repeats.size:
            break
        fives[repeats] = rng.integers(0, 52, (repeats.size, 5))
    five = _RowTable.of(evaluate_many(fives, wheel_second_highest=False).astype(np.int64))
    return _RowTable.of(front), five, five


def _expected_points(
    legal: _Legal, tables: tuple[_RowTable, _RowTable, _RowTable], system: PointsSystem
) -> tuple[FloatArray, tuple[FloatArray, FloatArray, FloatArray]]:
    """Expected points of each legal split against one opponent, the rows independent, and the rows' win chances."""
    by_score = system.by_score
    states: dict[tuple[int, int], FloatArray] = {(0, 0): np.ones(len(legal.split))}
    wins = []
    rows = ((legal.values3, legal.front_id), (legal.values5, legal.middle_id), (legal.values5, legal.back_id))
    for table, (values, ids) in zip(tables, rows, strict=True):
        win_of, tie_of = table.chances(values)  # once a subset, then gathered for the splits
        win, tie = win_of[ids], tie_of[ids]
        lose = 1.0 - win - tie
        wins.append(win)
        grown: dict[tuple[int, int], FloatArray] = {}
        for (won, lost), p in states.items():
            for key, q in (((won + 1, lost), win), ((won, lost), tie), ((won, lost + 1), lose)):
                grown[key] = grown[key] + p * q if key in grown else p * q
        states = grown
    points = legal.royalties.astype(np.float64)
    for (won, lost), p in states.items():
        if by_score[won * 4 + lost]:
            points += by_score[won * 4 + lost] * p
    return points, (wins[0], wins[1], wins[2])


def _calibration_rows(scoring: str, royalties: str) -> tuple[IntArray, IntArray, IntArray]:
    """Each row's values over seeded hands set by this objective: fictitious play.

    Round one sets ``CALIBRATION_HANDS`` hands by the random-hand tables; each
    later round sets as many fresh hands by the tables of every hand set so
    far, pooled. Tables of the last round alone swing between a weak and a
    strong front from round to round; the pooled ones settle within
    ``CALIBRATION_ROUNDS`` rounds. Deterministic: the generator is seeded.
    """
    rng = np.random.default_rng(CALIBRATION_SEED)
    system, table = points_system(scoring), royalty_table(royalties)
    tables = _random_hand_tables()
    rows: list[list[int]] = [[], [], []]
    for _ in range(CALIBRATION_ROUNDS):
        for _ in range(CALIBRATION_HANDS):
            legal = _legal(np.sort(rng.choice(52, 13, replace=False)), table)
            points, _ = _expected_points(legal, tables, system)
            best = int(np.argmax(points))
            for row, values in zip(rows, (legal.front, legal.middle, legal.back), strict=True):
                row.append(int(values[best]))
        tables = _tables_of(tuple(np.array(row, np.int64) for row in rows))  # type: ignore[arg-type]
    return np.array(rows[0], np.int64), np.array(rows[1], np.int64), np.array(rows[2], np.int64)


def _tables_of(rows: tuple[IntArray, IntArray, IntArray]) -> tuple[_RowTable, _RowTable, _RowTable]:
    return _RowTable.of(rows[0]), _RowTable.of(rows[1]), _RowTable.of(rows[2])


# The calibration under the defaults takes seconds, so it ships as data beside this
# module; tests/rules/test_chinese_poker_suggest.py rebuilds it and compares.
CALIBRATION_FILE: Final = Path(__file__).with_name("data") / "chinese_poker_calibration.npz"


def write_calibration(path: Path = CALIBRATION_FILE) -> None:
    """Rebuild the default calibration (2-4, seed royalties) and store it at ``path``."""
    front, middle, back = _calibration_rows("2-4", "seed")
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, front=front, middle=middle, back=back)


@cache
def _calibration() -> tuple[_RowTable, _RowTable, _RowTable]:
    """The opponent tables, calibrated once under the defaults (2-4, seed royalties) and used under every option:
    how a typical opponent's rows fall barely depends on them. Read from the shipped data when present."""
    if CALIBRATION_FILE.is_file():
        with np.load(CALIBRATION_FILE) as data:
            return _tables_of((data["front"], data["middle"], data["back"]))
    return _tables_of(_calibration_rows("2-4", "seed"))


# --- the simulation objective -----------------------------------------------------------------------


def _strength_best(hand: npt.NDArray[np.int64], system: PointsSystem, table: RoyaltyTable) -> tuple[int, int, int, int]:
    """The strength objective's best setting of ``hand``: its three row values and royalties."""
    legal = _legal(hand, table)
    points, _ = _expected_points(legal, _calibration(), system)
    best = int(np.argmax(points))
    return int(legal.front[best]), int(legal.middle[best]), int(legal.back[best]), int(legal.royalties[best])


def _opponents(
    hand: npt.NDArray[np.int64], samples: int, rng: np.random.Generator, system: PointsSystem, table: RoyaltyTable
) -> list[tuple[int, int, int, int]]:
    rest = np.setdiff1d(np.arange(52), hand)
    return [_strength_best(np.sort(rng.choice(rest, 13, replace=False)), system, table) for _ in range(samples)]


def _points_against(
    legal: _Legal, opponents: Sequence[tuple[int, int, int, int]], system: PointsSystem
) -> tuple[FloatArray, tuple[FloatArray, FloatArray, FloatArray]]:
    """Mean points of each legal split against each opponent setting, exactly under ``system``, and row win rates."""
    by_score = np.array(system.by_score, np.int64)
    total = np.zeros(len(legal.split))
    wins = [np.zeros(len(legal.split)) for _ in range(3)]
    for f, m, b, roy in opponents:
        won = np.zeros(len(legal.split), np.int64)
        lost = np.zeros(len(legal.split), np.int64)
        for i, (mine, theirs) in enumerate(((legal.front, f), (legal.middle, m), (legal.back, b))):
            win = mine > theirs
            won += win
            lost += mine < theirs
            wins[i] += win
        total += by_score[won * 4 + lost] + legal.royalties - roy
    n = max(len(opponents), 1)
    return total / n, (wins[0] / n, wins[1] / n, wins[2] / n)


# --- suggest ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A legal arrangement and why it ranks where it does.

    ``score`` is the objective's expected points against one opponent (royalties
    included); ``win_chances`` the front's, middle's and back's chance to win its
    row (the strength tables' or the simulation's); ``values`` the row values
    and ``royalties`` what the arrangement earns from each opponent.
    """

    arrangement: Arrangement
    score: float
    values: tuple[HandValue, HandValue, HandValue]
    royalties: int
    win_chances: tuple[float, float, float]


def _arrangement(hand: npt.NDArray[np.int64], split: int) -> Arrangement:
    s = _splits()
    rows = (s.threes[s.front[split]], s.fives[s.middle[split]], s.fives[s.back[split]])
    front, middle, back = (tuple(CARDS[int(hand[p])] for p in row) for row in rows)
    return Arrangement(front, middle, back)


def _ranked(points: FloatArray, legal: _Legal, top: int) -> list[int]:
    """Positions (in ``legal``) of the ``top`` best distinct row-value triples, best first, ties by split order."""
    order = np.lexsort((legal.split, -points))
    chosen: list[int] = []
    seen: set[tuple[int, int, int]] = set()
    for i in order:
        triple = (int(legal.front[i]), int(legal.middle[i]), int(legal.back[i]))
        if triple not in seen:
            seen.add(triple)
            chosen.append(int(i))
            if len(chosen) == top:
                break
    return chosen


def _best(points: FloatArray, legal: _Legal, top: int) -> list[int]:
    """Positions of the ``top`` best distinct row-value triples: ``_ranked`` over a widening set of the best."""
    k = 32 * top
    while True:
        if k >= len(points):
            return _ranked(points, legal, top)
        cut = np.partition(points, len(points) - k)[len(points) - k]
        keep = np.flatnonzero(points >= cut)
        chosen = _ranked(points[keep], legal.take(keep), top)
        if len(chosen) == top:
            return [int(keep[i]) for i in chosen]
        k *= 4


def suggest(
    cards13: Sequence[Card],
    *,
    top: int = 3,
    objective: Objective = "strength",
    scoring: str | PointsSystem = "2-4",
    royalties: RoyaltiesOption = "seed",
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
) -> tuple[Suggestion, ...]:
    """The ``top`` best legal arrangements of 13 cards, best first, by ``objective`` (see the module docstring).

    Arrangements whose three rows have the same values (the same hands in other
    suits) are shown once. ``seed`` and ``samples`` drive the simulation
    objective only. Never returns a fouled arrangement.

    >>> from rules.games.cards import parse_cards
    >>> hand = parse_cards("2s 3d 4h 5c 6s 8d 9h Tc Js Qd Kh Ac 7c")
    >>> best, second = suggest(hand, top=2)   # a 13-card straight: two straights behind ace-king-queen
    >>> print(best.arrangement)
    front: Qd Kh Ac, middle: 2s 3d 4h 5c 6s, back: 7c 8d 9h Tc Js
    >>> best.score > second.score
    True
    """
    if top < 1:
        raise InvalidHand(f"top must be at least 1, got {top}")
    if objective not in ("strength", "simulation"):
        raise InvalidHand(f"unknown objective {objective!r}: choose strength or simulation")
    hand = _hand_indices(cards13)
    system, table = points_system(scoring), royalty_table(royalties)
    legal = _legal(hand, table)
    if objective == "strength":
        points, wins = _expected_points(legal, _calibration(), system)
    else:
        if samples < 1:
            raise InvalidHand(f"samples must be at least 1, got {samples}")
        opponents = _opponents(hand, samples, np.random.default_rng(seed), system, table)
        points, wins = _points_against(legal, opponents, system)
    result = []
    for i in _best(points, legal, top):
        arrangement = _arrangement(hand, int(legal.split[i]))
        result.append(
            Suggestion(
                arrangement,
                float(points[i]),
                arrangement.values,
                int(legal.royalties[i]),
                (float(wins[0][i]), float(wins[1][i]), float(wins[2][i])),
            )
        )
    return tuple(result)


# --- how close the strength objective is ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Comparison:
    """The strength objective against the simulation, over ``hands`` seeded hands.

    ``agreement``: the share of hands where the strength objective chooses the
    simulation's row values; ``baseline_agreement``: the same share for a second
    simulation with other opponents, which shows how much of the disagreement is
    the simulation's own noise. ``mean_loss`` and ``max_loss``: the expected
    points a hand the strength choice gives up against the simulation's, both
    measured on ``2 * samples`` fresh opponents that neither choice has seen.
    """

    hands: int
    samples: int
    agreement: float
    baseline_agreement: float
    mean_loss: float
    max_loss: float


def compare_objectives(*, hands: int = 20, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> Comparison:
    """Deal ``hands`` seeded hands; choose by each objective; score the choices on other seeded opponents."""
    rng = np.random.default_rng(seed)
    system, table = points_system("2-4"), royalty_table("seed")
    agree = baseline = 0
    losses = []
    for n in range(hands):
        hand = np.sort(rng.choice(52, 13, replace=False))
        cards = [CARDS[int(i)] for i in hand]
        strength = suggest(cards, top=1)[0]
        simulated = suggest(cards, top=1, objective="simulation", seed=seed + n, samples=samples)[0]
        again = suggest(cards, top=1, objective="simulation", seed=seed + 20_000 + n, samples=samples)[0]
        baseline += again.values == simulated.values
        if strength.values == simulated.values:
            agree += 1
            losses.append(0.0)
            continue
        fresh = _opponents(hand, 2 * samples, np.random.default_rng(seed + 10_000 + n), system, table)
        legal = _legal(hand, table)
        points, _ = _points_against(legal, fresh, system)
        by_values = {
            (int(f), int(m), int(b)): p
            for f, m, b, p in zip(legal.front, legal.middle, legal.back, points, strict=True)
        }
        losses.append(float(by_values[_triple(simulated)] - by_values[_triple(strength)]))
    return Comparison(hands, samples, agree / hands, baseline / hands, float(np.mean(losses)), float(np.max(losses)))


def _triple(suggestion: Suggestion) -> tuple[int, int, int]:
    f, m, b = suggestion.values
    return int(f), int(m), int(b)


def never_fouls(suggestions: Sequence[Suggestion]) -> bool:
    """Whether none of ``suggestions`` is fouled (what the tests hold ``suggest`` to)."""
    return not any(is_foul(s.arrangement) for s in suggestions)


if __name__ == "__main__":  # python -m rules.games.chinese_poker_suggest: rebuild the shipped calibration
    write_calibration()
    print(f"wrote {CALIBRATION_FILE}")
