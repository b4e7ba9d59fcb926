"""The pit-boss dashboard's rows and alerts as the page draws them: each table's line, the slips pending, the tray
discrepancies, the big wins, the banks that must pass, the shift's totals and the dashboard as a whole."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from casino.models import Pit, Shift
from players.figures import HoldDrift
from players.page_selectors import RatedSeatNow
from rounds.models import Adjustment
from rounds.states import RoundState
from rules.games.banking import MAX_BANK_IN_A_ROW
from rules.models import SEAT_LIMITS
from tables.models import Table
from tables.win import hold_bp

# --- the pit-boss dashboard -----------------------------------------------------------------------

# Rounds per hour are counted over at least this long, so a table's first minutes do not read 300 an hour.
RATE_WINDOW_MIN = dt.timedelta(minutes=15)
# The most seats a settlement lists (Pai Gow tiles: seven players).
MAX_SEATS = max(high for _, high in SEAT_LIMITS.values())
# Big wins shown at most (the newest); the page says when there were more.
BIG_WINS_SHOWN = 20
# Pending slips (the oldest) and tray discrepancies (escalations first) listed at most: a floor of 2,000 tables has
# hundreds, which nobody reads on one page; the page says how many more (the cage's queue lists every slip, each
# table's history its counts). Every one counts in the totals and the alerts.
SLIPS_SHOWN = DISCREPANCIES_SHOWN = 25


# A round's state as the dashboard names it.
ROUND_STATE_LABELS = {
    RoundState.OPEN: pgettext_lazy("round state", "open"),
    RoundState.BETTING_CLOSED: _("betting closed"),
    RoundState.DEALT: _("dealt"),
    RoundState.REVEALED: _("revealed"),
    RoundState.SETTLED: _("settled"),
    RoundState.VOIDED: _("voided"),
}


@dataclass(frozen=True)
class TableLine:
    """One table's line on the dashboard: what it is playing now and its figures for the shift.

    ``players_cents`` is what the players (a player banker included) won (+) or lost (−) in
    the shift's settled rounds: the sum of their ledger entries, which is the opposite of
    what the house took (its bank result, commission and rake), since every posting
    balances and a settled round's stakes are back off the layout.

    The table's money while the shift is open: the drop box is counted only after
    the shift closes, so ``drop_cents`` is the drop as recorded (the buy-ins, cash and
    markers), ``win_cents`` the house's win from the settlements (its bank result,
    commission and rake: ``settlement.table_money``'s computed win) and ``hold_bp`` the one
    over the other. ``fills_cents`` and ``credits_cents`` are the slips received;
    ``slips_pending`` those requested or issued and not received yet.
    """

    table: Table
    round_id: int | None
    round_number: int | None
    round_state: str | None
    banking: bool  # the table's rules have a bank (not a points game or the peer variant)
    bank_seat: int | None  # the seat holding the bank; None: the house (when ``bank_in_a_row`` is set)
    bank_in_a_row: int | None  # rounds in a row of the latest bank turn; None: no bank turn yet
    dealer_name: str = ""
    # The game's, the table's status and the round state's names, translated once a page, not once a line.
    game_label: str = ""
    status_label: str = ""
    round_state_label: str = ""
    rounds_settled: int = 0
    first_opened: dt.datetime | None = None  # the table's first round of the shift
    rounds_per_hour: float | None = None
    handle_cents: int = 0
    players_cents: int = 0
    commission_cents: int = 0
    rake_cents: int = 0
    drop_cents: int = 0
    fills_cents: int = 0
    credits_cents: int = 0
    slips_pending: int = 0
    # Rated play: the rated players seated now, by seat, and the hold over the table's last rounds.
    rated: tuple[RatedSeatNow, ...] = ()
    hold: HoldDrift | None = None

    @property
    def is_open(self) -> bool:
        return self.table.status == Table.Status.OPEN

    @property
    def house_banks(self) -> bool:
        return self.banking and self.bank_in_a_row is not None and self.bank_seat is None

    @property
    def must_pass(self) -> bool:
        return self.bank_seat is not None and (self.bank_in_a_row or 0) >= MAX_BANK_IN_A_ROW

    @property
    def house_take_cents(self) -> int:
        return self.commission_cents + self.rake_cents

    @property
    def win_cents(self) -> int:
        return -self.players_cents

    @cached_property
    def hold_bp(self) -> int | None:
        return hold_bp(win_cents=self.win_cents, drop_cents=self.drop_cents)


@dataclass(frozen=True)
class PendingSlip:
    """A fill or credit slip of the shift requested or issued, not received yet: the cage or the table owes a move."""

    table_id: int
    table_name: str
    kind: str
    kind_label: str
    number: int
    total_cents: int
    status: str
    status_label: str
    requested_at: dt.datetime


@dataclass(frozen=True)
class TrayDiscrepancy:
    """An opener of the shift that differs from the table's last confirmed closer (``tables.tray.tray_variance``):
    ``difference_cents`` is counted − expected; ``level`` is ``none``, ``report`` or ``escalate``; ``confirmed`` is
    False while the count waits for a supervisor's confirmation."""

    table_id: int
    table_name: str
    counted_cents: int
    expected_cents: int
    difference_cents: int
    level: str
    confirmed: bool
    counted_at: dt.datetime

    @property
    def over(self) -> bool:
        return self.difference_cents > 0

    @property
    def amount_cents(self) -> int:
        return abs(self.difference_cents)


