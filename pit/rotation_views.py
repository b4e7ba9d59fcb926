"""The pit's rotation page: every string of tables (who deals where and since when, who relieves next and when, who is
on break since when and back when), overdue breaks as alerts, and, for a Floor supervisor or Pit boss, the forms:
clock a dealer in or out, make a string, start it, push a table's due dealer. An Auditor reads.

Thin: each form is one service of ``tables.rotation``, sent once (``casino.once``); a refusal draws the page again
with the service's message in the banner and what was typed kept.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino.errors import ApplicationError
from casino.once import FormPage, Kept, form_key_new
from casino.users import actor_of
from pit.views import PIT_DECIDERS, PIT_VIEWERS, _may, _require
from tables.models import DealerString, Table
from tables.rotation import dealer_clock_in, dealer_clock_out, rotation_push, string_create, string_start
from tables.rotation_selectors import rotation_floor

FORM_SCOPE = "pit-rotation"

# The largest id the forms take (the database's integer): a larger one is no table, and is never looked up.
MOST_ID = 2**31 - 1


def _page(
    request: HttpRequest, *, error: str = "", typed: dict[str, Any] | None = None, status: int = 200
) -> HttpResponse:
    now = timezone.now()
    context = {
        "floor": rotation_floor(at=now),
        "now_time": timezone.localtime(now).strftime("%H:%M"),
        "can_decide": _may(request, PIT_DECIDERS),
        "form_key": form_key_new(),
        "error": error,
        "typed": {"on_minutes": "60", "off_minutes": "20", "pattern": "on_off", "tables": [], **(typed or {})},
    }
    return render(request, "pit/rotation.html", context, status=status)


def _refused(request: HttpRequest, exc: ApplicationError, kept: Kept, **_kwargs: object) -> HttpResponse:
    return _page(request, error=exc.message, typed=kept.get("typed"), status=exc.status_code)


ROTATION = FormPage(scope=FORM_SCOPE, done=lambda request, **_kwargs: redirect("pit-rotation"), refused=_refused)


@login_required
@require_GET
@never_cache
def rotation(request: HttpRequest) -> HttpResponse:
    """The rotation page."""
    _require(request, PIT_VIEWERS)
    return _page(request)


def _dealer(request: HttpRequest) -> User:
    try:
        pk = int(request.POST.get("dealer", ""))
        if not 1 <= pk <= MOST_ID:
            raise User.DoesNotExist
        return User.objects.get(pk=pk)
    except (ValueError, User.DoesNotExist):
        raise ApplicationError(_("Choose a dealer."), extra={"field": "dealer"}) from None


def _minutes(text: str, *, field: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ApplicationError(
            _("Minutes are a whole number, not %(text)s.") % {"text": repr(text[:20])}, extra={"field": field}
        ) from None


@login_required
@require_POST
@ROTATION.acts()
def clock_in_view(request: HttpRequest, kept: Kept) -> str:
    _require(request, PIT_DECIDERS)
    clock = dealer_clock_in(actor=actor_of(request.user), dealer=_dealer(request))
    return _("%(dealer)s is clocked in.") % {"dealer": clock.dealer.get_username()}


@login_required
@require_POST
@ROTATION.acts()
def clock_out_view(request: HttpRequest, kept: Kept) -> str:
    _require(request, PIT_DECIDERS)
    clock = dealer_clock_out(actor=actor_of(request.user), dealer=_dealer(request))
    return _("%(dealer)s is clocked out.") % {"dealer": clock.dealer.get_username()}


@login_required
@require_POST
@ROTATION.acts()
def string_new_view(request: HttpRequest, kept: Kept) -> str:
    """A new string: its name, its tables (in the push's order: as listed), its pattern."""
    _require(request, PIT_DECIDERS)
    post = request.POST
    kept["typed"] = {
        "name": post.get("name", "")[:40],
        "on_minutes": post.get("on_minutes", "")[:6],
        "off_minutes": post.get("off_minutes", "")[:6],
        "pattern": post.get("pattern", "on_off")[:12],
        "tables": post.getlist("tables"),
    }
    ids = []
    for value in post.getlist("tables"):
        try:
            ids.append(int(value))
        except ValueError:
            continue
    by_id = Table.objects.in_bulk([pk for pk in ids if 1 <= pk <= MOST_ID])  # a larger id is no table: never asked
    missing = [pk for pk in ids if pk not in by_id]
    if missing:
        raise ApplicationError(_("There is no table %(id)s.") % {"id": str(missing[0])[:24]}, extra={"field": "tables"})
    tables = [by_id[pk] for pk in ids]
    round_robin = post.get("pattern") == "round_robin"
    string = string_create(
        actor=actor_of(request.user),
        name=post.get("name", ""),
        tables=tables,
        on_minutes=_minutes(post.get("on_minutes", ""), field="on_minutes"),
        off_minutes=None if round_robin else _minutes(post.get("off_minutes", ""), field="off_minutes"),
    )
    return _("String %(name)s is made: clock its dealers in, then start it.") % {"name": string.name}


@login_required
@require_POST
@ROTATION.acts()
def string_start_view(request: HttpRequest, kept: Kept, string_id: int) -> str:
    _require(request, PIT_DECIDERS)
    string = string_start(actor=actor_of(request.user), string=get_object_or_404(DealerString, pk=string_id))
    return _("String %(name)s is started: the rotation counts from now.") % {"name": string.name}


@login_required
@require_POST
@ROTATION.acts()
def push_view(request: HttpRequest, kept: Kept, table_id: int) -> str:
    """Push the dealer due at a table onto it (now, or at its round's end)."""
    _require(request, PIT_DECIDERS)
    table = get_object_or_404(Table, pk=table_id)
    push = rotation_push(actor=actor_of(request.user), table=table)
    if push.done_at is None:
        return _("%(dealer)s takes over %(table)s when its round ends.") % {
            "dealer": push.dealer_in.get_username(),
            "table": table.name,
        }
    return _("%(dealer)s deals %(table)s now.") % {"dealer": push.dealer_in.get_username(), "table": table.name}
