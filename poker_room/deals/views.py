"""The Deal page: the players still in with a stack field each, how the money is shared (ICM, a chip
chop, agreed amounts) and what is left to play for; "Work it out" shows each player's stack, share of the chips,
prize with no deal and the deal's amount (``deals.deal_propose``, nothing written); "Record the deal", confirmed,
writes it (``deals.deal_record``, once: ``casino.once.FormPage``). Once recorded the page shows the deal as it was
recorded and what each player has been paid so far.

Thin, as the console's pages are: the role checked (``poker_room.pages``), the form read, one service called; a
refusal draws the page again with the service's message, what was typed kept, in its status (400, 403, 409).
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from casino.errors import ApplicationError
from casino.forms import AmountField
from casino.once import FormPage, Kept
from casino.pages import guarded_by
from casino.users import actor_of
from poker_room.deals.models import Deal
from poker_room.deals.selectors import deal_state
from poker_room.deals.services import DealProposal, deal_propose, deal_record
from poker_room.floor import MOST_CENTS
from poker_room.pages import FORM_SCOPE, page, runners_only, viewers_only
from poker_room.tournaments.models import Tournament
from poker_room.tournaments.views import at_tournament

_MONEY = AmountField(most_cents=MOST_CENTS, required=False)
# Thousands grouped by one separator ("120 000", "120,000", "120.000", "120'000"): never a decimal point.
_GROUPED = re.compile(r"[0-9]{1,3}(?:([ ,.'\u00a0\u2009\u202f])[0-9]{3})(?:\1[0-9]{3})*")


def _chips(text: str) -> int | str:
    """Chips as typed (digits, or thousands grouped: "120,000"): a whole number, or the text for the service to
    refuse ("12.5" is no number of chips)."""
    bare = text.strip()
    if _GROUPED.fullmatch(bare):
        bare = re.sub(r"[^0-9]", "", bare)
    return int(bare) if re.fullmatch(r"[0-9]{1,12}", bare) else text[:24]


def _money(text: str, *, field: str, what: str) -> int | None:
    try:
        amount: int | None = _MONEY.clean(text)
    except forms.ValidationError as error:
        raise ApplicationError(
            _("%(what)s: %(messages)s") % {"what": what, "messages": " ".join(error.messages)}, extra={"field": field}
        ) from None
    return amount


def _typed(request: HttpRequest) -> dict[str, str]:
    """What the form holds, cut short: the method, the reserve, a stack and an amount for each player."""
    return {
        key: value[:24]
        for key, value in request.POST.dict().items()
        if key in ("method", "reserve") or re.fullmatch(r"(stack|amount)-[0-9]{1,6}", key)
    }


def _worked_out(request: HttpRequest) -> dict[str, int] | None:
    """The amounts the page showed when the deal was worked out ("3:12000,7:8000"; None from a form without them):
    the deal is recorded only as it was shown."""
    shown = request.POST.get("worked_out", "")
    if not shown:
        return None
    pairs = shown.split(",")
    if len(shown) > 400 or not all(re.fullmatch(r"[0-9]{1,6}:[0-9]{1,13}", pair) for pair in pairs):
        raise ApplicationError(_("Work the deal out again, then record it."), extra={"field": "worked_out"})
    return {number: int(cents) for number, cents in (pair.split(":") for pair in pairs)}


def _deal_input(typed: dict[str, str]) -> dict[str, Any]:
    """The typed form as the service takes it (a blank stack or amount is left out: the service names who is
    missing)."""
    stacks = {
        key.removeprefix("stack-"): _chips(value)
        for key, value in typed.items()
        if key.startswith("stack-") and value.strip()
    }
    method = typed.get("method", "")
    amounts = None
    if method == Deal.Method.CUSTOM:
        amounts = {
            key.removeprefix("amount-"): _money(value, field=key, what=_("The amount of #%(n)s") % {"n": key[7:]})
            for key, value in typed.items()
            if key.startswith("amount-") and value.strip()
        }
    reserve = _money(typed.get("reserve", ""), field="reserve", what=_("The money left to play for")) or 0
    return {"method": method, "stacks": stacks, "reserve_cents": reserve, "amounts": amounts}


def _deal_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    typed: dict[str, str] | None = None,
    proposal: DealProposal | None = None,
    error: str = "",
    field: str = "",
    flagged: frozenset[int] = frozenset(),
    status: int = 200,
) -> HttpResponse:
    state = deal_state(tournament)
    typed = typed or {}
    rows = [
        {
            "entry": player,
            "stack": typed.get(f"stack-{player.number}", ""),
            "amount": typed.get(f"amount-{player.number}", ""),
            "stack_error": player.number in flagged and field.startswith("stacks"),
            "amount_error": field == "amounts" or (player.number in flagged and field.startswith("amount")),
        }
        for player in state.players
    ]
    context = {
        "t": tournament,
        "here": "deal",
        "state": state,
        "rows": rows,
        "typed": typed,
        "method": typed.get("method", Deal.Method.ICM),
        "methods": Deal.Method.choices,
        "proposal": proposal,
        "proposal_total": sum(line.amount_cents for line in proposal.lines) if proposal else 0,
        "error": error,
        "field": field,
    }
    return page(request, "poker_room/deal.html", context, status=status)


def _deal_refused(
    request: HttpRequest, exc: ApplicationError, kept: Kept, *, tournament: Tournament, **_kwargs: object
) -> HttpResponse:
    """The deal page again (the tournament read afresh) with what was typed, the field refused and the players it
    names marked."""
    fresh = Tournament.objects.get(pk=tournament.pk)
    field = str(exc.extra.get("field", ""))
    flagged = {int(number) for number in exc.extra.get("missing", [])}
    if (one := re.fullmatch(r"(?:stacks\.|amounts\.|amount-)([0-9]{1,6})", field)) is not None:
        flagged.add(int(one[1]))
    return _deal_page(
        request,
        fresh,
        typed=kept["typed"],
        error=exc.message,
        field=field,
        flagged=frozenset(flagged),
        status=exc.status_code,
    )


# The deal page's form: the deal recorded.
DEAL = FormPage(
    scope=FORM_SCOPE,
    done=lambda request, *, tournament, **_kwargs: redirect("poker-room-deal", tournament_id=tournament.pk),
    refused=_deal_refused,
)


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
@guarded_by(viewers_only)
@at_tournament
def deal_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """GET: the deal recorded, or the form to work one out. POST ``action=work``: the deal worked out (nothing
    written); ``action=record`` with ``agreed`` ticked: the deal recorded."""
    if request.method == "GET":
        return _deal_page(request, tournament)
    if request.POST.get("action") != "record":
        return _deal_work_out(request, tournament=tournament)
    return _deal_record(request, tournament=tournament)


@guarded_by(runners_only)
def _deal_work_out(request: HttpRequest, *, tournament: Tournament) -> HttpResponse:
    """The deal worked out (``deal_propose``), nothing written; a refusal draws the page as a form's does."""
    typed = _typed(request)
    try:
        proposal = deal_propose(tournament, **_deal_input(typed))
    except ApplicationError as exc:
        return _deal_refused(request, exc, {"typed": typed}, tournament=tournament)
    return _deal_page(request, tournament, typed=typed, proposal=proposal)


@guarded_by(runners_only)
@DEAL.acts()
def _deal_record(request: HttpRequest, kept: Kept, tournament: Tournament) -> str:
    typed = kept["typed"] = _typed(request)
    given = _deal_input(typed)
    if request.POST.get("agreed") != "yes":
        deal_propose(tournament, **given)  # a refusal of the deal itself first
        raise ApplicationError(
            _("Tick that every player in the deal agrees to it, then record it."), extra={"field": "agreed"}
        )
    deal = deal_record(actor=actor_of(request.user), tournament=tournament, worked_out=_worked_out(request), **given)
    return _("The deal is recorded: %(count)s players, each paid their amount when placed.") % {
        "count": len(deal.amounts)
    }
