"""The shift's figures on the dashboard, read once and kept: what can no longer change is summed in the cache and
each refresh reads only what is newer (rounds and their wagers, the house's ledger entries, the settlements above a
table's big-win threshold)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict, cast

from django.db.models import (
    BigIntegerField,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from casino.models import Shift
from ledger.models import LedgerEntry, Posting
from pit.dashboard_rows import BIG_WINS_SHOWN, MAX_SEATS, BigWin
from rounds.models import Round
from rounds.results import stored_result
from rounds.selectors import entries_of_rounds, joined_round_value, round_value, shift_round_ids
from rounds.states import RoundState
from tables.models import Table

# --- the shift's figures, read once and kept ------------------------------------------------------
#
# Summing a whole shift on every refresh would read every round, wager and ledger entry of it
# (a million rows at 200 tables after eight hours). Instead the sums of what can no longer
# change are kept in the cache (``SealedShift``) and each refresh reads only what is newer.
# What can no longer change: a finished round (settled or voided: final states) with its
# wagers, and a ledger entry or posting (append-only). A row is only sealed once it is
# older than ``SEAL_MARGIN`` by its own timestamp, and so is every row with a lower id: an
# id below a sealed one can only belong to a transaction that has stayed open that long
# (ids are handed out at insert, commits may come in another order). The first refresh of
# a shift (or after the cache is cleared) reads the whole shift and seals it.

SEAL_MARGIN = dt.timedelta(minutes=1)
FIGURES_CACHE_KEY = "casino:pit-dashboard:sealed:v2"  # v2: kept as pit.shift_figures.SealedShift
FIGURES_CACHE_SECONDS = 24 * 3600


@dataclass
class Figures:
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

    def plus(self, other: Figures | None) -> Figures:
        if other is None:
            return self
        opened = [when for when in (self.first_opened, other.first_opened) if when is not None]
        return Figures(
            settled=self.settled + other.settled,
            first_opened=min(opened) if opened else None,
            handle=self.handle + other.handle,
            house=self.house + other.house,
            commission=self.commission + other.commission,
            rake=self.rake + other.rake,
        )


@dataclass
class SealedShift:
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
    tables: dict[int, Figures] = field(default_factory=dict)
    thresholds: tuple[tuple[int, int], ...] = ()
    big_ids: tuple[int, ...] = ()

    def figures(self, table_id: int) -> Figures:
        return self.tables.setdefault(table_id, Figures())


def _newest_before(model: type[Any], stamp: str, *, above: int, cutoff: dt.datetime) -> Subquery:
    """The highest id above ``above`` of a row stamped before ``cutoff`` (reads only the newest rows)."""
    rows = model.objects.filter(pk__gt=above, **{f"{stamp}__lt": cutoff}).order_by("-pk").values("pk")[:1]
    return Subquery(rows)


class _SealMarks(TypedDict):
    """How far rounds, ledger entries and postings can be sealed now: the highest id of each old enough (None: no
    new row is)."""

    seal_rounds: int | None
    seal_entries: int | None
    seal_postings: int | None
    newest_posting: int | None  # the ledger's newest posting (a settlement, a correction or a reversal since?)


if TYPE_CHECKING:  # the stubs' extensions are a development requirement
    from django_stubs_ext import WithAnnotations

    # The open shift with its ``_SealMarks``.
    MarkedShift = WithAnnotations[Shift, _SealMarks]


def shift_and_marks(sealed: SealedShift | None, *, now: dt.datetime) -> MarkedShift | None:
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
            newest_posting=Subquery(Posting.objects.order_by("-pk").values("pk")[:1]),
        )
        .first()
    )


class _RoundRow(TypedDict):
    """A round as ``rounds_since`` reads it: whose it is, its state and opening, and its handle (its wagers)."""

    pk: int
    shift_id: int
    table_id: int
    state: str
    opened_at: dt.datetime
    handle: int | None


def rounds_since(shift: MarkedShift, sealed: SealedShift, tables: Collection[int] | None = None) -> dict[int, Figures]:
    """Per table, the rounds not sealed yet; seals those that now can be (one query, a row a round). With ``tables``,
    the rounds of those tables only, and nothing sealed (a refresh that reads a few tables again: ``pit.selectors``).

    Once something is sealed the rounds are found by id alone (the rounds of another shift are
    skipped here): filtering by shift too would lead SQLite to read every round of the
    shift through the shift's index.
    """
    seal_to = sealed.rounds_mark if tables is not None else max(sealed.rounds_mark, shift.seal_rounds or 0)
    only = {} if tables is None else {"table_id__in": list(tables)}

    def per_round(rounds: QuerySet[Round]) -> QuerySet[Round, _RoundRow]:
        rows = rounds.filter(**only).values("pk", "shift_id", "table_id", "state", "opened_at")
        return rows.annotate(handle=Sum("wagers__amount_cents")).order_by()

    if not sealed.rounds_mark:
        rows = per_round(Round.objects.filter(shift=shift))
    elif tables is not None:  # the tables' rounds from their oldest not sealed (a few tables: a few hundred rows)
        rows = per_round(Round.objects.filter(shift=shift, pk__gte=min(sealed.unfinished, default=seal_to)))
    else:  # two index reads (an OR of them would make SQLite read every round)
        rows = per_round(Round.objects.filter(pk__gt=sealed.rounds_mark))
        if sealed.unfinished:
            rows = rows.union(per_round(Round.objects.filter(pk__in=sorted(sealed.unfinished))), all=True)
    fresh: dict[int, Figures] = defaultdict(Figures)
    for row in rows:
        if row["shift_id"] != shift.pk:
            continue
        if tables is not None and row["pk"] <= seal_to and row["pk"] not in sealed.unfinished:
            continue  # summed in the sealed figures
        if tables is None and row["pk"] <= seal_to:
            if row["state"] in (RoundState.SETTLED, RoundState.VOIDED):  # finished: summed for good
                sealed.figures(row["table_id"]).add_round(
                    state=row["state"], opened_at=row["opened_at"], handle=row["handle"]
                )
                sealed.unfinished.discard(row["pk"])
                continue
            sealed.unfinished.add(row["pk"])
        fresh[row["table_id"]].add_round(state=row["state"], opened_at=row["opened_at"], handle=row["handle"])
    sealed.rounds_mark = seal_to
    return fresh


_MONEY = {
    "house": LedgerEntry.Account.HOUSE,
    "commission": LedgerEntry.Account.COMMISSION,
    "rake": LedgerEntry.Account.RAKE,
}


def money_since(shift: MarkedShift, sealed: SealedShift, tables: Collection[int] | None = None) -> dict[int, Figures]:
    """Per table, the house's bank result, commission and rake in the ledger entries not sealed yet (one query). With
    ``tables``, the entries of those tables only, and nothing sealed (as ``rounds_since``).

    Only the house's accounts are summed (a few entries a round instead of every player's):
    the players' result is their opposite, since every posting balances and a settled
    round's stakes are off the layout again. Unsettled and voided rounds have none.
    """
    seal_to = sealed.entries_mark if tables is not None else max(sealed.entries_mark, shift.seal_entries or 0)
    sums = {}
    for name, account in _MONEY.items():
        sums[f"sealed_{name}"] = Sum("amount_cents", filter=Q(account=account, pk__lte=seal_to))
        sums[name] = Sum("amount_cents", filter=Q(account=account, pk__gt=seal_to))
    # The entries joined to their rounds, of this shift (a correction of an earlier shift's round is that shift's)
    # and of ``tables`` when named, summed by table in the database; the new ones only once some are sealed.
    rows = entries_of_rounds(shifts=[shift.pk], tables=None if tables is None else list(tables)).filter(
        pk__gt=sealed.entries_mark, account__in=_MONEY.values()
    )
    by_table: Iterable[Mapping[str, Any]] = (
        rows.values(round_table=joined_round_value("table_id")).annotate(**sums).order_by()
    )
    fresh: dict[int, Figures] = {}
    for row in by_table:
        table_id = row["round_table"]
        if tables is None:
            sealed.figures(table_id).add_money(**{name: row[f"sealed_{name}"] for name in _MONEY})
        fresh.setdefault(table_id, Figures()).add_money(**{name: row[name] for name in _MONEY})
    sealed.entries_mark = seal_to
    return fresh


class _SettlementRow(TypedDict):
    """A settlement with a big win as ``big_wins_since`` reads it, with its round's shift, number and table, and
    the table's name and big-win threshold."""

    pk: int
    round_id: int
    round_shift: int
    round_number: int
    round_table: int
    table_name: str
    threshold: int | None
    result: object  # as stored: read by ``rounds.results.stored_result``
    created_at: dt.datetime


