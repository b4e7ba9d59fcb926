"""Pai Gow with Chinese dominoes: hand values, settings, fouls, the house way, settling (GAME_RULES.md §1).

Four tiles split into two two-tile hands, a high and a low (a ``Setting``); the
high hand must not rank below the low hand or the setting is fouled. A two-tile
hand is worth a ``TileHandValue``: the Gee Joon, a pair, a wong, a gong or 0 to 9
points, ties broken by the hand's higher-ranked single tile. The bank's hand is
set by a house way (``HOUSE_WAYS``, Foxwoods by default); a player's wager is
settled against the bank by ``outcome``, and the peer variant's table of
everyone against everyone by ``peer_results``.

The rule options of §1 are keyword arguments, the same on every function:
``gee_joon_single_rank`` ("seed" or "lowest"), ``zero_zero_copy`` (on),
``gee_joon_as_zero`` and ``peer_points`` (the peer variant's; off).

>>> from rules.games.tiles import parse_tiles
>>> hand_value(parse_tiles("6-6 5-4")).describe()
'Teen wong'
>>> hand_value(parse_tiles("5-5 6-4")).describe()   # 20 pips: 0 points (Czech seed)
'0 points'
>>> hand_value(parse_tiles("4-2 2-1")) > hand_value(parse_tiles("6-6 6-6"))
True
>>> outcome(Setting.parse("6-6 6-6", "3-1 2-2"), Setting.parse("1-1 6-3", "5-1 4-1")).name
'WIN'
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import cache
from typing import Final, TypeVar

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


# --- the house way as data (§1, "House way `foxwoods`") -----------------------------------------
#
# Tiles are named by their pip total: 12 = Teen, 2 = Day, 11 = Foo, 10 = Mooy or Ping, and "a 9",
# "an 8", "a 7" are any tile of that total. A "pair of 8s" is a pair (Bo) whose tiles total 8: the
# Yuns, or the mixed eights. The clauses are tried in the order listed; the first that applies decides.


@dataclass(frozen=True)
class PairSplit:
    """Split a pair of ``total`` when the other two tiles are any mix of ``with_any`` (pip totals)
    or are one of the two-total sets in ``with_exactly`` ("a 9 and an 11": ``frozenset({9, 11})``)."""

    total: int
    with_any: frozenset[int]
    with_exactly: tuple[frozenset[int], ...]
    reason_any: str
    reason_exactly: str = ""


@dataclass(frozen=True)
class TeenDayFirst:
    """An exception to the Teen-or-Day order: ``first`` before any of ``over`` when the hand can make
    both and holds a tile of total ``holds`` (and, when ``with_low_eight``, its 8 is a low 8: 6-2 or
    5-3, not the Yun)."""

    holds: int
    first: str
    over: frozenset[str]
    reason: str
    with_low_eight: bool = False


@dataclass(frozen=True)
class HouseWay:
    """One casino's house way for tiles as data (§1); ``house_way_explained`` plays it.

    In order: two pairs kept (``keep_two_pairs``); pairs never split (``never_split``, by pip
    total); the Gee Joon split when both other tiles are among ``gee_joon_split_with``; Teens
    and Days split when that makes ``teen_day_split_at`` (low points, high points) or better, or
    with the totals in ``teen_day_split_with``; the ``pair_splits``; any other pair kept. Then a
    Teen or Day with a 7, 8 or 9, in ``teen_day_order`` unless an exception of
    ``teen_day_exceptions`` applies. Otherwise: if the best low hand is below ``points_high``
    points with a tile of strength ``high_tile`` or better, and the best high hand is
    ``high_at_least`` points or more, maximize the high hand; else maximize the low hand. Where
    a clause leaves a choice of settings, that last rule chooses among them.
    """

    name: str
    never_split: frozenset[int]
    gee_joon_split_with: frozenset[tuple[int, int]]
    teen_day_split_at: tuple[int, int]
    teen_day_split_with: tuple[frozenset[int], ...]
    pair_splits: tuple[PairSplit, ...]
    teen_day_order: tuple[str, ...]
    teen_day_exceptions: tuple[TeenDayFirst, ...]
    low_below: tuple[int, str]  # "high 3": 3 points, the higher tile Chong or better
    high_at_least: int
    # Two pairs (the Gee Joon counting as one) are never split: any split makes two hands
    # each below both pairs, so keeping them wins or copies wherever a split would. The
    # source text is silent; without this its split clauses would break Teens with 9s
    # into two wongs, or the Gee Joon with Teens into 8/8.
    keep_two_pairs: bool = True


HIGH_NINE, GONG, WONG = "high nine", "gong", "wong"

FOXWOODS: Final = HouseWay(
    name="foxwoods",
    never_split=frozenset({4, 5, 6, 10, 11}),
    gee_joon_split_with=frozenset({(6, 4), (6, 5), (6, 6)}),
    teen_day_split_at=(6, 8),
    teen_day_split_with=(frozenset({9, 11}),),
    pair_splits=(
        PairSplit(9, frozenset({2, 10, 12}), (), "split 9s with 2, 10 or 12"),
        PairSplit(
            8,
            frozenset({2, 10, 11, 12}),
            (frozenset({9, 11}),),
            "split 8s with 2, 10, 11 or 12",
            "split 8s with a 9 and an 11",
        ),
        PairSplit(7, frozenset({2, 10, 11, 12}), (), "split 7s with 2, 10, 11 or 12"),
    ),
    teen_day_order=(HIGH_NINE, GONG, WONG),
    teen_day_exceptions=(
        TeenDayFirst(11, WONG, frozenset({GONG, HIGH_NINE}), "wong first, the fourth tile is an 11"),
        TeenDayFirst(4, GONG, frozenset({HIGH_NINE}), "gong before high nine, the fourth tile is a 4"),
        TeenDayFirst(5, GONG, frozenset({HIGH_NINE}), "gong before high nine, a low 8 with a 5", True),
    ),
    low_below=(3, "Chong"),
    high_at_least=7,
)

HOUSE_WAYS: Final[dict[str, HouseWay]] = {w.name: w for w in (FOXWOODS,)}


def _house_way(way: str | HouseWay) -> HouseWay:
    if isinstance(way, HouseWay):
        return way
    found = HOUSE_WAYS.get(way)
    if found is None:
        raise ValueError(f"unknown house way {way!r}: choose one of {', '.join(HOUSE_WAYS)}")
    return found


_STRENGTH_OF_NAME: Final = {name: strength for strength, name in _STRENGTH_NAME.items() if strength > 2}
_COMBO: Final = {7: HIGH_NINE, 8: GONG, 9: WONG}
_LOW_EIGHTS: Final = frozenset({Tile(6, 2), Tile(5, 3)})


def _or(words: Sequence[str]) -> str:
    """A list in a dealer's words: "4s, 5s or 6s"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _points_at_least(points: int, strength: int = 0) -> TileHandValue:
    """The lowest value of ``points`` points whose higher tile has ``strength`` or more."""
    return TileHandValue.of(Kind.POINTS, points, strength)


