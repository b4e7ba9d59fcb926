"""A page's form recorded once (the dealer's money and rated-players forms, the poker room's pages).

Each page drawn carries a one-time key in every form (``FORM_KEY``, ``form_key_new``). The same form sent twice with
the same key (a double tap, a resend after Back) runs its service once; the second answer says it was already
recorded. A refused form may be sent again, corrected, and so may one whose service failed. The key is kept in the
database with the API's idempotency keys (``casino.idempotency``), a day, whatever becomes of the cache.

A page declares its forms' answers once (``FormPage``): where the browser goes when a form is done, and the page drawn
again with the refusal in its banner and what was typed kept. Each of its views is then the action alone
(``FormPage.acts``): it reads the form, calls one service and returns the notice.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeAlias

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from casino.errors import ApplicationError
from casino.idempotency import form_key_let_go, form_key_take

FORM_KEY = "form_key"
# Set on every refusal drawn in a page: the tablet's script swaps an error answer only when it has it.
REFUSAL_HEADER = "Tableside-Refusal"
_KEY = re.compile(r"[0-9a-f]{32}")

P = ParamSpec("P")
# What a view keeps for its refusal, by the name its page's ``refused`` takes it under (what was typed, mostly).
Kept: TypeAlias = dict[str, Any]


def form_key_new() -> str:
    return uuid.uuid4().hex


def _key_name(request: HttpRequest) -> str | None:
    key = request.POST.get(FORM_KEY, "")
    return f"{request.path}:{key}" if _KEY.fullmatch(key) else None


def form_first_time(request: HttpRequest, scope: str) -> bool:
    """Whether this form, from the page that drew it, is sent for the first time (its key taken in the database). A
    form without a key, or sent by nobody signed in, is always taken."""
    name = _key_name(request)
    user = request.user
    if name is None or not isinstance(user, User) or not user.is_authenticated:
        return True
    return form_key_take(user, scope=scope, name=name)


def form_forget(request: HttpRequest, scope: str) -> None:
    """Let the form's key go: it was refused or failed, and may be sent again."""
    name = _key_name(request)
    if name is not None and isinstance(request.user, User) and request.user.is_authenticated:
        form_key_let_go(request.user, scope=scope, name=name)


@dataclass(frozen=True)
class Then:
    """An action's notice and the answer after it, when that is not its page's ``done`` (a thing made: its own
    page)."""

    notice: str
    response: HttpResponse


def form_once(
    request: HttpRequest,
    *,
    scope: str,
    done: HttpResponse,
    act: Callable[[], str | Then],
    refused: Callable[[ApplicationError], HttpResponse],
    already: str | Promise = "",
) -> HttpResponse:
    """Run one service once for this form (its one-time key, within ``scope``): ``done`` (a redirect) with the
    service's notice; the same form sent again gets ``done`` with ``already``; a refusal draws ``refused`` with the
    service's message and status, marked with ``REFUSAL_HEADER`` (nothing was written, and the form may be sent
    again, corrected)."""
    if not form_first_time(request, scope):
        messages.info(request, str(already) or _("This form was already sent: it is recorded once."))
        return done
    try:
        acted = act()
    except ApplicationError as exc:
        form_forget(request, scope)
        response = refused(exc)
        response[REFUSAL_HEADER] = "1"
        return response
    except BaseException:
        form_forget(request, scope)  # nothing was recorded: the same form, sent again, is taken (never "recorded once")
        raise
    notice, answer = (acted.notice, acted.response) if isinstance(acted, Then) else (acted, done)
    if notice:
        messages.success(request, notice)
    return answer


class FormPage:
    """A page whose forms each run one service once (``form_once`` within ``scope``), declared once for all of them.

    ``done(request, **kwargs)`` answers a form done (a redirect); ``refused(request, exc, kept, **kwargs)`` draws the
    page again with the refusal and what the view kept; ``already`` is the notice of a form sent twice. ``kwargs``
    are the view's keyword arguments (its address's, as the decorators before it made them) and the options given
    to ``acts``.
    """

    def __init__(
        self,
        *,
        scope: str,
        done: Callable[..., HttpResponse],
        refused: Callable[..., HttpResponse],
        already: str | Promise = "",
    ) -> None:
        self.scope = scope
        self.done = done
        self.refused = refused
        self.already = already

    def acts(
        self, *, already: str | Promise = "", **options: Any
    ) -> Callable[
        [Callable[Concatenate[HttpRequest, Kept, P], str | Then]], Callable[Concatenate[HttpRequest, P], HttpResponse]
    ]:
        """A view of this page that is the action alone: given the request, a ``Kept`` to fill with what its
        refusal keeps, and its keyword arguments, it calls one service and returns the notice (or a ``Then``)."""

        def decorate(
            action: Callable[Concatenate[HttpRequest, Kept, P], str | Then],
        ) -> Callable[Concatenate[HttpRequest, P], HttpResponse]:
            @wraps(action)
            def view(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
                kept: Kept = {}
                return form_once(
                    request,
                    scope=self.scope,
                    done=self.done(request, *args, **kwargs, **options),
                    act=lambda: action(request, kept, *args, **kwargs),
                    refused=lambda exc: self.refused(request, exc, kept, *args, **kwargs, **options),
                    already=already or self.already,
                )

            return view

        return decorate
