"""What the poker room's pages share: who may see and who may act, the refusal page, the scope its forms are recorded
once in, and a form whose first error is refused as the services refuse (``RefusingForm``).

Who (``casino.roles``): the tournament director and the floor's supervisors run tournaments (``TOURNAMENT_RUNNERS``);
an Auditor looks at every console and acts on none (``TOURNAMENT_VIEWERS``, read only: the pages draw no form for
them); a Dealer opens only the tablet page of a tournament table they deal (``poker_room.floor``). Anyone else gets the
refusal page (403), which says who may. A view is guarded by ``viewers_only`` or ``runners_only``
(``casino.pages.guarded_by``).

A form is recorded once, as on the pit's and the dealer's pages: each page drawn carries a one-time key in every form
(``FORM_KEY``); the same form sent twice with the same key (a double tap, a resend after Back) is recorded once and
the second answer says so. A refused form may be sent again, corrected. The key is remembered in the cache for half
a day; a cache that fails never refuses a form. Each page declares its forms' answers once (``casino.once.FormPage``,
in ``FORM_SCOPE``).
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

from casino import once
from casino.errors import ApplicationError
from casino.roles import TOURNAMENT_RUNNERS, TOURNAMENT_VIEWERS, Role, user_has_role

FORM_KEY = once.FORM_KEY
REFUSAL_HEADER = once.REFUSAL_HEADER
# The scope the poker room's forms are recorded once in (``casino.once``).
FORM_SCOPE = "poker-room-form"


def may(request: HttpRequest, roles: tuple[Role, ...]) -> bool:
    return bool(request.user.is_superuser or user_has_role(request.user, *roles))


def may_view(request: HttpRequest) -> bool:
    return may(request, TOURNAMENT_VIEWERS)


def may_run(request: HttpRequest) -> bool:
    return may(request, TOURNAMENT_RUNNERS)


def refused_page(request: HttpRequest, message: str, *, status: int = 403) -> HttpResponse:
    """The refusal page: what this address holds is not for the user's role (or is not there), and the way back."""
    response = render(request, "poker_room/refused.html", {"message": message}, status=status)
    add_never_cache_headers(response)
    return response


def viewers_only(request: HttpRequest) -> HttpResponse | None:
    """The refusal page for anyone who may not see the poker room's consoles; None for whoever may."""
    if may_view(request):
        return None
    return refused_page(
        request,
        _(
            "The poker room's console is for the tournament director, a Floor supervisor, a Pit boss or an Auditor. "
            "A Dealer finds their tournament table on the tablet's home page."
        ),
    )


def runners_only(request: HttpRequest) -> HttpResponse | None:
    """The refusal page for anyone who may not run a tournament (an Auditor reads only); None for whoever may."""
    if may_run(request):
        return None
    return refused_page(
        request,
        _("Only the tournament director, a Floor supervisor or a Pit boss may change a tournament: you may read it."),
    )


def page(request: HttpRequest, template: str, context: dict[str, Any], *, status: int = 200) -> HttpResponse:
    """A page of the poker room, never cached (it holds names and a live clock), with a fresh one-time key."""
    response = render(
        request,
        template,
        {"error": "", "typed": {}, FORM_KEY: once.form_key_new(), "may_run": may_run(request), **context},
        status=status,
    )
    add_never_cache_headers(response)
    return response


def posted_int(request: HttpRequest, name: str) -> int | str | None:
    """A whole number from the form, or the text typed (cut short) for the service to refuse; None when empty."""
    text = request.POST.get(name, "").strip()
    if not text:
        return None
    if re.fullmatch(r"-?[0-9]{1,12}", text):
        return int(text)
    return text[:24]


class RefusingForm(forms.Form):
    """A form whose first error is refused as the services refuse: one message, naming its field."""

    def refusal(self) -> ApplicationError:
        for name, errors in self.errors.items():
            label = self.fields[name].label if name in self.fields else ""
            message = str(errors[0])
            return ApplicationError(
                _("%(label)s: %(message)s") % {"label": label, "message": message} if label else message,
                extra={"field": name},
            )
        return ApplicationError(_("The form could not be read."), extra={})

    def cleaned(self) -> dict[str, Any]:
        if not self.is_valid():
            raise self.refusal()
        return dict(self.cleaned_data)
