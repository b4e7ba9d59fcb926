"""The leagues' pages: the leagues and a new one; one league's settings, its events, its standings (each
result counted or dropped), its PDF, and the Master Class invited from the standings.

Thin, as the console's pages are (``poker_room.tournaments.views``): the role checked (``poker_room.pages``: the room's
viewers read, its runners write), the form read, one service called once (``casino.once.FormPage``), then
POST-redirect-GET with the service's answer as the notice; a refusal draws the page again with the message, in its
status, nothing written.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino.errors import ApplicationError
from casino.forms import AmountField
from casino.once import FormPage, Kept, Then
from casino.pages import guarded_by, loaded_by
from casino.users import actor_of
from poker_room.floor import MOST_CENTS
from poker_room.leagues import services as leagues
from poker_room.leagues.models import League
from poker_room.leagues.pdf import standings_pdf
from poker_room.leagues.selectors import (
    TIE_BREAK_NAMES,
    formula_text,
    league_list,
    league_standings,
    league_tie_breaks,
    rounding_text,
    tie_break_names,
)
from poker_room.pages import FORM_SCOPE, RefusingForm, page, posted_int, runners_only, viewers_only
from poker_room.pure.league_points import TIE_BREAKS
from poker_room.tournaments.models import Entry, Tournament

TIE_BREAK_SLOTS = 4


def _league(league_id: int) -> League:
    return get_object_or_404(League.objects.select_related("master_class"), pk=league_id)


def _league_url(league: League, anchor: str = "") -> str:
    return f"/poker-room/leagues/{league.pk}/" + (f"#{anchor}" if anchor else "")


# --- reading the settings form --------------------------------------------------------------------------------------


def _table_typed(text: str) -> list[str]:
    """A points table typed as "21, 17, 14": its entries for the service to check (a word it cannot read stays)."""
    return [word for word in re.split(r"[\s,;]+", text.strip()) if word]


def _settings_posted(request: HttpRequest) -> dict[str, Any]:
    post = request.POST
    values: dict[str, Any] = {
        "name": post.get("name", "")[:200],
        "season": post.get("season", "")[:80],
        "formula": post.get("formula", ""),
        "expression": post.get("expression", "")[:400],
        "points_table": _table_typed(post.get("points_table", "")[:2000]),
        "tie_breaks": [key for key in (post.get(f"tie_break_{i}", "") for i in range(TIE_BREAK_SLOTS)) if key],
        "chip_rounding": post.get("chip_rounding", ""),
    }
    for name in ("best_of", "master_class_size", "chips_per_point"):
        number = posted_int(request, name)
        values[name] = number if number is not None else (0 if name == "best_of" else "")
    return values


def _typed(request: HttpRequest) -> dict[str, str]:
    return {name: value[:400] for name, value in request.POST.dict().items() if name not in ("csrfmiddlewaretoken",)}


def _settings_shown(league: League | None, typed: dict[str, str] | None) -> dict[str, Any]:
    if typed:
        shown: dict[str, Any] = dict(typed)
        shown["tie_breaks"] = [typed.get(f"tie_break_{i}", "") for i in range(TIE_BREAK_SLOTS)]
        return shown
    if league is None:
        return {
            "formula": League.Formula.SQRT_PLACE,
            "best_of": "0",
            "master_class_size": "10",
            "chips_per_point": "1",
            "chip_rounding": League.Rounding.NEAREST,
            "tie_breaks": ["wins", "best_finish", "cashes", ""],
        }
    order = list(league_tie_breaks(league))
    return {
        "name": league.name,
        "season": league.season,
        "formula": league.formula,
        "expression": league.expression,
        "points_table": ", ".join(str(points) for points in league.points_table or []),
        "best_of": str(league.best_of),
        "master_class_size": str(league.master_class_size),
        "chips_per_point": str(league.chips_per_point),
        "chip_rounding": league.chip_rounding,
        "tie_breaks": order + [""] * (TIE_BREAK_SLOTS - len(order)),
    }


def _form_context(league: League | None, typed: dict[str, str] | None) -> dict[str, Any]:
    return {
        "settings": _settings_shown(league, typed),
        "formulas": League.Formula.choices,
        "roundings": League.Rounding.choices,
        "tie_break_choices": [(key, TIE_BREAK_NAMES[key]) for key in TIE_BREAKS],
        "slots": range(TIE_BREAK_SLOTS),
    }


# --- the leagues ----------------------------------------------------------------------------------------------------


def _list_page(
    request: HttpRequest, *, error: str = "", field: str = "", typed: dict[str, str] | None = None, status: int = 200
) -> HttpResponse:
    context = {"leagues": league_list(), "error": error, "field": field, **_form_context(None, typed)}
    return page(request, "poker_room/leagues.html", context, status=status)


def _list_refused(request: HttpRequest, exc: ApplicationError, kept: Kept, **_kwargs: object) -> HttpResponse:
    field = str(exc.extra.get("field", ""))
    return _list_page(request, error=exc.message, field=field, typed=_typed(request), status=exc.status_code)


# The leagues page's form: a new league (done: its page; sent again: the list).
LEAGUES = FormPage(
    scope=FORM_SCOPE, done=lambda request, **_kwargs: redirect("poker-room-leagues"), refused=_list_refused
)


@login_required
@require_GET
@never_cache
@guarded_by(viewers_only)
def leagues_view(request: HttpRequest) -> HttpResponse:
    """The leagues, and for who runs tournaments a new one."""
    return _list_page(request)


@login_required
@require_POST
@guarded_by(runners_only)
@LEAGUES.acts()
def league_new_view(request: HttpRequest, kept: Kept) -> Then:
    made = leagues.league_create(actor=actor_of(request.user), **_settings_posted(request))
    return Then(
        _("%(name)s is set up: add its events.") % {"name": made.name}, redirect("poker-room-league", league_id=made.pk)
    )


# --- one league -----------------------------------------------------------------------------------------------------


def _league_page(
    request: HttpRequest,
    league: League,
    *,
    error: str = "",
    field: str = "",
    typed: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    found = league_standings(league)
    in_league = {event.tournament.pk for event in found.events}
    candidates = (
        Tournament.objects.exclude(pk__in=in_league)
        .exclude(master_class_of__isnull=False)
        .order_by("-created_at", "-pk")[:100]
    )
    context = {
        "league": league,
        "found": found,
        "formula_text": formula_text(league),
        "tie_break_text": ", ".join(tie_break_names(league_tie_breaks(league))),
        "rounding_text": rounding_text(league, found.smallest_chip),
        "candidates": candidates,
        "may_invite": league.master_class_id is None and bool(found.invited) and not found.error,
        "master_entries": (
            list(Entry.objects.filter(tournament_id=league.master_class_id).order_by("number"))
            if league.master_class_id
            else []
        ),
        "error": error,
        "field": field,
        **_form_context(league, typed),
    }
    return page(request, "poker_room/league.html", context, status=status)


def _league_named(request: HttpRequest, *, league_id: int, **kwargs: Any) -> dict[str, Any]:
    return {"league": _league(league_id), **kwargs}


# A view given the league its address names (``league_id``: 404 if none) instead of its id.
at_league = loaded_by(_league_named)


def _league_refused(
    request: HttpRequest, exc: ApplicationError, kept: Kept, *, league: League, anchor: str, **_kwargs: object
) -> HttpResponse:
    """The league's page again (read afresh) with the refusal; the settings form keeps what was typed."""
    return _league_page(
        request,
        _league(league.pk),
        error=exc.message,
        field=str(exc.extra.get("field", "")),
        typed=_typed(request) if anchor == "settings" else None,
        status=exc.status_code,
    )


