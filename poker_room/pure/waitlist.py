"""The card room's waitlist rules: who is called to which table, who moves from a must-move table to the main game,
when a called player is a no-show, and how a name is shown on a public screen. No Django, no clock: the moments are
given.

A cash game (a points game at stakes) has one main table and any number of must-move tables feeding it. A seat that
opens at the main game goes first to the player seated longest at a must-move table (the card rooms' must-move rule:
the must-move game exists to keep the main game full); a waiting name fills the main game's open seat only when
nobody is waiting to move, and a must-move table's once the main game is full.

>>> main = TableSeats(table=1, must_move=False, seats=4, held=3)
>>> feeder = TableSeats(table=2, must_move=True, seats=4, held=2, movers=2)
>>> call_to((main, feeder))
CallTo(table=None, move_first=True)
>>> call_to((TableSeats(table=1, must_move=False, seats=4, held=4), feeder))
CallTo(table=2, move_first=False)
>>> initials("Jo  van der Lee")
'J. L.'
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TableSeats:
    """A table of a cash game: its seats and how many are held (a player seated, or one called to it)."""

    table: int
    must_move: bool
    seats: int
    held: int
    movers: int = 0  # must-move tables only: players seated there (each one waiting for the main game)

    @property
    def free(self) -> int:
        return max(self.seats - self.held, 0)


@dataclass(frozen=True)
class CallTo:
    """Where the next name on the list is called: ``table`` (None: no seat for a name), and whether a player must
    first move from a must-move table to the main game's open seat."""

    table: int | None
    move_first: bool


def call_to(tables: Sequence[TableSeats]) -> CallTo:
    """The table the next waiting name is called to.

    The main game's open seat belongs to the must-move players first (``move_first``); with nobody to move, a name
    is called to the main game's open seat, else to the first must-move table with one (in the order given), else
    nowhere.
    """
    main = [table for table in tables if not table.must_move]
    feeders = [table for table in tables if table.must_move]
    movers = sum(table.movers for table in feeders)
    open_main = next((table for table in main if table.free), None)
    if open_main is not None:
        return CallTo(table=None, move_first=True) if movers else CallTo(table=open_main.table, move_first=False)
    for table in feeders:
        if table.free:
            return CallTo(table=table.table, move_first=False)
    return CallTo(table=None, move_first=False)


def first_to_move(seated: Sequence[tuple[int, dt.datetime]]) -> int | None:
    """Of the players seated at the must-move tables (``(id, seated since)``), the one who moves to the main game
    next: seated longest (the earliest moment; on a tie, the one put on the list first: the smaller id)."""
    if not seated:
        return None
    return min(seated, key=lambda pair: (pair[1], pair[0]))[0]


def no_show(called_at: dt.datetime, now: dt.datetime, minutes: int) -> bool:
    """Whether a player called at ``called_at`` and not seated is a no-show at ``now``: ``minutes`` have passed."""
    return now - called_at >= dt.timedelta(minutes=minutes)


def initials(name: str) -> str:
    """A name as a public screen shows it: the initials of its first and last words ("Jo van der Lee" → "J. L."),
    one word's alone ("Cher" → "C."), "?" for a name with no letter. Never more of the name than that."""
    words = ["".join(ch for ch in word if ch.isalpha()) for word in name.split()]
    words = [word for word in words if word]
    if not words:
        return "?"
    picked = words if len(words) == 1 else [words[0], words[-1]]
    return " ".join(f"{word[0].upper()}." for word in picked)
