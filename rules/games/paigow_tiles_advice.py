"""Advice on setting four tiles: each setting's exact odds against a house-way bank (GAME_RULES.md §1).

For each setting of the player's four tiles, ``advise`` counts the bank hands it
wins, pushes and loses against over every bank hand the other 28 tiles allow:
all C(28, 4) = 20,475 four-tile combinations, each equally likely. The two copies
of a doubled tile are distinct physical tiles, so combinations of physical tiles
are counted: with both 6-6 still out, a bank hand holding one Teen counts twice.
The bank sets its hand by the house way (§1 "Setting", "House way") and the
wager is settled as §1 "Settling against the banker" says: the player wins when
both hands are strictly higher than the bank's, loses when both are lower or
copies, and pushes otherwise. A win pays even money, less ``commission_bp``
when ``commission_on_player_wins`` is on (off by default, as in the seed: there
the bank, not the player, pays the house); a loss costs the wager. The expected
value is per unit wagered.

How it is computed: the bank's house-way setting depends only on the faces of
its four tiles, and there are 8,130 four-face multisets the set allows. For each
house way and rule set, once, every multiset's house-way high and low hands are
stored as ``TileHandValue`` numbers (totally ordered integers, equal for
copies). A query then weighs each multiset by how many physical combinations of
the remaining tiles make it, the product over faces of C(left, used), zero
where too few are left, and compares the player's two values with all 8,130 at
once in NumPy.

>>> from rules.games.tiles import parse_tiles
>>> advice = advise(parse_tiles("6-6 1-1 4-2 2-1"))
>>> [(str(s.setting), s.wins, s.pushes, s.losses) for s in advice.settings][:2]
[('high: 4-2 2-1, low: 6-6 1-1', 9496, 10979, 0), ('high: 6-6 4-2, low: 1-1 2-1', 10348, 8684, 1443)]
>>> advice.best == advice.house, round(advice.best.ev, 4)
(True, 0.4638)

The house way is not always the best setting: here it plays the Teen wong, while
9 points high over 6 low wins more often.

>>> advice = advise(parse_tiles("6-6 5-5 6-3 2-2"))
>>> str(advice.house.setting), round(advice.house.ev, 4)
('high: 6-6 6-3, low: 5-5 2-2', 0.1426)
>>> str(advice.best.setting), round(advice.best.ev, 4), advice.best.wins
('high: 5-5 6-3, low: 6-6 2-2', 0.2104, 8286)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from math import comb
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from rules.games.errors import InvalidHand
from rules.games.paigow_tiles import HOUSE_WAYS, Setting, hand_value, house_way, settings
from rules.games.tiles import COPIES, TILE_FACES, Tile, check_tile_counts

BANK_HANDS: Final = comb(28, 4)  # 20,475
_BP: Final = 10_000

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class SettingAdvice:
    """One setting's exact results against every bank hand: counts out of 20,475, chances and EV per unit."""

    setting: Setting
    wins: int
    pushes: int
    losses: int
    win: float
    push: float
    loss: float
    ev: float

    @property
    def total(self) -> int:
        return self.wins + self.pushes + self.losses


@dataclass(frozen=True)
class Advice:
    """Every setting of four tiles with its odds; ``best`` by EV and ``house`` the house way's own choice.

    Among settings of equal EV, ``best`` is the house way's setting if it is one
    of them, else the first in ``settings`` order.
    """

    tiles: tuple[Tile, ...]
    way: str
    commission_bp: int
    commission_on_player_wins: bool
    settings: tuple[SettingAdvice, ...]
    best: SettingAdvice
    house: SettingAdvice


@dataclass(frozen=True)
class _BankTable:
    """For one house way and rule set: every two-face hand's value and every bank multiset's house-way values."""

    pair_value: IntArray  # (21, 21): the value of the hand of faces i and j, -1 where the set cannot make it
    counts: IntArray  # (M, 21): how many of each face the bank multiset holds
    high: IntArray  # (M,): the value of the bank's house-way high hand
    low: IntArray  # (M,): the value of its low hand


def _rules_key(rules: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(rules.items()))


def _face_multisets() -> list[tuple[int, ...]]:
    """Every four-face multiset the set allows (a face at most as often as it has copies): 8,130 of them."""
    copies = [COPIES[face] for face in TILE_FACES]
    return [
        combo
        for combo in itertools.combinations_with_replacement(range(len(TILE_FACES)), 4)
        if all(combo.count(f) <= copies[f] for f in set(combo))
    ]


