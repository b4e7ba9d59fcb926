"""What each report of a closed shift holds: the figures ``pit.reports`` builds and ``pit.report_files`` writes,
one TypedDict a report and a line (integer cents, strings, lists: JSON as stored in ``ShiftReport.data``)."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from pit.dealer_performance_report import DealerSections
from pit.master_game import MasterGameSections
from pit.rating_report import RatingSections
from pit.report_controls import ReportControls


class FigureCounts(TypedDict):
    """The figures of one table, pit or the floor, in the order the reports show them (``shift_figures`` says
    what each is)."""

    rounds_settled: int
    rounds_voided: int
    wagers: int
    handle_cents: int
    wins: int
    pushes: int
    losses: int
    no_actions: int
    payouts_cents: int
    commission_cents: int
    rake_cents: int
    house_cents: int
    banker_cents: int
    player_cents: int


FIGURES: tuple[str, ...] = tuple(FigureCounts.__annotations__)


class TableFigures(FigureCounts):
    pit: str
    table: str


class PitFigures(FigureCounts):
    pit: str


class HourFigures(TypedDict):
    """The money figures of one hour of the shift (``HOUR_FIGURES``)."""

    hour: str  # its start, in the floor's time zone
    commission_cents: int
    rake_cents: int
    house_cents: int
    banker_cents: int
    player_cents: int


class ShiftHead(TypedDict):
    """The shift a report is about."""

    gaming_day: str
    number: int
    name: str
    opened_at: str
    closed_at: str | None


class AdjustmentLine(TypedDict):
    """A void or correction of the shift: who asked, who approved and why."""

    kind: str  # "void" or "correction"
    table: str
    round: int
    asked_by: str
    approved_by: str
    reason: str


class ShiftFigures(TypedDict):
    """The end-of-shift report's figures (``shift_figures``)."""

    kind: str
    shift: ShiftHead
    tables: list[TableFigures]
    pits: list[PitFigures]
    floor: FigureCounts
    hours: list[HourFigures]
    adjustments: list[AdjustmentLine]
    controls: ReportControls
    checkpoint: NotRequired[dict[str, Any] | None]  # added by ``pit.report_files.report_render``


class CommissionByTable(TypedDict):
    pit: str
    table: str
    commission_cents: int


class CommissionByDealer(TypedDict):
    dealer: str
    commission_cents: int


class CommissionByBank(TypedDict):
    table: str
    bank: str  # "seat" (a player bank) or "house"
    seat: int | None
    commission_cents: int


class CommissionFloor(TypedDict):
    commission_cents: int


class CommissionFigures(TypedDict):
    """The commission report's figures (``commission_figures``)."""

    kind: str
    shift: ShiftHead
    by_table: list[CommissionByTable]
    by_dealer: list[CommissionByDealer]
    by_banking_seat: list[CommissionByBank]
    floor: CommissionFloor
    checkpoint: NotRequired[dict[str, Any] | None]


class AuditLine(TypedDict):
    seq: int
    occurred_at: str
    actor: str
    event_type: str
    subject: str
    reason: str
    hash: str


class ChainResult(TypedDict):
    ok: bool
    broken_seq: int | None
    problem: str


class MasterGameFigures(MasterGameSections):
    """The Master Game Report's figures (``master_game_figures``)."""

    kind: str
    shift: ShiftHead
    checkpoint: NotRequired[dict[str, Any] | None]


class RatingFigures(RatingSections):
    """The rating report's figures (``rating_figures``)."""

    kind: str
    shift: ShiftHead
    checkpoint: NotRequired[dict[str, Any] | None]


class DealerReportFigures(DealerSections):
    """The dealer report's figures (``dealer_figures``)."""

    kind: str
    shift: ShiftHead
    checkpoint: NotRequired[dict[str, Any] | None]


class AuditFigures(TypedDict):
    """The audit report's figures (``audit_figures``)."""

    kind: str
    shift: ShiftHead
    events: list[AuditLine]
    chain: ChainResult
    controls: ReportControls
    checkpoint: NotRequired[dict[str, Any] | None]


ReportFigures = (
    ShiftFigures | CommissionFigures | AuditFigures | MasterGameFigures | RatingFigures | DealerReportFigures
)
