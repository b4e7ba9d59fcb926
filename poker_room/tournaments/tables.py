"""A tournament's tables: how many (table 1 is the final table, the highest number breaks first), the Dealer
working each, the button, and the chip race a table runs at a colour-up break. Each write locks the tournament's row,
refuses in the director's words what it cannot do (nothing written), and writes the change and its audit event
together; every change a screen shows raises the tournament's version (``poker_room.display.live``)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from casino.models import AuditEvent
from casino.roles import Role, user_has_role
from poker_room.display.live import tournament_changed
from poker_room.floor import (
    MOST_CHIPS,
    Requester,
    entry_name,
    locked_tournament,
    refuse_finished,
    require_runner,
    require_runner_or_table_dealer,
    said,
    system_rng,
    whole,
)
from poker_room.pure.chip_race import ChipRace, chip_race
from poker_room.pure.structure import DEFAULT_CHIPS, Level, StructureError
from poker_room.tournaments.clock_services import clock_now, tournament_levels
from poker_room.tournaments.models import Entry, Tournament, TournamentTable

MOST_TABLES = 50


def table_layout(count: int) -> dict[int, int]:
    """Table number → break position: table 1 is the final table (0), the highest number breaks first (1)."""
    return {number: 0 if number == 1 else count - number + 1 for number in range(1, count + 1)}


def tournament_tables_set(*, actor: Requester, tournament: Tournament, count: int) -> Tournament:
    """Set how many tables the tournament has: table 1 is the final table, the highest number breaks first. A table
    kept keeps its dealer. Once it runs, tables are only added (a late entry or a re-entry with every seat taken needs
    one; the table added breaks first and the balancing fills it), never taken away."""
    require_runner(actor, action="set a tournament's tables")
    count = whole(count, field="count", what=_("The number of tables"), least=1, most=MOST_TABLES)
    with transaction.atomic():
        locked = locked_tournament(tournament)
        refuse_finished(locked)
        before = TournamentTable.objects.filter(tournament=locked).count()
        if locked.status != Tournament.Status.PLANNED and count < before:
            raise WrongState(
                _("%(name)s has started: tables are added to it, never taken away.") % {"name": locked.name},
                extra={"field": "count"},
            )
        going = TournamentTable.objects.filter(tournament=locked, number__gt=count)
        removed = list(going)
        going.delete()
        existing = set(TournamentTable.objects.filter(tournament=locked).values_list("number", flat=True))
        for number, position in table_layout(count).items():
            if number in existing:
                TournamentTable.objects.filter(tournament=locked, number=number).update(
                    break_position=position, seats=locked.table_size
                )
            else:
                TournamentTable.objects.create(
                    tournament=locked, number=number, seats=locked.table_size, break_position=position
                )
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.TOURNAMENT_UPDATED,
            subject=locked,
            before={"tables": before},
            after={"action": "tables", "tables": count},
            rows=TournamentTable.objects.filter(tournament=locked),  # as stored, after the updates
            removed=removed,
        )
        tournament_changed(locked)
    return locked


def _table(tournament: Tournament, table_number: object) -> TournamentTable:
    number = whole(table_number, field="table_number", what=_("The table"), least=1, most=MOST_TABLES)
    table = TournamentTable.objects.filter(tournament=tournament, number=number).first()
    if table is None:
        raise ApplicationError(
            _("%(name)s has no table %(number)s.") % {"name": tournament.name, "number": number},
            extra={"field": "table_number"},
        )
    if table.broken_at is not None:
        raise WrongState(_("Table %(number)s has broken.") % {"number": number}, extra={"field": "table_number"})
    return table


def tournament_table_dealer_set(
    *, actor: Requester, tournament: Tournament, table_number: int, dealer: User | None
) -> TournamentTable:
    """Assign a Dealer to a tournament table (``None``: nobody): they record busts and move the button there."""
    require_runner(actor, action="assign a tournament table's dealer")
    if dealer is not None and not user_has_role(dealer, Role.DEALER):
        raise ApplicationError(
            _("%(user)s is not a Dealer.") % {"user": dealer.get_username()}, extra={"field": "dealer"}
        )
    with transaction.atomic():
        locked = locked_tournament(tournament)
        refuse_finished(locked)
        table = _table(locked, table_number)
        before = table.dealer_id
        table.dealer = dealer
        table.save(update_fields=["dealer"])
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.TOURNAMENT_UPDATED,
            subject=locked,
            before={"table": table.number, "dealer": before},
            after={"action": "dealer", "table": table.number, "dealer": table.dealer_id},
            rows=[table],
        )
        tournament_changed(locked)
    return table


def table_button_set(*, actor: Requester, tournament: Tournament, table_number: int, seat: int) -> TournamentTable:
    """Put the dealer button on a seat of a table (the next big blind, and so balancing, follow from it)."""
    with transaction.atomic():
        locked = locked_tournament(tournament)
        table = _table(locked, table_number)
        require_runner_or_table_dealer(actor, table, action=_("move the button"))
        refuse_finished(locked)
        if locked.status != Tournament.Status.RUNNING:
            raise WrongState(_("%(name)s has not started: the seats are not drawn yet.") % {"name": locked.name})
        seat = whole(seat, field="seat", what=_("The seat"), least=1, most=table.seats)
        before = table.button
        table.button = seat
        table.save(update_fields=["button"])
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.TOURNAMENT_SEATS,
            subject=locked,
            before={"table": table.number, "button": before},
            after={"action": "button", "table": table.number, "button": seat},
            rows=[table],
        )
        tournament_changed(locked)
    return table


def _race_chips(tournament: Tournament, levels: tuple[Level, ...], row: int) -> tuple[int, int]:
    """(the chip coloured up at this break, the smallest chip left in play after it)."""
    chip = levels[row].colour_up
    if chip is None:
        raise WrongState(_("This break colours up no chip: there is no chip race."))
    gone = {level.colour_up for level in levels[: row + 1] if level.is_break and level.colour_up is not None}
    left = sorted(value for value in (tournament.chips or DEFAULT_CHIPS) if value not in gone)
    if not left:
        raise WrongState(_("No chip is left in play after this colour-up."))
    return chip, left[0]


def chip_race_record(
    *,
    actor: Requester,
    tournament: Tournament,
    table_number: int,
    leftovers: Mapping[int, int],
    other_chips: Mapping[int, int] | None = None,
    now: dt.datetime | None = None,
    rng: random.Random | None = None,
) -> ChipRace[int]:
    """Race the odd chips of a table at a colour-up break (``chip_race.chip_race``): ``leftovers`` gives each
    player's chips of the colour that leaves play, by entry number. Every player is taken to hold other chips unless
    ``other_chips`` says what they hold (0: nothing else, so they cannot be raced out). Once a table and break."""
    require_runner(actor, action="run a chip race")
    now = timezone.now() if now is None else now
    with transaction.atomic():
        locked = locked_tournament(tournament)
        refuse_finished(locked)
        if locked.status != Tournament.Status.RUNNING:
            raise WrongState(_("%(name)s has not started: there is no colour-up yet.") % {"name": locked.name})
        table = _table(locked, table_number)
        levels = tournament_levels(locked)
        row = clock_now(locked, now).level
        if not levels[row].is_break:
            raise WrongState(_("A chip race is run at a break that colours up a chip."))
        old_value, new_value = _race_chips(locked, levels, row)
        raced = AuditEvent.objects.filter(
            subject_type="poker_room.tournament",
            subject_id=str(locked.pk),
            event_type=AuditEventType.TOURNAMENT_UPDATED,
            after__action="chip_race",
            after__table=table.number,
            after__row=row + 1,
        ).exists()
        if raced:
            raise WrongState(
                _("Table %(number)s has raced its %(chip)s chips at this break already.")
                % {"number": table.number, "chip": old_value}
            )
        sitting = {
            entry.number: entry
            for entry in Entry.objects.filter(tournament=locked, status=Entry.Status.ACTIVE, table_number=table.number)
        }
        strangers = sorted(number for number in leftovers if number not in sitting)
        if strangers:
            raise ApplicationError(
                _("Entry #%(number)s does not sit at table %(table)s.")
                % {"number": strangers[0], "table": table.number},
                extra={"field": "leftovers"},
            )
        in_seat_order = sorted(leftovers, key=lambda number: sitting[number].seat_number or 0)
        counts = {
            number: whole(leftovers[number], field="leftovers", what=entry_name(sitting[number]), most=MOST_CHIPS)
            for number in in_seat_order
        }
        others = {number: 1 for number in counts}
        others.update({number: value for number, value in (other_chips or {}).items() if number in counts})
        try:
            race = chip_race(
                counts, old_value=old_value, new_value=new_value, rng=rng or system_rng(), other_chips=others
            )
        except StructureError as error:
            raise ApplicationError(said(error), extra={"field": "leftovers"}) from None
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.TOURNAMENT_UPDATED,
            subject=locked,
            after={
                "action": "chip_race",
                "table": table.number,
                "row": row + 1,
                "old_value": old_value,
                "new_value": new_value,
                "leftovers": {str(number): count for number, count in counts.items()},
                "cards": {str(number): list(cards) for number, cards in race.cards.items()},
                "chips_after": {str(number): chips for number, chips in race.chips_after.items()},
                "saved": list(race.saved),
            },
        )
        tournament_changed(locked)
    return race
