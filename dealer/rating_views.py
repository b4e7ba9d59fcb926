"""Rated players on the dealer tablet (DESIGN.md "Players and ratings"): who is rated at which seat of the
table, a break, back from it, a move to another table and seat, the end (with what the player walked with); and a
player seated, found by card number or name, or enrolled on the spot.

Privacy: a dealer sees a player's name and tier, their status and the time they have played in this session (breaks
excluded, ``players.figures.seconds_played``), never their money figures, their win or loss or their history.

Thin, as the table's money is (``dealer.money_views``, whose one-time form keys this module shares): each view checks
that the user may act at the table (anyone else gets the tablet's 403 page), reads the form, calls one service of
``players.services`` and redirects (POST-redirect-GET) with a notice. A refusal draws the page again with the
service's message in the banner and its status, marked with ``REFUSAL_HEADER``, with what was typed kept; nothing is
written. The same form sent twice from one page (a double tap, a resend after Back) is done once.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino.errors import ApplicationError, WrongState
from casino.forms import AmountField
from casino.templatetags.money import cents as _money
from dealer.money_views import _page, form_once
from players.figures import seconds_played
from players.models import Player, RatingSeat, RatingSession
from players.selectors import player_find
from players.services import (
    MOST_CENTS,
    player_create,
    session_end,
    session_move,
    session_pause,
    session_resume,
    session_start,
)
from tables.models import Table
from tables.permissions import can_act_at_table, require_act_at_table, tables_visible_to

# What a search box keeps of what was typed (a card number is at most 32 characters, a name 120).
_MOST_QUERY = 120
# A move's destination as the form sends it: "<table id>-<seat>".
_DESTINATION = re.compile(r"([0-9]{1,9})-([0-9]{1,3})")
_ID = re.compile(r"[0-9]{1,9}")
_SEAT = re.compile(r"[0-9]{1,3}")


def player_label(player: Player) -> str:
    """How the tablet names a player: their name, or "anonymous player N" (N: their number) for one without."""
    return player.name or _("anonymous player %(n)s") % {"n": player.pk}


def _duration(seconds: int) -> str:
    hours, minutes = divmod(max(0, seconds) // 60, 60)
    if hours:
        return _("%(h)d h %(m)02d min") % {"h": hours, "m": minutes}
    return _("%(m)d min") % {"m": minutes}


# --- what the pages show --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RatedSeatRow:
    """A rated seat as a dealer sees it: who (name and tier), playing or on a break, and for how long so far."""

    seat_number: int
    session: RatingSession
    name: str
    tier: str
    status: str
    status_label: str
    played: str


@dataclass(frozen=True)
class FoundPlayer:
    """A player a search found, and where they play now if they are in a session (they cannot be seated twice)."""

    player: Player
    name: str
    playing_at: str


@dataclass(frozen=True)
class Destination:
    """An open table the user may seat players at, and its seats with no rated player, each as the move form sends
    it (``"<table id>-<seat>"``) and its number."""

    table: Table
    seats: list[tuple[str, int]]


def rated_seats(table: Table, *, now: dt.datetime | None = None) -> list[RatedSeatRow]:
    """The table's rated seats now, by seat: one query."""
    now = now or timezone.now()
    seats = (
        RatingSeat.objects.filter(table=table, ended_at__isnull=True)
        .select_related("session", "session__player")
        .order_by("seat_number")
    )
    return [
        RatedSeatRow(
            seat_number=seat.seat_number,
            session=seat.session,
            name=player_label(seat.session.player),
            tier=seat.session.player.tier,
            status=seat.session.status,
            status_label=seat.session.get_status_display(),
            played=_duration(seconds_played(seat.session, now)),
        )
        for seat in seats
    ]


def _free_seats(table: Table, rated: list[RatedSeatRow]) -> list[int]:
    taken = {row.seat_number for row in rated}
    return [n for n in range(1, table.seat_count + 1) if n not in taken]


