"""The tournament director's console: the tournaments, a new one from a template, and one
tournament's console: its clock, the room display's address, the entries, the seating, the busts and the prizes.

Thin, as the pit's pages are: each view checks the role (``poker_room.pages``), reads the form, calls one service and
redirects (POST-redirect-GET) with the service's answer as the notice; a refusal draws the console again with the
service's message in the page, in its status (400, 403, 409), what was typed kept, nothing written. Every form posts
without JavaScript; ``poker_room/static/poker_room/console.js`` counts the clock down from the stored instant, sends a
form once, and draws the page again when the tournament changed on another screen.

The structure, the payouts, the results and the chip race have their pages in ``poker_room.tournaments.setup_views``;
the dealer's tournament table in ``poker_room.tournaments.table_views``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino import numbers
from casino.errors import ApplicationError
from casino.once import FormPage, Kept, Then
from casino.pages import guarded_by, loaded_by
from casino.users import actor_of
from players.selectors import player_find
from poker_room.deals import selectors as deal_selectors
from poker_room.display.views import display_address, display_token
from poker_room.floor import entry_name, ordinal
from poker_room.heads_up import selectors as heads_up_selectors
from poker_room.ofc_events import selectors as ofc_selectors
from poker_room.pages import FORM_SCOPE, may_run, page, posted_int, runners_only, viewers_only
from poker_room.pure.templates_data import templates
from poker_room.tournaments import clock_services, services
from poker_room.tournaments.forms import (
    MONEY_FIELDS,
    SETTINGS_FIELDS,
    TournamentCreateForm,
    settings_choices,
    settings_initial,
)
from poker_room.tournaments.models import Elimination, Entry, Tournament
from poker_room.tournaments.page_selectors import console, game_names, tournament_list
from poker_room.tournaments.services import FORMAT_FIELDS

# The console's groups of settings, each its own small form.
SETTINGS_GROUPS: dict[str, tuple[str, ...]] = {
    "entries": ("late_registration_level", "reentries_max", "rebuys_max", "rebuy_until_level", "table_size"),
    "rebuys": ("rebuy_cents", "rebuy_fee_cents", "rebuy_chips", "addon_cents", "addon_fee_cents", "addon_chips"),
    "prizes": ("guarantee_cents", "min_cash_cents", "payout_unit_cents"),
    "format": FORMAT_FIELDS,
}


def tournament_get(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tournament_id)


def _tournament_named(request: HttpRequest, *, tournament_id: int, **kwargs: Any) -> dict[str, Any]:
    return {"tournament": tournament_get(tournament_id), **kwargs}


# A view given the tournament its address names (``tournament_id``: 404 if none) instead of its id.
at_tournament = loaded_by(_tournament_named)


# --- the tournaments ------------------------------------------------------------------------------------------------


def _template_rows() -> list[dict[str, Any]]:
    return [
        {
            "template": t,
            "games": game_names(t.games),
            "stack": t.starting_stack,
            "length": t.level_minutes,
        }
        for t in templates()
    ]


def _list_page(
    request: HttpRequest, *, error: str = "", typed: dict[str, str] | None = None, status: int = 200
) -> HttpResponse:
    context = {
        "found": tournament_list(),
        "templates": _template_rows(),
        "create": {"tables": "2", **(typed or {})},
        "formats": Tournament.Format.choices,
        "error": error,
    }
    return page(request, "poker_room/tournaments.html", context, status=status)


def _list_refused(request: HttpRequest, exc: ApplicationError, kept: Kept, **_kwargs: object) -> HttpResponse:
    return _list_page(request, error=exc.message, typed=kept.get("typed"), status=exc.status_code)


# The tournaments page's form: a new tournament (done: its console; sent again: the list).
TOURNAMENTS = FormPage(scope=FORM_SCOPE, done=lambda request, **_kwargs: redirect("poker-room"), refused=_list_refused)


@login_required
@require_GET
@never_cache
@guarded_by(viewers_only)
def tournaments(request: HttpRequest) -> HttpResponse:
    """The tournaments (running, planned, the latest finished) and, for who runs them, a new one from a template."""
    return _list_page(request)


@login_required
@require_POST
@guarded_by(runners_only)
@TOURNAMENTS.acts()
def tournament_new(request: HttpRequest, kept: Kept) -> Then:
    """A new tournament from a template (``tournament_create``); then its console."""
    kept["typed"] = {
        name: request.POST.get(name, "")[:120]
        for name in ("template_key", "name", "buy_in", "fee", "bounty", "tables", "format")
    }
    form = TournamentCreateForm(request.POST)
    made = services.tournament_create(actor=actor_of(request.user), **form.create_kwargs())
    return Then(
        _("%(name)s is set up: add the entries, then start it.") % {"name": made.name},
        redirect("poker-room-console", tournament_id=made.pk),
    )


# --- the console --------------------------------------------------------------------------------------------------


def render_console(
    request: HttpRequest, tournament: Tournament, *, error: str, typed: dict[str, Any], status: int
) -> HttpResponse:
    runner = may_run(request)
    query = request.GET.get("q", "").strip()[:120] if runner else ""
    found = console(tournament, dealers=runner)
    kept = typed.get("settings", {})
    choices = settings_choices(FORMAT_FIELDS)
    settings_forms = {
        group: [
            {
                "name": name,
                "label": SETTINGS_FIELDS[name][0],
                "value": kept.get(name, shown),
                "locked": tournament.status != Tournament.Status.PLANNED and name in MONEY_FIELDS,
                "choices": choices.get(name),
            }
            for name, shown in settings_initial(tournament, names).items()
        ]
        for group, names in SETTINGS_GROUPS.items()
    }
    context = {
        "t": tournament,
        "c": found,
        "board": found.board,
        "clock": found.board.clock,
        "here": "console",
        "query": query,
        "players_found": player_find(query=query) if query else [],
        "display_url": request.build_absolute_uri(display_address(tournament.pk)),
        "version_url": reverse("poker-room-screen-json", args=[display_token(tournament.pk)]),
        "settings_forms": settings_forms,
        "settings_forms_format_names": FORMAT_FIELDS,
        "settings_open": typed.get("field", "") in SETTINGS_FIELDS,
        "error": error,
        "field": typed.get("field", ""),
        "typed": typed,
    }
    # What the deal, heads-up and Open-Face panels add (their own selectors).
    for extra in (deal_selectors, heads_up_selectors, ofc_selectors):
        context.update(extra.console_context(tournament, request.user))
    return page(request, "poker_room/console.html", context, status=status)


@login_required
@require_GET
@never_cache
@guarded_by(viewers_only)
@at_tournament
def console_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """One tournament's console (``?q=`` finds a player of the players app to register)."""
    return render_console(request, tournament, error="", typed={}, status=200)


