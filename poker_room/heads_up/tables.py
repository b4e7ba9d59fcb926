"""Tables for the matches of a heads-up event: free tables given, in order, to the matches that can start, and each
player of a match holding a table seated at it (side a seat 1, side b seat 2), every other player still in at no
table; each new seat recorded as a ``SeatMove``."""

from __future__ import annotations

from typing import TypedDict

from django.contrib.auth.models import User
from django.db import models

from poker_room.heads_up.models import Match
from poker_room.tournaments.models import Entry, SeatMove, Tournament
from poker_room.tournaments.seats import tables_in_play


class TableGiven(TypedDict):
    """A table given to a match, as the audit trail records it."""

    match: int
    table: int


def tables_assign(tournament: Tournament, actor: User, rows: list[models.Model]) -> list[TableGiven]:
    """Give free tables to the matches that can start, in order, and seat each player at their match's table.

    Startable: both players known, not decided, and (knock-out) every earlier round of the stage decided; (groups) no
    player of it busy in another match holding a table. Returns the tables given, as the audit trail records them;
    the rows written (the matches, the entries, their seat moves) are added to ``rows``."""
    matches = list(
        Match.objects.select_for_update()
        .filter(tournament=tournament)
        .exclude(status=Match.Status.DECIDED)
        .order_by("stage", "round", "group", "number")
    )
    held = {match.table_number for match in matches if match.table_number is not None}
    busy = {
        entry for match in matches if match.table_number is not None for entry in (match.entry_a_id, match.entry_b_id)
    }
    free = [table.number for table in tables_in_play(tournament) if table.number not in held]
    knockout_open = min((match.round for match in matches if match.stage == Match.Stage.KNOCKOUT), default=None)
    given: list[TableGiven] = []
    # Group matches first (the knock-out of the winners exists only once the groups are over), then the knock-out.
    for match in sorted(matches, key=lambda m: (m.stage != Match.Stage.GROUP, m.round, m.group or 0, m.number)):
        if not free:
            break
        if match.status != Match.Status.READY or match.table_number is not None:
            continue
        if match.stage == Match.Stage.KNOCKOUT and match.round != knockout_open:
            continue
        if match.entry_a_id in busy or match.entry_b_id in busy:
            continue
        table = free.pop(0)
        match.table_number = table
        match.save(update_fields=["table_number"])
        rows.append(match)
        busy.update((match.entry_a_id, match.entry_b_id))
        given.append({"match": match.pk, "table": table})
    _seats_sync(tournament, actor, rows)
    return given


def _seats_sync(tournament: Tournament, actor: User, rows: list[models.Model]) -> None:
    """Each player of a match holding a table in its seat (side a seat 1, side b seat 2), every other player still
    in at no table; each new seat recorded as a ``SeatMove`` (everyone moving stands up before anyone sits down)."""
    wanted: dict[int, tuple[int, int]] = {}
    for table, a, b in (
        Match.objects.filter(tournament=tournament, table_number__isnull=False)
        .exclude(status=Match.Status.DECIDED)
        .values_list("table_number", "entry_a_id", "entry_b_id")
    ):
        if table is None:  # left out by the query: the type does not know it
            continue
        wanted[a] = (table, 1)
        wanted[b] = (table, 2)
    active = list(Entry.objects.select_for_update().filter(tournament=tournament, status=Entry.Status.ACTIVE))
    moving = [
        entry for entry in active if (entry.table_number, entry.seat_number) != wanted.get(entry.pk, (None, None))
    ]
    for entry in moving:
        if entry.table_number is not None:
            entry.table_number = entry.seat_number = None
            entry.save(update_fields=["table_number", "seat_number"])
            rows.append(entry)
    before = {entry.pk: (entry.table_number, entry.seat_number) for entry in active}
    for entry in moving:
        if entry.pk not in wanted:
            continue
        table, seat = wanted[entry.pk]
        entry.table_number, entry.seat_number = table, seat
        entry.save(update_fields=["table_number", "seat_number"])
        from_table, from_seat = before[entry.pk]
        seat_move = SeatMove.objects.create(
            tournament=tournament,
            entry=entry,
            from_table=from_table,
            from_seat=from_seat,
            to_table=table,
            to_seat=seat,
            reason=SeatMove.Reason.DRAW,
            actor=actor,
        )
        rows += [entry, seat_move]
