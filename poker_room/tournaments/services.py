"""Writes on a tournament (GAME_RULES.md §5): a tournament made from a template, its settings, structure and payout
table, and the start (the seat draw and the clock). Each locks the tournament's row, refuses in the director's words
what it cannot do (nothing written), and writes the change and its audit event together; every change a screen shows
raises the tournament's version (``poker_room.display.live``).

The tables, their dealers, the button and the chip race are ``poker_room.tournaments.tables``; the players' side is
``poker_room.tournaments.entries`` (registration, re-entry, rebuys, add-ons) and ``poker_room.tournaments.eliminations``
(a player out, a bust undone). Their services are named here too, so callers find every write of a tournament in one
place. The clock's writes are ``poker_room.tournaments.clock_services``.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import models, transaction
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from poker_room.display.live import tournament_changed
from poker_room.floor import (
    MOST_CHIPS,
    Requester,
    locked_tournament,
    person,
    refuse_finished,
    refuse_pool_final,
    require_runner,
    said,
    system_rng,
    text,
    whole,
)
from poker_room.pure.payouts import PayoutError, bands_as_json, bands_from_json
from poker_room.pure.seating import SeatingError, seats_draw
from poker_room.pure.structure import (
    DEFAULT_CHIPS,
    MAX_LEVELS,
    Level,
    StructureError,
    structure_as_dicts,
    structure_check,
    structure_from_dicts,
)
from poker_room.pure.templates_data import DEFAULT_POINTS_STACK, UnknownTemplate, template, template_structure
from poker_room.tournaments.clock_services import clock_now, clock_start, level_number, tournament_levels
from poker_room.tournaments.eliminations import elimination_undo, entry_eliminate
from poker_room.tournaments.entries import entry_addon, entry_rebuy, entry_reenter, entry_register
from poker_room.tournaments.models import Entry, Tournament, TournamentTable
from poker_room.tournaments.seats import MoveRecord, final_table_and_break_order, moves_apply
from poker_room.tournaments.tables import (
    MOST_TABLES,
    chip_race_record,
    table_button_set,
    table_layout,
    tournament_table_dealer_set,
    tournament_tables_set,
)
from rules.games.ofc import ROYALTY_TABLES

__all__ = [
    "chip_race_record",
    "elimination_undo",
    "entry_addon",
    "entry_eliminate",
    "entry_rebuy",
    "entry_reenter",
    "entry_register",
    "table_button_set",
    "tournament_create",
    "tournament_payouts_set",
    "tournament_settings_set",
    "tournament_start",
    "tournament_structure_set",
    "tournament_table_dealer_set",
    "tournament_tables_set",
]

# What an entrant pays and gets: fixed once the tournament has started (the database's guard on ``Tournament`` too).
MONEY_FIELDS = (
    "starting_stack",
    "buy_in_cents",
    "fee_cents",
    "bounty_kind",
    "bounty_cents",
    "rebuy_cents",
    "rebuy_fee_cents",
    "rebuy_chips",
    "addon_cents",
    "addon_fee_cents",
    "addon_chips",
    "guarantee_cents",
)
_CENTS = (
    "buy_in_cents",
    "fee_cents",
    "bounty_cents",
    "rebuy_cents",
    "rebuy_fee_cents",
    "addon_cents",
    "addon_fee_cents",
    "guarantee_cents",
    "min_cash_cents",
)
_LEVELS = ("late_registration_level", "reentries_max", "rebuys_max", "rebuy_until_level")
_CHIPS = ("rebuy_chips", "addon_chips")
# What kind of event it is (chips, heads-up, Open-Face points) and how a heads-up or Open-Face event runs.
FORMAT_FIELDS = (
    "format",
    "heads_up_mode",
    "groups_up_to",
    "group_size",
    "seeding",
    "ofc_rounds",
    "ofc_hands_per_round",
    "ofc_royalties",
)
SETTINGS = (
    "name",
    *_LEVELS,
    *_CENTS,
    *_CHIPS,
    "starting_stack",
    "payout_unit_cents",
    "bounty_kind",
    "table_size",
    *FORMAT_FIELDS,
)
# Before the start only: the tables' seats are set, and the draw uses them; the format decides how it is drawn.
_BEFORE_START = (*MONEY_FIELDS, "table_size", *FORMAT_FIELDS)
_CHOICES: dict[str, type[models.TextChoices]] = {
    "format": Tournament.Format,
    "heads_up_mode": Tournament.HeadsUpMode,
    "seeding": Tournament.Seeding,
}
OFC_NO_BOUNTY = gettext_noop("An Open-Face points event knocks nobody out: it has no bounty.")
OFC_TABLE_SIZE = (2, 4)  # an Open-Face table seats two to four (GAME_RULES.md §4)
# The payouts' rounding and minimum: fixed with the prize pool.
_WITH_THE_POOL = ("payout_unit_cents", "min_cash_cents")


def _label(field: str) -> str:
    found = Tournament._meta.get_field(field)
    return str(found.verbose_name if isinstance(found, models.Field) else field)


def _settings_record(tournament: Tournament) -> dict[str, Any]:
    return {field: getattr(tournament, field) for field in SETTINGS}


def _audit(
    actor: Requester, tournament: Tournament, event: AuditEventType, *, rows: list[models.Model], **after: Any
) -> None:
    audit_event_record(actor=actor, event_type=event, subject=tournament, after=after, rows=rows)


# --- a tournament and its settings --------------------------------------------------------------------------------


def tournament_create(
    *,
    actor: Requester,
    template_key: str,
    name: str | None = None,
    buy_in_cents: int,
    fee_cents: int,
    bounty_cents: int = 0,
    tables: int = 2,
    starts_at: dt.datetime | None = None,
    format: str | None = None,  # noqa: A002 - the model's field
) -> Tournament:
    """A tournament from one of the seed's templates: its game(s), rules line, stack, table size and a generated
    structure (the director edits it); a knock-out event (or any event given a bounty) pays fixed bounties. The
    format is the template's (MSOP Heads Up plays heads-up) unless given: an Open-Face points event seats four."""
    require_runner(actor, action="create a tournament")
    who = person(actor, what=_("Creating a tournament"))
    try:
        chosen = template(template_key)
    except UnknownTemplate as error:
        raise ApplicationError(said(error), extra={"field": "template_key"}) from None
    title = text(name, field="name", what=_("The name")) or chosen.name
    buy_in = whole(buy_in_cents, field="buy_in_cents", what=_("The buy-in"))
    fee = whole(fee_cents, field="fee_cents", what=_("The fee"))
    bounty = whole(bounty_cents, field="bounty_cents", what=_("The bounty"))
    count = whole(tables, field="tables", what=_("The number of tables"), least=1, most=MOST_TABLES)
    if starts_at is not None and not isinstance(starts_at, dt.datetime):
        raise ApplicationError(_("The start is a date and time."), extra={"field": "starts_at"})
    if chosen.knockout and not bounty:
        raise ApplicationError(
            _("%(name)s is a knock-out: set the bounty.") % {"name": title}, extra={"field": "bounty_cents"}
        )
    kind = _choice("format", format or (Tournament.Format.HEADS_UP if chosen.heads_up else Tournament.Format.CHIPS))
    if kind == Tournament.Format.OFC_POINTS and bounty:
        raise ApplicationError(_(OFC_NO_BOUNTY), extra={"field": "bounty_cents"})
    seats = OFC_TABLE_SIZE[1] if kind == Tournament.Format.OFC_POINTS else chosen.table_size
    levels = template_structure(chosen)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=title,
            template_key=chosen.key,
            games=list(chosen.games),
            rules=chosen.rules,
            starts_at=starts_at,
            starting_stack=chosen.starting_stack or DEFAULT_POINTS_STACK,
            buy_in_cents=buy_in,
            fee_cents=fee,
            bounty_kind=Tournament.BountyKind.FIXED if bounty else Tournament.BountyKind.NONE,
            bounty_cents=bounty,
            levels=structure_as_dicts(levels),
            chips=list(DEFAULT_CHIPS),
            table_size=seats,
            format=kind,
            created_by=who,
        )
        tables_made = TournamentTable.objects.bulk_create(
            TournamentTable(tournament=tournament, number=number, seats=seats, break_position=position)
            for number, position in table_layout(count).items()
        )
        _audit(
            who,
            tournament,
            AuditEventType.TOURNAMENT_CREATED,
            rows=[tournament, *tables_made],
            template=chosen.key,
            tables=count,
            levels=len(levels),
            **_settings_record(tournament),
        )
        tournament_changed(tournament)
    return tournament


