"""The heads-up pages: the bracket, the dealer's tablet for one match, and the console's "Draw the
bracket".

The match's tablet is for the dealer of the match's table and for whoever runs the tournament; an Auditor reads it.
"Hand played" counts a hand (each form is recorded once: a double tap counts one hand), "Undo last hand" takes a
mis-tap back, and "<name> won" asks to confirm before it records the winner. The page polls the tournament's version
and draws itself again when something changed elsewhere (as the table's tablet does).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino.errors import ApplicationError
from casino.once import FormPage, Kept
from casino.pages import guarded_by, loaded_by
from casino.users import actor_of
from poker_room.display.views import display_token
from poker_room.floor import can_act_at_tournament_table, entry_name, require_runner_or_table_dealer
from poker_room.heads_up import services as heads_up
from poker_room.heads_up.models import Match
from poker_room.heads_up.selectors import bracket_view, dealer_matches, match_page
from poker_room.pages import (
    FORM_SCOPE,
    may_run,
    may_view,
    page,
    posted_int,
    refused_page,
    runners_only,
    viewers_only,
)
from poker_room.tournaments.models import Tournament, TournamentTable
from poker_room.tournaments.views import CONSOLE, at_tournament, tournament_get


def match_url(tournament: Tournament, match_id: int) -> str:
    return reverse("poker-room-match", args=[tournament.pk, match_id])


def _match_table(tournament: Tournament, match_id: int) -> tuple[Match | None, TournamentTable | None]:
    match = Match.objects.filter(tournament=tournament, pk=match_id).first()
    if match is None or match.table_number is None:
        return match, None
    return match, TournamentTable.objects.filter(tournament=tournament, number=match.table_number).first()


def _refused(request: HttpRequest, table: TournamentTable | None, *, action: str) -> HttpResponse | None:
    """The refusal page for whoever may neither act at the match's table nor (``action`` empty) read the room."""
    if can_act_at_tournament_table(request.user, table) or (not action and may_view(request)):
        return None
    try:
        require_runner_or_table_dealer(request.user, table, action=action or _("open this match"))
    except ApplicationError as exc:
        return refused_page(request, exc.message, status=exc.status_code)
    return None  # pragma: no cover - the check above refuses whoever gets here


# --- the bracket --------------------------------------------------------------------------------------------------


@login_required
@require_GET
@never_cache
@guarded_by(viewers_only)
@at_tournament
def bracket_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The bracket: the groups with their standings, the knock-out rounds as columns."""
    if tournament.format != Tournament.Format.HEADS_UP:
        return refused_page(
            request, _("%(name)s is not a heads-up event: it has no bracket.") % {"name": tournament.name}, status=404
        )
    context = {
        "t": tournament,
        "here": "bracket",
        "heads_up": bracket_view(tournament),
        "version_url": reverse("poker-room-screen-json", args=[display_token(tournament.pk)]),
    }
    return page(request, "poker_room/bracket.html", context)


@login_required
@require_POST
@guarded_by(runners_only)
@at_tournament
@CONSOLE.acts(anchor="heads-up", marks_field=False)
def bracket_draw_view(request: HttpRequest, kept: Kept, tournament: Tournament) -> str:
    """Draw the bracket (``heads_up.bracket_draw``), from the console."""
    matches = heads_up.bracket_draw(actor=actor_of(request.user), tournament=tournament)
    return _("The bracket is drawn: %(count)s matches.") % {"count": len(matches)}


# --- one match on the tablet --------------------------------------------------------------------------------------


def _undoable(tournament: Tournament, match: Match) -> bool:
    """Whether the page offers "Undo the result": while the event runs, and after it for the final (the runner-up's
    bust undone reopens the event, ``heads_up.match_undo``)."""
    if tournament.status == Tournament.Status.RUNNING:
        return True
    final = match.stage == Match.Stage.KNOCKOUT and match.next_match_id is None
    return tournament.status == Tournament.Status.FINISHED and final


def _match_page(
    request: HttpRequest,
    tournament: Tournament,
    match_id: int,
    *,
    confirm: int | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    found = match_page(tournament, match_id)
    if found is None:
        return refused_page(request, _("This tournament has no such match."), status=404)
    line = found.line
    acts = (
        can_act_at_tournament_table(request.user, found.table)
        and tournament.status == Tournament.Status.RUNNING
        and line.playing
    )
    confirming = next((entry for entry in (line.a, line.b) if entry is not None and entry.pk == confirm), None)
    context = {
        "t": tournament,
        "m": found,
        "line": line,
        "acts": acts,
        "confirming": confirming if acts else None,
        "sides": [
            {"entry": line.a, "came_from": line.a_from, "seat": 1},
            {"entry": line.b, "came_from": line.b_from, "seat": 2},
        ],
        "may_undo": may_run(request) and line.decided and _undoable(tournament, line.match),
        "others": [match for match in dealer_matches(tournament, request.user) if match.pk != line.match.pk],
        "to_console": may_view(request),
        "version_url": reverse("poker-room-screen-json", args=[display_token(tournament.pk)]),
        "error": error,
    }
    return page(request, "poker_room/match.html", context, status=status)


def _match_open(request: HttpRequest, *, tournament_id: int, match_id: int) -> dict[str, Any] | HttpResponse:
    """The tournament of the address (404 if none) and its match's id, for whoever may open the match."""
    tournament = tournament_get(tournament_id)
    _match, table = _match_table(tournament, match_id)
    return _refused(request, table, action="") or {"tournament": tournament, "match_id": match_id}