def big_wins_since(shift: MarkedShift, sealed: SealedShift) -> tuple[list[BigWin], bool]:
    """Seats that won more than their table's threshold in a settlement of the shift still in force (one query).

    The database compares each seat's ``won_cents`` in the stored result with the threshold,
    among the settlements not sealed yet and the sealed ones that had a big win, so only
    settlements with a big win come back: the newest ``BIG_WINS_SHOWN``, and whether there
    were more.
    """
    seal_to = max(sealed.postings_mark, shift.seal_postings or 0)
    won = {f"won_{i}": Cast(KT(f"result__seats__{i}__won_cents"), BigIntegerField()) for i in range(MAX_SEATS)}
    # The ledger holds the round's id only: its shift, number and table, and the table's threshold, looked up for
    # the settlements that come back only. The database keeps those where a seat won more than the lowest threshold
    # of the floor (none without one); each is held to its own table's threshold here, newest first, until one more
    # than is shown.
    lowest = Subquery(  # one value for the whole query (no outer reference): the database reads it once
        Table.objects.filter(big_win_cents__isnull=False).order_by("big_win_cents").values("big_win_cents")[:1]
    )
    above = Q()
    for name in won:
        above |= Q(**{f"{name}__gt": lowest})
    of_round = {
        "round_shift": round_value("shift_id"),
        "round_number": round_value("number"),
        "round_table": round_value("table_id"),
        "table_name": round_value("table__name"),
        "threshold": round_value("table__big_win_cents"),
    }
    fields = ("pk", "round_id", *of_round, "result", "created_at", *won)

    def settlements(**where: Any) -> QuerySet[Posting, _SettlementRow]:
        rows = Posting.objects.filter(kind=Posting.Kind.SETTLEMENT, reversed_by__isnull=True, **where)
        # The seats' wins are annotated by name (``won``), which the stubs cannot follow: the rows are ``fields``.
        rows = rows.annotate(**won).filter(above).annotate(**of_round)
        return cast("QuerySet[Posting, _SettlementRow]", rows.values(*fields).order_by())

    if not sealed.postings_mark:
        candidates = settlements(round_id__in=shift_round_ids(shift))
    else:  # by id alone, as for the rounds; the sealed big wins again, in case one was reversed since
        candidates = settlements(pk__gt=sealed.postings_mark)
        if sealed.big_ids:
            candidates = candidates.union(settlements(pk__in=sealed.big_ids), all=True)
    newest: list[_SettlementRow] = []
    for row in candidates.order_by("-pk").iterator(chunk_size=BIG_WINS_SHOWN + 1):
        seats = cast("Mapping[str, int | None]", row)  # the wins, by the names in ``won``
        threshold = row["threshold"]
        if threshold is not None and any((cents := seats[name]) is not None and cents > threshold for name in won):
            newest.append(row)
            if len(newest) > BIG_WINS_SHOWN:
                break
    rows = [row for row in newest if row["round_shift"] == shift.pk]
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
            threshold_cents=threshold,
            settled_at=row["created_at"],
        )
        for row in rows
        if (threshold := row["threshold"]) is not None and (result := stored_result(row["result"])) is not None
        for seat in result["seats"]
        if seat["won_cents"] > threshold
    ]
    return wins[:BIG_WINS_SHOWN], len(rows) > BIG_WINS_SHOWN or len(wins) > BIG_WINS_SHOWN
