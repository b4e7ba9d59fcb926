"""Reads for the dealer's tournament table (``poker_room.tournaments.table_views``): its seats, the players still
in elsewhere, the seat changes to act on and where the button goes next; and the tournament tables a dealer is put on
(the dealer's home page lists them)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q
from django.utils import timezone

from poker_room.tournaments.models import Elimination, Entry, SeatMove, Tournament, TournamentTable
from poker_room.tournaments.page_selectors import MoveLine, TableLine, safe_levels, table_lines
from poker_room.tournaments.selectors import Board, tournament_board

MOST_MOVES = 30  # on the tablet: a table's draw and then some


@dataclass(frozen=True)
class DealerTable:
    """A tournament table on the dealer's tablet: its seats, the players still in elsewhere (for "who knocked them
    out"), and the seat changes touching it since the last bust or hand (what the dealer needs to act on)."""

    tournament: Tournament
    board: Board
    table: TableLine
    moves: list[MoveLine]
    since: dt.datetime | None
    others: list[Entry]
    next_button: int | None
    hands_counted: bool

    @property
    def bounties(self) -> bool:
        return self.tournament.bounty_kind != Tournament.BountyKind.NONE


def next_button_seat(line: TableLine) -> int | None:
    """The seat the button moves to after a hand: the next occupied seat clockwise (the first occupied seat when
    no button is placed yet); None at an empty table."""
    occupied = [seat.seat for seat in line.seats if seat.entry is not None]
    if not occupied:
        return None
    button = line.table.button
    if button is None:
        return occupied[0]
    later = [seat for seat in occupied if seat > button]
    return later[0] if later else occupied[0]


def dealer_table(tournament: Tournament, number: int, *, now: dt.datetime | None = None) -> DealerTable | None:
    """The tablet's view of table ``number`` (None: the tournament has no such table).

    The seat changes shown are those touching this table (a player leaving it or arriving) made since the latest bust
    recorded in the tournament or the latest change of the clock's hand count, whichever came last; with no bust yet,
    every move since the start (the draw and the late entries). A balance follows a bust, so the moves a bust caused
    stay on the screen until the next bust or hand, which is when the dealer has seated them.
    """
    now = timezone.now() if now is None else now
    board = tournament_board(tournament, now=now)
    active = list(Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).select_related("player"))
    lines = {line.table.number: line for line in table_lines(tournament, active)}
    line = lines.get(number)
    if line is None:
        return None
    # The moves a bust causes are written after it, in its transaction: from its instant on.
    since = (
        Elimination.objects.filter(tournament=tournament, status=Elimination.Status.IN_FORCE)
        .order_by("-pk")
        .values_list("created_at", flat=True)
        .first()
    )
    found = SeatMove.objects.filter(tournament=tournament).filter(Q(to_table=number) | Q(from_table=number))
    if since is not None:
        found = found.filter(created_at__gte=since)
    moves = [MoveLine(move, move.entry) for move in found.select_related("entry").order_by("-pk")[:MOST_MOVES]]
    levels = safe_levels(tournament)
    level = levels[board.clock.level] if board.clock is not None and levels else None
    return DealerTable(
        tournament=tournament,
        board=board,
        table=line,
        moves=moves,
        since=since,
        others=sorted((e for e in active if e.table_number != number), key=lambda e: e.number),
        next_button=next_button_seat(line),
        hands_counted=level is not None and level.hands is not None,
    )


def dealer_tournament_tables(user: User | AnonymousUser) -> list[TournamentTable]:
    """The tournament tables of running or planned tournaments the user deals (the dealer's home page lists them;
    one query)."""
    if not user.is_authenticated:
        return []
    return list(
        TournamentTable.objects.filter(
            dealer_id=user.pk,
            broken_at__isnull=True,
            tournament__status__in=(Tournament.Status.PLANNED, Tournament.Status.RUNNING),
        )
        .select_related("tournament")
        .order_by("tournament__name", "number")
    )
