"""Sign-in lockout: django-axes counts failed sign-ins per username and address, and this module is
how Tableside asks it and answers a locked-out person.

The numbers are settings (``TABLESIDE_LOGIN_FAILURES``, ``TABLESIDE_LOGIN_COOLOFF_MINUTES``); the sign-in page, the
admin's and the API's token endpoint all authenticate through ``LockoutBackend``, so one count covers them all.
A supervisor unlocks early with ``manage.py axes_reset_username <username>`` or in the admin (README, "Sign-in
lockout").
"""

from __future__ import annotations

from typing import Any

from axes.backends import AxesBackend
from axes.helpers import get_client_username
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from casino.middleware import api_path, refusal


def client_address(request: HttpRequest) -> str | None:
    """The address a sign-in is counted against (``AXES_CLIENT_IP_CALLABLE``): the peer's, or behind
    ``TABLESIDE_TRUSTED_PROXIES`` proxies the one the outermost of them saw.

    Each proxy appends the address it was reached from to ``X-Forwarded-For``, so with ``n`` trusted proxies the
    client is the ``n``-th entry from the right; what stands left of it the client may have written itself and is
    never read. A request without enough entries did not come through the proxies: its peer counts.

    >>> from django.test import RequestFactory
    >>> from django.test.utils import override_settings
    >>> request = RequestFactory().get("/", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7", REMOTE_ADDR="10.0.0.9")
    >>> with override_settings(TABLESIDE_TRUSTED_PROXIES=1):
    ...     client_address(request)
    '203.0.113.7'
    >>> client_address(request)  # no proxy trusted: the peer
    '10.0.0.9'
    """
    peer = request.META.get("REMOTE_ADDR")
    proxies = settings.TABLESIDE_TRUSTED_PROXIES
    if not proxies:
        return peer
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    return hops[-proxies] if len(hops) >= proxies else peer


class LockoutBackend(AxesBackend):  # type: ignore[misc]  # django-axes ships no types
    """django-axes' backend, first in ``AUTHENTICATION_BACKENDS``: a username and address locked out are refused
    before any password is checked.

    A sign-in from the network always comes with its request (Django's sign-in form, the admin's, DRF's token
    serializer); ``authenticate()`` without one is a sign-in inside the process (the test client's ``login()``, a
    shell), which has no address to count against, so it is let through to the next backend instead of raising
    axes' ``AxesBackendRequestParameterRequired``.
    """

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> None:
        if request is None:
            return None
        super().authenticate(request, username, password, **kwargs)  # refuses by raising; never signs anyone in
        return None


def lockout_minutes() -> int:
    """How long a locked-out username and address wait, in whole minutes (at least one)."""
    return max(1, int(settings.AXES_COOLOFF_TIME.total_seconds() // 60))


def lockout_message(*, username: str) -> str:
    """What a locked-out person reads, in the words of the floor."""
    minutes = lockout_minutes()
    wait = ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
    if username:
        return _(
            "Too many failed sign-ins for %(username)s from this device: try again in %(wait)s or ask a "
            "supervisor to unlock the account."
        ) % {"username": username, "wait": wait}
    return _(
        "Too many failed sign-ins from this device: try again in %(wait)s or ask a supervisor to unlock the account."
    ) % {"wait": wait}


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict[str, Any] | None = None
) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: a refused sign-in (429) with a ``Retry-After`` header; under /api/ the API's
    ``{"message", "extra"}``, elsewhere the sign-in page's lockout notice."""
    username = get_client_username(request, credentials) or ""
    message = lockout_message(username=username)
    minutes = lockout_minutes()
    status = settings.AXES_HTTP_RESPONSE_CODE
    if api_path(request):
        response = refusal(
            request, message, status=status, extra={"username": username, "retry_after_minutes": minutes}
        )
    else:
        response = render(
            request,
            "registration/locked_out.html",
            {"message": message, "username": username, "minutes": minutes},
            status=status,
        )
    response["Retry-After"] = str(minutes * 60)
    return response
