"""Reads for the director's pages: the tournaments' list, the console, the results sheet and the chip race (the
dealer's tournament table reads ``poker_room.tournaments.table_selectors``). Pages only: the room display and the pit
dashboard read ``poker_room.tournaments.selectors``.

Every page reads a fixed number of queries, whatever the size of the field: the tournament, its board (two aggregates,
``selectors.tournament_board``), its entries, its tables, its eliminations and its recent seat moves, one query each;
what each entry may still do (a rebuy, an add-on, a re-entry) and the prizes by place are worked out from those rows
in Python. The buttons shown follow the rules of ``poker_room.tournaments.entries`` (registration, the rebuy period, the
add-on's break); the services decide again when one is tapped, so a page drawn a moment ago never lets anything through.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.events import AuditEventType
from casino.models import AuditEvent
from casino.roles import Role
from poker_room.floor import said
from poker_room.pure.payouts import HOUSE_PAYOUTS, PayoutBand, PayoutError, band_for, bands_from_json, prizes
from poker_room.pure.structure import DEFAULT_CHIPS, GAME_NAMES, Game, Level
from poker_room.tournaments.clock_services import tournament_levels
from poker_room.tournaments.entries import addon_row, registration_refusal
from poker_room.tournaments.models import Elimination, Entry, SeatMove, Tournament, TournamentTable
from poker_room.tournaments.selectors import Board, boards, tournament_board

RECENT_MOVES = 12
RECENT_ELIMINATIONS = 15


def game_names(codes: Iterable[str]) -> str:
    """The games of an event as the director names them: "No-Limit Hold'em / No-Limit Omaha"."""
    names = []
    for code in codes:
        try:
            names.append(_(GAME_NAMES[Game(code)]))
        except ValueError:
            names.append(code)
    return " / ".join(names)


def safe_levels(tournament: Tournament) -> tuple[Level, ...]:
    """The tournament's structure, or none when it cannot be read (the console says so instead of failing)."""
    try:
        return tournament_levels(tournament)
    except Exception:  # noqa: BLE001 - an unreadable structure is shown as such; the services refuse to run it
        return ()


# --- the list -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentRow:
    tournament: Tournament
    board: Board


@dataclass(frozen=True)
class TournamentList:
    running: list[TournamentRow]
    planned: list[TournamentRow]
    finished: list[TournamentRow]


FINISHED_SHOWN = 20


def tournament_list(*, now: dt.datetime | None = None) -> TournamentList:
    """The tournaments by state: running and planned ones all, the latest finished ones (three queries)."""
    now = timezone.now() if now is None else now
    open_ = list(
        Tournament.objects.exclude(status=Tournament.Status.FINISHED).order_by("status", "starts_at", "-created_at")
    )
    finished = list(Tournament.objects.filter(status=Tournament.Status.FINISHED).order_by("-finished_at", "-pk"))[
        :FINISHED_SHOWN
    ]
    rows = [TournamentRow(t, b) for t, b in zip([*open_, *finished], boards([*open_, *finished], now=now), strict=True)]
    return TournamentList(
        running=[row for row in rows if row.tournament.status == Tournament.Status.RUNNING],
        planned=[row for row in rows if row.tournament.status == Tournament.Status.PLANNED],
        finished=[row for row in rows if row.tournament.status == Tournament.Status.FINISHED],
    )


# --- the console --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EntryLine:
    """An entry on the console, with what the director may still do with it (the services decide again)."""

    entry: Entry
    reentries: int  # re-entries in its chain so far
    knockouts: int
    bounties_won_cents: int
    prize_cents: int
    can_reenter: bool
    can_rebuy: bool
    can_addon: bool

    @property
    def label(self) -> str:
        return f"#{self.entry.number} {self.entry.name}"


@dataclass(frozen=True)
class SeatLine:
    seat: int
    entry: Entry | None
    is_button: bool


@dataclass(frozen=True)
class TableLine:
    table: TournamentTable
    seats: list[SeatLine]
    players: int

    @property
    def broken(self) -> bool:
        return self.table.broken_at is not None


@dataclass(frozen=True)
class MoveLine:
    move: SeatMove
    entry: Entry

    @property
    def is_new(self) -> bool:
        return self.move.from_table is None


@dataclass(frozen=True)
class PrizeLine:
    place: int
    prize_cents: int
    entry: Entry | None  # who finished there, once known


@dataclass(frozen=True)
class Payouts:
    """The payout table in use and what it pays the field as it stands (``payouts.prizes``)."""

    bands: tuple[PayoutBand, ...]
    own: bool  # the tournament's own table (else the house's)
    band: PayoutBand | None
    places: list[PrizeLine]
    refusal: str  # why no prize can be worked out yet ("" when they can)