def _to_console(
    request: HttpRequest, *, tournament: Tournament, anchor: str = "", to: str = "poker-room-console", **kwargs: Any
) -> HttpResponse:
    """Back to the console at ``anchor`` (its ``{name}``s filled from the view's arguments), or to the tournament's page
    ``to``."""
    fragment = anchor.format(**kwargs)
    return redirect(reverse(to, args=[tournament.pk]) + (f"#{fragment}" if fragment else ""))


def _console_refused(
    request: HttpRequest,
    exc: ApplicationError,
    kept: Kept,
    *,
    tournament: Tournament,
    marks_field: bool = True,
    **_kwargs: object,
) -> HttpResponse:
    """The console drawn again with the refusal, what was kept and (``marks_field``) the field refused marked."""
    fresh = Tournament.objects.get(pk=tournament.pk)
    typed = {**kept, "field": exc.extra.get("field", "")} if marks_field else dict(kept)
    return render_console(request, fresh, error=exc.message, typed=typed, status=exc.status_code)


# The console's forms (the clock, the entries, the busts, the seating; the bracket drawn, an Open-Face round).
CONSOLE = FormPage(scope=FORM_SCOPE, done=_to_console, refused=_console_refused)


# --- the clock ----------------------------------------------------------------------------------------------------

CLOCK_ACTIONS = ("start", "pause", "resume", "back", "forward", "plus", "minus", "hand")