def _choose(way: HouseWay, candidates: Sequence[tuple[Setting, TileHandValue, TileHandValue]]) -> tuple[Setting, str]:
    """The way's last rule over ``candidates`` (setting, high value, low value): maximize the high
    hand when the best low is below "high 3" and the best high is 7 or more; else maximize the low."""
    best_low = max(low for _, _, low in candidates)
    best_high = max(high for _, high, _ in candidates)
    points, tile = way.low_below
    if best_low < _points_at_least(points, _STRENGTH_OF_NAME[tile]) and best_high >= _points_at_least(
        way.high_at_least
    ):
        setting = max(candidates, key=lambda c: (c[1], c[2]))[0]
        return (
            setting,
            f"maximize the high hand (the best low is below high {points}, the best high {way.high_at_least} or more)",
        )
    setting = max(candidates, key=lambda c: (c[2], c[1]))[0]
    return setting, "maximize the low hand"


def _pair_rule(
    way: HouseWay, four: Four, rated: list[tuple[Setting, TileHandValue, TileHandValue]]
) -> tuple[Setting, str] | None:
    """The pair clauses, in order, for a hand holding a pair or the Gee Joon; None when it holds neither."""
    pairs = [
        (setting, hand)
        for setting, high, low in rated
        for hand, value in ((setting.high, high), (setting.low, low))
        if value.kind >= Kind.PAIR
    ]
    if not pairs:
        return None
    keep = next(item for item in rated if item[0] is pairs[0][0])
    if way.keep_two_pairs and keep[1].kind >= Kind.PAIR and keep[2].kind >= Kind.PAIR:
        return keep[0], f"two pairs stay together ({keep[1].describe()} and {keep[2].describe()})"
    splits = [item for item in rated if item[1].kind < Kind.PAIR and item[2].kind < Kind.PAIR]
    hands = [hand for _, hand in pairs]
    totals = {hand[0].pips for hand in hands if not hand[0].is_gee_joon}

    def others(hand: Pair) -> list[Tile]:
        rest = list(four)
        rest.remove(hand[0])
        rest.remove(hand[1])
        return rest

    if totals & way.never_split:
        return keep[0], "never split a pair of " + _or([f"{t}s" for t in sorted(way.never_split)])
    for hand in hands:
        rest = others(hand)
        if hand[0].is_gee_joon and {(t.high, t.low) for t in rest} <= way.gee_joon_split_with:
            faces = [f"{h}-{lo}" for h, lo in sorted(way.gee_joon_split_with)]
            return _choose(way, splits)[0], f"split the Gee Joon with {_or(faces)}"
    for hand in hands:
        rest = others(hand)
        if hand[0] in (_TEEN, _DAY):
            low_points, high_points = way.teen_day_split_at
            at_least = [
                item
                for item in splits
                if item[2] >= _points_at_least(low_points) and item[1] >= _points_at_least(high_points)
            ]
            if at_least:
                return _choose(way, at_least)[0], f"split 2s and 12s for {low_points}/{high_points} or better"
            if frozenset(t.pips for t in rest) in way.teen_day_split_with:
                words = " and ".join(f"a {t}" if t != 11 else "an 11" for t in sorted(t.pips for t in rest))
                return _choose(way, splits)[0], f"split 2s and 12s with {words}"
    for rule in way.pair_splits:
        for hand in hands:
            if hand[0].is_gee_joon or hand[0].pips != rule.total:
                continue
            rest = others(hand)
            rest_totals = [t.pips for t in rest]
            if all(t in rule.with_any for t in rest_totals):
                return _choose(way, splits)[0], rule.reason_any
            if frozenset(rest_totals) in rule.with_exactly:
                return _choose(way, splits)[0], rule.reason_exactly
    what = " and ".join(value.describe() for value in (keep[1], keep[2]) if value.kind >= Kind.PAIR)
    return keep[0], f"keep the pair together ({what}): no split rule applies"