def _destinations(request: HttpRequest) -> list[Destination]:
    """The open tables the user may seat a player at (their own for a dealer, any for a supervisor), each with its
    seats free of a rated player: two queries."""
    open_tables = tables_visible_to(request.user).filter(status=Table.Status.OPEN)
    tables = [table for table in open_tables if can_act_at_table(request.user, table)]
    taken = set(
        RatingSeat.objects.filter(table__in=tables, ended_at__isnull=True).values_list("table_id", "seat_number")
    )
    return [
        Destination(
            table, [(f"{table.pk}-{n}", n) for n in range(1, table.seat_count + 1) if (table.pk, n) not in taken]
        )
        for table in tables
    ]


def _found(query: str) -> list[FoundPlayer]:
    """What a search finds (``player_find``), each with where they are seated now if in a session: two queries."""
    players = player_find(query=query)
    seated = {
        seat.session.player_id: seat
        for seat in RatingSeat.objects.filter(session__player__in=players, ended_at__isnull=True).select_related(
            "table", "session"
        )
    }
    found = []
    for player in players:
        seat = seated.get(player.pk)
        where = ""
        if seat is not None:
            where = _("in a session at %(table)s, seat %(seat)s") % {"table": seat.table.name, "seat": seat.seat_number}
        found.append(FoundPlayer(player, player_label(player), where))
    return found


# --- reading the forms ----------------------------------------------------------------------------------


class _AmountForm(forms.Form):
    amount = AmountField(most_cents=MOST_CENTS, required=False)


def _amount(text: str, *, field: str) -> int | None:
    """An optional amount of money as typed ("250" or "250.50"), in cents; None when left empty."""
    form = _AmountForm({"amount": text})
    if not form.is_valid():
        raise ApplicationError(str(form.errors["amount"][0]), extra={"field": field})
    amount: int | None = form.cleaned_data["amount"]
    return amount


def _seat(text: str) -> int:
    if not text.strip():
        raise ApplicationError(_("Tap the seat the player sits at."), extra={"field": "seat"})
    if not _SEAT.fullmatch(text.strip()):
        raise ApplicationError(
            _("A seat is a number, not %(text)s.") % {"text": repr(text)[:30]}, extra={"field": "seat"}
        )
    return int(text)


def _typed(request: HttpRequest, *names: str) -> dict[str, str]:
    return {name: request.POST.get(name, "")[:_MOST_QUERY] for name in names}


# --- who may, and the page ------------------------------------------------------------------------------


def _table(table_id: int) -> Table:
    return get_object_or_404(Table.objects.select_related("pit", "rule_set", "dealer"), pk=table_id)


def _forbidden(request: HttpRequest, table: Table) -> HttpResponse | None:
    """The tablet's 403 page for anyone who may not act at ``table``; None for whoever may."""
    try:
        require_act_at_table(request.user, table, action=_("rate players at this table"))
    except ApplicationError as exc:
        return render(request, "dealer/forbidden.html", {"message": exc.message}, status=exc.status_code)
    return None


def _post(
    request: HttpRequest, table: Table, act: Callable[[], str], refused: Callable[[ApplicationError], HttpResponse]
) -> HttpResponse:
    """Run one service once; redirect to the players page with its notice, or draw the refusal with what was typed."""
    return form_once(
        request,
        done=redirect("dealer-players", table_id=table.pk),
        already=_("This form was already sent: it is done once."),
        act=act,
        refused=refused,
    )


def _players_page(
    request: HttpRequest,
    table: Table,
    *,
    query: str = "",
    status: int = 200,
    error: str = "",
    seat_form: Mapping[str, str] | None = None,
    enrol: Mapping[str, str] | None = None,
    session_form: Mapping[str, str] | None = None,
) -> HttpResponse:
    rated = rated_seats(table)
    query = " ".join(query.split())[:_MOST_QUERY]
    found = _found(query) if query else []
    seat_form = dict(seat_form or {})
    if "player" not in seat_form and len(found) == 1 and not found[0].playing_at:
        seat_form["player"] = str(found[0].player.pk)  # a card swiped: the one player found is picked
    enrol = dict(enrol or {})
    if not enrol and query and not found:  # nobody found: what was typed starts the enrolment
        enrol = {"card_number": query} if not re.search(r"[^\W\d_]", query) else {"name": query}
    context = {
        "table": table,
        "rated": rated,
        "seats": [str(n) for n in _free_seats(table, rated)],
        "destinations": _destinations(request) if rated else [],
        "query": query,
        "found": found,
        "seat_form": seat_form,
        "enrol": enrol,
        "enrol_open": bool(enrol) or (bool(query) and not found),
        "session_form": session_form or {},
        "tiers": list(settings.TABLESIDE_PLAYER_TIERS),
        "error": error,
    }
    return _page(request, "dealer/rating.html", context, status=status)


