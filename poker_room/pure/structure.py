"""A tournament's structure: its levels, breaks and colour-ups, checked and generated (GAME_RULES.md §5).

Pure: nothing here knows Django, a database or a clock. A structure is a tuple of ``Level`` values: blind
levels (small blind, big blind, an ante of a kind, the game played, a length in minutes or in hands) and
breaks (minutes, and the chip coloured up). ``structure_check`` refuses, in the director's words, what a
card room could not run; ``structure_generate`` builds one from the starting stack, the level length, the
target duration and the house's chips.

Levels are numbered as the director counts them, breaks left out: "Level 5", "the break after level 4".

>>> levels = structure_generate(starting_stack=10_000, level_minutes=20, target_minutes=300, chips=DEFAULT_CHIPS,
...                             players=50)
>>> [(lv.small_blind, lv.big_blind, lv.ante) for lv in levels[:3]]
[(50, 100, 0), (75, 150, 0), (125, 250, 250)]
>>> structure_check(levels, chips=DEFAULT_CHIPS)
>>> structure_check([Level(LevelKind.LEVEL, 20, None, 100, 200), Level(LevelKind.LEVEL, 20, None, 50, 100)],
...                 chips=DEFAULT_CHIPS)
Traceback (most recent call last):
...
poker_room.pure.structure.StructureError: Level 2 is below level 1: its small blind of 50 is lower than level 1's 100
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypedDict


class StructureError(ValueError):
    """A structure, a level or a chip race the director could not run; the message says why."""


class Game(StrEnum):
    """The games the seed's room deals in its tournaments (GAME_RULES.md §5)."""

    NLHE = "nlhe"
    NLO = "nlo"
    OMAHA = "omaha"
    IRISH = "irish"
    PINEAPPLE = "pineapple"
    DRAW5 = "draw5"


GAME_NAMES: dict[Game, str] = {
    Game.NLHE: "No-Limit Hold'em",
    Game.NLO: "No-Limit Omaha",
    Game.OMAHA: "Omaha",
    Game.IRISH: "Irish",
    Game.PINEAPPLE: "Pineapple",
    Game.DRAW5: "5-Card Draw",
}

# The one line the director shows for each game; GAME_RULES.md §5 and the seed's descriptions.
GAME_RULE_LINES: dict[Game, str] = {
    Game.NLHE: "two hole cards and five board cards; a bet may be any amount up to all of a player's chips.",
    Game.NLO: "four hole cards, a hand uses exactly two of them with three of the board; no-limit betting.",
    Game.OMAHA: "four hole cards; a hand uses exactly two of them with three of the five board cards.",
    Game.IRISH: "played as No-Limit Hold'em, but with four hole cards; each player discards two after the flop.",
    Game.PINEAPPLE: "played as No-Limit Hold'em, but with three hole cards; each player still in discards one "
    "after the pre-flop betting.",
    Game.DRAW5: "five cards each, a betting round, one draw (discard any and receive as many), a betting round, "
    "showdown.",
}


class AnteKind(StrEnum):
    """Who pays the ante: nobody, every player (classic) or the big blind for the whole table."""

    NONE = "none"
    CLASSIC = "classic"
    BIG_BLIND = "big_blind"


class LevelKind(StrEnum):
    LEVEL = "level"
    BREAK = "break"


# The house's chip values (integers, as every chip count in Tableside).
DEFAULT_CHIPS: tuple[int, ...] = (25, 100, 500, 1000, 5000, 25000)

MAX_MINUTES = 24 * 60
MAX_HANDS = 1000
MAX_LEVELS = 100
ANTE_FROM_LEVEL = 3  # the generator's antes start at level 3, as most published structures do
_LEVEL_FIELDS = ("kind", "minutes", "hands", "small_blind", "big_blind", "ante", "ante_kind", "game", "colour_up")


class LevelJson(TypedDict):
    """A level or break as JSON-safe values (``Level.as_dict``): what a tournament stores and the API shows."""

    kind: str
    minutes: int | None
    hands: int | None
    small_blind: int
    big_blind: int
    ante: int
    ante_kind: str
    game: str
    colour_up: int | None


