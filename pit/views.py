"""HTML pages of the floor and the pit-boss dashboard: thin, one selector or one service each."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from typing import Any, Protocol
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.errors import ApplicationError
from casino.models import Pit
from casino.pages import HtmxHttpRequest
from casino.roles import OVERSEERS, SUPERVISORS, Role, user_has_role, user_roles
from casino.selectors import audit_events_recent, shift_current
from casino.users import actor_of
from pit.corrections import correction_form, correction_hands, correction_review
from pit.dashboard_rows import PitDashboard
from pit.history import table_round_history
from pit.selectors import pit_dashboard, pits_with_tables
from poker_room.tournaments.selectors import running_tournaments
from rounds.models import Adjustment
from rounds.selectors import adjustment_get, round_queryset
from rounds.services import four_eyes_required
from settlement.services import adjustment_approve, adjustment_reject, correction_submit
from tables.live import tables_changed_since, tables_position
from tables.models import Table

# Who sees the pit (auditors read only), and who acts on its alerts.
PIT_VIEWERS: tuple[Role, ...] = OVERSEERS
PIT_DECIDERS: tuple[Role, ...] = SUPERVISORS


def _may(request: HttpRequest, roles: tuple[Role, ...]) -> bool:
    return bool(request.user.is_superuser or user_has_role(request.user, *roles))


def _require(request: HttpRequest, roles: tuple[Role, ...]) -> None:
    if not _may(request, roles):
        raise PermissionDenied


@login_required
def floor(request: HttpRequest) -> HttpResponse:
    """The floor at a glance: the open shift, every pit and table, the newest audit events.

    A Dealer (who is neither supervisor nor auditor) goes straight to the tablet: their table; a Cage cashier to the
    cage's queue, a member of the Count team to the count room, the Tournament director to the poker room, a
    Credit manager to the markers outstanding; a Pit boss
    or Floor supervisor to the pit's dashboard, where their work is. The auditor and the superuser see the floor.
    """
    if user_has_role(request.user, *PIT_DECIDERS) and not request.user.is_superuser:
        return redirect("pit-dashboard")
    if user_has_role(request.user, Role.DEALER) and not _may(request, PIT_VIEWERS):
        return redirect("dealer-home")
    for role, page in (
        (Role.CAGE_CASHIER, "cage"),
        (Role.COUNT_TEAM, "count"),
        (Role.TOURNAMENT_DIRECTOR, "poker-room"),
        (Role.CREDIT_MANAGER, "cage-markers"),
    ):
        if user_has_role(request.user, role) and not _may(request, PIT_VIEWERS):
            return redirect(page)
    return render(
        request,
        "pit/floor.html",
        {
            "shift": shift_current(),
            "pits": pits_with_tables(),
            "events": audit_events_recent(limit=10),
            "roles": sorted(role.value for role in user_roles(request.user)),
        },
    )


def _pit_shown(request: HttpRequest) -> int | None:
    """The pit the dashboard is narrowed to (``?pit=<id>``), or None for the whole floor (also for a value that is
    not a pit's number)."""
    given = request.GET.get("pit", "") or request.POST.get("pit", "")
    return int(given) if given.isdigit() and len(given) < 10 else None


def _lists_drawn(board: PitDashboard, tournaments: list[Any]) -> str:
    """A short fingerprint of what the dashboard's lists show (its alerts, the slips pending, the poker room): the
    refresh sends them again only when it differs from the one the page drew. The slips' waiting times move with
    the minute; the poker room's clocks with every refresh."""
    shown = (
        [(a.pk, a.status) for a in board.pending],
        [(w.table_id, w.round_number, w.seat, w.won_cents) for w in board.big_wins],
        board.big_wins_more,
        [(b.table_id, b.seat, b.in_a_row) for b in board.bank_must_pass],
        [(d.table_id, d.counted_at.isoformat(), d.confirmed, d.level, d.counted_cents) for d in board.discrepancies],
        [(s.table_id, s.kind, s.number, s.status) for s in board.slips],
        board.now.replace(second=0, microsecond=0).isoformat() if board.slips else "",
        [(line.table.pk, seat.session_id, repr(seat.figures)) for line, seat in board.rated_alerts],
        [(line.table.pk, repr(line.hold)) for line in board.hold_alerts],
        board.now.isoformat() if tournaments else "",
    )
    return hashlib.sha256(repr(shown).encode()).hexdigest()[:16]


def _poll(board: PitDashboard, position: str | None, pit_id: int | None, lists: str) -> str:
    """The query the live part's poll sends back: where the floor's log stood when this was drawn, the shift and the
    number of tables it drew (another shift or another count: everything is drawn again), its lists' fingerprint,
    and the pit."""
    shown = {"shift": board.shift.pk if board.shift else 0, "tables": len(board.lines), "lists": lists}
    return urlencode(
        {**({"since": position} if position else {}), **shown, **({"pit": pit_id} if pit_id is not None else {})}
    )


def _live_context(request: HttpRequest, *, position: str | None = None) -> dict[str, object]:
    # ``four_eyes``: a supervisor's own requests wait for another supervisor (shown without an Approve button).
    # ``tournaments``: the poker room's running tournaments, one panel above the tables.
    # ``position``: where the floor's log of changed tables stood before the board was read (read first: a change
    # committing meanwhile is sent again at the next poll, never lost).
    pit_id = _pit_shown(request)
    position = position if position is not None else tables_position()
    board = pit_dashboard(pit_id=pit_id, position=position)
    tournaments = running_tournaments()
    lists = _lists_drawn(board, list(tournaments))
    return {
        "board": board,
        "can_decide": _may(request, PIT_DECIDERS),
        "four_eyes": four_eyes_required(),
        "tournaments": tournaments,
        "poll": _poll(board, position, pit_id, lists),
        "pit_shown": pit_id,
        "lists": lists,
    }


@login_required
@require_GET
def pit(request: HttpRequest) -> HttpResponse:
    """The pit-boss dashboard: every table's shift figures and the alerts (``?pit=`` narrows it to one pit); its
    live part refreshes itself."""
    _require(request, PIT_VIEWERS)
    context = _live_context(request)
    board = context["board"]
    assert isinstance(board, PitDashboard)
    # The pits to narrow it to: the floor's drawn already name them; a narrowed one reads them.
    pits = (
        list(dict.fromkeys((line.table.pit_id, line.table.pit.name) for line in board.lines))
        if context["pit_shown"] is None
        else list(Pit.objects.order_by("name").values_list("pk", "name"))
    )
    return render(request, "pit/pit.html", {**context, "pits": pits})


@login_required
@require_GET
def pit_live(request: HttpRequest) -> HttpResponse:
    """The dashboard's live part, which htmx asks for every few seconds with where the floor stood when it last
    drew (``since``): the head and the rows of the tables changed since, when that can be told (Redis keeps the
    floor's log of changed tables); everything otherwise."""
    _require(request, PIT_VIEWERS)
    since = request.GET.get("since", "")
    changed = tables_changed_since(since) if since else None
    if changed is None:
        return _whole_live_part(request, _live_context(request))
    position, tables = changed
    context = _live_context(request, position=position)
    board = context["board"]
    assert isinstance(board, PitDashboard)
    drawn = (request.GET.get("shift", ""), request.GET.get("tables", ""))
    if drawn != (str(board.shift.pk if board.shift else 0), str(len(board.lines))):
        return _whole_live_part(request, context)  # another shift, a table added or gone: all of it
    context["changed"] = [line for line in board.lines if line.table.pk in tables]
    context["lists_changed"] = request.GET.get("lists", "") != context["lists"]
    return render(request, "pit/pit_live_delta.html", context)


def _whole_live_part(request: HttpRequest, context: dict[str, object]) -> HttpResponse:
    """The whole live part, which takes the place of the old one: the poll that asked is inside it, and swapping the
    answer in place of the poll alone nested a second dashboard in the first (every table twice)."""
    response = render(request, "pit/pit_live.html", context)
    response["HX-Retarget"] = "#pit-live"
    response["HX-Reswap"] = "outerHTML"
    return response


class _Decision(Protocol):
    def __call__(self, *, actor: User, adjustment: Adjustment, note: str) -> Adjustment: ...


def _decide(
    request: HtmxHttpRequest, adjustment_id: int, decide: _Decision, done: Callable[[Adjustment], str]
) -> HttpResponse:
    """A supervisor's decision on a request (``decide(actor=, adjustment=, note=)``), said as ``done(adjustment)``
    with its table and round, or the service's refusal; then the refreshed live part for htmx, else the
    dashboard."""
    _require(request, PIT_DECIDERS)
    adjustment = get_object_or_404(Adjustment.objects.select_related("round__table"), pk=adjustment_id)
    try:
        decide(actor=actor_of(request.user), adjustment=adjustment, note=request.POST.get("note", ""))
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("%(done)s: table %(table)s, round %(number)s.")
            % {"done": done(adjustment), "table": adjustment.round.table.name, "number": adjustment.round.number},
        )
    if request.htmx:
        return render(request, "pit/pit_live.html", _live_context(request))
    if request.POST.get("back") == "request":  # decided on the request's own page: back to it
        return redirect("pit-adjustment", adjustment_id=adjustment.pk)
    return redirect("pit-dashboard")


