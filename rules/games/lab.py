"""The game-math lab's engines: a fast Pai Gow Poker simulation and the exact Pai Gow tiles enumeration.

Both play a house-way player against a house-way bank, as ``rules.games.simulate``
and ``bench/house_edges.py`` do, and report running counts of the player's wins,
pushes and losses (``Tally``) to a ``progress`` callback, so a task can show a
progress bar and record how the estimate converged.

* Pai Gow Poker (GAME_RULES.md §2), simulated: each hand is the first fourteen
  cards of a fresh shuffle of the 53 (the first seven to the player), as in
  ``simulate_paigow_poker``, but a whole batch at once with NumPy: the shuffles
  are the ``argpartition`` of uniform keys (every order equally likely), both
  sides are set by ``paigow_poker_batch.house_way_many`` and the high hands
  valued by ``poker_batch.evaluate_many``. The player wins when both hands beat
  the bank's, loses when both are lower or copies (copies go to the bank), else
  pushes. Row by row the outcome is ``paigow_poker.outcome`` of the two house-way
  settings (tests/rules/test_lab.py checks it). The shuffle comes from a seeded
  ``numpy.random.Generator``: a run with the same seed repeats exactly.
  ``high_hand_ranks`` is an analysis option, never a rule a table settles by: it compares the high hands by their
  category and their first N ranks only, the comparison under which the Wizard of Odds' published Trump Plaza
  figures are reproduced (docs/game-math.md); left at None, every rank counts, as GAME_RULES.md §2 and a dealer do.
* Pai Gow tiles (§1), exact: every deal of the 32 tiles (736,281,000 of them),
  each distinct four-tile player hand (8,130 multisets of faces, weighted by how
  many physical hands make it) through ``paigow_tiles_advice.advise``, the house
  way's setting against all 20,475 bank hands, as ``bench/house_edges.py`` counts
  the shipped exact figures.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from rules.games.paigow_poker import HOUSE_WAYS as PGP_HOUSE_WAYS
from rules.games.paigow_poker_batch import house_way_many
from rules.games.paigow_tiles import HOUSE_WAYS as TILES_HOUSE_WAYS
from rules.games.paigow_tiles_advice import advise
from rules.games.poker_batch import evaluate_many
from rules.games.tiles import TILE_FACES, Tile

DECK_SIZE = 53  # 52 cards and the joker (card index 52)
BATCH = 20_000  # hands a step of the simulation: a progress report and a point of the convergence series
TILES_DEALS = math.comb(32, 4) * math.comb(28, 4)  # 736,281,000: every player hand against every bank hand
_JOKER_INDEX = 52
_ACE = 12  # rank of an ace as ``index // 4``; the joker is an ace in the low hand (§2)
_RANK_FIELDS = 5  # a high hand's value: its category, then five 4-bit rank fields, most significant first


@dataclass(frozen=True)
class Tally:
    """The player's wins, pushes and losses so far."""

    wins: int = 0
    pushes: int = 0
    losses: int = 0

    @property
    def hands(self) -> int:
        return self.wins + self.pushes + self.losses

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.wins + other.wins, self.pushes + other.pushes, self.losses + other.losses)


Progress = Callable[[Tally], object]


