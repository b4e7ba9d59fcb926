"""Template filters for money held in integer cents."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def cents(value: int | None) -> str:
    """2500 → "25.00", -1205 → "-12.05"; thousands separated by a thin space."""
    if value is None:
        return ""
    sign = "-" if value < 0 else ""
    units, rest = divmod(abs(int(value)), 100)
    return f"{sign}{units:,}.{rest:02d}".replace(",", "\u2009")


@register.filter
def signed(value: int | None) -> str:
    """Cents with a sign: 2500 → "+25.00", -1205 → "-12.05", 0 → "0.00"."""
    if value is None:
        return ""
    return ("+" if value > 0 else "") + cents(value)
