"""Reads of the card room's cash games: the desk's lists (names, calls, tables and seats) and the room display's
(initials only: a public screen never shows a name).

One bad row breaks only its own line: an entry the code cannot read is shown as a problem in its list, never as a
500 for the desk or the screen.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

from poker_room.pure.waitlist import TableSeats, call_to, initials, no_show
from poker_room.waitlist.models import CashGame, CashTable, WaitlistEntry
from poker_room.waitlist.services import HOLDING, STILL_ON, no_show_minutes
from tables.models import Table


@dataclass(frozen=True)
class EntryLine:
    id: int
    position: int | None  # on the list (waiting names only), 1 first
    name: str
    initials: str
    rated: bool
    source: str
    status: str
    status_label: str
    put_down_at: dt.datetime | None
    called_at: dt.datetime | None
    table: str
    seat: int | None
    since: dt.datetime | None  # at this table since (seated)
    overdue: bool  # called, and the minutes allowed have passed
    problem: str


@dataclass(frozen=True)
class TableLine:
    id: int
    name: str
    must_move: bool
    dealing: bool  # open, and on the list
    seats: int
    seated: tuple[EntryLine, ...]
    called: int


@dataclass(frozen=True)
class CashGameLine:
    id: int
    game: str
    game_label: str
    points_cents: int
    waiting: tuple[EntryLine, ...]
    called: tuple[EntryLine, ...]
    tables: tuple[TableLine, ...]
    next_move: str  # "move" when the main game's open seat goes to a must-move player, "call", or ""
    problem: str


def _entry_line(entry: WaitlistEntry, *, position: int | None, now: dt.datetime, minutes: int) -> EntryLine:
    try:
        return EntryLine(
            id=entry.pk,
            position=position,
            name=entry.name,
            initials=initials(entry.name),
            rated=entry.player_id is not None,
            source=entry.source,
            status=entry.status,
            status_label=str(entry.get_status_display()),
            put_down_at=entry.put_down_at,
            called_at=entry.called_at,
            table=entry.table.table.name if entry.table is not None else "",
            seat=entry.seat_number,
            since=entry.table_since,
            overdue=entry.status == WaitlistEntry.Status.CALLED
            and entry.called_at is not None
            and no_show(entry.called_at, now, minutes),
            problem="",
        )
    except (TypeError, ValueError, AttributeError) as error:
        return EntryLine(
            id=entry.pk,
            position=position,
            name="",
            initials="?",
            rated=False,
            source="",
            status="",
            status_label="",
            put_down_at=None,
            called_at=None,
            table="",
            seat=None,
            since=None,
            overdue=False,
            problem=_("This name's row cannot be read (%(error)s).") % {"error": type(error).__name__},
        )


def _game_line(game: CashGame, entries: list[WaitlistEntry], tables: list[CashTable], now: dt.datetime) -> CashGameLine:
    minutes = no_show_minutes()
    waiting = [entry for entry in entries if entry.status == WaitlistEntry.Status.WAITING]
    waiting.sort(key=lambda entry: (entry.put_down_at, entry.pk))
    called = sorted(
        (entry for entry in entries if entry.status == WaitlistEntry.Status.CALLED),
        key=lambda entry: (entry.called_at or now, entry.pk),
    )
    table_lines = []
    seats = []
    for table in tables:
        here = [entry for entry in entries if entry.table_id == table.pk and entry.status in HOLDING]
        # A must-move table in the order its players move (seated longest first); the main game by seat.
        sitting = sorted(
            (entry for entry in here if entry.status == WaitlistEntry.Status.SEATED),
            key=lambda entry: (entry.table_since or now, entry.pk) if table.must_move else (entry.seat_number or 0, 0),
        )
        dealing = table.table.status == Table.Status.OPEN
        table_lines.append(
            TableLine(
                id=table.pk,
                name=table.table.name,
                must_move=table.must_move,
                dealing=dealing,
                seats=table.table.seat_count,
                seated=tuple(_entry_line(entry, position=None, now=now, minutes=minutes) for entry in sitting),
                called=len(here) - len(sitting),
            )
        )
        if dealing:
            seats.append(
                TableSeats(
                    table=table.pk,
                    must_move=table.must_move,
                    seats=table.table.seat_count,
                    held=len(here),
                    movers=len(sitting) if table.must_move else 0,
                )
            )
    where = call_to(sorted(seats, key=lambda s: (not s.must_move, s.table)))
    next_move = "move" if where.move_first else ("call" if where.table is not None and waiting else "")
    return CashGameLine(
        id=game.pk,
        game=game.game,
        game_label=str(game.get_game_display()),
        points_cents=game.points_cents,
        waiting=tuple(_entry_line(entry, position=i, now=now, minutes=minutes) for i, entry in enumerate(waiting, 1)),
        called=tuple(_entry_line(entry, position=None, now=now, minutes=minutes) for entry in called),
        tables=tuple(sorted(table_lines, key=lambda line: (line.must_move, line.id))),
        next_move=next_move,
        problem="",
    )


def cash_games_open() -> list[CashGameLine]:
    """Every open list with its names still on (waiting, called, seated) and its tables: three queries."""
    now = timezone.now()
    games = list(CashGame.objects.filter(closed_at__isnull=True).order_by("game", "points_cents", "pk"))
    entries = list(
        WaitlistEntry.objects.filter(cash_game__in=games, status__in=STILL_ON).select_related("table__table")
    )
    tables = list(CashTable.objects.filter(cash_game__in=games, removed_at__isnull=True).select_related("table"))
    lines = []
    for game in games:
        try:
            lines.append(
                _game_line(
                    game,
                    [entry for entry in entries if entry.cash_game_id == game.pk],
                    [table for table in tables if table.cash_game_id == game.pk],
                    now,
                )
            )
        except (TypeError, ValueError, AttributeError) as error:
            lines.append(
                CashGameLine(
                    id=game.pk,
                    game=game.game,
                    game_label=game.game,
                    points_cents=game.points_cents,
                    waiting=(),
                    called=(),
                    tables=(),
                    next_move="",
                    problem=_("This list cannot be read (%(error)s).") % {"error": type(error).__name__},
                )
            )
    return lines


def cash_game_line(game: CashGame) -> CashGameLine:
    """One list as the desk sees it (the API's answer after a write)."""
    for line in cash_games_open():
        if line.id == game.pk:
            return line
    return CashGameLine(
        id=game.pk,
        game=game.game,
        game_label=str(game.get_game_display()),
        points_cents=game.points_cents,
        waiting=(),
        called=(),
        tables=(),
        next_move="",
        problem="",
    )
