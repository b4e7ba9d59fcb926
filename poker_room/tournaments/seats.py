"""A tournament's tables as the seating engine (``poker_room.pure.seating``) sees them, and the seat moves it
decides carried out on the entries: each as a ``SeatMove`` row, the final table's redraw as one move of everyone at
once. A player who sits down alone at a table while others play elsewhere is balanced away at once, and the tables a
bust emptied are broken."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterable, Sequence
from typing import TypedDict

from django.db import models

from casino.errors import WrongState
from poker_room.floor import Requester, said
from poker_room.pure.seating import Move, MoveReason, SeatingError, TableSeats, rebalance
from poker_room.tournaments.models import Entry, SeatMove, Tournament, TournamentTable

# A seat move as the audit trail records it: the entry's number, its seat before ([table, seat]; None: it had none),
# its seat after, and why (a ``SeatMove.Reason``). "from" is a Python keyword: the functional form says it.
MoveRecord = TypedDict("MoveRecord", {"entry": int, "from": list[int | None] | None, "to": list[int], "reason": str})


def tables_in_play(tournament: Tournament) -> list[TournamentTable]:
    """The tournament's tables not broken, by number."""
    return list(TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True).order_by("number"))


def table_seats(tournament: Tournament, tables: Sequence[TournamentTable]) -> list[TableSeats[int]]:
    """``tables`` with the active entries sitting at them (seat → entry id) and their buttons."""
    occupied: dict[int, dict[int, int]] = {table.number: {} for table in tables}
    for pk, table_number, seat in Entry.objects.filter(
        tournament=tournament, status=Entry.Status.ACTIVE, table_number__isnull=False
    ).values_list("pk", "table_number", "seat_number"):
        if table_number in occupied and seat is not None:
            occupied[table_number][seat] = pk
    return [TableSeats(table.number, table.seats, occupied[table.number], table.button) for table in tables]


def final_table_and_break_order(tables: Sequence[TournamentTable]) -> tuple[int, list[int]]:
    """The final table (``break_position`` 0: table 1) and the others in the order they break (1 breaks first)."""
    final = next((table.number for table in tables if table.break_position == 0), None)
    if final is None:
        final = min(table.number for table in tables)
    order = sorted(
        (table for table in tables if table.number != final), key=lambda table: (table.break_position, -table.number)
    )
    return final, [table.number for table in order]


_REASONS = {
    MoveReason.DRAW: SeatMove.Reason.DRAW,
    MoveReason.BALANCE: SeatMove.Reason.BALANCE,
    MoveReason.TABLE_BREAK: SeatMove.Reason.TABLE_BREAK,
    MoveReason.FINAL_TABLE: SeatMove.Reason.FINAL_TABLE,
}


def moves_apply(
    *,
    tournament: Tournament,
    moves: Iterable[Move[int]],
    actor: Requester,
    rows: list[models.Model],
    reason: SeatMove.Reason | None = None,
) -> list[MoveRecord]:
    """Carry out ``moves`` (entry ids) in order: each entry's seat changed and a ``SeatMove`` row written.

    A run of final-table moves is one redraw: everyone stands up before anyone sits down, so a seat someone is leaving
    can be drawn by another (the seat's uniqueness is checked by the database at every statement). ``reason``
    overrides the moves' own (an undone bust's return is drawn like a late entry but recorded as ``undo``). Returns
    the moves as the audit trail records them; the rows written (the entries, their seat moves, the redrawn tables)
    are added to ``rows``, for the caller's audit event.
    """
    pending = list(moves)
    entries = Entry.objects.in_bulk([move.player for move in pending])
    user = actor if actor is not None and actor.is_authenticated else None
    records: list[MoveRecord] = []
    i = 0
    while i < len(pending):
        j = i + 1
        if pending[i].reason is MoveReason.FINAL_TABLE:
            while j < len(pending) and pending[j].reason is MoveReason.FINAL_TABLE:
                j += 1
            group = pending[i:j]
            for move in group:
                entry = entries[move.player]
                entry.table_number = entry.seat_number = None
                entry.save(update_fields=["table_number", "seat_number"])
        for move in pending[i:j]:
            entry = entries[move.player]
            entry.table_number, entry.seat_number = move.to_table, move.to_seat
            entry.save(update_fields=["table_number", "seat_number"])
            moved_as = reason or _REASONS[move.reason]
            seat_move = SeatMove.objects.create(
                tournament=tournament,
                entry=entry,
                from_table=move.from_table,
                from_seat=move.from_seat,
                to_table=move.to_table,
                to_seat=move.to_seat,
                reason=moved_as,
                actor=user,
            )
            rows += [entry, seat_move]
            records.append(
                {
                    "entry": entry.number,
                    "from": [move.from_table, move.from_seat] if move.from_table is not None else None,
                    "to": [move.to_table, move.to_seat],
                    "reason": str(moved_as),
                }
            )
        i = j
    if any(move.reason is MoveReason.FINAL_TABLE for move in pending):
        redrawn = TournamentTable.objects.filter(
            tournament=tournament,
            number__in={move.to_table for move in pending if move.reason is MoveReason.FINAL_TABLE},
        )
        redrawn.update(button=None)
        rows += redrawn  # read again after the update: the tables as stored
    return records


def lone_player_balanced(
    tournament: Tournament, table_number: int, *, actor: Requester, rng: random.Random, rows: list[models.Model]
) -> list[MoveRecord]:
    """A player who has just sat down alone at a table (one opened for a late entry or a re-entry, or for a bust
    undone) while others play elsewhere: the floor is balanced at once (``seating.rebalance``, TDA "Balancing
    Tables"), so nobody waits alone at a table for the next bust. The moves as the audit trail records them (none
    when the player does not sit alone); the rows written added to ``rows``."""
    sitting = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE, table_number__isnull=False)
    alone = sitting.filter(table_number=table_number).count() == 1
    if not alone or not sitting.exclude(table_number=table_number).exists():
        return []
    tables = tables_in_play(tournament)
    final, order = final_table_and_break_order(tables)
    try:
        planned = rebalance(table_seats(tournament, tables), break_order=order, final_table=final, rng=rng)
    except SeatingError as error:
        raise WrongState(said(error)) from None
    return moves_apply(tournament=tournament, moves=planned, actor=actor, rows=rows)


def emptied_tables_break(
    tournament: Tournament, now: dt.datetime, *, had_players: Iterable[int], rows: list[models.Model]
) -> list[int]:
    """Mark broken every table but the final one that had players (``had_players``) and has none now; their
    numbers (the tables added to ``rows``). A table nobody was drawn to stays open for late entries."""
    tables = tables_in_play(tournament)
    if not tables:
        return []
    final, _order = final_table_and_break_order(tables)
    sitting = set(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE, table_number__isnull=False)
        .values_list("table_number", flat=True)
        .distinct()
    )
    before = set(had_players)
    emptied = [
        table.number
        for table in tables
        if table.number != final and table.number in before and table.number not in sitting
    ]
    if emptied:
        broken = TournamentTable.objects.filter(tournament=tournament, number__in=emptied)
        broken.update(broken_at=now)
        rows += broken  # read again after the update: the tables as stored
    return emptied
