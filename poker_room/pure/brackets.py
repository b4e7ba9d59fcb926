"""Heads-up events (GAME_RULES.md §5 "MSOP Heads Up": "Entweder im Gruppenmodus oder als K.O. Modus. Je
nach Teilnehmerzahl"): the knock-out bracket, the group stage, and a match's blinds counted in hands.

Pure: no Django, no database, no clock, no global randomness (a drawn bracket takes its ``random.Random``).
Entrants are any hashable values given in seed order (1 the top seed); a drawn bracket shuffles them first and then
seeds the shuffled order, so both go through the same placement.

* **Knock-out** (``knockout``): the bracket is the largest power of two ``B`` not above the field ``n``. The
  ``n - B`` first-round (play-in) matches are between the ``2(n - B)`` lowest seeds, highest against lowest
  (seed ``B`` against ``B + 1``, ``B - 1`` against ``B + 2``...); the other ``2B - n`` entrants, the top seeds, have
  a bye. Each play-in winner takes the slot of the higher seed of its pair. Slots are placed in the standard
  seeding order (1 v 16, 8 v 9, 4 v 13, 5 v 12, 2 v 15, 7 v 10, 3 v 14, 6 v 11 for 16): seeds 1 and 2 can meet
  only in the final, the top four only from the semi-finals. 89 entrants: a bracket of 64, 25 play-in matches
  (50 players), 39 byes.
* **Groups** (``groups``, ``round_robin``, ``group_table``): balanced groups (sizes differ by at most one, the
  larger groups first), the seeds snaking across them (1, 2, 3 / 6, 5, 4 / 7, 8, 9 ...); each group plays a round
  robin by the circle method (everyone meets everyone once, nobody twice in a round; an odd group gives one player a
  bye each round). The standing: most wins; among players level on wins, most wins in the matches between them
  (head-to-head); then the better seed.
* **Blinds by hands** (``blinds_at``): a match walks the structure's levels by its own hand count; a level of 7 hands
  covers hands 1 to 7, the 8th hand is the next level's first ("blinds up every 7th hand").

>>> bracket = knockout(89)
>>> bracket.size, len(bracket.rounds[0]), len(bracket.byes)
(64, 25, 39)
>>> [(m.a.seed, m.b.seed) for m in knockout(8).rounds[0]]
[(1, 8), (4, 5), (2, 7), (3, 6)]
>>> [len(group) for group in groups(range(1, 11), 4)]
[4, 3, 3]
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from poker_room.pure.structure import Level

T = TypeVar("T", bound=Hashable)

MOST_ENTRANTS = 4096


class BracketError(ValueError):
    """A bracket, a group or a count of hands that cannot be played; the message says why."""


# --- the knock-out ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side(Generic[T]):
    """One side of a match: an entrant known now (``entrant`` and its ``seed``), or the winner of an earlier match
    (``winner_of``: its (round, number))."""

    entrant: T | None = None
    seed: int | None = None
    winner_of: tuple[int, int] | None = None


@dataclass(frozen=True)
class BracketMatch(Generic[T]):
    """A match of the bracket: its round (1 = the first played), its number in the round (from 1, top to bottom of
    the bracket), its two sides, and where its winner goes (``next``: (round, number), ``next_side``: "a" or "b";
    the final has none)."""

    round: int
    number: int
    a: Side[T]
    b: Side[T]
    next: tuple[int, int] | None
    next_side: str


@dataclass(frozen=True)
class Bracket(Generic[T]):
    """A knock-out bracket: ``rounds`` of matches, the first round the play-in when ``play_in``; ``byes`` are the
    entrants who start in the bracket's first full round, ``size`` the bracket (a power of two)."""

    size: int
    play_in: bool
    rounds: tuple[tuple[BracketMatch[T], ...], ...]
    byes: tuple[T, ...]
    seeds: dict[T, int] = field(default_factory=dict)

    @property
    def matches(self) -> list[BracketMatch[T]]:
        return [match for matches in self.rounds for match in matches]

    def round_name(self, round_number: int) -> str:
        return round_name(len(self.rounds[round_number - 1]), play_in=self.play_in and round_number == 1)


def bracket_size(entrants: int) -> int:
    """The largest power of two not above ``entrants`` (at least 2 entrants)."""
    if entrants < 2:
        raise BracketError("A heads-up event needs at least two players")
    return 1 << (entrants.bit_length() - 1)


