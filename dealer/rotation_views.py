"""The dealer's side of the rotation: tapping in at the table the string's rotation puts them at (the dealer there
taps out and moves on down the string, or to a break). The dealer's home shows where they are due and when
(``tables.rotation_selectors.dealer_next``); the tablet shows who relieves its dealer and when.

Thin: one service (``tables.rotation.rotation_push``), sent once (``casino.once``); a refusal is the home page
again with the service's message in its banner.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from casino.errors import ApplicationError
from casino.once import FormPage, Kept, Then
from casino.users import actor_of
from dealer.views import dealer_home_page
from tables.models import Table
from tables.rotation import rotation_push


def _refused(request: HttpRequest, exc: ApplicationError, kept: Kept, **_kwargs: object) -> HttpResponse:
    return dealer_home_page(request, error=exc.message, status=exc.status_code)


TAP_IN = FormPage(scope="dealer-rotation", done=lambda request, **_kwargs: redirect("dealer-home"), refused=_refused)


@login_required
@require_POST
@TAP_IN.acts()
def tap_in_view(request: HttpRequest, kept: Kept, table_id: int) -> Then:
    """The dealer taps in at a table: its tablet once the push is made, their home while it waits for the round."""
    table = get_object_or_404(Table, pk=table_id)
    push = rotation_push(actor=actor_of(request.user), table=table)
    if push.done_at is None:
        return Then(_("You take over %(table)s when its round ends.") % {"table": table.name}, redirect("dealer-home"))
    return Then("", redirect("dealer-table", table_id=table.pk))  # the tablet itself says who deals
