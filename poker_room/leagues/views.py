"""The leagues' pages: the leagues and a new one; one league's settings, its events, its standings (each
result counted or dropped), its PDF, and the Master Class invited from the standings.

Thin, as the console's pages are (``poker_room.tournaments.views``): the role checked (``poker_room.pages``: the room's
viewers read, its runners write), the form read, one service called once (``form_once``), then POST-redirect-GET with
the service's answer as the notice; a refusal draws the page again with the message, in its status, nothing written.
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

from casino.forms import AmountField
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
from poker_room.pages import RefusingForm, form_once, page, posted_int, runners_only, viewers_only
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
    return {name: value[:400] for name, value in request.POST.items() if name not in ("csrfmiddlewaretoken",)}


def _settings_shown(league: League | None, typed: dict[str, str] | None) -> dict[str, Any]:
    if typed:
        shown = dict(typed)
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


@login_required
@require_GET
@never_cache
def leagues_view(request: HttpRequest) -> HttpResponse:
    """The leagues, and for who runs tournaments a new one."""
    return viewers_only(request) or _list_page(request)


@login_required
@require_POST
def league_new_view(request: HttpRequest) -> HttpResponse:
    if (denied := runners_only(request)) is not None:
        return denied
    made: list[League] = []

    def act() -> str:
        made.append(leagues.league_create(actor=request.user, **_settings_posted(request)))
        return _("%(name)s is set up: add its events.") % {"name": made[0].name}

    response = form_once(
        request,
        done=redirect("poker-room-leagues"),
        act=act,
        refused=lambda exc: _list_page(
            request,
            error=exc.message,
            field=str(exc.extra.get("field", "")),
            typed=_typed(request),
            status=exc.status_code,
        ),
    )
    if made:
        return redirect("poker-room-league", league_id=made[0].pk)
    return response


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


@login_required
@require_GET
@never_cache
def league_view(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(league_id)
    return viewers_only(request) or _league_page(request, league)


def _write(request: HttpRequest, league: League, act: Any, *, anchor: str) -> HttpResponse:
    if (denied := runners_only(request)) is not None:
        return denied
    return form_once(
        request,
        done=redirect(_league_url(league, anchor)),
        act=act,
        refused=lambda exc: _league_page(
            request,
            _league(league.pk),
            error=exc.message,
            field=str(exc.extra.get("field", "")),
            typed=_typed(request) if anchor == "settings" else None,
            status=exc.status_code,
        ),
    )


@login_required
@require_POST
def league_settings_view(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(league_id)

    def act() -> str:
        leagues.league_update(actor=request.user, league=league, **_settings_posted(request))
        return _("The settings of %(name)s are saved.") % {"name": league.name}

    return _write(request, league, act, anchor="settings")


@login_required
@require_POST
def league_event_add_view(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(league_id)

    def act() -> str:
        event = leagues.league_event_add(
            actor=request.user, league=league, tournament_id=posted_int(request, "tournament")
        )
        return _("%(event)s counts in %(name)s.") % {"event": event.tournament.name, "name": league.name}

    return _write(request, league, act, anchor="events")


@login_required
@require_POST
def league_event_remove_view(request: HttpRequest, league_id: int, tournament_id: int) -> HttpResponse:
    league = _league(league_id)

    def act() -> str:
        event = leagues.league_event_remove(actor=request.user, league=league, tournament_id=tournament_id)
        return _("%(event)s is taken out of %(name)s.") % {"event": event.tournament.name, "name": league.name}

    return _write(request, league, act, anchor="events")


class MasterClassForm(RefusingForm):
    name = forms.CharField(max_length=120, required=False, label=gettext_lazy("Name"))
    buy_in = AmountField(most_cents=MOST_CENTS, required=False, label=gettext_lazy("Buy-in to the prize pool"))
    fee = AmountField(most_cents=MOST_CENTS, required=False, label=gettext_lazy("House fee"))


@login_required
@require_POST
def master_class_view(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(league_id)
    made: list[Tournament] = []

    def act() -> str:
        data = MasterClassForm(request.POST).cleaned()
        made.append(
            leagues.master_class_invite(
                actor=request.user,
                league=league,
                name=data["name"] or None,
                buy_in_cents=data["buy_in"] or 0,
                fee_cents=data["fee"] or 0,
            )
        )
        return _("%(event)s is set up with its invited players and their stacks.") % {"event": made[0].name}

    response = _write(request, league, act, anchor="master-class")
    if made:
        return redirect("poker-room-console", tournament_id=made[0].pk)
    return response


@login_required
@require_GET
@never_cache
def league_pdf_view(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(league_id)
    if (denied := viewers_only(request)) is not None:
        return denied
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