@dataclass(frozen=True)
class Console:
    tournament: Tournament
    board: Board
    levels: tuple[Level, ...]
    level_number: int
    entries: list[EntryLine]
    tables: list[TableLine]
    moves: list[MoveLine]
    eliminations: list[Elimination]
    latest_elimination: Elimination | None
    payouts: Payouts
    registration_refusal: str | None
    rebuys_open: bool
    addon_open: bool
    addon_row: int | None
    dealers: list[User] = field(default_factory=list)

    @property
    def active(self) -> list[EntryLine]:
        return [line for line in self.entries if line.entry.status == Entry.Status.ACTIVE]

    @property
    def bounties(self) -> bool:
        return self.tournament.bounty_kind != Tournament.BountyKind.NONE


def tournament_payouts(tournament: Tournament, board: Board, eliminations: Sequence[Elimination]) -> Payouts:
    """The payout table in use and the prizes by place for the field and the pool on ``board`` (no query)."""
    own = tournament.payouts is not None
    try:
        bands = bands_from_json(tournament.payouts) if own else HOUSE_PAYOUTS
    except PayoutError as error:
        return Payouts((), own, None, [], _("The payout table cannot be read: %(reason)s") % {"reason": error})
    if board.entries < 1:
        return Payouts(bands, own, None, [], _("No entry yet: the prizes follow the field."))
    try:
        band = band_for(bands, board.entries)
        amounts = prizes(
            pool_cents=board.prize_pool_cents,
            entries=board.entries,
            bands=bands,
            unit_cents=tournament.payout_unit_cents,
            min_cash_cents=tournament.min_cash_cents,
        )
    except PayoutError as error:
        return Payouts(bands, own, None, [], said(error))
    # The entry's place, not the elimination's: a later entry moves every player already out one place down.
    placed = {e.entry.place or e.place: e.entry for e in eliminations if e.status == Elimination.Status.IN_FORCE}
    places = [PrizeLine(place, cents, placed.get(place)) for place, cents in enumerate(amounts, start=1)]
    return Payouts(bands, own, band, places, "")


def _chain_reentries(entries: Sequence[Entry]) -> dict[int, int]:
    """Each entry's re-entries so far along its chain (a first entry 0), from the rows alone."""
    by_pk = {entry.pk: entry for entry in entries}
    counted: dict[int, int] = {}
    for entry in entries:
        count, current, seen = 0, entry, set()
        while current.reentry_of_id is not None and current.reentry_of_id in by_pk and current.pk not in seen:
            seen.add(current.pk)
            count += 1
            current = by_pk[current.reentry_of_id]
        counted[entry.pk] = count
    return counted


def _rebuys_open(tournament: Tournament, level_number: int) -> bool:
    return (
        tournament.status == Tournament.Status.RUNNING
        and tournament.pool_locked_at is None
        and tournament.rebuys_max > 0
        and level_number <= tournament.rebuy_until_level
    )


def _undoable(tournament: Tournament, in_force: list[Elimination]) -> Elimination | None:
    """The bust the console offers to undo: the latest in force; in a finished tournament the runner-up's (undoing it
    takes the win back too, ``eliminations.elimination_undo``), never the winner's own row."""
    if not in_force:
        return None
    if tournament.status == Tournament.Status.FINISHED and in_force[0].place == 1 and len(in_force) > 1:
        return in_force[1]
    return in_force[0]


