"""The table's money on the dealer tablet (DESIGN.md "The table's money"): the opener and the closer counted
on a chip tray, their confirmation, fill and credit requests and their signatures, and the buy-ins at the seats.

Thin, as the tablet is (``dealer.views``): each view acts at a table the user may act at (``dealer.table_pages``:
anyone else gets the tablet's 403 page), reads the form, calls one service of ``tables.tray``, ``tables.slips`` or
``tables.drop`` and redirects (POST-redirect-GET) with the service's answer as the notice (``casino.once.FormPage``).
A refusal draws the page again with the service's message in the banner and its status (400, 403 or 409), marked with
``REFUSAL_HEADER`` as every tablet refusal is, and with everything typed still in the form; nothing is written.

Every form is plain HTML that posts without JavaScript; ``dealer/static/dealer/money.js`` only adds the tapping, the
live totals and the once-only submit. A form also carries a key of the page that drew it: the same form sent twice
with the same key (a double tap, a resend) is recorded once (``casino.once``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.errors import ApplicationError
from casino.fields import UNREADABLE, unreadable_row
from casino.models import Shift
from casino.once import FormPage, Kept
from casino.selectors import shift_current
from casino.templatetags.money import cents as _money
from casino.users import actor_of
from dealer.table_pages import FORM_SCOPE, SHOWN, amount_required, at_table, page, whole_typed
from tables.drop import MOST_CENTS, buy_in_record, buy_in_void
from tables.models import BuyIn, ChipDenomination, Slip, Table, TrayCount
from tables.slips import slip_request, slip_sign, slip_void
from tables.tray import TrayVariance, tray_count_confirm, tray_count_record, tray_variance

# The chip colours the style sheet draws by name (money.css ``.c-<name>``); any other is drawn by money.js.
_COLOURS = frozenset(
    ("white", "red", "green", "black", "purple", "yellow", "orange", "blue", "pink", "grey", "gray", "brown")
)


# --- what the page shows -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CountRow:
    count: TrayCount
    variance: TrayVariance
    chips: list[tuple[int, int]]
    problem: str = ""  # the count's chips cannot be read (a value written past the application)


@dataclass(frozen=True)
class SlipRow:
    slip: Slip
    chips: list[tuple[int, int]]
    problem: str = ""


@dataclass(frozen=True)
class ShiftMoney:
    """A table's money in the open shift: its tray counts and slips (with any still waiting from an earlier shift,
    which the next count or the cage still needs settled), and its buy-ins."""

    shift: Shift | None
    counts: list[CountRow]
    slips: list[SlipRow]
    buy_ins: list[BuyIn]
    cash_cents: int = 0
    markers_cents: int = 0
    kinds_counted: set[str] = field(default_factory=set)


def _chips(row: TrayCount | Slip, stored: Mapping[str, int]) -> tuple[list[tuple[int, int]], str]:
    """A count or a slip's chips, ``(chips, value in cents)``, the highest value first, none of zero; or none, and
    what is wrong, when they cannot be read."""
    try:
        return sorted(((int(n), int(value)) for value, n in stored.items() if n), key=lambda pair: -pair[1]), ""
    except UNREADABLE as exc:
        return [], unreadable_row(row, exc)


def shift_money(table: Table) -> ShiftMoney:
    shift = shift_current()
    this_shift = Q(shift=shift) if shift is not None else Q(pk__in=[])
    counts = (
        TrayCount.objects.filter(table=table)
        .filter(this_shift | Q(status=TrayCount.Status.COUNTED))
        .select_related("counted_by", "confirmed_by")
        .order_by("counted_at", "pk")
    )
    slips = (
        Slip.objects.filter(table=table)
        .filter(this_shift | Q(status__in=(Slip.Status.REQUESTED, Slip.Status.ISSUED)))
        .select_related("requested_by", "issued_by", "dealer_signed_by", "supervisor_signed_by", "voided_by")
        .order_by("requested_at", "pk")
    )
    buy_ins = list(
        BuyIn.objects.filter(table=table, shift=shift).select_related("recorded_by").order_by("recorded_at", "pk")
        if shift is not None
        else []
    )
    voided = {b.corrects_id for b in buy_ins if b.corrects_id is not None}
    for b in buy_ins:
        b.is_voided = b.pk in voided  # for the page: a void link or a mark
    count_rows = [CountRow(count, tray_variance(count), *_chips(count, count.counts)) for count in counts]
    return ShiftMoney(
        shift=shift,
        counts=count_rows,
        slips=[SlipRow(slip, *_chips(slip, slip.chips)) for slip in slips],
        buy_ins=buy_ins,
        cash_cents=sum(b.amount_cents for b in buy_ins if b.medium == BuyIn.Medium.CASH),
        markers_cents=sum(b.amount_cents for b in buy_ins if b.medium == BuyIn.Medium.MARKER),
        kinds_counted={row.count.kind for row in count_rows if shift is not None and row.count.shift_id == shift.pk},
    )


def _columns(typed: Mapping[str, str]) -> list[dict[str, Any]]:
    """The chip tray: one column per chip in use, with what was typed in it and what that makes."""
    columns = []
    for chip in ChipDenomination.objects.filter(in_use=True).order_by("value_cents"):
        text = typed.get(str(chip.value_cents), "")
        number = whole_typed(text)
        colour = re.sub(r"[^a-z]", "", chip.colour.lower())
        columns.append(
            {
                "value_cents": chip.value_cents,
                "name": f"chip-{chip.value_cents}",
                "typed": text,
                "sub_cents": number * chip.value_cents if isinstance(number, int) and number > 0 else 0,
                "colour": chip.colour,
                "colour_class": f"c-{colour}" if colour in _COLOURS else "c-other",
            }
        )
    return columns


# --- reading the forms ---------------------------------------------------------------------------------


def _typed_chips(posted: Mapping[str, str]) -> dict[str, str]:
    """The chip tray's fields as typed, by denomination (``chip-2500`` → ``"2500"``)."""
    return {name.removeprefix("chip-")[:SHOWN]: value for name, value in posted.items() if name.startswith("chip-")}


