"""The pit's pages of credit at the table (docs/markers.md): a player's credit page, and the cage's markers.

* ``/players/<id>/credit/``: the player's line, what their markers owe, what is left, a change waiting for a second
  Credit manager (approve or refuse: never the one who asked), and their markers. A Credit manager sets the line.
* ``/cage/markers/``: the markers outstanding, by number (the outstanding-markers report; ``.csv`` for a file): those
  at the cage a Cage cashier redeems (cash, chips, a cheque); a marker redeemed by cheque whose cheque came back is
  re-opened (a Cage cashier or Credit manager).

Read by the Credit managers, the cage, the supervisors and Auditors (``CREDIT_READERS``); anyone else gets a 403.
Thin: each write is one service of ``players.credit`` run once for its form (``casino.once``); a refusal draws the
page again with the service's message, in the status the API would answer, and writes nothing.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino import numbers
from casino.errors import ApplicationError
from casino.forms import AmountField
from casino.once import FORM_KEY, FormPage, Kept, form_key_new
from casino.roles import Role
from casino.users import actor_of
from pit.report_files import csv_cell
from pit.views import _may, _require
from players.credit import (
    MOST_CENTS,
    credit_change_decide,
    credit_line_set,
    marker_cheque_returned,
    marker_redeem,
    markers_count_differences,
)
from players.credit_selectors import (
    CREDIT_READERS,
    markers_outstanding,
    markers_redeemed_recently,
    player_credit,
)
from players.models import CreditLineChange, Marker, MarkerPayment, Player

SCOPE = "pit-credit"
_ALREADY = gettext_lazy("This form was already sent: it is recorded once.")


def _context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    return {FORM_KEY: form_key_new(), "error": "", **extra}


# --- a player's credit ------------------------------------------------------------------------------------------


def _credit_page(
    request: HttpRequest, player: Player, *, status: int = 200, error: str = "", line: Mapping[str, str] | None = None
) -> HttpResponse:
    credit = player_credit(player=player)
    context = _context(
        request,
        player=player,
        credit=credit,
        line=line or {},
        error=error,
        can_set=_may(request, (Role.CREDIT_MANAGER,)),
    )
    return render(request, "pit/credit.html", context, status=status)


def _to_credit(request: HttpRequest, *, player_id: int, **_kwargs: object) -> HttpResponse:
    return redirect("player-credit", player_id=player_id)


def _credit_refused(
    request: HttpRequest, exc: ApplicationError, kept: Kept, *, player_id: int, **_kwargs: object
) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    return _credit_page(request, player, status=exc.status_code, error=exc.message, **kept)


CREDIT = FormPage(scope=SCOPE, done=_to_credit, refused=_credit_refused, already=_ALREADY)


@login_required
@require_GET
@never_cache
def player_credit_view(request: HttpRequest, player_id: int) -> HttpResponse:
    """The player's credit: the line, what is left, a change waiting, their markers."""
    _require(request, CREDIT_READERS)
    return _credit_page(request, get_object_or_404(Player, pk=player_id))


def _amount(text: str) -> int:
    try:
        amount: int | None = AmountField(most_cents=MOST_CENTS, required=False).clean(text)
    except forms.ValidationError as error:  # its message, in the form's words
        raise ApplicationError(" ".join(error.messages), extra={"field": "limit"}) from None
    if amount is None:
        raise ApplicationError(_("Type the credit line."), extra={"field": "limit"})
    return amount


@login_required
@require_POST
@CREDIT.acts()
def credit_line_view(request: HttpRequest, kept: Kept, player_id: int) -> str:
    _require(request, CREDIT_READERS)
    player = get_object_or_404(Player, pk=player_id)
    typed = kept["line"] = {name: request.POST.get(name, "")[:500] for name in ("limit", "reason")}
    done = credit_line_set(
        actor=actor_of(request.user), player=player, limit_cents=_amount(typed["limit"]), reason=typed["reason"]
    )
    if isinstance(done, CreditLineChange):
        return _("A credit line of %(amount)s waits for a second Credit manager's approval.") % {
            "amount": numbers.amount(done.limit_cents)
        }
    return _("The credit line is %(amount)s.") % {"amount": numbers.amount(done.limit_cents)}


