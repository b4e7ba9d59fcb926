"""Form fields the pages share (the pit's table set-up, the dealer tablet's buy-in): what a person types, read the one
way."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext as _

from casino.money import money_text

# "25", "25.5" or "25.00": units in the digits 0-9, and at most two of cents; no sign, no separators.
_AMOUNT = re.compile(r"([0-9]{1,10})(?:\.([0-9]{1,2}))?")


class AmountField(forms.Field):
    """An amount typed in units and cents ("25.00"), cleaned to integer cents, at most ``most_cents``."""

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
                _("Write an amount in units and cents, like 25.00, not %(text)s.") % {"text": repr(text)[:30]}
            )
        cents = int(match[1]) * 100 + int((match[2] or "0").ljust(2, "0"))
        if cents > self.most_cents:
            raise forms.ValidationError(_("An amount is at most %(most)s.") % {"most": money_text(self.most_cents)})
        return cents
