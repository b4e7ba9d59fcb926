"""Seats in a tournament: the draw, late entries, balancing, breaking tables and the final table.

GAME_RULES.md §5 "Balancing", after the Tournament Directors Association (TDA) Poker Tournament Rules:

* **The draw** (TDA "Random, Correct Seating"): players are spread as evenly as the tables allow (tables within
  one player of each other) and every player draws a random seat. Late entries draw a random empty seat at a
  table with the fewest players (TDA "Alternates, Late Registrants and Re-Entries"; the dealer deals them in
  anywhere except between the small blind and the button, a dealing matter this module leaves to the dealer).
* **Balancing** (TDA "Balancing Tables and Halting Play", Rule 10 of 2019, Rule 11 of 2022): the house keeps
  tables within one player (GAME_RULES §5, tighter than the TDA's three). The player who would be big blind next
  at the long table moves to the *worst position* at the short table: the seat that posts the big blind soonest,
  "including a single big blind if available, even if that means the seat is the big blind twice; worst position
  is never the small blind".
* **Breaking tables** (TDA "Breaking Tables"): tables break in a pre-set order; the broken table's players draw
  random empty seats at the other tables (the fewest-players tables first, so the rest stay balanced).
* **The final table is redrawn**: once every player left fits at the final table, everyone draws a seat there.

Player keys are any hashable value (the services use entry ids). Seats are numbered 1..size clockwise; the
button is the seat of the dealer button (``None``: not yet placed). Randomness is passed in (``rng``).

>>> import random
>>> moves = seats_draw(list(range(20)), tables=[(1, 10), (2, 10)], rng=random.Random(7))
>>> sorted(sum(1 for m in moves if m.to_table == t) for t in (1, 2))
[10, 10]
>>> next_big_blind(TableSeats(number=1, size=9, occupied={1: "a", 3: "b", 4: "c", 7: "d"}, button=3))
1
>>> worst_position(TableSeats(number=1, size=9, occupied={1: "a", 3: "b", 4: "c", 7: "d"}, button=3))
8
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class SeatingError(ValueError):
    """A seating request the floor cannot carry out: more players than seats, a seat taken twice, a stray table."""


class MoveReason(StrEnum):
    DRAW = "draw"
    BALANCE = "balance"
    TABLE_BREAK = "table_break"
    FINAL_TABLE = "final_table"


@dataclass(frozen=True)
class TableSeats(Generic[K]):
    """One tournament table: its seats 1..``size``, who sits where (seat → player) and the button's seat."""

    number: int
    size: int
    occupied: Mapping[int, K] = field(default_factory=dict)
    button: int | None = None

    def __post_init__(self) -> None:
        if self.size < 1:
            raise SeatingError(f"Table {self.number} needs at least one seat, not {self.size}.")
        for seat in self.occupied:
            if not 1 <= seat <= self.size:
                raise SeatingError(f"Table {self.number} has seats 1 to {self.size}: there is no seat {seat}.")
        if self.button is not None and not 1 <= self.button <= self.size:
            raise SeatingError(
                f"Table {self.number} has seats 1 to {self.size}: the button cannot be on seat {self.button}."
            )
        players = list(self.occupied.values())
        if len(set(players)) != len(players):
            raise SeatingError(f"A player sits twice at table {self.number}.")
        # A read-only copy: a frozen table cannot change under its reader.
        object.__setattr__(self, "occupied", MappingProxyType(dict(sorted(self.occupied.items()))))

    @property
    def count(self) -> int:
        return len(self.occupied)

    @property
    def empty_seats(self) -> tuple[int, ...]:
        return tuple(seat for seat in range(1, self.size + 1) if seat not in self.occupied)

    def seat_of(self, player: K) -> int | None:
        for seat, sitting in self.occupied.items():
            if sitting == player:
                return seat
        return None


@dataclass(frozen=True)
class Move(Generic[K]):
    """One seat change for the floor to carry out (``from_table`` ``None``: a player taking a first seat)."""

    player: K
    from_table: int | None
    from_seat: int | None
    to_table: int
    to_seat: int
    reason: MoveReason


# --- the draw -------------------------------------------------------------------------------------------------