@login_required
@require_POST
@guarded_by(runners_only)
@at_tournament
@CONSOLE.acts(anchor="clock")
def clock_view(request: HttpRequest, kept: Kept, tournament: Tournament, action: str) -> str:
    """The clock's buttons: start (the tournament: seats drawn, clock started), pause, resume, a level back or
    forward, a minute more or less, a hand played (hands-counted levels)."""
    user = actor_of(request.user)
    if action == "start":
        if tournament.status == Tournament.Status.PLANNED:
            services.tournament_start(actor=user, tournament=tournament)
            return _("%(name)s has started: seats are drawn and the clock runs.") % {"name": tournament.name}
        clock_services.clock_start(actor=user, tournament=tournament)
        return _("The clock runs.")
    if action == "pause":
        clock_services.clock_pause(actor=user, tournament=tournament)
        return _("The clock is paused.")
    if action == "resume":
        clock_services.clock_resume(actor=user, tournament=tournament)
        return _("The clock runs again.")
    if action in ("back", "forward"):
        clock_services.clock_skip(actor=user, tournament=tournament, by=1 if action == "forward" else -1)
        return _("A level forward.") if action == "forward" else _("A level back.")
    if action in ("plus", "minus"):
        clock_services.clock_adjust(actor=user, tournament=tournament, seconds=60 if action == "plus" else -60)
        return _("A minute added.") if action == "plus" else _("A minute taken off.")
    if action == "hand":
        clock_services.clock_hand(actor=user, tournament=tournament)
        return _("A hand is counted.")
    raise ApplicationError(_("The clock has no button “%(action)s”.") % {"action": action[:20]})


# --- entries ------------------------------------------------------------------------------------------------------


@login_required
@require_POST
@guarded_by(runners_only)
@at_tournament
@CONSOLE.acts(anchor="entries")
def entry_register_view(request: HttpRequest, kept: Kept, tournament: Tournament) -> str:
    """Register a player: a player of the players app (chosen from the search) or a name typed."""
    name = request.POST.get("name", "")[:200]
    kept["name"] = name
    entry = services.entry_register(
        actor=actor_of(request.user),
        tournament=tournament,
        name=name,
        player_id=posted_int(request, "player_id"),  # type: ignore[arg-type]  # text typed: the service refuses it
    )
    seat = (
        _(": table %(table)s, seat %(seat)s") % {"table": entry.table_number, "seat": entry.seat_number}
        if entry.table_number
        else ""
    )
    return _("%(entry)s is registered%(seat)s.") % {"entry": entry_name(entry), "seat": seat}


ENTRY_ACTIONS = ("reenter", "rebuy", "addon", "bust")


@login_required
@require_POST
@guarded_by(runners_only)
@at_tournament
@CONSOLE.acts(anchor="entries")
def entry_action_view(request: HttpRequest, kept: Kept, tournament: Tournament, entry_id: int, action: str) -> str:
    """An entry's buttons: re-entry, rebuy, add-on, and a bust (with who knocked the player out, for bounties)."""
    entry = get_object_or_404(Entry, pk=entry_id, tournament=tournament)
    return _entry_act(request, kept, tournament, entry, action)


def _eliminator(request: HttpRequest, tournament: Tournament) -> Entry | None:
    by = posted_int(request, "eliminated_by")
    if by is None:
        return None
    if not isinstance(by, int):
        raise ApplicationError(_("Choose who knocked the player out."), extra={"field": "eliminated_by"})
    found = Entry.objects.filter(tournament=tournament, pk=by).first()
    if found is None:
        raise ApplicationError(_("That player is not in this tournament."), extra={"field": "eliminated_by"})
    return found


def bust_notice(elimination: Elimination) -> str:
    text = _("%(entry)s is out in %(place)s place.") % {
        "entry": entry_name(elimination.entry),
        "place": ordinal(elimination.place),
    }
    if elimination.prize_cents:
        text += " " + _("Prize: %(prize)s.") % {"prize": numbers.amount(elimination.prize_cents)}
    if elimination.eliminated_by is not None and elimination.bounty_paid_cents:
        text += " " + _("Bounty of %(bounty)s to %(entry)s.") % {
            "bounty": numbers.amount(elimination.bounty_paid_cents),
            "entry": entry_name(elimination.eliminated_by),
        }
    return text


