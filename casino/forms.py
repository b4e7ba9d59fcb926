"""Form fields the pages share (the pit's table set-up, the dealer tablet's buy-in): what a person types, read the one
way."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext as _

from casino import numbers

# "25", "25.5", "25.00" or "25,00" (either decimal mark, in either language), and "2 000.00" grouped by a space, a
# thin space or a no-break space as the pages write it: units in the digits 0-9, at most two digits of cents, no sign.
# "1,000" is refused, not read as a thousand or as one: three digits after a mark are no cents.
_AMOUNT = re.compile(r"([0-9]{1,10}|[0-9]{1,3}(?:[ \u00a0\u2009\u202f][0-9]{3}){1,3})(?:[.,]([0-9]{1,2}))?")
_GROUPING = re.compile(r"[ \u00a0\u2009\u202f]")


class AmountField(forms.Field):
    """An amount typed in units and cents ("25.00", "25,00"), cleaned to integer cents, at most ``most_cents``."""

    def __init__(self, *, most_cents: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.most_cents = most_cents

    def to_python(self, value: Any) -> int | None:
        text = str(value or "").strip()
        if not text:
            return None
        match = _AMOUNT.fullmatch(text)
        if match is None:
            raise forms.ValidationError(
                _("Write an amount in units and cents, like %(example)s, not %(text)s.")
                % {"example": numbers.amount(2500), "text": repr(text)[:30]}
            )
        cents = int(_GROUPING.sub("", match[1])) * 100 + int((match[2] or "0").ljust(2, "0"))
        if cents > self.most_cents:
            raise forms.ValidationError(_("An amount is at most %(most)s.") % {"most": numbers.amount(self.most_cents)})
        return cents
