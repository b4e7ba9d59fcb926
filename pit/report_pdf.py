"""The PDF of a shift report: reportlab for the pages, matplotlib for the chart of the shift by hour (and
of win and hold by table in the Master Game Report).

``render_pdf(data, digest)`` turns a report's figures (``pit.reports``) into PDF bytes. The same figures
always give the same bytes: reportlab runs in its invariant mode (a fixed creation date and document id), the
chart is drawn by matplotlib's Agg canvas at a fixed size and dpi into a PNG without metadata, and nothing of the
build (a date, a user) goes into the pages. Every kind gets a PDF; the end-of-shift report and the Master Game
Report have a chart.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Image, Paragraph, SimpleDocTemplate, Spacer

from casino.money import money_text
from pit import dealer_performance_report, master_game, rating_report
from pit.pdf_grid import Grid
from pit.report_controls import controls_lines
from pit.report_figures import FIGURES
from settlement.models import ShiftReport

if TYPE_CHECKING:
    from matplotlib.figure import Figure

TITLES = {
    ShiftReport.Kind.SHIFT: "End-of-shift report",
    ShiftReport.Kind.COMMISSION: "Commission report",
    ShiftReport.Kind.AUDIT: "Audit report",
    ShiftReport.Kind.MASTER_GAME: "Master Game Report",
    ShiftReport.Kind.RATINGS: "Rating report",
    ShiftReport.Kind.DEALERS: "Dealer report",
}
# The column heads of the figures, short enough for a landscape A4 page.
HEADS = {
    "rounds_settled": "Settled",
    "rounds_voided": "Voided",
    "wagers": "Wagers",
    "handle_cents": "Handle",
    "wins": "Wins",
    "pushes": "Pushes",
    "losses": "Losses",
    "no_actions": "No action",
    "payouts_cents": "Payouts",
    "commission_cents": "Commission",
    "rake_cents": "Rake",
    "house_cents": "House",
    "banker_cents": "Player banks",
    "player_cents": "Players",
}
# The chart: a fixed size (inches) and resolution, so the same figures draw the same pixels.
CHART_SIZE = (9.0, 3.4)
CHART_DPI = 150

_STYLES = getSampleStyleSheet()
_SMALL = ParagraphStyle("small", parent=_STYLES["BodyText"], fontSize=7, leading=8.5)
_WRAP_ANYWHERE = ParagraphStyle("wrap-anywhere", parent=_SMALL, fontName="Courier", wordWrap="CJK")


def _cell(row: Mapping[str, Any], name: str) -> str:
    value = row[name]
    if value is None:
        return ""
    return money_text(value) if name.endswith("_cents") else str(value)


def _table(
    head: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    numbers_from: int = 0,
    bold_last: bool = False,
    widths_mm: Sequence[float] | None = None,
    wrap: Sequence[int] = (),
) -> Grid:
    """A grid with a head row (``pit.pdf_grid.Grid``); columns from ``numbers_from`` on are right-aligned (figures),
    the ``wrap`` columns wrap within their widths (``widths_mm``, or each column's widest text)."""
    widths = None if widths_mm is None else [width * mm for width in widths_mm]
    return Grid(head, rows, widths=widths, numbers_from=numbers_from, bold_last=bold_last, wrap=wrap)


def _heading(text: str) -> Paragraph:
    return Paragraph(escape(text), _STYLES["Heading2"])


def _none(text: str) -> Paragraph:
    return Paragraph(escape(text), _STYLES["Italic"])


def _chart_figure() -> Figure:
    """A figure of the charts' size on matplotlib's Agg canvas. matplotlib is imported here, when a report is drawn,
    not when the app loads (a quarter of a second at every process's start: every web and Celery process, every
    ``manage.py`` command)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=CHART_SIZE, dpi=CHART_DPI)
    FigureCanvasAgg(figure)
    return figure


def hourly_chart_png(hours: Sequence[Mapping[str, Any]]) -> bytes:
    """The shift by hour as a PNG: bars for the house's commission and rake, a line for the players' win/loss
    (players and player banks). Drawn on matplotlib's Agg canvas (no display), no date in the file."""
    figure = _chart_figure()
    axes = figure.add_subplot(1, 1, 1)
    labels = [row["hour"][11:16] for row in hours]
    places = list(range(len(hours)))
    commission = [row["commission_cents"] / 100 for row in hours]
    rake = [row["rake_cents"] / 100 for row in hours]
    players = [(row["player_cents"] + row["banker_cents"]) / 100 for row in hours]
    axes.bar(places, commission, width=0.6, color="#4c72b0", label="House commission")
    axes.bar(places, rake, width=0.6, bottom=commission, color="#8fb0d9", label="Rake")
    axes.plot(places, players, color="#c44e52", marker="o", linewidth=1.5, label="Players' win/loss")
    axes.axhline(0, color="black", linewidth=0.6)
    axes.set_xlim(-1, len(hours))  # one hour still draws a bar, not a band across the axes
    axes.set_xticks(places, labels)
    axes.set_xlabel("Hour (start)")
    axes.set_ylabel("Amount")
    axes.set_title("Win/loss and commission by hour")
    axes.grid(axis="y", linewidth=0.3)
    axes.legend(loc="best", fontsize=8)
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=CHART_DPI, metadata={"Software": None})
    return out.getvalue()


