"""A tournament table on the dealer's tablet, where the dealer records eliminations and sees the seat changes
touching the table.

For the Dealer put on that table (``TournamentTable.dealer``) and for whoever runs the tournament; an Auditor reads it;
a Dealer of another table gets the refusal page, which says whose table it is (``poker_room.floor``). The page shows
the table's seats with the players and, in a knock-out, the bounty on each head; the button, moved one seat on with
one tap after each hand; a bust, in two steps (the seat tapped, then "Yes, out" with who knocked the player out), so a
mis-tap busts nobody; and, at the top, the seat changes touching this table.

Which seat changes: there is no acknowledgement to store, so the page shows the changes touching the table since the
latest bust in the tournament (the balancing a bust causes comes with it), or every change since the start (the draw
and the late entries) before the first bust. They stay until the next bust anywhere, which is when the dealer has
seated the players. The page polls the room display's version (the signed JSON address, as the room's TV does) and
draws itself again when the tournament changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino.errors import ApplicationError
from casino.once import FormPage, Kept
from casino.pages import loaded_by
from casino.users import actor_of
from poker_room.display.views import display_token
from poker_room.floor import can_act_at_tournament_table, entry_name, require_runner_or_table_dealer
from poker_room.heads_up.selectors import match_at_table
from poker_room.pages import FORM_SCOPE, may_run, may_view, page, posted_int, refused_page
from poker_room.tournaments import clock_services, services
from poker_room.tournaments.models import Entry, Tournament, TournamentTable
from poker_room.tournaments.table_selectors import dealer_table
from poker_room.tournaments.views import CONSOLE, bust_notice, tournament_get


def _table(tournament: Tournament, number: int) -> TournamentTable:
    return get_object_or_404(TournamentTable.objects.select_related("dealer"), tournament=tournament, number=number)


def _refusal(request: HttpRequest, table: TournamentTable, *, acting: bool) -> HttpResponse | None:
    """The refusal page for anyone who may neither act at this table nor (``acting``: only act) read the poker room;
    None for whoever may."""
    if can_act_at_tournament_table(request.user, table) or (not acting and may_view(request)):
        return None
    action = _("record what happens at this table") if acting else _("open this table")
    try:
        require_runner_or_table_dealer(request.user, table, action=action)
    except ApplicationError as exc:
        return refused_page(request, exc.message, status=exc.status_code)
    return None  # pragma: no cover - the check above refuses whoever gets here


def _at_table(*, acting: bool) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view given the tournament and the table number of its address (404 if either is not there), run only for
    whoever may act at that table (``acting``) or may open it."""

    def load(request: HttpRequest, *, tournament_id: int, number: int) -> dict[str, Any] | HttpResponse:
        tournament = tournament_get(tournament_id)
        table = _table(tournament, number)
        return _refusal(request, table, acting=acting) or {"tournament": tournament, "number": number}

    return loaded_by(load)


def table_url(tournament: Tournament, number: int) -> str:
    return reverse("poker-room-table", args=[tournament.pk, number])