def _teen_day_rule(
    way: HouseWay, four: Four, rated: list[tuple[Setting, TileHandValue, TileHandValue]]
) -> tuple[Setting, str] | None:
    """A Teen or Day with a 7, 8 or 9: the combination first in the way's order (or an exception's)."""
    made: dict[str, list[tuple[Setting, TileHandValue, TileHandValue]]] = {}
    eights: set[Tile] = set()
    for item in rated:
        for hand in (item[0].high, item[0].low):
            top, other = hand
            if top in (_TEEN, _DAY) and other not in (_TEEN, _DAY) and other.pips in _COMBO:
                made.setdefault(_COMBO[other.pips], []).append(item)
                if other.pips == 8:
                    eights.add(other)
    if not made:
        return None
    order, why = way.teen_day_order, ""
    held = {t.pips for t in four}
    for exception in way.teen_day_exceptions:
        if (
            exception.first in made
            and exception.over & made.keys()
            and exception.holds in held
            and (not exception.with_low_eight or eights <= _LOW_EIGHTS)
        ):
            order = (exception.first, *(c for c in order if c != exception.first))
            why = exception.reason
            break
    combo = next(c for c in order if c in made)
    setting, _ = _choose(way, made[combo])
    if len(made) == 1:
        return setting, f"Teen or Day with a 7-9: {combo}"
    return setting, f"Teen or Day with a 7-9: {why or combo + ' first'}"


