"""API input fields that take only what a person means (issue 15, "Faults and bad input"): DRF's own accept
``5`` for a text and Python's ``int()`` reads a full-width ``"３"`` as 3."""

from __future__ import annotations

import re
from typing import Any

from rest_framework import serializers

_ASCII_INTEGER = re.compile(r"[+-]?[0-9]+")


class StrictIntegerField(serializers.IntegerField):
    """A whole number: a JSON integer, or a string of the digits 0-9 (a form's field); not a boolean, a fraction
    or another script's digits."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not (
            isinstance(data, int) or (isinstance(data, str) and _ASCII_INTEGER.fullmatch(data.strip()))
        ):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class StrictCharField(serializers.CharField):
    """A text: a JSON string, never a number or a boolean taken for one."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))
