"""The PDF of a shift report: reportlab for the pages, matplotlib for the chart of the shift by hour (and
of win and hold by table in the Master Game Report).

``render_pdf(data, digest)`` turns a report's figures (``pit.reports``) into PDF bytes. The same figures
always give the same bytes: reportlab runs in its invariant mode (a fixed creation date and document id), the
chart is drawn by matplotlib's Agg canvas at a fixed size and dpi into a PNG without metadata, and nothing of the
build (a date, a user) goes into the pages. Every kind gets a PDF; the end-of-shift report and the Master Game
Report have a chart.
"""

from __future__ import annotations

import bisect
import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.platypus import Flowable, Image, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from casino.money import money_text
from pit import dealer_performance_report, master_game, rating_report
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
_GRID = TableStyle(
    [
        ("FONT", (0, 0), (-1, -1), "Helvetica", 7),
        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 7),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
        ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]
)


def _cell(row: Mapping[str, Any], name: str) -> str:
    value = row[name]
    if value is None:
        return ""
    return money_text(value) if name.endswith("_cents") else str(value)


def _table(
    head: Sequence[str], rows: Sequence[Sequence[Any]], *, numbers_from: int = 0, bold_last: bool = False
) -> Table:
    """A grid with a header row; columns from ``numbers_from`` on are right-aligned (figures)."""
    table = Table([list(head), *[list(row) for row in rows]], repeatRows=1, hAlign="LEFT")
    style = TableStyle(_GRID.getCommands())
    if numbers_from:
        style.add("ALIGN", (numbers_from, 0), (-1, -1), "RIGHT")
    if bold_last and rows:
        style.add("FONT", (0, -1), (-1, -1), "Helvetica-Bold", 7)
    table.setStyle(style)
    return table


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
        rows = [
            [*(str(row[c]) for c in columns[:-1]), Paragraph(escape(row["reason"]), _SMALL)]
            for row in data["adjustments"]
        ]
        table = _table(["Kind", "Table", "Round", "Asked by", "Approved by", "Reason"], rows)
        table._argW = [22 * mm, 25 * mm, 15 * mm, 30 * mm, 30 * mm, 120 * mm]
        story.append(table)
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
    story.append(EventGrid(rows))
    return story


