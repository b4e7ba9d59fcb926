"""The end-of-shift, commission and audit reports of a closed shift, the Master Game Report (its sections in
``pit.master_game``), and their CSV and HTML.

Rule: a report reads the ledger (``LedgerEntry`` / ``Posting``, and ``Wager`` for the handle) and the
audit log only; it never recomputes money from the hands. Its totals therefore reconcile, to the cent,
with the ledger that ``ledger.verify.ledger_verify`` checks.

The builders return plain JSON-ready figures (integer cents, strings, lists) with nothing of the build
itself in them (no "generated at"), so the same shift always gives the same figures and the same
``content_hash``; ``pit.report_files`` turns the figures into the CSV and HTML files.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypedDict, TypeVar, cast

from django.core.exceptions import ImproperlyConfigured
from django.db import connections
from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncHour
from django.utils import timezone

from casino.audit import canonical_json
from casino.audit_verify import audit_log_verify
from casino.models import AuditEvent, Shift
from casino.records import subject_type
from casino.users import Actor
from ledger.models import LedgerEntry, Posting
from pit import dealer_performance_report, master_game, rating_report
from pit.report_controls import report_controls
from pit.report_figures import (
    FIGURES,
    AdjustmentLine,
    AuditFigures,
    AuditLine,
    CommissionFigures,
    DealerReportFigures,
    FigureCounts,
    HourFigures,
    MasterGameFigures,
    RatingFigures,
    ReportFigures,
    ShiftFigures,
    ShiftHead,
    TableFigures,
)
from rounds.models import Adjustment, Round, Wager
from rounds.selectors import (
    entries_of_rounds,
    joined_round_value,
    round_value,
    seat_value,
    shift_round_ids,
)
from rounds.states import RoundState
from settlement.models import ShiftReport
from tables.models import Seat, Table

# The ledger account whose entries (all of them, reversals included) give each money figure.
_ACCOUNT_FIGURES = {
    "commission": "commission_cents",
    "rake": "rake_cents",
    "house": "house_cents",
    "banker": "banker_cents",
    "player": "player_cents",
}
_OUTCOME_FIGURES = {"win": "wins", "push": "pushes", "loss": "losses", "no_action": "no_actions"}


def content_hash(data: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of the canonical JSON of the figures (sorted keys, no whitespace), as the audit chain hashes."""
    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()


def _zero() -> dict[str, int]:
    return dict.fromkeys(FIGURES, 0)


def _counts(tally: Mapping[str, int]) -> FigureCounts:
    """A tally of ``_zero()``'s keys as the report's figures, in their order."""
    return cast(FigureCounts, {name: tally[name] for name in FIGURES})  # FIGURES are FigureCounts' keys


def _add(into: dict[str, int], figures: Mapping[str, int]) -> None:
    for name in FIGURES:
        into[name] += figures[name]


def _username(user: Actor | None) -> str:
    return user.get_username() if user is not None else ""


def _undone(shift: Shift) -> list[int]:
    """The ids of the shift's settlements a reversal undid (a correction's first settlement): a handful.

    Player entries of kind ``payout`` or ``commission`` and banker entries of kind ``commission`` are written
    by settlement postings only (a void's and a reversal's entries are of kind ``reversal``): so their sums
    over the settlements in force are their sums over the whole shift less their sums over these. Both sides
    are cheap: one grouped scan of the shift's entries, and an index lookup of a few postings' entries,
    instead of a semi-join of millions of entries with the 200,000 settlements in force (and an anti-join
    of those with every posting). Read first, apart (``reverses_id IS NOT NULL``: the unique index), so the
    planner sees a list of ids, not a join it misjudges."""
    reversals = Posting.objects.filter(
        reverses__isnull=False, reverses__round_id__in=shift_round_ids(shift), reverses__kind=Posting.Kind.SETTLEMENT
    )
    return sorted(reversals.order_by().values_list("reverses_id", flat=True))


