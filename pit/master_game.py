"""The Master Game Report of a closed shift (DESIGN.md "The table's money"): per table its opener,
closer, fills, credits, drop, win and hold beside the win its settlements computed, the variance between the two,
the slips with their numbers and signatures, and win and hold by pit, game, floor, gaming day, month and year.

The figures are ``settlement.table_money``'s (``table_money_figures``, ``win_hold_by``): this module lays them out
as the report's JSON-ready sections (integer cents, basis points, strings, lists), with nothing of the build in
them, so the same shift gives the same figures and the same content hash; ``pit.reports`` adds the head and
renders the CSV and HTML with the helpers below, ``pit.report_pdf`` the PDF. A fixed number of queries, however
many tables and gaming days: the boxes awaited (one), the shift's table money (``table_money_figures``: eight), the
year's earlier shifts and their reports' floors (two) and the slip numbers before the shift's (one).

* ``tables``: every table of the shift (by pit, then table): opener, closer, fills, credits, buy-ins (markers
  among them), drop and the box's state with who counted it, win (drop + closer + credits − opener − fills, none
  until the opener, the closer and the final drop are in) and hold, the computed win (the house bank's result +
  commission + rake from the settlements), and the variance (win − computed = tray variance + drop variance).
* ``drop_variance``: the boxes to investigate: ``missing`` (a box the shift expects that is not final:
  ``pit.report_selectors.shift_boxes_awaited``; only in a report a supervisor built before the count was done),
  ``extra`` (a box counted for a table that recorded nothing else), or a counted drop that differs from the
  buy-ins recorded. Its variance is the drop counted (0 for a missing box) less the buy-ins.
* ``slips`` (by kind and number, with who requested, issued, signed or voided them and why) and ``slip_numbers``:
  per kind the numbers of the shift, used and voided, from the one after the last number used before the shift
  to its last, and any number in that range that no slip holds (there should be none: every number is
  accounted for).
* ``pits``, ``games``, ``floor``: win and hold summed over the shift's tables whose win is known (``incomplete``
  counts the others); ``periods``: the same over the gaming day to this shift, the month to date and the year to
  date (the gaming days' business dates: the month's and the year's up to this one, and of this one its shifts up
  to this one, so a later shift does not change this report), summed from the earlier shifts' own reports;
  ``unreported`` counts the earlier shifts of the period whose report is not built yet.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypedDict

from django.db.models import Max, Q
from django.utils.translation import gettext_lazy

from casino.models import Shift
from casino.money import money_text
from casino.templatetags.money import cents
from pit.report_selectors import shift_boxes_awaited
from settlement.models import ShiftReport
from settlement.table_money import SlipLine, TableShiftMoney, WinHold, table_money_figures, win_hold_by
from tables.models import Slip


class TableMoneyFigures(TypedDict):
    """A table's figures, in the order the report shows them (``settlement.table_money.TableShiftMoney``'s)."""

    opener_cents: int | None
    closer_cents: int | None
    fills_cents: int
    credits_cents: int
    buy_ins_cents: int
    markers_cents: int
    drop_cents: int | None
    promo_cents: int
    win_cents: int | None
    hold_bp: int | None
    computed_win_cents: int
    house_cents: int
    commission_cents: int
    rake_cents: int
    variance_cents: int | None
    tray_variance_cents: int | None
    drop_variance_cents: int | None


TABLE_FIGURES: tuple[str, ...] = tuple(TableMoneyFigures.__annotations__)


class TableLine(TableMoneyFigures):
    """A table of the shift: its figures, its game, its box's state and who counted it, and the days it has no
    figures for (``TableShiftMoney.missing``)."""

    pit: str
    table: str
    game: str
    drop_status: str
    counted_by: list[str]
    box: str  # "missing" (awaited, not final), else ``TableShiftMoney.box_line``
    not_in: list[str]


class WinHoldFigures(TypedDict):
    """The figures of a group of table-shifts (a pit, a game, the floor, a period), in the report's order."""

    table_shifts: int
    incomplete: int
    drop_cents: int
    win_cents: int
    hold_bp: int | None
    computed_win_cents: int
    variance_cents: int


