"""The card room's pages: the desk (``/poker-room/waitlist/``) and the room display with its kiosk
(``/poker-room/waitlist/screen/<token>/``).

* **The desk**, for whoever may look at the poker room's console (an Auditor reads it, no form drawn): each open list
  with its names in order, the names called (overdue ones marked), its tables and who sits where (longest first at
  a must-move table); forms to open a list, add a table, put a name down (a guest's, or a rated player's by card
  number), call the next name, seat, mark a no-show, move a must-move player to the main game, record a player
  leaving, take a name off, close a list. Each form is recorded once (``casino.once``); a refusal draws the page
  again with the service's message in the banner and what was typed kept.
* **The room display**: a TV's page, no sign-in; the address is its own key (a signed value, as the tournament
  display's), refused (404) when forged. It shows every open list, names as initials only ("J. L."), called names
  with their table, and draws itself again every 15 seconds (``waitlist_screen.js``; not while a guest types). Its
  kiosk form lets a guest put their name down: the name checked as the desk's is, at most
  ``TABLESIDE_WAITLIST_KIOSK_NAMES`` names from one address in ten minutes (each taken before the name is written,
  ``kiosk_reserve``), at most ``TABLESIDE_WAITLIST_KIOSK_WAITING`` kiosk names waiting on one list, Django's CSRF
  check as every form's; the answer shows the initials, never the name, and a name on the list already is refused
  without saying so.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from casino.errors import ApplicationError, WrongState
from casino.forms import AmountField
from casino.lockout import client_address
from casino.once import FormPage, Kept
from casino.pages import guarded_by
from casino.users import actor_of
from players.models import Player
from poker_room.pages import FORM_SCOPE, page, posted_int, runners_only, viewers_only
from poker_room.pure.waitlist import initials
from poker_room.waitlist import services
from poker_room.waitlist.models import POINTS_GAMES, CashGame, CashTable, WaitlistEntry
from poker_room.waitlist.selectors import cash_games_open
from tables.models import Table

_SALT = "poker_room.waitlist.screen"
_SCREEN_VALUE = "card-room"
KIOSK_WINDOW_SECONDS = 600
SCREEN_REFRESH_SECONDS = 15
_POINT = AmountField(most_cents=services.MOST_POINT_CENTS, required=False)
_TYPED = ("name", "card_number", "game", "points", "table", "must_move", "seat", "cash_game")


def screen_token() -> str:
    """The room display's key: a fixed value signed with the site's secret (changing ``SECRET_KEY`` withdraws it)."""
    return signing.Signer(salt=_SALT).sign(_SCREEN_VALUE).split(":", 1)[1]


def screen_address() -> str:
    return reverse("poker-room-waitlist-screen", args=[screen_token()])


def _refuse_forged(token: str) -> None:
    try:
        ok = signing.Signer(salt=_SALT).unsign(f"{_SCREEN_VALUE}:{token}") == _SCREEN_VALUE
    except signing.BadSignature:
        ok = False
    if not ok:
        raise Http404(_("This display address is not valid: ask the card room's desk for the room's address."))


# --- the desk -----------------------------------------------------------------------------------------------------


def _free_tables() -> dict[str, list[Table]]:
    """The pit tables of each points game that deal no cash game now."""
    taken = CashTable.objects.filter(removed_at__isnull=True).values_list("table_id", flat=True)
    tables = Table.objects.filter(game__in=[game for game, _label in POINTS_GAMES]).exclude(pk__in=taken)
    found: dict[str, list[Table]] = {}
    for table in tables.order_by("name"):
        found.setdefault(table.game, []).append(table)
    return found


def _desk_page(
    request: HttpRequest, *, typed: dict[str, str] | None = None, error: str = "", field: str = "", status: int = 200
) -> HttpResponse:
    context: dict[str, Any] = {
        "lists": cash_games_open(),
        "games": POINTS_GAMES,
        "free_tables": _free_tables(),
        "typed": typed or {},
        "error": error,
        "field": field,
        "screen_address": request.build_absolute_uri(screen_address()),
        "no_show_minutes": services.no_show_minutes(),
    }
    return page(request, "poker_room/waitlist.html", context, status=status)


def _refused(request: HttpRequest, exc: ApplicationError, kept: Kept, **_kwargs: object) -> HttpResponse:
    return _desk_page(
        request,
        typed=kept.get("typed", {}),
        error=exc.message,
        field=str(exc.extra.get("field", "")),
        status=exc.status_code,
    )


DESK = FormPage(
    scope=FORM_SCOPE,
    done=lambda request, **_kwargs: redirect("poker-room-waitlist"),
    refused=_refused,
)


def _one(model: type[Any], request: HttpRequest, name: str, what: str) -> Any:
    number = posted_int(request, name)
    found = model.objects.filter(pk=number).first() if isinstance(number, int) else None
    if found is None:
        raise ApplicationError(_("Choose %(what)s.") % {"what": what}, extra={"field": name})
    return found


def _act(request: HttpRequest, action: str) -> str:
    actor = actor_of(request.user)
    if action == "open":
        try:
            points = _POINT.clean(request.POST.get("points", ""))
        except forms.ValidationError as error:
            raise ApplicationError(" ".join(error.messages), extra={"field": "points"}) from None
        game = services.cash_game_open(actor=actor, game=request.POST.get("game", ""), points_cents=points)
        return _("The list for %(game)s is open.") % {"game": game.get_game_display()}
    if action in ("put_down", "add_table", "call", "move", "close"):
        cash_game = _one(CashGame, request, "cash_game", _("a list"))
        if action == "put_down":
            card = " ".join(request.POST.get("card_number", "").split())
            player = None
            if card:
                player = Player.objects.filter(card_number=card).first()
                if player is None:
                    raise ApplicationError(
                        _("No player has card number %(card)s.") % {"card": card[:32]}, extra={"field": "card_number"}
                    )
            entry = services.waitlist_put_down(
                actor=actor, cash_game=cash_game, name=request.POST.get("name", ""), player=player
            )
            return _("%(name)s is on the list.") % {"name": entry.name}
        if action == "add_table":
            table = _one(Table, request, "table", _("a table"))
            services.cash_table_add(
                actor=actor, cash_game=cash_game, table=table, must_move=request.POST.get("must_move") == "yes"
            )
            return _("Table %(table)s deals this game.") % {"table": table.name}
        if action == "call":
            called = services.waitlist_call(actor=actor, cash_game=cash_game)
            assert called.table is not None
            return _("%(name)s is called to table %(table)s.") % {"name": called.name, "table": called.table.table.name}
        if action == "move":
            moved = services.waitlist_move(actor=actor, cash_game=cash_game)
            assert moved.table is not None
            return _("%(name)s moves to the main game: table %(table)s, seat %(seat)s.") % {
                "name": moved.name,
                "table": moved.table.table.name,
                "seat": moved.seat_number,
            }
        services.cash_game_close(actor=actor, cash_game=cash_game)
        return _("The list is closed.")
    if action == "remove_table":
        table = services.cash_table_remove(actor=actor, cash_table=_one(CashTable, request, "cash_table", _("a table")))
        return _("Table %(table)s is taken off the list.") % {"table": table.table.name}
    entry = _one(WaitlistEntry, request, "entry", _("a name"))
    if action == "seat":
        seated = services.waitlist_seat(actor=actor, entry=entry, seat=posted_int(request, "seat"))
        assert seated.table is not None
        return _("%(name)s is seated: table %(table)s, seat %(seat)s.") % {
            "name": seated.name,
            "table": seated.table.table.name,
            "seat": seated.seat_number,
        }
    if action == "no_show":
        following = services.waitlist_no_show(actor=actor, entry=entry)
        if following is not None and following.table is not None:
            return _("%(name)s is a no-show; %(next)s is called to table %(table)s.") % {
                "name": entry.name,
                "next": following.name,
                "table": following.table.table.name,
            }
        return _("%(name)s is a no-show.") % {"name": entry.name}
    if action == "leave":
        services.waitlist_leave(actor=actor, entry=entry)
        return _("%(name)s has left the game: the seat is open.") % {"name": entry.name}
    if action == "remove":
        services.waitlist_remove(actor=actor, entry=entry)
        return _("%(name)s is taken off the list.") % {"name": entry.name}
    raise ApplicationError(_("The form could not be read."), extra={})


@guarded_by(runners_only)
@DESK.acts()
def _desk_act(request: HttpRequest, kept: Kept) -> str:
    kept["typed"] = {key: request.POST.get(key, "")[:60] for key in _TYPED if key in request.POST}
    return _act(request, request.POST.get("action", ""))


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
@guarded_by(viewers_only)
def desk(request: HttpRequest) -> HttpResponse:
    """GET: the card room's lists. POST: one of the desk's forms (its ``action``)."""
    if request.method == "GET":
        return _desk_page(request)
    return _desk_act(request)


# --- the room display and its kiosk ----------------------------------------------------------------------------------


def _kiosk_key(request: HttpRequest) -> str:
    return f"waitlist-kiosk:{client_address(request) or 'unknown'}"


def kiosk_reserve(request: HttpRequest) -> None:
    """Take one of the names this address may put down in ten minutes, before anything is written; refused when
    they are taken.

    The counter is raised first and read in the same step (``cache.add`` makes it, ``cache.incr`` raises it and
    answers the new number, each one atomic in Redis and in the local-memory cache), so two requests arriving
    together hold two different numbers and the one past the limit is refused: no request reads a count, writes,
    and only then counts. A try that is refused afterwards (a name on the list already, a full list) keeps its
    number, so the kiosk cannot be used to try name after name. A cache that does not answer (Redis down) takes
    nothing from the guest: the list's own limit of kiosk names (``TABLESIDE_WAITLIST_KIOSK_WAITING``, held in
    the database) still stands.
    """
    key = _kiosk_key(request)
    cache.add(key, 0, KIOSK_WINDOW_SECONDS)
    try:
        taken = cache.incr(key)
    except ValueError:  # gone between the two calls (the window ended, the cache was emptied): this is the first
        cache.add(key, 1, KIOSK_WINDOW_SECONDS)
        taken = 1
    if isinstance(taken, int) and taken > services.kiosk_names():
        raise WrongState(_("This kiosk has taken enough names for now: ask at the desk."))


def _kiosk_put_down(request: HttpRequest) -> str:
    """A guest's name from the kiosk: the game and the name read first, then one of the address's names taken
    (``kiosk_reserve``), then the name put down."""
    number = posted_int(request, "cash_game")
    game = CashGame.objects.filter(pk=number, closed_at__isnull=True).first() if isinstance(number, int) else None
    if game is None:
        raise ApplicationError(_("Choose a game."), extra={"field": "cash_game"})
    name = services.guest_name(request.POST.get("name", ""))
    kiosk_reserve(request)
    entry = services.waitlist_kiosk_put_down(cash_game=game, name=name)
    return _("%(initials)s is on the list for %(game)s.") % {
        "initials": initials(entry.name),
        "game": game.get_game_display(),
    }


@require_http_methods(["GET", "POST"])
def screen(request: HttpRequest, token: str) -> HttpResponse:
    """The room display (initials only) and its kiosk form; no sign-in, the address is the key."""
    _refuse_forged(token)
    error, field, status = "", "", 200
    if request.method == "POST":
        try:
            notice = _kiosk_put_down(request)
        except ApplicationError as exc:
            error, field, status = exc.message, str(exc.extra.get("field", "")), exc.status_code
        else:
            messages.success(request, notice)
            return redirect("poker-room-waitlist-screen", token=token)
    context = {
        "lists": cash_games_open(),
        "error": error,
        "field": field,
        "refresh": SCREEN_REFRESH_SECONDS,
    }
    response = render(request, "poker_room/waitlist_screen.html", context, status=status)
    response["X-Robots-Tag"] = "noindex"
    add_never_cache_headers(response)
    return response