def _seat_outcome(line: Mapping[str, Any]) -> str:
    """A seat's outcome on a settlement: the banked games say it; in the points games it is the sign of the win.

    ``_OUTCOME_SQL`` is the same rule in SQL (what the reports count with); this is the rule in Python."""
    if "outcome" in line:
        return str(line["outcome"])
    won = int(line.get("won_cents", 0))
    return "win" if won > 0 else "loss" if won < 0 else "push"


# ``_seat_outcome`` of each seat line (``line``) of a settlement's ``result``, in each database's JSON dialect:
# a key that is present (even as JSON null) is not SQL NULL in either.
_OUTCOME_SQL = {
    "postgresql": (
        "CASE WHEN s.line -> 'outcome' IS NOT NULL THEN s.line ->> 'outcome' "
        "WHEN COALESCE((s.line ->> 'won_cents')::numeric, 0) > 0 THEN 'win' "
        "WHEN COALESCE((s.line ->> 'won_cents')::numeric, 0) < 0 THEN 'loss' ELSE 'push' END"
    ),
    "sqlite": (
        "CASE WHEN json_type(s.value, '$.outcome') IS NOT NULL THEN json_extract(s.value, '$.outcome') "
        "WHEN COALESCE(json_extract(s.value, '$.won_cents'), 0) > 0 THEN 'win' "
        "WHEN COALESCE(json_extract(s.value, '$.won_cents'), 0) < 0 THEN 'loss' ELSE 'push' END"
    ),
}
# The seat lines of each settlement's result: one row a seat.
_SEATS_SQL = {
    "postgresql": "CROSS JOIN LATERAL jsonb_array_elements(p.result -> 'seats') AS s(line)",
    "sqlite": "CROSS JOIN json_each(p.result, '$.seats') AS s",
}


def _outcome_counts(shift: Shift, undone: list[int]) -> list[tuple[int, str, int]]:
    """(table id, outcome, seats): the seat outcomes (``_seat_outcome``) of the shift's settlements in force
    (those of the shift but the ``undone`` ones), counted in the database from the results' JSON rather than
    by reading every result into Python."""
    connection = connections[Posting.objects.db]
    vendor = connection.vendor
    if vendor not in _OUTCOME_SQL:  # the settings accept no other database (config.settings)
        raise ImproperlyConfigured(f"Tableside's reports run on PostgreSQL or SQLite, not {vendor}.")
    quote = connection.ops.quote_name
    postings, rounds = quote(Posting._meta.db_table), quote(Round._meta.db_table)
    sql = (
        f"SELECT r.table_id, {_OUTCOME_SQL[vendor]} AS outcome, COUNT(*) "
        f"FROM {postings} p JOIN {rounds} r ON r.id = p.round_id {_SEATS_SQL[vendor]} "
        f"WHERE r.shift_id = %s AND p.kind = %s "
        + (f"AND p.id NOT IN ({', '.join(['%s'] * len(undone))}) " if undone else "")
        + "GROUP BY r.table_id, outcome"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [shift.pk, Posting.Kind.SETTLEMENT.value, *undone])
        return [(table_id, outcome, count) for table_id, outcome, count in cursor.fetchall()]


