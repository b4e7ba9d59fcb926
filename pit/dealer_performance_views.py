"""The dealers' pages: every dealer's figures in a shift for supervisors and auditors, one dealer's over their last
shifts, and a dealer's own pace (their rounds and rounds an hour, nothing of the hold and nothing of anyone else).
The figures are ``pit.dealer_performance``'s."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from casino.models import Shift
from casino.roles import Role, user_has_role
from pit.dealer_performance import ALERT_Z, DealerFigures, dealer_performance_rows, dealer_shifts
from pit.dealer_performance_report import game_label
from pit.rating_report import hours_text
from pit.views import PIT_VIEWERS, _require

SHIFTS_OFFERED = 12


def _shifts() -> list[Shift]:
    return list(
        Shift.objects.select_related("gaming_day").order_by("-gaming_day__business_date", "-number")[:SHIFTS_OFFERED]
    )


def _chosen_shift(request: HttpRequest, shifts: list[Shift]) -> Shift | None:
    """The shift asked for (``?shift=``), else the open shift, else the latest; a shift that is not one is 404."""
    asked = request.GET.get("shift", "").strip()
    if asked:
        if not asked.isascii() or not asked.isdigit():
            raise Http404("No such shift.")
        return get_object_or_404(Shift.objects.select_related("gaming_day"), pk=int(asked))
    open_shift = next((shift for shift in shifts if shift.closed_at is None), None)
    return open_shift or (shifts[0] if shifts else None)


def _line(row: DealerFigures) -> dict[str, Any]:
    return {"row": row, "game": game_label(row.game), "time": hours_text(row.seconds_on_box)}


@login_required
@require_GET
def dealers(request: HttpRequest) -> HttpResponse:
    """Every dealer's figures at each game in one shift (the open one unless another is chosen), alerts first."""
    _require(request, PIT_VIEWERS)
    shifts = _shifts()
    shift = _chosen_shift(request, shifts)
    rows = dealer_performance_rows(shift=shift) if shift is not None else []
    context = {
        "shifts": shifts,
        "shift": shift,
        "lines": [_line(row) for row in rows],
        "alerts": [_line(row) for row in rows if row.alert],
        "rounds_settled": sum(row.rounds_settled for row in rows),
        "alert_z": ALERT_Z,
    }
    return render(request, "pit/dealers.html", context)


@login_required
@require_GET
def dealer(request: HttpRequest, dealer_id: int) -> HttpResponse:
    """One dealer's figures at each game over the last shifts they dealt in, newest first."""
    _require(request, PIT_VIEWERS)
    person = get_object_or_404(User, pk=dealer_id)
    shifts = [
        {"shift": shift, "lines": [_line(row) for row in dealer_performance_rows(shift=shift, dealer_id=person.pk)]}
        for shift in dealer_shifts(dealer_id=person.pk)
    ]
    return render(request, "pit/dealer.html", {"person": person, "shifts": shifts, "alert_z": ALERT_Z})


@login_required
@require_GET
def dealer_pace(request: HttpRequest) -> HttpResponse:
    """A Dealer's own pace over their last shifts: rounds, time on the box and rounds an hour, by game. Nothing of
    the hold (that is the floor's protection, not the dealer's measure) and nothing of other dealers."""
    me = request.user.pk  # a Dealer, signed in: never everyone's figures
    if me is None or not user_has_role(request.user, Role.DEALER):
        return render(request, "pit/dealer_pace.html", {"not_a_dealer": True}, status=403)
    shifts = [
        {
            "shift": shift,
            "lines": [_line(row) for row in dealer_performance_rows(shift=shift, dealer_id=me)],
        }
        for shift in dealer_shifts(dealer_id=me)
    ]
    return render(request, "pit/dealer_pace.html", {"shifts": shifts})