def _shift_story(data: Mapping[str, Any]) -> list[Flowable]:
    story: list[Flowable] = [_heading("By table, pit and floor")]
    heads = ["Level", "Pit", "Table", *(HEADS[name] for name in FIGURES)]
    rows = [["table", row["pit"], row["table"], *(_cell(row, n) for n in FIGURES)] for row in data["tables"]]
    rows += [["pit", row["pit"], "", *(_cell(row, n) for n in FIGURES)] for row in data["pits"]]
    rows.append(["floor", "", "", *(_cell(data["floor"], n) for n in FIGURES)])
    story.append(_table(heads, rows, numbers_from=3, bold_last=True))
    story.append(_heading("By hour"))
    hours = data.get("hours", [])
    if hours:
        story.append(Image(io.BytesIO(hourly_chart_png(hours)), width=250 * mm, height=250 * mm * 3.4 / 9.0))
        money = ("commission_cents", "rake_cents", "house_cents", "banker_cents", "player_cents")
        rows = [[row["hour"], *(_cell(row, n) for n in money)] for row in hours]
        totals = {name: sum(row[name] for row in hours) for name in money}
        rows.append(["total", *(_cell(totals, n) for n in money)])
        story.append(_table(["Hour", *(HEADS[n] for n in money)], rows, numbers_from=1, bold_last=True))
    else:
        story.append(_none("No ledger entries in this shift."))
    story.append(_heading("Commission and rake by table"))
    rows = [
        [row["pit"], row["table"], _cell(row, "commission_cents"), _cell(row, "rake_cents")] for row in data["tables"]
    ]
    rows.append(["floor", "", _cell(data["floor"], "commission_cents"), _cell(data["floor"], "rake_cents")])
    story.append(_table(["Pit", "Table", "Commission", "Rake"], rows, numbers_from=2, bold_last=True))
    story.append(_heading("Voids and corrections"))
    if data["adjustments"]:
        columns = ("kind", "table", "round", "asked_by", "approved_by", "reason")
        rows = [[str(row[c]) for c in columns] for row in data["adjustments"]]
        heads = ["Kind", "Table", "Round", "Asked by", "Approved by", "Reason"]
        story.append(_table(heads, rows, widths_mm=(22, 25, 15, 30, 30, 120), wrap=(5,)))
    else:
        story.append(_none("None."))
    return story