def _adjustments(shift: Shift) -> list[AdjustmentLine]:
    """Voids and corrections: who asked (the request's dealer, else the posting's actor), who approved and why."""
    approved = {
        (a.round_id, a.kind): a
        for a in Adjustment.objects.filter(round__shift=shift, status=Adjustment.Status.APPROVED).select_related(
            "requested_by", "decided_by"
        )
    }
    voids = {
        p.round_id: p
        for p in Posting.objects.filter(round_id__in=shift_round_ids(shift), kind=Posting.Kind.VOID).select_related(
            "actor"
        )
    }
    rows: list[AdjustmentLine] = []
    voided = (
        Round.objects.filter(shift=shift, state=RoundState.VOIDED)
        .select_related("table")
        .only("number", "void_reason", "table__name")  # not the rule-set snapshots (JSON) of a whole shift's voids
        .order_by("pk")
    )
    for round_ in voided:
        request = approved.get((round_.pk, Adjustment.Kind.VOID))
        posting = voids.get(round_.pk)
        actor = _username(posting.actor) if posting is not None else ""
        rows.append(
            {
                "kind": "void",
                "table": round_.table.name,
                "round": round_.number,
                "asked_by": _username(request.requested_by) if request else actor,
                "approved_by": _username(request.decided_by) if request else actor,
                "reason": request.reason if request else round_.void_reason,
            }
        )
    corrections = list(
        Posting.objects.filter(
            round_id__in=shift_round_ids(shift), kind=Posting.Kind.SETTLEMENT, corrects__isnull=False
        )
        .select_related("actor")
        .order_by("pk")
    )
    corrected = Round.objects.filter(pk__in={posting.round_id for posting in corrections}).select_related("table")
    rounds = {round_.pk: round_ for round_ in corrected}
    requests = {a.posting_id: a for a in approved.values() if a.kind == Adjustment.Kind.CORRECTION}
    for posting in corrections:
        assert posting.round_id is not None  # read by round
        round_ = rounds[posting.round_id]
        request = requests.get(posting.pk)
        rows.append(
            {
                "kind": "correction",
                "table": round_.table.name,
                "round": round_.number,
                "asked_by": _username(request.requested_by) if request else _username(posting.actor),
                "approved_by": _username(request.decided_by) if request else _username(posting.actor),
                "reason": request.reason if request else posting.reason,
            }
        )
    rows.sort(key=lambda row: (row["table"], row["round"], row["kind"]))
    return rows


def _shift_tables(shift: Shift) -> dict[int, Table]:
    """The tables that played in the shift, with their pit and dealer: one query, however many rounds."""
    tables = Table.objects.filter(pk__in=Round.objects.filter(shift=shift).values("table_id")).select_related(
        "pit", "dealer"
    )
    return {table.pk: table for table in tables}


def _shift_head(shift: Shift) -> ShiftHead:
    return {
        "gaming_day": shift.gaming_day.business_date.isoformat(),
        "number": shift.number,
        "name": shift.name,
        "opened_at": shift.opened_at.isoformat(),
        "closed_at": shift.closed_at.isoformat() if shift.closed_at else None,
    }


# The money figures of each hour of the shift (``hours``): the same ledger accounts, entry by entry.
HOUR_FIGURES = tuple(_ACCOUNT_FIGURES.values())


def _hours(rows: Iterable[_MoneyRow]) -> list[HourFigures]:
    """The shift's money by hour, from the rows of ``_money_by_table_and_hour``: the sums of the ledger entries
    on each account, grouped by the hour (in the floor's time zone, ``TIME_ZONE``) of the entry's
    ``created_at``. Only hours with entries appear, in order; each figure's hours sum to the floor's figure
    (the same entries, split by time)."""
    zone = timezone.get_default_timezone()
    hours: dict[dt.datetime, dict[str, int]] = defaultdict(lambda: dict.fromkeys(HOUR_FIGURES, 0))
    for row in rows:
        hours[row["hour"]][_ACCOUNT_FIGURES[row["account"]]] += row["total"] or 0
    return [
        {
            "hour": timezone.localtime(hour, zone).isoformat(),
            "commission_cents": figures["commission_cents"],
            "rake_cents": figures["rake_cents"],
            "house_cents": figures["house_cents"],
            "banker_cents": figures["banker_cents"],
            "player_cents": figures["player_cents"],
        }
        for hour, figures in sorted(hours.items())
    ]


# A payout to a player: what the ``payouts`` figure sums (in the settlements in force).
_PAYOUT = Q(account=LedgerEntry.Account.PLAYER, kind=LedgerEntry.Kind.PAYOUT, amount_cents__gt=0)


class _MoneyRow(TypedDict):
    """The sums of one account's ledger entries at one table in one hour (``_money_by_table_and_hour``)."""

    table: int
    hour: dt.datetime
    account: str
    total: int | None
    paid: int | None