def _chip_counts(typed: Mapping[str, str]) -> dict[str, object]:
    """The chips counted, for the service: an empty field is none of that chip."""
    return {key: 0 if not value.strip() else whole_typed(value) for key, value in typed.items()}


# --- the pages and their forms ----------------------------------------------------------------------


def _to_money(request: HttpRequest, *, table: Table, **_kwargs: object) -> HttpResponse:
    return redirect("dealer-money", table_id=table.pk)


def _money_refused(
    request: HttpRequest, exc: ApplicationError, kept: Kept, *, table: Table, **_kwargs: object
) -> HttpResponse:
    return _money_page(request, table, status=exc.status_code, error=exc.message, **kept)


def _tray_refused(
    request: HttpRequest, exc: ApplicationError, kept: Kept, *, table: Table, mode: str, **_kwargs: object
) -> HttpResponse:
    return _tray_page(request, table, mode=mode, status=exc.status_code, error=exc.message, **kept)


_ALREADY = gettext_lazy("This form was already sent: it is recorded once.")
# The money page's forms (a count confirmed, a slip signed or voided, a buy-in or its void), and the chip tray's.
MONEY = FormPage(scope=FORM_SCOPE, done=_to_money, refused=_money_refused, already=_ALREADY)
TRAY = FormPage(scope=FORM_SCOPE, done=_to_money, refused=_tray_refused, already=_ALREADY)
_MONEY_ACTION = gettext_lazy("handle the table's money")


# --- the table's money ---------------------------------------------------------------------------------


def _money_page(
    request: HttpRequest,
    table: Table,
    *,
    status: int = 200,
    error: str = "",
    buy_in: Mapping[str, str] | None = None,
    void: Mapping[str, str] | None = None,
) -> HttpResponse:
    context = {
        "table": table,
        "money": shift_money(table),
        "seats": [str(n) for n in range(1, table.seat_count + 1)],
        "buy_in": {"medium": BuyIn.Medium.CASH, **(buy_in or {})},
        "void": void or {},
        "error": error,
        "here": "money",
    }
    return page(request, "dealer/money.html", context, status=status)


@login_required
@require_GET
@never_cache
@at_table(_MONEY_ACTION)
def money_view(request: HttpRequest, table: Table) -> HttpResponse:
    """The table's money in the open shift: its tray counts, its slips and its buy-ins."""
    return _money_page(request, table)


@login_required
@require_POST
@at_table(_MONEY_ACTION)
@MONEY.acts()
def count_confirm_view(request: HttpRequest, kept: Kept, table: Table, count_id: int) -> str:
    count = get_object_or_404(TrayCount, pk=count_id, table=table)
    confirmed = tray_count_confirm(actor=actor_of(request.user), count=count)
    return _("The %(kind)s of %(total)s is confirmed.") % {
        "kind": confirmed.get_kind_display(),
        "total": _money(confirmed.total_cents),
    }


@login_required
@require_POST
@at_table(_MONEY_ACTION)
@MONEY.acts()
def slip_sign_view(request: HttpRequest, kept: Kept, table: Table, slip_id: int) -> str:
    slip = get_object_or_404(Slip, pk=slip_id, table=table)
    signed = slip_sign(actor=actor_of(request.user), slip=slip)
    if signed.status == Slip.Status.RECEIVED:
        return _("%(kind)s slip %(number)s is signed twice: received.") % {
            "kind": signed.get_kind_display().capitalize(),
            "number": signed.number,
        }
    return _("%(kind)s slip %(number)s is signed: a supervisor signs it next.") % {
        "kind": signed.get_kind_display().capitalize(),
        "number": signed.number,
    }


