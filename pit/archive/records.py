"""Which rows a gaming day holds, table by table, and each table's columns as the archive's schema describes them.

A table of the archive is one model's rows (``Table``): the day's own records (its shifts, rounds, wagers, postings
and entries, the table's money, the requests to void or correct, the rated play) and the context they need to be
read (the pits, tables and seats they name, the players by id and tier, the staff). Each column is a stored field,
its value as the audit log's snapshots hold it (``casino.records.stored_value``): money in integer cents, moments in
UTC (ISO 8601), JSON as JSON. A player's name and card number are left out, as the audit trail leaves them out
(a player anonymised on request must not live on in an archive kept for years).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Q
from django.utils import translation
from django.utils.text import capfirst

from casino.models import GamingDay, Pit, Shift
from casino.records import stored_value, subject_type
from ledger.models import LedgerEntry, Posting
from pit.archive.verify_archive import canonical_json
from players.models import Player, RatedBuyIn, RatedRound, RatingPause, RatingSeat, RatingSession
from rounds.models import Adjustment, BankTurn, HouseWager, Round, Wager
from settlement.models import ShiftReport
from tables.models import BuyIn, DropCount, Seat, Slip, Table, TrayCount


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    meaning: str
    refers_to: str = ""  # the table whose ids it holds ("" for none)


@dataclass(frozen=True)
class ArchivedTable:
    """One table of the archive: written as ``data/NAME.csv`` and ``data/NAME.json``, the same rows in each."""

    name: str
    meaning: str
    columns: tuple[Column, ...]
    rows: list[dict[str, Any]]
    # The audit log's name for its rows when they are the day's own records (their later events belong to the
    # day too: a drop box counted after the close); "" for the context a reader needs.
    subject: str = ""
    files: dict[str, bytes] = field(default_factory=dict)  # further files its rows name (a report's PDF)
    folder: str = "data"

    @property
    def csv_path(self) -> str:
        return f"{self.folder}/{self.name}.csv"

    @property
    def json_path(self) -> str:
        return f"{self.folder}/{self.name}.json"


# What each archived model's rows are called in the archive (a foreign key names the file its row is in).
FILE_OF_MODEL: dict[type[models.Model], str] = {
    GamingDay: "gaming_days",
    Shift: "shifts",
    Pit: "pits",
    Table: "tables",
    Seat: "seats",
    Round: "rounds",
    BankTurn: "bank_turns",
    Wager: "wagers",
    HouseWager: "house_wagers",
    Adjustment: "void_and_correction_requests",
    Posting: "postings",
    LedgerEntry: "ledger_entries",
    TrayCount: "tray_counts",
    Slip: "slips",
    BuyIn: "buy_ins",
    DropCount: "drop_counts",
    Player: "players",
    RatingSession: "rating_sessions",
    RatingSeat: "rating_seats",
    RatingPause: "rating_pauses",
    RatedRound: "rated_rounds",
    RatedBuyIn: "rated_buy_ins",
    ShiftReport: "shift_reports",
}
STAFF = "staff"

_INTEGERS = {
    "AutoField",
    "BigAutoField",
    "SmallAutoField",
    "IntegerField",
    "BigIntegerField",
    "SmallIntegerField",
    "PositiveIntegerField",
    "PositiveBigIntegerField",
    "PositiveSmallIntegerField",
}
_TYPES = {
    "CharField": "text",
    "TextField": "text",
    "BooleanField": "boolean",
    "DateTimeField": "timestamp (UTC, ISO 8601)",
    "DateField": "date (ISO 8601)",
    "JSONField": "json",
    "FloatField": "float",
    "DecimalField": "decimal (as text)",
}


def _column_type(model_field: models.Field[Any, Any]) -> str:
    internal = model_field.get_internal_type()
    if model_field.is_relation or internal in _INTEGERS:
        if model_field.attname.endswith("_cents"):
            return "integer (cents)"
        if model_field.attname.endswith("_millicents"):
            return "integer (thousandths of a cent)"
        return "integer"
    return _TYPES.get(internal, internal.removesuffix("Field").lower())


def _column(model_field: models.Field[Any, Any]) -> Column:
    with translation.override("en"):
        meaning = capfirst(str(model_field.verbose_name))
        if model_field.primary_key:
            meaning = "The row's id (what other files' *_id columns name)"
        if model_field.choices:
            meaning += "; one of: " + ", ".join(f"{value} ({label})" for value, label in model_field.flatchoices)
    target = model_field.related_model if model_field.is_relation else None
    refers_to = ""
    if target is get_user_model():
        refers_to = STAFF
    elif isinstance(target, type) and target in FILE_OF_MODEL:
        refers_to = FILE_OF_MODEL[target]
    elif isinstance(target, type):
        with translation.override("en"):
            meaning += f"; the id of a {target._meta.verbose_name} (not in the archive)"
    if refers_to:
        meaning += f"; the id of a row of {refers_to}.csv"
    return Column(model_field.attname, _column_type(model_field), meaning, refers_to)


def model_table(
    model: type[models.Model],
    rows: models.QuerySet[Any],
    meaning: str,
    *,
    left_out: Iterable[str] = (),
    own_records: bool = True,
) -> ArchivedTable:
    """A model's rows, every stored field a column but those ``left_out``, in the order of their ids."""
    skipped = set(left_out)
    fields = [f for f in model._meta.concrete_fields if f.name not in skipped and f.attname not in skipped]
    values = rows.order_by("pk").values_list(*[f.attname for f in fields])
    return ArchivedTable(
        name=FILE_OF_MODEL[model],
        meaning=meaning,
        columns=tuple(_column(f) for f in fields),
        rows=[{f.attname: stored_value(f, v) for f, v in zip(fields, row, strict=True)} for row in values],
        subject=subject_type(model) if own_records else "",
    )


