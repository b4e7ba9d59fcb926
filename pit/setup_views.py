"""A table's set-up from the pit: its limits, rule set, dealer and big-win alert, for a Floor supervisor or
Pit boss (the admin is read-only for them); an Auditor sees the settings and changes none.

One form with every setting; ``tables.services.table_configure`` writes what changed, each setting audited. A refusal
is shown on the page with what was typed kept, and nothing is written.
"""

from __future__ import annotations

from typing import Any, TypedDict

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from casino import numbers
from casino.errors import ApplicationError
from casino.forms import AmountField
from casino.roles import Role
from casino.selectors import users_with_role
from casino.users import actor_of
from pit.views import PIT_DECIDERS, PIT_VIEWERS, _may, _require
from rules.models import RuleSet
from rules.services import has_peer_variant
from rules.templatetags.rule_sets import rule_set_name
from tables.models import Table
from tables.services import MOST_LIMIT_CENTS, table_configure, table_play_peer


class _RuleSetChoice(forms.ModelChoiceField):  # type: ignore[type-arg]
    """A rule set offered by its name as the reader reads it: the default rule sets' names translated."""

    def label_from_instance(self, obj: Any) -> str:
        return rule_set_name(obj.name)


class TableSetupForm(forms.Form):
    min_wager = AmountField(label=gettext_lazy("Minimum wager"), most_cents=MOST_LIMIT_CENTS)
    max_wager = AmountField(label=gettext_lazy("Maximum wager"), most_cents=MOST_LIMIT_CENTS)
    rule_set = _RuleSetChoice(label=gettext_lazy("Rule set"), queryset=RuleSet.objects.none())
    dealer = forms.ModelChoiceField(
        label=gettext_lazy("Dealer"), queryset=users_with_role(role=Role.DEALER), required=False, empty_label="—"
    )
    big_win = AmountField(
        label=gettext_lazy("Big-win alert above"),
        most_cents=MOST_LIMIT_CENTS,
        required=False,
        help_text=gettext_lazy("Empty: no alert."),
    )

    def __init__(self, *args: Any, table: Table, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rule_set, dealer = self.fields["rule_set"], self.fields["dealer"]  # the form's copies of the fields
        assert isinstance(rule_set, forms.ModelChoiceField) and isinstance(dealer, forms.ModelChoiceField)
        # A table plays by a rule set of its game only.
        rule_set.queryset = RuleSet.objects.filter(game=table.game).order_by("name")
        dealer.queryset = users_with_role(role=Role.DEALER)


class _Initial(TypedDict):
    """The form's fields as the table is set up now: amounts as typed (``12.50``), the rule set and dealer by id."""

    min_wager: str
    max_wager: str
    rule_set: int
    dealer: int | None
    big_win: str


def _initial(table: Table) -> _Initial:
    return {
        "min_wager": numbers.amount(table.min_wager_cents),
        "max_wager": numbers.amount(table.max_wager_cents),
        "rule_set": table.rule_set_id,
        "dealer": table.dealer_id,
        "big_win": numbers.amount(table.big_win_cents) if table.big_win_cents is not None else "",
    }


# The service's field names, as the form names them.
_FORM_FIELDS = {
    "min_wager_cents": "min_wager",
    "max_wager_cents": "max_wager",
    "big_win_cents": "big_win",
    "rule_set": "rule_set",
    "dealer": "dealer",
}


@login_required
def table_setup(request: HttpRequest, table_id: int) -> HttpResponse:
    """GET: the table's settings in a form (read only for an Auditor). POST (a supervisor): set them."""
    _require(request, PIT_VIEWERS)
    table = get_object_or_404(Table.objects.select_related("pit", "rule_set", "dealer"), pk=table_id)
    can_decide = _may(request, PIT_DECIDERS)
    status = 200
    if request.method == "POST":
        _require(request, PIT_DECIDERS)
        form = TableSetupForm(request.POST, table=table)
        if form.is_valid():
            data = form.cleaned_data
            try:
                table_configure(
                    actor=actor_of(request.user),
                    table=table,
                    min_wager_cents=data["min_wager"],
                    max_wager_cents=data["max_wager"],
                    rule_set=data["rule_set"],
                    dealer=data["dealer"],
                    big_win_cents=data["big_win"],
                )
            except ApplicationError as exc:
                form.add_error(_FORM_FIELDS.get(str(exc.extra.get("field", ""))), exc.message)
                status = exc.status_code
            else:
                messages.success(request, _("Table %(table)s is set up.") % {"table": table.name})
                return redirect("pit-table-setup", table_id=table.pk)
        else:
            status = 400
    elif request.method == "GET":
        form = TableSetupForm(initial=_initial(table), table=table)
    else:
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    if not can_decide:
        for field in form.fields.values():
            field.disabled = True
    context = {"table": table, "form": form, "can_decide": can_decide, "peer": _peer(table)}
    return render(request, "pit/table_setup.html", context, status=status)


def _peer(table: Table) -> dict[str, bool]:
    """Whether the table's game has a variant without a bank (Pai Gow tiles), and whether the table plays it."""
    return {"offered": has_peer_variant(table.game), "playing": table.rule_set.options.get("mode") == "peer"}


@login_required
@require_POST
def table_setup_peer(request: HttpRequest, table_id: int) -> HttpResponse:
    """POST (a supervisor): the table plays the peer variant from its next round (its peer rule set, made if
    missing)."""
    _require(request, PIT_DECIDERS)
    table = get_object_or_404(Table.objects.select_related("pit", "rule_set", "dealer"), pk=table_id)
    try:
        table = table_play_peer(actor=actor_of(request.user), table=table)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Table %(table)s plays the peer variant from its next round: %(rules)s.")
            % {"table": table.name, "rules": table.rule_set.name},
        )
    return redirect("pit-table-setup", table_id=table_id)