def _choice(field: str, value: object) -> str:
    """One of the choices of ``field`` (``_CHOICES``), or a refusal naming them."""
    choices = _CHOICES[field]
    if not isinstance(value, str) or value not in choices.values:
        raise ApplicationError(
            _("%(setting)s is one of %(kinds)s, not %(value)s.")
            % {
                "setting": capfirst(_label(field)),
                "kinds": ", ".join(str(label) for label in choices.labels),
                "value": repr(value),
            },
            extra={"field": field},
        )
    return value


def _setting(field: str, value: object) -> object:
    what = capfirst(_label(field))
    if field == "name":
        return text(value, field=field, what=what, required=True)
    if field in _CHOICES:
        return _choice(field, value)
    if field == "ofc_royalties":
        if value not in ROYALTY_TABLES:
            raise ApplicationError(
                _("The royalties are one of %(tables)s, not %(value)s.")
                % {"tables": ", ".join(sorted(ROYALTY_TABLES)), "value": repr(value)},
                extra={"field": field},
            )
        return value
    if field in ("groups_up_to", "ofc_rounds", "ofc_hands_per_round"):
        return whole(value, field=field, what=what, least=1, most=1000)
    if field == "group_size":
        return whole(value, field=field, what=what, least=3, most=16)
    if field == "bounty_kind":
        if value not in Tournament.BountyKind.values:
            raise ApplicationError(
                _("The bounty is one of %(kinds)s, not %(value)s.")
                % {"kinds": ", ".join(Tournament.BountyKind.values), "value": repr(value)},
                extra={"field": field},
            )
        return value
    if field in _LEVELS:
        return whole(value, field=field, what=what, most=MAX_LEVELS)
    if field == "table_size":
        return whole(value, field=field, what=what, least=2, most=10)
    if field == "starting_stack":
        return whole(value, field=field, what=what, least=1, most=MOST_CHIPS)
    if field in _CHIPS:
        return whole(value, field=field, what=what, most=MOST_CHIPS)
    if field == "payout_unit_cents":
        return whole(value, field=field, what=what, least=1, most=MOST_CHIPS)  # an integer column, as the chips
    return whole(value, field=field, what=what)