def console(tournament: Tournament, *, now: dt.datetime | None = None, dealers: bool = False) -> Console:
    """Everything the director's console shows of ``tournament`` at ``now`` (a fixed number of queries)."""
    now = timezone.now() if now is None else now
    board = tournament_board(tournament, now=now)
    levels = safe_levels(tournament)
    # The level as the board read it (none when its clock cannot be read: the board says why).
    level = max(1, board.level.number) if board.level is not None else 1
    entries = list(Entry.objects.filter(tournament=tournament).select_related("player").order_by("number"))
    by_pk = {entry.pk: entry for entry in entries}
    eliminations = list(Elimination.objects.filter(tournament=tournament).order_by("-pk"))
    for elimination in eliminations:  # the entries are read already: no query per row
        elimination.entry = by_pk[elimination.entry_id]
        if elimination.eliminated_by_id is not None:
            elimination.eliminated_by = by_pk.get(elimination.eliminated_by_id)
    in_force = [e for e in eliminations if e.status == Elimination.Status.IN_FORCE]
    knockouts = Counter(e.eliminated_by_id for e in in_force if e.eliminated_by_id is not None)
    bounties_won: dict[int, int] = defaultdict(int)
    prize_of: dict[int, int] = {}
    for e in in_force:
        prize_of[e.entry_id] = e.prize_cents
        if e.eliminated_by_id is not None:
            bounties_won[e.eliminated_by_id] += e.bounty_paid_cents
        else:  # the winner is paid their own bounty
            bounties_won[e.entry_id] += e.bounty_paid_cents
    reentries = _chain_reentries(entries)
    reentered = {entry.reentry_of_id for entry in entries if entry.reentry_of_id is not None}
    refusal = board.problem or (
        registration_refusal(tournament, now) if levels or tournament.status != "planned" else None
    )
    rebuys_open = _rebuys_open(tournament, level)
    row = addon_row(levels, tournament.rebuy_until_level) if levels else None
    addon_open = (
        tournament.status == Tournament.Status.RUNNING
        and tournament.pool_locked_at is None
        and tournament.addon_chips > 0
        and row is not None
        and board.clock is not None
        and board.clock.level == row
    )
    lines = [
        EntryLine(
            entry=entry,
            reentries=reentries[entry.pk],
            knockouts=knockouts.get(entry.pk, 0),
            bounties_won_cents=bounties_won.get(entry.pk, 0),
            prize_cents=prize_of.get(entry.pk, 0),
            can_reenter=entry.status == Entry.Status.BUSTED
            and entry.pk not in reentered
            and refusal is None
            and tournament.status == Tournament.Status.RUNNING
            and reentries[entry.pk] < tournament.reentries_max,
            can_rebuy=entry.status == Entry.Status.ACTIVE and rebuys_open and entry.rebuys < tournament.rebuys_max,
            can_addon=entry.status == Entry.Status.ACTIVE and addon_open and not entry.addon,
        )
        for entry in entries
    ]
    tables = table_lines(tournament, [e for e in entries if e.status == Entry.Status.ACTIVE])
    moves = [
        MoveLine(move, by_pk[move.entry_id])
        for move in SeatMove.objects.filter(tournament=tournament).order_by("-pk")[:RECENT_MOVES]
        if move.entry_id in by_pk
    ]
    return Console(
        tournament=tournament,
        board=board,
        levels=levels,
        level_number=level,
        entries=lines,
        tables=tables,
        moves=moves,
        eliminations=eliminations[:RECENT_ELIMINATIONS],
        latest_elimination=_undoable(tournament, in_force),
        payouts=tournament_payouts(tournament, board, eliminations),
        registration_refusal=refusal,
        rebuys_open=rebuys_open,
        addon_open=addon_open,
        addon_row=row,
        dealers=dealer_choices() if dealers else [],
    )


def table_lines(tournament: Tournament, active: Sequence[Entry]) -> list[TableLine]:
    """Each table of the tournament with its seats (who sits where, the button) and its dealer (one query)."""
    sitting: dict[int, dict[int, Entry]] = defaultdict(dict)
    for entry in active:
        if entry.table_number is not None and entry.seat_number is not None:
            sitting[entry.table_number][entry.seat_number] = entry
    lines = []
    for table in TournamentTable.objects.filter(tournament=tournament).select_related("dealer").order_by("number"):
        seats = [
            SeatLine(seat, sitting[table.number].get(seat), table.button == seat) for seat in range(1, table.seats + 1)
        ]
        lines.append(TableLine(table, seats, len(sitting[table.number])))
    return lines


def dealer_choices() -> list[User]:
    """The Dealers who may be put on a tournament table, by name (one query)."""
    return list(User.objects.filter(groups__name=Role.DEALER.value, is_active=True).distinct().order_by("username"))


# --- the results sheet ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ResultLine:
    place: int | None
    entry: Entry
    prize_cents: int
    bounties_cents: int
    knockouts: int


@dataclass(frozen=True)
class Results:
    tournament: Tournament
    board: Board
    lines: list[ResultLine]
    prizes_cents: int
    bounties_cents: int


def results(tournament: Tournament, *, now: dt.datetime | None = None) -> Results:
    """The results sheet: every entry by place (those still in first, unplaced), with its prize and the bounties it
    won (four queries)."""
    board = tournament_board(tournament, now=now)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("number"))
    in_force = list(
        Elimination.objects.filter(tournament=tournament, status=Elimination.Status.IN_FORCE).order_by("place")
    )
    prize = {e.entry_id: e.prize_cents for e in in_force}
    knockouts = Counter(e.eliminated_by_id for e in in_force if e.eliminated_by_id is not None)
    bounties: dict[int, int] = defaultdict(int)
    for e in in_force:
        bounties[e.eliminated_by_id if e.eliminated_by_id is not None else e.entry_id] += e.bounty_paid_cents
    lines = [
        ResultLine(entry.place, entry, prize.get(entry.pk, 0), bounties.get(entry.pk, 0), knockouts.get(entry.pk, 0))
        for entry in entries
    ]
    lines.sort(key=lambda line: (line.place is not None, line.place or 0, line.entry.number))
    return Results(
        tournament=tournament,
        board=board,
        lines=lines,
        prizes_cents=sum(line.prize_cents for line in lines),
        bounties_cents=sum(line.bounties_cents for line in lines),
    )