def _money_by_table_and_hour(shift: Shift) -> list[_MoneyRow]:
    """The one read of the shift's ledger entries (millions) for the end-of-shift report: the sums on each
    account of ``_ACCOUNT_FIGURES`` by table and hour (``total``), and of the payouts among them (``paid``,
    reversed settlements included). A few thousand rows, from which the tables' and the hours' figures are
    summed in Python."""
    return list(
        entries_of_rounds(shifts=[shift.pk])
        .filter(account__in=list(_ACCOUNT_FIGURES))
        .annotate(hour=TruncHour("created_at", tzinfo=timezone.get_default_timezone()))
        .values("hour", "account", table=joined_round_value("table_id"))
        .annotate(total=Sum("amount_cents"), paid=Sum("amount_cents", filter=_PAYOUT))
        .order_by()
    )


def shift_figures(shift: Shift) -> ShiftFigures:
    """The end-of-shift report: per table, per pit and for the floor ("The reports").

    * rounds settled / voided: the shift's rounds by their final state;
    * wagers and handle: the count and sum of the wagers on rounds not voided;
    * wins / pushes / losses / no-actions: the seat outcomes of the settlements in force;
    * payouts: the positive ``player`` entries of kind ``payout`` in the settlements in force;
    * commission, rake, house, banker (player banks) and player results: the sums of every entry on
      those accounts (a reversal cancels what it undoes, so these are the figures in force);
    * hours: those money figures again, by hour of the ledger entries (the PDF's chart).
    """
    by_table = _shift_tables(shift)
    tables: dict[int, dict[str, int]] = defaultdict(_zero)
    states = Round.objects.filter(shift=shift).values("table_id", "state").annotate(count=Count("pk")).order_by()
    for row in states:
        figures = tables[row["table_id"]]
        if row["state"] == RoundState.SETTLED:
            figures["rounds_settled"] += row["count"]
        elif row["state"] == RoundState.VOIDED:
            figures["rounds_voided"] += row["count"]
    wagers = (
        Wager.objects.filter(round__shift=shift)
        .exclude(round__state=RoundState.VOIDED)
        .values("round__table_id")
        .annotate(count=Count("pk"), total=Sum("amount_cents"))
        .order_by()
    )
    for wagered in wagers:
        tables[wagered["round__table_id"]]["wagers"] += wagered["count"]
        tables[wagered["round__table_id"]]["handle_cents"] += wagered["total"] or 0
    money = _money_by_table_and_hour(shift)
    for line in money:
        figures = tables[line["table"]]
        figures[_ACCOUNT_FIGURES[line["account"]]] += line["total"] or 0
        figures["payouts_cents"] += line["paid"] or 0
    undone = _undone(shift)
    if undone:
        reversed_payouts = (
            LedgerEntry.objects.filter(_PAYOUT, posting_id__in=undone)
            .annotate(table=round_value("table_id"))
            .values("table")
            .annotate(total=Sum("amount_cents"))
            .order_by()
        )
        for reversed_payout in reversed_payouts:
            tables[reversed_payout["table"]]["payouts_cents"] -= reversed_payout["total"] or 0
    for table_id, outcome, count in _outcome_counts(shift, undone):
        tables[table_id][_OUTCOME_FIGURES[outcome]] += count
    table_rows: list[TableFigures] = sorted(
        (
            {"pit": by_table[table_id].pit.name, "table": by_table[table_id].name, **_counts(figures)}
            for table_id, figures in tables.items()
        ),
        key=lambda row: (row["pit"], row["table"]),
    )
    pits: dict[str, dict[str, int]] = defaultdict(_zero)
    floor = _zero()
    for table_id, figures in tables.items():
        _add(pits[by_table[table_id].pit.name], figures)
        _add(floor, figures)
    return {
        "kind": ShiftReport.Kind.SHIFT.value,
        "shift": _shift_head(shift),
        "tables": table_rows,
        "pits": [{"pit": name, **_counts(figures)} for name, figures in sorted(pits.items())],
        "floor": _counts(floor),
        "hours": _hours(money),
        "adjustments": _adjustments(shift),
        "controls": report_controls(),
    }


_Key = TypeVar("_Key", bound=tuple[str | int | None, ...])


def _in_order(totals: Mapping[_Key, int]) -> list[tuple[_Key, int]]:
    """The totals by their keys' text (a missing seat first)."""
    return sorted(totals.items(), key=lambda item: tuple("" if k is None else str(k) for k in item[0]))