def tournament_settings_set(*, actor: Requester, tournament: Tournament, **fields: object) -> Tournament:
    """Change the tournament's settings (``SETTINGS``). What an entrant pays and gets, and the table size, only before
    the start; the payouts' rounding and minimum cash only until the prize pool is final; nothing once finished."""
    require_runner(actor, action="change a tournament's settings")
    unknown = sorted(set(fields) - set(SETTINGS))
    if unknown:
        raise ApplicationError(
            _("Unknown setting: %(fields)s.") % {"fields": ", ".join(unknown)}, extra={"field": unknown[0]}
        )
    with transaction.atomic():
        locked = locked_tournament(tournament)
        refuse_finished(locked)
        changes = {field: _setting(field, value) for field, value in fields.items()}
        changes = {field: value for field, value in changes.items() if getattr(locked, field) != value}
        if not changes:
            return locked
        started = locked.status != Tournament.Status.PLANNED
        for field in changes:
            if started and field in _BEFORE_START:
                raise WrongState(
                    _("%(setting)s cannot change once %(name)s has started.")
                    % {"setting": capfirst(_label(field)), "name": locked.name},
                    extra={"field": field},
                )
            if field in _WITH_THE_POOL:
                refuse_pool_final(locked)
        if locked.format == Tournament.Format.OFC_POINTS or changes.get("format") == Tournament.Format.OFC_POINTS:
            seats = changes.get("table_size", locked.table_size)
            if not (isinstance(seats, int) and OFC_TABLE_SIZE[0] <= seats <= OFC_TABLE_SIZE[1]):
                if "table_size" in changes:
                    raise ApplicationError(_("An Open-Face table seats 2 to 4 players."), extra={"field": "table_size"})
                changes["table_size"] = OFC_TABLE_SIZE[1]  # switched to Open-Face: four a table
        before = {field: getattr(locked, field) for field in changes}
        for field, value in changes.items():
            setattr(locked, field, value)
        if locked.bounty_kind == Tournament.BountyKind.NONE and locked.bounty_cents:
            raise ApplicationError(
                _("A bounty of %(cents)s cents needs a bounty kind: fixed or progressive.")
                % {"cents": locked.bounty_cents},
                extra={"field": "bounty_kind"},
            )
        if locked.bounty_kind != Tournament.BountyKind.NONE and not locked.bounty_cents:
            raise ApplicationError(_("A knock-out needs its bounty: set it."), extra={"field": "bounty_cents"})
        if locked.format == Tournament.Format.OFC_POINTS and locked.bounty_kind != Tournament.BountyKind.NONE:
            raise ApplicationError(_(OFC_NO_BOUNTY), extra={"field": "bounty_kind"})
        if (
            "bounty_kind" in changes
            and locked.bounty_kind == Tournament.BountyKind.NONE
            and Entry.objects.filter(tournament=locked, bounty_cents__gt=0).exists()
        ):
            # Their bounties are in the ledger: without a bounty kind nobody would ever be paid them.
            raise WrongState(
                _("Players have paid their bounty for %(name)s already: it stays a knock-out.") % {"name": locked.name},
                extra={"field": "bounty_kind"},
            )
        locked.save(update_fields=list(changes))
        written: list[models.Model] = [locked]
        if "table_size" in changes:
            tables = TournamentTable.objects.filter(tournament=locked)
            tables.update(seats=locked.table_size)
            written += tables  # read again after the update: the tables as stored
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.TOURNAMENT_UPDATED,
            subject=locked,
            before=before,
            after={"action": "settings", **changes},
            rows=written,
        )
        tournament_changed(locked)
    return locked


