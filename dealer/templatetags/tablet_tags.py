"""Template filters of the dealer tablet."""

from __future__ import annotations

from django import template

from casino.templatetags.money import cents

register = template.Library()


@register.filter
def signed(value: int | None) -> str:
    """Cents with a sign: 2500 → "+25.00", -1205 → "-12.05", 0 → "0.00"."""
    if value is None:
        return ""
    return ("+" if value > 0 else "") + cents(value)
