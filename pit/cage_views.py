"""The cage's queue and the slip PDF (DESIGN.md "The table's money").

The cage queue (``/cage/``): the fills and credits the tables asked for, oldest first, each with an Issue button for a
Cage cashier (``tables.slips.slip_issue``: never whoever asked for it); below, the slips issued and waiting for the
table's two signatures, and the day's received and voided slips. Supervisors and Auditors read it; anyone else gets
a 403. A refusal is the page again with the service's message, in the status the API would answer (403, 409);
an issue that went through redirects back to the queue.

The slip PDF (``/slips/<id>/pdf/``, ``tables.slip_pdf``) is for whoever may see the table's money: the cage, the
supervisors and auditors, the table's dealer (``tables.permissions.can_view_table_money``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from casino.errors import ApplicationError
from casino.roles import CAGE_VIEWERS, Role
from casino.users import actor_of
from pit.views import _may, _require
from tables.models import Slip
from tables.money_selectors import cage_queue
from tables.permissions import can_view_table_money
from tables.slip_pdf import slip_pdf, slip_title
from tables.slips import slip_issue, slip_void

CAGE_ISSUERS: tuple[Role, ...] = (Role.CAGE_CASHIER,)


def _cage_context(request: HttpRequest, *, error: str | None = None, refused: int | None = None) -> dict[str, Any]:
    return {"queue": cage_queue(), "can_issue": _may(request, CAGE_ISSUERS), "error": error, "refused": refused}


@login_required
@require_GET
def cage(request: HttpRequest) -> HttpResponse:
    """The slips waiting to be issued, oldest first; those waiting for the table's signatures; the day's finished."""
    _require(request, CAGE_VIEWERS)
    return render(request, "pit/cage.html", _cage_context(request))


@login_required
@require_POST
def cage_slip_issue(request: HttpRequest, slip_id: int) -> HttpResponse:
    """A Cage cashier issues a requested slip (``slip_issue``); the service's refusal is shown on the queue."""
    _require(request, CAGE_VIEWERS)
    slip = get_object_or_404(Slip.objects.select_related("table"), pk=slip_id)
    try:
        issued = slip_issue(actor=actor_of(request.user), slip=slip)
    except ApplicationError as exc:
        context = _cage_context(request, error=exc.message, refused=slip.pk)
        return render(request, "pit/cage.html", context, status=exc.status_code)
    messages.success(
        request,
        _("%(slip)s is issued: table %(table)s signs for it.")
        % {"slip": slip_title(issued), "table": issued.table.name},
    )
    return redirect("cage")


@login_required
@require_POST
def cage_slip_void(request: HttpRequest, slip_id: int) -> HttpResponse:
    """A Cage cashier voids an issued slip whose chips came back to the cage, saying why (``slip_void``); the
    service's refusal is shown on the queue, with the reason typed."""
    _require(request, CAGE_VIEWERS)
    slip = get_object_or_404(Slip.objects.select_related("table"), pk=slip_id)
    reason = request.POST.get("reason", "")[:500]
    try:
        voided = slip_void(actor=actor_of(request.user), slip=slip, reason=reason)
    except ApplicationError as exc:
        context = {**_cage_context(request, error=exc.message, refused=slip.pk), "reason": reason}
        return render(request, "pit/cage.html", context, status=exc.status_code)
    messages.success(request, _("%(slip)s is voided.") % {"slip": slip_title(voided)})
    return redirect("cage")


@login_required
@require_GET
def slip_pdf_download(request: HttpRequest, slip_id: int) -> HttpResponse:
    """The slip as a PDF, for whoever may see its table's money; anyone else gets a 403."""
    slip = get_object_or_404(
        Slip.objects.select_related(
            "table__pit",
            "table__dealer",
            "shift__gaming_day",
            "requested_by",
            "issued_by",
            "dealer_signed_by",
            "supervisor_signed_by",
            "voided_by",
        ),
        pk=slip_id,
    )
    if not can_view_table_money(actor_of(request.user), slip.table):
        raise PermissionDenied
    response = HttpResponse(slip_pdf(slip), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{slip.kind}-slip-{slip.number:06d}.pdf"'
    return response
