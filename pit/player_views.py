"""The pit's pages on players: the players' list with its search and enrolment, and a player's page with
their totals, their sessions and, for a supervisor, the anonymisation asked for by the player.

Who sees what (``casino.roles``; there is no host role):

* ``/players/``: the table staff (Dealers and supervisors) and Auditors. A Dealer searches (by card number or name:
  ``players.selectors.player_find``) and enrols; the whole list, page by page, and the links to a player's page are
  for those who may open one. Anyone else gets the refusal page (403).
* ``/players/<id>/``: supervisors (Floor supervisor, Pit boss) and Auditors: it holds a player's name beside what
  they won and lost. A Dealer gets the refusal page (403), which says so.
* enrolling (``players.services.player_create``): the table staff; anonymising (``player_anonymise``): a
  supervisor, after a confirmation.

Thin: each write is one service; a refusal draws the page again with the service's message and what was typed, in
the status the API would answer (400, 403, 409), and writes nothing; a write that went through redirects
(POST-redirect-GET). Every form carries a one-time key of the page that drew it: the same form sent twice (a double
tap, a resend after Back) is recorded once. The pages are never cached (they hold names): Back draws them afresh.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino.errors import ApplicationError
from casino.once import form_first_time, form_forget
from casino.roles import OVERSEERS, SUPERVISORS, TABLE_STAFF, Role
from casino.users import actor_of
from pit.views import _may
from players.models import Player
from players.page_selectors import player_list, player_page
from players.services import player_anonymise, player_create

# Who may search the players and enrol one; who may open a player's page (no host role exists); who anonymises.
PLAYER_FINDERS: tuple[Role, ...] = (*TABLE_STAFF, Role.AUDITOR)
PLAYER_ENROLLERS: tuple[Role, ...] = TABLE_STAFF
PLAYER_VIEWERS: tuple[Role, ...] = OVERSEERS
PLAYER_ANONYMISERS: tuple[Role, ...] = SUPERVISORS

# The hidden field with the one-time key of the page that drew a form, and how long a key is remembered.
FORM_KEY = "form_key"
_KEY = re.compile(r"[0-9a-f]{32}")
_KEY_SECONDS = 12 * 60 * 60
_KEY_SCOPE = "players"


def _refused(request: HttpRequest, message: str) -> HttpResponse:
    """The refusal page: who may see what this address holds, and the way back."""
    return render(request, "pit/player_refused.html", {"message": message}, status=403)


def _key_name(request: HttpRequest) -> str | None:
    key = request.POST.get(FORM_KEY, "")
    return f"players-form:{request.user.pk}:{key}:{request.path}" if _KEY.fullmatch(key) else None


def _first_time(request: HttpRequest) -> tuple[bool, Any]:
    """Whether this form, from the page that drew it, is sent for the first time (its key taken in the database,
    as every page's form's: ``casino.once``), so a double tap enrols once whatever becomes of the cache; if not,
    what the first sending left under its key in the cache (the enrolled player's id), if the cache still has it."""
    if form_first_time(request, _KEY_SCOPE):
        return True, None
    name = _key_name(request)
    return False, cache.get(name) if name is not None else None


def _remember(request: HttpRequest, value: Any) -> None:
    name = _key_name(request)
    if name is not None:
        cache.set(name, value, timeout=_KEY_SECONDS)


def _forget(request: HttpRequest) -> None:
    """A refused form may be sent again, as corrected."""
    form_forget(request, _KEY_SCOPE)
    name = _key_name(request)
    if name is not None:
        cache.delete(name)


def _player_name(player: Player) -> str:
    return str(player.name or _("anonymous player %(number)s") % {"number": player.pk})


# --- the players' list -------------------------------------------------------------------------------


def _list_context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    may_view = _may(request, PLAYER_VIEWERS)
    query = request.GET.get("q", "") if request.method == "GET" else ""
    return {
        "found": player_list(query=query, page=request.GET.get("page"), browse=may_view),
        "may_view": may_view,
        "may_enrol": _may(request, PLAYER_ENROLLERS),
        "tiers": list(settings.TABLESIDE_PLAYER_TIERS),
        "enrol": {"tier": next(iter(settings.TABLESIDE_PLAYER_TIERS), "")},
        "error": "",
        FORM_KEY: uuid.uuid4().hex,
        **extra,
    }


@login_required
@require_GET
@never_cache
def players(request: HttpRequest) -> HttpResponse:
    """The players: a search by card number or name; with nothing typed, every player a page at a time (for those
    who may open a player's page); the enrolment form for the table staff."""
    if not _may(request, PLAYER_FINDERS):
        return _refused(request, _("Only a Dealer, a Floor supervisor, a Pit boss or an Auditor may look up players."))
    return render(request, "pit/players.html", _list_context(request))


@login_required
@require_POST
@never_cache
def player_enrol(request: HttpRequest) -> HttpResponse:
    """The table staff enrol a player (``player_create``): a name, a card number (optional) and a tier, or anonymous
    (a tier only). Then the player's page (or, for a Dealer, the list found by the new card or name)."""
    if not _may(request, PLAYER_ENROLLERS):
        return _refused(request, _("Only a Dealer, a Floor supervisor or a Pit boss may enrol a player."))
    typed = {name: request.POST.get(name, "")[:200] for name in ("name", "card_number", "tier")}
    anonymous = request.POST.get("anonymous") in ("on", "yes", "1", "true")
    first, earlier = _first_time(request)
    if not first:
        messages.info(request, _("This form was already sent: the player is enrolled once."))
        return _after_enrol(request, earlier if isinstance(earlier, int) else None)
    try:
        player = player_create(
            actor=actor_of(request.user),
            tier=typed["tier"],
            name=typed["name"],
            card_number=typed["card_number"],
            anonymous=anonymous,
        )
    except ApplicationError as exc:
        _forget(request)
        context = _list_context(request, enrol={**typed, "anonymous": anonymous}, error=exc.message)
        context["field"] = exc.extra.get("field", "")
        return render(request, "pit/players.html", context, status=exc.status_code)
    except BaseException:
        _forget(request)  # nothing was recorded: the same form, sent again, is taken
        raise
    _remember(request, player.pk)
    messages.success(
        request, _("%(player)s (%(tier)s) is enrolled.") % {"player": _player_name(player), "tier": player.tier}
    )
    return _after_enrol(request, player.pk)


def _after_enrol(request: HttpRequest, player_id: int | None) -> HttpResponse:
    if player_id is None:
        return redirect("players")
    if _may(request, PLAYER_VIEWERS):
        return redirect("player", player_id=player_id)
    player = Player.objects.filter(pk=player_id).only("name", "card_number").first()
    query = (player.card_number or player.name) if player is not None else ""
    return redirect(reverse("players") + ("?" + urlencode({"q": query}) if query else ""))


# --- a player's page ---------------------------------------------------------------------------------


def _page_refused(request: HttpRequest) -> HttpResponse | None:
    if _may(request, PLAYER_VIEWERS):
        return None
    return _refused(
        request,
        _(
            "A player's page holds their name beside what they won and lost: only a Floor supervisor, a Pit boss or "
            "an Auditor may open it."
        ),
    )


def _player_page(request: HttpRequest, player_id: int, *, error: str = "", status: int = 200) -> HttpResponse:
    found = player_page(player_id=player_id, page=request.GET.get("page"))
    if found is None:
        message = _("No player has the number %(number)s.") % {"number": player_id}
        return render(request, "pit/player_refused.html", {"message": message, "missing": True}, status=404)
    context = {
        "found": found,
        "player": found.player,
        "totals": found.totals,
        "may_anonymise": _may(request, PLAYER_ANONYMISERS),
        "error": error,
        FORM_KEY: uuid.uuid4().hex,
    }
    return render(request, "pit/player.html", context, status=status)


@login_required
@require_GET
@never_cache
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player: their totals over every session, and their sessions, newest first, a page at a time."""
    return _page_refused(request) or _player_page(request, player_id)


@login_required
@require_POST
@never_cache
def player_anonymise_view(request: HttpRequest, player_id: int) -> HttpResponse:
    """A supervisor anonymises a player on their request (``player_anonymise``), once confirmed (``confirm=yes``):
    the name and card number are blanked; sessions, ledger and audit trail stay as they are."""
    refused = _page_refused(request)
    if refused is not None:
        return refused
    player_ = Player.objects.filter(pk=player_id).first()
    if player_ is None:
        return _player_page(request, player_id)
    if request.POST.get("confirm") != "yes":
        messages.warning(request, _("Confirm to anonymise the player: tap “Yes, anonymise”."))
        return redirect("player", player_id=player_id)
    first, _earlier = _first_time(request)
    if not first:
        messages.info(request, _("This form was already sent: the player is anonymised once."))
        return redirect("player", player_id=player_id)
    try:
        done = player_anonymise(actor=actor_of(request.user), player=player_)
    except ApplicationError as exc:
        _forget(request)
        return _player_page(request, player_id, error=exc.message, status=exc.status_code)
    except BaseException:
        _forget(request)
        raise
    messages.success(
        request,
        _("The player is anonymised: their name and card number are gone; their sessions stay as %(player)s.")
        % {"player": _player_name(done)},
    )
    return redirect("player", player_id=player_id)
