"""The pages of an Open-Face points tournament: the dealer's tablet of one table (the boards of a hand
typed as cards, "As Kd 7c", scored by the engine; the hand's result and the round so far; a hand voided), the
standings, and the console's buttons (a round begun, the finish).

Thin, as the other pages of the poker room: the role checked (``poker_room.pages``, ``poker_room.floor``), one
service called once per form (``casino.once.FormPage``: a double tap records once), a refusal drawn in the page with
what was typed kept and the field marked, nothing written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino.errors import ApplicationError
from casino.once import FormPage, Kept
from casino.pages import guarded_by, loaded_by
from casino.users import actor_of
from poker_room.display.views import display_token
from poker_room.floor import can_act_at_tournament_table, is_runner, require_runner_or_table_dealer
from poker_room.ofc_events import services
from poker_room.ofc_events.models import OfcHand
from poker_room.ofc_events.selectors import is_ofc, ofc_table, round_complete, tournament_standings
from poker_room.pages import FORM_SCOPE, may_view, page, posted_int, refused_page, runners_only, viewers_only
from poker_room.pure.ofc_standings import ROWS, TIE_BREAKS
from poker_room.tournaments.models import Tournament, TournamentTable
from poker_room.tournaments.views import CONSOLE, tournament_get


def _ofc_tournament(request: HttpRequest, tournament_id: int) -> tuple[Tournament, HttpResponse | None]:
    tournament = tournament_get(tournament_id)
    if not is_ofc(tournament):
        return tournament, refused_page(
            request, _("%(name)s is not an Open-Face points tournament.") % {"name": tournament.name}, status=404
        )
    return tournament, None


def _table(tournament: Tournament, number: int) -> TournamentTable:
    return get_object_or_404(TournamentTable.objects.select_related("dealer"), tournament=tournament, number=number)


def _refusal(request: HttpRequest, table: TournamentTable, *, acting: bool) -> HttpResponse | None:
    """The refusal page for whoever may not open (``acting``: act at) this table: the table's dealer and whoever
    runs the tournament act; an Auditor reads."""
    if can_act_at_tournament_table(request.user, table) or (not acting and may_view(request)):
        return None
    try:
        require_runner_or_table_dealer(
            request.user, table, action=_("enter hands at this table") if acting else _("open this table")
        )
    except ApplicationError as exc:
        return refused_page(request, exc.message, status=exc.status_code)
    return None  # pragma: no cover - the check above refuses whoever gets here


def _ofc_named(request: HttpRequest, *, tournament_id: int, **kwargs: Any) -> dict[str, Any] | HttpResponse:
    tournament, refusal = _ofc_tournament(request, tournament_id)
    return refusal or {"tournament": tournament, **kwargs}


# A view given the Open-Face tournament its address names (404, or the refusal page for another format).
at_ofc = loaded_by(_ofc_named)


def _at_table(*, acting: bool) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view given the Open-Face tournament and the table number of its address, run only for whoever may open
    (``acting``: act at) that table."""

    def load(request: HttpRequest, *, tournament_id: int, number: int) -> dict[str, Any] | HttpResponse:
        tournament, refusal = _ofc_tournament(request, tournament_id)
        if refusal is not None:
            return refusal
        table = _table(tournament, number)
        return _refusal(request, table, acting=acting) or {"tournament": tournament, "number": number}

    return loaded_by(load)


def table_url(tournament: Tournament, number: int) -> str:
    return reverse("poker-room-ofc-table", args=[tournament.pk, number])


def _typed_boards(request: HttpRequest, numbers: list[int]) -> dict[int, list[str]]:
    return {number: [request.POST.get(f"b-{number}-{row}", "")[:120] for row in ROWS] for number in numbers}


def _table_page(
    request: HttpRequest,
    tournament: Tournament,
    number: int,
    *,
    error: str = "",
    field: str = "",
    typed: dict[int, list[str]] | None = None,
    status: int = 200,
) -> HttpResponse:
    found = ofc_table(tournament, number)
    if found is None:
        return refused_page(request, _("This tournament has no table %(number)s.") % {"number": number}, status=404)
    running = tournament.status == Tournament.Status.RUNNING
    acts = can_act_at_tournament_table(request.user, found.table) and running and tournament.ofc_round >= 1
    typed = typed or {}
    players: list[dict[str, Any]] = [
        {
            "entry": entry,
            "rows": [
                {
                    "row": row,
                    "name": f"b-{entry.number}-{row}",
                    "value": (typed.get(entry.number) or ["", "", ""])[index],
                    "error": error if field == f"{entry.number}-{row}" else "",
                }
                for index, row in enumerate(ROWS)
            ],
        }
        for entry in found.players
    ]
    context = {
        "t": tournament,
        "o": found,
        "players": players,
        "acts": acts and found.next_hand is not None and len(found.players) >= 2,
        "may_void": is_runner(request.user) and running and found.last is not None,
        "error": error,
        "field_error": any(row["error"] for player in players for row in player["rows"]),
        "version_url": reverse("poker-room-screen-json", args=[display_token(tournament.pk)]),
        "to_console": may_view(request),
        "round_complete": round_complete(tournament),
    }
    return page(request, "poker_room/ofc_table.html", context, status=status)


