"""What the poker room's writes share (issue 18): who may act, the locked tournament, its tables as
``poker_room.pure.seating`` sees them, and carrying out the seat moves it decides.

* **Who**: the tournament director and the floor's supervisors run a tournament (``casino.roles.TOURNAMENT_RUNNERS``);
  the Dealer assigned to a tournament table (``TournamentTable.dealer``) may also record a bust and move the button
  at that table (the dealer's tablet), nowhere else; an Auditor reads and never acts. ``None`` is the system.
* **Seats**: the seating engine works on ``TableSeats`` keyed by entry id; its ``Move`` values are carried out here
  on the entries, each as a ``SeatMove`` row, the final table's redraw as one move of everyone at once.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.roles import TOURNAMENT_RUNNERS, Role, require_role, user_has_role
from poker_room.models import Entry, SeatMove, Tournament, TournamentTable
from poker_room.pure.seating import Move, MoveReason, SeatingError, TableSeats, rebalance

User = AbstractBaseUser | AnonymousUser | None

MOST_CENTS = 10**12  # ten billion in money: beyond it, a key was held down
MOST_CHIPS = 10**9  # a billion chips: the stack and chip columns hold up to 2**31 - 1
MOST_TEXT = 120


def system_rng() -> random.Random:
    """The seat draws' and the chip races' randomness: the operating system's (a test passes its own)."""
    return random.SystemRandom()


# --- who may act ------------------------------------------------------------------------------------------------


def require_runner(actor: User, *, action: str) -> None:
    """Refuse ``action`` (``NotAllowed``) unless the actor runs tournaments: the director or a supervisor."""
    require_role(actor, *TOURNAMENT_RUNNERS, action=action)


def is_runner(actor: User) -> bool:
    return actor is None or bool(getattr(actor, "is_superuser", False)) or user_has_role(actor, *TOURNAMENT_RUNNERS)


def can_act_at_tournament_table(actor: User, table: TournamentTable | None) -> bool:
    """Whether ``actor`` may record what happens at ``table``: whoever runs the tournament, or the table's dealer."""
    if is_runner(actor):
        return True
    return (
        table is not None
        and actor is not None
        and user_has_role(actor, Role.DEALER)
        and table.dealer_id is not None
        and table.dealer_id == actor.pk
    )


def require_runner_or_table_dealer(actor: User, table: TournamentTable | None, *, action: str) -> None:
    """Refuse ``action`` at ``table`` unless ``can_act_at_tournament_table``: a dealer at another table (or at none)
    is told whose table it is, anyone else which roles may."""
    if can_act_at_tournament_table(actor, table):
        return
    if actor is not None and user_has_role(actor, Role.DEALER):
        if table is None:
            raise NotAllowed(
                _("Only the tournament director, a supervisor or the dealer of the player's table may %(action)s.")
                % {"action": action}
            )
        raise NotAllowed(
            _("Table %(table)s is not your table: only its dealer or the tournament director may %(action)s.")
            % {"table": table.number, "action": action},
            extra={"table": table.number},
        )
    require_role(actor, *TOURNAMENT_RUNNERS, Role.DEALER, action=action)


# --- the tournament under its lock --------------------------------------------------------------------------------


def locked_tournament(tournament: Tournament) -> Tournament:
    """The tournament's row, locked for the rest of the transaction (every write to a tournament takes it first)."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def refuse_finished(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise WrongState(_("%(name)s has finished: its results are final.") % {"name": tournament.name})


def refuse_pool_final(tournament: Tournament) -> None:
    """Nothing that changes the prize pool once it is final (the first paid bust)."""
    if tournament.pool_locked_at is not None:
        raise WrongState(_("The prize pool is final; the money has started."))


def entry_of(tournament: Tournament, entry: Entry | int, *, lock: bool = True) -> Entry:
    """The tournament's entry (by row or id), locked; refused if it belongs to another tournament."""
    pk = entry if isinstance(entry, int) else entry.pk
    rows = Entry.objects.select_for_update() if lock else Entry.objects.all()
    found = rows.filter(pk=pk, tournament_id=tournament.pk).first()
    if found is None:
        raise ApplicationError(
            _("That entry is not in %(name)s.") % {"name": tournament.name}, extra={"field": "entry"}
        )
    return found


def entry_name(entry: Entry) -> str:
    """How the director names an entry: "#7 Anna"."""
    return f"#{entry.number} {entry.name}"


def said(error: ValueError) -> str:
    """A refusal of the pure rules (structure, payouts, seating, the clock, the chip race) in the user's language:
    the fixed ones are in the catalogue (``poker_room.pure_messages``); one built from figures stays as said."""
    return _(str(error))


def ordinal(number: int) -> str:
    """A place as the director says it: 1st, 2nd, 3rd, 11th, 12th, 21st (in German 1., 2., 3.: each form is
    translated)."""
    if 10 <= number % 100 <= 20:
        return _("%(number)sth") % {"number": number}
    forms = {1: _("%(number)sst"), 2: _("%(number)snd"), 3: _("%(number)srd")}
    return forms.get(number % 10, _("%(number)sth")) % {"number": number}


