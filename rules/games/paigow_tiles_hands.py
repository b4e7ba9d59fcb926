"""Pai Gow tiles: two-tile hand values, settings and fouls (GAME_RULES.md §1, "Two-tile hands", "Setting").

A two-tile hand is worth a ``TileHandValue`` (``hand_value``): the Gee Joon, a
pair, a wong, a gong or 0 to 9 points, ties broken by the hand's higher-ranked
single tile. Four tiles are set as a high and a low hand (a ``Setting``); the
three ways to pair them are ``settings``, and a setting whose low hand ranks above
its high hand is fouled (``is_foul``). The house way is in
``rules.games.paigow_tiles_house_way``, settling in ``rules.games.paigow_tiles``,
which also offers everything here.

The rule options of §1 are keyword arguments, the same on every function:
``gee_joon_single_rank`` ("seed" or "lowest"), ``zero_zero_copy`` (on),
``gee_joon_as_zero`` and ``peer_points`` (the peer variant's; off).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from rules.games.errors import InvalidHand
from rules.games.tiles import TILE_FACES, Tile, check_tile_counts, parse_tiles, tiles_text

# --- two-tile hand values (GAME_RULES.md §1, "Two-tile hands") -----------------------------------


class Kind(IntEnum):
    """The classes of two-tile hands, weakest first (§1)."""

    POINTS = 0
    GONG = 1
    WONG = 2
    PAIR = 3
    GEE_JOON = 4


GEE_JOON_SINGLE_RANKS: Final = ("seed", "lowest")

# A single tile's strength in the tie-break, higher is better (§1, "Single-tile ranking"), by face
# index. The numbers are the same under both options except the Gee Joon tiles', so a strength
# always names one group: 2 and 0 are the Gee Joon tiles, 1 the mixed fives.
_SEED_STRENGTH: Final = (16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 5, 4, 4, 3, 3, 2, 1, 1, 0)
_LOWEST_STRENGTH: Final = (*_SEED_STRENGTH[:17], 0, 1, 1, 0)
_STRENGTH_NAME: Final = {s: TILE_FACES[_SEED_STRENGTH.index(s)].name for s in set(_SEED_STRENGTH)}
_PAIR_POINTS: Final = {_SEED_STRENGTH[t.index]: (2 * t.pips) % 10 for t in TILE_FACES}  # a pair's pips mod 10
_TEEN, _DAY = TILE_FACES[0], TILE_FACES[1]

_KIND_SHIFT: Final = 12
_POINTS_SHIFT: Final = 5
_FIELD: Final = 0x1F  # strength: 5 bits; points: 7 bits


class TileHandValue(int):
    """A two-tile hand's value: an ``int``, totally ordered, stronger is greater; equal values are copies.

    The number packs the ``Kind``, the points (0-9; a gong 10 and a wong 11 under
    ``peer_points``; 0 for the other kinds) and the tie-break: the strength of the
    hand's higher-ranked single tile (0 for every zero-point hand under
    ``zero_zero_copy``).

    >>> from rules.games.tiles import parse_tiles
    >>> v = hand_value(parse_tiles("6-1 6-2"))
    >>> v.kind.name, v.points, v.high_tile_name, v.describe()
    ('POINTS', 5, 'Tit', '5 points, high tile Tit')
    """

    __slots__ = ()

    @classmethod
    def of(cls, kind: Kind, points: int, strength: int) -> TileHandValue:
        """The value of a hand of ``kind`` with ``points`` and the tie-break ``strength`` (0-16)."""
        return cls((int(kind) << _KIND_SHIFT) | (points << _POINTS_SHIFT) | strength)

    @property
    def kind(self) -> Kind:
        return Kind(self >> _KIND_SHIFT)

    @property
    def strength(self) -> int:
        """The tie-break: the strength of the higher-ranked tile (16 Teen ... 0)."""
        return self & _FIELD

    @property
    def high_tile_name(self) -> str:
        """The name of the hand's higher-ranked tile ("Teen", "mixed nine"), or "" when it does not count."""
        if self.kind is Kind.GEE_JOON:
            return "Gee Joon"
        if self.kind is Kind.POINTS and not self.strength:  # a zero-point hand under zero_zero_copy
            return ""
        return _STRENGTH_NAME[self.strength]

    @property
    def points(self) -> int:
        """The hand's points: pips mod 10 (the Gee Joon tiles as 3 or 6, or 0 under ``gee_joon_as_zero``).

        A gong counts 10 and a wong 11 under ``peer_points``; the Gee Joon pair 9 (3 + 6).
        """
        kind = self.kind
        if kind is Kind.POINTS:
            return (self >> _POINTS_SHIFT) & 0x7F
        if kind is Kind.GEE_JOON:
            return 9
        if kind is Kind.PAIR:
            return _PAIR_POINTS[self.strength]
        return (self >> _POINTS_SHIFT) & 0x7F or (1 if kind is Kind.WONG else 0)

    def describe(self) -> str:
        """The hand in a dealer's words: "Gee Joon", "pair of Teens", "Teen wong", "9 points, high tile Tit"."""
        kind = self.kind
        if kind is Kind.GEE_JOON:
            return "Gee Joon"
        name = self.high_tile_name
        if kind is Kind.PAIR:
            return f"pair of {name}s"
        if kind is Kind.WONG:
            return f"{name} wong"
        if kind is Kind.GONG:
            return f"{name} gong"
        points = self.points
        count = f"{points} point" + ("" if points == 1 else "s")
        return f"{count}, high tile {name}" if name else count

    def __repr__(self) -> str:
        return f"TileHandValue({self.describe()!r})"