WIN_HOLD_FIGURES: tuple[str, ...] = tuple(WinHoldFigures.__annotations__)


class PitWinHold(WinHoldFigures):
    pit: str


class GameWinHold(WinHoldFigures):
    game: str


# A period's name and dates (ISO), its shifts and those of them whose report is not built yet.
_PeriodHead = TypedDict("_PeriodHead", {"period": str, "from": str, "to": str, "shifts": int, "unreported": int})


class PeriodWinHold(_PeriodHead, WinHoldFigures):
    """Win and hold over a period to this shift (``_periods``)."""


class DropVarianceLine(TypedDict):
    """A box to investigate: missing, extra, or a counted drop off the buy-ins."""

    pit: str
    table: str
    box: str
    drop_status: str
    buy_ins_cents: int
    drop_cents: int | None
    drop_variance_cents: int


class SlipNumbers(TypedDict):
    """A kind's slip numbers in the shift: from ``first`` to ``last``, used, voided and missing."""

    kind: str
    first: int | None
    last: int | None
    used: list[int]
    voided: list[int]
    missing: list[int]


class MasterGameSections(TypedDict):
    """The Master Game Report's figures (``master_game_sections``; the module's docstring says what each is)."""

    tables: list[TableLine]
    pits: list[PitWinHold]
    games: list[GameWinHold]
    floor: WinHoldFigures
    periods: list[PeriodWinHold]
    drop_variance: list[DropVarianceLine]
    boxes_missing: list[str]
    slips: list[SlipLine]
    slip_numbers: list[SlipNumbers]


SLIP_COLUMNS: tuple[str, ...] = (
    "kind",
    "number",
    "table",
    "status",
    "total_cents",
    "requested_by",
    "issued_by",
    "dealer_signed_by",
    "supervisor_signed_by",
    "voided_by",
    "void_reason",
)
DROP_VARIANCE_COLUMNS: tuple[str, ...] = (
    "pit",
    "table",
    "box",
    "drop_status",
    "buy_ins_cents",
    "drop_cents",
    "drop_variance_cents",
)
PERIODS = ("gaming_day", "month_to_date", "year_to_date")


def percent_text(bp: int | None) -> str:
    """Basis points as a percentage with two decimals: 443 → "4.43", -1 → "-0.01", None → "" (no drop)."""
    if bp is None:
        return ""
    sign = "-" if bp < 0 else ""
    whole, rest = divmod(abs(int(bp)), 100)
    return f"{sign}{whole}.{rest:02d}"


def _win_hold(group: WinHold) -> WinHoldFigures:
    return {
        "table_shifts": group.table_shifts,
        "incomplete": group.incomplete,
        "drop_cents": group.drop_cents,
        "win_cents": group.win_cents,
        "hold_bp": group.hold_bp,
        "computed_win_cents": group.computed_win_cents,
        "variance_cents": group.variance_cents,
    }


def _table_row(money: TableShiftMoney, awaited: set[str]) -> TableLine:
    box = "missing" if money.table in awaited else money.box_line
    return {
        "pit": money.pit,
        "table": money.table,
        "game": money.game,
        "opener_cents": money.opener_cents,
        "closer_cents": money.closer_cents,
        "fills_cents": money.fills_cents,
        "credits_cents": money.credits_cents,
        "buy_ins_cents": money.buy_ins_cents,
        "markers_cents": money.markers_cents,
        "drop_cents": money.drop_cents,
        "promo_cents": money.promo_cents,
        "win_cents": money.win_cents,
        "hold_bp": money.hold_bp,
        "computed_win_cents": money.computed_win_cents,
        "house_cents": money.house_cents,
        "commission_cents": money.commission_cents,
        "rake_cents": money.rake_cents,
        "variance_cents": money.variance_cents,
        "tray_variance_cents": money.tray_variance_cents,
        "drop_variance_cents": money.drop_variance_cents,
        "drop_status": money.drop_status,
        "counted_by": list(money.counters),
        "box": box,
        "not_in": list(money.missing),
    }


