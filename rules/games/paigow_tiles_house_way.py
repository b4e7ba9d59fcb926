"""Pai Gow tiles: the house way as data and its interpreter (GAME_RULES.md §1, "House way `foxwoods`").

The bank's four tiles are set by a house way: a ``HouseWay`` value (``FOXWOODS``,
the seed's and the default, in ``HOUSE_WAYS``) that one interpreter,
``house_way_explained``, plays clause by clause, saying which clause chose the
setting; ``house_way`` gives the setting alone. Every way's setting of every
four-tile hand is built once per way and rule options, on first use. It weighs
the hand values and settings of ``rules.games.paigow_tiles_hands``; the whole
game is offered by ``rules.games.paigow_tiles``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from rules.games.paigow_tiles_hands import (
    _DAY,
    _STRENGTH_NAME,
    _TEEN,
    Four,
    Kind,
    Options,
    Pair,
    Setting,
    TileHandValue,
    _four,
    _options_table,
    _settings_of,
    _value,
)
from rules.games.tiles import TILE_FACES, Tile

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