# --- the structure's rows as the director names them ---------------------------------------------------------------


def level_label(levels: Sequence[Level], row: int) -> str:
    """A row as the director names it: "Level 5" or "Break after level 4"."""
    count = sum(1 for level in levels[: row + 1] if not level.is_break)
    if levels[row].is_break:
        return _("Break after level %(number)s") % {"number": count}
    return _("Level %(number)s") % {"number": count}


# --- the chip race --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RaceSeat:
    entry_number: int
    name: str
    seat: int | None
    leftovers: int
    cards: tuple[str, ...]
    won: bool
    chips_after: int
    saved: bool


@dataclass(frozen=True)
class RaceDone:
    """A chip race as its audit event recorded it (``services.chip_race_record``)."""

    table: int
    row: int
    old_value: int
    new_value: int
    at: dt.datetime
    actor: str
    seats: list[RaceSeat]


@dataclass(frozen=True)
class ChipRacePage:
    tournament: Tournament
    board: Board
    levels: tuple[Level, ...]
    colour_up: int | None  # the chip the break in progress colours up (None: not at such a break)
    new_value: int | None
    tables: list[TableLine]
    table: TableLine | None
    races: list[RaceDone]
    raced: frozenset[int]  # the tables that raced at the break in progress


def _race(event: AuditEvent, names: dict[int, Entry]) -> RaceDone:
    after = event.after or {}
    leftovers = after.get("leftovers", {})
    cards = after.get("cards", {})
    chips_after = after.get("chips_after", {})
    saved = set(after.get("saved", []))
    seats = []
    for number_text, count in leftovers.items():
        number = int(number_text)
        entry = names.get(number)
        seats.append(
            RaceSeat(
                entry_number=number,
                name=entry.name if entry else "",
                seat=entry.seat_number if entry else None,
                leftovers=int(count),
                cards=tuple(cards.get(number_text, ())),
                won=int(chips_after.get(number_text, 0))
                > int(count) * int(after.get("old_value", 1)) // max(1, int(after.get("new_value", 1)))
                and number not in saved,
                chips_after=int(chips_after.get(number_text, 0)),
                saved=number in saved,
            )
        )
    return RaceDone(
        table=int(after.get("table", 0)),
        row=int(after.get("row", 0)),
        old_value=int(after.get("old_value", 0)),
        new_value=int(after.get("new_value", 0)),
        at=event.occurred_at,
        actor=event.actor_name,
        seats=seats,
    )


def chip_race_page(tournament: Tournament, *, table: int | None, now: dt.datetime | None = None) -> ChipRacePage:
    """The chip race at a colour-up break: the chip leaving play and the one it colours up into, the tables with
    their players (the chosen one's to type the leftovers), and the races run, newest first, with their cards."""
    now = timezone.now() if now is None else now
    board = tournament_board(tournament, now=now)
    levels = safe_levels(tournament)
    colour_up = new_value = None
    if board.clock is not None and levels and levels[board.clock.level].is_break:
        colour_up = levels[board.clock.level].colour_up
        if colour_up is not None:
            gone = {lv.colour_up for lv in levels[: board.clock.level + 1] if lv.is_break and lv.colour_up}
            left = sorted(v for v in (tournament.chips or DEFAULT_CHIPS) if v not in gone)
            new_value = left[0] if left else None
    entries = list(Entry.objects.filter(tournament=tournament).order_by("number"))
    tables = [line for line in table_lines(tournament, [e for e in entries if e.status == Entry.Status.ACTIVE])]
    chosen = next((line for line in tables if line.table.number == table), None)
    events = AuditEvent.objects.filter(
        subject_type="poker_room.tournament",
        subject_id=str(tournament.pk),
        event_type=AuditEventType.TOURNAMENT_UPDATED,
        after__action="chip_race",
    ).order_by("-seq")[:20]
    by_number = {entry.number: entry for entry in entries}
    races = [_race(event, by_number) for event in events]
    row = board.clock.level + 1 if board.clock is not None else None
    return ChipRacePage(
        tournament=tournament,
        board=board,
        levels=levels,
        colour_up=colour_up,
        new_value=new_value,
        tables=[line for line in tables if not line.broken],
        table=chosen,
        races=races,
        raced=frozenset(race.table for race in races if colour_up is not None and race.row == row),
    )
