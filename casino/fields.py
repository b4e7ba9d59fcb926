"""API input fields that take only what a person means ("Faults and bad input"): DRF's own accept
``5`` for a text and Python's ``int()`` reads a full-width ``"３"`` as 3."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.utils import html

from casino.errors import ApplicationError

_ASCII_INTEGER = re.compile(r"[+-]?[0-9]+")
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_FLAGS = {"": False, "0": False, "false": False, "no": False, "1": True, "true": True, "yes": True}


class StrictIntegerField(serializers.IntegerField):
    """A whole number: a JSON integer, or a string of the digits 0-9 (a form's field); not a boolean, a fraction
    or another script's digits."""

    def get_value(self, dictionary: Any) -> Any:
        # DRF takes an empty form field of an optional number as left out; a person who sent it meant something.
        if html.is_html_input(dictionary) and dictionary.get(self.field_name) == "":
            return ""
        return super().get_value(dictionary)

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


@extend_schema_field(OpenApiTypes.DATE)
class StrictDateField(serializers.Field[dt.date, Any, str, Any]):
    """A calendar date written ``YYYY-MM-DD`` in the digits 0-9 (DRF's own reads another script's digits too)."""

    default_error_messages = {"invalid": "A date is written YYYY-MM-DD, for example 2025-03-01."}

    def to_internal_value(self, data: Any) -> dt.date:
        if not isinstance(data, str) or not _ISO_DATE.fullmatch(data.strip()):
            self.fail("invalid")
        try:
            return dt.date.fromisoformat(data.strip())
        except ValueError:
            self.fail("invalid")
        raise AssertionError("unreachable")  # ``fail`` raises

    def to_representation(self, value: dt.date) -> str:
        return value.isoformat()


def query_flag(value: str | None, *, field: str) -> bool:
    """A yes-or-no query parameter: true/yes/1 or false/no/0 (or left out: no); anything else is refused, naming
    the parameter, rather than read as no."""
    flag = _FLAGS.get((value or "").strip().lower())
    if flag is None:
        raise ApplicationError(
            gettext("%(field)s is true or false, not %(value)s.") % {"field": field, "value": repr(value)},
            extra={"field": field},
        )
    return flag


def query_id(value: str | None, *, field: str) -> int | None:
    """A record's id as a query parameter (left out: None); anything but the digits 0-9 is refused, naming it."""
    if value is None or value == "":
        return None
    if not _ASCII_INTEGER.fullmatch(value.strip()) or int(value) < 1 or int(value) > 2**63 - 1:
        raise ApplicationError(
            gettext("%(field)s is a record's number (1, 2, 3, …), not %(value)s.")
            % {"field": field, "value": repr(value)},
            extra={"field": field},
        )
    return int(value)


def query_date(value: str | None, *, field: str) -> dt.date | None:
    """A calendar date as a query parameter, ``YYYY-MM-DD`` (left out: None); anything else is refused, naming it."""
    if value is None or value == "":
        return None
    try:
        if not _ISO_DATE.fullmatch(value.strip()):
            raise ValueError(value)
        return dt.date.fromisoformat(value.strip())
    except ValueError:
        raise ApplicationError(
            gettext("%(field)s is a date written YYYY-MM-DD, for example 2026-11-29, not %(value)s.")
            % {"field": field, "value": repr(value)},
            extra={"field": field},
        ) from None


_RFC3339 = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,6})?)?([Zz]|[+-][0-9]{2}:[0-9]{2})"
)


def query_time(value: str | None, *, field: str) -> dt.datetime | None:
    """An instant as a query parameter, RFC 3339 with its offset (``2026-11-29T18:00:00Z``); left out: None. A time
    without an offset is refused rather than read in some time zone."""
    if value is None or value == "":
        return None
    text = value.strip()
    try:
        if not _RFC3339.fullmatch(text):
            raise ValueError(text)
        return dt.datetime.fromisoformat(text.replace("z", "Z").replace("Z", "+00:00"))
    except ValueError:
        raise ApplicationError(
            gettext("%(field)s is a time with its offset, for example 2026-11-29T18:00:00Z, not %(value)s.")
            % {"field": field, "value": repr(value)},
            extra={"field": field},
        ) from None


# What reading a row the code does not expect raises: a value outside its domain, a JSON column of another shape.
UNREADABLE = (TypeError, ValueError, AttributeError, KeyError, IndexError)


def unreadable_row(instance: Any, exc: Exception) -> str:
    """What a reader is told of a row that cannot be read, in words."""
    meta = getattr(instance, "_meta", None)
    name = capfirst(str(meta.verbose_name)) if meta is not None else gettext("This row")
    return gettext("%(row)s #%(id)s cannot be read (%(reason)s); verify_audit names what changed in it.") % {
        "row": name,
        "id": getattr(instance, "pk", "?"),
        "reason": exc,
    }


# An output serializer whose row, when it cannot be read (a value outside its domain, written past the application),
# answers its id and what is wrong instead of the whole list or page failing. (A comment, not a docstring:
# drf-spectacular would publish a docstring as every schema's description.)
class RowOrProblem(serializers.Serializer[Any]):
    def to_representation(self, instance: Any) -> Any:
        try:
            return super().to_representation(instance)
        except UNREADABLE as exc:
            return {"id": getattr(instance, "pk", None), "problem": unreadable_row(instance, exc)}