def _drop_variance(rows: Sequence[TableLine]) -> list[DropVarianceLine]:
    lines: list[DropVarianceLine] = []
    for row in rows:
        if not row["box"] and not row["drop_variance_cents"]:
            continue
        lines.append(
            {
                "pit": row["pit"],
                "table": row["table"],
                "box": row["box"],
                "drop_status": row["drop_status"],
                "buy_ins_cents": row["buy_ins_cents"],
                "drop_cents": row["drop_cents"],
                "drop_variance_cents": (row["drop_cents"] or 0) - row["buy_ins_cents"],
            }
        )
    return lines


def _slips(shift_rows: Sequence[TableShiftMoney]) -> list[SlipLine]:
    slips = [slip for money in shift_rows for slip in money.slips]
    return sorted(slips, key=lambda slip: (Slip.Kind.values.index(slip["kind"]), slip["number"]))


def _slip_numbers(slips: Sequence[SlipLine]) -> list[SlipNumbers]:
    """Per kind: the shift's numbers from the one after the last used before them to its last; each used (not
    voided) or voided, or missing (no slip holds it). One query, for the numbers used before the shift's."""
    numbers: dict[str, dict[int, str]] = {kind: {} for kind in Slip.Kind.values}
    for slip in slips:
        numbers[slip["kind"]][slip["number"]] = slip["status"]
    earlier = Q()
    for kind, mine in numbers.items():
        if mine:
            earlier |= Q(kind=kind, number__lt=min(mine))
    before: dict[str, int] = {}
    if earlier:
        before = dict(
            Slip.objects.filter(earlier).values("kind").annotate(last=Max("number")).values_list("kind", "last")
        )
    result: list[SlipNumbers] = []
    for kind, mine in numbers.items():
        first = before.get(kind, 0) + 1 if mine else None
        last = max(mine) if mine else None
        missing = [n for n in range(first, last + 1) if n not in mine] if first is not None and last is not None else []
        result.append(
            {
                "kind": kind,
                "first": first,
                "last": last,
                "used": sorted(n for n, status in mine.items() if status != Slip.Status.VOIDED),
                "voided": sorted(n for n, status in mine.items() if status == Slip.Status.VOIDED),
                "missing": missing,
            }
        )
    return result


def _periods(shift: Shift, floor: WinHold) -> list[PeriodWinHold]:
    """Win and hold over the gaming day to this shift, the month to date and the year to date: this shift's
    ``floor`` plus the floors of the earlier shifts' Master Game Reports (read from the database as their figures'
    ``floor`` only, so a year of shifts costs two small queries, not a year of the ledger). An earlier shift whose
    report is not built yet (its count not done) is counted in ``unreported``, not guessed."""
    day = shift.gaming_day.business_date
    earlier = (
        Shift.objects.filter(gaming_day__business_date__year=day.year, gaming_day__business_date__lte=day)
        .exclude(gaming_day__business_date=day, number__gte=shift.number)
        .values_list("pk", "gaming_day__business_date")
    )
    dates = dict(earlier)
    floors = dict(
        ShiftReport.objects.filter(
            kind=ShiftReport.Kind.MASTER_GAME, status=ShiftReport.Status.READY, shift_id__in=list(dates)
        ).values_list("shift_id", "data__floor")
    )
    within: dict[str, tuple[dt.date, Callable[[dt.date], bool]]] = {
        "gaming_day": (day, lambda date: date == day),
        "month_to_date": (day.replace(day=1), lambda date: (date.year, date.month) == (day.year, day.month)),
        "year_to_date": (day.replace(month=1, day=1), lambda date: True),
    }
    result: list[PeriodWinHold] = []
    for period in PERIODS:
        start, inside = within[period]
        group = WinHold(**{name: getattr(floor, name) for name in _SUMMED})
        shifts = [pk for pk, date in dates.items() if inside(date)]
        for pk in shifts:
            reported = floors.get(pk)
            if isinstance(reported, Mapping):
                for name in _SUMMED:
                    setattr(group, name, getattr(group, name) + int(reported.get(name) or 0))
        result.append(
            {
                "period": period,
                "from": start.isoformat(),
                "to": day.isoformat(),
                "shifts": len(shifts) + 1,
                "unreported": sum(1 for pk in shifts if pk not in floors),
                **_win_hold(group),
            }
        )
    return result


