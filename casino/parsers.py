"""Request parsers for the API: DRF's own, refusing what would otherwise end in a server error."""

from __future__ import annotations

from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser; a body nested deeper than Python's decoder goes (``RecursionError``) is refused as a
    malformed request (400), like any other JSON it cannot read."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("The JSON body is nested too deeply to read.") from None


# What the token endpoint parses, in the order DRF's own view has them (a form first).
TOKEN_PARSERS = [parsers.FormParser, parsers.MultiPartParser, JSONParser]
