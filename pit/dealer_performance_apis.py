"""REST reads of the dealers' figures (``pit.dealer_performance``), with the pages' permissions: every dealer's in a
shift for supervisors and auditors; a Dealer's own pace for that dealer alone. Refusals are ``{"message", "extra"}``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.errors import NotAllowed
from casino.models import Shift
from casino.roles import OVERSEERS, ROLE_NAMES, Role, user_has_role
from pit.dealer_performance import ALERT_Z, dealer_performance_rows, dealer_shifts
from pit.dealer_performance_report import dealer_line
from pit.report_selectors import shift_get


class DealerLineSerializer(serializers.Serializer[Any]):
    dealer_id = serializers.IntegerField(allow_null=True, help_text="The dealer's user id; null: no dealer recorded.")
    dealer = serializers.CharField(help_text="The dealer's user name; empty when no dealer was recorded.")
    game = serializers.CharField()
    start = serializers.DateTimeField(allow_null=True, help_text="The open of their first round of the game.")
    end = serializers.DateTimeField(allow_null=True, help_text="The end (settle or void) of their last round.")
    seconds_on_box = serializers.IntegerField()
    rounds_settled = serializers.IntegerField()
    rounds_voided = serializers.IntegerField()
    rounds_per_hour = serializers.FloatField(allow_null=True)
    voids_per_100 = serializers.FloatField(allow_null=True, help_text="Voided rounds per 100 rounds dealt.")
    corrections = serializers.IntegerField()
    corrections_per_100 = serializers.FloatField(allow_null=True, help_text="Corrections per 100 rounds dealt.")
    handle_cents = serializers.IntegerField()
    house_win_cents = serializers.IntegerField()
    theo_cents = serializers.IntegerField(help_text="What the house edge expects the house to win of the handle.")
    hold_percent = serializers.FloatField(allow_null=True)
    expected_hold_percent = serializers.FloatField(allow_null=True)
    z = serializers.FloatField(allow_null=True, help_text="(house win - expected) / standard deviation.")
    alert = serializers.BooleanField(help_text="|z| at or above alert_z.")


class ShiftDealersSerializer(serializers.Serializer[Any]):
    shift = serializers.IntegerField()
    alert_z = serializers.FloatField()
    dealers = DealerLineSerializer(many=True)


class PaceLineSerializer(serializers.Serializer[Any]):
    game = serializers.CharField()
    rounds_settled = serializers.IntegerField()
    seconds_on_box = serializers.IntegerField()
    rounds_per_hour = serializers.FloatField(allow_null=True)


class PaceShiftSerializer(serializers.Serializer[Any]):
    shift = serializers.IntegerField()
    games = PaceLineSerializer(many=True)


class OwnPaceSerializer(serializers.Serializer[Any]):
    dealer = serializers.CharField()
    shifts = PaceShiftSerializer(many=True)


def _lines(shift: Shift) -> list[dict[str, Any]]:
    return [{"dealer_id": row.dealer_id, **dealer_line(row)} for row in dealer_performance_rows(shift=shift)]


class ShiftDealersApi(APIView):
    @extend_schema(
        responses={200: ShiftDealersSerializer, 403: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT},
        summary="Every dealer's figures at each game in a shift (Floor supervisor, Pit boss or Auditor)",
        description="Rounds settled and voided, rounds an hour on the box, voids and corrections per 100 rounds dealt, "
        "handle, house win and its expectation, hold and z; the alert at |z| >= alert_z. The rounds with no dealer "
        "recorded are a line of their own (dealer_id null), so the lines add up to the shift's rounds.",
    )
    def get(self, request: Request, shift_id: int) -> Response:
        if not (request.user.is_superuser or user_has_role(request.user, *OVERSEERS)):
            raise NotAllowed(
                _("Only a %(roles)s may read the dealers' figures.")
                % {"roles": _(" or ").join(str(ROLE_NAMES[role]) for role in OVERSEERS)},
                extra={"required_roles": [role.value for role in OVERSEERS]},
            )
        shift = shift_get(shift_id=shift_id)
        body = {"shift": shift.pk, "alert_z": ALERT_Z, "dealers": _lines(shift)}
        return Response(ShiftDealersSerializer(body).data)


class OwnPaceApi(APIView):
    @extend_schema(
        responses={200: OwnPaceSerializer, 403: OpenApiTypes.OBJECT},
        summary="The signed-in Dealer's own pace over their last shifts (Dealer)",
        description="Per shift (newest first) and game: settled rounds, time on the box and rounds an hour. Nothing "
        "of the hold and nothing of other dealers.",
    )
    def get(self, request: Request) -> Response:
        me = request.user.pk  # a Dealer, signed in: never everyone's figures
        if me is None or not user_has_role(request.user, Role.DEALER):
            raise NotAllowed(
                _("Only a Dealer has a pace of their own to read."), extra={"required_roles": [Role.DEALER.value]}
            )
        shifts = [
            {
                "shift": shift.pk,
                "games": [
                    {
                        "game": row.game,
                        "rounds_settled": row.rounds_settled,
                        "seconds_on_box": row.seconds_on_box,
                        "rounds_per_hour": round(row.rounds_per_hour, 2) if row.rounds_per_hour is not None else None,
                    }
                    for row in dealer_performance_rows(shift=shift, dealer_id=me)
                ],
            }
            for shift in dealer_shifts(dealer_id=me)
        ]
        return Response(OwnPaceSerializer({"dealer": request.user.get_username(), "shifts": shifts}).data)
