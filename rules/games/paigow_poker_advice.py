"""Setting advice for Pai Gow Poker: each of the 21 settings of a player's seven cards against the house way.

For seven cards the bank can hold any seven of the other 46: C(46, 7) =
53,524,680 hands, each set by the house way. A setting's expected value per unit
wagered is (1 − c)·P(win) − P(loss) (copies go to the bank, c the commission on
a player's win when the rules charge it; GAME_RULES.md §2).

Exact is out of reach on the tablet: setting every one of the 53,524,680 bank
hands with the vectorised house way (``paigow_poker_batch.house_way_many``) and
comparing it with the 21 settings takes about half a minute on one core
(``bench/paigow_poker_advice.py`` measures it). ``advise`` therefore samples:
``samples`` bank hands drawn uniformly from the 46 cards (200,000 by default,
well under a second), every setting compared against the same sample. Each
setting's EV carries its 95% margin, 1.96 · s / √n with s the sample standard
deviation of its result per hand, and ``Advice.margin`` is the widest of them.
The sample is seeded by the seven cards, so the same hand always gets the same
advice. ``advise(..., exact=True)`` enumerates every bank hand instead (margin
zero): what the bench checks the sampled figures against.

A fouled setting is marked; under ``foul_policy="forfeit"`` it loses every
hand (EV −1), under ``"house_way"`` it is re-set by the house way and scores as
that setting does.
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from rules.games.cards import Card, parse_cards
from rules.games.paigow_poker import house_way
from rules.games.paigow_poker_batch import house_way_many
from rules.games.paigow_poker_exact import every_hand_blocks
from rules.games.paigow_poker_hands import Setting, is_foul, settings
from rules.games.poker import high_hand, low_hand
from rules.games.poker_batch import evaluate_many

BANK_HANDS = math.comb(46, 7)  # 53,524,680
DEFAULT_SAMPLES = 200_000
MAX_SAMPLES = 2_000_000
Z95 = 1.959964
_WARM_HAND = tuple(parse_cards("As Ad Kh Kc 7s 4d 2c"))


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


def warm_up(way: str = "golden_nugget", *, wheel_second_highest: bool = True, joker_flush_as_ace: bool = False) -> None:
    """Build what ``advise`` needs for ``way`` (the house way's tables, the hand values), so its first answer
    takes no longer than the next: a second or two of work, once per process and way."""
    row = np.array([[c.index for c in _WARM_HAND]], dtype=np.uint8)
    options = {"wheel_second_highest": wheel_second_highest, "joker_flush_as_ace": joker_flush_as_ace}
    high, _low = house_way_many(row, way, **options)
    evaluate_many(high, **options)
    _low_table()


def warm_up_in_background(
    way: str = "golden_nugget", *, wheel_second_highest: bool = True, joker_flush_as_ace: bool = False
) -> None:
    """``warm_up`` on a daemon thread, started once per process and way (later calls return at once)."""
    key = (way, wheel_second_highest, joker_flush_as_ace)
    with _warming_lock:
        if key in _warming:
            return
        _warming.add(key)
    threading.Thread(
        target=warm_up,
        args=(way,),
        kwargs={"wheel_second_highest": wheel_second_highest, "joker_flush_as_ace": joker_flush_as_ace},
        daemon=True,
        name=f"advice-warm-up-{way}",
    ).start()


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
    exact: bool = False,
) -> Advice:
    """Every setting of the seven ``cards`` against the house way's setting of the bank hands (see module).

    Raises ``InvalidHand`` (in a dealer's words) for anything but seven distinct cards of the 53.
    """
    options = {"wheel_second_highest": wheel_second_highest, "joker_flush_as_ace": joker_flush_as_ace}
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
