"""The reports' tables in their PDFs: a grid of text drawn line by line (``Grid``), split across pages by bisection.

reportlab's ``Table`` measures every cell again at each page break and styles each cell apart: a Master Game Report
of 200 tables spent about half its PDF's time there, and one table of an audit report's 20,000 events grew
quadratically (docs/performance.md, "The audit report of a busy shift"). A report's tables are text in one font and
size with a shaded head row, so ``Grid`` draws them itself: each page's cells in one text object, its rules with one
``grid`` call, the head again on every page, figures right-aligned, chosen columns wrapped within their widths.
"""

from __future__ import annotations

import bisect
from collections.abc import Collection, Sequence
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

FONT, BOLD, SIZE, LEADING = "Helvetica", "Helvetica-Bold", 7, 8.5
PAD_Y, PAD_X = 1.5, 4.0  # a cell's padding above and below its text, and on each side
WRAPPED_WIDEST = 60 * mm  # a wrapped column's width when none is given: its widest text, up to this
HEAD_SHADE = colors.HexColor("#e8e8e8")


class Grid(Flowable):  # type: ignore[misc]  # reportlab has no types
    """A table of text: ``head`` and ``rows`` of strings, one line a cell but in the ``wrap`` columns, which wrap
    within their width. ``widths`` (points) or each column's widest text; columns from ``numbers_from`` on are
    right-aligned (0: none); ``bold_last`` sets the last row in bold (a total)."""

    def __init__(
        self,
        head: Sequence[str],
        rows: Sequence[Sequence[str]],
        *,
        widths: Sequence[float] | None = None,
        numbers_from: int = 0,
        bold_last: bool = False,
        wrap: Collection[int] = (),
    ) -> None:
        super().__init__()
        self.head, self.rows, self.bold_last = list(head), rows, bold_last
        self.wrapped = sorted(wrap)
        self.widths = list(widths) if widths is not None else self._widest(head, rows, self.wrapped)
        self.right = [0 < numbers_from <= column for column in range(len(self.head))]
        # Each wrapped cell's lines; a row's height is its tallest cell's.
        self.lines = {
            column: [simpleSplit(row[column], FONT, SIZE, self.widths[column] - 2 * PAD_X) or [""] for row in rows]
            for column in self.wrapped
        }
        # The rows' tops from the grid's (under its head): row i spans tops[i] to tops[i + 1]. A part of the grid on
        # a page is a range of rows, found by bisection, so splitting page after page stays linear.
        self.tops = [0.0]
        for index in range(len(rows)):
            tallest = max((len(self.lines[column][index]) for column in self.wrapped), default=1)
            self.tops.append(self.tops[-1] + tallest * LEADING + 2 * PAD_Y)
        self.head_height = LEADING + 2 * PAD_Y
        self.start, self.stop = 0, len(rows)
        self.hAlign = "LEFT"

    @staticmethod
    def _widest(head: Sequence[str], rows: Sequence[Sequence[str]], wrap: Sequence[int]) -> list[float]:
        widths = [stringWidth(text, BOLD, SIZE) + 2 * PAD_X for text in head]
        for row in rows:
            for column, text in enumerate(row):
                widths[column] = max(widths[column], stringWidth(text, BOLD, SIZE) + 2 * PAD_X)
        return [min(width, WRAPPED_WIDEST) if column in wrap else width for column, width in enumerate(widths)]

    def _part(self, start: int, stop: int) -> Grid:
        """Rows ``start`` to ``stop``, sharing what is worked out (a fresh flowable: reportlab marks one it had to
        postpone, and a copy would carry the mark onto the next page)."""
        part: Grid = Grid.__new__(Grid)
        Flowable.__init__(part)
        part.__dict__.update(
            {name: getattr(self, name) for name in ("head", "rows", "bold_last", "wrapped", "widths", "right", "lines")}
        )
        part.tops, part.head_height, part.hAlign = self.tops, self.head_height, self.hAlign
        part.start, part.stop = start, stop
        return part

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = sum(self.widths)
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
        for width in self.widths:
            xs.append(xs[-1] + width)
        canvas.setFillColor(HEAD_SHADE)
        canvas.rect(0, self.height - self.head_height, xs[-1], self.head_height, stroke=0, fill=1)
        canvas.setFillColor(colors.black)
        text = canvas.beginText()
        below = PAD_Y + (LEADING - SIZE) / 2 + 0.5  # a line's baseline above the foot of its line's room
        top = self.height
        self._line(text, self.head, xs, top - self.head_height + below, BOLD, None)
        top -= self.head_height
        ys = [self.height, top]
        last = len(self.rows) - 1
        for index in range(self.start, self.stop):
            row = self.rows[index]
            baseline = top - PAD_Y - LEADING + below
            self._line(text, row, xs, baseline, BOLD if self.bold_last and index == last else FONT, index)
            top -= self.tops[index + 1] - self.tops[index]
            ys.append(top)
        canvas.drawText(text)
        canvas.setStrokeColor(colors.grey)
        canvas.setLineWidth(0.25)
        canvas.grid(xs, ys)

    def _line(
        self,
        text: Any,  # reportlab's PDFTextObject (reportlab has no types)
        cells: Sequence[str],
        xs: Sequence[float],
        baseline: float,
        font: str,
        index: int | None,
    ) -> None:
        """Row ``index``'s cells (None: the head's) in ``font``, left to right, a wrapped cell line under line."""
        text.setFont(font, SIZE, LEADING)
        for column, cell in enumerate(cells):
            if index is not None and column in self.lines:
                for number, piece in enumerate(self.lines[column][index]):
                    text.setTextOrigin(xs[column] + PAD_X, baseline - number * LEADING)
                    text.textOut(piece)
                continue
            if not cell:
                continue
            if self.right[column]:  # measured only where it is right-aligned: an audit report has 140,000 cells
                text.setTextOrigin(xs[column + 1] - PAD_X - stringWidth(cell, font, SIZE), baseline)
            else:
                text.setTextOrigin(xs[column] + PAD_X, baseline)
            text.textOut(cell)