def seats_draw(players: Sequence[K], *, tables: Sequence[tuple[int, int]], rng: random.Random) -> list[Move[K]]:
    """The random seat draw: ``players`` spread over ``tables`` (number, size) as evenly as the seats allow.

    Each player in turn takes a place at the table with the fewest players that still has a free seat (ties: the
    table listed first), so equal tables end within one player (20 on two tables of 10: 10/10; 21 on three: 7/7/7).
    Then each table's places are random seats, and the players draw them in random order, like cards from a deck
    of seat cards. One move per player, in the order the players were given.
    """
    _distinct_players(players)
    numbers = [number for number, _ in tables]
    if len(set(numbers)) != len(numbers):
        raise SeatingError("A table number appears twice in the draw.")
    sizes = dict(tables)
    for number, size in tables:
        if size < 1:
            raise SeatingError(f"Table {number} needs at least one seat, not {size}.")
    if len(players) > sum(sizes.values()):
        raise SeatingError(f"{len(players)} players do not fit in {sum(sizes.values())} seats.")
    counts = dict.fromkeys(numbers, 0)
    for _ in players:
        open_tables = [n for n in numbers if counts[n] < sizes[n]]
        counts[min(open_tables, key=lambda n: counts[n])] += 1
    deck = [(number, seat) for number in numbers for seat in rng.sample(range(1, sizes[number] + 1), counts[number])]
    rng.shuffle(deck)
    return [
        Move(player, None, None, table, seat, MoveReason.DRAW)
        for player, (table, seat) in zip(players, deck, strict=True)
    ]


def seat_late_entry(tables: Sequence[TableSeats[K]], player: K, rng: random.Random) -> Move[K]:
    """A late entry (or a re-entry) draws a random empty seat at a table with the fewest players.

    Only tables in play (with players) and a free seat count; an empty table passed in (one the room has just
    opened) takes the player only when every table in play is full. Ties between tables: the seat is drawn from
    all their empty seats together.
    """
    _check_tables(tables)
    if any(table.seat_of(player) is not None for table in tables):
        raise SeatingError(f"{player} already has a seat.")
    with_room = [table for table in tables if table.empty_seats]
    if not with_room:
        raise SeatingError("Every seat is taken: open another table first.")
    in_play = [table for table in with_room if table.count] or with_room
    fewest = min(table.count for table in in_play)
    seats = [(table.number, seat) for table in in_play if table.count == fewest for seat in table.empty_seats]
    table_number, seat = rng.choice(seats)
    return Move(player, None, None, table_number, seat, MoveReason.DRAW)


# --- positions ------------------------------------------------------------------------------------------------


def _clockwise_after(table: TableSeats[K], seat: int) -> list[int]:
    """The occupied seats clockwise after ``seat``, ending with ``seat`` itself if it is occupied."""
    seats = list(table.occupied)
    return [s for s in seats if s > seat] + [s for s in seats if s <= seat]


def _button(table: TableSeats[K]) -> int:
    return table.button if table.button is not None else min(table.occupied)


def next_big_blind(table: TableSeats[K]) -> int | None:
    """The occupied seat that posts the big blind next hand (``None`` with fewer than two players).

    ``button`` is the button of the hand just played (with no button placed yet, it is taken to be on the lowest
    occupied seat). The blinds of that hand sat on the first two occupied seats clockwise after the button; next
    hand the button moves on one player, the last big blind posts the small blind and the big blind is the third
    occupied seat after the button. Heads-up the button posts the small blind (the usual heads-up convention):
    next hand's button and small blind is the first occupied seat after the button, and its big blind the
    second. A busted player's seat is simply empty; the dealer's finer dead-button points stay with the dealer.

    >>> table = TableSeats(number=1, size=9, occupied={2: "a", 5: "b", 6: "c", 9: "d"}, button=5)
    >>> next_big_blind(table)  # next hand: button 6, small blind 9, big blind 2
    2
    >>> next_big_blind(TableSeats(number=1, size=9, occupied={2: "a", 5: "b"}, button=5))  # heads-up: 2 button, 5 BB
    5
    """
    if table.count < 2:
        return None
    order = _clockwise_after(table, _button(table))
    return order[1] if table.count == 2 else order[2]


def next_small_blind(table: TableSeats[K]) -> int | None:
    """The occupied seat that posts the small blind next hand (heads-up: the button); ``None`` with no player."""
    if table.count == 0:
        return None
    order = _clockwise_after(table, _button(table))
    return order[0] if table.count <= 2 else order[1]


def worst_position(table: TableSeats[K]) -> int:
    """The empty seat where a player moved in posts the big blind soonest without skipping it.

    TDA "Balancing Tables": the moved player takes the worst position, "including a single big blind if
    available, even if that means the seat is the big blind twice. Worst position is never the small blind."
    The big blind moves forward one player a hand, from the seat that posts the small blind next hand
    (``next_small_blind``) to the first player after it: a player seated in the first empty seat clockwise
    after next hand's small blind is next hand's big blind (a "single big blind": the player who would have
    posted it posts it a hand later). With no empty seat there the search goes on clockwise, round to the seats
    between the button and the small blind last (a player seated there is dealt in once the button has passed,
    TDA). A table with no player: the first empty seat after the button (seat 1 without a button).

    >>> worst_position(TableSeats(number=1, size=9, occupied={2: "a", 5: "b", 6: "c", 9: "d"}, button=5))
    1
    """
    empty = table.empty_seats
    if not empty:
        raise SeatingError(f"Table {table.number} is full: no seat for a player moved in.")
    small_blind = next_small_blind(table)
    start = small_blind if small_blind is not None else (table.button or 0)
    after = [seat for seat in empty if seat > start]
    return after[0] if after else empty[0]