def _gee_joon_points(tile: Tile, as_zero: bool) -> tuple[int, ...]:
    """The points a tile may count: a Gee Joon tile 3 or 6 (seed), or 0 (peer option)."""
    if tile.is_gee_joon:
        return (0,) if as_zero else (3, 6)
    return (tile.points,)


def _reference_value(
    a: Tile, b: Tile, gee_joon_single_rank: str, zero_zero_copy: bool, gee_joon_as_zero: bool, peer_points: bool
) -> TileHandValue:
    """The value of the hand ``a``, ``b``: the rule text of §1 written plainly (the tables are built from it)."""
    strength = _SEED_STRENGTH if gee_joon_single_rank == "seed" else _LOWEST_STRENGTH
    if a.is_gee_joon and b.is_gee_joon:
        return TileHandValue.of(Kind.GEE_JOON, 0, 0)
    sa, sb = _SEED_STRENGTH[a.index], _SEED_STRENGTH[b.index]
    if sa == sb and a.pips == b.pips:  # a pair: the same face, or the two tiles of a mixed group
        return TileHandValue.of(Kind.PAIR, 0, sa)
    top = max(strength[a.index], strength[b.index])
    teen_or_day = {a, b} & {_TEEN, _DAY}
    if teen_or_day:
        other = b if a in teen_or_day else a
        if other.pips == 9:
            return TileHandValue.of(Kind.WONG, 11 if peer_points else 0, top)
        if other.pips == 8:
            return TileHandValue.of(Kind.GONG, 10 if peer_points else 0, top)
    points = max(
        (pa + pb) % 10 for pa in _gee_joon_points(a, gee_joon_as_zero) for pb in _gee_joon_points(b, gee_joon_as_zero)
    )
    if points == 0 and zero_zero_copy:
        return TileHandValue.of(Kind.POINTS, 0, 0)
    return TileHandValue.of(Kind.POINTS, points, top)


_N: Final = len(TILE_FACES)
Options = tuple[str, bool, bool, bool]


def _table(options: Options) -> list[TileHandValue | None]:
    """The value of every two faces, at ``a.index * 21 + b.index``; None where the set has one such tile."""
    return [
        None if a is b and a.copies == 1 else _reference_value(a, b, *options) for a in TILE_FACES for b in TILE_FACES
    ]


_TABLES: Final[dict[Options, list[TileHandValue | None]]] = {
    options: _table(options)
    for options in itertools.product(GEE_JOON_SINGLE_RANKS, (True, False), (False, True), (False, True))
}


def _bad_hand(tiles: object, expected: int, where: str = "hand") -> InvalidHand:
    """The dealer's words for a hand that is not ``expected`` tiles the set can hold."""
    try:
        items = list(tiles)  # type: ignore[call-overload]
    except TypeError:
        return InvalidHand(f"{where}: {expected} tiles expected, got {tiles!r}")
    for tile in items:
        if not isinstance(tile, Tile):
            return InvalidHand(f"{where}: tiles expected, got {tile!r}")
    if len(items) != expected:
        return InvalidHand(f"{where}: {expected} tiles expected, got {len(items)}")
    try:
        check_tile_counts(items)
    except InvalidHand as error:
        return InvalidHand(f"{where}: {error}")
    return InvalidHand(f"{where}: not a hand")