def _table_page(
    request: HttpRequest,
    tournament: Tournament,
    number: int,
    *,
    bust: int | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    found = dealer_table(tournament, number)
    if found is None:
        return refused_page(request, _("This tournament has no table %(number)s.") % {"number": number}, status=404)
    acts = can_act_at_tournament_table(request.user, found.table.table)
    busting = next((seat.entry for seat in found.table.seats if seat.entry is not None and seat.entry.pk == bust), None)
    context = {
        "t": tournament,
        "d": found,
        "board": found.board,
        "clock": found.board.clock,
        "acts": acts and tournament.status == Tournament.Status.RUNNING,
        "may_hand": may_run(request) and tournament.status == Tournament.Status.RUNNING,
        "busting": busting if acts else None,
        "mates": [seat.entry for seat in found.table.seats if seat.entry is not None and seat.entry != busting],
        "version_url": reverse("poker-room-screen-json", args=[display_token(tournament.pk)]),
        "to_console": may_view(request),
        "error": error,
    }
    return page(request, "poker_room/table.html", context, status=status)


def _table_refused(
    request: HttpRequest, exc: ApplicationError, kept: Kept, *, tournament: Tournament, number: int
) -> HttpResponse:
    fresh = Tournament.objects.get(pk=tournament.pk)
    return _table_page(request, fresh, number, bust=kept.get("bust"), error=exc.message, status=exc.status_code)


# The table's forms on the tablet: a bust, the button, a hand played.
TABLE = FormPage(
    scope=FORM_SCOPE,
    done=lambda request, *, tournament, number: redirect(table_url(tournament, number)),
    refused=_table_refused,
)


@login_required
@require_GET
@never_cache
@_at_table(acting=False)
def table_view(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """The tournament table on the tablet; ``?bust=<entry id>`` draws the bust's confirmation for that player."""
    # An Open-Face table's hands and a heads-up match are entered on their own tablets; a heads-up table
    # with no match at it shows its empty seats and refreshes until the next match is sent there.
    if tournament.format == Tournament.Format.OFC_POINTS:
        return redirect("poker-room-ofc-table", tournament_id=tournament.pk, number=number)
    if tournament.format == Tournament.Format.HEADS_UP and (match := match_at_table(tournament, number)) is not None:
        return redirect("poker-room-match", tournament_id=tournament.pk, match_id=match.pk)
    bust = request.GET.get("bust", "")
    return _table_page(request, tournament, number, bust=int(bust) if bust.isdecimal() and len(bust) < 12 else None)


@login_required
@require_POST
@_at_table(acting=True)
@TABLE.acts()
def table_bust_view(request: HttpRequest, kept: Kept, tournament: Tournament, number: int) -> str:
    """A player at this table is out, once confirmed (``confirm=yes``), with who knocked them out
    (``entry_eliminate``)."""
    entry_id = posted_int(request, "entry")
    kept["bust"] = entry_id if isinstance(entry_id, int) else None
    # Who knocked the player out: a player of this table (the seat tapped), else one chosen from the other tables.
    by_id = posted_int(request, "eliminated_by")
    if by_id is None:
        by_id = posted_int(request, "eliminated_by_other")
    entry = (
        Entry.objects.filter(tournament=tournament, pk=entry_id, table_number=number).first()
        if isinstance(entry_id, int)
        else None
    )
    if entry is None:
        raise ApplicationError(
            _("Choose a player sitting at table %(number)s.") % {"number": number}, extra={"field": "entry"}
        )
    if request.POST.get("confirm") != "yes":
        raise ApplicationError(
            _("Confirm the bust of %(entry)s: tap “Yes, out”.") % {"entry": entry_name(entry)},
            extra={"field": "confirm"},
        )
    by = None
    if by_id is not None:
        by = Entry.objects.filter(tournament=tournament, pk=by_id).first() if isinstance(by_id, int) else None
        if by is None:
            raise ApplicationError(_("Choose who knocked the player out."), extra={"field": "eliminated_by"})
    elimination = services.entry_eliminate(
        actor=actor_of(request.user), tournament=tournament, entry=entry, eliminated_by=by
    )
    return bust_notice(elimination)


@login_required
@require_POST
@_at_table(acting=True)
def table_button_view(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """The button on a seat (``table_button_set``): the next player's after a hand, or a seat chosen; from the
    console (``back=console``) or the table."""
    if request.POST.get("back", "") == "console":
        return _button_from_console(request, tournament=tournament, number=number)
    return _button_from_table(request, tournament=tournament, number=number)


def _button_set(request: HttpRequest, kept: Kept, tournament: Tournament, number: int) -> str:
    seat = posted_int(request, "seat")
    services.table_button_set(actor=actor_of(request.user), tournament=tournament, table_number=number, seat=seat)  # type: ignore[arg-type]  # text typed: the service refuses it
    return _("The button is on seat %(seat)s.") % {"seat": seat}


_button_from_table = TABLE.acts()(_button_set)
_button_from_console = CONSOLE.acts(anchor="table-{number}", marks_field=False)(_button_set)


@login_required
@require_POST
@_at_table(acting=True)
@TABLE.acts()
def table_hand_view(request: HttpRequest, kept: Kept, tournament: Tournament, number: int) -> str:
    """A hand played, in a level counted in hands (``clock_hand``)."""
    clock_services.clock_hand(actor=actor_of(request.user), tournament=tournament)
    return _("A hand is counted.")
