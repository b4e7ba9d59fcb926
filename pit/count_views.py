"""The count room (DESIGN.md "The table's money"): the closed shifts' drop boxes and their counts.

``/count/`` lists the drop boxes of the last closed shifts (``pit.count_selectors.drop_boxes_to_count``), each with
where it stands: not counted, counted once, counts that disagree, final (with its drop). A member of the Count team
enters a box's count there: the notes by denomination, the markers and the promotional chips
(``tables.drop.drop_count_record``); supervisors and Auditors read; anyone else gets a 403.

A second count must be independent of the first, so until a box is final the page shows that a count is in and who
made it, never its figures. A refusal is the page again with the service's message and the figures typed still in
the box's form, in the status the API would answer (400, 403, 409); nothing is written. A count that went through
redirects back to its box.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from casino import numbers
from casino.errors import ApplicationError
from casino.forms import AmountField
from casino.models import Shift
from casino.roles import COUNT_VIEWERS, Role
from casino.users import actor_of
from pit.count_selectors import drop_boxes_to_count
from pit.views import _may, _require
from tables.drop import MOST_CENTS, NOTES_CENTS, DropBox, drop_box, drop_count_record
from tables.models import Table

COUNTERS: tuple[Role, ...] = (Role.COUNT_TEAM,)

# A number of notes as typed: a whole number goes to the service, which says whether it is one it takes; anything
# else goes as the text typed, cut short, and the service says what is wrong with it.
_WHOLE = re.compile(r"-?[0-9]{1,12}")
_SHOWN = 24


def _note_field(cents: int) -> str:
    return f"note_{cents}"


class DropCountForm(forms.Form):
    """A drop box's count: the notes of each denomination, the markers and the promotional chips as amounts
    ("125.00"); a field left empty is none, as its "0" or "0.00" shows (the second count catches a slip)."""

    markers = AmountField(label=gettext_lazy("Markers"), most_cents=MOST_CENTS, required=False)
    promo = AmountField(label=gettext_lazy("Promotional chips"), most_cents=MOST_CENTS, required=False)

    def clean_markers(self) -> int:
        return self.cleaned_data.get("markers") or 0

    def clean_promo(self) -> int:
        return self.cleaned_data.get("promo") or 0

    def clean(self) -> dict[str, Any]:
        """A form sent with nothing typed is a slip of the finger, not an empty box: that is typed as a 0."""
        cleaned = super().clean() or {}
        if not any(str(self.data.get(self.add_prefix(name), "")).strip() for name in self.fields):
            raise forms.ValidationError(_("Nothing was typed: count the box, or type 0 in any field if it is empty."))
        return cleaned

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for cents in NOTES_CENTS:
            self.fields[_note_field(cents)] = forms.CharField(required=False, label=numbers.amount(cents))

    def note_fields(self) -> list[forms.BoundField]:
        return [self[_note_field(cents)] for cents in NOTES_CENTS]

    def cash(self) -> dict[object, object]:
        """The notes counted, for the service: an empty field is none of that note."""
        cash: dict[object, object] = {}
        for cents in NOTES_CENTS:
            text = self.cleaned_data.get(_note_field(cents), "").strip()
            if not text:
                cash[cents] = 0
            elif _WHOLE.fullmatch(text):
                cash[cents] = int(text)
            else:
                cash[cents] = text if len(text) <= _SHOWN else f"{text[:_SHOWN]}…"
        return cash


def _form_field(service_field: str) -> str | None:
    """The form's field for the service's ``extra["field"]``, if it names one."""
    if service_field.startswith("cash."):
        name = f"note_{service_field.removeprefix('cash.')}"
        return name if name in {_note_field(cents) for cents in NOTES_CENTS} else None
    return {"markers_cents": "markers", "promo_cents": "promo"}.get(service_field)


@dataclass(frozen=True)
class BoxLine:
    """A drop box as the page shows it: who counted it (oldest first), whether the viewer did, and the form to count
    it (None where the viewer does not count it)."""

    box: DropBox
    counters: list[str]
    mine: bool
    form: DropCountForm | None
    refused: bool
    # The field the service's refusal names (marked in the form; its message is the page's).
    refused_field: str | None = None

    @property
    def anchor(self) -> str:
        return f"box-{self.box.shift.pk}-{self.box.table.pk}"


def _count_context(
    request: HttpRequest,
    *,
    posted: tuple[int, int] | None = None,
    form: DropCountForm | None = None,
    error: str | None = None,
    refused_field: str | None = None,
) -> dict[str, Any]:
    can_count = _may(request, COUNTERS)
    shifts = []
    for group in drop_boxes_to_count():
        lines = []
        for box in group.boxes:
            refused = posted == (box.shift.pk, box.table.pk)
            mine = any(count.counted_by_id == request.user.pk for count in box.counts)
            shown = None
            if refused:
                shown = form
            elif can_count and box.final is None and not mine:
                shown = DropCountForm()
            lines.append(
                BoxLine(
                    box=box,
                    counters=[count.counted_by.get_username() for count in box.counts],
                    mine=mine,
                    form=shown,
                    refused=refused,
                    refused_field=refused_field if refused else None,
                )
            )
        shifts.append((group.shift, lines))
    return {"shifts": shifts, "can_count": can_count, "error": error}


@login_required
@require_GET
def count(request: HttpRequest) -> HttpResponse:
    """The closed shifts' drop boxes, where each stands, and for the Count team a form to count each box."""
    _require(request, COUNT_VIEWERS)
    return render(request, "pit/count.html", _count_context(request))


@login_required
@require_POST
def count_record(request: HttpRequest, shift_id: int, table_id: int) -> HttpResponse:
    """A member of the Count team records a count of one box (``drop_count_record``)."""
    _require(request, COUNT_VIEWERS)
    shift = get_object_or_404(Shift, pk=shift_id)
    table = get_object_or_404(Table, pk=table_id)
    form = DropCountForm(request.POST)
    posted = (shift.pk, table.pk)
    if not form.is_valid():
        error = _("Nothing was recorded for table %(table)s: correct what is marked below.") % {"table": table.name}
        return render(
            request, "pit/count.html", _count_context(request, posted=posted, form=form, error=error), status=400
        )
    try:
        drop_count_record(
            actor=actor_of(request.user),
            table=table,
            shift=shift,
            cash=form.cash(),
            markers_cents=form.cleaned_data["markers"],
            promo_cents=form.cleaned_data["promo"],
        )
    except ApplicationError as exc:
        field = _form_field(str(exc.extra.get("field", "")))
        context = _count_context(request, posted=posted, form=form, error=exc.message, refused_field=field)
        return render(request, "pit/count.html", context, status=exc.status_code)
    box = drop_box(table=table, shift=shift)
    names = {"table": table.name, "shift": shift.name}
    if box.drop_cents is not None:
        done = _("The drop box of table %(table)s, %(shift)s shift, is final: the drop is %(drop)s.")
        names["drop"] = numbers.amount(box.drop_cents)
    elif box.status == "counted once":
        done = _(
            "Your count of table %(table)s, %(shift)s shift, is in: a second, independent count by another member "
            "makes the box final."
        )
    else:
        done = _(
            "Your count of table %(table)s, %(shift)s shift, is in and does not agree with an earlier count: "
            "another member counts the box again."
        )
    messages.success(request, done % names)
    return redirect(f"{reverse('count')}#box-{shift.pk}-{table.pk}")
