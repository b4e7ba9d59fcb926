"""The pit-boss dashboard (issue 7).

The dashboard reads every table's shift figures in a fixed number of queries,
however many tables there are: one for the shift, one for the tables (their
latest round and bank turn as correlated subqueries), one for each source of the
figures (rounds and wagers, the ledger, the settlements above a table's big-win
threshold), one for the table's money recorded in the shift (issue 16: buy-ins,
fills and credits, tray counts), one for the requests waiting for a
supervisor, and one for the rated players seated now with their sessions (issue
17; each table's hold window comes with the tables, joined). The figures of
what can no longer change are kept in the cache, so a refresh reads only what
is new since the last (see "the shift's figures, read once and kept").
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.core.cache import cache
from django.db.models import (
    BigIntegerField,
    CharField,
    DateTimeField,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from casino.models import Pit, Shift
from ledger.models import LedgerEntry, Posting
from players.figures import HoldDrift, hold_drift
from players.page_selectors import RatedSeatNow, rated_seated_now
from rounds.models import Adjustment, BankTurn, Round
from rounds.selectors import adjustment_list, round_value, shift_round_ids
from rounds.states import RoundState
from rules import options as rule_options
from rules.games.banking import MAX_BANK_IN_A_ROW, seat_on_the_right
from rules.models import SEAT_LIMITS, Game
from tables.models import BuyIn, Slip, Table, TrayCount
from tables.tray import tray_variance
from tables.win import hold_bp


def pits_with_tables() -> QuerySet[Pit]:
    """Every pit with its tables, in two queries (the floor page)."""
    return Pit.objects.prefetch_related(Prefetch("tables", queryset=Table.objects.order_by("name")))


# --- the pit-boss dashboard -----------------------------------------------------------------------

# Rounds per hour are counted over at least this long, so a table's first minutes do not read 300 an hour.
RATE_WINDOW_MIN = dt.timedelta(minutes=15)
# The most seats a settlement lists (Pai Gow tiles: seven players).
MAX_SEATS = max(high for _, high in SEAT_LIMITS.values())
# Big wins shown at most (the newest); the page says when there were more.
BIG_WINS_SHOWN = 20


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

    The table's money while the shift is open (issue 16): the drop box is counted only after
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
    rounds_per_hour: float | None = None
    handle_cents: int = 0
    players_cents: int = 0
    commission_cents: int = 0
    rake_cents: int = 0
    drop_cents: int = 0
    fills_cents: int = 0
    credits_cents: int = 0
    slips_pending: int = 0
    # Rated play (issue 17): the rated players seated now, by seat, and the hold over the table's last rounds.
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

    @property
    def win_cents(self) -> int:
        return -self.players_cents

    @property
    def hold_bp(self) -> int | None:
        return hold_bp(win_cents=self.win_cents, drop_cents=self.drop_cents)


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
    # Rated play's alerts (issue 17): a session seated now won beyond its expectation (``SessionFigures.alert``),
    # with its table's line; a table's hold over its last rounds off its expectation (``HoldDrift.alert``).
    rated_alerts: list[tuple[TableLine, RatedSeatNow]] = field(init=False)
    hold_alerts: list[TableLine] = field(init=False)

    def __post_init__(self) -> None:
        lines = self.lines
        totals = ShiftTotals(
            tables_open=sum(1 for line in lines if line.is_open),
            tables=len(lines),
            rounds_settled=sum(line.rounds_settled for line in lines),
            handle_cents=sum(line.handle_cents for line in lines),
            players_cents=sum(line.players_cents for line in lines),
            commission_cents=sum(line.commission_cents for line in lines),
            rake_cents=sum(line.rake_cents for line in lines),
            drop_cents=sum(line.drop_cents for line in lines),
            fills_cents=sum(line.fills_cents for line in lines),
            credits_cents=sum(line.credits_cents for line in lines),
            slips_pending=sum(line.slips_pending for line in lines),
        )
        object.__setattr__(self, "totals", totals)
        rated = [(line, seat) for line in lines for seat in line.rated if seat.figures.alert]
        object.__setattr__(self, "rated_alerts", rated)
        object.__setattr__(self, "hold_alerts", [line for line in lines if line.hold is not None and line.hold.alert])

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


def _tables_with_latest_round() -> QuerySet[Table]:
    """Every table with its pit and dealer's name, its latest round, the bank turn of its latest round that counts,
    and its hold window (``players.TableHold``, joined: ``hold_window``, absent before its first settled round).

    One query; each subquery reads a table's newest rounds by the (table, number) index.
    Voided rounds do not count for the rotation (``rounds.services.transitions._check_banker``).
    """
    latest = Round.objects.filter(table=OuterRef("pk")).order_by("-number")
    counted = (
        Round.objects.filter(table=OuterRef(OuterRef("pk")))
        .exclude(state=RoundState.VOIDED)
        .order_by("-number")
        .values("pk")[:1]
    )
    turn = BankTurn.objects.filter(round_id=Subquery(counted))
    return (
        Table.objects.select_related("pit", "hold_window")
        .annotate(
            dealer_name=F("dealer__username"),
            banking_mode=F("rule_set__banking_mode"),
            latest_round_id=Subquery(latest.values("pk")[:1]),
            latest_round_number=Subquery(latest.values("number")[:1]),
            latest_round_state=Subquery(latest.values("state")[:1]),
            bank_seat_number=Subquery(turn.values("seat__number")[:1]),
            bank_in_a_row=Subquery(turn.values("consecutive")[:1]),
        )
        .order_by("pit__name", "name")
    )


# --- the shift's figures, read once and kept ------------------------------------------------------
#
# Summing a whole shift on every refresh would read every round, wager and ledger entry of it
# (a million rows at 200 tables after eight hours). Instead the sums of what can no longer
# change are kept in the cache (``_Sealed``) and each refresh reads only what is newer.
# What can no longer change: a finished round (settled or voided: final states) with its
# wagers, and a ledger entry or posting (append-only). A row is only sealed once it is
# older than ``SEAL_MARGIN`` by its own timestamp, and so is every row with a lower id: an
# id below a sealed one can only belong to a transaction that has stayed open that long
# (ids are handed out at insert, commits may come in another order). The first refresh of
# a shift (or after the cache is cleared) reads the whole shift and seals it.

SEAL_MARGIN = dt.timedelta(minutes=1)
FIGURES_CACHE_KEY = "casino:pit-dashboard:sealed:v1"
FIGURES_CACHE_SECONDS = 24 * 3600


@dataclass
class _Figures:
    """A table's figures over some of the shift's rounds and ledger entries."""

    settled: int = 0
    first_opened: dt.datetime | None = None
    handle: int = 0
    house: int = 0
    commission: int = 0
    rake: int = 0

    def add_round(self, *, state: str, opened_at: dt.datetime, handle: int | None) -> None:
        self.settled += state == RoundState.SETTLED
        self.first_opened = min(self.first_opened or opened_at, opened_at)
        if state != RoundState.VOIDED:  # a voided round never happened: its wagers are no handle
            self.handle += handle or 0

    def add_money(self, *, house: int | None, commission: int | None, rake: int | None) -> None:
        self.house += house or 0
        self.commission += commission or 0
        self.rake += rake or 0

    def plus(self, other: _Figures | None) -> _Figures:
        if other is None:
            return self
        opened = [when for when in (self.first_opened, other.first_opened) if when is not None]
        return _Figures(
            settled=self.settled + other.settled,
            first_opened=min(opened) if opened else None,
            handle=self.handle + other.handle,
            house=self.house + other.house,
            commission=self.commission + other.commission,
            rake=self.rake + other.rake,
        )


@dataclass
class _Sealed:
    """What is summed for good about one shift, and up to which ids.

    Rounds with an id up to ``rounds_mark`` are summed in ``tables`` unless listed in
    ``unfinished``; ledger entries up to ``entries_mark`` are; settlements up to
    ``postings_mark`` with a big win are listed in ``big_ids`` (under ``thresholds``).
    """

    shift: tuple[int, str]  # the shift's id and opening time (an id alone may come back after a rollback)
    rounds_mark: int = 0
    entries_mark: int = 0
    postings_mark: int = 0
    unfinished: set[int] = field(default_factory=set)
    tables: dict[int, _Figures] = field(default_factory=dict)
    thresholds: tuple[tuple[int, int], ...] = ()
    big_ids: tuple[int, ...] = ()

    def figures(self, table_id: int) -> _Figures:
        return self.tables.setdefault(table_id, _Figures())


def _newest_before(model: type[Any], stamp: str, *, above: int, cutoff: dt.datetime) -> Subquery:
    """The highest id above ``above`` of a row stamped before ``cutoff`` (reads only the newest rows)."""
    rows = model.objects.filter(pk__gt=above, **{f"{stamp}__lt": cutoff}).order_by("-pk").values("pk")[:1]
    return Subquery(rows)


def _shift_and_marks(sealed: _Sealed | None, *, now: dt.datetime) -> Shift | None:
    """The open shift, annotated with how far rounds, ledger entries and postings can be sealed now (one query)."""
    cutoff = now - SEAL_MARGIN
    return (
        Shift.objects.select_related("gaming_day")
        .filter(closed_at__isnull=True)
        .annotate(
            seal_rounds=_newest_before(Round, "opened_at", above=sealed.rounds_mark if sealed else 0, cutoff=cutoff),
            seal_entries=_newest_before(
                LedgerEntry, "created_at", above=sealed.entries_mark if sealed else 0, cutoff=cutoff
            ),
            seal_postings=_newest_before(
                Posting, "created_at", above=sealed.postings_mark if sealed else 0, cutoff=cutoff
            ),
        )
        .first()
    )


def _rounds_since(shift: Shift, sealed: _Sealed) -> dict[int, _Figures]:
    """Per table, the rounds not sealed yet; seals those that now can be (one query, a row a round).

    Once something is sealed the rounds are found by id alone (the rounds of another shift are
    skipped here): filtering by shift too would lead SQLite to read every round of the
    shift through the shift's index.
    """
    seal_to = max(sealed.rounds_mark, shift.seal_rounds or 0)  # type: ignore[attr-defined]

    def per_round(rounds: QuerySet[Round]) -> QuerySet[Round]:
        fields = ("pk", "shift_id", "table_id", "state", "opened_at")
        return rounds.values(*fields).annotate(handle=Sum("wagers__amount_cents")).order_by()

    if not sealed.rounds_mark:
        rows = per_round(Round.objects.filter(shift=shift))
    else:  # two index reads (an OR of them would make SQLite read every round)
        rows = per_round(Round.objects.filter(pk__gt=sealed.rounds_mark))
        if sealed.unfinished:
            rows = rows.union(per_round(Round.objects.filter(pk__in=sorted(sealed.unfinished))), all=True)
    fresh: dict[int, _Figures] = defaultdict(_Figures)
    for row in rows:
        if row["shift_id"] != shift.pk:
            continue
        finished = row["state"] in (RoundState.SETTLED, RoundState.VOIDED)
        if row["pk"] <= seal_to and finished:
            sealed.figures(row["table_id"]).add_round(
                state=row["state"], opened_at=row["opened_at"], handle=row["handle"]
            )
            sealed.unfinished.discard(row["pk"])
            continue
        if row["pk"] <= seal_to:
            sealed.unfinished.add(row["pk"])
        fresh[row["table_id"]].add_round(state=row["state"], opened_at=row["opened_at"], handle=row["handle"])
    sealed.rounds_mark = seal_to
    return fresh


_MONEY = {
    "house": LedgerEntry.Account.HOUSE,
    "commission": LedgerEntry.Account.COMMISSION,
    "rake": LedgerEntry.Account.RAKE,
}


def _money_since(shift: Shift, sealed: _Sealed) -> dict[int, _Figures]:
    """Per table, the house's bank result, commission and rake in the ledger entries not sealed yet (one query).

    Only the house's accounts are summed (a few entries a round instead of every player's):
    the players' result is their opposite, since every posting balances and a settled
    round's stakes are off the layout again. Unsettled and voided rounds have none.
    """
    seal_to = max(sealed.entries_mark, shift.seal_entries or 0)  # type: ignore[attr-defined]
    sums = {}
    for name, account in _MONEY.items():
        sums[f"sealed_{name}"] = Sum("amount_cents", filter=Q(account=account, pk__lte=seal_to))
        sums[name] = Sum("amount_cents", filter=Q(account=account, pk__gt=seal_to))
    rows = LedgerEntry.objects.filter(pk__gt=sealed.entries_mark, account__in=_MONEY.values())
    rows = rows if sealed.entries_mark else rows.filter(round_id__in=shift_round_ids(shift))  # by id alone, as rounds
    rows = (
        rows.annotate(round_shift=round_value("shift_id"), round_table=round_value("table_id"))
        .values("round_shift", "round_table")
        .annotate(**sums)
        .order_by()
    )
    fresh: dict[int, _Figures] = {}
    for row in rows:
        if row["round_shift"] != shift.pk:  # a correction of an earlier shift's round
            continue
        table_id = row["round_table"]
        sealed.figures(table_id).add_money(**{name: row[f"sealed_{name}"] for name in _MONEY})
        fresh[table_id] = _Figures()
        fresh[table_id].add_money(**{name: row[name] for name in _MONEY})
    sealed.entries_mark = seal_to
    return fresh


def _big_wins(shift: Shift, sealed: _Sealed) -> tuple[list[BigWin], bool]:
    """Seats that won more than their table's threshold in a settlement of the shift still in force (one query).

    The database compares each seat's ``won_cents`` in the stored result with the threshold,
    among the settlements not sealed yet and the sealed ones that had a big win, so only
    settlements with a big win come back: the newest ``BIG_WINS_SHOWN``, and whether there
    were more.
    """
    seal_to = max(sealed.postings_mark, shift.seal_postings or 0)  # type: ignore[attr-defined]
    won = {f"won_{i}": Cast(KT(f"result__seats__{i}__won_cents"), BigIntegerField()) for i in range(MAX_SEATS)}
    above = Q()
    for name in won:
        above |= Q(**{f"{name}__gt": F("threshold")})
    # The ledger holds the round's id only: its shift, number and table, and the table's threshold, looked up.
    of_round = {
        "round_shift": round_value("shift_id"),
        "round_number": round_value("number"),
        "round_table": round_value("table_id"),
        "table_name": round_value("table__name"),
        "threshold": round_value("table__big_win_cents"),
    }
    fields = ("pk", "round_id", *of_round, "result", "created_at")

    def settlements(**where: Any) -> QuerySet[Posting]:
        rows = Posting.objects.filter(kind=Posting.Kind.SETTLEMENT, reversed_by__isnull=True, **where)
        rows = rows.annotate(**of_round).filter(threshold__isnull=False)
        return rows.annotate(**won).filter(above).values(*fields).order_by()

    if not sealed.postings_mark:
        candidates = settlements(round_id__in=shift_round_ids(shift))
    else:  # by id alone, as for the rounds; the sealed big wins again, in case one was reversed since
        candidates = settlements(pk__gt=sealed.postings_mark)
        if sealed.big_ids:
            candidates = candidates.union(settlements(pk__in=sealed.big_ids), all=True)
    rows = [row for row in candidates.order_by("-pk")[: BIG_WINS_SHOWN + 1] if row["round_shift"] == shift.pk]
    sealed.big_ids = tuple(row["pk"] for row in rows if row["pk"] <= seal_to)
    sealed.postings_mark = seal_to
    wins = [
        BigWin(
            table_id=row["round_table"],
            table_name=row["table_name"],
            round_id=row["round_id"],
            round_number=row["round_number"],
            seat=seat["seat"],
            won_cents=seat["won_cents"],
            threshold_cents=row["threshold"],
            settled_at=row["created_at"],
        )
        for row in rows
        for seat in row["result"]["seats"]
        if seat["won_cents"] > row["threshold"]
    ]
    return wins[:BIG_WINS_SHOWN], len(rows) > BIG_WINS_SHOWN or len(wins) > BIG_WINS_SHOWN


# --- the table's money in the shift (issue 16) ------------------------------------------------------
#
# Read whole on every refresh, in one query: a shift's buy-ins summed by table, its received fills and credits
# summed by table, its pending slips and its openers that differ from what was expected, one row each. These are a
# few rows a table (buy-ins a few dozen, read by the shift's index), not the million of the rounds' figures, so
# nothing of them is sealed (8,000 buy-ins at 200 tables: about 3 ms on SQLite, see docs/performance.md).

_MONEY_COLUMNS = ("m_source", "m_table", "m_kind", "m_number", "m_status", "m_cents", "m_more", "m_at")
_PENDING = (Slip.Status.REQUESTED, Slip.Status.ISSUED)


@dataclass
class _Money:
    """A table's money recorded in the shift so far."""

    drop: int = 0
    fills: int = 0
    credits: int = 0
    pending: int = 0