# The league page's forms: its settings, an event added or taken out, the Master Class invited.
LEAGUE = FormPage(
    scope=FORM_SCOPE,
    done=lambda request, *, league, anchor, **_kwargs: redirect(_league_url(league, anchor)),
    refused=_league_refused,
)


@login_required
@require_GET
@never_cache
@at_league
@guarded_by(viewers_only)
def league_view(request: HttpRequest, league: League) -> HttpResponse:
    return _league_page(request, league)


@login_required
@require_POST
@at_league
@guarded_by(runners_only)
@LEAGUE.acts(anchor="settings")
def league_settings_view(request: HttpRequest, kept: Kept, league: League) -> str:
    leagues.league_update(actor=actor_of(request.user), league=league, **_settings_posted(request))
    return _("The settings of %(name)s are saved.") % {"name": league.name}


@login_required
@require_POST
@at_league
@guarded_by(runners_only)
@LEAGUE.acts(anchor="events")
def league_event_add_view(request: HttpRequest, kept: Kept, league: League) -> str:
    event = leagues.league_event_add(
        actor=actor_of(request.user), league=league, tournament_id=posted_int(request, "tournament")
    )
    return _("%(event)s counts in %(name)s.") % {"event": event.tournament.name, "name": league.name}


@login_required
@require_POST
@at_league
@guarded_by(runners_only)
@LEAGUE.acts(anchor="events")
def league_event_remove_view(request: HttpRequest, kept: Kept, league: League, tournament_id: int) -> str:
    event = leagues.league_event_remove(actor=actor_of(request.user), league=league, tournament_id=tournament_id)
    return _("%(event)s is taken out of %(name)s.") % {"event": event.tournament.name, "name": league.name}


class MasterClassForm(RefusingForm):
    name = forms.CharField(max_length=120, required=False, label=gettext_lazy("Name"))
    buy_in = AmountField(most_cents=MOST_CENTS, required=False, label=gettext_lazy("Buy-in to the prize pool"))
    fee = AmountField(most_cents=MOST_CENTS, required=False, label=gettext_lazy("House fee"))


@login_required
@require_POST
@at_league
@guarded_by(runners_only)
@LEAGUE.acts(anchor="master-class")
def master_class_view(request: HttpRequest, kept: Kept, league: League) -> Then:
    data = MasterClassForm(request.POST).cleaned()
    made = leagues.master_class_invite(
        actor=actor_of(request.user),
        league=league,
        name=data["name"] or None,
        buy_in_cents=data["buy_in"] or 0,
        fee_cents=data["fee"] or 0,
    )
    return Then(
        _("%(event)s is set up with its invited players and their stacks.") % {"event": made.name},
        redirect("poker-room-console", tournament_id=made.pk),
    )


@login_required
@require_GET
@never_cache
@at_league
@guarded_by(viewers_only)
def league_pdf_view(request: HttpRequest, league: League) -> HttpResponse:
    body = standings_pdf(league, league_standings(league))
    response = HttpResponse(body, content_type="application/pdf")
    slug = re.sub(r"[^A-Za-z0-9]+", "-", f"{league.name}-{league.season}").strip("-").lower() or "league"
    response["Content-Disposition"] = f'inline; filename="{slug}-standings.pdf"'
    return response


__all__ = [
    "league_event_add_view",
    "league_event_remove_view",
    "league_new_view",
    "league_pdf_view",
    "league_settings_view",
    "league_view",
    "leagues_view",
    "master_class_view",
]