def day_tables(day: GamingDay) -> list[ArchivedTable]:
    """Every record of the gaming day, and the context they name, table by table (the staff and the audit log's
    events come apart: ``staff_table``, ``pit.archive.audit_slice``)."""
    assert day.closed_at is not None  # only a closed day is archived: its rounds no longer change
    rounds = Round.objects.filter(shift__gaming_day=day)
    postings = Posting.objects.filter(Q(shift__gaming_day=day) | Q(round_id__in=rounds.values("pk")))
    buy_ins = BuyIn.objects.filter(shift__gaming_day=day)
    rated_rounds = RatedRound.objects.filter(round__in=rounds)
    rated_buy_ins = RatedBuyIn.objects.filter(buy_in__in=buy_ins)
    sessions = RatingSession.objects.filter(
        Q(pk__in=rated_rounds.values("session"))
        | Q(pk__in=rated_buy_ins.values("session"))
        | (Q(started_at__lte=day.closed_at) & (Q(ended_at__isnull=True) | Q(ended_at__gte=day.opened_at)))
    )
    in_day = Q(shift__gaming_day=day)
    table_ids: set[int] = set()
    for rows in (
        rounds,
        Slip.objects.filter(in_day),
        TrayCount.objects.filter(in_day),
        buy_ins,
        DropCount.objects.filter(in_day),
        RatingSeat.objects.filter(session__in=sessions),
    ):
        table_ids.update(rows.values_list("table_id", flat=True).distinct())
    table_ids.update(t for t in postings.values_list("table_id", flat=True).distinct() if t is not None)
    tables = Table.objects.filter(pk__in=sorted(table_ids))

    own = [
        model_table(GamingDay, GamingDay.objects.filter(pk=day.pk), "The gaming day: the casino's accounting day."),
        model_table(Shift, Shift.objects.filter(gaming_day=day), "The day's shifts, one after another."),
        model_table(
            Round,
            rounds,
            "Every round played in the day's shifts: its rules as frozen when it opened (rule_set_snapshot), its "
            "deal and its hands; a round's money is in postings.csv and ledger_entries.csv (their round_id).",
        ),
        model_table(BankTurn, BankTurn.objects.filter(round__in=rounds), "Who banked each round (empty: the house)."),
        model_table(Wager, Wager.objects.filter(round__in=rounds), "Every wager taken on the day's rounds."),
        model_table(
            HouseWager,
            HouseWager.objects.filter(round__in=rounds),
            "The house's wager against a player bank (Pai Gow Poker).",
        ),
        model_table(
            Adjustment,
            Adjustment.objects.filter(round__in=rounds),
            "The requests to void or correct a round, with who asked, who decided (never the same person) and the "
            "posting that carried out an approval.",
        ),
        model_table(
            Posting,
            postings,
            "Every movement of money of the day: on a round (wager, settlement, void, reversal) or on a table's "
            "money in a shift (fill, credit, buy_in, drop). Its entries (ledger_entries.csv) sum to zero.",
        ),
        model_table(
            LedgerEntry,
            LedgerEntry.objects.filter(posting__in=postings),
            "The lines of each posting: amount_cents is what the account receives (negative: what leaves it). The "
            "entries of one posting sum to zero: the money in equals the money out.",
        ),
        model_table(TrayCount, TrayCount.objects.filter(in_day), "Counts of a table's chip tray, by denomination."),
        model_table(
            Slip, Slip.objects.filter(in_day), "Fill and credit slips, numbered without gaps per kind (voids kept)."
        ),
        model_table(BuyIn, buy_ins, "Cash or markers exchanged for chips at a seat (a void is a correcting row)."),
        model_table(DropCount, DropCount.objects.filter(in_day), "The count team's counts of each drop box."),
        model_table(
            RatingSession,
            sessions,
            "The rating sessions of rated players that played in the day (a session may run into the day before "
            "or after).",
        ),
        model_table(RatingSeat, RatingSeat.objects.filter(session__in=sessions), "Where each session sat."),
        model_table(RatingPause, RatingPause.objects.filter(session__in=sessions), "Each session's breaks."),
        model_table(
            RatedRound, rated_rounds, "What each settlement of the day added to a rated session, for one position."
        ),
        model_table(RatedBuyIn, rated_buy_ins, "The buy-ins of the day counted by a rated session."),
    ]
    context = [
        model_table(Pit, Pit.objects.filter(pk__in=tables.values("pit")), "The pits of the tables.", own_records=False),
        model_table(
            Table,
            tables,
            "Every table the day's records name, as it stood when the archive was written (its rules, limits and "
            "dealer then; each round holds the rules it was played by).",
            own_records=False,
        ),
        model_table(Seat, Seat.objects.filter(table__in=tables), "The seats of those tables.", own_records=False),
        model_table(
            Player,
            Player.objects.filter(pk__in=sessions.values("player")),
            "The rated players, by id and tier: their names and card numbers are not archived, as the audit log "
            "never holds them (a player anonymised on request stays anonymous here).",
            left_out=("name", "card_number"),
            own_records=False,
        ),
    ]
    return [*own, shift_reports_table(day), *context]


