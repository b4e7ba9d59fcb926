"""Request parsers for the API: DRF's own, refusing what would otherwise end in a server error."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

UNHOLDABLE_TEXT = (
    "The request holds text no field can hold (a NUL character, or a lone surrogate such as \\ud800): send UTF-8 text."
)


def _holds_unholdable_text(data: Any) -> bool:
    """Whether any text in the parsed body (a key or a value, at any depth) holds what no field can: a NUL
    (PostgreSQL's text cannot) or a lone surrogate (JSON can say ``"\\ud800"``; no UTF-8 text can, neither the
    database's nor the refusal that would echo it)."""
    waiting = [data]
    while waiting:
        value = waiting.pop()
        if isinstance(value, str):
            if "\x00" in value:
                return True
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(value, Mapping):
            waiting.extend(value.keys())
            waiting.extend(value.values())
        elif isinstance(value, list):
            waiting.extend(value)
    return False


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser; a body nested deeper than Python's decoder goes (``RecursionError``) is refused as a
    malformed request (400), like any other JSON it cannot read; so is text no field can hold, before a field could
    echo it in a refusal that could not be written out. (A form cannot carry a surrogate, Django decodes it replacing
    what is not UTF-8, and ``casino.middleware`` refuses a NUL in a form or a query.)"""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("The JSON body is nested too deeply to read.") from None
        if _holds_unholdable_text(data):
            raise ParseError(UNHOLDABLE_TEXT)
        return data