def _row_name(levels: tuple[Level, ...], row: int) -> str:
    number = level_number(levels, row)
    if levels[row].is_break:
        return _("the break after level %(level)s") % {"level": number}
    return _("level %(level)s") % {"level": number}


def tournament_structure_set(
    *,
    actor: Requester,
    tournament: Tournament,
    levels: Sequence[Mapping[str, object]],
    chips: list[int] | None = None,
    now: dt.datetime | None = None,
) -> Tournament:
    """Replace the structure (and the house's chips), checked by ``structure.structure_check``. Once the clock has
    started (the tournament runs, or the director started the clock on time before the draw), the levels before the
    current one have been played and stay as they were; the current one keeps its kind and whether it counts minutes
    or hands (the clock is counting it). Levels added after a last level that has run out (overtime) start now: the
    last level ends at ``now``."""
    require_runner(actor, action="change a tournament's structure")
    try:
        parsed = structure_from_dicts(levels)
    except StructureError as error:
        raise ApplicationError(said(error), extra={"field": "levels"}) from None
    now = timezone.now() if now is None else now
    with transaction.atomic():
        locked = locked_tournament(tournament)
        refuse_finished(locked)
        house_chips = list(locked.chips or DEFAULT_CHIPS) if chips is None else chips
        try:
            structure_check(parsed, chips=house_chips)
        except StructureError as error:
            raise ApplicationError(said(error), extra={"field": "levels"}) from None
        if (
            locked.format == Tournament.Format.HEADS_UP
            and locked.matches.exists()
            and any(not level.is_break and not level.hands for level in parsed)
        ):  # the matches being played count their blinds in hands (poker_room.heads_up.services)
            raise ApplicationError(
                _(
                    "The bracket of %(name)s is drawn: its matches' blinds go up with their hands, so every level "
                    "lasts a number of hands."
                )
                % {"name": locked.name},
                extra={"field": "levels"},
            )
        overtime_ended = False
        if locked.clock_status != Tournament.ClockStatus.NOT_STARTED:  # running, or a clock started before the draw
            stored = tournament_levels(locked)
            view = clock_now(locked, now)
            row = view.level
            if len(parsed) <= row:
                raise WrongState(
                    _("The clock is at %(row)s: the structure cannot end before it.") % {"row": _row_name(stored, row)},
                    extra={"field": "levels"},
                )
            for index in range(row):
                if parsed[index] != stored[index]:
                    raise WrongState(
                        _("%(row)s has been played: the levels before the current one cannot change.")
                        % {"row": capfirst(_row_name(stored, index))},
                        extra={"field": "levels", "row": index + 1},
                    )
            now_level, new_level = stored[row], parsed[row]
            if now_level.kind != new_level.kind or (now_level.hands is None) != (new_level.hands is None):
                raise WrongState(
                    _("The clock is counting %(row)s: it keeps its kind and its length in minutes or hands.")
                    % {"row": _row_name(stored, row)},
                    extra={"field": "levels", "row": row + 1},
                )
            # The last level ran out (overtime) before levels were added after it: the next one starts now, not at
            # the instant the last one ended (it would show as long over already).
            overtime_ended = view.overtime and view.ends_at is not None and len(parsed) > row + 1
        before = {"levels": locked.levels, "chips": locked.chips}
        locked.levels, locked.chips = structure_as_dicts(parsed), house_chips
        fields = ["levels", "chips"]
        if overtime_ended:
            locked.clock_level, locked.clock_ends_at, locked.clock_remaining_ms, locked.clock_hands = row, now, None, 0
            fields += ["clock_level", "clock_ends_at", "clock_remaining_ms", "clock_hands"]
        locked.save(update_fields=fields)
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.TOURNAMENT_UPDATED,
            subject=locked,
            before=before,
            after={
                "action": "structure",
                "levels": locked.levels,
                "chips": locked.chips,
                **(
                    {"overtime_ended_at": now.astimezone(dt.UTC).isoformat(timespec="milliseconds")}
                    if overtime_ended
                    else {}
                ),
            },
            rows=[locked],
        )
        tournament_changed(locked)
    return locked