def _commission_story(data: Mapping[str, Any]) -> list[Flowable]:
    story: list[Flowable] = []
    floor = data["floor"]["commission_cents"]
    for title, section, columns, heads in (
        ("By table", "by_table", ("pit", "table"), ["Pit", "Table"]),
        ("By dealer", "by_dealer", ("dealer",), ["Dealer"]),
        ("By banking seat", "by_banking_seat", ("table", "bank", "seat"), ["Table", "Bank", "Seat"]),
    ):
        story.append(_heading(title))
        rows = [[*(_cell(row, c) for c in columns), money_text(row["commission_cents"])] for row in data[section]]
        rows.append(["floor", *([""] * (len(columns) - 1)), money_text(floor)])
        story.append(_table([*heads, "Commission"], rows, numbers_from=len(columns), bold_last=True))
    return story


def _audit_story(data: Mapping[str, Any]) -> list[Flowable]:
    chain = data["chain"]
    if chain["ok"]:
        verdict = "The audit log verifies: every event's hash matches its content, its tree every checkpoint."
    else:
        verdict = f"The audit log is BROKEN at event {chain['broken_seq']}: {chain['problem']}"
    story: list[Flowable] = [_heading("Chain verification"), Paragraph(escape(verdict), _STYLES["BodyText"])]
    story.append(_heading(f"Events ({len(data['events'])})"))
    rows = [
        (
            str(event["seq"]),
            event["occurred_at"][:19].replace("T", " "),
            event["actor"],
            event["event_type"],
            event["subject"],
            event["reason"],
            event["hash"][:16],
        )
        for event in data["events"]
    ]
    story.append(_table(AUDIT_HEADS, rows, widths_mm=AUDIT_WIDTHS_MM, wrap=(5,)))
    return story


# The audit report's events: a busy shift has 20,000 of them, their reasons wrapped.
AUDIT_HEADS = ("Seq", "Occurred at", "Actor", "Event", "Subject", "Reason", "Hash (first 16)")
AUDIT_WIDTHS_MM = (12, 30, 25, 45, 45, 85, 30)


def _controls_story(data: Mapping[str, Any]) -> list[Flowable]:
    """The floor's controls the report states (``pit.report_controls.controls_lines``), a line each, under its head."""
    return [
        # The checkpoint is one long word (hex and a time): CJK wrapping breaks it anywhere, inside the page.
        Paragraph(escape(f"{control}: {state}"), _WRAP_ANYWHERE if len(state) > 80 else _STYLES["BodyText"])
        for control, state in controls_lines(data)
    ]


def win_hold_chart_png(tables: Sequence[Mapping[str, Any]]) -> bytes:
    """Win and hold by table as a PNG: a bar of each table's win (amount, left axis; none until its win is known)
    and a dot of its hold % (right axis). Drawn as ``hourly_chart_png`` is: Agg canvas, fixed size, no date."""
    figure = _chart_figure()
    axes = figure.add_subplot(1, 1, 1)
    places = list(range(len(tables)))
    wins = [(row["win_cents"] or 0) / 100 for row in tables]
    axes.bar(places, wins, width=0.7, color=["#4c72b0" if w >= 0 else "#c44e52" for w in wins], label="Win")
    axes.axhline(0, color="black", linewidth=0.6)
    axes.set_ylabel("Win")
    axes.set_xlim(-1, len(tables))
    step = max(1, len(tables) // 40)  # at most about 40 names under the axis
    axes.set_xticks(places[::step], [row["table"] for row in tables][::step], rotation=90, fontsize=6)
    axes.grid(axis="y", linewidth=0.3)
    holds = axes.twinx()
    known = [
        (place, row["hold_bp"] / 100) for place, row in zip(places, tables, strict=True) if row["hold_bp"] is not None
    ]
    holds.plot(
        [p for p, _ in known],
        [h for _, h in known],
        linestyle="none",
        marker="o",
        markersize=3,
        color="#dd8452",
        label="Hold %",
    )
    holds.set_ylabel("Hold %")
    axes.set_title("Win and hold by table")
    bars, names = axes.get_legend_handles_labels()
    dots, more = holds.get_legend_handles_labels()
    axes.legend(bars + dots, names + more, loc="best", fontsize=8)
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=CHART_DPI, metadata={"Software": None})
    return out.getvalue()