# The figures of a group that add up from one shift to the next (hold is recomputed from the sums).
_SUMMED = ("table_shifts", "incomplete", "drop_cents", "win_cents", "computed_win_cents", "variance_cents")


def master_game_sections(shift: Shift) -> MasterGameSections:
    """The Master Game Report's figures of the closed ``shift`` (the module's docstring says what each is)."""
    awaited = set(shift_boxes_awaited(shift=shift))
    mine = table_money_figures(shifts=[shift])
    floor = win_hold_by(mine, lambda money: "floor").get("floor", WinHold())
    tables = [_table_row(money, awaited) for money in mine]
    slips = _slips(mine)
    games = win_hold_by(mine, lambda money: money.game)
    return {
        "tables": tables,
        "pits": [{"pit": pit, **_win_hold(group)} for pit, group in win_hold_by(mine, lambda m: m.pit).items()],
        "games": [{"game": game, **_win_hold(games[game])} for game in sorted(games)],
        "floor": _win_hold(floor),
        "periods": _periods(shift, floor),
        "drop_variance": _drop_variance(tables),
        # A table that only opened a round (no money posted) has no row: its box is named here all the same.
        "boxes_missing": [row["table"] for row in tables if row["box"] == "missing"]
        + sorted(awaited - {row["table"] for row in tables}),
        "slips": slips,
        "slip_numbers": _slip_numbers(slips),
    }


# --- rendering helpers (``pit.report_files.render_csv`` / ``render_html``, ``pit.report_pdf``) ------------------------


def cell_text(row: Mapping[str, Any], name: str, money: Callable[[int], str] = money_text) -> str:
    """One figure as text: money in units and cents, hold as a percentage, a figure not known as empty."""
    value = row.get(name)
    if value is None:
        return ""
    if name == "hold_bp":
        return percent_text(value)
    if name.endswith("_cents"):
        return money(value)
    return str(value)


def numbers_text(numbers: Sequence[int]) -> str:
    """Slip numbers as runs: [1, 2, 3, 5] → "1-3 5"."""
    runs: list[str] = []
    start = previous = None
    for number in [*numbers, None]:
        if number is not None and previous is not None and number == previous + 1:
            previous = number
            continue
        if start is not None:
            runs.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = number
    return " ".join(runs)


def win_hold_lines(data: Mapping[str, Any]) -> list[tuple[str, str, Mapping[str, Any]]]:
    """(level, name, figures) of the groups, in the report's order: pits, games, the floor, then the periods."""
    lines: list[tuple[str, str, Mapping[str, Any]]] = [("pit", row["pit"], row) for row in data["pits"]]
    lines += [("game", row["game"], row) for row in data["games"]]
    lines.append(("floor", "", data["floor"]))
    lines += [(row["period"], _period_name(row), row) for row in data["periods"]]
    return lines


def _period_name(row: Mapping[str, Any]) -> str:
    """``2026-11-01 – 2026-11-24``, and how many of its shifts are not in the sums yet (their count not done)."""
    name = f"{row['from']} – {row['to']}"
    unreported = row.get("unreported") or 0
    if unreported:
        name += f" ({unreported} {'shift' if unreported == 1 else 'shifts'} not reported yet)"
    return name