@dataclass(frozen=True)
class BigWin:
    """A single seat's win above its table's threshold, in a settlement of this shift still in force."""

    table_id: int
    table_name: str
    round_id: int
    round_number: int
    seat: int
    won_cents: int
    threshold_cents: int
    settled_at: dt.datetime


@dataclass(frozen=True)
class BankMustPass:
    """A seat that has banked the most rounds in a row it may: the bank passes to the seat on its right."""

    table_id: int
    table_name: str
    seat: int
    in_a_row: int
    next_seat: int


@dataclass(frozen=True)
class ShiftTotals:
    tables_open: int
    tables: int
    rounds_settled: int
    handle_cents: int
    players_cents: int
    commission_cents: int
    rake_cents: int
    drop_cents: int = 0
    fills_cents: int = 0
    credits_cents: int = 0
    slips_pending: int = 0
    # The win of the tables with a drop: the floor's hold is theirs (a table with no buy-in yet has a win and no
    # drop, and would lift the floor's hold above every table's own).
    win_with_drop_cents: int = 0

    @property
    def win_cents(self) -> int:
        return -self.players_cents

    @property
    def hold_bp(self) -> int | None:
        """Win ÷ drop over the tables that have a drop, as each table's hold is its own win ÷ its own drop."""
        return hold_bp(win_cents=self.win_with_drop_cents, drop_cents=self.drop_cents)


@dataclass(frozen=True)
class PitSection:
    pit: Pit
    lines: list[TableLine]


@dataclass(frozen=True)
class PitDashboard:
    shift: Shift | None
    now: dt.datetime
    lines: list[TableLine]
    pending: list[Adjustment]
    big_wins: list[BigWin]
    big_wins_more: bool  # more big wins this shift than ``big_wins`` shows
    bank_must_pass: list[BankMustPass]
    slips: list[PendingSlip] = field(default_factory=list)  # oldest first
    discrepancies: list[TrayDiscrepancy] = field(default_factory=list)  # escalations first
    totals: ShiftTotals = field(init=False)
    # Rated play's alerts: a session seated now won beyond its expectation (``SessionFigures.alert``),
    # with its table's line; a table's hold over its last rounds off its expectation (``HoldDrift.alert``).
    rated_alerts: list[tuple[TableLine, RatedSeatNow]] = field(init=False)
    hold_alerts: list[TableLine] = field(init=False)

    def __post_init__(self) -> None:
        lines = self.lines
        sums = [0] * 11  # one pass over the lines (2,000 at every refresh)
        rated: list[tuple[TableLine, RatedSeatNow]] = []
        held: list[TableLine] = []
        opened = Table.Status.OPEN
        for line in lines:
            sums[0] += line.table.status == opened
            sums[1] += line.rounds_settled
            sums[2] += line.handle_cents
            sums[3] += line.players_cents
            sums[4] += line.commission_cents
            sums[5] += line.rake_cents
            sums[6] += line.drop_cents
            sums[7] += line.fills_cents
            sums[8] += line.credits_cents
            sums[9] += line.slips_pending
            if line.drop_cents > 0:
                sums[10] += line.win_cents
            if line.rated:
                rated += [(line, seat) for seat in line.rated if seat.figures.alert]
            if line.hold is not None and line.hold.alert:
                held.append(line)
        totals = ShiftTotals(
            tables_open=sums[0],
            tables=len(lines),
            rounds_settled=sums[1],
            handle_cents=sums[2],
            players_cents=sums[3],
            commission_cents=sums[4],
            rake_cents=sums[5],
            drop_cents=sums[6],
            fills_cents=sums[7],
            credits_cents=sums[8],
            slips_pending=sums[9],
            win_with_drop_cents=sums[10],
        )
        object.__setattr__(self, "totals", totals)
        object.__setattr__(self, "rated_alerts", rated)
        object.__setattr__(self, "hold_alerts", held)

    @property
    def slips_shown(self) -> list[PendingSlip]:
        return self.slips[:SLIPS_SHOWN]

    @property
    def slips_more(self) -> int:
        return max(0, len(self.slips) - SLIPS_SHOWN)

    @property
    def discrepancies_shown(self) -> list[TrayDiscrepancy]:
        return self.discrepancies[:DISCREPANCIES_SHOWN]

    @property
    def discrepancies_more(self) -> int:
        return max(0, len(self.discrepancies) - DISCREPANCIES_SHOWN)

    @property
    def rated_shown(self) -> bool:
        """Whether a line is drawn under a table: rated players seated there, or a hold window."""
        return any(line.rated or line.hold is not None for line in self.lines)

    @property
    def alerts(self) -> int:
        return (
            len(self.pending)
            + len(self.big_wins)
            + len(self.bank_must_pass)
            + len(self.discrepancies)
            + len(self.rated_alerts)
            + len(self.hold_alerts)
        )

    def pits(self) -> Iterator[PitSection]:
        """The lines grouped by pit, in the tables' order (pit name, then table name)."""
        section: PitSection | None = None
        for line in self.lines:
            if section is None or section.pit.pk != line.table.pit_id:
                if section is not None:
                    yield section
                section = PitSection(pit=line.table.pit, lines=[])
            section.lines.append(line)
        if section is not None:
            yield section
