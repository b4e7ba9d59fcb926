"""A fill or credit slip as a PDF (DESIGN.md "The table's money"): what the cage and the table sign, and
what the count room and the auditors file.

``slip_pdf(slip)`` gives the slip's one page: its kind and number ("Fill slip No. 000017"), the table, its pit, the
gaming day and shift, when it was requested, issued and received, the chips by denomination with their total, the
four signatures (requested by, issued by the cage, the dealer, the supervisor), and for a voided slip a VOID mark
with who voided it and why. reportlab runs in its invariant mode: the same slip gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any
from xml.sax.saxutils import escape

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from casino import numbers
from tables.models import Slip

_STYLES = getSampleStyleSheet()
_VOID_RED = colors.HexColor("#b3261e")
_VOID = ParagraphStyle(
    "void", parent=_STYLES["BodyText"], fontName="Helvetica-Bold", fontSize=12, leading=15, textColor=_VOID_RED
)
_GRID = [
    ("FONT", (0, 0), (-1, -1), "Helvetica", 10),
    ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 10),
    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
    ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ("TOPPADDING", (0, 0), (-1, -1), 3),
    ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
]


def slip_title(slip: Slip) -> str:
    """The slip's heading, "Fill slip No. 000017" or "Credit slip No. 000003": its number as printed, six digits."""
    if slip.kind == Slip.Kind.FILL:
        return _("Fill slip No. %(number)s") % {"number": f"{slip.number:06d}"}
    return _("Credit slip No. %(number)s") % {"number": f"{slip.number:06d}"}


def _when(moment: dt.datetime | None) -> str:
    return date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT") if moment is not None else "—"


def _who(user: User | None) -> str:
    return user.get_username() if user is not None else ""


def _facts(slip: Slip) -> Table:
    shift = slip.shift
    rows = [
        [_("Table"), f"{slip.table.name} ({slip.table.get_game_display()})"],
        [_("Pit"), slip.table.pit.name],
        [_("Gaming day"), date_format(shift.gaming_day.business_date, "SHORT_DATE_FORMAT")],
        [_("Shift"), _("%(name)s (shift %(number)s)") % {"name": shift.name, "number": shift.number}],
        [_("Status"), str(slip.get_status_display())],
        [_("Requested"), _when(slip.requested_at)],
        [_("Issued"), _when(slip.issued_at)],
        [_("Received"), _when(slip.received_at)],
    ]
    table = Table(rows, colWidths=[40 * mm, 120 * mm], hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (0, -1), "Helvetica-Bold", 10),
                ("FONT", (1, 0), (1, -1), "Helvetica", 10),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ]
        )
    )
    return table


def _chips(slip: Slip) -> Table:
    lines = sorted(((int(value), number) for value, number in slip.chips.items() if number), key=lambda v: -v[0])
    rows: list[list[str]] = [[_("Denomination"), _("Chips"), _("Amount")]]
    money = numbers.printed_amount
    rows += [[money(value), str(number), money(value * number)] for value, number in lines]
    rows.append([_("Total"), str(sum(number for _value, number in lines)), money(slip.total_cents)])
    table = Table(rows, colWidths=[50 * mm, 30 * mm, 50 * mm], hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                *_GRID,
                ("ALIGN", (0, 0), (-1, -1), "RIGHT"),
                ("FONT", (0, -1), (-1, -1), "Helvetica-Bold", 10),
                ("LINEABOVE", (0, -1), (-1, -1), 1.2, colors.black),
            ]
        )
    )
    return table


def _signatures(slip: Slip) -> Table:
    """Who signed, and when where the slip keeps it (the dealer's signature has no time of its own; the supervisor's
    is the receipt); a line not signed yet stays blank, to be signed on paper."""
    rows = [
        [_("Requested by"), _who(slip.requested_by), _when(slip.requested_at)],
        [_("Issued by (cage)"), _who(slip.issued_by), _when(slip.issued_at) if slip.issued_at else ""],
        [_("Dealer"), _who(slip.dealer_signed_by), ""],
        [_("Supervisor"), _who(slip.supervisor_signed_by), _when(slip.received_at) if slip.received_at else ""],
    ]
    table = Table([[_("Signature"), _("Name"), _("Time")], *rows], colWidths=[45 * mm, 70 * mm, 45 * mm], hAlign="LEFT")
    table.setStyle(TableStyle([*_GRID, ("TOPPADDING", (0, 1), (-1, -1), 9), ("BOTTOMPADDING", (0, 1), (-1, -1), 9)]))
    return table


def slip_pdf(slip: Slip) -> bytes:
    """The slip as a one-page A4 PDF, the same bytes for the same slip (reportlab's invariant mode).

    Reads the slip's table and pit, its shift and gaming day and the people on it: fetch it with them
    (``select_related``)."""
    title = slip_title(slip)
    voided = slip.status == Slip.Status.VOIDED
    stamp = _("VOID")
    out = io.BytesIO()
    document = SimpleDocTemplate(
        out,
        pagesize=A4,
        leftMargin=20 * mm,
        rightMargin=20 * mm,
        topMargin=18 * mm,
        bottomMargin=18 * mm,
        title=f"{title} ({stamp})" if voided else title,
        author="Tableside",
        creator="Tableside",
        invariant=1,
    )
    story: list[Flowable] = [Paragraph(escape(title), _STYLES["Title"])]
    if voided:
        story.append(
            Paragraph(
                escape(
                    _("VOID: voided by %(who)s. Reason: %(reason)s")
                    % {"who": _who(slip.voided_by), "reason": slip.void_reason}
                ),
                _VOID,
            )
        )
    story += [
        Spacer(1, 3 * mm),
        _facts(slip),
        Paragraph(escape(_("Chips")), _STYLES["Heading2"]),
        _chips(slip),
        Paragraph(escape(_("Signatures")), _STYLES["Heading2"]),
        _signatures(slip),
    ]

    def page(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        if voided:  # the stamp across the page, under nothing that must stay legible: drawn light
            canvas.setFillColor(_VOID_RED, alpha=0.18)
            canvas.setFont("Helvetica-Bold", 150)
            canvas.translate(doc.pagesize[0] / 2, doc.pagesize[1] / 2 - 40 * mm)
            canvas.rotate(35)
            canvas.drawCentredString(0, 0, stamp)
        canvas.restoreState()
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawString(20 * mm, 10 * mm, title)
        canvas.drawRightString(doc.pagesize[0] - 20 * mm, 10 * mm, "Tableside")
        canvas.restoreState()

    document.build(story, onFirstPage=page, onLaterPages=page)
    return out.getvalue()