def _table_refused(
    request: HttpRequest,
    exc: ApplicationError,
    kept: Kept,
    *,
    tournament: Tournament,
    number: int,
    marks_field: bool = False,
    **_kwargs: object,
) -> HttpResponse:
    """The table's page again (the tournament read afresh) with the refusal, the boards typed and (``marks_field``)
    the row refused marked."""
    fresh = Tournament.objects.get(pk=tournament.pk)
    field = str(exc.extra.get("field", "")) if marks_field else ""
    typed = kept.get("typed")
    return _table_page(request, fresh, number, error=exc.message, field=field, typed=typed, status=exc.status_code)


def _to_table(
    request: HttpRequest, *, tournament: Tournament, number: int, anchor: str = "", **_kwargs: object
) -> HttpResponse:
    return redirect(table_url(tournament, number) + (f"#{anchor}" if anchor else ""))


# The Open-Face table's forms on the tablet: a hand's boards scored, the latest hand voided.
OFC_TABLE = FormPage(
    scope=FORM_SCOPE,
    done=_to_table,
    refused=_table_refused,
)


@login_required
@require_GET
@never_cache
@_at_table(acting=False)
def ofc_table_view(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """One Open-Face table on the tablet: the hand to enter, the last hand's result, the round at the table."""
    return _table_page(request, tournament, number)


@login_required
@require_POST
@_at_table(acting=True)
@OFC_TABLE.acts(anchor="result", already=gettext_lazy("This hand was scored already."), marks_field=True)
def ofc_hand_view(request: HttpRequest, kept: Kept, tournament: Tournament, number: int) -> str:
    """The boards of one hand, ``b-<entry number>-<row>`` each, scored (``ofc_hand_record``)."""
    found = ofc_table(tournament, number)
    numbers = [entry.number for entry in found.players] if found is not None else []
    typed = kept["typed"] = _typed_boards(request, numbers)
    hand = services.ofc_hand_record(
        actor=actor_of(request.user),
        tournament=tournament,
        table_number=number,
        boards=typed,
        round_number=posted_int(request, "round"),  # type: ignore[arg-type]  # a text typed is refused by the service
        hand_number=posted_int(request, "hand"),  # type: ignore[arg-type]
    )
    return _("Hand %(hand)s of round %(round)s is scored.") % {"hand": hand.hand, "round": hand.round}


@login_required
@require_POST
@at_ofc
@guarded_by(runners_only)
@OFC_TABLE.acts()
def ofc_void_view(request: HttpRequest, kept: Kept, tournament: Tournament, number: int, hand_id: int) -> str:
    """The table's latest hand voided, with a reason (``ofc_hand_void``): the director or a supervisor."""
    hand = get_object_or_404(OfcHand, tournament=tournament, table_number=number, pk=hand_id)
    reason = request.POST.get("reason", "")
    voided = services.ofc_hand_void(actor=actor_of(request.user), tournament=tournament, hand=hand, reason=reason)
    return _("Hand %(hand)s is voided: enter it again.") % {"hand": voided.hand}


@login_required
@require_POST
@at_ofc
@guarded_by(runners_only)
@CONSOLE.acts(anchor="ofc", marks_field=False)
def ofc_round_view(request: HttpRequest, kept: Kept, tournament: Tournament) -> str:
    """The next round begun, its tables drawn (``ofc_round_begin``)."""
    begun = services.ofc_round_begin(actor=actor_of(request.user), tournament=tournament)
    return _("Round %(round)s has begun: the players take their new seats.") % {"round": begun.ofc_round}


@login_required
@require_POST
@at_ofc
@guarded_by(runners_only)
@CONSOLE.acts(to="poker-room-results", marks_field=False)
def ofc_finish_view(request: HttpRequest, kept: Kept, tournament: Tournament) -> str:
    """The tournament finished by the standings, everyone placed and paid (``ofc_finish``)."""
    services.ofc_finish(actor=actor_of(request.user), tournament=tournament)
    return _("%(name)s has finished: the places are the standings, the prizes are posted.") % {"name": tournament.name}


@login_required
@require_GET
@never_cache
@guarded_by(viewers_only)
@at_ofc
def ofc_standings_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The standings: points by round and in all, the tie-break figures, the places once finished."""
    lines = tournament_standings(tournament)
    context = {
        "t": tournament,
        "lines": lines,
        "rounds": list(range(1, tournament.ofc_rounds + 1)),
        "tie_breaks": TIE_BREAKS,
        "here": "ofc-standings",
        "version_url": reverse("poker-room-screen-json", args=[display_token(tournament.pk)]),
    }
    return page(request, "poker_room/ofc_standings.html", context)