def _explain(four: Four, way: HouseWay, table: list[TileHandValue | None]) -> tuple[Setting, str]:
    rated = [(s, _value(table, s.high), _value(table, s.low)) for s in _settings_of(four, table)]
    for clause in (_pair_rule, _teen_day_rule):
        found = clause(way, four, rated)
        if found is not None:
            return found
    return _choose(way, rated)


_HOUSE_CACHE: Final[dict[tuple[HouseWay, Options], dict[int, tuple[Setting, str]]]] = {}


@cache
def _face_multisets() -> tuple[Four, ...]:
    """Every four-tile hand the set allows, as faces: 8,130 multisets."""
    return tuple(
        _four(combo)
        for combo in itertools.combinations_with_replacement(TILE_FACES, 4)
        if all(combo.count(face) <= face.copies for face in set(combo))
    )


def _cache(way: HouseWay, table_options: Options) -> dict[int, tuple[Setting, str]]:
    """The way's setting of every four-tile hand under these options, built in full on first use.

    Like the poker engine's tables: one pass over the 8,130 face multisets (a
    fraction of a second), after which every hand is four additions and a lookup.
    """
    table = _HOUSE_CACHE.setdefault((way, table_options), {})
    if not table:
        values = _options_table(*table_options)
        for four in _face_multisets():
            table[four[0].key + four[1].key + four[2].key + four[3].key] = _explain(four, way, values)
    return table


def house_way_explained(
    tiles: Iterable[Tile],
    way: str | HouseWay = "foxwoods",
    *,
    gee_joon_single_rank: str = "seed",
    zero_zero_copy: bool = True,
    gee_joon_as_zero: bool = False,
    peer_points: bool = False,
) -> tuple[Setting, str]:
    """The bank's setting by the house way, and the rule that chose it in a dealer's words (§1).

    The Foxwoods way, clause by clause, the first that applies deciding:
    never split pairs of 4s, 5s, 6s, 10s or 11s; split the Gee Joon when both other
    tiles are among 6-4, 6-5 and 6-6; split 2s and 12s for 6/8 or better, or with a 9
    and an 11; split 9s with any mix of 2, 10 and 12, 8s with any mix of 2, 10, 11 and
    12 or with a 9 and an 11, 7s with any mix of 2, 10, 11 and 12; keep any other pair.
    Then a Teen or Day with a 7, 8 or 9: a high nine before a gong before a wong,
    except a wong first with an 11, and a gong before a high nine with a 4, or with a
    low 8 and a 5. Otherwise maximize the high hand when the best low hand is below
    high 3 and the best high hand is 7 or more, else the low hand. Where a clause
    leaves more than one setting, that last rule picks. The setting is never fouled.

    >>> from rules.games.tiles import parse_tiles
    >>> setting, why = house_way_explained(parse_tiles("6-3 5-4 6-6 5-5"))
    >>> str(setting), why
    ('high: 6-6 6-3, low: 5-5 5-4', 'split 9s with 2, 10 or 12')
    >>> house_way_explained(parse_tiles("6-6 6-1 6-3 2-2"))[1]
    'Teen or Day with a 7-9: high nine first'
    """
    rules = _house_way(way)
    four = _four(tiles)  # refuses anything that is not four tiles the set can hold
    table = _cache(rules, (gee_joon_single_rank, zero_zero_copy, gee_joon_as_zero, peer_points))
    return table[four[0].key + four[1].key + four[2].key + four[3].key]


_FOXWOODS_DEFAULT: Final = _HOUSE_CACHE.setdefault((FOXWOODS, ("seed", True, False, False)), {})  # filled on first use


