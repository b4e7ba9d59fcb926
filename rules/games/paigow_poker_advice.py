"""Setting advice for Pai Gow Poker: each of the 21 settings of a player's seven cards against the house way.

For seven cards the bank can hold any seven of the other 46: C(46, 7) =
53,524,680 hands, each set by the house way. A setting's expected value per unit
wagered is (1 − c)·P(win) − P(loss) (copies go to the bank, c the commission on
a player's win when the rules charge it; GAME_RULES.md §2).

Exact, fast: most bank hands cannot make a flush (no suit holds five, counting
the joker), and such a hand is set by its ranks alone, so its two values follow
from its rank multiset. ``advise`` counts the bank hands of each of the 67,600
multisets the 46 cards can deal (a product of binomials, less the ones that can
make a flush), lists the two million or so that can make a flush
(``paigow_poker_batch.flush_hands``) and sets each by the vectorised house way,
then bins every bank hand by where its high and low values fall among the 21
settings' values and sums the bins from below: wins, pushes and losses of every
setting against all 53,524,680, exactly, in about a second once the way's flush
memo is complete (``warm_up``: read from the installation's ``var/`` or set in
about five seconds, once). Setting every bank hand one by one
(``enumerate_every_hand``: 15-25 seconds) gives the same counts to the hand; the
bench and the tests hold the two together.

Until the memo is complete (a process's first seconds), ``advise`` samples:
``samples`` bank hands drawn uniformly from the 46 cards (200,000 by default,
well under a second), every setting compared against the same sample. Each
setting's EV carries its 95% margin, 1.96 · s / √n with s the sample standard
deviation of its result per hand, and ``Advice.margin`` is the widest of them.
The sample is seeded by the seven cards, so the same hand always gets the same
advice.

A fouled setting is marked; under ``foul_policy="forfeit"`` it loses every
hand (EV −1), under ``"house_way"`` it is re-set by the house way and scores as
that setting does.
"""

from __future__ import annotations

import hashlib
import logging
import math
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from rules.games.cards import Card, parse_cards
from rules.games.paigow_poker import house_way
from rules.games.paigow_poker_batch import (
    _representative,
    flush_hands,
    flush_memo_complete,
    flush_memo_prepare,
    house_way_many,
    rank_multisets,
)
from rules.games.paigow_poker_exact import every_hand_blocks
from rules.games.paigow_poker_hands import Setting, is_foul, settings
from rules.games.poker import high_hand, low_hand
from rules.games.poker_batch import RANK_KEYS, evaluate_many

logger = logging.getLogger(__name__)

BANK_HANDS = math.comb(46, 7)  # 53,524,680
DEFAULT_SAMPLES = 200_000
MAX_SAMPLES = 2_000_000
Z95 = 1.959964
_WARM_HAND = tuple(parse_cards("As Ad Kh Kc 7s 4d 2c"))
RANK_KEYS_14 = np.array(RANK_KEYS, dtype=np.int64)


@dataclass(frozen=True)
class SettingAdvice:
    """One setting against the bank hands looked at: chances, EV per unit and the EV's 95% margin."""

    setting: Setting
    foul: bool
    win: float
    push: float
    loss: float
    ev: float
    margin: float  # 95% half-width of ``ev``; 0 when exact


@dataclass(frozen=True)
class Advice:
    """The 21 settings, ``best`` by EV (the house way's setting among equals) and ``house`` the house way's."""

    cards: tuple[Card, ...]
    way: str
    exact: bool
    bank_hands: int  # how many bank hands were compared: all 53,524,680, or the sample
    margin: float  # the widest setting margin (95%)
    settings: tuple[SettingAdvice, ...]
    best: SettingAdvice
    house: SettingAdvice


@cache
def _low_table() -> npt.NDArray[np.int64]:
    """``low_hand`` of every two card indices (the joker 52), as a 53 × 53 array."""
    from rules.games.cards import ALL_CARDS

    table = np.zeros((53, 53), dtype=np.int64)
    for i in range(53):
        for j in range(53):
            if i != j:
                table[i, j] = int(low_hand((ALL_CARDS[i], ALL_CARDS[j])))
    return table


_warming: set[tuple[str, bool, bool]] = set()
_warming_lock = threading.Lock()


def warm_up(
    way: str = "golden_nugget",
    *,
    wheel_second_highest: bool = True,
    joker_flush_as_ace: bool = False,
    directory: Path | None = None,
) -> None:
    """Build what ``advise`` needs for ``way``: the house way's tables, the hand values, the multisets' settings
    and the way's complete flush memo (read from ``directory``, or set and written there: about five seconds
    once per installation, way and options), after which ``advise`` answers exactly."""
    options = {"wheel_second_highest": wheel_second_highest, "joker_flush_as_ace": joker_flush_as_ace}
    row = np.array([[c.index for c in _WARM_HAND]], dtype=np.uint8)
    high, _low = house_way_many(row, way, **options)
    evaluate_many(high, **options)
    _low_table()
    flush_memo_prepare(way, directory=directory, **options)
    _multiset_settings(way, **options)


