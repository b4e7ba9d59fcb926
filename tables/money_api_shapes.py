"""The bodies the table's money API takes and answers (``tables.money_apis``): the chips, tray counts, slips,
buy-ins and drop boxes, field by field, for its schema. The input serializers check only the shape of a request (a
JSON integer where a number is due, a choice among the kinds); what the figures may be, in the dealer's words, is the
services' to say (``tables.tray``, ``tables.slips``, ``tables.drop``). Money is integer cents; chips and notes are
counted by denomination, an object of ``{"value in cents": how many}``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from casino.fields import RowOrProblem, StrictCharField, StrictIntegerField
from tables.drop import MOST_CENTS, MOST_NOTES, DropBox
from tables.models import BuyIn, Slip, TrayCount
from tables.tray import MOST_CHIPS, tray_variance

# --- inputs ---------------------------------------------------------------------------------------


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {"type": "integer", "minimum": 0, "maximum": MOST_CHIPS},
        "description": "Chips by denomination: each chip's value in cents (a house chip in use) to how many, a JSON "
        "integer.",
        "example": {"2500": 20, "10000": 3},
    }
)
class ChipCountsField(serializers.DictField):
    """Chips by denomination: an object; its denominations and numbers are the service's to check, in the dealer's
    words (``tables.tray.tray_counts_read``)."""


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {"type": "integer", "minimum": 0, "maximum": MOST_NOTES},
        "description": "Notes by denomination: each note's value in cents to how many, a JSON integer.",
        "example": {"10000": 3, "2000": 10},
    }
)
class NoteCountsField(serializers.DictField):
    """Notes by denomination: an object; the service checks its notes and numbers (``tables.drop``)."""


class TrayCountInputSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=TrayCount.Kind.choices)
    counts = ChipCountsField()


class SlipRequestInputSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=Slip.Kind.choices)
    chips = ChipCountsField(help_text="The chips to move, by denomination; at least one.")


class SlipVoidInputSerializer(serializers.Serializer[Any]):
    reason = StrictCharField(allow_blank=True, help_text="Why the slip is voided (required, in words).")


class BuyInInputSerializer(serializers.Serializer[Any]):
    seat = StrictIntegerField(min_value=1)
    # Cash only: a buy-in paid with a marker is recorded when the marker is issued (``POST /markers/{id}/issue/``).
    medium = serializers.ChoiceField(
        choices=[(BuyIn.Medium.CASH.value, BuyIn.Medium.CASH.label)],
        help_text="cash: a marker's chips are recorded when the marker is issued (POST /markers/{id}/issue/).",
        error_messages={
            "invalid_choice": gettext_lazy(
                "A buy-in here is paid in cash: a marker is asked for at POST /tables/{{id}}/markers/ and its chips "
                "recorded when a supervisor issues it."
            )
        },
    )
    amount_cents = StrictIntegerField(min_value=1, max_value=MOST_CENTS)


class DropCountInputSerializer(serializers.Serializer[Any]):
    cash = NoteCountsField()
    markers_cents = StrictIntegerField(min_value=0, max_value=MOST_CENTS)
    promo_cents = StrictIntegerField(min_value=0, max_value=MOST_CENTS)


# --- answers --------------------------------------------------------------------------------------


class ChipOutputSerializer(serializers.Serializer[Any]):
    value_cents = serializers.IntegerField()
    colour = serializers.CharField()


class TrayCountOutputSerializer(RowOrProblem):
    id = serializers.IntegerField(source="pk")
    table = serializers.IntegerField(source="table_id")
    table_name = serializers.CharField(source="table.name")
    shift = serializers.IntegerField(source="shift_id")
    kind = serializers.CharField()
    status = serializers.CharField(help_text="counted (to confirm) or confirmed")
    counts = serializers.DictField(child=serializers.IntegerField())
    total_cents = serializers.IntegerField()
    expected_cents = serializers.IntegerField(
        allow_null=True, help_text="An opener's: the table's last confirmed closer (null for a first opening)."
    )
    difference_cents = serializers.SerializerMethodField(help_text="Counted − expected (over when positive).")
    variance_level = serializers.SerializerMethodField(
        help_text="none, report (a written report) or escalate (the discrepancy thresholds are settings)"
    )
    counted_by = serializers.CharField(source="counted_by.username")
    counted_at = serializers.DateTimeField()
    confirmed_by = serializers.CharField(source="confirmed_by.username", allow_null=True, default=None)
    confirmed_at = serializers.DateTimeField(allow_null=True)

    def get_difference_cents(self, count: TrayCount) -> int:
        return tray_variance(count).difference_cents

    def get_variance_level(self, count: TrayCount) -> str:
        return tray_variance(count).level


class SlipOutputSerializer(RowOrProblem):
    id = serializers.IntegerField(source="pk")
    kind = serializers.CharField()
    number = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    table_name = serializers.CharField(source="table.name")
    shift = serializers.IntegerField(source="shift_id")
    chips = serializers.DictField(child=serializers.IntegerField())
    total_cents = serializers.IntegerField()
    status = serializers.CharField(help_text="requested, issued, received or voided")
    requested_by = serializers.CharField(source="requested_by.username")
    requested_at = serializers.DateTimeField()
    issued_by = serializers.CharField(source="issued_by.username", allow_null=True, default=None)
    issued_at = serializers.DateTimeField(allow_null=True)
    dealer_signed_by = serializers.CharField(source="dealer_signed_by.username", allow_null=True, default=None)
    supervisor_signed_by = serializers.CharField(source="supervisor_signed_by.username", allow_null=True, default=None)
    received_at = serializers.DateTimeField(allow_null=True)
    voided_by = serializers.CharField(source="voided_by.username", allow_null=True, default=None)
    void_reason = serializers.CharField()


class SlipNumbersOutputSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField()
    used = serializers.ListField(child=serializers.IntegerField(), help_text="Numbers on slips not voided.")
    voided = serializers.ListField(child=serializers.IntegerField(), help_text="Numbers on voided slips.")
    missing = serializers.ListField(child=serializers.IntegerField(), help_text="Gaps: there should be none.")


class BuyInOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    table = serializers.IntegerField(source="table_id")
    shift = serializers.IntegerField(source="shift_id")
    seat = serializers.IntegerField(source="seat_number")
    medium = serializers.CharField()
    amount_cents = serializers.IntegerField()
    recorded_by = serializers.CharField(source="recorded_by.username")
    recorded_at = serializers.DateTimeField()
    corrects = serializers.IntegerField(source="corrects_id", allow_null=True)


class DropCountOutputSerializer(RowOrProblem):
    id = serializers.IntegerField(source="pk")
    counted_by = serializers.CharField(source="counted_by.username")
    counted_at = serializers.DateTimeField()
    cash = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    cash_cents = serializers.IntegerField(allow_null=True)
    markers_cents = serializers.IntegerField(allow_null=True)
    promo_cents = serializers.IntegerField(allow_null=True)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        body = dict(super().to_representation(instance))
        if self.context.get("figures_hidden"):
            body.update(cash=None, cash_cents=None, markers_cents=None, promo_cents=None)
        return body


class DropBoxOutputSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField(source="table.pk")
    table_name = serializers.CharField(source="table.name")
    shift = serializers.IntegerField(source="shift.pk")
    shift_name = serializers.CharField(source="shift.name")
    shift_closed = serializers.SerializerMethodField()
    status = serializers.CharField(help_text="not counted, counted once, counts disagree or final")
    drop_cents = serializers.IntegerField(allow_null=True, help_text="The final count's cash and markers.")
    final = serializers.IntegerField(source="final.pk", allow_null=True, default=None, help_text="The final count.")
    figures_hidden = serializers.SerializerMethodField(
        help_text="True for a Count team member who has not counted this box: the counts' figures are null."
    )
    counts = DropCountOutputSerializer(many=True, help_text="Oldest first.")

    def get_shift_closed(self, box: DropBox) -> bool:
        return box.shift.closed_at is not None

    def get_figures_hidden(self, box: DropBox) -> bool:
        return bool(self.context.get("figures_hidden"))