def shift_reports_table(day: GamingDay) -> ArchivedTable:
    """The shifts' reports as they were built at the close: each ready report's PDF, CSV, HTML and figures as files."""
    kept = ("id", "shift", "kind", "status", "content_hash", "created_at", "finished_at")
    fields = [ShiftReport._meta.get_field(name) for name in kept]
    columns = [_column(f) for f in fields if isinstance(f, models.Field)]
    files_columns = [
        Column("pdf_file", "text", "The report as printed (PDF), a file of the archive; empty while not built"),
        Column("csv_file", "text", "The same report as CSV"),
        Column("html_file", "text", "The same report as HTML"),
        Column(
            "figures_file",
            "text",
            "The report's figures as JSON: the SHA-256 of their canonical JSON (sorted keys, no whitespace) is "
            "content_hash, printed on the PDF",
        ),
    ]
    rows, files = [], {}
    reports = ShiftReport.objects.filter(shift__gaming_day=day).select_related("shift").order_by("pk")
    for report in reports:
        row = {f.attname: stored_value(f, getattr(report, f.attname)) for f in fields if isinstance(f, models.Field)}
        names = dict.fromkeys(("pdf_file", "csv_file", "html_file", "figures_file"))
        if report.status == ShiftReport.Status.READY:
            stem = f"reports/shift-{report.shift.number}-{report.kind}"
            names = {
                "pdf_file": f"{stem}.pdf",
                "csv_file": f"{stem}.csv",
                "html_file": f"{stem}.html",
                "figures_file": f"{stem}.json",
            }
            files[f"{stem}.pdf"] = bytes(report.pdf)
            files[f"{stem}.csv"] = report.csv.encode("utf-8")
            files[f"{stem}.html"] = report.html.encode("utf-8")
            files[f"{stem}.json"] = (canonical_json(report.data) + "\n").encode("utf-8")
        rows.append(row | names)
    return ArchivedTable(
        name=FILE_OF_MODEL[ShiftReport],
        meaning="The reports built when each shift closed (end-of-shift, commission, audit, Master Game, ratings).",
        columns=(*columns, *files_columns),
        rows=rows,
        subject=subject_type(ShiftReport),
        files=files,
    )


def staff_table(user_ids: Iterable[int]) -> ArchivedTable:
    """Every member of staff the archive names (a *_by_id or actor_id column, an event's actor): id, sign-in name,
    full name and roles."""
    users = get_user_model().objects.filter(pk__in=sorted(set(user_ids))).prefetch_related("groups").order_by("pk")
    return ArchivedTable(
        name=STAFF,
        meaning="The staff the archive names, as they stood when it was written.",
        columns=(
            Column("id", "integer", "The member of staff's id (what *_by_id, actor_id and the events' actor_id name)"),
            Column("username", "text", "Their sign-in name (the audit events' actor_name)"),
            Column("full_name", "text", "Their name"),
            Column("roles", "text", "Their roles, separated by '; '"),
        ),
        rows=[
            {
                "id": user.pk,
                "username": user.get_username(),
                "full_name": user.get_full_name(),
                "roles": "; ".join(sorted(group.name for group in user.groups.all())),
            }
            for user in users
        ],
    )


def staff_named(tables: Sequence[ArchivedTable], more: Iterable[int]) -> set[int]:
    """The ids of the staff the tables' rows name (every column that refers to a user), and ``more``."""
    named = {int(i) for i in more}
    for table in tables:
        user_columns = [column.name for column in table.columns if column.refers_to == STAFF]
        for row in table.rows:
            named.update(row[name] for name in user_columns if isinstance(row[name], int))
    return named


def rows_by_subject(tables: Sequence[ArchivedTable]) -> Mapping[str, list[str]]:
    """The day's own records as the audit log names them: subject type, and the ids (as text) of the rows."""
    return {table.subject: [str(row["id"]) for row in table.rows] for table in tables if table.subject}
