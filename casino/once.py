"""A page's form recorded once (the dealer's money and rated-players forms, the poker room's pages).

Each page drawn carries a one-time key in every form (``FORM_KEY``, ``form_key_new``). The same form sent twice with
the same key (a double tap, a resend after Back) runs its service once; the second answer says it was already
recorded. A refused form may be sent again, corrected, and so may one whose service failed. The key is remembered in
the cache for half a day; a cache that fails never refuses a form.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from casino.errors import ApplicationError

FORM_KEY = "form_key"
# Set on every refusal drawn in a page: the tablet's script swaps an error answer only when it has it.
REFUSAL_HEADER = "Tableside-Refusal"
_KEY = re.compile(r"[0-9a-f]{32}")
_KEY_SECONDS = 12 * 60 * 60


def form_key_new() -> str:
    return uuid.uuid4().hex


def _key_name(request: HttpRequest, scope: str) -> str | None:
    key = request.POST.get(FORM_KEY, "")
    return f"{scope}:{request.user.pk}:{key}:{request.path}" if _KEY.fullmatch(key) else None


def _first_time(request: HttpRequest, scope: str) -> bool:
    """Whether this form, from the page that drew it, is sent for the first time. A form without a key is always
    taken; a cache that fails (``cache.add`` answers None, not False) never refuses one."""
    name = _key_name(request, scope)
    return name is None or cache.add(name, True, timeout=_KEY_SECONDS) is not False


def _forget(request: HttpRequest, scope: str) -> None:
    name = _key_name(request, scope)
    if name is not None:
        cache.delete(name)


def form_once(
    request: HttpRequest,
    *,
    scope: str,
    done: HttpResponse,
    act: Callable[[], str],
    refused: Callable[[ApplicationError], HttpResponse],
    already: str = "",
) -> HttpResponse:
    """Run one service once for this form (its one-time key, within ``scope``): ``done`` (a redirect) with the
    service's notice; the same form sent again gets ``done`` with ``already``; a refusal draws ``refused`` with the
    service's message and status, marked with ``REFUSAL_HEADER`` (nothing was written, and the form may be sent
    again, corrected)."""
    if not _first_time(request, scope):
        messages.info(request, already or _("This form was already sent: it is recorded once."))
        return done
    try:
        notice = act()
    except ApplicationError as exc:
        _forget(request, scope)
        response = refused(exc)
        response[REFUSAL_HEADER] = "1"
        return response
    except BaseException:
        _forget(request, scope)  # nothing was recorded: the same form, sent again, is taken (never "recorded once")
        raise
    if notice:
        messages.success(request, notice)
    return done