@login_required
@require_POST
def pit_adjustment_approve(request: HtmxHttpRequest, adjustment_id: int) -> HttpResponse:
    """A Floor supervisor or Pit boss approves a void or correction request (``adjustment_approve``)."""

    def done(adjustment: Adjustment) -> str:
        return _("Void approved") if adjustment.kind == Adjustment.Kind.VOID else _("Correction approved")

    return _decide(request, adjustment_id, adjustment_approve, done)


@login_required
@require_POST
def pit_adjustment_reject(request: HtmxHttpRequest, adjustment_id: int) -> HttpResponse:
    """A Floor supervisor or Pit boss rejects a request, with a note saying why (``adjustment_reject``)."""
    return _decide(request, adjustment_id, adjustment_reject, lambda adjustment: _("Request rejected"))


@login_required
@require_GET
def pit_table_history(request: HttpRequest, table_id: int) -> HttpResponse:
    """A table's round history: each round with its settlement and its ledger entries, newest first."""
    _require(request, PIT_VIEWERS)
    table = get_object_or_404(Table.objects.select_related("pit", "dealer", "rule_set"), pk=table_id)
    page, rounds = table_round_history(table=table, page=request.GET.get("page"))
    context = {"table": table, "page": page, "rounds": rounds, "can_decide": _may(request, PIT_DECIDERS)}
    return render(request, "pit/pit_table.html", context)