# The Master Game Report's columns of a table: (figure, head).
MASTER_GAME_HEADS = (
    ("opener_cents", "Opener"),
    ("closer_cents", "Closer"),
    ("fills_cents", "Fills"),
    ("credits_cents", "Credits"),
    ("drop_cents", "Drop"),
    ("promo_cents", "Promo"),
    ("win_cents", "Win"),
    ("hold_bp", "Hold %"),
    ("computed_win_cents", "Computed"),
    ("house_cents", "House bank"),
    ("commission_cents", "Commission"),
    ("rake_cents", "Rake"),
    ("variance_cents", "Variance"),
    ("tray_variance_cents", "Tray var."),
    ("drop_variance_cents", "Drop var."),
)
GROUP_HEADS = (
    ("table_shifts", "Table-shifts"),
    ("incomplete", "Incomplete"),
    ("drop_cents", "Drop"),
    ("win_cents", "Win"),
    ("hold_bp", "Hold %"),
    ("computed_win_cents", "Computed"),
    ("variance_cents", "Variance"),
)


def _master_game_story(data: Mapping[str, Any]) -> list[Flowable]:
    cell = master_game.cell_text
    story: list[Flowable] = [
        Paragraph(
            escape(
                "Table win = drop + closer + credits - opener - fills; hold = win / drop. Computed win: the house's "
                "from the settlements (house bank + commission + rake). Variance = win - computed win (tray + drop)."
            ),
            _SMALL,
        )
    ]
    if data["boxes_missing"]:
        text = "Built before the count was done: these drop boxes are not final: " + ", ".join(data["boxes_missing"])
        story.append(Paragraph(escape(text), _STYLES["BodyText"]))
    story.append(_heading("Win and hold by table"))
    if data["tables"]:
        chart = win_hold_chart_png(data["tables"])
        story.append(Image(io.BytesIO(chart), width=250 * mm, height=250 * mm * CHART_SIZE[1] / CHART_SIZE[0]))
    heads = ["Pit", "Table", *(head for _, head in MASTER_GAME_HEADS), "Box"]
    rows = [
        [
            row["pit"],
            row["table"],
            *(cell(row, name) for name, _ in MASTER_GAME_HEADS),
            row["box"] or row["drop_status"],
        ]
        for row in data["tables"]
    ]
    story.append(_table(heads, rows, numbers_from=2) if rows else _none("No table recorded anything in this shift."))
    story.append(_heading("Win and hold by pit, game, floor and period"))
    rows = [
        [level.replace("_", " "), name, *(cell(row, figure) for figure, _ in GROUP_HEADS)]
        for level, name, row in master_game.win_hold_lines(data)
    ]
    story.append(_table(["Level", "Name", *(head for _, head in GROUP_HEADS)], rows, numbers_from=2))
    story.append(_heading("Drop variance"))
    if data["drop_variance"]:
        columns = master_game.DROP_VARIANCE_COLUMNS
        rows = [[cell(row, name) for name in columns] for row in data["drop_variance"]]
        heads = ["Pit", "Table", "Box", "Status", "Buy-ins", "Drop", "Drop variance"]
        story.append(_table(heads, rows, numbers_from=4))
    else:
        story.append(_none("Every box is counted and agrees with the buy-ins."))
    story.append(_heading("Slips"))
    if data["slips"]:
        columns = master_game.SLIP_COLUMNS
        rows = [[*(cell(row, name) for name in columns[:-1]), row["void_reason"]] for row in data["slips"]]
        heads = ["Kind", "No.", "Table", "Status", "Total", "Requested", "Issued", "Dealer", "Supervisor", "Voided"]
        widths = (14, 12, 20, 18, 20, 26, 26, 26, 26, 26, 56)
        story.append(_table([*heads, "Why"], rows, widths_mm=widths, wrap=(10,)))
    else:
        story.append(_none("No fill or credit in this shift."))
    story.append(_heading("Slip numbers"))
    rows = [
        [
            row["kind"],
            "" if row["first"] is None else f"{row['first']}-{row['last']}",
            master_game.numbers_text(row["used"]),
            master_game.numbers_text(row["voided"]),
            master_game.numbers_text(row["missing"]) or "none",
        ]
        for row in data["slip_numbers"]
    ]
    heads = ["Kind", "Range", "Used", "Voided", "Missing"]
    story.append(_table(heads, rows, widths_mm=(18, 25, 90, 70, 70), wrap=(2, 3, 4)))
    return story