def house_way(
    tiles: Iterable[Tile],
    way: str | HouseWay = "foxwoods",
    *,
    gee_joon_single_rank: str = "seed",
    zero_zero_copy: bool = True,
    gee_joon_as_zero: bool = False,
    peer_points: bool = False,
) -> Setting:
    """The bank's setting by the house way (§1); ``house_way_explained`` also says why.

    The way's setting of every multiset of faces is built once per way and rule
    options (on first use), so a call costs four additions and a dict lookup.

    >>> from rules.games.tiles import parse_tiles
    >>> str(house_way(parse_tiles("4-2 2-1 6-6 6-5")))
    'high: 6-6 4-2, low: 6-5 2-1'
    """
    default = gee_joon_single_rank == "seed" and zero_zero_copy is True and not gee_joon_as_zero and not peer_points
    if default and way == "foxwoods":
        try:
            a, b, c, d = tiles
            found = _FOXWOODS_DEFAULT.get(a.key + b.key + c.key + d.key)
        except (ValueError, TypeError, AttributeError):
            found = None
        if found is not None:
            return found[0]
    options = {
        "gee_joon_single_rank": gee_joon_single_rank,
        "zero_zero_copy": zero_zero_copy,
        "gee_joon_as_zero": gee_joon_as_zero,
        "peer_points": peer_points,
    }
    return house_way_explained(tiles, way, **options)[0]  # type: ignore[arg-type]


# --- settling (§1, "Settling against the banker", "Peer variant") -------------------------------


class Outcome(Enum):
    """A wager's result, from the player's side (in the peer variant: from the first seat's side)."""

    WIN = "win"
    PUSH = "push"
    LOSS = "loss"

    @property
    def reversed(self) -> Outcome:
        """The same result from the other side."""
        return _REVERSED[self]


_REVERSED: Final = {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN, Outcome.PUSH: Outcome.PUSH}
FOUL_POLICIES: Final = ("forfeit", "house_way")


def outcome(
    player: Setting,
    banker: Setting,
    *,
    foul_policy: str = "forfeit",
    way: str | HouseWay = "foxwoods",
    gee_joon_single_rank: str = "seed",
    zero_zero_copy: bool = True,
    gee_joon_as_zero: bool = False,
    peer_points: bool = False,
) -> Outcome:
    """Settle a player's setting against the banker's (§1, "Settling against the banker").

    The player wins only if both hands are strictly higher than the banker's; the
    banker wins if both player hands are lower or copies; otherwise it is a push.
    A fouled bank setting is re-set by the house way ``way``. A fouled player setting
    loses (``foul_policy="forfeit"``, the default: the seeds are silent, and this is
    the engine's choice, as in Pai Gow Poker) or is re-set by the house way
    (``foul_policy="house_way"``). The eight tiles must be ones the set can hold.

    >>> outcome(Setting.parse("6-6 5-4", "5-1 6-2"), Setting.parse("1-1 6-3", "5-1 5-3")).name   # a copy low
    'PUSH'
    >>> outcome(Setting.parse("3-3 3-3", "4-1 2-1"), Setting.parse("6-6 5-4", "1-1 4-4")).name   # high won, low lost
    'PUSH'
    >>> outcome(Setting.parse("6-6 5-4", "5-1 4-3"), Setting.parse("3-3 3-3", "1-1 4-4")).name
    'LOSS'
    """
    if foul_policy not in FOUL_POLICIES:
        raise ValueError(f"unknown foul policy {foul_policy!r}: choose one of {', '.join(FOUL_POLICIES)}")
    rules = _house_way(way)
    options = (gee_joon_single_rank, zero_zero_copy, gee_joon_as_zero, peer_points)
    table = _options_table(*options)
    check_tile_counts((*player.tiles, *banker.tiles))
    player_high, player_low = _value(table, player.high), _value(table, player.low)
    if player_low > player_high:
        if foul_policy == "forfeit":
            return Outcome.LOSS
        player_high, player_low = _reset(player, rules, options, table)
    banker_high, banker_low = _value(table, banker.high), _value(table, banker.low)
    if banker_low > banker_high:
        banker_high, banker_low = _reset(banker, rules, options, table)
    if player_high > banker_high and player_low > banker_low:
        return Outcome.WIN
    if player_high <= banker_high and player_low <= banker_low:
        return Outcome.LOSS
    return Outcome.PUSH


