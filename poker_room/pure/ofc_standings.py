"""Open-Face Chinese Poker points tournaments, the pure part (GAME_RULES.md §4 and §5): a hand's result as
the engine scores it, the standings with their tie-break, and the tables drawn for a round.

The event is played in points, not chips: rounds of a fixed number of hands ("3 × 15 hands"), each hand scored by
``rules.games.ofc.score`` (the Mainz scoring and royalties by default), the tables redrawn at random between rounds.

**Standings** (a club's order, deterministic): the total points; then the points of the last round played (the form
at the end, as a club breaks a tie in a points event by the last round); then the most scoops (rows won 3-0 against
one opponent); then the fewest fouled boards; then by lot, drawn once when the tournament finishes and kept in its
record. Players still tied after the fewest fouls share a rank until the lot is drawn (``tied``).

**Tables** for ``n`` players at tables of at most ``most`` (2 to 4) seats: as few tables as seat everyone, their
sizes as even as possible, the larger first (8 at 4 → 4/4; 9 → 3/3/3; 10 → 4/3/3; 5 → 3/2); never a player alone.

>>> table_sizes(10, 4)
(4, 3, 3)
>>> result = hand_result({1: ("Qs Qd 4c", "9c 9h 7d 7s 2h", "Ac Ad Ah 3s 3d"),
...                       2: ("Ks Kd 5c", "Jc Th 8d 7c 2d", "As 6d 6c 6h 4s")})
>>> result.points, result.royalties, sorted(result.fouls)
({1: 19, 2: -19}, {1: 13, 2: 0}, [2])
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from rules.games.ofc import Board, score

MOST_SEATS: Final = 4  # an Open-Face table seats two to four players (seed)
LEAST_SEATS: Final = 2
ROWS: Final = ("front", "middle", "back")

TIE_BREAKS: Final = ("points", "last_round", "scoops", "fouls", "lot")


class OfcStandingsError(ValueError):
    """A draw or a result the rules do not allow, in the director's words."""


# --- one hand ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandResult:
    """One hand at one table as scored: each player's points (zero-sum), royalties earned, scoops won (opponents
    beaten in all three rows), rows won less rows lost, and the fouled boards. Players are entry numbers."""

    points: Mapping[int, int]
    royalties: Mapping[int, int]
    scoops: Mapping[int, int]
    rows: Mapping[int, int]
    fouls: frozenset[int]
    round: int = 0
    table: int = 0
    hand: int = 0


def hand_result(
    boards: Mapping[int, Sequence[str]], *, royalties: str = "mainz", round: int = 0, table: int = 0, hand: int = 0
) -> HandResult:
    """Score one hand's finished boards (entry number → front, middle, back as card text) with the engine.

    The engine refuses (``rules.games.errors.InvalidHand``, a ``ValueError``) a board that is not 3, 5 and 5 cards,
    a card twice, fewer than two or more than four players; a fouled board is scored, not refused.
    """
    built = {str(entry): Board.from_rows(*rows) for entry, rows in boards.items()}
    sheet = score(built, royalties=royalties)
    players = [int(player) for player in built]
    scoops = dict.fromkeys(players, 0)
    rows_won = dict.fromkeys(players, 0)
    for (player, _opponent), pair in sheet.pairs.items():
        if pair.scoop > 0:
            scoops[int(player)] += 1
        rows_won[int(player)] += pair.row_points
    return HandResult(
        points={int(player): total for player, total in sheet.totals.items()},
        royalties={int(player): earned for player, earned in sheet.royalties.items()},
        scoops=scoops,
        rows=rows_won,
        fouls=frozenset(int(player) for player in sheet.fouls),
        round=round,
        table=table,
        hand=hand,
    )


# --- the standings ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One entry's line: its rank (shared while tied), its points by round and in all, and the tie-break figures."""

    entry: int
    rank: int
    total: int
    by_round: tuple[int, ...]
    last_round: int
    scoops: int
    fouls: int
    royalties: int
    hands: int
    lot: int | None = None
    tied: bool = False  # level with another on every tie-break but the lot, and no lot drawn yet
    key: tuple[int, ...] = field(default=(), repr=False)