def _options_table(
    gee_joon_single_rank: str, zero_zero_copy: bool, gee_joon_as_zero: bool, peer_points: bool
) -> list[TileHandValue | None]:
    table = _TABLES.get((gee_joon_single_rank, zero_zero_copy, gee_joon_as_zero, peer_points))
    if table is None:
        if gee_joon_single_rank not in GEE_JOON_SINGLE_RANKS:
            choices = ", ".join(GEE_JOON_SINGLE_RANKS)
            raise ValueError(f"unknown gee_joon_single_rank {gee_joon_single_rank!r}: choose one of {choices}")
        table = _TABLES[(gee_joon_single_rank, bool(zero_zero_copy), bool(gee_joon_as_zero), bool(peer_points))]
    return table


def hand_value(
    tiles: Sequence[Tile],
    *,
    gee_joon_single_rank: str = "seed",
    zero_zero_copy: bool = True,
    gee_joon_as_zero: bool = False,
    peer_points: bool = False,
) -> TileHandValue:
    """The value of a two-tile hand (§1, "Two-tile hands").

    Highest first: the Gee Joon (4-2 with 2-1); the pairs, Teen down to mixed fives;
    wongs (Teen or Day with a 9) and gongs (Teen or Day with an 8), Teen's above Day's;
    then 9 down to 0 points, the pips mod 10, a Gee Joon tile counting 3 or 6,
    whichever makes the hand higher. Ties are broken by the hand's higher-ranked
    single tile, and past that the hands are copies (equal values). With
    ``zero_zero_copy`` (default) every zero-point hand is the same value: the lowest.
    ``gee_joon_single_rank="lowest"`` ranks both Gee Joon tiles last as singles.
    The peer variant's ``gee_joon_as_zero`` counts a Gee Joon tile 0 (the pair is still
    the highest hand), and ``peer_points`` gives a gong 10 and a wong 11 as points;
    as a gong and a wong rank above 9 points anyway, that changes the points shown,
    not the order.

    >>> from rules.games.tiles import parse_tiles
    >>> [hand_value(parse_tiles(h)).describe() for h in ("1-1 4-4", "6-6 6-6", "6-3 5-4", "4-2 5-3")]
    ['Day gong', 'pair of Teens', 'pair of mixed nines', '4 points, high tile mixed eight']
    >>> hand_value(parse_tiles("6-6 6-3")) == hand_value(parse_tiles("6-6 5-4"))   # copies
    True
    >>> hand_value(parse_tiles("4-2 6-3"), gee_joon_as_zero=True).points
    9
    >>> hand_value((Tile(6, 3), Tile(3, 6)))
    Traceback (most recent call last):
    ...
    rules.games.errors.InvalidHand: hand: mixed nine 6-3 appears 2 times; the set has 1
    """
    if gee_joon_single_rank == "seed" and zero_zero_copy is True and not gee_joon_as_zero and not peer_points:
        table = _DEFAULT
    else:
        table = _options_table(gee_joon_single_rank, zero_zero_copy, gee_joon_as_zero, peer_points)
    try:
        a, b = tiles
        value = table[a.index * _N + b.index]
    except (ValueError, TypeError, AttributeError):
        raise _bad_hand(tiles, 2) from None
    if value is None:
        raise _bad_hand(tiles, 2)
    return value


_DEFAULT: Final = _TABLES["seed", True, False, False]


# --- settings and fouls (§1, "Setting") ----------------------------------------------------------

Pair = tuple[Tile, Tile]


def _in_order(a: Tile, b: Tile) -> Pair:
    return (a, b) if a.index <= b.index else (b, a)


