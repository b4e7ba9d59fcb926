"""Pai Gow with Chinese dominoes: hand values, settings, fouls, the house way, settling (GAME_RULES.md §1).

Four tiles split into two two-tile hands, a high and a low (a ``Setting``); the
high hand must not rank below the low hand or the setting is fouled. A two-tile
hand is worth a ``TileHandValue``: the Gee Joon, a pair, a wong, a gong or 0 to 9
points, ties broken by the hand's higher-ranked single tile. The bank's hand is
set by a house way (``HOUSE_WAYS``, Foxwoods by default); a player's wager is
settled against the bank by ``outcome``, and the peer variant's table of
everyone against everyone by ``peer_results``.

This module settles; the hand values, settings and fouls are in
``rules.games.paigow_tiles_hands`` and the house way in
``rules.games.paigow_tiles_house_way``, and every name of theirs is offered here too.

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

from collections.abc import Hashable, Mapping
from enum import Enum
from typing import Final, TypeVar

from rules.games.paigow_tiles_hands import GEE_JOON_SINGLE_RANKS as GEE_JOON_SINGLE_RANKS
from rules.games.paigow_tiles_hands import Four as Four
from rules.games.paigow_tiles_hands import Kind as Kind
from rules.games.paigow_tiles_hands import Options as Options
from rules.games.paigow_tiles_hands import Pair as Pair
from rules.games.paigow_tiles_hands import Setting as Setting
from rules.games.paigow_tiles_hands import TileHandValue as TileHandValue
from rules.games.paigow_tiles_hands import _options_table, _value
from rules.games.paigow_tiles_hands import hand_value as hand_value
from rules.games.paigow_tiles_hands import is_foul as is_foul
from rules.games.paigow_tiles_hands import settings as settings
from rules.games.paigow_tiles_house_way import FOXWOODS as FOXWOODS
from rules.games.paigow_tiles_house_way import GONG as GONG
from rules.games.paigow_tiles_house_way import HIGH_NINE as HIGH_NINE
from rules.games.paigow_tiles_house_way import HOUSE_WAYS as HOUSE_WAYS
from rules.games.paigow_tiles_house_way import WONG as WONG
from rules.games.paigow_tiles_house_way import HouseWay as HouseWay
from rules.games.paigow_tiles_house_way import PairSplit as PairSplit
from rules.games.paigow_tiles_house_way import TeenDayFirst as TeenDayFirst
from rules.games.paigow_tiles_house_way import _house_way
from rules.games.paigow_tiles_house_way import house_way as house_way
from rules.games.paigow_tiles_house_way import house_way_explained as house_way_explained
from rules.games.tiles import check_tile_counts

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
