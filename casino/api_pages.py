"""The REST APIs' one way to answer a list: a page of it and the address of the next (DRF's cursor pagination).

Every list operation answers ``{"next", "previous", "results"}``; ``page_size`` (1 to ``MOST_PER_PAGE``, default
``PER_PAGE``) says how many a page holds, and ``next`` is the address of the following page, ``null`` on the last.
A cursor holds a position in the list's order (a time, a number) rather than a count of rows, so a page followed
while new rows are written neither repeats nor skips one. A list no database query makes (the seed's templates) is
paged by its index the same way. A cursor or a page size the server cannot read is a 400 naming it, never a 404 or
a silently different page.

A list view says its order once, ``page_ordering`` (the first field is the cursor's position, the rest break
ties), and answers with ``page_response(view, request, rows, lambda page: data)``: the page's rows are read first,
so whatever the view builds for each row (a tournament's board, a rating session's figures) is built for one page.
"""

from __future__ import annotations

import binascii
from base64 import b64decode, b64encode
from collections.abc import Callable, Sequence
from typing import Any
from urllib import parse

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from casino.errors import ApplicationError
from casino.fields import query_date, query_id, query_time

PER_PAGE = 50
MOST_PER_PAGE = 500


def _refuse_cursor() -> ApplicationError:
    return ApplicationError(
        _("This cursor is not one the server gave: follow the next or previous address of a page as it is."),
        extra={"field": "cursor"},
    )


class ApiCursorPagination(CursorPagination):
    """Cursor pages in the order the view names (``page_ordering``), sized by ``page_size`` within a maximum."""

    page_size = PER_PAGE
    max_page_size = MOST_PER_PAGE
    page_size_query_param = "page_size"
    page_size_query_description = f"How many a page holds: 1 to {MOST_PER_PAGE}, {PER_PAGE} when not given."
    cursor_query_description = "Where the page begins: the cursor in the next or previous address of a page."
    template = None
    ordering: Any = ("pk",)

    def get_ordering(self, request: Request, queryset: Any, view: Any) -> tuple[str, ...]:
        return tuple(getattr(view, "page_ordering", None) or self.ordering)

    def get_page_size(self, request: Request) -> int:
        asked = request.query_params.get(self.page_size_query_param)
        if asked is None:
            return self.page_size
        try:
            size = int(asked)
        except ValueError:
            size = 0
        if not 1 <= size <= MOST_PER_PAGE:
            raise ApplicationError(
                _("page_size is a whole number from 1 to %(most)s, not %(asked)s.")
                % {"most": MOST_PER_PAGE, "asked": repr(asked)},
                extra={"field": "page_size"},
            )
        return size

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        def address(description: str, example: str) -> dict[str, Any]:
            return {
                "type": ["string", "null"],
                "format": "uri",
                "description": description,
                "example": f"https://tableside.example/api/v1/slips/?{self.cursor_query_param}={example}",
            }

        return {
            "type": "object",
            "required": ["next", "previous", "results"],
            "properties": {
                "next": address("The next page's address, as it is; null on the last page.", "cD0yMDI2LTExLTI5"),
                "previous": address("The previous page's address; null on the first page.", "cj0xJnA9MjAyNi0xMS0y"),
                "results": schema,
            },
        }

    def decode_cursor(self, request: Request) -> Cursor | None:
        encoded = request.query_params.get(self.cursor_query_param)
        try:
            if encoded is not None:
                b64decode(encoded.encode("ascii"), validate=True)  # DRF's own skips what is not base64
            return super().decode_cursor(request)
        except (NotFound, UnicodeError, ValueError, binascii.Error):
            raise _refuse_cursor() from None

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> list[Any]:
        if not isinstance(queryset, QuerySet):
            return self._paginate_sequence(list(queryset), request)
        try:
            # In a savepoint: a position the database itself refuses (a text it cannot hold) rolls back the page's
            # query alone, not the request's transaction.
            with transaction.atomic():
                return list(super().paginate_queryset(queryset, request, view) or [])
        except (DjangoValidationError, DataError, ValueError, TypeError):
            # A position the cursor's field cannot hold (a time that is not one): a cursor someone wrote.
            raise _refuse_cursor() from None

    # --- a list no query makes: its index is the position --------------------------------------------------------

    def _paginate_sequence(self, rows: list[Any], request: Request) -> list[Any]:
        self.request = request
        self.page_size = self.get_page_size(request)
        self.base_url = request.build_absolute_uri()
        cursor = self.decode_cursor(request)
        start = cursor.offset if cursor is not None else 0
        self._sequence_start = start
        self._sequence_more = start + self.page_size < len(rows)
        self.cursor = cursor
        return rows[start : start + self.page_size]

    def _sequence_link(self, offset: int) -> str:
        encoded = b64encode(parse.urlencode({"o": str(offset)}, doseq=True).encode("ascii")).decode("ascii")
        return str(replace_query_param(str(self.base_url), self.cursor_query_param, encoded))

    def get_next_link(self) -> str | None:
        if hasattr(self, "_sequence_start"):
            return self._sequence_link(self._sequence_start + self.page_size) if self._sequence_more else None
        return super().get_next_link()

    def get_previous_link(self) -> str | None:
        if hasattr(self, "_sequence_start"):
            if self._sequence_start == 0:
                return None
            return self._sequence_link(max(0, self._sequence_start - self.page_size))
        return super().get_previous_link()


def page_response(
    view: Any, request: Request, rows: QuerySet[Any] | Sequence[Any], answer: Callable[[list[Any]], Any]
) -> Response:
    """The page of ``rows`` the request asks for, each row turned into its answer by ``answer`` (the page's rows in,
    the serialised list out), with the addresses of the pages before and after it."""
    paginator: ApiCursorPagination = view.pagination_class()
    page = paginator.paginate_queryset(rows, request, view=view)
    response: Response = paginator.get_paginated_response(answer(page))
    return response


# --- the filters lists share ----------------------------------------------------------------------------------------


def since_filter(recorded: str) -> OpenApiParameter:
    return OpenApiParameter(
        "since",
        OpenApiTypes.DATETIME,
        description=f"Only those {recorded} at or after this instant: RFC 3339 with its offset, e.g. "
        "2026-11-29T18:00:00Z (a + in the offset written %2B in the address).",
    )


SHIFT_FILTER = OpenApiParameter("shift", int, description="Only those of this shift (its id).")
TABLE_FILTER = OpenApiParameter("table", int, description="Only those of this table (its id).")
GAMING_DAY_FILTER = OpenApiParameter(
    "gaming_day", OpenApiTypes.DATE, description="Only those of this gaming day: its business date, YYYY-MM-DD."
)


_FILTER_READERS: dict[str, Callable[..., Any]] = {
    "since": query_time,
    "shift": query_id,
    "table": query_id,
    "gaming_day": query_date,
}


def filtered(request: Request, rows: QuerySet[Any], **lookups: str) -> QuerySet[Any]:
    """``rows`` narrowed by the filters the request names, each read by its one reader (a 400 naming it when it
    cannot be read) and applied as its ``lookups`` entry says: ``filtered(request, slips, since="requested_at__gte",
    shift="shift_id")``. A filter left out narrows nothing."""
    for name, lookup in lookups.items():
        value = _FILTER_READERS[name](request.query_params.get(name), field=name)
        if value is not None:
            rows = rows.filter(**{lookup: value})
    return rows
