"""The gaming-day page: a supervisor opens the gaming day and its shifts and closes them; an Auditor reads.

Thin: each write is one service (``casino.services``); a refusal is shown on the page with what was typed kept, in
the status the API would answer (400, 403, 409); a write that went through redirects back to the page.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from casino.errors import ApplicationError
from casino.models import GamingDay, Shift
from casino.selectors import SHIFT_NAMES, business_date_next, gaming_day_current, gaming_day_list, shift_name_next
from casino.services import gaming_day_close, gaming_day_open, shift_close, shift_open
from casino.users import actor_of
from pit.views import PIT_DECIDERS, PIT_VIEWERS, _may, _require
from rounds.services.transitions import shift_requests_waiting, shift_rounds_unfinished

# Closed gaming days listed under the open one.
DAYS_SHOWN = 7

_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _day_context(request: HttpRequest, **typed: Any) -> dict[str, Any]:
    day = gaming_day_current()
    shift = next((s for s in day.shifts.all() if s.closed_at is None), None) if day is not None else None
    return {
        "day": day,
        "shift": shift,
        "unfinished": shift_rounds_unfinished(shift=shift) if shift is not None else [],
        "waiting": shift_requests_waiting(shift=shift) if shift is not None else [],
        "past_days": list(gaming_day_list().filter(closed_at__isnull=False)[:DAYS_SHOWN]),
        "can_decide": _may(request, PIT_DECIDERS),
        "shift_names": SHIFT_NAMES,
        "business_date": typed.get("business_date", business_date_next().isoformat()),
        "shift_name": typed.get("shift_name", shift_name_next(gaming_day=day)),
        "error": typed.get("error"),
    }


def _refused(request: HttpRequest, exc: ApplicationError, **typed: Any) -> HttpResponse:
    """The page again with the refusal and what was typed, in the API's status for it."""
    return render(request, "pit/day.html", _day_context(request, error=exc.message, **typed), status=exc.status_code)


def _business_date(text: str) -> dt.date:
    text = text.strip()
    if _ISO_DATE.fullmatch(text):
        try:
            return dt.date.fromisoformat(text)
        except ValueError:
            pass
    raise ApplicationError(
        _("%(text)s is not a date: write it YYYY-MM-DD, for example 2025-03-01.") % {"text": repr(text)[:40]},
        extra={"field": "business_date"},
    )


@login_required
@require_GET
def day(request: HttpRequest) -> HttpResponse:
    """The open gaming day, its shifts (who opened and closed each, when), the rounds still being played in the open
    shift, and the forms for what comes next; the last closed gaming days below."""
    _require(request, PIT_VIEWERS)
    return render(request, "pit/day.html", _day_context(request))


@login_required
@require_POST
def day_open(request: HttpRequest) -> HttpResponse:
    """A supervisor opens the gaming day for the business date typed (``gaming_day_open``)."""
    _require(request, PIT_DECIDERS)
    typed = request.POST.get("business_date", "")
    try:
        opened = gaming_day_open(actor=actor_of(request.user), business_date=_business_date(typed))
    except ApplicationError as exc:
        return _refused(request, exc, business_date=typed)
    messages.success(
        request,
        _("Gaming day %(date)s is open: open its first shift.")
        % {"date": date_format(opened.business_date, "SHORT_DATE_FORMAT")},
    )
    return redirect("pit-day")


@login_required
@require_POST
def day_close(request: HttpRequest, gaming_day_id: int) -> HttpResponse:
    """A supervisor closes the gaming day once its last shift is closed; the page asks twice (``confirm=yes``)."""
    _require(request, PIT_DECIDERS)
    gaming_day = get_object_or_404(GamingDay, pk=gaming_day_id)
    if request.POST.get("confirm") != "yes":
        messages.warning(request, _("Confirm to close the gaming day: tap “Yes, close the gaming day”."))
        return redirect("pit-day")
    try:
        closed = gaming_day_close(actor=actor_of(request.user), gaming_day=gaming_day)
    except ApplicationError as exc:
        return _refused(request, exc)
    messages.success(
        request, _("Gaming day %(date)s is closed.") % {"date": date_format(closed.business_date, "SHORT_DATE_FORMAT")}
    )
    return redirect("pit-day")


@login_required
@require_POST
def day_shift_open(request: HttpRequest) -> HttpResponse:
    """A supervisor opens the next shift of the open gaming day, named as typed (``shift_open``)."""
    _require(request, PIT_DECIDERS)
    typed = request.POST.get("name", "")
    try:
        opened = shift_open(actor=actor_of(request.user), name=typed)
    except ApplicationError as exc:
        return _refused(request, exc, shift_name=typed)
    messages.success(request, _("The %(name)s shift is open: rounds can be played.") % {"name": opened.name})
    return redirect("pit-day")


@login_required
@require_POST
def day_shift_close(request: HttpRequest, shift_id: int) -> HttpResponse:
    """A supervisor closes the shift (``shift_close``: refused while a round of it is still being played); the page
    asks twice (``confirm=yes``). Its reports are built once the close commits."""
    _require(request, PIT_DECIDERS)
    shift = get_object_or_404(Shift, pk=shift_id)
    if request.POST.get("confirm") != "yes":
        messages.warning(request, _("Confirm to close the shift: tap “Yes, close it”."))
        return redirect("pit-day")
    try:
        closed = shift_close(actor=actor_of(request.user), shift=shift)
    except ApplicationError as exc:
        return _refused(request, exc)
    messages.success(request, _("The %(name)s shift is closed: its reports are being built.") % {"name": closed.name})
    return redirect("pit-day")