def tournament_payouts_set(*, actor: Requester, tournament: Tournament, bands: list[Any] | None) -> Tournament:
    """Set the payout table (``None``: the house's), checked by ``payouts.bands_check``; not once the pool is final."""
    require_runner(actor, action="change a tournament's payouts")
    stored = None
    if bands is not None:
        try:
            stored = bands_as_json(bands_from_json(bands))
        except PayoutError as error:
            raise ApplicationError(said(error), extra={"field": "bands"}) from None
    with transaction.atomic():
        locked = locked_tournament(tournament)
        refuse_finished(locked)
        refuse_pool_final(locked)
        before = locked.payouts
        locked.payouts = stored
        locked.save(update_fields=["payouts"])
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.TOURNAMENT_UPDATED,
            subject=locked,
            before={"payouts": before},
            after={"action": "payouts", "payouts": stored},
            rows=[locked],
        )
        tournament_changed(locked)
    return locked


# --- the start ----------------------------------------------------------------------------------------------------


def _tables_for(tables: list[TournamentTable], players: int) -> list[TournamentTable]:
    """The fewest tables that seat ``players``: the final table first, then those that break last."""
    final, order = final_table_and_break_order(tables)
    by_number = {table.number: table for table in tables}
    chosen: list[TournamentTable] = []
    for number in [final, *reversed(order)]:
        if sum(table.seats for table in chosen) >= players:
            break
        chosen.append(by_number[number])
    return sorted(chosen, key=lambda table: table.number)


