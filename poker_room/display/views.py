"""The room display: a full-screen page a TV's browser shows in the card room, and the JSON it polls.

Two addresses show the same display:

* ``/poker-room/screen/<token>/``: the room's TV. No sign-in (a TV in the room has nobody to sign in and no session
  that should expire mid-tournament); the address itself is the key: ``token`` is the tournament's id signed with
  the site's secret (``django.core.signing``, salted for this use), so it cannot be guessed from the id and a forged
  or altered one is refused (404). The director's console shows it. What it shows is public in the room anyway: the
  clock, the blinds and the figures, never a player's name. Changing ``SECRET_KEY`` withdraws every screen address.
* ``/poker-room/<id>/display/``: the same page for the staff, by the tournament's id, for whoever may look at the
  tournament's console (``casino.roles.TOURNAMENT_VIEWERS``); signed out, the sign-in page.

The page's script (``poker_room/static/poker_room/display.js``) polls the JSON every 400 ms with the version it
shows (``?v=<version>``): while nothing changed the answer is ``204 No Content``, decided from the cached version
(``poker_room.display.live.tournament_version``) without a query on the screen address; an ``If-None-Match`` with the
version's ETag gets a ``304``. Every answer carries the server's clock (``Tableside-Server-Now``, milliseconds since
the epoch), from which each screen corrects its own clock: the countdown runs in the browser from the stored
instant the level ends, so every screen shows the same second.
"""

from __future__ import annotations

import time

from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from casino.roles import TOURNAMENT_VIEWERS, user_has_role
from poker_room.display import live
from poker_room.display.selectors import DisplayPayload, display_payload
from poker_room.tournaments.models import Tournament

SERVER_NOW_HEADER = "Tableside-Server-Now"
POLL_MS = 400  # the screen's poll: a change reaches it within a second, with room for a slow answer
_SALT = "poker_room.display"
_SEP = "."  # a signed value's separator that needs no escaping in a path


def _signer() -> signing.Signer:
    return signing.Signer(salt=_SALT, sep=_SEP)


def display_token(tournament_id: int) -> str:
    """The room display's key for a tournament: its id, signed (``<id>.<signature>``)."""
    return _signer().sign(str(int(tournament_id)))


def display_token_id(token: str) -> int | None:
    """The tournament a display key opens, or None if the key is forged, altered or malformed."""
    try:
        value = _signer().unsign(token)
    except signing.BadSignature:
        return None
    return int(value) if value.isdecimal() else None


def display_address(tournament_id: int) -> str:
    """The room display's address for the TV (a path; the console shows it and makes it absolute)."""
    return reverse("poker-room-screen", args=[display_token(tournament_id)])


# --- answers ------------------------------------------------------------------------------------------------------


def _stamped(response: HttpResponse) -> HttpResponse:
    response[SERVER_NOW_HEADER] = str(time.time_ns() // 1_000_000)
    add_never_cache_headers(response)
    return response


def _etag(version: int) -> str:
    return f'"v{version}"'


def _json(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The display's JSON, or nothing when the screen already shows the current version (module's docstring)."""
    version = live.tournament_version(tournament_id)
    if version is None:
        raise Http404(_("There is no such tournament."))
    if request.GET.get("v") == str(version):
        return _stamped(HttpResponse(status=204))
    if request.headers.get("If-None-Match") == _etag(version):
        response = HttpResponse(status=304)
        response["ETag"] = _etag(version)
        return _stamped(response)
    try:
        payload = display_payload(tournament_id)
    except Tournament.DoesNotExist:
        raise Http404(_("There is no such tournament.")) from None
    response = JsonResponse(payload)
    response["ETag"] = _etag(payload["version"])
    return _stamped(response)


def _clock_text(payload: DisplayPayload) -> str:
    """The time left as the page first shows it (the script takes over at once): 12:34 or 1:02:03."""
    left = payload["remaining_ms"]
    if left is None:
        return ""
    seconds = -(-left // 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def _page(request: HttpRequest, tournament_id: int, json_url: str) -> HttpResponse:
    try:
        payload = display_payload(tournament_id)
    except Tournament.DoesNotExist:
        raise Http404(_("There is no such tournament.")) from None
    context = {"payload": payload, "json_url": json_url, "clock_text": _clock_text(payload), "poll_ms": POLL_MS}
    response = render(request, "poker_room/display.html", context)
    response["X-Robots-Tag"] = "noindex"
    add_never_cache_headers(response)
    return response


def _screen_id(token: str) -> int:
    tournament_id = display_token_id(token)
    if tournament_id is None:
        raise Http404(_("This display address is not valid: ask the tournament director for the room's address."))
    return tournament_id


def _may_view(request: HttpRequest) -> bool:
    return bool(request.user.is_superuser or user_has_role(request.user, *TOURNAMENT_VIEWERS))


# --- views --------------------------------------------------------------------------------------------------------


@require_GET
def screen(request: HttpRequest, token: str) -> HttpResponse:
    """The room's TV: the display by its signed address, no sign-in."""
    tournament_id = _screen_id(token)
    return _page(request, tournament_id, reverse("poker-room-screen-json", args=[token]))


@require_GET
def screen_json(request: HttpRequest, token: str) -> HttpResponse:
    """What the TV polls: the payload, or 204 while its version is current (no query when the version is cached)."""
    return _json(request, _screen_id(token))


@login_required
@require_GET
def display(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The display for the staff, by the tournament's id."""
    if not _may_view(request):
        raise PermissionDenied
    return _page(request, tournament_id, reverse("poker-room-display-json", args=[tournament_id]))


@require_GET
def display_json(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """What the staff's display polls; signed out or not allowed, a JSON refusal (a page's redirect to the sign-in
    page would be read as a broken answer)."""
    if not request.user.is_authenticated:
        return JsonResponse({"message": _("Sign in to see this display."), "extra": {}}, status=403)
    if not _may_view(request):
        return JsonResponse({"message": _("You may not see this tournament."), "extra": {}}, status=403)
    return _json(request, tournament_id)