@cache
def _bank_table(way: str, rules_key: tuple[tuple[str, Any], ...]) -> _BankTable:
    """The house way's setting of every bank multiset, as hand values, for one way and rule set (built once)."""
    rules = dict(rules_key)
    faces = TILE_FACES
    n = len(faces)
    pair_value = np.full((n, n), -1, dtype=np.int64)
    for i, j in itertools.combinations_with_replacement(range(n), 2):
        if i < j or COPIES[faces[i]] == 2:
            pair_value[i, j] = pair_value[j, i] = hand_value((faces[i], faces[j]), **rules)
    multisets = _face_multisets()
    counts = np.zeros((len(multisets), n), dtype=np.int64)
    high = np.empty(len(multisets), dtype=np.int64)
    low = np.empty(len(multisets), dtype=np.int64)
    for m, combo in enumerate(multisets):
        for f in combo:
            counts[m, f] += 1
        bank = house_way(tuple(faces[f] for f in combo), way, **rules)
        high[m] = _value_of(pair_value, bank.high)
        low[m] = _value_of(pair_value, bank.low)
    return _BankTable(pair_value=pair_value, counts=counts, high=high, low=low)


def _value_of(pair_value: IntArray, hand: Sequence[Tile]) -> int:
    return int(pair_value[hand[0].index, hand[1].index])


# C(left, used) for left 0..2 copies and used 0..4 tiles of a face.
_CHOOSE: Final = np.array([[comb(left, used) for used in range(5)] for left in range(3)], dtype=np.int64)


def advise(
    four_tiles: Sequence[Tile],
    *,
    way: str = "foxwoods",
    commission_bp: int = 500,
    commission_on_player_wins: bool = False,
    **rules: Any,
) -> Advice:
    """Each setting's exact win, push and loss counts and EV against a house-way bank (§1; see the module doc).

    ``rules`` are the RuleSet options of §1 (``gee_joon_single_rank``,
    ``zero_zero_copy``, ...), used alike for the bank's house way and for ranking.
    """
    tiles = tuple(four_tiles)
    if len(tiles) != 4:
        raise InvalidHand(f"4 tiles expected, got {len(tiles)}")
    check_tile_counts(tiles)
    if way not in HOUSE_WAYS:
        raise ValueError(f"unknown house way {way!r}: choose one of {', '.join(HOUSE_WAYS)}")
    if isinstance(commission_bp, bool) or not isinstance(commission_bp, int) or not 0 <= commission_bp <= _BP:
        raise ValueError(f"the commission rate is 0 to 10000 basis points, got {commission_bp!r}")
    table = _bank_table(way, _rules_key(rules))

    left = np.array([COPIES[face] for face in TILE_FACES], dtype=np.int64)
    for tile in tiles:
        left[tile.index] -= 1
    weight = _CHOOSE[left, table.counts].prod(axis=1)
    total = int(weight.sum())
    if total != BANK_HANDS:  # a broken table, not a bad hand: the hand was checked above
        raise AssertionError(f"{BANK_HANDS} bank hands expected, counted {total}")

    win_payout = _BP - commission_bp if commission_on_player_wins else _BP
    rows = []
    for setting in settings(tiles, **rules):
        high = _value_of(table.pair_value, setting.high)
        low = _value_of(table.pair_value, setting.low)
        wins = int(weight[(high > table.high) & (low > table.low)].sum())
        losses = int(weight[(high <= table.high) & (low <= table.low)].sum())
        pushes = total - wins - losses
        rows.append(
            SettingAdvice(
                setting=setting,
                wins=wins,
                pushes=pushes,
                losses=losses,
                win=wins / total,
                push=pushes / total,
                loss=losses / total,
                ev=(wins * win_payout - losses * _BP) / (total * _BP),
            )
        )
    house_setting = house_way(tiles, way, **rules)
    house = next(row for row in rows if row.setting == house_setting)
    best = max(rows, key=lambda row: (row.ev, row is house))  # on a tie in EV, the house way's setting
    return Advice(
        tiles=tiles,
        way=way,
        commission_bp=commission_bp,
        commission_on_player_wins=commission_on_player_wins,
        settings=tuple(rows),
        best=best,
        house=house,
    )