def _money_rows(shift: Shift) -> QuerySet[Any]:
    """The shift's table money as rows of one shape (``_MONEY_COLUMNS``), the four sources in one UNION ALL: a row
    a table of its buy-ins (``m_cents``), a row a table of its received fills (``m_cents``) and credits (``m_more``),
    a row a pending slip, a row an opener off its expected total (``m_cents`` counted, ``m_more`` expected)."""

    def shaped(rows: QuerySet[Any], source: str, **columns: Any) -> QuerySet[Any]:
        nothing = {
            "m_kind": Value("", output_field=CharField()),
            "m_number": Value(0, output_field=IntegerField()),
            "m_status": Value("", output_field=CharField()),
            # Typed: PostgreSQL reads an untyped NULL in the first branches as text, which a later timestamp is not.
            "m_more": Cast(Value(None), BigIntegerField()),
            "m_at": Cast(Value(None), DateTimeField()),
        }
        named = {"m_source": Value(source, output_field=CharField()), "m_table": F("table_id"), **nothing, **columns}
        return rows.annotate(**named).values_list(*_MONEY_COLUMNS).order_by()

    buy_ins = shaped(BuyIn.objects.filter(shift=shift).values("table_id"), "drop", m_cents=Sum("amount_cents"))
    received = shaped(
        Slip.objects.filter(shift=shift, status=Slip.Status.RECEIVED).values("table_id"),
        "received",
        m_cents=Sum("total_cents", filter=Q(kind=Slip.Kind.FILL)),
        m_more=Sum("total_cents", filter=Q(kind=Slip.Kind.CREDIT)),
    )
    pending = shaped(
        Slip.objects.filter(shift=shift, status__in=_PENDING),
        "pending",
        m_kind=F("kind"),
        m_number=F("number"),
        m_status=F("status"),
        m_cents=F("total_cents"),
        m_at=F("requested_at"),
    )
    openers = shaped(
        TrayCount.objects.filter(shift=shift, kind=TrayCount.Kind.OPENER, expected_cents__isnull=False).exclude(
            total_cents=F("expected_cents")
        ),
        "opener",
        m_status=F("status"),
        m_cents=F("total_cents"),
        m_more=F("expected_cents"),
        m_at=F("counted_at"),
    )
    return buy_ins.union(received, pending, openers, all=True)