# The rating report's columns of a session: (figure, head); the alert is its own column.
RATING_HEADS = (
    ("rounds", "Rounds"),
    ("average_bet_cents", "Avg bet"),
    ("wagered_cents", "Action"),
    ("banker_rounds", "Banks"),
    ("banker_wagered_cents", "Bank action"),
    ("win_loss_cents", "Win/loss"),
    ("theo_cents", "Theo"),
    ("classic_theo_cents", "Classic"),
    ("comp_cents", "Comps"),
    ("points", "Points"),
    ("z", "z"),
)


def _ratings_story(data: Mapping[str, Any]) -> list[Flowable]:
    cell = rating_report.cell_text
    settings = data["settings"]
    story: list[Flowable] = [
        Paragraph(
            escape(
                "Each rated session's play in this shift (its rounds of the shift only). Win/loss is the player's (won "
                "positive). Theo = the sum of every wager x its house edge; classic = average bet x hours x "
                f"{settings['decisions_per_hour']} decisions an hour x the session's edge. An alert: a win more than "
                f"{settings['alert_sigma']} standard deviations above the player's expectation."
            ),
            _SMALL,
        ),
        _heading("Sessions"),
    ]
    if not data["sessions"]:
        return [*story, _none("No rated player played in this shift.")]
    heads = ["Session", "Player", "Tier", "Tables", "From", "Until", "Time", *(h for _, h in RATING_HEADS), "Alert"]
    rows = [
        [
            str(line["session"]),
            rating_report.player_label(line),
            line["tier"],
            ", ".join(line["tables"]),
            rating_report.clock_text(line["from"]),
            rating_report.clock_text(line["until"]),
            rating_report.hours_text(line["seconds_played"]),
            *(cell(line, name) for name, _ in RATING_HEADS),
            cell(line, "alert"),
        ]
        for line in data["sessions"]
    ]
    totals = data["totals"]
    rows.append(
        [
            str(totals["sessions"]),
            f"{totals['players']} players",
            "",
            "",
            "",
            "",
            rating_report.hours_text(totals["seconds_played"]),
            *(cell(totals, name) for name, _ in RATING_HEADS[:-1]),
            "",
            f"{totals['alerts']} alerts" if totals["alerts"] else "",
        ]
    )
    widths = (14, 27, 12, 18, 10, 10, 11, 13, 15, 16, 12, 17, 16, 15, 15, 14, 11, 9, 12)  # 267 mm: the page's width
    story.append(_table(heads, rows, numbers_from=4, bold_last=True, widths_mm=widths, wrap=(1, 3)))
    return story


# The dealer report's columns of a line: (figure, head); the alert is its own column.
DEALER_HEADS = (
    ("rounds_settled", "Settled"),
    ("rounds_voided", "Voided"),
    ("rounds_per_hour", "Rounds/h"),
    ("voids_per_100", "Voids/100"),
    ("corrections", "Corr."),
    ("corrections_per_100", "Corr./100"),
    ("handle_cents", "Handle"),
    ("house_win_cents", "House win"),
    ("theo_cents", "Expected"),
    ("hold_percent", "Hold %"),
    ("expected_hold_percent", "Exp. %"),
    ("z", "z"),
)