@dataclass(frozen=True)
class Level:
    """One blind level or break. A level lasts ``minutes`` or ``hands`` (exactly one); a break lasts minutes
    and may colour up one chip (``colour_up``: the chip value taken out of play). ``game`` is a ``Game`` code
    (each level of a mixed event names its own; empty: the event's game)."""

    kind: LevelKind
    minutes: int | None
    hands: int | None
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    ante_kind: AnteKind = AnteKind.NONE
    game: str = ""
    colour_up: int | None = None

    @property
    def is_break(self) -> bool:
        return self.kind == LevelKind.BREAK

    def as_dict(self) -> LevelJson:
        """The level as JSON-safe values; ``Level.from_dict`` reads it back equal."""
        return {
            "kind": str(self.kind),
            "minutes": self.minutes,
            "hands": self.hands,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "ante_kind": str(self.ante_kind),
            "game": self.game,
            "colour_up": self.colour_up,
        }

    @classmethod
    def from_dict(cls, data: object) -> Level:
        """A level from ``as_dict``'s shape (missing optional fields take their defaults). Types are checked
        here, the rules by ``structure_check``; anything malformed raises ``StructureError``."""
        if not isinstance(data, Mapping):
            raise StructureError(f"A level is a JSON object, got {type(data).__name__}")
        unknown = [key for key in data if key not in _LEVEL_FIELDS]
        if unknown:
            raise StructureError(f"Unknown field in a level: {', '.join(sorted(map(repr, unknown)))}")
        if "kind" not in data:
            raise StructureError("A level needs its kind: 'level' or 'break'")
        kind = _choice(data["kind"], LevelKind, "kind")
        ante_kind = _choice(data.get("ante_kind", "none"), AnteKind, "ante kind")
        game = data.get("game", "")
        if not isinstance(game, str):
            raise StructureError(f"A level's game is a game code, got {game!r}")
        return cls(
            kind=kind,
            minutes=_whole(data.get("minutes"), "minutes", optional=True),
            hands=_whole(data.get("hands"), "hands", optional=True),
            small_blind=_whole(data.get("small_blind", 0), "small blind"),
            big_blind=_whole(data.get("big_blind", 0), "big blind"),
            ante=_whole(data.get("ante", 0), "ante"),
            ante_kind=ante_kind,
            game=game,
            colour_up=_whole(data.get("colour_up"), "colour-up", optional=True),
        )


