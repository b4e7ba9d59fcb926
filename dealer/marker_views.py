"""Markers on the dealer tablet (docs/markers.md): at a seat, the dealer asks for a marker for the player rated
there, who signs it on the tablet; a supervisor (never the one who asked) issues it, and the chips leave the tray
(``players.credit``). The page lists the table's markers waiting for a supervisor and those in its drop box.

Thin, as the tablet is (``dealer.money_views``): each view acts at a table the user may act at, calls one service
and redirects with its answer as the notice; a refusal draws the page again with the service's message in the banner
and its status, with what was typed kept (the drawn signature is drawn again), and writes nothing. Every form is
plain HTML that posts without JavaScript (the player then types their name); ``dealer/static/dealer/signature.js``
adds the signature pad. A form sent twice with one key is recorded once (``casino.once``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino.errors import ApplicationError
from casino.fields import UNREADABLE
from casino.once import FormPage, Kept
from casino.selectors import shift_current
from casino.templatetags.money import cents as _money
from casino.users import actor_of
from dealer.table_pages import FORM_SCOPE, amount_required, at_table, page, whole_typed
from players.credit import (
    MOST_MARKER_CENTS,
    MOST_SIGNATURE,
    credit_available,
    marker_issue,
    marker_request,
    marker_void,
)
from players.credit_selectors import markers_at_table
from players.models import Marker, RatingSeat
from tables.models import Table

_MARKERS_ACTION = gettext_lazy("handle the table's markers")
_ALREADY = gettext_lazy("This form was already sent: it is recorded once.")


@dataclass(frozen=True)
class RatedSeat:
    """A seat with a rated player, who may sign a marker: their name and what their line has left (or the problem
    reading it)."""

    seat: int
    name: str
    available_cents: int | None
    problem: str = ""


def _rated_seats(table: Table) -> list[RatedSeat]:
    seats: list[RatedSeat] = []
    for rated in RatingSeat.objects.filter(table=table, ended_at__isnull=True).select_related("session__player"):
        player = rated.session.player
        try:
            seats.append(RatedSeat(rated.seat_number, str(player), credit_available(player)))
        except UNREADABLE:  # one bad row breaks only its own line
            seats.append(RatedSeat(rated.seat_number, str(player), None, _("The credit line cannot be read.")))
    return sorted(seats, key=lambda s: s.seat)


def _markers_page(
    request: HttpRequest,
    table: Table,
    *,
    status: int = 200,
    error: str = "",
    marker: Mapping[str, str] | None = None,
    void: Mapping[str, str] | None = None,
) -> HttpResponse:
    context: dict[str, Any] = {
        "table": table,
        "money": {"shift": shift_current()},  # for the table's money bar
        "rated": _rated_seats(table),
        "markers": markers_at_table(table=table),
        "marker": marker or {},
        "void": void or {},
        "error": error,
        "here": "markers",
        "most_signature": MOST_SIGNATURE,
    }
    return page(request, "dealer/markers.html", context, status=status)


def _to_markers(request: HttpRequest, *, table: Table, **_kwargs: object) -> HttpResponse:
    return redirect("dealer-markers", table_id=table.pk)


def _markers_refused(
    request: HttpRequest, exc: ApplicationError, kept: Kept, *, table: Table, **_kwargs: object
) -> HttpResponse:
    return _markers_page(request, table, status=exc.status_code, error=exc.message, **kept)


MARKERS = FormPage(scope=FORM_SCOPE, done=_to_markers, refused=_markers_refused, already=_ALREADY)


@login_required
@require_GET
@never_cache
@at_table(_MARKERS_ACTION)
def markers_view(request: HttpRequest, table: Table) -> HttpResponse:
    """The table's markers: ask for one at a rated seat; those waiting for a supervisor; those in the drop box."""
    return _markers_page(request, table)


@login_required
@require_POST
@at_table(_MARKERS_ACTION)
@MARKERS.acts()
def marker_request_view(request: HttpRequest, kept: Kept, table: Table) -> str:
    typed = kept["marker"] = {
        name: request.POST.get(name, "")[: MOST_SIGNATURE if name == "signature" else 200]
        for name in ("seat", "amount", "signature", "signed_name")
    }
    seat = whole_typed(request.POST.get("seat"))
    if not isinstance(seat, int):
        raise ApplicationError(_("Tap the seat of the player who signs the marker."), extra={"field": "seat"})
    amount = amount_required(typed["amount"], most_cents=MOST_MARKER_CENTS, missing=_("Type the marker's amount."))
    marker = marker_request(
        actor=actor_of(request.user),
        table=table,
        seat=seat,
        amount_cents=amount,
        signature=typed["signature"],
        signed_name=typed["signed_name"],
    )
    return _("A marker of %(amount)s at seat %(seat)s waits for a supervisor.") % {
        "amount": _money(marker.amount_cents),
        "seat": marker.seat_number,
    }


@login_required
@require_POST
@at_table(_MARKERS_ACTION)
@MARKERS.acts()
def marker_issue_view(request: HttpRequest, kept: Kept, table: Table, marker_id: int) -> str:
    marker = get_object_or_404(Marker, pk=marker_id, table=table)
    issued = marker_issue(actor=actor_of(request.user), marker=marker)
    return _("Marker %(number)s is issued: %(amount)s in chips to seat %(seat)s.") % {
        "number": issued.number,
        "amount": _money(issued.amount_cents),
        "seat": issued.seat_number,
    }


@login_required
@require_POST
@at_table(_MARKERS_ACTION)
@MARKERS.acts()
def marker_void_view(request: HttpRequest, kept: Kept, table: Table, marker_id: int) -> str:
    marker = get_object_or_404(Marker, pk=marker_id, table=table)
    reason = request.POST.get("reason", "")[:500]
    kept["void"] = {"marker": str(marker.pk), "reason": reason}
    voided = marker_void(actor=actor_of(request.user), marker=marker, reason=reason)
    return _("The marker of %(amount)s at seat %(seat)s is voided.") % {
        "amount": _money(voided.amount_cents),
        "seat": voided.seat_number,
    }