_LEVELS = {"escalate": 0, "report": 1, "none": 2}


def _table_money(
    shift: Shift, names: dict[int, str]
) -> tuple[dict[int, _Money], list[PendingSlip], list[TrayDiscrepancy]]:
    """Per table, the drop recorded (buy-ins), the fills and credits received and the slips pending; the pending
    slips (oldest first) and the openers that differ from the table's last closer, confirmed or waiting for their
    confirmation (escalations first, then written reports). One query."""
    money: dict[int, _Money] = defaultdict(_Money)
    slips: list[PendingSlip] = []
    discrepancies: list[TrayDiscrepancy] = []
    kinds = {value: str(label) for value, label in Slip.Kind.choices}
    statuses = {value: str(label) for value, label in Slip.Status.choices}
    for source, table_id, kind, number, status, cents, more, at in _money_rows(shift):
        cents = int(cents or 0)  # PostgreSQL sums bigints as numeric
        got = money[table_id]
        if source == "drop":
            got.drop += cents
        elif source == "received":
            got.fills, got.credits = cents, int(more or 0)
        elif source == "pending":
            got.pending += 1
            slips.append(
                PendingSlip(
                    table_id=table_id,
                    table_name=names.get(table_id, ""),
                    kind=kind,
                    kind_label=kinds.get(kind, kind),
                    number=number,
                    total_cents=cents,
                    status=status,
                    status_label=statuses.get(status, status),
                    requested_at=at,
                )
            )
        else:
            expected = int(more)
            variance = tray_variance(TrayCount(kind=TrayCount.Kind.OPENER, total_cents=cents, expected_cents=expected))
            discrepancies.append(
                TrayDiscrepancy(
                    table_id=table_id,
                    table_name=names.get(table_id, ""),
                    counted_cents=cents,
                    expected_cents=expected,
                    difference_cents=variance.difference_cents,
                    level=variance.level,
                    confirmed=status == TrayCount.Status.CONFIRMED,
                    counted_at=at,
                )
            )
    slips.sort(key=lambda slip: (slip.requested_at, slip.kind, slip.number))
    discrepancies.sort(key=lambda found: (_LEVELS.get(found.level, 3), found.table_name, found.counted_at))
    return money, slips, discrepancies


