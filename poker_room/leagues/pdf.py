"""A league's standings as a PDF: the league, its season, the formula and the
rules of counting, the events, and the standings with each event's place and points (a dropped result in
brackets), the total, and the Master Class's field with each stack. Landscape A4; reportlab in its invariant mode
(as the project's other PDFs): the same standings give the same bytes.

Names are the players' as typed: any script, any length, text that looks like markup. The text is set in DejaVu Sans
(Latin, Greek, Cyrillic, ...; reportlab's own Vera where the machine has no DejaVu), and what that font has no glyph
for in Adobe's CJK font STSong-Light (not embedded: readers with Adobe's Asian fonts show it; the text is there to
copy and search in any reader), so no name is lost to boxes; names
wrap within their column, and a season of more events than one page's width holds is printed in several tables of
its events, the points and the stack in the last, so nothing runs off the page."""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import reportlab
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from casino.money import money_text
from poker_room.leagues.models import League
from poker_room.leagues.selectors import Standings, formula_text, league_tie_breaks, rounding_text, tie_break_names

FONT, BOLD, CJK = "LeagueSans", "LeagueSans-Bold", "STSong-Light"
_DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
_VERA = Path(reportlab.__file__).parent / "fonts"
PAGE_WIDTH: float = landscape(A4)[0] - 30 * mm  # between the margins
RANK_WIDTH, PLAYER_WIDTH, POINTS_WIDTH, STACK_WIDTH = 30, 130, 50, 60
EVENT_WIDTH, WIDEST_EVENT = 40, 60  # a result's column at its narrowest: "12. 100.00" in 7 points (12 beside a name)


@functools.cache
def _fonts() -> frozenset[int]:
    """Register the PDF's fonts (once); the code points the main font has a glyph for."""
    regular, bold = _DEJAVU / "DejaVuSans.ttf", _DEJAVU / "DejaVuSans-Bold.ttf"
    if not (regular.is_file() and bold.is_file()):
        regular, bold = _VERA / "Vera.ttf", _VERA / "VeraBd.ttf"
    main = TTFont(FONT, str(regular))
    pdfmetrics.registerFont(main)
    pdfmetrics.registerFont(TTFont(BOLD, str(bold)))
    pdfmetrics.registerFont(UnicodeCIDFont(CJK))
    return frozenset(main.face.charToGlyph)


def markup(text: str) -> str:
    """``text`` as Paragraph markup: escaped (a name like "<b>" is printed as typed), and each run of characters the
    main font has no glyph for set in the CJK font."""
    covered = _fonts()
    runs: list[tuple[bool, str]] = []
    for char in text:
        own = ord(char) in covered or char.isspace()
        if runs and runs[-1][0] == own:
            runs[-1] = (own, runs[-1][1] + char)
        else:
            runs.append((own, char))
    return "".join(escape(run) if own else f'<font name="{CJK}">{escape(run)}</font>' for own, run in runs)


def _style(name: str, base: str, **overrides: Any) -> ParagraphStyle:
    _fonts()
    return ParagraphStyle(name, parent=_STYLES[base], **{"fontName": FONT, **overrides})


_STYLES = getSampleStyleSheet()
_GRID = [
    ("FONT", (0, 0), (-1, -1), FONT, 8),
    ("FONT", (0, 0), (-1, 0), BOLD, 8),
    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
    ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ("TOPPADDING", (0, 0), (-1, -1), 2),
    ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ("LEFTPADDING", (0, 0), (-1, -1), 3),
    ("RIGHTPADDING", (0, 0), (-1, -1), 3),
]


def _cell(text: str, style: ParagraphStyle) -> Paragraph:
    return Paragraph(markup(text), style)


def _events(found: Standings) -> Table:
    cell = _style("league-cell", "BodyText", fontSize=8, leading=10)
    rows: list[list[Any]] = [[_("No."), _("Event"), _("Finished"), _("Entries"), _("Buy-in"), _("Prize pool")]]
    for event in found.events:
        rows.append(
            [
                str(event.number),
                _cell(event.tournament.name, cell),
                _("yes") if event.finished else _("not yet"),
                str(event.players),
                money_text(event.buy_in_cents),
                money_text(event.prize_pool_cents) if event.finished else "—",
            ]
        )
    table = Table(rows, repeatRows=1, hAlign="LEFT", colWidths=[30, 330, 50, 50, 70, 80])
    table.setStyle(TableStyle([*_GRID, ("ALIGN", (3, 1), (-1, -1), "RIGHT")]))
    return table


def _event_room() -> float:
    return PAGE_WIDTH - RANK_WIDTH - PLAYER_WIDTH - POINTS_WIDTH - STACK_WIDTH


