"""Numbers as a page shows them, in the active language (``config.formats``): the decimal mark of the language
("25.00", "25,00"), thousands grouped by a thin space in both ("2 000.00", "2 000,00").

Money in messages, on pages and in the page's scripts goes through here; CSV files, the API and the audit keep the
machine's form (``casino.money.money_text``: "2000.00"), which a spreadsheet or a client reads in any language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

from django.utils.formats import get_format, number_format
from django.utils.translation import pgettext


def amount(cents: int) -> str:
    """Integer cents as units and cents: 200000 → "2 000.00" ("2 000,00" in German), -1205 → "-12.05"."""
    return number_format(Decimal(int(cents)).scaleb(-2), decimal_pos=2, force_grouping=True)


def printed_amount(cents: int) -> str:
    """An amount for a PDF: as ``amount`` but grouped by a plain space, which the PDF's standard fonts hold."""
    return amount(cents).replace("\u2009", " ")


def signed_amount(cents: int) -> str:
    """An amount with its sign: 2500 → "+25.00", -1205 → "-12.05", 0 → "0.00"."""
    return ("+" if cents > 0 else "") + amount(cents)


def whole(value: int) -> str:
    """A count, grouped: 1000000 → "1 000 000" (chips, hands, rounds)."""
    return number_format(int(value), decimal_pos=0, force_grouping=True)


def decimal(value: float | Decimal, places: int) -> str:
    """A figure to ``places`` decimals in the language's mark: 11.94 → "11.9" / "11,9" (places=1)."""
    exact = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    rounded = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return number_format(rounded, decimal_pos=places, force_grouping=True)


def amounts(cents: Iterable[int]) -> str:
    """Amounts in a list: "5.00, 10.00, 20.00" ("5,00; 10,00; 20,00" in German, where a comma is the decimal mark)."""
    return pgettext("between amounts in a list", ", ").join(amount(value) for value in cents)


# A whole number as people type it: "1000000", "1,000,000", "1.000.000", "1'000'000", "1 000 000" (a space, thin as
# the pages write it, or narrow no-break). The regular expression, for the parsers that read one inside a line.
WHOLE_TYPED = r"\d{1,3}(?:[,.'\u2009\u202f ]\d{3})+(?!\d)|\d+"
_WHOLE_TYPED = re.compile(WHOLE_TYPED)


def read_whole(text: str) -> int | None:
    """A whole number typed with or without grouping (``WHOLE_TYPED``), or None for any other text."""
    return int(re.sub(r"\D", "", text)) if _WHOLE_TYPED.fullmatch(text) else None


def decimal_mark() -> str:
    """The active language's decimal mark, for the page's scripts (``<html data-decimal>``)."""
    return str(get_format("DECIMAL_SEPARATOR"))