@login_required
@require_GET
@never_cache
def players_view(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table's rated seats and what a dealer does with them; ``?q=`` searches for a player to seat."""
    table = _table(table_id)
    if (denied := _forbidden(request, table)) is not None:
        return denied
    return _players_page(request, table, query=request.GET.get("q", ""))


# --- seating a player: one found, or one enrolled here --------------------------------------------------


def _seat_player(request: HttpRequest, table: Table, player: Player, seat: int, chips_cents: int) -> str:
    session = session_start(actor=request.user, player=player, table=table, seat=seat, chips_cents=chips_cents)
    notice = _("%(player)s (%(tier)s) is rated at seat %(seat)s.") % {
        "player": player_label(player),
        "tier": player.tier,
        "seat": seat,
    }
    if session.chips_in_cents:
        notice += " " + _("Chips brought: %(amount)s.") % {"amount": _money(session.chips_in_cents)}
    return notice


@login_required
@require_POST
def seat_view(request: HttpRequest, table_id: int) -> HttpResponse:
    """Seat a player the search found (``session_start``) at a free seat, with the chips they brought, if any."""
    table = _table(table_id)
    if (denied := _forbidden(request, table)) is not None:
        return denied
    typed = _typed(request, "q", "player", "seat", "chips")

    def act() -> str:
        if not _ID.fullmatch(typed["player"].strip()):
            raise ApplicationError(_("Tap the player to seat (search for them first)."), extra={"field": "player"})
        player = Player.objects.filter(pk=int(typed["player"])).first()
        if player is None:
            raise ApplicationError(_("That player is not enrolled: search again."), extra={"field": "player"})
        seat = _seat(typed["seat"])
        chips = _amount(typed["chips"], field="chips") or 0
        return _seat_player(request, table, player, seat, chips)

    def refused(exc: ApplicationError) -> HttpResponse:
        return _players_page(
            request, table, query=typed["q"], status=exc.status_code, error=exc.message, seat_form=typed
        )

    return _post(request, table, act, refused)


@login_required
@require_POST
def enrol_view(request: HttpRequest, table_id: int) -> HttpResponse:
    """Enrol a new player (``player_create``: name, card number if any, tier; or anonymous with a tier) and seat them
    (``session_start``), the two in one transaction: a refused seat enrols nobody."""
    table = _table(table_id)
    if (denied := _forbidden(request, table)) is not None:
        return denied
    typed = _typed(request, "name", "card_number", "tier", "anonymous", "seat", "chips")

    def act() -> str:
        if not typed["tier"]:
            raise ApplicationError(_("Tap the player's tier."), extra={"field": "tier"})
        seat = _seat(typed["seat"])
        chips = _amount(typed["chips"], field="chips") or 0
        with transaction.atomic():
            player = player_create(
                actor=request.user,
                tier=typed["tier"],
                name=typed["name"],
                card_number=typed["card_number"],
                anonymous=bool(typed["anonymous"]),
            )
            return _("Enrolled.") + " " + _seat_player(request, table, player, seat, chips)

    def refused(exc: ApplicationError) -> HttpResponse:
        return _players_page(request, table, status=exc.status_code, error=exc.message, enrol=typed)

    return _post(request, table, act, refused)


# --- a rated seat: a break, back, a move, the end -------------------------------------------------------


def _session(session_id: int) -> RatingSession:
    return get_object_or_404(RatingSession.objects.select_related("player"), pk=session_id)


def _here(session: RatingSession, table: Table) -> int:
    """The seat ``session`` holds at ``table`` now; refused when the page was out of date (the player moved or left
    meanwhile)."""
    seat = RatingSeat.objects.filter(session=session, table=table, ended_at__isnull=True).first()
    if seat is None:  # the player is not named: the session may be anyone's, anywhere
        raise WrongState(
            _("That player is not rated at table %(table)s now: the page was out of date.") % {"table": table.name}
        )
    return seat.seat_number


def _session_post(
    request: HttpRequest,
    table: Table,
    session: RatingSession,
    act: Callable[[], str],
    typed: Mapping[str, str] | None = None,
) -> HttpResponse:
    def refused(exc: ApplicationError) -> HttpResponse:
        form = {"session": str(session.pk), **(typed or {})}
        return _players_page(request, table, status=exc.status_code, error=exc.message, session_form=form)

    return _post(request, table, act, refused)


@login_required
@require_POST
def pause_view(request: HttpRequest, table_id: int, session_id: int) -> HttpResponse:
    """The player takes a break (``session_pause``): their clock stops, the seat stays theirs."""
    table = _table(table_id)
    if (denied := _forbidden(request, table)) is not None:
        return denied
    session = _session(session_id)

    def act() -> str:
        seat = _here(session, table)
        session_pause(actor=request.user, session=session)
        return _("%(player)s at seat %(seat)s is on a break.") % {"player": player_label(session.player), "seat": seat}

    return _session_post(request, table, session, act)


@login_required
@require_POST
def resume_view(request: HttpRequest, table_id: int, session_id: int) -> HttpResponse:
    """The player is back from their break (``session_resume``): their clock runs again."""
    table = _table(table_id)
    if (denied := _forbidden(request, table)) is not None:
        return denied
    session = _session(session_id)

    def act() -> str:
        seat = _here(session, table)
        session_resume(actor=request.user, session=session)
        return _("%(player)s at seat %(seat)s is back.") % {"player": player_label(session.player), "seat": seat}

    return _session_post(request, table, session, act)


@login_required
@require_POST
def move_view(request: HttpRequest, table_id: int, session_id: int) -> HttpResponse:
    """The player moves to another seat, here or at another open table (``session_move``): one session goes on."""
    table = _table(table_id)
    if (denied := _forbidden(request, table)) is not None:
        return denied
    session = _session(session_id)
    typed = {"kind": "move", **_typed(request, "to")}

    def act() -> str:
        _here(session, table)
        match = _DESTINATION.fullmatch(typed["to"].strip())
        if match is None:
            raise ApplicationError(_("Choose the table and the seat the player moves to."), extra={"field": "to"})
        to = Table.objects.filter(pk=int(match[1])).first()
        if to is None:
            raise ApplicationError(_("That table is not on the floor: choose another."), extra={"field": "to"})
        seat = int(match[2])
        session_move(actor=request.user, session=session, table=to, seat=seat)
        return _("%(player)s moves to table %(table)s, seat %(seat)s.") % {
            "player": player_label(session.player),
            "table": to.name,
            "seat": seat,
        }

    return _session_post(request, table, session, act, typed)


@login_required
@require_POST
def end_view(request: HttpRequest, table_id: int, session_id: int) -> HttpResponse:
    """The player leaves (``session_end``), with what they walked with if the dealer says (e.g. "250.50")."""
    table = _table(table_id)
    if (denied := _forbidden(request, table)) is not None:
        return denied
    session = _session(session_id)
    typed = {"kind": "end", **_typed(request, "walk_with")}

    def act() -> str:
        seat = _here(session, table)
        walk_with = _amount(typed["walk_with"], field="walk_with")
        session_end(actor=request.user, session=session, walk_with_cents=walk_with)
        values = {"player": player_label(session.player), "seat": seat}
        if walk_with is None:
            return _("%(player)s leaves seat %(seat)s: the session has ended.") % values
        return _("%(player)s leaves seat %(seat)s with %(amount)s: the session has ended.") % {
            **values,
            "amount": _money(walk_with),
        }

    return _session_post(request, table, session, act, typed)