def _rounds_per_hour(settled: int, first_opened: dt.datetime | None, now: dt.datetime) -> float | None:
    """Settled rounds an hour since the table's first round of the shift (at least ``RATE_WINDOW_MIN``)."""
    if first_opened is None:
        return None
    window = max(now - first_opened, RATE_WINDOW_MIN)
    return settled / (window.total_seconds() / 3600)


def _drift(table: Table) -> HoldDrift | None:
    """The table's hold drift, when it says something: not before its first settled round (``getattr``: a table
    without a window raises RelatedObjectDoesNotExist, an AttributeError), nor for a window with no variance (the
    points games' rake, a player bank's commission: the house's win is what it expects)."""
    drift = hold_drift(getattr(table, "hold_window", None))
    return drift if drift is not None and drift.z is not None else None


def pit_dashboard(*, now: dt.datetime | None = None) -> PitDashboard:
    """Every table at a glance with its shift figures, its rated players and its hold drift, and the alerts, in a
    fixed number of queries (eight).

    Figures are for the open shift (none when no shift is open); requests waiting for a
    supervisor are listed whatever shift they were asked in. The shift's figures are the
    sealed sums kept in the cache plus what is newer (see ``_Sealed``); the table's money
    (drop recorded, fills and credits, slips pending, tray discrepancies) is read whole.
    """
    now = now or timezone.now()
    cached: _Sealed | None = cache.get(FIGURES_CACHE_KEY)
    shift = _shift_and_marks(cached, now=now)
    tables = list(_tables_with_latest_round())
    seated = rated_seated_now(now=now)
    figures: dict[int, _Figures] = {}
    big_wins: list[BigWin] = []
    big_wins_more = False
    money: dict[int, _Money] = {}
    slips: list[PendingSlip] = []
    discrepancies: list[TrayDiscrepancy] = []
    if shift is not None:
        key = (shift.pk, shift.opened_at.isoformat())
        sealed = cached if cached is not None and cached.shift == key else _Sealed(shift=key)
        thresholds = tuple(sorted((t.pk, t.big_win_cents) for t in tables if t.big_win_cents is not None))
        if thresholds != sealed.thresholds:  # another threshold: the sealed big wins are read again
            sealed.thresholds, sealed.postings_mark, sealed.big_ids = thresholds, 0, ()
        fresh_rounds = _rounds_since(shift, sealed)
        fresh_money = _money_since(shift, sealed)
        big_wins, big_wins_more = _big_wins(shift, sealed)
        cache.set(FIGURES_CACHE_KEY, sealed, FIGURES_CACHE_SECONDS)
        money, slips, discrepancies = _table_money(shift, {table.pk: table.name for table in tables})
        for table in tables:
            figures[table.pk] = (
                _Figures()
                .plus(sealed.tables.get(table.pk))
                .plus(fresh_rounds.get(table.pk))
                .plus(fresh_money.get(table.pk))
            )
    games = {value: str(label) for value, label in Game.choices}
    statuses = {value: str(label) for value, label in Table.Status.choices}
    states = {value: str(label) for value, label in ROUND_STATE_LABELS.items()}
    lines = []
    for table in tables:
        got = figures.get(table.pk, _Figures())
        cash = money.get(table.pk, _Money())
        lines.append(
            TableLine(
                table=table,
                round_id=table.latest_round_id,  # type: ignore[attr-defined]
                round_number=table.latest_round_number,  # type: ignore[attr-defined]
                round_state=table.latest_round_state,  # type: ignore[attr-defined]
                banking=table.banking_mode != rule_options.NO_BANK,  # type: ignore[attr-defined]
                bank_seat=table.bank_seat_number,  # type: ignore[attr-defined]
                bank_in_a_row=table.bank_in_a_row,  # type: ignore[attr-defined]
                dealer_name=table.dealer_name or "",  # type: ignore[attr-defined]
                game_label=games.get(table.game, table.game),
                status_label=statuses.get(table.status, table.status),
                round_state_label=states.get(table.latest_round_state, ""),  # type: ignore[attr-defined]
                rounds_settled=got.settled,
                rounds_per_hour=_rounds_per_hour(got.settled, got.first_opened, now) if shift else None,
                handle_cents=got.handle,
                players_cents=-(got.house + got.commission + got.rake),
                commission_cents=got.commission,
                rake_cents=got.rake,
                drop_cents=cash.drop,
                fills_cents=cash.fills,
                credits_cents=cash.credits,
                slips_pending=cash.pending,
                rated=tuple(seated.get(table.pk, ())),
                hold=_drift(table),
            )
        )
    must_pass = [
        BankMustPass(
            table_id=line.table.pk,
            table_name=line.table.name,
            seat=line.bank_seat,
            in_a_row=line.bank_in_a_row or 0,
            next_seat=seat_on_the_right(seat_number=line.bank_seat, seat_count=line.table.seat_count),
        )
        for line in lines
        if line.must_pass and line.bank_seat is not None
    ]
    return PitDashboard(
        shift=shift,
        now=now,
        lines=lines,
        pending=list(adjustment_list(status=Adjustment.Status.PENDING).order_by("requested_at")),
        big_wins=big_wins,
        big_wins_more=big_wins_more,
        bank_must_pass=must_pass,
        slips=slips,
        discrepancies=discrepancies,
    )
