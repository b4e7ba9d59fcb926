"""Rated players on the dealer tablet (DESIGN.md "Players and ratings"): who is rated at which seat of the
table, a break, back from it, a move to another table and seat, the end (with what the player walked with); and a
player seated, found by card number or name, or enrolled on the spot.

Privacy: a dealer sees a player's name and tier, their status and the time they have played in this session (breaks
excluded, ``players.figures.seconds_played``), never their money figures, their win or loss or their history.

Thin, as the table's money is (``dealer.money_views``; both pages' shared parts are ``dealer.table_pages``): each view
acts at a table the user may act at (anyone else gets the tablet's 403 page), reads the form, calls one service of
``players.services`` and redirects (POST-redirect-GET) with a notice (``casino.once.FormPage``). A refusal draws the
page again with the service's message in the banner and its status, marked with ``REFUSAL_HEADER``, with what was
typed kept; nothing is written. The same form sent twice from one page (a double tap, a resend after Back) is done once.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino.errors import ApplicationError, WrongState
from casino.once import FormPage, Kept
from casino.templatetags.money import cents as _money
from casino.users import actor_of
from dealer.table_pages import FORM_SCOPE, amount_typed, at_table, page
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
from players.tier_names import tier_name
from tables.models import Table
from tables.permissions import can_act_at_table, tables_visible_to

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


def _amount(text: str, *, field: str) -> int | None:
    """An optional amount of money as typed ("250" or "250.50"), in cents; None when left empty."""
    return amount_typed(text, field=field, most_cents=MOST_CENTS)


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


# --- the page and its forms ----------------------------------------------------------------------------


def _to_players(request: HttpRequest, *, table: Table, **_kwargs: object) -> HttpResponse:
    return redirect("dealer-players", table_id=table.pk)


def _players_refused(
    request: HttpRequest, exc: ApplicationError, kept: Kept, *, table: Table, **_kwargs: object
) -> HttpResponse:
    return _players_page(request, table, status=exc.status_code, error=exc.message, **kept)


# The players page's forms: a player seated or enrolled, a break, back, a move, the end.
PLAYERS = FormPage(
    scope=FORM_SCOPE,
    done=_to_players,
    refused=_players_refused,
    already=gettext_lazy("This form was already sent: it is done once."),
)
_RATING_ACTION = gettext_lazy("rate players at this table")


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
    return page(request, "dealer/rating.html", context, status=status)


@login_required
@require_GET
@never_cache
@at_table(_RATING_ACTION)
def players_view(request: HttpRequest, table: Table) -> HttpResponse:
    """The table's rated seats and what a dealer does with them; ``?q=`` searches for a player to seat."""
    return _players_page(request, table, query=request.GET.get("q", ""))


# --- seating a player: one found, or one enrolled here --------------------------------------------------


def _seat_player(request: HttpRequest, table: Table, player: Player, seat: int, chips_cents: int) -> str:
    session = session_start(
        actor=actor_of(request.user), player=player, table=table, seat=seat, chips_cents=chips_cents
    )
    notice = _("%(player)s (%(tier)s) is rated at seat %(seat)s.") % {
        "player": player_label(player),
        "tier": tier_name(player.tier),
        "seat": seat,
    }
    if session.chips_in_cents:
        notice += " " + _("Chips brought: %(amount)s.") % {"amount": _money(session.chips_in_cents)}
    return notice


@login_required
@require_POST
@at_table(_RATING_ACTION)
@PLAYERS.acts()
def seat_view(request: HttpRequest, kept: Kept, table: Table) -> str:
    """Seat a player the search found (``session_start``) at a free seat, with the chips they brought, if any."""
    typed = _typed(request, "q", "player", "seat", "chips")
    kept.update(query=typed["q"], seat_form=typed)
    if not _ID.fullmatch(typed["player"].strip()):
        raise ApplicationError(_("Tap the player to seat (search for them first)."), extra={"field": "player"})
    player = Player.objects.filter(pk=int(typed["player"])).first()
    if player is None:
        raise ApplicationError(_("That player is not enrolled: search again."), extra={"field": "player"})
    seat = _seat(typed["seat"])
    chips = _amount(typed["chips"], field="chips") or 0
    return _seat_player(request, table, player, seat, chips)