# Commission paid by a banking seat: a player bank's (``banker``) or, against the house, the players'.
_PAID = Q(account__in=[LedgerEntry.Account.BANKER, LedgerEntry.Account.PLAYER], kind=LedgerEntry.Kind.COMMISSION)


def commission_figures(shift: Shift) -> CommissionFigures:
    """The commission report: the house's commission by table, by dealer and by banking seat.

    By table and by dealer (the table's dealer): the ``commission`` account's entries. By banking seat:
    who paid the commission in the settlements in force: a player bank pays it on its net win (entries on
    ``banker`` of kind ``commission``, under the bank's seat); against the house bank the players pay it
    (their ``player`` entries of kind ``commission``, under "house"). Each grouping sums to the floor's.
    """
    tables = _shift_tables(shift)
    by_table: dict[tuple[str, str], int] = defaultdict(int)
    by_dealer: dict[tuple[str], int] = defaultdict(int)
    by_bank: dict[tuple[str, str, int | None], int] = defaultdict(int)
    # What the banking seats paid, with the number of entries: a bank appears if an entry in force is its.
    paid: dict[tuple[int, str, int | None], list[int]] = defaultdict(lambda: [0, 0])
    commission = entries_of_rounds(shifts=[shift.pk]).filter(Q(account=LedgerEntry.Account.COMMISSION) | _PAID)
    # Grouped by the seat's id, its number looked up once a seat after: a seat's number read for every entry (a
    # subquery in the grouping) cost a second at 1,000,000 wagers.
    rows = list(
        commission.values("account", "seat_id", table=joined_round_value("table_id"))
        .annotate(total=Sum("amount_cents"), entries=Count("pk"))
        .order_by()
    )
    seat_numbers = dict(
        Seat.objects.filter(pk__in={row["seat_id"] for row in rows if row["seat_id"]}).values_list("pk", "number")
    )
    floor = 0
    for row in rows:
        seat_number = seat_numbers.get(row["seat_id"]) if row["seat_id"] else None
        table = tables[row["table"]]
        amount = row["total"] or 0
        if row["account"] == LedgerEntry.Account.COMMISSION:
            by_table[(table.pit.name, table.name)] += amount
            by_dealer[(_username(table.dealer),)] += amount
            floor += amount
        else:
            sums = paid[(row["table"], row["account"], seat_number)]
            sums[0] += amount
            sums[1] += row["entries"]
    undone = _undone(shift)
    if undone:
        reversed_paid = (
            LedgerEntry.objects.filter(_PAID, posting_id__in=undone)
            .annotate(table=round_value("table_id"), seat_number=seat_value())
            .values("table", "account", "seat_number")
            .annotate(total=Sum("amount_cents"), entries=Count("pk"))
            .order_by()
        )
        for undone_row in reversed_paid:
            sums = paid[(undone_row["table"], undone_row["account"], undone_row["seat_number"])]
            sums[0] -= undone_row["total"] or 0
            sums[1] -= undone_row["entries"]
    for (table_id, account, seat), (amount, entries) in paid.items():
        if entries <= 0:  # every entry of this bank was in a reversed settlement: not listed
            continue
        name = tables[table_id].name
        key = (name, "seat", seat) if account == LedgerEntry.Account.BANKER else (name, "house", None)
        by_bank[key] -= amount
    return {
        "kind": ShiftReport.Kind.COMMISSION.value,
        "shift": _shift_head(shift),
        "by_table": [
            {"pit": pit, "table": table, "commission_cents": amount} for (pit, table), amount in _in_order(by_table)
        ],
        "by_dealer": [{"dealer": dealer, "commission_cents": amount} for (dealer,), amount in _in_order(by_dealer)],
        "by_banking_seat": [
            {"table": table, "bank": bank, "seat": seat, "commission_cents": amount}
            for (table, bank, seat), amount in _in_order(by_bank)
        ],
        "floor": {"commission_cents": floor},
    }


