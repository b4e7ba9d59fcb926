"""Money as text: integer cents written as units and cents, for messages, CSV and PDF (no separators)."""

from __future__ import annotations


def money_text(cents: int) -> str:
    """2500 → "25.00", -1205 → "-12.05", 123456 → "1234.56" (the template filter ``cents`` adds thin spaces)."""
    sign = "-" if cents < 0 else ""
    units, rest = divmod(abs(int(cents)), 100)
    return f"{sign}{units}.{rest:02d}"