def warm_up_in_background(
    way: str = "golden_nugget",
    *,
    wheel_second_highest: bool = True,
    joker_flush_as_ace: bool = False,
    directory: Path | None = None,
) -> None:
    """``warm_up`` on a daemon thread, started once per process and way (later calls return at once)."""
    key = (way, wheel_second_highest, joker_flush_as_ace)
    with _warming_lock:
        if key in _warming:
            return
        _warming.add(key)

    def run() -> None:
        try:
            warm_up(
                way,
                wheel_second_highest=wheel_second_highest,
                joker_flush_as_ace=joker_flush_as_ace,
                directory=directory,
            )
        except Exception:  # logged, and the next call tries again; the advice stays sampled meanwhile
            logger.exception("The advice's tables for the house way %s could not be built", way)
            with _warming_lock:
                _warming.discard(key)

    threading.Thread(target=run, daemon=True, name=f"advice-warm-up-{way}").start()


def _seed(cards: Sequence[Card]) -> int:
    digest = hashlib.sha256(",".join(sorted(str(c.index) for c in cards)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _sampled_blocks(rest: npt.NDArray[np.uint8], samples: int, seed: int) -> Iterator[npt.NDArray[np.uint8]]:
    rng = np.random.default_rng(seed)
    for start in range(0, samples, 100_000):
        n = min(100_000, samples - start)
        picks = np.argpartition(rng.random((n, len(rest))), 7, axis=1)[:, :7]
        yield rest[picks]


def _all_blocks(rest: npt.NDArray[np.uint8]) -> Iterator[npt.NDArray[np.uint8]]:
    for rows in every_hand_blocks(range(len(rest)), deck=len(rest)):
        yield rest[rows]


@cache
def _multiset_settings(
    way: str, wheel_second_highest: bool, joker_flush_as_ace: bool
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """For every multiset of seven ranks (``rank_multisets``): how many of each rank it holds ``(M, 14)``, and
    the bank's high and low hand values when such a hand cannot make a flush (then its setting and both values
    follow from the ranks alone); and the multiset's index by rank key."""
    options = {"wheel_second_highest": wheel_second_highest, "joker_flush_as_ace": joker_flush_as_ace}
    multisets = rank_multisets()
    counts = np.zeros((len(multisets), 14), dtype=np.int64)
    for n, ranks in enumerate(multisets):
        for rank in ranks:
            counts[n, rank] += 1
    representatives = np.array([_representative(ranks) for ranks in multisets], dtype=np.uint8)
    high, low = house_way_many(representatives, way, **options)
    values_high = evaluate_many(high, **options).astype(np.int64)
    values_low = _low_table()[low[:, 0], low[:, 1]]
    keys = (counts * RANK_KEYS_14).sum(axis=1)
    index = np.full(int(keys.max()) + 1, -1, dtype=np.int32)
    index[keys] = np.arange(len(multisets), dtype=np.int32)
    return counts, values_high, values_low, index


_CHOOSE = np.array([[math.comb(n, k) for k in range(5)] for n in range(5)], dtype=np.int64)


def _bank_value_counts(
    rest: npt.NDArray[np.uint8], way: str, options: dict[str, bool]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every bank hand the ``rest`` of the deck can deal, grouped: ``(high values, low values, hands)``.

    A hand no suit of which holds five (counting the joker) is set by its ranks: the hands of one rank multiset
    are counted together, as the product of the ways to deal each rank from what is left, less the ones that can
    make a flush. Those (about two million) are listed (``flush_hands``) and set one by one by the tables."""
    counts, values_high, values_low, index = _multiset_settings(way, **options)
    left = np.zeros(14, dtype=np.int64)
    for card in rest.tolist():
        left[13 if card == 52 else card // 4] += 1
    dealt = np.prod(_CHOOSE[left[None, :], counts], axis=1)
    flushes = flush_hands(rest)
    keys = RANK_KEYS_14[np.where(flushes == 52, 13, flushes // 4)].sum(axis=1)
    dealt -= np.bincount(index[keys], minlength=len(dealt))
    assert dealt.min() >= 0
    high, low = house_way_many(flushes, way, **options)
    flush_high = evaluate_many(high, **options).astype(np.int64)
    flush_low = _low_table()[low[:, 0], low[:, 1]]
    return (
        np.concatenate([values_high, flush_high]),
        np.concatenate([values_low, flush_low]),
        np.concatenate([dealt, np.ones(len(flushes), dtype=np.int64)]),
    )


def _exact_counts(
    rest: npt.NDArray[np.uint8],
    way: str,
    options: dict[str, bool],
    player_high: npt.NDArray[np.int64],
    player_low: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    """Wins and losses of each setting (``player_high``, ``player_low``) against every bank hand of ``rest``, and
    how many bank hands. A win is both of the bank's hands below the player's, a loss both at or above them
    (copies go to the bank): the bank hands are put in bins by where their values fall among the settings'
    values, counted in a table of bins, and the table summed from below."""
    high, low, hands = _bank_value_counts(rest, way, options)
    highs, lows = np.unique(player_high), np.unique(player_low)
    # Bin i holds the bank values at or above the i-th smallest setting value and below the next: a bank value
    # is below a setting's value exactly when its bin is at most that value's place.
    bins = np.searchsorted(highs, high, side="right") * (len(lows) + 1) + np.searchsorted(lows, low, side="right")
    table = np.bincount(bins, weights=hands, minlength=(len(highs) + 1) * (len(lows) + 1))
    table = table.round().astype(np.int64).reshape(len(highs) + 1, len(lows) + 1)
    below = np.zeros((len(highs) + 2, len(lows) + 2), dtype=np.int64)
    below[1:, 1:] = table.cumsum(axis=0).cumsum(axis=1)  # below[a, b]: hands in high bins < a and low bins < b
    a = np.searchsorted(highs, player_high.ravel()) + 1
    b = np.searchsorted(lows, player_low.ravel()) + 1
    total = int(hands.sum())
    wins = below[a, b]
    losses = total - below[a, -1] - below[-1, b] + below[a, b]
    return wins, losses, total


def advise(
    cards: Sequence[Card],
    way: str = "golden_nugget",
    *,
    wheel_second_highest: bool = True,
    joker_flush_as_ace: bool = False,
    commission_bp: int = 500,
    commission_on_player_wins: bool = True,
    foul_policy: str = "forfeit",
    samples: int = DEFAULT_SAMPLES,
    exact: bool | None = None,
    enumerate_every_hand: bool = False,
) -> Advice:
    """Every setting of the seven ``cards`` against the house way's setting of the bank hands (see module).

    ``exact``: every bank hand counted, by rank multisets and the flush hands (``_exact_counts``: about a second
    once ``warm_up`` has the way's flush memo); with ``enumerate_every_hand`` as well, each of the 53,524,680
    set and compared one by one instead (a quarter of a minute: the check of the other). ``None`` (the default):
    exact once the way's memo is complete in this process, sampled until then.

    Raises ``InvalidHand`` (in a dealer's words) for anything but seven distinct cards of the 53.
    """
    options = {"wheel_second_highest": wheel_second_highest, "joker_flush_as_ace": joker_flush_as_ace}
    if exact is None:
        exact = flush_memo_complete(way, **options)
    all_settings = settings(cards)  # checks the seven cards
    if not exact and not 1_000 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be 1,000 to {MAX_SAMPLES:,}")
    fouls = np.array([is_foul(s, **options) for s in all_settings])
    house = house_way(cards, way, **options)
    scored = [
        house if (foul and foul_policy == "house_way") else s for s, foul in zip(all_settings, fouls, strict=True)
    ]
    player_high = np.array([int(high_hand(s.high, **options)) for s in scored], dtype=np.int64)[:, None]
    player_low = np.array([int(low_hand(s.low)) for s in scored], dtype=np.int64)[:, None]
    forfeits = (fouls & (foul_policy == "forfeit"))[:, None]

    held = {c.index for c in cards}
    rest = np.array([i for i in range(53) if i not in held], dtype=np.uint8)
    if exact and not enumerate_every_hand:
        wins, losses, n = _exact_counts(rest, way, options, player_high, player_low)
        wins = np.where(forfeits.ravel(), 0, wins)
        losses = np.where(forfeits.ravel(), n, losses)
    else:
        blocks = _all_blocks(rest) if exact else _sampled_blocks(rest, samples, _seed(cards))
        low_table = _low_table()
        n = 0
        wins = np.zeros(len(scored), dtype=np.int64)
        losses = np.zeros(len(scored), dtype=np.int64)
        for rows in blocks:
            high, low = house_way_many(rows, way, **options)
            bank_high = evaluate_many(high, **options).astype(np.int64)[None, :]
            bank_low = low_table[low[:, 0], low[:, 1]][None, :]
            win = (player_high > bank_high) & (player_low > bank_low) & ~forfeits
            loss = ((player_high <= bank_high) & (player_low <= bank_low)) | forfeits
            wins += win.sum(axis=1)
            losses += loss.sum(axis=1)
            n += len(rows)
    pays = 1 - (commission_bp / 10_000 if commission_on_player_wins else 0)
    rows_out = []
    for k, setting in enumerate(all_settings):
        w, lo = wins[k] / n, losses[k] / n
        ev = pays * w - lo
        # The result per hand is pays (a win), -1 (a loss) or 0: its variance from the three chances.
        variance = pays * pays * w + lo - ev * ev
        margin = 0.0 if exact else Z95 * math.sqrt(max(variance, 0.0) / n)
        rows_out.append(SettingAdvice(setting, bool(fouls[k]), w, 1 - w - lo, lo, ev, margin))
    house_row = next(r for r in rows_out if r.setting == house)
    top = max(r.ev for r in rows_out)
    best = house_row if house_row.ev == top else next(r for r in rows_out if r.ev == top)
    return Advice(
        cards=tuple(cards),
        way=way,
        exact=exact,
        bank_hands=n,
        margin=max(r.margin for r in rows_out),
        settings=tuple(rows_out),
        best=best,
        house=house_row,
    )