# --- balancing, breaking and the final table ------------------------------------------------------------------


class _Floor(Generic[K]):
    """A working copy of the tables that records every move it makes (rebalance's scratch pad)."""

    def __init__(self, tables: Sequence[TableSeats[K]]) -> None:
        self.sizes = {table.number: table.size for table in tables}
        self.buttons = {table.number: table.button for table in tables}
        self.seats: dict[int, dict[int, K]] = {table.number: dict(table.occupied) for table in tables}
        self.moves: list[Move[K]] = []

    def table(self, number: int) -> TableSeats[K]:
        return TableSeats(number, self.sizes[number], self.seats[number], self.buttons[number])

    def count(self, number: int) -> int:
        return len(self.seats[number])

    def has_room(self, number: int) -> bool:
        return self.count(number) < self.sizes[number]

    def empty_seats(self, number: int) -> list[int]:
        return [seat for seat in range(1, self.sizes[number] + 1) if seat not in self.seats[number]]

    def move(self, from_table: int, from_seat: int, to_table: int, to_seat: int, reason: MoveReason) -> None:
        player = self.seats[from_table].pop(from_seat)
        self.seats[to_table][to_seat] = player
        self.moves.append(Move(player, from_table, from_seat, to_table, to_seat, reason))


def rebalance(
    tables: Sequence[TableSeats[K]], *, break_order: Sequence[int], final_table: int, rng: random.Random
) -> list[Move[K]]:
    """Everything the floor must do after a bust, in the order to do it (GAME_RULES §5, the TDA rules).

    ``tables`` are the tables not yet broken; a table with no player is not in play and receives nobody (except
    the final table at the redraw). ``break_order`` lists the tables in the order they break; every table in play
    except ``final_table`` must be in it.

    1. **Final table**: once the players left fit at the final table (at most its size) and they are not all
       sitting there already, every player draws a random seat at the final table (reason ``final_table``), the
       players at the final table included. Nothing else happens.
    2. **Break**: while the players left fit at the tables in play without the next table in ``break_order``
       that still has players, that table breaks: its players, in random order, each draw a random empty seat
       at the tables with the fewest players (reason ``table_break``).
    3. **Balance**: while the longest table has two players or more than the shortest with a free seat, the
       player who would be big blind next at the longest (ties: the lowest number) moves to the worst position
       of the shortest (ties: the lowest number) (reason ``balance``).

    Applied in order (``apply_moves``), the moves leave tables of one size within one player of each other, and
    asking again at once gives no move.
    """
    _check_tables(tables)
    by_number = {table.number: table for table in tables}
    if final_table not in by_number:
        raise SeatingError(f"The final table {final_table} is not among the tables.")
    if len(set(break_order)) != len(break_order):
        raise SeatingError("A table appears twice in the break order.")
    if final_table in break_order:
        raise SeatingError(f"The final table {final_table} never breaks: take it out of the break order.")
    for table in tables:
        if table.count and table.number != final_table and table.number not in break_order:
            raise SeatingError(f"Table {table.number} has no place in the break order.")

    floor = _Floor(tables)
    in_play = [table.number for table in tables if table.count]
    players = sum(floor.count(number) for number in in_play)
    if not in_play:
        return []

    if players <= floor.sizes[final_table] and in_play != [final_table]:
        return _final_table_redraw(floor, in_play, final_table, rng)

    while True:
        breaking = next((number for number in break_order if number in in_play), None)
        if breaking is None:
            break
        others = [number for number in in_play if number != breaking]
        if not others or players > sum(floor.sizes[number] for number in others):
            break
        _break_table(floor, breaking, others, rng)
        in_play = others

    while True:
        longest = min(in_play, key=lambda number: (-floor.count(number), number))
        with_room = [number for number in in_play if floor.has_room(number)]
        if not with_room:
            break
        shortest = min(with_room, key=lambda number: (floor.count(number), number))
        if floor.count(longest) - floor.count(shortest) < 2:
            break
        mover = next_big_blind(floor.table(longest))
        assert mover is not None  # the longest table has two players or more here
        floor.move(longest, mover, shortest, worst_position(floor.table(shortest)), MoveReason.BALANCE)
    return floor.moves