@login_required
@require_POST
@at_table(_MONEY_ACTION)
@MONEY.acts()
def slip_void_view(request: HttpRequest, kept: Kept, table: Table, slip_id: int) -> str:
    slip = get_object_or_404(Slip, pk=slip_id, table=table)
    reason = request.POST.get("reason", "")
    kept["void"] = {"slip": str(slip.pk), "reason": reason}
    voided = slip_void(actor=actor_of(request.user), slip=slip, reason=reason)
    return _("%(kind)s slip %(number)s is voided.") % {
        "kind": voided.get_kind_display().capitalize(),
        "number": voided.number,
    }


@login_required
@require_POST
@at_table(_MONEY_ACTION)
@MONEY.acts()
def buy_in_view(request: HttpRequest, kept: Kept, table: Table) -> str:
    typed = kept["buy_in"] = {name: request.POST.get(name, "") for name in ("seat", "medium", "amount")}
    seat = whole_typed(typed["seat"])
    if seat is None:
        raise ApplicationError(_("Tap the seat that buys in."), extra={"field": "seat"})
    if not typed["medium"]:
        raise ApplicationError(_("Tap cash or marker."), extra={"field": "medium"})
    amount = amount_required(typed["amount"], most_cents=MOST_CENTS, missing=_("Type the amount, like 500.00."))
    buy_in = buy_in_record(
        actor=actor_of(request.user),
        table=table,
        seat=seat,  # type: ignore[arg-type]  # the text typed: the service refuses it, in its words
        medium=typed["medium"][:SHOWN],
        amount_cents=amount,
    )
    return _("Seat %(seat)s buys in %(amount)s (%(medium)s).") % {
        "seat": buy_in.seat_number,
        "amount": _money(buy_in.amount_cents),
        "medium": buy_in.get_medium_display(),
    }


@login_required
@require_POST
@at_table(_MONEY_ACTION)
@MONEY.acts()
def buy_in_void_view(request: HttpRequest, kept: Kept, table: Table, buy_in_id: int) -> str:
    """A supervisor voids a buy-in keyed wrong, saying why (``buy_in_void``); the dealer then records the right one."""
    buy_in = get_object_or_404(BuyIn, pk=buy_in_id, table=table)
    reason = request.POST.get("reason", "")
    kept["void"] = {"buy_in": str(buy_in.pk), "reason": reason}
    buy_in_void(actor=actor_of(request.user), buy_in=buy_in, reason=reason)
    return _("The buy-in of %(amount)s at seat %(seat)s is voided.") % {
        "amount": _money(buy_in.amount_cents),
        "seat": buy_in.seat_number,
    }


# --- the chip tray: a count, or a fill or credit asked for ---------------------------------------------


def _tray_page(
    request: HttpRequest,
    table: Table,
    *,
    mode: str,
    typed: Mapping[str, str] | None = None,
    status: int = 200,
    error: str = "",
) -> HttpResponse:
    columns = _columns(typed or {})
    context = {
        "table": table,
        "mode": mode,
        "money": shift_money(table),
        "columns": columns,
        "total_cents": sum(column["sub_cents"] for column in columns),
        "error": error,
        "here": mode,
    }
    return page(request, "dealer/money_tray.html", context, status=status)


@TRAY.acts(mode="count")
def _tray_count_record(request: HttpRequest, kept: Kept, table: Table) -> str:
    typed = kept["typed"] = _typed_chips(request.POST)
    kind = request.POST.get("kind", "")
    count = tray_count_record(actor=actor_of(request.user), table=table, kind=kind[:SHOWN], counts=_chip_counts(typed))
    return _("The %(kind)s of %(total)s is recorded: a supervisor confirms it.") % {
        "kind": count.get_kind_display(),
        "total": _money(count.total_cents),
    }


@TRAY.acts(mode="slip")
def _slip_request_record(request: HttpRequest, kept: Kept, table: Table) -> str:
    typed = kept["typed"] = _typed_chips(request.POST)
    kind = request.POST.get("kind", "")
    slip = slip_request(actor=actor_of(request.user), table=table, kind=kind[:SHOWN], chips=_chip_counts(typed))
    return _("%(kind)s slip %(number)s asks for %(total)s: the cage issues it.") % {
        "kind": slip.get_kind_display().capitalize(),
        "number": slip.number,
        "total": _money(slip.total_cents),
    }


def _tray_form(mode: str, record: Callable[..., HttpResponse], doc: str) -> Callable[..., HttpResponse]:
    """The chip tray's page in ``mode`` on GET; on POST, ``record`` what the button tapped names."""

    @login_required
    @require_http_methods(["GET", "POST"])
    @never_cache
    @at_table(_MONEY_ACTION)
    def view(request: HttpRequest, table: Table) -> HttpResponse:
        if request.method == "GET":
            return _tray_page(request, table, mode=mode)
        return record(request, table=table)

    view.__doc__ = doc
    return view


tray_count_view = _tray_form(
    "count",
    _tray_count_record,
    "GET: the chip tray to count. POST: record the opener or the closer.",
)
slip_request_view = _tray_form(
    "slip", _slip_request_record, "GET: the chip tray to ask the cage for chips. POST: request the fill or the credit."
)