def seeding_order(size: int) -> list[int]:
    """The seeds in bracket order for a bracket of ``size`` (a power of two): each pair plays in the first round,
    seeds s and size + 1 - s paired, built up so the top two meet only in the final.

    >>> seeding_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if size < 2 or size & (size - 1):
        raise BracketError(f"A bracket has a power of two places, not {size}")
    order = [1, 2]
    while len(order) < size:
        width = len(order) * 2
        order = [seed for top in order for seed in (top, width + 1 - top)]
    return order


def _ordered(entrants: int | Iterable[T], *, drawn: bool, rng: random.Random | None) -> list[T]:
    players: list[T] = list(range(1, entrants + 1)) if isinstance(entrants, int) else list(entrants)  # type: ignore[arg-type]
    if len(players) < 2:
        raise BracketError("A heads-up event needs at least two players")
    if len(players) > MOST_ENTRANTS:
        raise BracketError(f"A bracket holds at most {MOST_ENTRANTS} players")
    if len(set(players)) != len(players):
        raise BracketError("A player appears twice in the field")
    if drawn:
        if rng is None:
            raise BracketError("A drawn bracket needs its random source")
        rng.shuffle(players)
    return players


def knockout(entrants: int | Iterable[T], *, drawn: bool = False, rng: random.Random | None = None) -> Bracket[T]:
    """The knock-out bracket of ``entrants`` (a count: seeds 1..n; or the entrants in seed order). ``drawn``: the
    order is drawn with ``rng`` first, then seeded as drawn."""
    players = _ordered(entrants, drawn=drawn, rng=rng)
    n = len(players)
    size = bracket_size(n)
    play_ins = n - size
    seed_of = {player: seed for seed, player in enumerate(players, start=1)}

    def known(seed: int) -> Side[T]:
        return Side(entrant=players[seed - 1], seed=seed)

    order = seeding_order(size)
    rounds: list[tuple[BracketMatch[T], ...]] = []
    offset = 1 if play_ins else 0
    slot_sides: list[Side[T]] = []
    if play_ins:
        first: list[BracketMatch[T]] = []
        for position, seed in enumerate(order):
            if seed <= size - play_ins:
                slot_sides.append(known(seed))
                continue
            number = len(first) + 1
            first.append(
                BracketMatch(
                    round=1,
                    number=number,
                    a=known(seed),
                    b=known(2 * size + 1 - seed),
                    next=(2, position // 2 + 1),
                    next_side="a" if position % 2 == 0 else "b",
                )
            )
            slot_sides.append(Side(winner_of=(1, number)))
        rounds.append(tuple(first))
    else:
        slot_sides = [known(seed) for seed in order]
    sides = slot_sides
    round_number = 1 + offset
    while len(sides) >= 2:
        matches = len(sides) // 2
        final = matches == 1
        current = tuple(
            BracketMatch(
                round=round_number,
                number=i + 1,
                a=sides[2 * i],
                b=sides[2 * i + 1],
                next=None if final else (round_number + 1, i // 2 + 1),
                next_side="" if final else ("a" if i % 2 == 0 else "b"),
            )
            for i in range(matches)
        )
        rounds.append(current)
        sides = [Side(winner_of=(round_number, i + 1)) for i in range(matches)]
        round_number += 1
    byes = tuple(players[seed - 1] for seed in range(1, size - play_ins + 1)) if play_ins else ()
    return Bracket(size=size, play_in=bool(play_ins), rounds=tuple(rounds), byes=byes, seeds=seed_of)


def round_name(matches: int, *, play_in: bool = False) -> str:
    """The round's name by its number of matches: Final, Semi-final, Quarter-final, Round of 16, Round of 32...;
    the play-in that brings the field to a power of two is the First round."""
    if play_in:
        return "First round"
    names = {1: "Final", 2: "Semi-final", 4: "Quarter-final"}
    return names.get(matches, f"Round of {matches * 2}")


def knockout_tiers(entrants: int, *, first_place: int = 1) -> list[list[int]]:
    """The places whose prizes are shared in a knock-out of ``entrants`` placed from ``first_place``: the losers of
    one round share their places equally (the semi-finals' losers 3rd-4th, the quarter-finals' 5th-8th, the play-in's
    from the bracket's size + 1 to the field). A tier of one place is left out."""
    size = bracket_size(entrants)
    tiers: list[list[int]] = []
    low = 2
    while low * 2 <= size:
        tiers.append([low + 1, low * 2])
        low *= 2
    if entrants > size:
        tiers.append([size + 1, entrants])
    return [[first + first_place - 1, last + first_place - 1] for first, last in tiers]


# --- groups -------------------------------------------------------------------------------------------------------


def group_sizes(entrants: int, size: int) -> list[int]:
    """Balanced group sizes: as few groups as hold groups of at most ``size``, sizes differing by at most one, the
    larger first."""
    if entrants < 2:
        raise BracketError("A heads-up event needs at least two players")
    if size < 2:
        raise BracketError("A group has at least two players")
    count = -(-entrants // size)
    sizes = [entrants // count + (1 if i < entrants % count else 0) for i in range(count)]
    if sizes[-1] < 2:
        raise BracketError(f"Groups of {size} leave a player alone in a group: choose groups of 3 or more")
    return sizes


def groups(
    entrants: int | Iterable[T], size: int, *, drawn: bool = False, rng: random.Random | None = None
) -> list[list[T]]:
    """The field in balanced groups of at most ``size``: the seeds (or the drawn order) snake across the groups,
    1 to g, then g back to 1, skipping a group that is full. Each group lists its players in seed order."""
    players = _ordered(entrants, drawn=drawn, rng=rng)
    sizes = group_sizes(len(players), size)
    count = len(sizes)
    placed: list[list[T]] = [[] for _ in range(count)]
    queue = iter(players)
    row = 0
    remaining = len(players)
    while remaining:
        indices = range(count) if row % 2 == 0 else range(count - 1, -1, -1)
        for index in indices:
            if remaining and len(placed[index]) < sizes[index]:
                placed[index].append(next(queue))
                remaining -= 1
        row += 1
    return placed


@dataclass(frozen=True)
class RobinRound(Generic[T]):
    """One round of a round robin: its pairs (first named plays as "a") and who sits out (an odd group)."""

    number: int
    pairs: tuple[tuple[T, T], ...]
    bye: T | None


def round_robin(players: Sequence[T]) -> list[RobinRound[T]]:
    """Every pair of ``players`` once, in rounds where nobody plays twice (the circle method: the first player
    stays, the others turn one place each round; an odd field adds a bye, whoever meets it sits out)."""
    field_ = list(players)
    if len(field_) < 2:
        raise BracketError("A group has at least two players")
    if len(set(field_)) != len(field_):
        raise BracketError("A player appears twice in the group")
    slots: list[T | None] = [*field_, None] if len(field_) % 2 else list(field_)
    n = len(slots)
    rounds: list[RobinRound[T]] = []
    for number in range(1, n):
        pairs: list[tuple[T, T]] = []
        bye: T | None = None
        for i in range(n // 2):
            a, b = slots[i], slots[n - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
                continue
            # Alternate the first-named side so nobody is always "a".
            pairs.append((a, b) if (number + i) % 2 else (b, a))
        rounds.append(RobinRound(number=number, pairs=tuple(pairs), bye=bye))
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds


@dataclass(frozen=True)
class Standing(Generic[T]):
    """A player's line in the group's table: matches played, won and lost, and the place in the group."""

    player: T
    played: int
    wins: int
    losses: int
    place: int


def group_table(players: Sequence[T], results: Iterable[tuple[T, T]]) -> list[Standing[T]]:
    """The group's standing from ``results`` ((winner, loser) of each match decided), ``players`` in seed order.

    Most wins first; players level on wins are ordered by their wins in the matches among themselves
    (head-to-head: between two, the winner of their match); still level, the better seed (earlier in ``players``)."""
    seed = {player: i for i, player in enumerate(players)}
    decided = list(results)
    wins = {player: 0 for player in players}
    losses = {player: 0 for player in players}
    for winner, loser in decided:
        if winner not in seed or loser not in seed:
            raise BracketError("A result names a player who is not in the group")
        if winner == loser:
            raise BracketError("A player cannot beat themselves")
        wins[winner] += 1
        losses[loser] += 1
    by_wins: dict[int, list[T]] = {}
    for player in players:
        by_wins.setdefault(wins[player], []).append(player)
    ordered: list[T] = []
    for count in sorted(by_wins, reverse=True):
        tied = by_wins[count]
        among = set(tied)
        head = {player: 0 for player in tied}
        for winner, loser in decided:
            if winner in among and loser in among:
                head[winner] += 1
        ordered.extend(sorted(tied, key=lambda player: (-head[player], seed[player])))
    return [
        Standing(
            player=player, played=wins[player] + losses[player], wins=wins[player], losses=losses[player], place=place
        )
        for place, player in enumerate(ordered, start=1)
    ]


# --- blinds by hands ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BlindsNow:
    """The blinds of the next hand of a match: the level (numbered as the director counts, breaks left out), its
    blinds and ante, which hand of the level it is, the level's length in hands, and whether it is the last level
    (it then lasts until the match is decided)."""

    level_number: int
    level: Level
    hand_in_level: int
    hands_in_level: int
    last: bool


def blinds_at(levels: Sequence[Level], hands: int) -> BlindsNow:
    """The level in force once ``hands`` hands of a match are counted: the next hand's blinds. Breaks are left out
    (a match does not break by hands); after the last level's hands the last level stays.

    >>> from poker_room.pure.structure import LevelKind
    >>> levels = [Level(LevelKind.LEVEL, None, 7, 25, 50), Level(LevelKind.LEVEL, None, 7, 50, 100)]
    >>> [(b.level_number, b.hand_in_level) for b in (blinds_at(levels, h) for h in (0, 6, 7, 9, 14, 20))]
    [(1, 1), (1, 7), (2, 1), (2, 3), (2, 8), (2, 14)]
    """
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 0:
        raise BracketError(f"A match's hands are a whole number from 0, not {hands!r}")
    played = [level for level in levels if not level.is_break]
    if not played:
        raise BracketError("The structure has no level.")
    left = hands
    for index, level in enumerate(played):
        if level.hands is None or level.hands < 1:
            raise BracketError(f"Level {index + 1} lasts minutes: a match's blinds need levels counted in hands")
        last = index == len(played) - 1
        if left < level.hands or last:
            return BlindsNow(
                level_number=index + 1, level=level, hand_in_level=left + 1, hands_in_level=level.hands, last=last
            )
        left -= level.hands
    raise AssertionError(f"unreachable: {hands} hands")  # pragma: no cover