def audit_figures(shift: Shift) -> AuditFigures:
    """The audit report: the shift's audit events and the chain's verification (DESIGN.md, "Ledger and audit").

    The shift's events are those that occurred between its opening and its closing, and those about the
    shift itself (its opening and closing). The chain result says whether the whole chain verifies and,
    if not, the first broken event; it leaves out the count of events checked, which grows after the shift.
    """
    assert shift.closed_at is not None, "only a closed shift has an audit report"
    events = AuditEvent.objects.filter(
        Q(occurred_at__gte=shift.opened_at, occurred_at__lte=shift.closed_at)
        | Q(subject_type=subject_type(Shift), subject_id=str(shift.pk))
    ).order_by("seq")
    columns = ("seq", "occurred_at", "actor_name", "event_type", "subject_type", "subject_id", "reason", "hash")
    rows: list[AuditLine] = [  # as rows, not models: a busy shift has 20,000
        {
            "seq": seq,
            "occurred_at": occurred_at.isoformat(),
            "actor": actor_name,
            "event_type": event_type,
            "subject": f"{subject_type}:{subject_id}",
            "reason": reason,
            "hash": hash_,
        }
        for seq, occurred_at, actor_name, event_type, subject_type, subject_id, reason, hash_ in events.values_list(
            *columns
        )
    ]
    chain = audit_log_verify()
    return {
        "kind": ShiftReport.Kind.AUDIT.value,
        "shift": _shift_head(shift),
        "events": rows,
        "chain": {
            "ok": chain.ok,
            "broken_seq": chain.broken_event.seq if chain.broken_event else None,
            "problem": chain.problem,
        },
        "controls": report_controls(),
    }


def master_game_figures(shift: Shift) -> MasterGameFigures:
    """The Master Game Report: per table the opener, closer, fills, credits, drop, win and hold beside
    the win the settlements computed and the variance, the slips and their numbers, and win and hold by pit, game,
    floor, gaming day, month and year to date (``pit.master_game``). Built once the shift's drop boxes are final
    (``pit.services.shift_report_build``)."""
    sections = master_game.master_game_sections(shift)
    return {
        "kind": ShiftReport.Kind.MASTER_GAME.value,
        "shift": _shift_head(shift),
        "tables": sections["tables"],
        "pits": sections["pits"],
        "games": sections["games"],
        "floor": sections["floor"],
        "periods": sections["periods"],
        "drop_variance": sections["drop_variance"],
        "boxes_missing": sections["boxes_missing"],
        "slips": sections["slips"],
        "slip_numbers": sections["slip_numbers"],
    }


def rating_figures(shift: Shift) -> RatingFigures:
    """The rating report: each rated session's play in the shift, from its ``RatedRound`` rows on the
    shift's rounds, with the floor's totals (``pit.rating_report``)."""
    sections = rating_report.rating_sections(shift)
    return {
        "kind": ShiftReport.Kind.RATINGS.value,
        "shift": _shift_head(shift),
        "sessions": sections["sessions"],
        "totals": sections["totals"],
        "settings": sections["settings"],
    }


def dealer_figures(shift: Shift) -> DealerReportFigures:
    """The dealer report: each dealer's pace, voids and corrections, and hold against its expectation at each game
    they dealt in the shift, with the floor's totals (``pit.dealer_performance_report``)."""
    sections = dealer_performance_report.dealer_sections(shift)
    return {
        "kind": ShiftReport.Kind.DEALERS.value,
        "shift": _shift_head(shift),
        "dealers": sections["dealers"],
        "totals": sections["totals"],
        "settings": sections["settings"],
    }


# A report's figures, of any kind.

BUILDERS: dict[str, Callable[[Shift], ReportFigures]] = {
    ShiftReport.Kind.SHIFT: shift_figures,
    ShiftReport.Kind.COMMISSION: commission_figures,
    ShiftReport.Kind.AUDIT: audit_figures,
    ShiftReport.Kind.MASTER_GAME: master_game_figures,
    ShiftReport.Kind.RATINGS: rating_figures,
    ShiftReport.Kind.DEALERS: dealer_figures,
}