def event_chunks(events: int) -> list[list[int]]:
    """The events (by index) of each standings table: as many as the page's width holds beside the rank, the player,
    the points and the stack, the tables as even as can be (13 events: 7 and 6, not 12 and 1)."""
    if not events:
        return [[]]
    most = max(1, int(_event_room() // EVENT_WIDTH))
    tables = -(-events // most)
    size = -(-events // tables)
    return [list(range(start, min(start + size, events))) for start in range(0, events, size)]


def _standings(found: Standings) -> list[Flowable]:
    """The standings: one table, or (more events than the page is wide) one per run of events, the last with the
    points and the stack."""
    name = _style("league-name", "BodyText", fontSize=8, leading=10)
    result = _style("league-result", "BodyText", fontSize=7, leading=8.5, alignment=2)
    chunks = event_chunks(len(found.events))
    tables: list[Flowable] = []
    for number, chunk in enumerate(chunks, start=1):
        last = number == len(chunks)
        head: list[Any] = [_("Rank"), _("Player"), *(f"#{found.events[i].number}" for i in chunk)]
        width = min(WIDEST_EVENT, _event_room() / len(chunk)) if chunk else EVENT_WIDTH
        widths = [RANK_WIDTH, PLAYER_WIDTH, *(width for _i in chunk)]
        if last:
            head += [_("Points"), _("Stack")]
            widths += [POINTS_WIDTH, STACK_WIDTH]
        rows: list[list[Any]] = [head]
        for line in found.lines:
            cells: list[Any] = []
            for i in chunk:
                cell = line.cells[i]
                shown = f"{cell.place}. {cell.points}" if cell.state else ""
                cells.append(Paragraph(escape(f"({shown})" if cell.state == "dropped" else shown), result))
            row = [str(line.rank), _cell(line.name, name), *cells]
            if last:
                row += [str(line.total), f"{line.chips:,}" if line.chips is not None else ""]
            rows.append(row)
        table = Table(rows, repeatRows=1, hAlign="LEFT", colWidths=widths)
        style = [*_GRID, ("ALIGN", (2, 0), (-1, -1), "RIGHT")]
        for index, line in enumerate(found.lines, start=1):
            if line.invited:
                style.append(("BACKGROUND", (0, index), (-1, index), colors.HexColor("#eef6ee")))
        table.setStyle(TableStyle(style))
        tables += [table, Spacer(1, 2 * mm)] if not last else [table]
    return tables


def standings_pdf(league: League, found: Standings) -> bytes:
    """The standings as a landscape A4 PDF."""
    title = _("%(name)s · season %(season)s") % {"name": league.name, "season": league.season}
    out = io.BytesIO()
    document = SimpleDocTemplate(
        out,
        pagesize=landscape(A4),
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=14 * mm,
        bottomMargin=14 * mm,
        title=title,
        author="Tableside",
        creator="Tableside",
        invariant=1,
    )
    body = _style("league-body", "BodyText")
    heading = _style("league-heading", "Heading2", fontName=BOLD)
    counting = (
        _("The best %(n)s results count.") % {"n": league.best_of} if league.best_of else _("Every result counts.")
    )
    rules = " ".join(
        [
            _("Points: %(formula)s.") % {"formula": formula_text(league)},
            counting,
            _("Ties broken by: %(order)s.") % {"order": ", ".join(tie_break_names(league_tie_breaks(league)))},
            _("Master Class: the top %(size)s, %(chips)s chips a point, %(rounding)s.")
            % {
                "size": league.master_class_size,
                "chips": league.chips_per_point,
                "rounding": rounding_text(league, found.smallest_chip),
            },
        ]
    )
    story: list[Flowable] = [
        Paragraph(markup(title), _style("league-title", "Title", fontName=BOLD)),
        Paragraph(markup(rules), body),
        Spacer(1, 3 * mm),
        Paragraph(markup(_("Events")), heading),
        _events(found),
        Paragraph(markup(_("Standings")), heading),
    ]
    if found.error:
        story.append(Paragraph(markup(found.error), body))
    elif found.lines:
        story += [
            *_standings(found),
            Spacer(1, 2 * mm),
            Paragraph(
                markup(_("Each event: place. points; a result in brackets is not counted. Shaded: invited.")),
                body,
            ),
        ]
    else:
        story.append(Paragraph(markup(_("No finished event yet.")), body))
    footer = _style("league-footer", "BodyText", fontSize=8, leading=10)

    def page(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        line = Paragraph(markup(title), footer)
        line.wrapOn(canvas, PAGE_WIDTH - 60, 12 * mm)
        line.drawOn(canvas, 15 * mm, 6 * mm)
        canvas.setFont(FONT, 8)
        canvas.drawRightString(doc.pagesize[0] - 15 * mm, 8 * mm, _("Page %(page)s") % {"page": doc.page})
        canvas.restoreState()

    document.build(story, onFirstPage=page, onLaterPages=page)
    return out.getvalue()