def entry_record(entry: Entry) -> dict[str, Any]:
    """An entry as the audit trail names it: its number and player id, never a name (issue 17's privacy rule)."""
    return {"entry": entry.number, "player": entry.player_id}


# --- input --------------------------------------------------------------------------------------------------------


def whole(value: object, *, field: str, what: str, least: int = 0, most: int = MOST_CENTS) -> int:
    """A whole number from ``least`` to ``most``, or a refusal naming the field."""
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise ApplicationError(
            _("%(what)s is a whole number from %(least)s to %(most)s, not %(value)s.")
            % {"what": what, "least": least, "most": most, "value": repr(value)},
            extra={"field": field},
        )
    return value


def text(value: object, *, field: str, what: str, most: int = MOST_TEXT, required: bool = False) -> str:
    """Text with its runs of white space made single, at most ``most`` characters (and not empty if required)."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ApplicationError(
            _("%(what)s is text, not %(value)s.") % {"what": what, "value": repr(value)}, extra={"field": field}
        )
    cleaned = " ".join(value.split())
    if len(cleaned) > most:
        raise ApplicationError(
            _("%(what)s is at most %(most)s characters.") % {"what": what, "most": most}, extra={"field": field}
        )
    if required and not cleaned:
        raise ApplicationError(_("%(what)s is required.") % {"what": what}, extra={"field": field})
    return cleaned


def undo_reason(value: object, *, missing: str) -> str:
    """Why something is undone or voided (at most 500 characters): ``missing`` is the refusal when it is not said."""
    why = text(value, field="reason", what=_("The reason"), most=500)
    if not why:
        raise ApplicationError(missing, extra={"field": "reason"})
    return why


# --- the tables as the seating engine sees them -------------------------------------------------------------------


def tables_in_play(tournament: Tournament) -> list[TournamentTable]:
    """The tournament's tables not broken, by number."""
    return list(TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True).order_by("number"))


def table_seats(tournament: Tournament, tables: Sequence[TournamentTable]) -> list[TableSeats[int]]:
    """``tables`` with the active entries sitting at them (seat → entry id) and their buttons."""
    occupied: dict[int, dict[int, int]] = {table.number: {} for table in tables}
    for pk, table_number, seat in Entry.objects.filter(
        tournament=tournament, status=Entry.Status.ACTIVE, table_number__isnull=False
    ).values_list("pk", "table_number", "seat_number"):
        if table_number in occupied:
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
    actor: User,
    reason: SeatMove.Reason | None = None,
) -> list[dict[str, Any]]:
    """Carry out ``moves`` (entry ids) in order: each entry's seat changed and a ``SeatMove`` row written.

    A run of final-table moves is one redraw: everyone stands up before anyone sits down, so a seat someone is leaving
    can be drawn by another (the seat's uniqueness is checked by the database at every statement). ``reason``
    overrides the moves' own (an undone bust's return is drawn like a late entry but recorded as ``undo``). Returns
    the moves as the audit trail records them.
    """
    pending = list(moves)
    entries = Entry.objects.in_bulk([move.player for move in pending])
    user = actor if actor is not None and actor.is_authenticated else None
    records: list[dict[str, Any]] = []
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
            SeatMove.objects.create(
                tournament=tournament,
                entry=entry,
                from_table=move.from_table,
                from_seat=move.from_seat,
                to_table=move.to_table,
                to_seat=move.to_seat,
                reason=moved_as,
                actor=user,
            )
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
        TournamentTable.objects.filter(
            tournament=tournament,
            number__in={move.to_table for move in pending if move.reason is MoveReason.FINAL_TABLE},
        ).update(button=None)
    return records


def lone_player_balanced(
    tournament: Tournament, table_number: int, *, actor: User, rng: random.Random
) -> list[dict[str, Any]]:
    """A player who has just sat down alone at a table (one opened for a late entry or a re-entry, or for a bust
    undone) while others play elsewhere: the floor is balanced at once (``seating.rebalance``, TDA "Balancing
    Tables"), so nobody waits alone at a table for the next bust. The moves as the audit trail records them (none
    when the player does not sit alone)."""
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
    return moves_apply(tournament=tournament, moves=planned, actor=actor)


def emptied_tables_break(tournament: Tournament, now: dt.datetime, *, had_players: Iterable[int]) -> list[int]:
    """Mark broken every table but the final one that had players (``had_players``) and has none now; their
    numbers. A table nobody was drawn to stays open for late entries."""
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
        TournamentTable.objects.filter(tournament=tournament, number__in=emptied).update(broken_at=now)
    return emptied


def person(actor: User, *, what: str) -> AbstractBaseUser:
    """The person acting: the rows of a tournament name who wrote them, so the system (``None``) cannot."""
    if actor is None or not actor.is_authenticated:
        raise NotAllowed(_("%(what)s is done by a person.") % {"what": what})
    return actor  # type: ignore[return-value]