def _seats_drawn(
    tournament: Tournament,
    entries: list[Entry],
    *,
    actor: Requester,
    rng: random.Random | None,
    rows: list[models.Model],
) -> tuple[list[TournamentTable], list[MoveRecord]]:
    """The start's seat draw: at random over as few tables as seat everyone (the rows written added to ``rows``)."""
    tables = list(TournamentTable.objects.filter(tournament=tournament).order_by("number"))
    seats = sum(table.seats for table in tables)
    if len(entries) > seats:
        raise WrongState(
            _("%(players)s players do not fit in the %(seats)s seats of %(tables)s tables: add a table.")
            % {"players": len(entries), "seats": seats, "tables": len(tables)}
        )
    drawn = _tables_for(tables, len(entries))
    try:
        moves = seats_draw(
            [entry.pk for entry in entries],
            tables=[(table.number, table.seats) for table in drawn],
            rng=rng or system_rng(),
        )
    except SeatingError as error:
        raise WrongState(said(error)) from None
    records = moves_apply(tournament=tournament, moves=moves, actor=actor, rows=rows)
    return drawn, records


def tournament_start(
    *, actor: Requester, tournament: Tournament, now: dt.datetime | None = None, rng: random.Random | None = None
) -> Tournament:
    """Start the tournament: at least two entries, seats drawn at random over as few tables as seat everyone (the
    final table first; the others open for late entries), the clock started (a clock the director started on time,
    before the seats were drawn, keeps running, or stays paused, as it is)."""
    require_runner(actor, action="start a tournament")
    now = timezone.now() if now is None else now
    with transaction.atomic():
        locked = locked_tournament(tournament)
        refuse_finished(locked)
        if locked.status == Tournament.Status.RUNNING:
            raise WrongState(_("%(name)s is already running.") % {"name": locked.name})
        try:
            structure_check(tournament_levels(locked), chips=locked.chips or DEFAULT_CHIPS)
        except StructureError as error:
            raise WrongState(said(error), extra={"field": "levels"}) from None
        entries = list(Entry.objects.filter(tournament=locked, status=Entry.Status.ACTIVE).order_by("number"))
        if len(entries) < 2:
            raise WrongState(
                _("%(name)s needs at least 2 entries to start; it has %(count)s.")
                % {"name": locked.name, "count": len(entries)}
            )
        drawn: list[TournamentTable] = []
        records: list[MoveRecord] = []
        written: list[models.Model] = []
        if locked.format != Tournament.Format.HEADS_UP:  # heads-up: the bracket's draw seats the matches
            drawn, records = _seats_drawn(locked, entries, actor=actor, rng=rng, rows=written)
        locked.status, locked.started_at = Tournament.Status.RUNNING, now
        locked.save(update_fields=["status", "started_at"])
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.TOURNAMENT_STARTED,
            subject=locked,
            after={"entries": len(entries), "tables": [table.number for table in drawn], "seats": records},
            rows=[*written, locked],
        )
        tournament_changed(locked)
        # A heads-up match's blinds go by its own hands and an Open-Face event plays rounds of hands: no clock. A
        # clock the director started on time already runs on.
        if locked.format == Tournament.Format.CHIPS and locked.clock_status == Tournament.ClockStatus.NOT_STARTED:
            # require_runner let through a user or the system (None), never the anonymous visitor.
            clock_start(actor=actor if isinstance(actor, User) else None, tournament=locked, now=now)
    return Tournament.objects.get(pk=locked.pk)
