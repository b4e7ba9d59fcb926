"""Figures of the game-math lab as the page shows them: edges in per cent to three places, counts with
thousands separators."""

from __future__ import annotations

from django import template

from casino import numbers

register = template.Library()


@register.filter
def pct(value: float | None) -> str:
    """``0.01234`` → ``1.234%``; a negative edge (the side gains) keeps its sign."""
    return "—" if value is None else numbers.decimal(value * 100, 3) + "%"


@register.filter
def count(value: int | None) -> str:
    """``1000000`` → ``1 000 000``."""
    return "—" if value is None else numbers.whole(value)