def _final_table_redraw(floor: _Floor[K], in_play: list[int], final_table: int, rng: random.Random) -> list[Move[K]]:
    sitting = [(number, seat) for number in in_play for seat in sorted(floor.seats[number])]
    seats = rng.sample(range(1, floor.sizes[final_table] + 1), len(sitting))
    return [
        Move(floor.seats[number][seat], number, seat, final_table, to_seat, MoveReason.FINAL_TABLE)
        for (number, seat), to_seat in zip(sitting, seats, strict=True)
    ]


def _break_table(floor: _Floor[K], breaking: int, others: list[int], rng: random.Random) -> None:
    leaving = sorted(floor.seats[breaking])
    rng.shuffle(leaving)
    for from_seat in leaving:
        with_room = [number for number in others if floor.has_room(number)]
        fewest = min(floor.count(number) for number in with_room)
        seats = [
            (number, seat)
            for number in with_room
            if floor.count(number) == fewest
            for seat in floor.empty_seats(number)
        ]
        to_table, to_seat = rng.choice(seats)
        floor.move(breaking, from_seat, to_table, to_seat, MoveReason.TABLE_BREAK)


def apply_moves(tables: Sequence[TableSeats[K]], moves: Iterable[Move[K]]) -> list[TableSeats[K]]:
    """The tables after ``moves``, applied in order as the floor carries them out.

    Each move takes the player from the seat the move names (the player must be sitting there; a move with no
    ``from_table`` seats a player who has no seat yet) to the seat it names, which must be empty by then. A run of
    ``final_table`` moves is one redraw: every player stands up, then everyone sits down at the drawn seat, and
    the final table's button is cleared (``None``: the button is placed anew at the final table). Buttons
    otherwise stay where they are. The tables come back in the order given.
    """
    _check_tables(tables)
    sizes = {table.number: table.size for table in tables}
    buttons = {table.number: table.button for table in tables}
    seats: dict[int, dict[int, K]] = {table.number: dict(table.occupied) for table in tables}

    def stand_up(move: Move[K]) -> None:
        if move.from_table is None or move.from_seat is None:
            if move.from_table is not None or move.from_seat is not None:
                raise SeatingError(f"The move of {move.player} names a table without a seat or a seat without a table.")
            for table_seats in seats.values():
                if move.player in table_seats.values():
                    raise SeatingError(f"{move.player} already has a seat.")
            return
        if move.from_table not in seats:
            raise SeatingError(f"There is no table {move.from_table}.")
        if seats[move.from_table].get(move.from_seat) != move.player:
            raise SeatingError(f"{move.player} is not at table {move.from_table}, seat {move.from_seat}.")
        del seats[move.from_table][move.from_seat]

    def sit_down(move: Move[K]) -> None:
        if move.to_table not in seats:
            raise SeatingError(f"There is no table {move.to_table}.")
        if not 1 <= move.to_seat <= sizes[move.to_table]:
            raise SeatingError(f"Table {move.to_table} has seats 1 to {sizes[move.to_table]}: no seat {move.to_seat}.")
        if move.to_seat in seats[move.to_table]:
            raise SeatingError(f"Table {move.to_table}, seat {move.to_seat} is taken.")
        seats[move.to_table][move.to_seat] = move.player

    pending = list(moves)
    i = 0
    while i < len(pending):
        if pending[i].reason is MoveReason.FINAL_TABLE:
            j = i
            while j < len(pending) and pending[j].reason is MoveReason.FINAL_TABLE:
                j += 1
            redraw = pending[i:j]
            if len({move.player for move in redraw}) != len(redraw):
                raise SeatingError("A player draws twice at the final table.")
            for move in redraw:
                stand_up(move)
            for move in redraw:
                sit_down(move)
                buttons[move.to_table] = None
            i = j
        else:
            stand_up(pending[i])
            sit_down(pending[i])
            i += 1
    return [TableSeats(table.number, table.size, seats[table.number], buttons[table.number]) for table in tables]


# --- checks ---------------------------------------------------------------------------------------------------


def _distinct_players(players: Sequence[K]) -> None:
    seen: set[K] = set()
    for player in players:
        if player in seen:
            raise SeatingError(f"{player} appears twice in the draw.")
        seen.add(player)


def _check_tables(tables: Sequence[TableSeats[K]]) -> None:
    numbers = [table.number for table in tables]
    if len(set(numbers)) != len(numbers):
        raise SeatingError("A table number appears twice.")
    seen: dict[K, int] = {}
    for table in tables:
        for player in table.occupied.values():
            if player in seen:
                raise SeatingError(f"{player} sits at table {seen[player]} and at table {table.number}.")
            seen[player] = table.number