@login_required
@require_POST
@at_table(_RATING_ACTION)
@PLAYERS.acts()
def enrol_view(request: HttpRequest, kept: Kept, table: Table) -> str:
    """Enrol a new player (``player_create``: name, card number if any, tier; or anonymous with a tier) and seat them
    (``session_start``), the two in one transaction: a refused seat enrols nobody."""
    typed = kept["enrol"] = _typed(request, "name", "card_number", "tier", "anonymous", "seat", "chips")
    if not typed["tier"]:
        raise ApplicationError(_("Tap the player's tier."), extra={"field": "tier"})
    seat = _seat(typed["seat"])
    chips = _amount(typed["chips"], field="chips") or 0
    with transaction.atomic():
        player = player_create(
            actor=actor_of(request.user),
            tier=typed["tier"],
            name=typed["name"],
            card_number=typed["card_number"],
            anonymous=bool(typed["anonymous"]),
        )
        return _("Enrolled.") + " " + _seat_player(request, table, player, seat, chips)


# --- a rated seat: a break, back, a move, the end -------------------------------------------------------


def _session(session_id: int, kept: Kept, typed: Mapping[str, str] | None = None) -> RatingSession:
    """The session the address names (404 if none); its refusal keeps it, and what was typed, in the session's form."""
    session = get_object_or_404(RatingSession.objects.select_related("player"), pk=session_id)
    kept["session_form"] = {"session": str(session.pk), **(typed or {})}
    return session


def _here(session: RatingSession, table: Table) -> int:
    """The seat ``session`` holds at ``table`` now; refused when the page was out of date (the player moved or left
    meanwhile)."""
    seat = RatingSeat.objects.filter(session=session, table=table, ended_at__isnull=True).first()
    if seat is None:  # the player is not named: the session may be anyone's, anywhere
        raise WrongState(
            _("That player is not rated at table %(table)s now: the page was out of date.") % {"table": table.name}
        )
    return seat.seat_number


@login_required
@require_POST
@at_table(_RATING_ACTION)
@PLAYERS.acts()
def pause_view(request: HttpRequest, kept: Kept, table: Table, session_id: int) -> str:
    """The player takes a break (``session_pause``): their clock stops, the seat stays theirs."""
    session = _session(session_id, kept)
    seat = _here(session, table)
    session_pause(actor=actor_of(request.user), session=session)
    return _("%(player)s at seat %(seat)s is on a break.") % {"player": player_label(session.player), "seat": seat}


@login_required
@require_POST
@at_table(_RATING_ACTION)
@PLAYERS.acts()
def resume_view(request: HttpRequest, kept: Kept, table: Table, session_id: int) -> str:
    """The player is back from their break (``session_resume``): their clock runs again."""
    session = _session(session_id, kept)
    seat = _here(session, table)
    session_resume(actor=actor_of(request.user), session=session)
    return _("%(player)s at seat %(seat)s is back.") % {"player": player_label(session.player), "seat": seat}


@login_required
@require_POST
@at_table(_RATING_ACTION)
@PLAYERS.acts()
def move_view(request: HttpRequest, kept: Kept, table: Table, session_id: int) -> str:
    """The player moves to another seat, here or at another open table (``session_move``): one session goes on."""
    typed = {"kind": "move", **_typed(request, "to")}
    session = _session(session_id, kept, typed)
    _here(session, table)
    match = _DESTINATION.fullmatch(typed["to"].strip())
    if match is None:
        raise ApplicationError(_("Choose the table and the seat the player moves to."), extra={"field": "to"})
    to = Table.objects.filter(pk=int(match[1])).first()
    if to is None:
        raise ApplicationError(_("That table is not on the floor: choose another."), extra={"field": "to"})
    seat = int(match[2])
    session_move(actor=actor_of(request.user), session=session, table=to, seat=seat)
    return _("%(player)s moves to table %(table)s, seat %(seat)s.") % {
        "player": player_label(session.player),
        "table": to.name,
        "seat": seat,
    }


@login_required
@require_POST
@at_table(_RATING_ACTION)
@PLAYERS.acts()
def end_view(request: HttpRequest, kept: Kept, table: Table, session_id: int) -> str:
    """The player leaves (``session_end``), with what they walked with if the dealer says (e.g. "250.50")."""
    typed = {"kind": "end", **_typed(request, "walk_with")}
    session = _session(session_id, kept, typed)
    seat = _here(session, table)
    walk_with = _amount(typed["walk_with"], field="walk_with")
    session_end(actor=actor_of(request.user), session=session, walk_with_cents=walk_with)
    values = {"player": player_label(session.player), "seat": seat}
    if walk_with is None:
        return _("%(player)s leaves seat %(seat)s: the session has ended.") % values
    return _("%(player)s leaves seat %(seat)s with %(amount)s: the session has ended.") % {
        **values,
        "amount": _money(walk_with),
    }