def _dealers_story(data: Mapping[str, Any]) -> list[Flowable]:
    cell = dealer_performance_report.cell_text
    story: list[Flowable] = [
        Paragraph(
            escape(
                "Each dealer's rounds at each game in this shift: settled rounds an hour on the box (from the open of "
                "their first round to the end of their last), voids and corrections per 100 rounds dealt, and the hold "
                "of the rounds they dealt beside the house edge's expectation of their handle. z = (house win - "
                f"expected) / standard deviation; an alert at |z| of {data['settings']['alert_z']} or more."
            ),
            _SMALL,
        ),
        _heading("Dealers"),
    ]
    if not data["dealers"]:
        return [*story, _none("No round was dealt in this shift.")]
    heads = ["Dealer", "Game", "From", "Until", "Time", *(h for _, h in DEALER_HEADS), "Alert"]
    rows = [
        [
            dealer_performance_report.dealer_label(line),
            dealer_performance_report.game_label(line["game"]),
            rating_report.clock_text(line["start"]) if line["start"] else "",
            rating_report.clock_text(line["end"]) if line["end"] else "",
            rating_report.hours_text(line["seconds_on_box"]),
            *(cell(line, name) for name, _ in DEALER_HEADS),
            cell(line, "alert"),
        ]
        for line in data["dealers"]
    ]
    totals = data["totals"]
    summed = ("rounds_settled", "rounds_voided", "corrections", "handle_cents", "house_win_cents", "theo_cents")
    rows.append(
        [
            f"{totals['dealers']} dealers",
            "",
            "",
            "",
            "",
            *(cell(totals, name) if name in summed else "" for name, _ in DEALER_HEADS),
            f"{totals['alerts']} alerts" if totals["alerts"] else "",
        ]
    )
    story.append(_table(heads, rows, numbers_from=2, bold_last=True, wrap=(0,)))
    return story


STORIES = {
    ShiftReport.Kind.SHIFT: _shift_story,
    ShiftReport.Kind.COMMISSION: _commission_story,
    ShiftReport.Kind.AUDIT: _audit_story,
    ShiftReport.Kind.MASTER_GAME: _master_game_story,
    ShiftReport.Kind.RATINGS: _ratings_story,
    ShiftReport.Kind.DEALERS: _dealers_story,
}


def render_pdf(data: Mapping[str, Any], digest: str) -> bytes:
    """The report as a landscape A4 PDF, the same bytes for the same figures (reportlab's invariant mode)."""
    kind = ShiftReport.Kind(data["kind"])
    head = data["shift"]
    title = f"{TITLES[kind]}: {head['name']} shift of {head['gaming_day']}"
    out = io.BytesIO()
    document = SimpleDocTemplate(
        out,
        pagesize=landscape(A4),
        leftMargin=12 * mm,
        rightMargin=12 * mm,
        topMargin=12 * mm,
        bottomMargin=14 * mm,
        title=title,
        author="Tableside",
        subject=f"content hash {digest}",
        creator="Tableside",
        invariant=1,
    )
    closed = head["closed_at"] or "open"
    story: list[Flowable] = [
        Paragraph(escape(title), _STYLES["Title"]),
        Paragraph(
            escape(f"Shift {head['number']} · opened {head['opened_at']} · closed {closed}"), _STYLES["BodyText"]
        ),
        Paragraph(escape(f"Content hash (SHA-256 of the figures): {digest}"), _SMALL),
        *_controls_story(data),
        Spacer(1, 3 * mm),
        *STORIES[kind](data),
    ]

    def footer(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 7)
        canvas.drawString(12 * mm, 7 * mm, title)
        canvas.drawRightString(doc.pagesize[0] - 12 * mm, 7 * mm, f"page {doc.page}")
        canvas.restoreState()

    document.build(story, onFirstPage=footer, onLaterPages=footer)
    return out.getvalue()
