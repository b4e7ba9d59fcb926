"""A league's standings as a PDF (issue 19, "standings page and PDF"): the league, its season, the formula and the
rules of counting, the events, and the standings with each event's place and points (a dropped result in
brackets), the total, and the Master Class's field with each stack. Landscape A4; reportlab in its invariant mode
(as the project's other PDFs): the same standings give the same bytes."""

from __future__ import annotations

import io
from typing import Any
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from casino.money import money_text
from poker_room.league_selectors import Standings, formula_text, league_tie_breaks, tie_break_names
from poker_room.models import League

_STYLES = getSampleStyleSheet()
_GRID = [
    ("FONT", (0, 0), (-1, -1), "Helvetica", 8),
    ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8),
    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
    ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ("TOPPADDING", (0, 0), (-1, -1), 2),
    ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
]


def _events(found: Standings) -> Table:
    rows: list[list[str]] = [[_("No."), _("Event"), _("Finished"), _("Entries"), _("Buy-in"), _("Prize pool")]]
    for event in found.events:
        rows.append(
            [
                str(event.number),
                event.tournament.name,
                _("yes") if event.finished else _("not yet"),
                str(event.players),
                money_text(event.buy_in_cents),
                money_text(event.prize_pool_cents) if event.finished else "—",
            ]
        )
    table = Table(rows, repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle([*_GRID, ("ALIGN", (3, 1), (-1, -1), "RIGHT")]))
    return table


def _standings(found: Standings) -> Table:
    head = [_("Rank"), _("Player")] + [f"#{event.number}" for event in found.events] + [_("Points"), _("Stack")]
    rows: list[list[str]] = [head]
    for line in found.lines:
        cells = []
        for cell in line.cells:
            if not cell.state:
                cells.append("")
                continue
            shown = f"{cell.place}. {cell.points}"
            cells.append(f"({shown})" if cell.state == "dropped" else shown)
        rows.append(
            [str(line.rank), line.name, *cells, str(line.total), f"{line.chips:,}" if line.chips is not None else ""]
        )
    table = Table(rows, repeatRows=1, hAlign="LEFT")
    style = [*_GRID, ("ALIGN", (2, 1), (-1, -1), "RIGHT")]
    for index, line in enumerate(found.lines, start=1):
        if line.invited:
            style.append(("BACKGROUND", (0, index), (-1, index), colors.HexColor("#eef6ee")))
    table.setStyle(TableStyle(style))
    return table


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
    body = _STYLES["BodyText"]
    counting = (
        _("The best %(n)s results count.") % {"n": league.best_of} if league.best_of else _("Every result counts.")
    )
    rules = " ".join(
        [
            _("Points: %(formula)s.") % {"formula": formula_text(league)},
            counting,
            _("Ties broken by: %(order)s.") % {"order": ", ".join(tie_break_names(league_tie_breaks(league)))},
            _("Master Class: the top %(size)s, %(chips)s chips a point, rounded %(rounding)s to the %(chip)s chip.")
            % {
                "size": league.master_class_size,
                "chips": league.chips_per_point,
                "rounding": league.get_chip_rounding_display(),
                "chip": found.smallest_chip,
            },
        ]
    )
    story: list[Flowable] = [
        Paragraph(escape(title), _STYLES["Title"]),
        Paragraph(escape(rules), body),
        Spacer(1, 3 * mm),
        Paragraph(escape(_("Events")), _STYLES["Heading2"]),
        _events(found),
        Paragraph(escape(_("Standings")), _STYLES["Heading2"]),
    ]
    if found.error:
        story.append(Paragraph(escape(found.error), body))
    elif found.lines:
        story += [
            _standings(found),
            Spacer(1, 2 * mm),
            Paragraph(
                escape(_("Each event: place. points; a result in brackets is not counted. Shaded: invited.")),
                body,
            ),
        ]
    else:
        story.append(Paragraph(escape(_("No finished event yet.")), body))

    def page(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawString(15 * mm, 8 * mm, title)
        canvas.drawRightString(doc.pagesize[0] - 15 * mm, 8 * mm, _("Page %(page)s") % {"page": doc.page})
        canvas.restoreState()

    document.build(story, onFirstPage=page, onLaterPages=page)
    return out.getvalue()