@login_required
@require_POST
@CREDIT.acts()
def credit_change_view(request: HttpRequest, kept: Kept, player_id: int, change_id: int) -> str:
    _require(request, CREDIT_READERS)
    change = get_object_or_404(CreditLineChange, pk=change_id, player_id=player_id)
    approve = request.POST.get("decision") == "approve"
    decided = credit_change_decide(actor=actor_of(request.user), change=change, approve=approve)
    if approve:
        return _("The credit line of %(amount)s is approved.") % {"amount": numbers.amount(decided.limit_cents)}
    return _("The credit line of %(amount)s is refused.") % {"amount": numbers.amount(decided.limit_cents)}


# --- the cage's markers -----------------------------------------------------------------------------------------


def _cage_page(request: HttpRequest, *, status: int = 200, error: str = "", refused: int | None = None) -> HttpResponse:
    context = _context(
        request,
        outstanding=markers_outstanding(),
        count_differences=markers_count_differences(),
        redeemed=markers_redeemed_recently(),
        can_redeem=_may(request, (Role.CAGE_CASHIER,)),
        can_return=_may(request, (Role.CAGE_CASHIER, Role.CREDIT_MANAGER)),
        methods=MarkerPayment.Method.choices[:3],
        error=error,
        refused=refused,
    )
    return render(request, "pit/cage_markers.html", context, status=status)


def _to_cage(request: HttpRequest, **_kwargs: object) -> HttpResponse:
    return redirect("cage-markers")


def _cage_refused(
    request: HttpRequest, exc: ApplicationError, kept: Kept, *, marker_id: int, **_kwargs: object
) -> HttpResponse:
    return _cage_page(request, status=exc.status_code, error=exc.message, refused=marker_id)


CAGE = FormPage(scope=SCOPE, done=_to_cage, refused=_cage_refused, already=_ALREADY)


@login_required
@require_GET
@never_cache
def cage_markers(request: HttpRequest) -> HttpResponse:
    """The markers outstanding by number; those at the cage redeemed here; the last redeemed."""
    _require(request, CREDIT_READERS)
    return _cage_page(request)


@login_required
@require_POST
@CAGE.acts()
def cage_marker_redeem(request: HttpRequest, kept: Kept, marker_id: int) -> str:
    _require(request, CREDIT_READERS)
    marker = get_object_or_404(Marker, pk=marker_id)
    payment = marker_redeem(
        actor=actor_of(request.user),
        marker=marker,
        method=request.POST.get("method", "")[:20],
        reference=request.POST.get("reference", "")[:40],
    )
    return _("Marker %(number)s is redeemed: %(amount)s in %(method)s.") % {
        "number": marker.number,
        "amount": numbers.amount(payment.amount_cents),
        "method": payment.get_method_display(),
    }


@login_required
@require_POST
@CAGE.acts()
def cage_marker_returned(request: HttpRequest, kept: Kept, marker_id: int) -> str:
    _require(request, CREDIT_READERS)
    marker = get_object_or_404(Marker, pk=marker_id)
    marker_cheque_returned(actor=actor_of(request.user), marker=marker, reason=request.POST.get("reason", "")[:500])
    return _("Marker %(number)s is outstanding again: its cheque came back.") % {"number": marker.number}


@login_required
@require_GET
def markers_outstanding_csv(request: HttpRequest) -> HttpResponse:
    """The outstanding-markers report as a CSV file: one marker a row, by number, amounts in cents; no cell a
    spreadsheet would run as a formula (``pit.report_files.csv_cell``: a player's name is typed by people)."""
    _require(request, CREDIT_READERS)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="markers-outstanding.csv"'
    writer = csv.writer(response)
    writer.writerow(["number", "player", "table", "seat", "amount_cents", "status", "issued_at", "issued_by"])
    for m in markers_outstanding().markers:
        writer.writerow(
            [
                csv_cell(cell)
                for cell in (
                    m.number,
                    m.player.name or f"#{m.player_id}",
                    m.table.name,
                    m.seat_number,
                    m.amount_cents,
                    m.status,
                    m.issued_at.isoformat() if m.issued_at else "",
                    m.issued_by.get_username() if m.issued_by else "",
                )
            ]
        )
    return response
