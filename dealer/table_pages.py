"""What the tablet's pages of a table share beyond the tablet itself (the table's money, its rated players): who may
act at the table, the page drawn, the scope their forms are recorded once in, and a seat or an amount of money as
typed.

Each of their views acts at one table: ``at_table`` loads it from the address and gives the tablet's 403 page to
anyone who may not act there. A page is never cached and carries the notices of the last form and a fresh form key
(``casino.once``); the same form sent twice with the same key (a double tap, a resend) is recorded once.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import add_never_cache_headers
from django.utils.functional import Promise

from casino import once
from casino.errors import ApplicationError
from casino.forms import AmountField
from casino.pages import loaded_by
from casino.roles import SUPERVISORS, user_has_role
from tables.models import Table
from tables.permissions import require_act_at_table

# The scope the forms of the table's money and of its rated players are recorded once in (``casino.once``).
FORM_SCOPE = "dealer-money"
# A seat or a number of chips as typed: a whole number in the digits 0-9 ("²" or "٣" is none), which the service takes
# or refuses; anything else goes to the service as the text typed, cut to ``SHOWN`` characters and an ellipsis.
_WHOLE = re.compile(r"-?[0-9]{1,12}")
SHOWN = 24


def table_get(table_id: int) -> Table:
    return get_object_or_404(Table.objects.select_related("pit", "rule_set", "dealer"), pk=table_id)


def at_table(action: str | Promise) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view given the table its address names (``table_id``: 404 if none) instead of its id, run only for whoever
    may act there; anyone else gets the tablet's 403 page, which says who may ``action``."""

    def load(request: HttpRequest, *, table_id: int, **kwargs: Any) -> dict[str, Any] | HttpResponse:
        table = table_get(table_id)
        try:
            require_act_at_table(request.user, table, action=str(action))
        except ApplicationError as exc:
            return render(request, "dealer/forbidden.html", {"message": exc.message}, status=exc.status_code)
        return {"table": table, **kwargs}

    return loaded_by(load)


def page(request: HttpRequest, template: str, context: dict[str, Any], *, status: int = 200) -> HttpResponse:
    """A page of the table on the tablet, never cached, with the last form's notices and a fresh form key."""
    notices = [str(message) for message in messages.get_messages(request)]
    response = render(
        request,
        template,
        {
            "notice": " ".join(notices),
            "error": "",
            once.FORM_KEY: once.form_key_new(),
            "is_supervisor": user_has_role(request.user, *SUPERVISORS) or request.user.is_superuser,
            **context,
        },
        status=status,
    )
    add_never_cache_headers(response)
    return response


def amount_typed(text: str, *, field: str, most_cents: int) -> int | None:
    """An amount of money as typed ("250" or "250.50"), in cents, at most ``most_cents``; None when left empty; one
    that is not an amount is refused in the form's words, naming ``field``."""
    try:
        amount: int | None = AmountField(most_cents=most_cents, required=False).clean(text)
    except forms.ValidationError as error:
        raise ApplicationError(str(error.messages[0]), extra={"field": field}) from None
    return amount


def amount_required(text: str, *, most_cents: int, missing: str) -> int:
    """An amount of money as typed in the form's ``amount`` field (``amount_typed``); left empty, it is refused with
    ``missing``, the form's words for what to type."""
    amount = amount_typed(text, field="amount", most_cents=most_cents)
    if amount is None:
        raise ApplicationError(missing, extra={"field": "amount"})
    return amount


def whole_typed(value: str | None) -> int | str | None:
    """A whole number from a form field (a seat, a number of chips), or the text as typed, cut short, for the service
    to refuse in its words; None when left empty."""
    text = (value or "").strip()
    if not text:
        return None
    if _WHOLE.fullmatch(text):
        return int(text)
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}…"
