"""The dealer report of a closed shift: each dealer's figures at each game they dealt, with the floor's totals
(``pit.dealer_performance`` says what each figure is).

Like the other shift reports its figures hold nothing of the build, so the same shift gives the same
``content_hash``; the alert's threshold is part of them (``settings``). The lines' settled rounds add up to the end-of-
shift report's (the rounds with no dealer recorded are a line of their own).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, TypedDict

from django.utils.translation import gettext

from casino.models import Shift
from casino.money import money_text
from pit.dealer_performance import ALERT_Z, DealerFigures, dealer_performance_rows
from pit.rating_report import clock_text, hours_text
from rules.models import Game

# A line's figures, in the order the report shows them (the CSV's columns after the dealer, the game and the time).
FIGURES = (
    "rounds_settled",
    "rounds_voided",
    "rounds_per_hour",
    "voids_per_100",
    "corrections",
    "corrections_per_100",
    "handle_cents",
    "house_win_cents",
    "theo_cents",
    "hold_percent",
    "expected_hold_percent",
    "z",
    "alert",
)


class DealerLine(TypedDict):
    """One dealer at one game (``dealer``: "" for the rounds with no dealer recorded); ``from`` and ``until`` the
    time on the box (ISO, UTC)."""

    dealer: str
    game: str
    start: str | None
    end: str | None
    seconds_on_box: int
    rounds_settled: int
    rounds_voided: int
    rounds_per_hour: float | None
    voids_per_100: float | None
    corrections: int
    corrections_per_100: float | None
    handle_cents: int
    house_win_cents: int
    theo_cents: int
    hold_percent: float | None
    expected_hold_percent: float | None
    z: float | None
    alert: bool


class DealerTotals(TypedDict):
    """The sums of the lines, and how many dealers and alerts."""

    dealers: int
    rounds_settled: int
    rounds_voided: int
    corrections: int
    handle_cents: int
    house_win_cents: int
    theo_cents: int
    alerts: int


class DealerSections(TypedDict):
    """The dealer report's figures (``dealer_sections``)."""

    dealers: list[DealerLine]
    totals: DealerTotals
    settings: dict[str, float]


def _places(value: float | None, places: int) -> float | None:
    """Rounded half up to ``places`` decimals, as the pages' ``floatformat`` rounds (so the page and the report show
    the same digits)."""
    if value is None:
        return None
    return float(Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def dealer_line(row: DealerFigures) -> DealerLine:
    """A dealer's figures as the report (and the API) hold them: rates to one place, percentages and z to two."""
    return {
        "dealer": row.dealer,
        "game": row.game,
        "start": row.first_at.isoformat() if row.first_at else None,
        "end": row.last_at.isoformat() if row.last_at else None,
        "seconds_on_box": row.seconds_on_box,
        "rounds_settled": row.rounds_settled,
        "rounds_voided": row.rounds_voided,
        "rounds_per_hour": _places(row.rounds_per_hour, 1),
        "voids_per_100": _places(row.voids_per_100, 1),
        "corrections": row.corrections,
        "corrections_per_100": _places(row.corrections_per_100, 1),
        "handle_cents": row.handle_cents,
        "house_win_cents": row.house_win_cents,
        "theo_cents": row.theo_cents,
        "hold_percent": _places(row.hold_percent, 2),
        "expected_hold_percent": _places(row.expected_hold_percent, 2),
        "z": _places(row.z, 2),
        "alert": row.alert,
    }


def dealer_sections(shift: Shift) -> DealerSections:
    """The dealer report's figures: ``dealers`` (a line a dealer and game), ``totals`` and ``settings``."""
    assert shift.closed_at is not None, "only a closed shift has a dealer report"
    lines = [dealer_line(row) for row in dealer_performance_rows(shift=shift)]
    totals: DealerTotals = {
        "dealers": len({line["dealer"] for line in lines if line["dealer"]}),
        "rounds_settled": sum(line["rounds_settled"] for line in lines),
        "rounds_voided": sum(line["rounds_voided"] for line in lines),
        "corrections": sum(line["corrections"] for line in lines),
        "handle_cents": sum(line["handle_cents"] for line in lines),
        "house_win_cents": sum(line["house_win_cents"] for line in lines),
        "theo_cents": sum(line["theo_cents"] for line in lines),
        "alerts": sum(1 for line in lines if line["alert"]),
    }
    return {"dealers": lines, "totals": totals, "settings": {"alert_z": ALERT_Z}}


# --- rendering: the CSV's section, and the text of each cell for the HTML and the PDF --------------------------

CSV_COLUMNS = ("dealer", "game", "from", "until", "time_on_box", *FIGURES)
TOTAL_FIGURES = ("dealers", "rounds_settled", "rounds_voided", "corrections", "handle_cents", "house_win_cents",
                 "theo_cents", "alerts")  # fmt: skip


def dealer_label(line: Mapping[str, Any], nobody: str = "no dealer recorded") -> str:
    return str(line["dealer"]) or nobody


def cell_text(row: Mapping[str, Any], name: str, money: Callable[[int], str] = money_text) -> str:
    """One figure as text: money in units and cents, rates to one place, percentages and z to two, the alert as
    ALERT, nothing for None."""
    value = row.get(name)
    if value is None:
        return ""
    if name.endswith("_cents"):
        return money(value)
    if name in ("z", "hold_percent", "expected_hold_percent"):
        return f"{value:.2f}"
    if name in ("rounds_per_hour", "voids_per_100", "corrections_per_100"):
        return f"{value:.1f}"
    if name == "alert":
        return "ALERT" if value else ""
    return str(value)


def write_csv(writer: Any, data: Mapping[str, Any]) -> None:
    """The report's lines and totals under one header row each; money as ``-12.05``, time on the box as ``h:mm``."""
    writer.writerow(CSV_COLUMNS)
    for line in data["dealers"]:
        writer.writerow(
            [
                dealer_label(line),
                line["game"],
                line["start"] or "",
                line["end"] or "",
                hours_text(line["seconds_on_box"]),
                *(cell_text(line, name) for name in FIGURES),
            ]
        )
    writer.writerow([])
    writer.writerow(["totals", *TOTAL_FIGURES])
    writer.writerow(["", *(cell_text(data["totals"], name) for name in TOTAL_FIGURES)])


class _LineText(TypedDict):
    row: Mapping[str, Any]
    dealer: str
    game: str
    start: str
    end: str
    time: str
    cells: list[str]


class DealerHtml(TypedDict):
    """What the dealer report's HTML draws beside its figures, each figure already text."""

    dealer_lines: list[_LineText]
    dealer_totals: list[str]


def game_label(game: str) -> str:
    return str(Game(game).label) if game in Game.values else game


def html_context(data: Mapping[str, Any], money: Callable[[int], str]) -> DealerHtml:
    """What ``templates/pit/dealer_performance_report.html`` shows, each figure already text."""
    nobody = gettext("no dealer recorded")
    return {
        "dealer_lines": [
            {
                "row": line,
                "dealer": dealer_label(line, nobody),
                "game": game_label(line["game"]),
                "start": clock_text(line["start"]) if line["start"] else "",
                "end": clock_text(line["end"]) if line["end"] else "",
                "time": hours_text(line["seconds_on_box"]),
                "cells": [cell_text(line, name, money) for name in FIGURES[:-1]],
            }
            for line in data["dealers"]
        ],
        "dealer_totals": [cell_text(data["totals"], name, money) for name in TOTAL_FIGURES],
    }
