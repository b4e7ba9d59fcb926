"""Template filters for money held in integer cents, and numbers, in the active language (``casino.numbers``)."""

from __future__ import annotations

from django import template

from casino import numbers

register = template.Library()


@register.filter
def cents(value: int | None) -> str:
    """2500 → "25.00" ("25,00" in German), -1205 → "-12.05"; thousands separated by a thin space."""
    return "" if value is None else numbers.amount(value)


@register.filter
def signed(value: int | None) -> str:
    """Cents with a sign: 2500 → "+25.00", -1205 → "-12.05", 0 → "0.00"."""
    return "" if value is None else numbers.signed_amount(value)


@register.filter
def grouped(value: int | None) -> str:
    """A count grouped by thousands: 1000000 → "1 000 000"."""
    return "" if value is None else numbers.whole(value)


@register.simple_tag
def decimal_mark() -> str:
    """The active language's decimal mark, for the scripts that write amounts (``<html data-decimal>``)."""
    return numbers.decimal_mark()