def write_csv(writer: Any, data: Mapping[str, Any]) -> None:
    """The report's sections as CSV rows (after ``pit.report_files.render_csv``'s head row); money as ``-12.05``, hold
    as a percentage (``4.43``)."""
    table_heads = [name.replace("hold_bp", "hold_pct") for name in TABLE_FIGURES]
    writer.writerow([])
    writer.writerow(["tables", "pit", "table", "game", *table_heads, "drop_status", "box", "counted_by"])
    for row in data["tables"]:
        writer.writerow(
            [
                "table",
                row["pit"],
                row["table"],
                row["game"],
                *(cell_text(row, name) for name in TABLE_FIGURES),
                row["drop_status"],
                row["box"],
                " ".join(row["counted_by"]),
            ]
        )
    writer.writerow([])
    group_heads = [name.replace("hold_bp", "hold_pct") for name in WIN_HOLD_FIGURES]
    writer.writerow(["win_hold", "level", "name", *group_heads])
    for level, name, row in win_hold_lines(data):
        writer.writerow(["", level, name, *(cell_text(row, figure) for figure in WIN_HOLD_FIGURES)])
    writer.writerow([])
    writer.writerow(["drop_variance", *DROP_VARIANCE_COLUMNS])
    for row in data["drop_variance"]:
        writer.writerow(["", *(cell_text(row, name) for name in DROP_VARIANCE_COLUMNS)])
    writer.writerow([])
    writer.writerow(["slips", *SLIP_COLUMNS])
    for row in data["slips"]:
        writer.writerow(["", *(cell_text(row, name) for name in SLIP_COLUMNS)])
    writer.writerow([])
    writer.writerow(["slip_numbers", "kind", "first", "last", "used", "voided", "missing"])
    for row in data["slip_numbers"]:
        writer.writerow(
            [
                "",
                row["kind"],
                "" if row["first"] is None else row["first"],
                "" if row["last"] is None else row["last"],
                numbers_text(row["used"]),
                numbers_text(row["voided"]),
                numbers_text(row["missing"]),
            ]
        )


# The words the HTML shows for a box's state and a slip's kind and state (the figures keep the codes).
_BOX_WORDS = {
    "missing": gettext_lazy("missing"),
    "extra": gettext_lazy("extra"),
    "final": gettext_lazy("final"),
    "counted once": gettext_lazy("counted once"),
    "counts disagree": gettext_lazy("counts disagree"),
    "not counted": gettext_lazy("not counted"),
}


def _box_word(row: Mapping[str, Any]) -> str:
    code = row.get("box") or row.get("drop_status") or ""
    return str(_BOX_WORDS.get(code, code))


class _SlipWords(TypedDict):
    kind: str
    status: str


def _slip_words(row: Mapping[str, Any]) -> _SlipWords:
    kinds, states = dict(Slip.Kind.choices), dict(Slip.Status.choices)
    return {"kind": str(kinds.get(row["kind"], row["kind"])), "status": str(states.get(row["status"], row["status"]))}


class _LineCells(TypedDict):
    """A table's or a box's line: its figures (``row``), its box's state in words and its figures as text."""

    row: Mapping[str, Any]
    box: str
    cells: list[str]


class _GroupCells(TypedDict):
    level: str
    name: str
    cells: list[str]


class _SlipLineText(TypedDict):
    row: Mapping[str, Any]
    total: str
    kind: str
    status: str


class _NumbersText(TypedDict):
    row: Mapping[str, Any]
    kind: str
    used: str
    voided: str
    missing: str


class MasterGameHtml(TypedDict):
    """What the Master Game Report's HTML draws beside its figures, each figure already text."""

    table_lines: list[_LineCells]
    group_lines: list[_GroupCells]
    drop_variance_lines: list[_LineCells]
    slip_lines: list[_SlipLineText]
    number_lines: list[_NumbersText]


def html_context(data: Mapping[str, Any]) -> MasterGameHtml:
    """What ``templates/pit/master_game_report.html`` shows, each figure already text (money with thin spaces)."""
    kinds = dict(Slip.Kind.choices)
    return {
        "table_lines": [
            {"row": row, "box": _box_word(row), "cells": [cell_text(row, name, cents) for name in TABLE_FIGURES]}
            for row in data["tables"]
        ],
        "group_lines": [
            {"level": level, "name": name, "cells": [cell_text(row, figure, cents) for figure in WIN_HOLD_FIGURES]}
            for level, name, row in win_hold_lines(data)
        ],
        "drop_variance_lines": [
            {
                "row": row,
                "box": _box_word(row),
                "cells": [cell_text(row, name, cents) for name in DROP_VARIANCE_COLUMNS[4:]],
            }
            for row in data["drop_variance"]
        ],
        "slip_lines": [{"row": row, "total": cents(row["total_cents"]), **_slip_words(row)} for row in data["slips"]],
        "number_lines": [
            {
                "row": row,
                "kind": str(kinds.get(row["kind"], row["kind"])),
                "used": numbers_text(row["used"]),
                "voided": numbers_text(row["voided"]),
                "missing": numbers_text(row["missing"]),
            }
            for row in data["slip_numbers"]
        ],
    }