@dataclass(frozen=True, slots=True)
class Setting:
    """Four tiles set as a ``high`` and a ``low`` two-tile hand (§1, "Setting").

    The tiles of each hand are kept in single-tile ranking order, so two settings
    of the same tiles are equal however they were written. A setting may be fouled
    (its low hand above its high hand); ``is_foul`` says so.

    >>> Setting.parse("5-4 6-6", "2-2 1-3") == Setting.parse("6-6 4-5", "3-1 2-2")
    True
    >>> str(Setting.parse("5-4 6-6", "2-2 1-3"))
    'high: 6-6 5-4, low: 3-1 2-2'
    >>> Setting.parse("6-6 5-4 4-4", "3-1")
    Traceback (most recent call last):
    ...
    rules.games.errors.InvalidHand: high hand: 2 tiles expected, got 3
    """

    high: Pair
    low: Pair

    def __post_init__(self) -> None:
        for where, hand in (("high hand", self.high), ("low hand", self.low)):
            if not isinstance(hand, tuple | list) or len(hand) != 2 or not all(isinstance(t, Tile) for t in hand):
                raise _bad_hand(hand, 2, where)
        check_tile_counts((*self.high, *self.low))
        object.__setattr__(self, "high", _in_order(*self.high))
        object.__setattr__(self, "low", _in_order(*self.low))

    @classmethod
    def parse(cls, high: str, low: str) -> Setting:
        """A setting from tile notation: ``Setting.parse("6-6 5-4", "3-1 2-2")``."""
        return cls(parse_tiles(high), parse_tiles(low))  # type: ignore[arg-type]

    @property
    def tiles(self) -> tuple[Tile, Tile, Tile, Tile]:
        """All four tiles, high hand first."""
        return (*self.high, *self.low)

    def __str__(self) -> str:
        return f"high: {tiles_text(self.high)}, low: {tiles_text(self.low)}"


def _setting(high: Pair, low: Pair) -> Setting:
    """A setting from tiles already checked and in order (the fast path)."""
    setting = object.__new__(Setting)
    object.__setattr__(setting, "high", high)
    object.__setattr__(setting, "low", low)
    return setting


Four = tuple[Tile, Tile, Tile, Tile]
_PAIRINGS: Final = (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)))


def _four(tiles: Iterable[Tile]) -> Four:
    """Four tiles the set can hold, in single-tile ranking order, or ``InvalidHand`` in a dealer's words."""
    try:
        a, b, c, d = sorted(tiles, key=_INDEX)
    except (ValueError, TypeError, AttributeError):
        raise _bad_hand(tiles, 4) from None
    if (a is b and (a.copies == 1 or b is c)) or (b is c and (b.copies == 1 or c is d)) or (c is d and c.copies == 1):
        raise _bad_hand((a, b, c, d), 4)
    return a, b, c, d


def _index(tile: Tile) -> int:
    return tile.index


_INDEX: Final = _index


def settings(
    tiles: Iterable[Tile],
    *,
    gee_joon_single_rank: str = "seed",
    zero_zero_copy: bool = True,
    gee_joon_as_zero: bool = False,
    peer_points: bool = False,
) -> tuple[Setting, Setting, Setting]:
    """The three ways to pair four tiles, each with the higher hand high, so none is fouled (§1, "Setting").

    Where the two hands are copies either could be high; the one holding the
    higher-ranked tile is. Repeated tiles can make two of the three the same setting.

    >>> from rules.games.tiles import parse_tiles
    >>> [str(s) for s in settings(parse_tiles("3-1 6-6 2-2 5-4"))]
    ['high: 6-6 3-1, low: 2-2 5-4', 'high: 6-6 2-2, low: 3-1 5-4', 'high: 6-6 5-4, low: 3-1 2-2']
    """
    table = _options_table(gee_joon_single_rank, zero_zero_copy, gee_joon_as_zero, peer_points)
    four = _four(tiles)
    return tuple(_settings_of(four, table))  # type: ignore[return-value]


def _settings_of(four: Four, table: list[TileHandValue | None]) -> list[Setting]:
    out = []
    for (i, j), (k, m) in _PAIRINGS:
        first, second = (four[i], four[j]), (four[k], four[m])
        v1 = table[first[0].index * _N + first[1].index]
        v2 = table[second[0].index * _N + second[1].index]
        assert v1 is not None and v2 is not None
        out.append(_setting(first, second) if v1 >= v2 else _setting(second, first))
    return out


def is_foul(
    setting: Setting,
    *,
    gee_joon_single_rank: str = "seed",
    zero_zero_copy: bool = True,
    gee_joon_as_zero: bool = False,
    peer_points: bool = False,
) -> bool:
    """Whether the low hand ranks above the high hand (§1, "Setting": the high hand must not rank below).

    >>> is_foul(Setting.parse("6-5 6-4", "6-6 5-4"))
    True
    >>> is_foul(Setting.parse("5-5 6-4", "6-5 5-1"))   # 0 points below 7
    True
    """
    table = _options_table(gee_joon_single_rank, zero_zero_copy, gee_joon_as_zero, peer_points)
    return _value(table, setting.low) > _value(table, setting.high)


def _value(table: list[TileHandValue | None], hand: Pair) -> TileHandValue:
    value = table[hand[0].index * _N + hand[1].index]
    assert value is not None  # a Setting holds only hands the set can make
    return value