def _whole(value: object, what: str, *, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        expected = "a whole number or null" if optional else "a whole number"
        raise StructureError(f"A level's {what} is {expected}, got {value!r}")
    return value


def _choice(value: object, enum: type[StrEnum], what: str) -> Any:
    allowed = [member.value for member in enum]
    if not isinstance(value, str) or value not in allowed:
        raise StructureError(f"A level's {what} is one of {', '.join(allowed)}; got {value!r}")
    return enum(value)


def structure_as_dicts(levels: Sequence[Level]) -> list[LevelJson]:
    """A structure as a JSON-safe list (one dict a level or break)."""
    return [level.as_dict() for level in levels]


def structure_from_dicts(items: object) -> tuple[Level, ...]:
    """A structure from ``structure_as_dicts``'s list; a malformed item is named by its position (1-based)."""
    if not isinstance(items, list | tuple):
        raise StructureError(f"A structure is a list of levels, got {type(items).__name__}")
    levels = []
    for position, item in enumerate(items, start=1):
        try:
            levels.append(Level.from_dict(item))
        except StructureError as error:
            raise StructureError(f"Row {position}: {error}") from None
    return tuple(levels)


def _names(levels: Sequence[Level]) -> list[str]:
    """How the director names each row: "level 5", or "the break after level 4" (lower case)."""
    names, count = [], 0
    for level in levels:
        if isinstance(level, Level) and level.is_break:
            names.append(f"the break after level {count}")
        else:
            count += 1
            names.append(f"level {count}")
    return names


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _check_chips(chips: Sequence[int]) -> list[int]:
    values = list(chips)
    if not values or any(isinstance(c, bool) or not isinstance(c, int) or c < 1 for c in values):
        raise StructureError(f"The house's chips are positive whole numbers, got {tuple(values)!r}")
    if len(set(values)) != len(values):
        raise StructureError(f"The house's chips list a value twice: {tuple(values)!r}")
    return sorted(values)


def _amounts(level: Level) -> tuple[tuple[str, int], ...]:
    return (("small blind", level.small_blind), ("big blind", level.big_blind), ("ante", level.ante))


def _check_length(name: str, level: Level) -> None:
    if level.is_break:
        if level.hands is not None:
            raise StructureError(f"{_cap(name)} lasts minutes, not hands")
        if level.minutes is None:
            raise StructureError(f"{_cap(name)} needs its length in minutes")
    elif level.minutes is None and level.hands is None:
        raise StructureError(f"{_cap(name)} needs a length: minutes or hands")
    elif level.minutes is not None and level.hands is not None:
        raise StructureError(f"{_cap(name)} has both minutes and hands: choose one")
    if level.minutes is not None and not 1 <= level.minutes <= MAX_MINUTES:
        raise StructureError(f"{_cap(name)} lasts {level.minutes} minutes: 1 to {MAX_MINUTES} (24 hours)")
    if level.hands is not None and not 1 <= level.hands <= MAX_HANDS:
        raise StructureError(f"{_cap(name)} lasts {level.hands} hands: 1 to {MAX_HANDS}")


def _check_level(name: str, level: Level) -> None:
    if level.big_blind < 1:
        raise StructureError(f"{_cap(name)} has a big blind of {level.big_blind}: at least 1")
    if level.small_blind < 0 or level.ante < 0:
        raise StructureError(f"{_cap(name)} has a negative blind or ante")
    if level.small_blind > level.big_blind:
        raise StructureError(
            f"{_cap(name)} has a small blind of {level.small_blind} above its big blind of {level.big_blind}"
        )
    if level.ante_kind not in AnteKind.__members__.values():
        raise StructureError(f"{_cap(name)} has an unknown ante kind {level.ante_kind!r}")
    if level.ante_kind == AnteKind.NONE and level.ante > 0:
        raise StructureError(f"{_cap(name)} has an ante of {level.ante} but no ante kind: classic or big blind")
    if level.ante_kind != AnteKind.NONE and level.ante == 0:
        kind = "big-blind" if level.ante_kind == AnteKind.BIG_BLIND else "classic"
        raise StructureError(f"{_cap(name)} has a {kind} ante of 0: set the ante or make the kind none")
    if level.game and level.game not in Game.__members__.values():
        codes = ", ".join(game.value for game in Game)
        raise StructureError(f"{_cap(name)} plays {level.game!r}, which is not a game of the room ({codes})")
    if level.colour_up is not None:
        raise StructureError(f"{_cap(name)} colours up a chip: only a break does")


def structure_check(levels: Sequence[Level], *, chips: Sequence[int]) -> None:
    """Refuse, in the director's words, a structure the room could not run; return None if it can.

    Refused: no levels; a break first, or two breaks in a row; a level without a length, or with both minutes
    and hands; a length below 1 or absurd (over 24 hours, over 1000 hands); a big blind below 1; a small blind
    above the big blind; a level below the last (its small blind, big blind or ante lower than the level
    before; equal is allowed: Ante-Up keeps the blinds, GAME_RULES.md §5); a break with blinds; a colour-up of
    a chip that is not the house's, not in play, not the smallest in play, the last in play, or still needed
    by a later blind or ante; a blind or ante the chips in play cannot pay (not a multiple of the smallest);
    an unknown game; an ante without a kind, or a kind without an ante.
    """
    in_play = _check_chips(chips)
    if not levels:
        raise StructureError("A structure needs at least one level")
    names = _names(levels)
    for index, level in enumerate(levels):
        if not isinstance(level, Level):
            raise StructureError(f"Row {index + 1} is not a level: {level!r}")
    if levels[0].is_break:
        raise StructureError("A structure starts with a level, not a break")
    previous: int | None = None  # index of the last blind level
    for index, level in enumerate(levels):
        name = names[index]
        _check_length(name, level)
        if level.is_break:
            if levels[index - 1].is_break:
                after = names[index - 1].removeprefix("the break after ")
                raise StructureError(f"Two breaks in a row after {after}: make it one longer break")
            if level.small_blind or level.big_blind or level.ante or level.ante_kind != AnteKind.NONE:
                raise StructureError(f"{_cap(name)} has blinds or an ante: a break has none")
            if level.colour_up is not None:
                _check_colour_up(levels, names, index, in_play, chips)
                in_play.remove(level.colour_up)
            continue
        _check_level(name, level)
        for what, amount in _amounts(level):
            if amount % in_play[0]:
                raise StructureError(
                    f"{_cap(name)}'s {what} of {amount} cannot be paid with the chips in play "
                    f"(the smallest is {in_play[0]})"
                )
        if previous is not None:
            before = levels[previous]
            for (what, amount), (_, earlier) in zip(_amounts(level), _amounts(before), strict=True):
                if amount < earlier:
                    raise StructureError(
                        f"{_cap(name)} is below {names[previous]}: its {what} of {amount} is lower than "
                        f"{names[previous]}'s {earlier}"
                    )
        previous = index


def _check_colour_up(
    levels: Sequence[Level], names: Sequence[str], index: int, in_play: list[int], chips: Sequence[int]
) -> None:
    chip, name = levels[index].colour_up, _cap(names[index])
    if chip not in chips:
        house = ", ".join(str(c) for c in sorted(chips))
        raise StructureError(f"{name} colours up a {chip} chip, which is not one of the house's chips ({house})")
    if chip not in in_play:
        raise StructureError(f"{name} colours up the {chip} chip, which is already out of play")
    if chip != in_play[0]:
        raise StructureError(
            f"{name} colours up the {chip} chip while the {in_play[0]} chip is still in play: "
            "colour up the smallest chip first"
        )
    if len(in_play) == 1:
        raise StructureError(f"{name} colours up the {chip} chip, the last chip in play")
    smallest_after = in_play[1]
    for later in range(index + 1, len(levels)):
        if levels[later].is_break:
            continue
        for what, amount in _amounts(levels[later]):
            if amount % smallest_after and amount % chip == 0:
                raise StructureError(
                    f"{name} colours up the {chip} chip, but {names[later]}'s {what} of {amount} still needs it"
                )


# --- The generator -------------------------------------------------------------------------------------------

# Mantissas (in tenths) of the "nice" values a card room prints: 1, 1.2, 1.5, 1.6, 2, 2.5, 3, 4, 5, 6, 8 × 10^k.
# 1.2 and 1.6 are there for the conventional 600/1,200 and 800/1,600.
_NICE_TENTHS = (10, 12, 15, 16, 20, 25, 30, 40, 50, 60, 80)


def _nice_values(limit: int = 10**15) -> list[int]:
    values = []
    for exponent in range(16):
        for tenths in _NICE_TENTHS:
            value = tenths * 10**exponent
            if value % 10 == 0 and value // 10 <= limit:
                values.append(value // 10)
    return values


def _working_chip(amount: int, chips: Sequence[int]) -> int:
    """The chip a blind of ``amount`` is counted in: the largest house chip at most a tenth of it (so that by
    then the smaller chips can be coloured up), or the smallest chip."""
    fitting = [chip for chip in chips if 10 * chip <= amount]
    return max(fitting) if fitting else min(chips)


def _big_blind_grid(chips: Sequence[int]) -> list[int]:
    """Nice big blinds whose half (the small blind) is a whole number of the working chip and the smallest chip."""
    smallest = min(chips)
    return [v for v in _nice_values() if v % (2 * smallest) == 0 and v % (2 * _working_chip(v, chips)) == 0]


def _nearest(grid: Sequence[int], target: float) -> int:
    """The index of the grid value nearest ``target`` on a log scale (the lower on a tie)."""
    position = bisect.bisect_left(grid, target)
    if position == 0:
        return 0
    if position == len(grid):
        return len(grid) - 1
    below, above = grid[position - 1], grid[position]
    return position - 1 if math.log(target / below) <= math.log(above / target) else position


def _rising(grid: Sequence[int], start: float, end: float, count: int, *, deepen: bool) -> list[int]:
    """``count`` strictly rising grid values growing geometrically from about ``start`` to about ``end``.

    When the grid holds fewer values between the two than there are levels, ``deepen`` lowers the start one
    grid value at a time (a deeper start) rather than overshoot the end."""
    first = _nearest(grid, start)
    last = max(_nearest(grid, end), first + 1)
    while deepen and last - first + 1 < count and first > 0:
        first -= 1
    if last >= len(grid):
        raise StructureError(f"Blinds rising from about {start:,.0f} outgrow any chip count")
    low, high = grid[first], grid[last]
    chosen: list[int] = []
    floor = first
    for step in range(count):
        ideal = low * (high / low) ** (step / (count - 1)) if count > 1 else low
        index = max(floor, _nearest(grid, ideal))
        if index >= len(grid):
            raise StructureError(f"Blinds rising from about {start:,.0f} over {count} levels outgrow any chip count")
        chosen.append(grid[index])
        floor = index + 1
    return chosen


def _level_count(length: float, target_minutes: int, break_every: int, break_minutes: int) -> int:
    """The number of levels whose play and breaks come nearest the target duration (the fewer on a tie)."""

    def duration(levels: int) -> float:
        breaks = (levels - 1) // break_every if break_every else 0
        return levels * length + breaks * break_minutes

    count = 1
    while count < MAX_LEVELS and abs(duration(count + 1) - target_minutes) < abs(duration(count) - target_minutes):
        count += 1
    if count == MAX_LEVELS and duration(count) < target_minutes - length:
        raise StructureError(
            f"A target of {target_minutes} minutes needs more than {MAX_LEVELS} levels: make the levels longer"
        )
    return count


def _classic_ante(big_blind: int, chips: Sequence[int]) -> int:
    """About a ninth of the big blind (≈ 11 %), in whole working chips; none while one chip is over an eighth."""
    chip = _working_chip(big_blind, chips)
    if 8 * chip > big_blind:
        return 0
    return chip * max(1, (2 * big_blind + 9 * chip) // (18 * chip))


def _positive(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise StructureError(f"The {what} is a whole number of at least 1, got {value!r}")
    return value


def structure_generate(
    *,
    starting_stack: int,
    level_minutes: int | None,
    level_hands: int | None = None,
    target_minutes: int,
    chips: Sequence[int],
    players: int,
    games: Sequence[str] = ("nlhe",),
    ante_kind: AnteKind = AnteKind.BIG_BLIND,
    break_every: int = 4,
    break_minutes: int = 15,
    ante_up: bool = False,
    hands_per_hour: int = 40,
) -> tuple[Level, ...]:
    """A structure for ``players`` entrants from the starting stack, level length, target duration and chips.

    The method (published structures' practice; the seed gives only stacks and level lengths):

    * **Length.** As many levels (breaks of ``break_minutes`` after every ``break_every``-th level, none after
      the last; ``break_every=0``: no breaks) as bring play and breaks nearest ``target_minutes``. Levels
      counted in hands (``level_hands``, the heads-up event's "every 7th hand") count ``hands_per_hour`` hands
      an hour (40 by default: a live heads-up pace).
    * **Big blinds** are "nice" values, 1, 1.2, 1.5, 1.6, 2, 2.5, 3, 4, 5, 6, 8 × 10^k, whose half is a whole
      number of the working chip (the largest house chip at most a tenth of the blind): the small blind is
      exactly half the big blind (25/50, 50/100, 75/150 … 600/1,200, 800/1,600 …). The first is the one
      nearest the starting stack / 100 (100 big blinds); the last the one nearest (players × starting stack)
      / 20, so that at heads-up the average stack is about 10 big blinds. In between they grow
      geometrically, rounded to the nearest nice value and strictly rising; when the nice values between the
      two are fewer than the levels, the start is lowered (a deeper stack) instead of overshooting the end.
    * **Antes** from level 3 (``ANTE_FROM_LEVEL``): a big-blind ante equal to the big blind, or a classic
      ante of about a ninth of the big blind in whole working chips (once one chip is at most an eighth of
      it), never falling.
    * **Colour-ups.** At a break the smallest chip in play is coloured up if, and only if, every blind and
      ante after the break is a whole number of the next chip.
    * **Mixed games** alternate level by level (``games=("nlhe", "nlo")``: the Mainzer Poker Masters).
    * **Ante-Up** (``ante_up=True``, the seed's MSOP Ante Up): the blinds stay at the nice pair nearest the
      starting stack / 200 (25/50 for 10,000 chips, as the seed's example) for the whole event, and a
      classic ante from level 1 rises every level, from the smallest chip in play to about 5/18 of the big
      blind above (nine players' antes then cost what blinds and a big-blind ante cost, 2.5 big blinds).

    The result passes ``structure_check``.
    """
    chips = _check_chips(chips)
    stack = _positive(starting_stack, "starting stack")
    target = _positive(target_minutes, "target duration in minutes")
    field = _positive(players, "number of players")
    if (level_minutes is None) == (level_hands is None):
        raise StructureError("A level lasts minutes or hands: give one of them")
    if level_minutes is not None:
        length: float = _positive(level_minutes, "level length in minutes")
    else:
        length = _positive(level_hands, "level length in hands") * 60 / _positive(hands_per_hour, "hands per hour")
    if isinstance(break_every, bool) or not isinstance(break_every, int) or break_every < 0:
        raise StructureError(f"Breaks come every so many levels (0: none), got {break_every!r}")
    if break_every:
        _positive(break_minutes, "break length in minutes")
    if field < 2:
        raise StructureError("A tournament needs at least two players")
    codes = [str(game) for game in games]
    if not codes or any(code not in Game.__members__.values() for code in codes):
        raise StructureError(f"Unknown game in {tuple(codes)!r}: choose from {', '.join(g.value for g in Game)}")
    if ante_up and ante_kind == AnteKind.NONE:
        raise StructureError("An Ante-Up event has an ante from level 1: choose the classic ante")
    count = _level_count(length, target, break_every, break_minutes)
    grid = _big_blind_grid(chips)
    heads_up_big_blind = field * stack / 20
    if ante_up:
        big = grid[_nearest(grid, stack / 200)]
        big_blinds = [big] * count
        ante_grid = [v for v in _nice_values() if v % chips[0] == 0]
        antes = _rising(ante_grid, ante_grid[0], heads_up_big_blind * 5 / 18, count, deepen=False)
        kind = AnteKind.CLASSIC
    else:
        big_blinds = _rising(grid, stack / 100, heads_up_big_blind, count, deepen=True)
        antes, kind = [], ante_kind
        for number, big in enumerate(big_blinds, start=1):
            ante = 0
            if number >= ANTE_FROM_LEVEL and kind == AnteKind.BIG_BLIND:
                ante = big
            elif number >= ANTE_FROM_LEVEL and kind == AnteKind.CLASSIC:
                ante = _classic_ante(big, chips)
                if antes and ante < antes[-1]:
                    ante = antes[-1]
            antes.append(ante)
    blind_levels = [
        Level(
            kind=LevelKind.LEVEL,
            minutes=level_minutes,
            hands=level_hands if level_minutes is None else None,
            small_blind=big // 2,
            big_blind=big,
            ante=ante,
            ante_kind=kind if ante else AnteKind.NONE,
            game=codes[number % len(codes)],
        )
        for number, (big, ante) in enumerate(zip(big_blinds, antes, strict=True))
    ]
    structure = _with_breaks(blind_levels, chips, break_every, break_minutes)
    structure_check(structure, chips=chips)
    return structure


def _with_breaks(levels: list[Level], chips: list[int], every: int, minutes: int) -> tuple[Level, ...]:
    """The levels with a break after every ``every``-th (not after the last); each break colours up the
    smallest chip in play when every blind and ante after it is a whole number of the next chip."""
    in_play = list(chips)
    out: list[Level] = []
    for number, level in enumerate(levels, start=1):
        out.append(level)
        if not every or number % every or number == len(levels):
            continue
        colour_up = None
        if len(in_play) > 1 and in_play[1] % in_play[0] == 0:
            following = [amount for later in levels[number:] for _, amount in _amounts(later)]
            if all(amount % in_play[1] == 0 for amount in following):
                colour_up = in_play.pop(0)
        out.append(Level(kind=LevelKind.BREAK, minutes=minutes, hands=None, colour_up=colour_up))
    return tuple(out)