@login_required
@require_GET
def pit_adjustment(request: HttpRequest, adjustment_id: int) -> HttpResponse:
    """A void or correction request on its own page: the hands as settled beside the hands asked for, what the
    correction would pay each seat, and, for a supervisor, Approve and Reject."""
    _require(request, PIT_VIEWERS)
    review = correction_review(adjustment=adjustment_get(adjustment_id=adjustment_id))
    context = {
        "review": review,
        "table": review.round.table,
        "can_decide": _may(request, PIT_DECIDERS),
        "four_eyes": four_eyes_required(),
    }
    return render(request, "pit/adjustment.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def pit_round_correct(request: HttpRequest, round_id: int) -> HttpResponse:
    """A supervisor corrects a settled round's hands (``correction_submit``): with four eyes the correction waits
    for another supervisor on its request's page, else the round is corrected at once.

    The form starts from the hands as settled; a refusal keeps what was typed. A hidden idempotency key, made
    when the form is drawn, makes a second tap of the same form the same correction, never a second one.
    """
    _require(request, PIT_DECIDERS)
    round_ = get_object_or_404(round_queryset().select_related("shift"), pk=round_id)
    if round_.shift.closed_at is not None:  # said before any hand is typed again, not after
        context = {"round": round_, "table": round_.table, "shift_closed": True, "four_eyes": four_eyes_required()}
        return render(request, "pit/round_correct.html", context, status=409 if request.method == "POST" else 200)
    posted = request.POST if request.method == "POST" else None
    form = correction_form(round=round_, posted=posted)
    context = {
        "round": round_,
        "table": round_.table,
        "form": form,
        "reason": posted.get("reason", "") if posted is not None else "",
        "key": (posted.get("key") if posted is not None else None) or uuid.uuid4().hex,
        "four_eyes": four_eyes_required(),
    }
    if posted is None:
        return render(request, "pit/round_correct.html", context)
    # A second tap, or a retry after a lost answer, with four eyes on: the request it made is the answer.
    mine = round_.adjustments.filter(
        kind=Adjustment.Kind.CORRECTION, status=Adjustment.Status.PENDING, requested_by=actor_of(request.user)
    ).first()
    if mine is not None:
        messages.info(request, _("Your correction of this round is already waiting for another supervisor."))
        return redirect("pit-adjustment", adjustment_id=mine.pk)
    try:
        done = correction_submit(
            actor=actor_of(request.user),
            round=round_,
            hands=correction_hands(form=form),
            reason=posted.get("reason", ""),
            idempotency_key=posted.get("key", ""),
        )
    except ApplicationError as exc:
        return render(request, "pit/round_correct.html", {**context, "error": exc.message}, status=exc.status_code)
    if done.request is not None:
        messages.success(request, _("Correction asked for: another supervisor approves it here."))
        return redirect("pit-adjustment", adjustment_id=done.request.pk)
    messages.success(request, _("Round %(number)s is corrected.") % {"number": round_.number})
    return redirect(reverse("pit-table-history", args=[round_.table_id]) + f"#round-{round_.number}")