def _reset(
    setting: Setting, way: HouseWay, options: Options, table: list[TileHandValue | None]
) -> tuple[TileHandValue, TileHandValue]:
    """The (high, low) values of ``setting``'s tiles set by the house way."""
    opts = dict(
        zip(("gee_joon_single_rank", "zero_zero_copy", "gee_joon_as_zero", "peer_points"), options, strict=True)
    )
    fixed = house_way_explained(setting.tiles, way, **opts)[0]  # type: ignore[arg-type]
    return _value(table, fixed.high), _value(table, fixed.low)


Seat = TypeVar("Seat", bound=Hashable)  # a seat's label: a number, a name


def peer_results(
    settings_by_seat: Mapping[Seat, Setting],
    *,
    foul_policy: str = "forfeit",
    way: str | HouseWay = "foxwoods",
    gee_joon_single_rank: str = "seed",
    zero_zero_copy: bool = True,
    gee_joon_as_zero: bool = False,
    peer_points: bool = False,
) -> dict[tuple[Seat, Seat], Outcome]:
    """The peer variant's results, every seat against every other (§1, "Peer variant", Czech seed).

    ``result[a, b]`` is ``a``'s result against ``b``: a WIN when both of ``a``'s hands
    are strictly higher, a LOSS when both are strictly lower, otherwise a PUSH (a
    draw: one hand each, or a copy). There is no banker, so copies favour nobody, and
    ``result[b, a]`` is always ``result[a, b]`` reversed. A fouled setting loses to every
    setting that is not fouled and draws with another fouled one
    (``foul_policy="forfeit"``), or is re-set by the house way (``"house_way"``).
    Pass the peer options (``gee_joon_as_zero``, ``peer_points``) to play the seed's rules.

    >>> r = peer_results({"Ana": Setting.parse("6-6 6-6", "1-1 5-4"), "Bo": Setting.parse("4-4 6-1", "3-1 5-1"),
    ...                   "Cy": Setting.parse("4-2 2-1", "5-5 6-4")})
    >>> r["Ana", "Bo"].name, r["Bo", "Ana"].name, r["Ana", "Cy"].name, r["Cy", "Bo"].name
    ('WIN', 'LOSS', 'PUSH', 'PUSH')
    """
    if foul_policy not in FOUL_POLICIES:
        raise ValueError(f"unknown foul policy {foul_policy!r}: choose one of {', '.join(FOUL_POLICIES)}")
    rules = _house_way(way)
    options = (gee_joon_single_rank, zero_zero_copy, gee_joon_as_zero, peer_points)
    table = _options_table(*options)
    check_tile_counts(tile for setting in settings_by_seat.values() for tile in setting.tiles)
    hands: dict[Seat, tuple[TileHandValue, TileHandValue] | None] = {}
    for seat, setting in settings_by_seat.items():
        high, low = _value(table, setting.high), _value(table, setting.low)
        if low > high:
            hands[seat] = None if foul_policy == "forfeit" else _reset(setting, rules, options, table)
        else:
            hands[seat] = (high, low)
    results: dict[tuple[Seat, Seat], Outcome] = {}
    seats = list(settings_by_seat)
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            result = _peer(hands[a], hands[b])
            results[a, b] = result
            results[b, a] = result.reversed
    return results


def _peer(a: tuple[TileHandValue, TileHandValue] | None, b: tuple[TileHandValue, TileHandValue] | None) -> Outcome:
    if a is None or b is None:  # a fouled setting (forfeit)
        return Outcome.PUSH if a is b else (Outcome.LOSS if a is None else Outcome.WIN)
    if a[0] > b[0] and a[1] > b[1]:
        return Outcome.WIN
    if a[0] < b[0] and a[1] < b[1]:
        return Outcome.LOSS
    return Outcome.PUSH