class EventGrid(Flowable):  # type: ignore[misc]  # reportlab has no types
    """The audit report's events as a grid drawn line by line, split across as many pages as it takes, its head
    on each: what reportlab's Table draws, at a fraction of its cost (a busy shift has 20,000 events, 140,000
    cells: as a Table, about 5 s of a report's 5 s budget). A reason wider than its column wraps onto more lines."""

    HEAD = ("Seq", "Occurred at", "Actor", "Event", "Subject", "Reason", "Hash (first 16)")
    WIDTHS = (12 * mm, 30 * mm, 25 * mm, 45 * mm, 45 * mm, 85 * mm, 30 * mm)
    FONT, BOLD, SIZE, LEADING, PAD = "Helvetica", "Helvetica-Bold", 7, 8.5, 1.5
    REASON = 5  # the column that wraps

    def __init__(self, rows: Sequence[Sequence[str]]) -> None:
        super().__init__()
        room = self.WIDTHS[self.REASON] - 2 * 4  # the column less its side padding
        self.rows = rows
        self.reasons = [simpleSplit(row[self.REASON], self.FONT, self.SIZE, room) or [""] for row in rows]
        # The rows' tops from the grid's: row i spans tops[i] to tops[i + 1] below the head (a part of the grid on a
        # page is a range of rows, found by bisection: splitting page after page stays linear).
        self.tops = [0.0]
        for said in self.reasons:
            self.tops.append(self.tops[-1] + len(said) * self.LEADING + 2 * self.PAD)
        self.head_height = self.LEADING + 2 * self.PAD
        self.start, self.stop = 0, len(rows)
        self.hAlign = "LEFT"

    def _part(self, start: int, stop: int) -> EventGrid:
        """Rows ``start`` to ``stop``, sharing the lines worked out (a fresh flowable: reportlab marks one it had to
        postpone, and a copy would carry the mark onto the next page)."""
        part: EventGrid = EventGrid.__new__(EventGrid)
        Flowable.__init__(part)
        part.rows, part.reasons, part.tops, part.head_height = self.rows, self.reasons, self.tops, self.head_height
        part.start, part.stop, part.hAlign = start, stop, self.hAlign
        return part

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = sum(self.WIDTHS)
        self.height = self.head_height + self.tops[self.stop] - self.tops[self.start]
        return self.width, self.height

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        reach = self.tops[self.start] + available_height - self.head_height
        fits = bisect.bisect_right(self.tops, reach, lo=self.start, hi=self.stop + 1) - 1 - self.start
        if fits <= 0:
            return []
        if self.start + fits >= self.stop:
            return [self]
        middle = self.start + fits
        return [self._part(self.start, middle), self._part(middle, self.stop)]

    def draw(self) -> None:
        canvas = self.canv
        xs = [0.0]
        for width in self.WIDTHS:
            xs.append(xs[-1] + width)
        ys = [self.height]
        canvas.setFillColor(colors.HexColor("#e8e8e8"))
        canvas.rect(0, self.height - self.head_height, xs[-1], self.head_height, stroke=0, fill=1)
        canvas.setFillColor(colors.black)
        text = canvas.beginText()
        baseline = self.PAD + (self.LEADING - self.SIZE) / 2 + 0.5  # the first line's baseline above its cell's foot
        text.setFont(self.BOLD, self.SIZE, self.LEADING)
        top = self.height
        for x, word in zip(xs, self.HEAD, strict=False):
            text.setTextOrigin(x + 4, top - self.head_height + baseline)
            text.textOut(word)
        top -= self.head_height
        ys.append(top)
        text.setFont(self.FONT, self.SIZE, self.LEADING)
        for index in range(self.start, self.stop):
            row, said, height = self.rows[index], self.reasons[index], self.tops[index + 1] - self.tops[index]
            first = top - self.PAD - self.LEADING + baseline - self.PAD  # the first line's baseline
            for column, (x, cell) in enumerate(zip(xs, row, strict=False)):
                if column == self.REASON:
                    for n, piece in enumerate(said):
                        text.setTextOrigin(x + 4, first - n * self.LEADING)
                        text.textOut(piece)
                else:
                    text.setTextOrigin(x + 4, first)
                    text.textOut(cell)
            top -= height
            ys.append(top)
        canvas.drawText(text)
        canvas.setStrokeColor(colors.grey)
        canvas.setLineWidth(0.25)
        canvas.grid(xs, ys)


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
        rows = [
            [*(cell(row, name) for name in columns[:-1]), Paragraph(escape(row["void_reason"]), _SMALL)]
            for row in data["slips"]
        ]
        heads = ["Kind", "No.", "Table", "Status", "Total", "Requested", "Issued", "Dealer", "Supervisor", "Voided"]
        table = _table([*heads, "Why"], rows)
        table._argW = [
            14 * mm,
            12 * mm,
            20 * mm,
            18 * mm,
            20 * mm,
            26 * mm,
            26 * mm,
            26 * mm,
            26 * mm,
            26 * mm,
            56 * mm,
        ]
        story.append(table)
    else:
        story.append(_none("No fill or credit in this shift."))
    story.append(_heading("Slip numbers"))
    rows = [
        [
            row["kind"],
            "" if row["first"] is None else f"{row['first']}-{row['last']}",
            Paragraph(escape(master_game.numbers_text(row["used"])), _SMALL),
            Paragraph(escape(master_game.numbers_text(row["voided"])), _SMALL),
            Paragraph(escape(master_game.numbers_text(row["missing"]) or "none"), _SMALL),
        ]
        for row in data["slip_numbers"]
    ]
    table = _table(["Kind", "Range", "Used", "Voided", "Missing"], rows)
    table._argW = [18 * mm, 25 * mm, 90 * mm, 70 * mm, 70 * mm]
    story.append(table)
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
            Paragraph(escape(rating_report.player_label(line)), _SMALL),
            line["tier"],
            Paragraph(escape(", ".join(line["tables"])), _SMALL),
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
    table = _table(heads, rows, numbers_from=4, bold_last=True)
    widths = (14, 27, 12, 18, 10, 10, 11, 13, 15, 16, 12, 17, 16, 15, 15, 14, 11, 9, 12)  # 267 mm: the page's width
    table._argW = [width * mm for width in widths]
    story.append(table)
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
            Paragraph(escape(dealer_performance_report.dealer_label(line)), _SMALL),
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
    story.append(_table(heads, rows, numbers_from=2, bold_last=True))
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