def standings(
    entries: Iterable[int],
    hands: Iterable[HandResult],
    *,
    rounds: int,
    last_round: int | None = None,
    lots: Mapping[int, int] | None = None,
) -> tuple[Standing, ...]:
    """Every entry ranked (best first): total points, then the points of ``last_round`` (the latest round with a
    hand played, if not given), then scoops (more), then fouls (fewer), then the lot (lower first). Entries level on
    all of these but the lot share a rank; without a lot they are listed by entry number.

    >>> a = HandResult(points={1: 6, 2: -6}, royalties={1: 0, 2: 0}, scoops={1: 1, 2: 0}, rows={1: 3, 2: -3},
    ...                fouls=frozenset(), round=1)
    >>> b = HandResult(points={1: -6, 2: 6}, royalties={1: 0, 2: 0}, scoops={1: 0, 2: 1}, rows={1: -3, 2: 3},
    ...                fouls=frozenset(), round=2)
    >>> [(s.entry, s.rank, s.total, s.by_round) for s in standings([1, 2], [a, b], rounds=2)]
    [(2, 1, 0, (-6, 6)), (1, 2, 0, (6, -6))]
    """
    if rounds < 1:
        raise OfcStandingsError("An Open-Face tournament plays at least one round.")
    results = list(hands)
    numbers = sorted(set(entries))
    for result in results:
        if not 1 <= result.round <= rounds:
            raise OfcStandingsError(f"A hand of round {result.round} in a tournament of {rounds} rounds.")
    if last_round is None:
        last_round = max((result.round for result in results), default=0)
    by_round = {entry: [0] * rounds for entry in numbers}
    scoops = dict.fromkeys(numbers, 0)
    fouls = dict.fromkeys(numbers, 0)
    earned = dict.fromkeys(numbers, 0)
    played = dict.fromkeys(numbers, 0)
    for result in results:
        for entry, points in result.points.items():
            if entry not in by_round:
                raise OfcStandingsError(f"Entry #{entry} scored a hand but is not in the tournament.")
            by_round[entry][result.round - 1] += points
            scoops[entry] += result.scoops.get(entry, 0)
            earned[entry] += result.royalties.get(entry, 0)
            fouls[entry] += entry in result.fouls
            played[entry] += 1
    chosen_lots = dict(lots or {})

    def tie_key(entry: int) -> tuple[int, ...]:
        last = by_round[entry][last_round - 1] if last_round else 0
        return (-sum(by_round[entry]), -last, -scoops[entry], fouls[entry])

    ordered = sorted(numbers, key=lambda entry: (tie_key(entry), chosen_lots.get(entry, 0), entry))
    lines: list[Standing] = []
    for position, entry in enumerate(ordered, start=1):
        key = (*tie_key(entry), chosen_lots.get(entry, 0))
        same = [other for other in ordered if tie_key(other) == tie_key(entry)]
        tied = len(same) > 1 and len({chosen_lots.get(other) for other in same}) < len(same)
        rank = position
        if lines and lines[-1].key == key:
            rank = lines[-1].rank
        lines.append(
            Standing(
                entry=entry,
                rank=rank,
                total=sum(by_round[entry]),
                by_round=tuple(by_round[entry]),
                last_round=by_round[entry][last_round - 1] if last_round else 0,
                scoops=scoops[entry],
                fouls=fouls[entry],
                royalties=earned[entry],
                hands=played[entry],
                lot=chosen_lots.get(entry),
                tied=tied,
                key=key,
            )
        )
    return tuple(lines)


def ties(lines: Sequence[Standing]) -> list[list[int]]:
    """The groups of entries level on every tie-break but the lot (each group best first by entry number)."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for line in lines:
        groups.setdefault(line.key[:-1], []).append(line.entry)
    return [sorted(group) for group in groups.values() if len(group) > 1]


def lots_draw(lines: Sequence[Standing], rng: random.Random) -> dict[int, int]:
    """A lot for every entry in a tie (1 is drawn first and ranks first), drawn at random group by group."""
    lots: dict[int, int] = {}
    for group in ties(lines):
        order = list(group)
        rng.shuffle(order)
        lots.update({entry: number for number, entry in enumerate(order, start=1)})
    return lots


# --- the tables of a round ------------------------------------------------------------------------------------------


def table_sizes(players: int, most: int = MOST_SEATS) -> tuple[int, ...]:
    """How many players sit at each table: as few tables as seat everyone at ``most`` a table (2 to 4), sizes as
    even as possible, the larger tables first; never a table of one.

    >>> table_sizes(8, 4), table_sizes(9, 4), table_sizes(5, 4), table_sizes(7, 3)
    ((4, 4), (3, 3, 3), (3, 2), (3, 2, 2))
    >>> table_sizes(5, 2)
    Traceback (most recent call last):
    ...
    poker_room.pure.ofc_standings.OfcStandingsError: 5 players do not make tables of 2: one would play alone.
    """
    if not LEAST_SEATS <= most <= MOST_SEATS:
        raise OfcStandingsError(f"An Open-Face table seats {LEAST_SEATS} to {MOST_SEATS} players, not {most}.")
    if players < LEAST_SEATS:
        raise OfcStandingsError(f"An Open-Face round needs at least {LEAST_SEATS} players, not {players}.")
    count = -(-players // most)
    base, extra = divmod(players, count)
    sizes = (base + 1,) * extra + (base,) * (count - extra)
    if min(sizes) < LEAST_SEATS:
        raise OfcStandingsError(f"{players} players do not make tables of {most}: one would play alone.")
    return sizes


def round_draw(players: Sequence[int], *, most: int, rng: random.Random) -> dict[int, tuple[int, int]]:
    """The tables drawn at random for a round: player → (table, seat), tables numbered from 1 with
    ``table_sizes`` players each, seats 1 to the table's size.

    >>> draw = round_draw([1, 2, 3, 4, 5], most=4, rng=random.Random(1))
    >>> sorted(draw.values())
    [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2)]
    """
    if len(set(players)) != len(players):
        raise OfcStandingsError("A player draws twice.")
    sizes = table_sizes(len(players), most)
    places = [(table, seat) for table, size in enumerate(sizes, start=1) for seat in range(1, size + 1)]
    order = list(players)
    rng.shuffle(order)
    return dict(zip(order, places, strict=True))


def fits(seating: Mapping[int, tuple[int, int]], *, most: int) -> bool:
    """Whether a seating (player → (table, seat)) already is an Open-Face layout: the table sizes ``table_sizes``
    gives for that many players, in any order of tables."""
    try:
        wanted = sorted(table_sizes(len(seating), most))
    except OfcStandingsError:
        return False
    counts: dict[int, int] = {}
    for table, _seat in seating.values():
        counts[table] = counts.get(table, 0) + 1
    return sorted(counts.values()) == wanted