@login_required
@require_GET
@never_cache
@loaded_by(_match_open)
def match_view(request: HttpRequest, tournament: Tournament, match_id: int) -> HttpResponse:
    """One match on the tablet; ``?won=<entry id>`` asks to confirm that player's win."""
    won = request.GET.get("won", "")
    return _match_page(request, tournament, match_id, confirm=int(won) if won.isdecimal() and len(won) < 12 else None)


def _match_refused(
    request: HttpRequest, exc: ApplicationError, kept: Kept, *, tournament: Tournament, match_id: int, **_kwargs: object
) -> HttpResponse:
    fresh = Tournament.objects.get(pk=tournament.pk)
    return _match_page(request, fresh, match_id, confirm=kept.get("confirm"), error=exc.message, status=exc.status_code)


# The match's forms on the tablet: a hand played or taken back, the winner, a result undone.
MATCH = FormPage(
    scope=FORM_SCOPE,
    done=lambda request, *, tournament, match_id, **_kwargs: redirect(match_url(tournament, match_id)),
    refused=_match_refused,
)


def _match_named(
    request: HttpRequest, *, tournament_id: int, match_id: int, action: str
) -> dict[str, Any] | HttpResponse:
    """The tournament and the match of the address, for whoever may record the match (``undo``: who runs the
    tournament); an action the page has not is not there (404)."""
    if action not in ("hand", "hand-undo", "decide", "undo"):
        return refused_page(request, _("This page does not exist."), status=404)
    tournament = tournament_get(tournament_id)
    match, table = _match_table(tournament, match_id)
    refusal = runners_only(request) if action == "undo" else _refused(request, table, action=_("record this match"))
    return refusal or {"tournament": tournament, "match_id": match_id, "match": match, "action": action}


@login_required
@require_POST
@loaded_by(_match_named)
@MATCH.acts()
def match_action_view(
    request: HttpRequest, kept: Kept, tournament: Tournament, match_id: int, match: Match | None, action: str
) -> str:
    """A hand played (``hand``), a hand taken back (``hand-undo``), the winner (``decide``, confirmed), or a wrong
    winner undone (``undo``, the director, with a reason)."""
    winner_id = posted_int(request, "winner")
    kept["confirm"] = winner_id if isinstance(winner_id, int) and action == "decide" else None
    if match is None:
        raise ApplicationError(_("This tournament has no such match."), extra={"field": "match"})
    user = actor_of(request.user)
    if action == "hand":
        counted = heads_up.match_hand(actor=user, tournament=tournament, match=match)
        return _("Hand %(hand)s counted.") % {"hand": counted.hands}
    if action == "hand-undo":
        counted = heads_up.match_hand_undo(actor=user, tournament=tournament, match=match)
        return _("Hand taken back: %(hands)s counted.") % {"hands": counted.hands}
    if action == "decide":
        if not isinstance(winner_id, int):
            raise ApplicationError(_("Choose the winner."), extra={"field": "winner"})
        if request.POST.get("confirm") != "yes":
            raise ApplicationError(_("Confirm the winner: tap “Yes”."), extra={"field": "confirm"})
        decided = heads_up.match_decide(actor=user, tournament=tournament, match=match, winner=winner_id)
        assert decided.winner is not None
        return _("%(winner)s won the match.") % {"winner": entry_name(decided.winner)}
    undone = heads_up.match_undo(actor=user, tournament=tournament, match=match, reason=request.POST.get("reason", ""))
    return _("The match is open again (%(match)s).") % {"match": heads_up.match_label(undone)}