def _entry_act(request: HttpRequest, kept: Kept, tournament: Tournament, entry: Entry, action: str) -> str:
    """An entry's re-entry, rebuy, add-on or bust; its refusal keeps the bust form open on the entry."""
    kept.update(bust=str(entry.pk), eliminated_by=request.POST.get("eliminated_by", "")[:12])
    user = actor_of(request.user)
    if action == "reenter":
        new = services.entry_reenter(actor=user, tournament=tournament, entry=entry)
        seat = _("table %(table)s, seat %(seat)s") % {"table": new.table_number, "seat": new.seat_number}
        return _("%(entry)s re-enters as #%(number)s: %(seat)s.") % {
            "entry": entry_name(entry),
            "number": new.number,
            "seat": seat,
        }
    if action == "rebuy":
        purchase = services.entry_rebuy(actor=user, tournament=tournament, entry=entry)
        return _("%(entry)s rebuys: %(chips)s chips for %(paid)s.") % {
            "entry": entry_name(entry),
            "chips": numbers.whole(purchase.chips),
            "paid": numbers.amount(purchase.total_cents),
        }
    if action == "addon":
        purchase = services.entry_addon(actor=user, tournament=tournament, entry=entry)
        return _("%(entry)s takes the add-on: %(chips)s chips for %(paid)s.") % {
            "entry": entry_name(entry),
            "chips": numbers.whole(purchase.chips),
            "paid": numbers.amount(purchase.total_cents),
        }
    if action == "bust":
        if request.POST.get("confirm") != "yes":
            raise ApplicationError(
                _("Confirm the bust of %(entry)s: tap “Yes, out”.") % {"entry": entry_name(entry)},
                extra={"field": "confirm"},
            )
        elimination = services.entry_eliminate(
            actor=user, tournament=tournament, entry=entry, eliminated_by=_eliminator(request, tournament)
        )
        return bust_notice(elimination)
    raise ApplicationError(_("An entry has no button “%(action)s”.") % {"action": action[:20]})


@login_required
@require_POST
@guarded_by(runners_only)
@at_tournament
@CONSOLE.acts(anchor="eliminations")
def bust_view(request: HttpRequest, kept: Kept, tournament: Tournament) -> str:
    """The console's bust form: the player out chosen from a list, and who knocked them out."""
    entry_id = posted_int(request, "entry")
    entry = Entry.objects.filter(tournament=tournament, pk=entry_id).first() if isinstance(entry_id, int) else None
    if entry is None:
        raise ApplicationError(_("Choose the player who is out."), extra={"field": "entry"})
    return _entry_act(request, kept, tournament, entry, "bust")


@login_required
@require_POST
@guarded_by(runners_only)
@at_tournament
@CONSOLE.acts(anchor="eliminations")
def elimination_undo_view(request: HttpRequest, kept: Kept, tournament: Tournament, elimination_id: int) -> str:
    """Undo the latest bust, with a reason (``elimination_undo``): its prize and bounty reversed, the player back."""
    elimination = get_object_or_404(
        Elimination.objects.select_related("entry"), pk=elimination_id, tournament=tournament
    )
    reason = kept["undo_reason"] = request.POST.get("reason", "")[:500]
    undone = services.elimination_undo(
        actor=actor_of(request.user), tournament=tournament, elimination=elimination, reason=reason
    )
    entry = Entry.objects.get(pk=undone.entry_id)
    return _("The bust of %(entry)s is undone: back at table %(table)s, seat %(seat)s.") % {
        "entry": entry_name(entry),
        "table": entry.table_number,
        "seat": entry.seat_number,
    }


# --- seating ------------------------------------------------------------------------------------------------------


@login_required
@require_POST
@guarded_by(runners_only)
@at_tournament
@CONSOLE.acts(anchor="seating")
def tables_count_view(request: HttpRequest, kept: Kept, tournament: Tournament) -> str:
    """How many tables, before the start (``tournament_tables_set``)."""
    count = posted_int(request, "count")
    services.tournament_tables_set(actor=actor_of(request.user), tournament=tournament, count=count)  # type: ignore[arg-type]  # text typed: the service refuses it
    return _("%(name)s has %(count)s tables.") % {"name": tournament.name, "count": count}


@login_required
@require_POST
@guarded_by(runners_only)
@at_tournament
@CONSOLE.acts(anchor="table-{number}")
def table_dealer_view(request: HttpRequest, kept: Kept, tournament: Tournament, number: int) -> str:
    """Put a Dealer on a tournament table, or nobody (``tournament_table_dealer_set``)."""
    dealer_id = posted_int(request, "dealer")
    dealer = None
    if dealer_id is not None:
        dealer = User.objects.filter(pk=dealer_id).first() if isinstance(dealer_id, int) else None
        if dealer is None:
            raise ApplicationError(_("Choose a Dealer from the list."), extra={"field": "dealer"})
    services.tournament_table_dealer_set(
        actor=actor_of(request.user), tournament=tournament, table_number=number, dealer=dealer
    )
    if dealer is None:
        return _("Table %(number)s has no dealer now.") % {"number": number}
    return _("%(dealer)s deals table %(number)s.") % {"dealer": dealer.get_username(), "number": number}
