"""The pit-boss dashboard.

The dashboard reads every table's shift figures in a fixed number of queries,
however many tables there are: one for the shift, one for the tables (their
latest round and bank turn as correlated subqueries), one for each source of the
figures (rounds and wagers, the ledger, the settlements above a table's big-win
threshold), one for the table's money recorded in the shift (buy-ins,
fills and credits, tray counts), one for the requests waiting for a
supervisor, and one for the rated players seated now with their sessions (each
table's hold window comes with the tables, joined). The figures of what can no
longer change are kept in the cache, so a refresh reads only what is new since
the last (``pit.shift_figures``).
"""

from __future__ import annotations

import datetime as dt
import time
from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypedDict, cast

from django.core.cache import cache
from django.db.models import (
    BigIntegerField,
    CharField,
    Count,
    DateTimeField,
    F,
    IntegerField,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Cast
from django.utils import timezone

from casino.models import Pit, Shift
from pit.dashboard_rows import (
    RATE_WINDOW_MIN,
    ROUND_STATE_LABELS,
    BankMustPass,
    BigWin,
    PendingSlip,
    PitDashboard,
    TableLine,
    TrayDiscrepancy,
)
from pit.shift_figures import (
    FIGURES_CACHE_KEY,
    FIGURES_CACHE_SECONDS,
    Figures,
    SealedShift,
    big_wins_since,
    money_since,
    rounds_since,
    shift_and_marks,
)
from players.figures import HoldDrift, hold_drift
from players.page_selectors import RatedSeatNow, rated_seated_now
from rounds.models import Adjustment, BankTurn, Round
from rounds.selectors import adjustment_list
from rounds.states import RoundState
from rules import options as rule_options
from rules.games.banking import seat_on_the_right
from rules.models import Game
from tables.live import tables_changed_since
from tables.models import BuyIn, Slip, Table, TrayCount
from tables.tray import tray_variance

if TYPE_CHECKING:  # the stubs' extensions are a development requirement
    from django_stubs_ext import WithAnnotations


def pits_with_tables() -> QuerySet[Pit]:
    """Every pit with its tables, in two queries (the floor page)."""
    return Pit.objects.prefetch_related(Prefetch("tables", queryset=Table.objects.order_by("name")))


class _LatestRound(TypedDict):
    """What ``_tables_with_latest_round`` annotates a table with."""

    dealer_name: str | None
    banking_mode: str
    latest_round_id: int | None
    latest_round_number: int | None
    latest_round_state: str | None
    bank_seat_number: int | None
    bank_in_a_row: int | None


def _tables_with_latest_round() -> QuerySet[WithAnnotations[Table, _LatestRound]]:
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


# --- the table's money in the shift ------------------------------------------------------
#
# Read in one query: a shift's buy-ins summed by table, its received fills and credits summed by table (of every
# table, or of the tables a refresh draws again), its pending slips and its openers that differ from what was
# expected (of the whole floor: the lists), one row each. These are a few rows a table (buy-ins a few dozen, read by
# the shift's index), not the million of the rounds' figures, so nothing of them is sealed (8,000 buy-ins at 200
# tables: about 3 ms on SQLite, see docs/performance.md).

_MONEY_COLUMNS = ("m_source", "m_table", "m_kind", "m_number", "m_status", "m_cents", "m_more", "m_at")
_PENDING = (Slip.Status.REQUESTED, Slip.Status.ISSUED)


@dataclass
class _Money:
    """A table's money recorded in the shift so far."""

    drop: int = 0
    fills: int = 0
    credits: int = 0
    pending: int = 0


# A row of ``_money_rows``: source, table id, kind, number, status, cents, more cents, when (``_MONEY_COLUMNS``); the
# sums come back from PostgreSQL as numeric (Decimal).
_MoneyRow = tuple[str, int, str, int, str, int | Decimal | None, int | Decimal | None, dt.datetime | None]


def _money_rows(shift: Shift, table_ids: Collection[int] | None) -> QuerySet[Any, _MoneyRow]:
    """The shift's table money as rows of one shape (``_MONEY_COLUMNS``), the four sources in one UNION ALL: a row
    a table of its buy-ins (``m_cents``), a row a table of its received fills (``m_cents``) and credits (``m_more``),
    a row a pending slip, a row an opener off its expected total (``m_cents`` counted, ``m_more`` expected). Of the
    tables ``table_ids`` only, when given."""

    def shaped(rows: QuerySet[Any], source: str, **columns: Any) -> QuerySet[Any, _MoneyRow]:
        nothing = {
            "m_kind": Value("", output_field=CharField()),
            "m_number": Value(0, output_field=IntegerField()),
            "m_status": Value("", output_field=CharField()),
            # Typed: PostgreSQL reads an untyped NULL in the first branches as text, which a later timestamp is not.
            "m_more": Cast(Value(None), BigIntegerField()),
            "m_at": Cast(Value(None), DateTimeField()),
        }
        named = {"m_source": Value(source, output_field=CharField()), "m_table": F("table_id"), **nothing, **columns}
        # Annotated by name, which the stubs cannot follow: each row is ``_MONEY_COLUMNS``.
        return cast("QuerySet[Any, _MoneyRow]", rows.annotate(**named).values_list(*_MONEY_COLUMNS).order_by())

    summed = {} if table_ids is None else {"table_id__in": list(table_ids)}
    buy_ins = shaped(
        BuyIn.objects.filter(shift=shift, **summed).values("table_id"), "drop", m_cents=Sum("amount_cents")
    )
    received = shaped(
        Slip.objects.filter(shift=shift, status=Slip.Status.RECEIVED, **summed).values("table_id"),
        "received",
        m_cents=Sum("total_cents", filter=Q(kind=Slip.Kind.FILL)),
        m_more=Sum("total_cents", filter=Q(kind=Slip.Kind.CREDIT)),
    )
    pending = shaped(
        Slip.objects.filter(shift=shift, status__in=_PENDING, **summed),
        "pending",
        m_kind=F("kind"),
        m_number=F("number"),
        m_status=F("status"),
        m_cents=F("total_cents"),
        m_at=F("requested_at"),
    )
    openers = shaped(
        TrayCount.objects.filter(
            shift=shift, kind=TrayCount.Kind.OPENER, expected_cents__isnull=False, **summed
        ).exclude(total_cents=F("expected_cents")),
        "opener",
        m_status=F("status"),
        m_cents=F("total_cents"),
        m_more=F("expected_cents"),
        m_at=F("counted_at"),
    )
    return buy_ins.union(received, pending, openers, all=True)


_LEVELS = {"escalate": 0, "report": 1, "none": 2}


def _table_money(
    shift: Shift, names: dict[int, str], table_ids: Collection[int] | None
) -> tuple[dict[int, _Money], list[PendingSlip], list[TrayDiscrepancy]]:
    """Per table (of ``table_ids``, or every table), the drop recorded (buy-ins), the fills and credits received and
    the slips pending; the pending slips (oldest first) and the openers that differ from the table's last closer,
    confirmed or waiting for their confirmation (escalations first, then written reports). One query."""
    money: dict[int, _Money] = defaultdict(_Money)
    slips: list[PendingSlip] = []
    discrepancies: list[TrayDiscrepancy] = []
    kinds = {value: str(label) for value, label in Slip.Kind.choices}
    statuses = {value: str(label) for value, label in Slip.Status.choices}
    for source, table_id, kind, number, status, cents, more, at in _money_rows(shift, table_ids):
        cents = int(cents or 0)  # PostgreSQL sums bigints as numeric
        got = money[table_id]
        if source == "drop":
            got.drop += cents
        elif source == "received":
            got.fills, got.credits = cents, int(more or 0)
        elif source == "pending":
            assert at is not None  # a slip's requested_at is NOT NULL
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
            assert more is not None and at is not None  # openers with an expected total; counted_at is NOT NULL
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
    return money, _slips_in_order(slips), _discrepancies_in_order(discrepancies)


def _slips_in_order(slips: Iterable[PendingSlip]) -> list[PendingSlip]:
    return sorted(slips, key=lambda slip: (slip.requested_at, slip.kind, slip.number))


def _discrepancies_in_order(found: Iterable[TrayDiscrepancy]) -> list[TrayDiscrepancy]:
    return sorted(found, key=lambda one: (_LEVELS.get(one.level, 3), one.table_name, one.counted_at))


def _drift(table: Table) -> HoldDrift | None:
    """The table's hold drift, when it says something: not before its first settled round (``getattr``: a table
    without a window raises RelatedObjectDoesNotExist, an AttributeError), nor for a window with no variance (the
    points games' rake, a player bank's commission: the house's win is what it expects)."""
    drift = hold_drift(getattr(table, "hold_window", None))
    return drift if drift is not None and drift.z is not None else None


# --- the floor's lines, kept between refreshes ----------------------------------------------------
#
# At 2,000 tables, reading and drawing every table's line takes about a second; between two refreshes a few tables
# change. So each process keeps the lines it last read (``_FloorKept``) with where the floor's log of changed tables
# (``tables.live``, in Redis) stood before it read them, and a refresh reads again only the tables the log names
# since: every service that changes what a line shows (a round's move, a wager, a settle or a correction, the table's
# money, its set-up, a rated seat) marks its table there when it commits. What changes with the clock alone (the
# rounds an hour, a rated session's figures) is worked out again at every refresh; the rated players seated now are
# read whole (one query, a few rows a table). What the services do not mark (an edit in the admin, a pit renamed) is
# read within ``FLOOR_KEPT_SECONDS``, when the whole floor is read again. Without the shared log (the embedded
# default) nothing is kept: every refresh reads the whole floor, as it must when another process may have changed it.
# Correct with many processes and threads: a process's lines are those of the database at or after the position it
# keeps, and anything committed after that position is named by the log at its next refresh.

FLOOR_KEPT_SECONDS = 300


@dataclass(frozen=True)
class _FloorKept:
    shift: tuple[int, str] | None
    position: str  # the floor's log before the lines were read
    read_at: float  # when the whole floor was last read (time.monotonic)
    lines: dict[int, TableLine]  # by table id, in the floor's order (pit name, table name)
    slips: list[PendingSlip]  # the floor's, in their order
    discrepancies: list[TrayDiscrepancy]
    # The big wins, and what they were read under: the thresholds and the newest posting (a settlement, a correction
    # or a reversal since reads them again).
    big_wins: tuple[tuple[object, ...], list[BigWin], bool] = ((), [], False)
    sealed: SealedShift | None = None


_floor_kept: list[_FloorKept | None] = [None]


def floor_lines_forget() -> None:
    """Forget the lines this process keeps: the next dashboard reads the whole floor (tests start afresh)."""
    _floor_kept[0] = None


def _floor_members() -> tuple[int, int]:
    """How many tables the floor has and the newest one's id (one query)."""
    got = Table.objects.aggregate(tables=Count("pk"), newest=Max("pk"))
    return got["tables"], got["newest"] or 0


def _labels() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """The games', the tables' statuses' and the round states' names in the active language."""
    return (
        {value: str(label) for value, label in Game.choices},
        {value: str(label) for value, label in Table.Status.choices},
        {value: str(label) for value, label in ROUND_STATE_LABELS.items()},
    )


def _line(
    table: WithAnnotations[Table, _LatestRound],
    got: Figures,
    cash: _Money,
    labels: tuple[dict[str, str], dict[str, str], dict[str, str]],
) -> TableLine:
    games, statuses, states = labels
    return TableLine(
        table=table,
        round_id=table.latest_round_id,
        round_number=table.latest_round_number,
        round_state=table.latest_round_state,
        banking=table.banking_mode != rule_options.NO_BANK,
        bank_seat=table.bank_seat_number,
        bank_in_a_row=table.bank_in_a_row,
        dealer_name=table.dealer_name or "",
        game_label=games.get(table.game, table.game),
        status_label=statuses.get(table.status, table.status),
        round_state_label=states.get(table.latest_round_state or "", ""),
        rounds_settled=got.settled,
        first_opened=got.first_opened,
        handle_cents=got.handle,
        players_cents=-(got.house + got.commission + got.rake),
        commission_cents=got.commission,
        rake_cents=got.rake,
        drop_cents=cash.drop,
        fills_cents=cash.fills,
        credits_cents=cash.credits,
        slips_pending=cash.pending,
        hold=_drift(table),
    )


def _place(line: TableLine | None) -> tuple[str, str]:
    """Where a table's line stands on the floor: its pit's name, its name."""
    return ("", "") if line is None else (line.table.pit.name, line.table.name)


def _freshened(
    lines: dict[int, TableLine], *, seated: dict[int, list[RatedSeatNow]], now: dt.datetime, shift_open: bool
) -> dict[int, TableLine]:
    """The lines with what changes with the clock alone worked out for ``now``: the rounds an hour (shown to one
    decimal) and the rated players seated now. A line where nothing shown differs stays the same object (its drawn
    row is kept: ``pit.templatetags.pit_rows``). One pass, a few microseconds a line (2,000 at every refresh)."""
    fresh: dict[int, TableLine] = {}
    shortest = RATE_WINDOW_MIN.total_seconds()
    for pk, line in lines.items():
        rated = tuple(seated.get(pk, ())) if pk in seated or line.rated else ()
        pace = None
        if shift_open and line.first_opened is not None:
            pace = line.rounds_settled * 3600 / max((now - line.first_opened).total_seconds(), shortest)
        was = line.rounds_per_hour
        same_pace = round(pace, 1) == round(was, 1) if pace is not None and was is not None else pace is was
        fresh[pk] = line if same_pace and rated == line.rated else replace(line, rated=rated, rounds_per_hour=pace)
    return fresh


def pit_dashboard(
    *, now: dt.datetime | None = None, pit_id: int | None = None, position: str | None = None
) -> PitDashboard:
    """Every table at a glance with its shift figures, its rated players and its hold drift, and the alerts, in a
    fixed number of queries (eight); with ``pit_id``, the tables of that pit and their alerts only.

    Figures are for the open shift (none when no shift is open); requests waiting for a
    supervisor are listed whatever shift they were asked in. The shift's figures are the
    sealed sums kept in the cache plus what is newer (see ``SealedShift``); the table's money
    (drop recorded, fills and credits, slips pending, tray discrepancies) is read whole.
    ``position``: where the floor's log of changed tables stood before this was called (``tables.live``); with it,
    only the tables changed since this process last read the floor are read again (``_FloorKept``).
    """
    now = now or timezone.now()
    kept = _floor_kept[0]
    if position is None or kept is None or time.monotonic() - kept.read_at >= FLOOR_KEPT_SECONDS:
        kept = None
    # The sealed figures this process last used serve a refresh of a few tables (any sealed state is consistent
    # with the rows newer than it); a read of the whole floor takes the newest in the cache.
    cached: SealedShift | None = kept.sealed if kept is not None else cache.get(FIGURES_CACHE_KEY)
    shift = shift_and_marks(cached, now=now)
    key = (shift.pk, shift.opened_at.isoformat()) if shift is not None else None
    again: set[int] | None = None  # the tables read again; None: every table
    if kept is not None and kept.shift == key:
        changed = tables_changed_since(kept.position)
        again = changed[1] if changed is not None else None
    if again is not None and kept is not None and _floor_members() != (len(kept.lines), max(kept.lines, default=0)):
        again = None  # a table added or gone (past the services too): the whole floor, in its order
    everywhere = _tables_with_latest_round()
    tables = list(everywhere if again is None else everywhere.filter(pk__in=again))
    earlier: dict[int, TableLine] = {} if again is None or kept is None else kept.lines
    fresh = {table.pk: table for table in tables}
    seated = rated_seated_now(now=now)
    figures: dict[int, Figures] = {}
    big_wins: list[BigWin] = []
    big_wins_more = False
    wins_read: tuple[object, ...] = ()
    sealed: SealedShift | None = None
    money: dict[int, _Money] = {}
    slips: list[PendingSlip] = []
    discrepancies: list[TrayDiscrepancy] = []
    if shift is not None:
        key = (shift.pk, shift.opened_at.isoformat())
        sealed = cached if cached is not None and cached.shift == key else SealedShift(shift=key)
        thresholds = tuple(
            sorted(
                (pk, table.big_win_cents)
                for pk, table in ({pk: line.table for pk, line in earlier.items()} | fresh).items()
                if table.big_win_cents is not None
            )
        )
        if thresholds != sealed.thresholds:  # another threshold: the sealed big wins are read again
            sealed.thresholds, sealed.postings_mark, sealed.big_ids = thresholds, 0, ()
        fresh_rounds = rounds_since(shift, sealed, again)
        fresh_money = money_since(shift, sealed, again)
        wins_read = (thresholds, shift.newest_posting)
        if again is not None and kept is not None and kept.big_wins[0] == wins_read:
            _, big_wins, big_wins_more = kept.big_wins  # no posting since: the same
        else:
            big_wins, big_wins_more = big_wins_since(shift, sealed)
            cache.set(FIGURES_CACHE_KEY, sealed, FIGURES_CACHE_SECONDS)  # a refresh of a few tables seals no more
        names = {pk: line.table.name for pk, line in earlier.items()} | {pk: t.name for pk, t in fresh.items()}
        money, slips, discrepancies = _table_money(shift, names, again)
        if again is not None and kept is not None:  # the kept lists with the tables read again
            slips = _slips_in_order([*(slip for slip in kept.slips if slip.table_id not in again), *slips])
            discrepancies = _discrepancies_in_order(
                [*(found for found in kept.discrepancies if found.table_id not in again), *discrepancies]
            )
        for pk in fresh:
            figures[pk] = Figures().plus(sealed.tables.get(pk)).plus(fresh_rounds.get(pk)).plus(fresh_money.get(pk))
    labels = _labels()
    made = {
        pk: _line(table, figures.get(pk, Figures()), money.get(pk, _Money()), labels) for pk, table in fresh.items()
    }
    if again is None:
        everyone = made
    else:  # the kept lines with the ones read again; gone tables dropped; the floor's order kept
        everyone = {pk: line for pk, line in earlier.items() if pk not in again} | made
        if any(_place(line) != _place(earlier.get(pk)) for pk, line in made.items()):  # renamed, moved, gone
            everyone = dict(sorted(everyone.items(), key=lambda item: _place(item[1])))
    everyone = _freshened(everyone, seated=seated, now=now, shift_open=shift is not None)
    if position is not None:
        read_at = kept.read_at if again is not None and kept is not None else time.monotonic()
        _floor_kept[0] = _FloorKept(
            shift=key,
            position=position,
            read_at=read_at,
            lines=everyone,
            slips=slips,
            discrepancies=discrepancies,
            big_wins=(wins_read, big_wins, big_wins_more),
            sealed=sealed,
        )
    lines = [line for line in everyone.values() if pit_id is None or line.table.pit_id == pit_id]
    if pit_id is not None:  # the pit's own alerts: its tables' wins, slips and trays
        mine = {line.table.pk for line in lines}
        big_wins = [win for win in big_wins if win.table_id in mine]
        slips = [slip for slip in slips if slip.table_id in mine]
        discrepancies = [found for found in discrepancies if found.table_id in mine]
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
        pending=list(
            adjustment_list(status=Adjustment.Status.PENDING)
            .filter(**({} if pit_id is None else {"round__table__pit_id": pit_id}))
            .order_by("requested_at")
        ),
        big_wins=big_wins,
        big_wins_more=big_wins_more,
        bank_must_pass=must_pass,
        slips=slips,
        discrepancies=discrepancies,
    )
