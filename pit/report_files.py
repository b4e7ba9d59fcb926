"""A report's figures written out: its CSV (safe to open in a spreadsheet) and its HTML, and the one call that builds
a report's figures and both files with its content hash (the PDF is ``pit.report_pdf``'s)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from casino.audit import checkpoint_text
from casino.models import Shift
from casino.money import money_text
from casino.rows import report_reads
from casino.templatetags.money import cents
from pit import dealer_performance_report, master_game, rating_report
from pit.report_controls import shift_checkpoint, write_controls
from pit.report_figures import FIGURES, ReportFigures
from pit.reports import BUILDERS, content_hash
from settlement.models import ShiftReport


def _money_cells(row: Mapping[str, Any], names: Iterable[str]) -> list[str]:
    return [money_text(row[name]) if name.endswith("_cents") else str(row[name]) for name in names]


_NUMBER = re.compile(r"[-+]?\d[\d.,:\u2009]*%?")


def csv_cell(value: Any) -> Any:
    """A cell a spreadsheet will not run: text starting with ``=``, ``+``, ``-``, ``@`` (a name typed as
    ``=HYPERLINK(...)``) gets a leading apostrophe; numbers (``-12.05``) stay as they are."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r") and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


class _SafeWriter:
    """``csv.writer`` with every cell through ``csv_cell``."""

    def __init__(self, writer: Any) -> None:
        self._writer = writer

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([csv_cell(cell) for cell in row])


def render_csv(data: Mapping[str, Any]) -> str:
    """The report as CSV: one section per table of figures, each with a header row; money as ``-12.05``; no cell a
    spreadsheet would run as a formula (``csv_cell``)."""
    out = io.StringIO()
    writer = _SafeWriter(csv.writer(out, lineterminator="\n"))
    head = data["shift"]
    writer.writerow(["report", data["kind"], "gaming_day", head["gaming_day"], "shift", head["name"]])
    kind = data["kind"]
    if kind == ShiftReport.Kind.SHIFT:
        writer.writerow(["level", "pit", "table", *FIGURES])
        for row in data["tables"]:
            writer.writerow(["table", row["pit"], row["table"], *_money_cells(row, FIGURES)])
        for row in data["pits"]:
            writer.writerow(["pit", row["pit"], "", *_money_cells(row, FIGURES)])
        writer.writerow(["floor", "", "", *_money_cells(data["floor"], FIGURES)])
        writer.writerow([])
        adjustment_columns = ("kind", "table", "round", "asked_by", "approved_by", "reason")
        writer.writerow(adjustment_columns)
        for row in data["adjustments"]:
            writer.writerow([row[c] for c in adjustment_columns])
    elif kind == ShiftReport.Kind.COMMISSION:
        for section, columns in (
            ("by_table", ("pit", "table")),
            ("by_dealer", ("dealer",)),
            ("by_banking_seat", ("table", "bank", "seat")),
        ):
            writer.writerow([])
            writer.writerow([section, *columns, "commission_cents"])
            for row in data[section]:
                writer.writerow(
                    ["", *("" if row[c] is None else row[c] for c in columns), money_text(row["commission_cents"])]
                )
        writer.writerow([])
        writer.writerow(["floor", money_text(data["floor"]["commission_cents"])])
    elif kind == ShiftReport.Kind.MASTER_GAME:
        master_game.write_csv(writer, data)
    elif kind == ShiftReport.Kind.RATINGS:
        rating_report.write_csv(writer, data)
    elif kind == ShiftReport.Kind.DEALERS:
        dealer_performance_report.write_csv(writer, data)
    else:
        event_columns = ("seq", "occurred_at", "actor", "event_type", "subject", "reason", "hash")
        writer.writerow(event_columns)
        for row in data["events"]:
            writer.writerow([row[c] for c in event_columns])
        writer.writerow([])
        chain = data["chain"]
        writer.writerow(["chain_ok", chain["ok"], "broken_seq", chain["broken_seq"] or "", "problem", chain["problem"]])
    write_controls(writer, data)
    return out.getvalue()


def render_html(data: Mapping[str, Any]) -> str:
    """The report as a standalone HTML page (``templates/pit/shift_report.html``; the Master Game Report's
    ``templates/pit/master_game_report.html``, the rating report's ``templates/pit/rating_report.html``, the dealer
    report's ``templates/pit/dealer_performance_report.html``), money as ``12.05``."""
    context: dict[str, Any] = {"data": data, "kind": data["kind"], "shift": data["shift"]}
    if data.get("checkpoint"):
        context["checkpoint"] = checkpoint_text(data["checkpoint"])
    if data["kind"] == ShiftReport.Kind.MASTER_GAME:
        return render_to_string("pit/master_game_report.html", {**context, **master_game.html_context(data)})
    if data["kind"] == ShiftReport.Kind.RATINGS:
        return render_to_string("pit/rating_report.html", {**context, **rating_report.html_context(data, cents)})
    if data["kind"] == ShiftReport.Kind.DEALERS:
        dealers = dealer_performance_report.html_context(data, cents)
        return render_to_string("pit/dealer_performance_report.html", {**context, **dealers})
    if data["kind"] == ShiftReport.Kind.SHIFT:
        levels = [("table", row["pit"], row["table"], row) for row in data["tables"]]
        levels += [("pit", row["pit"], "", row) for row in data["pits"]]
        levels.append(("floor", "", "", data["floor"]))
        context["lines"] = [
            {"level": level, "pit": pit, "table": table, "cells": [_cell(row, name) for name in FIGURES]}
            for level, pit, table, row in levels
        ]
    if data["kind"] == ShiftReport.Kind.AUDIT:
        context["event_rows"] = _event_rows(data["events"])
    return render_to_string("pit/shift_report.html", context)


def _event_rows(events: Sequence[Mapping[str, Any]]) -> SafeString:
    """The audit report's events as table rows, every text escaped: drawn in Python (the template language took
    two seconds for the 20,000 events of a busy shift)."""
    return mark_safe(  # every text escaped here
        "\n".join(
            f'<tr><td class="num">{row["seq"]}</td><td>{escape(row["occurred_at"])}</td><td>{escape(row["actor"])}'
            f"</td><td>{escape(row['event_type'])}</td><td>{escape(row['subject'])}</td><td>{escape(row['reason'])}"
            f"</td><td><code>{escape(row['hash'])}</code></td></tr>"
            for row in events
        )
    )


def _cell(row: Mapping[str, Any], name: str) -> str:
    return cents(row[name]) if name.endswith("_cents") else str(row[name])


def report_render(*, shift: Shift, kind: str) -> tuple[ReportFigures, str, str, str]:
    """Build one report in memory: its figures, CSV, HTML and content hash (nothing is written)."""
    with report_reads():
        data = BUILDERS[ShiftReport.Kind(kind)](shift)
    data["checkpoint"] = shift_checkpoint(shift)
    return data, render_csv(data), render_html(data), content_hash(data)