def deal_paigow_poker(hands: int, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """``(hands, 14)`` card indices: each row the first fourteen cards of a fresh, uniformly shuffled 53-card deck."""
    keys = rng.random((hands, DECK_SIZE))
    fourteen = np.argpartition(keys, 14, axis=1)[:, :14]  # the 14 smallest keys: a uniform 14-card subset
    order = np.argsort(np.take_along_axis(keys, fourteen, axis=1), axis=1)  # in shuffle order
    return np.take_along_axis(fourteen, order, axis=1).astype(np.int64)


def low_values(low: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """A comparable value of each two-card low hand (``(N, 2)`` card indices): a pair beats any two ranks, then
    the higher rank, then the lower; the joker is an ace (§2). Equal values are copies."""
    cards = np.asarray(low, dtype=np.int64)
    ranks = np.where(cards == _JOKER_INDEX, _ACE, cards // 4)
    high: npt.NDArray[np.int64] = ranks.max(axis=1)
    small: npt.NDArray[np.int64] = ranks.min(axis=1)
    values: npt.NDArray[np.int64] = np.where(high == small, 1000 + high, high * 13 + small).astype(np.int64)
    return values


def high_hand_ranks_shift(high_hand_ranks: int | None) -> int:
    """The bits to drop from a high hand's value (``poker.HandValue``: the category, then five 4-bit rank fields,
    most significant first) to keep its category and its first ``high_hand_ranks`` rank fields: 0 for None.

    What the first two fields are, by class: a high card or a flush, its top two cards; one pair, the pair and its
    highest kicker; two pair, both pairs (the kicker dropped); straights, trips, full houses and better compare as
    before. Raises ``ValueError`` for anything but None or a whole number from 1 to 5.

    >>> high_hand_ranks_shift(None), high_hand_ranks_shift(5), high_hand_ranks_shift(2)
    (0, 0, 12)
    """
    if high_hand_ranks is None:
        return 0
    if isinstance(high_hand_ranks, bool) or not isinstance(high_hand_ranks, int) or not 1 <= high_hand_ranks <= 5:
        raise ValueError(
            f"high_hand_ranks is how many ranks of the high hands to compare, 1 to 5, or None for every rank;"
            f" got {high_hand_ranks!r}"
        )
    return 4 * (_RANK_FIELDS - high_hand_ranks)


def paigow_poker_outcomes(
    player: npt.ArrayLike,
    bank: npt.ArrayLike,
    *,
    way: str = "golden_nugget",
    wheel_second_highest: bool = True,
    joker_flush_as_ace: bool = False,
    high_hand_ranks: int | None = None,
) -> npt.NDArray[np.int8]:
    """Each row's outcome for the player, both seven-card hands set by the house way: 1 win, 0 push, -1 loss.

    ``high_hand_ranks``: as ``set_hands_outcomes`` (an analysis option; None, the rules' comparison).
    """
    high_hand_ranks_shift(high_hand_ranks)  # refused before a hand is set
    options = {"wheel_second_highest": wheel_second_highest, "joker_flush_as_ace": joker_flush_as_ace}
    p_high, p_low = house_way_many(player, way, **options)
    b_high, b_low = house_way_many(bank, way, **options)
    return set_hands_outcomes(p_high, p_low, b_high, b_low, high_hand_ranks=high_hand_ranks, **options)


def set_hands_outcomes(
    player_high: npt.ArrayLike,
    player_low: npt.ArrayLike,
    bank_high: npt.ArrayLike,
    bank_low: npt.ArrayLike,
    *,
    wheel_second_highest: bool = True,
    joker_flush_as_ace: bool = False,
    high_hand_ranks: int | None = None,
) -> npt.NDArray[np.int8]:
    """Each row's outcome for the player of hands already set (``(N, 5)`` high and ``(N, 2)`` low card indices):
    1 win (both hands beat the bank's), -1 loss (neither does: copies go to the bank), else 0, a push.

    ``high_hand_ranks`` is an analysis option, never a rule a table settles by: compare the high hands by their
    category and their first N ranks only (``high_hand_ranks_shift``), so hands equal on those are copies; None,
    every rank, as GAME_RULES.md §2 and a dealer compare them.
    """
    shift = high_hand_ranks_shift(high_hand_ranks)
    options = {"wheel_second_highest": wheel_second_highest, "joker_flush_as_ace": joker_flush_as_ace}
    ph, bh = evaluate_many(player_high, **options), evaluate_many(bank_high, **options)
    if shift:
        ph, bh = ph >> shift, bh >> shift
    pl, bl = low_values(player_low), low_values(bank_low)
    win = (ph > bh) & (pl > bl)
    loss = (ph <= bh) & (pl <= bl)
    return np.where(win, 1, np.where(loss, -1, 0)).astype(np.int8)


def simulate_paigow_poker_batched(
    hands: int,
    *,
    seed: int,
    way: str = "golden_nugget",
    wheel_second_highest: bool = True,
    joker_flush_as_ace: bool = False,
    high_hand_ranks: int | None = None,
    batch: int = BATCH,
    progress: Progress | None = None,
) -> Tally:
    """Play ``hands`` Pai Gow Poker hands, house way against house way, ``batch`` at a time (see the module doc).

    ``progress`` gets the running tally after every batch. ``high_hand_ranks``: as ``paigow_poker_outcomes`` (an
    analysis option; None, the rules' comparison). The deals depend on the seed alone, whatever the option.

    >>> simulate_paigow_poker_batched(1000, seed=1).hands
    1000
    """
    rng = np.random.default_rng(seed)
    return _simulate(hands, rng, way, wheel_second_highest, joker_flush_as_ace, high_hand_ranks, batch, progress)


def _simulate(
    hands: int,
    rng: np.random.Generator,
    way: str,
    wheel_second_highest: bool,
    joker_flush_as_ace: bool,
    high_hand_ranks: int | None,
    batch: int,
    progress: Progress | None,
) -> Tally:
    if way not in PGP_HOUSE_WAYS:
        raise ValueError(f"unknown house way {way!r}: choose one of {', '.join(PGP_HOUSE_WAYS)}")
    high_hand_ranks_shift(high_hand_ranks)  # refused before a card is dealt
    if hands < 1 or batch < 1:
        raise ValueError(f"hands and batch are at least 1, got {hands} and {batch}")
    tally = Tally()
    while tally.hands < hands:
        rows = deal_paigow_poker(min(batch, hands - tally.hands), rng)
        outcomes = paigow_poker_outcomes(
            rows[:, :7],
            rows[:, 7:],
            way=way,
            wheel_second_highest=wheel_second_highest,
            joker_flush_as_ace=joker_flush_as_ace,
            high_hand_ranks=high_hand_ranks,
        )
        counts = np.bincount(outcomes + 1, minlength=3)
        tally = tally + Tally(wins=int(counts[2]), pushes=int(counts[1]), losses=int(counts[0]))
        if progress is not None:
            progress(tally)
    return tally


def chunk_rng(seed: int, index: int) -> np.random.Generator:
    """The random stream of chunk ``index`` of a run seeded ``seed``: the ``index``-th child of the seed's sequence
    (``numpy.random.SeedSequence``), independent of every other chunk's and the same whoever plays it and when."""
    return np.random.default_rng(np.random.SeedSequence(entropy=seed, spawn_key=(index,)))


def simulate_paigow_poker_chunk(
    hands: int,
    *,
    seed: int,
    index: int,
    way: str = "golden_nugget",
    wheel_second_highest: bool = True,
    joker_flush_as_ace: bool = False,
    high_hand_ranks: int | None = None,
    batch: int = BATCH,
) -> Tally:
    """Chunk ``index`` of a run seeded ``seed``: ``hands`` hands from the chunk's own stream (``chunk_rng``), so a
    run's counts depend on its seed and its chunks alone, not on how many workers played them or in which order.
    ``high_hand_ranks``: as ``paigow_poker_outcomes`` (an analysis option; None, the rules' comparison).

    >>> same = simulate_paigow_poker_chunk(2000, seed=7, index=3) == simulate_paigow_poker_chunk(2000, seed=7, index=3)
    >>> other = simulate_paigow_poker_chunk(2000, seed=7, index=3) != simulate_paigow_poker_chunk(2000, seed=7, index=4)
    >>> same, other
    (True, True)
    """
    rng = chunk_rng(seed, index)
    return _simulate(hands, rng, way, wheel_second_highest, joker_flush_as_ace, high_hand_ranks, batch, None)


@cache
def tiles_player_hands() -> tuple[tuple[tuple[Tile, ...], int], ...]:
    """Every four-tile player hand as a multiset of faces, with how many physical hands of the 32 tiles make it."""
    hands = []
    for faces in itertools.combinations_with_replacement(TILE_FACES, 4):
        if any(faces.count(face) > face.copies for face in set(faces)):
            continue
        hands.append((faces, math.prod(math.comb(face.copies, faces.count(face)) for face in set(faces))))
    return tuple(hands)


def tiles_exact_counts(
    *,
    way: str = "foxwoods",
    player_hands: Sequence[tuple[Sequence[Tile], int]] | None = None,
    every: int = 200,
    progress: Progress | None = None,
    **rules: Any,
) -> Tally:
    """The exact wins, pushes and losses of a house-way tiles player against a house-way bank (§1).

    Every deal when ``player_hands`` is None (``TILES_DEALS``, about a minute on one core); else only the given
    player hands, each weighted. ``rules`` are the tiles options that change an outcome (``gee_joon_single_rank``,
    ``zero_zero_copy``). ``progress`` gets the running tally every ``every`` player hands and at the end.
    """
    if way not in TILES_HOUSE_WAYS:
        raise ValueError(f"unknown house way {way!r}: choose one of {', '.join(TILES_HOUSE_WAYS)}")
    hands = tiles_player_hands() if player_hands is None else player_hands
    tally = Tally()
    for done, (faces, weight) in enumerate(hands, start=1):
        house = advise(faces, way=way, **rules).house
        tally = tally + Tally(weight * house.wins, weight * house.pushes, weight * house.losses)
        if progress is not None and (done % every == 0 or done == len(hands)):
            progress(tally)
    return tally
