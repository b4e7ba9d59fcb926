"""The game-math lab's convergence chart: each side's edge estimate with its 95% interval against the hands
played, and the shipped figure beside it when there is one. Drawn by matplotlib's Agg canvas (no display) into a PNG
without metadata: the same run always gives the same bytes."""

from __future__ import annotations

import io

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, PercentFormatter

from rules.lab_selectors import LabFigures, SeriesPoint

CHART_SIZE = (8.0, 3.6)  # inches: 800 × 360 px at 100 dpi, the width of the lab page
CHART_DPI = 100
_SIDES = (("player", "#1f6f43"), ("banker", "#8a3b12"))


def _hands(value: float, _position: object) -> str:
    return f"{value / 1_000_000:g}M" if value >= 1_000_000 else f"{value / 1000:g}k"


def convergence_png(
    points: list[SeriesPoint], *, shipped: LabFigures | None, labels: dict[str, str], hands_label: str, edge_label: str
) -> bytes:
    """The chart as PNG bytes. ``labels`` names each side (``player``, ``banker``, ``shipped``) in the page's
    language; an empty series draws empty axes."""
    figure = Figure(figsize=CHART_SIZE, dpi=CHART_DPI)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot(1, 1, 1)
    hands = [p.hands for p in points]
    for side, colour in _SIDES:
        edges = [getattr(p, side) for p in points]
        axes.plot(hands, [e.edge * 100 for e in edges], color=colour, linewidth=1.6, label=labels[side])
        axes.fill_between(
            hands, [e.low * 100 for e in edges], [e.high * 100 for e in edges], color=colour, alpha=0.18, linewidth=0
        )
        if shipped is not None and points:
            axes.axhline(getattr(shipped, side).edge * 100, color=colour, linestyle=":", linewidth=1)
    if shipped is not None and points:
        axes.plot([], [], color="#555555", linestyle=":", linewidth=1, label=labels["shipped"])
    axes.axhline(0, color="#999999", linewidth=0.6)
    axes.set_xlabel(hands_label)
    axes.set_ylabel(edge_label)
    axes.xaxis.set_major_formatter(FuncFormatter(_hands))
    axes.yaxis.set_major_formatter(PercentFormatter(decimals=1))
    axes.grid(True, color="#dddddd", linewidth=0.5)
    if points:
        axes.set_xlim(0, hands[-1])
        axes.legend(loc="upper right", fontsize=8, frameon=False)
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=CHART_DPI, metadata={"Software": None})
    return out.getvalue()
