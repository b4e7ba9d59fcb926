"""REST endpoint of a tournament's deal: ``/api/tournaments/<id>/deal/``.

GET: the deal as recorded (``null`` before one), the players still in, and whether a deal can be made now (the
director, a supervisor or an Auditor). POST with ``"preview": true``: the deal worked out, nothing written; without:
the deal recorded (the director or a supervisor; 201). The service (``poker_room.deals.services``) decides every
refusal: 400 for figures (a stack missing or not a whole number of chips, amounts that do not add up), 403 for who, 409
for the tournament's state (not running, a deal already recorded, not 2 to 10 players in). Entries are named by their
number in the tournament, as keys of ``stacks`` and ``amounts``; money in integer cents.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_inputs import refuse_unknown_fields
from casino.fields import StrictIntegerField
from casino.roles import TOURNAMENT_VIEWERS, require_role
from poker_room.deals.models import Deal
from poker_room.deals.selectors import deal_state
from poker_room.deals.services import deal_propose, deal_record
from poker_room.floor import MOST_CENTS, MOST_CHIPS, require_runner
from poker_room.tournaments.models import Tournament

# --- input --------------------------------------------------------------------------------------------------------


class TournamentDealInputSerializer(serializers.Serializer[Any]):
    method = serializers.ChoiceField(
        choices=Deal.Method.choices,
        help_text="icm: Malmuth-Harville; chip_chop: everyone the last place's prize, the rest by chips; custom: "
        "the amounts given.",
    )
    stacks = serializers.DictField(
        child=StrictIntegerField(min_value=1, max_value=MOST_CHIPS),
        help_text="Chips by entry number, for every player still in and nobody else.",
    )
    reserve_cents = StrictIntegerField(
        required=False,
        default=0,
        min_value=0,
        max_value=MOST_CENTS,
        help_text="Left to play for: out of 1st place's prize (at most what 1st pays over 2nd), to the winner on top.",
    )
    amounts = serializers.DictField(
        child=StrictIntegerField(min_value=0, max_value=MOST_CENTS),
        required=False,
        allow_null=True,
        default=None,
        help_text="custom only: cents by entry number, adding up to the money left less the reserve.",
    )
    preview = serializers.BooleanField(
        required=False, default=False, help_text="true: work the deal out and write nothing."
    )
    worked_out = serializers.DictField(
        child=StrictIntegerField(min_value=0, max_value=MOST_CENTS),
        required=False,
        allow_null=True,
        default=None,
        help_text="The amounts (cents by entry number) a preview showed and the players agreed to: the deal is "
        "recorded only if it still works out to exactly these (409 otherwise, nothing written).",
    )


# --- answers ------------------------------------------------------------------------------------------------------


class TournamentDealProposedLineSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(help_text="The entry number.")
    name = serializers.CharField()
    stack = serializers.IntegerField()
    share_bp = serializers.IntegerField(help_text="Of the chips counted, in basis points.")
    no_deal_cents = serializers.IntegerField(help_text="The prize of the place the stack holds, with no deal.")
    icm_cents = serializers.IntegerField()
    chip_chop_cents = serializers.IntegerField()
    amount_cents = serializers.IntegerField(help_text="By the method chosen; the reserve not included.")


class TournamentDealProposalSerializer(serializers.Serializer[Any]):
    method = serializers.CharField()
    prizes_left_cents = serializers.ListField(child=serializers.IntegerField(), source="prizes_left")
    money_cents = serializers.IntegerField(help_text="The prizes of the places left, the reserve included.")
    reserve_cents = serializers.IntegerField()
    lines = TournamentDealProposedLineSerializer(many=True)


class TournamentDealRecordedLineSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    stack = serializers.IntegerField()
    share_bp = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True, help_text="Once placed.")
    paid_cents = serializers.IntegerField(allow_null=True, help_text="Posted when placed (1st: with the reserve).")


class TournamentDealRecordedDealSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="deal.pk")
    method = serializers.CharField()
    prizes_left_cents = serializers.ListField(child=serializers.IntegerField(), source="prizes_left")
    money_cents = serializers.IntegerField()
    reserve_cents = serializers.IntegerField()
    lines = TournamentDealRecordedLineSerializer(many=True)
    recorded_by = serializers.CharField(source="actor")
    recorded_at = serializers.DateTimeField(source="at")
    problem = serializers.CharField(help_text="Empty, or why the deal's row cannot be read (then it has no lines).")


class TournamentDealPlayerInSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(source="number")
    name = serializers.CharField()


class TournamentDealStateSerializer(serializers.Serializer[Any]):
    deal = TournamentDealRecordedDealSerializer(source="recorded", allow_null=True)
    players_in = TournamentDealPlayerInSerializer(source="players", many=True)
    can_deal = serializers.BooleanField()
    refusal = serializers.CharField(help_text="Why no deal can be made now; empty when one can or one is recorded.")


def _state_answer(tournament: Tournament, code: int = status.HTTP_200_OK) -> Response:
    return Response(TournamentDealStateSerializer(deal_state(tournament)).data, status=code)


class DealApi(APIView):
    idempotency_key_required = True  # it moves money or chips (casino.idempotency)

    @extend_schema(
        responses=TournamentDealStateSerializer,
        summary="A tournament's deal: as recorded (null before one), the players still in, and whether one can be "
        "made now (the director, a supervisor or an Auditor)",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        require_role(request.user, *TOURNAMENT_VIEWERS, action="read a tournament's deal")
        return _state_answer(get_object_or_404(Tournament, pk=tournament_id))

    @extend_schema(
        request=TournamentDealInputSerializer,
        responses={200: TournamentDealProposalSerializer, 201: TournamentDealStateSerializer},
        summary="Work a deal out (preview: nothing written) or record it: each player is then paid their amount when "
        "placed, the winner theirs plus the reserve (the director or a supervisor)",
        description="400 for a stack missing, given for a player who is out, or not a whole number of chips, or "
        "amounts that do not add up to the money left less the reserve; 409 before the start, after the end, with "
        "a deal already recorded, or with other than 2 to 10 players in.",
        examples=[
            OpenApiExample(
                "ICM, worked out",
                value={"method": "icm", "stacks": {"3": 120000, "7": 80000, "9": 40000}, "preview": True},
                request_only=True,
            ),
            OpenApiExample(
                "Chip chop with 100.00 left to play for",
                value={"method": "chip_chop", "stacks": {"3": 120000, "7": 80000, "9": 40000}, "reserve_cents": 10000},
                request_only=True,
            ),
            OpenApiExample(
                "Agreed amounts",
                value={
                    "method": "custom",
                    "stacks": {"3": 120000, "7": 80000, "9": 40000},
                    "amounts": {"3": 50000, "7": 30000, "9": 20000},
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        require_runner(request.user, action="work out or record a deal")  # before the body: who first, then what
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        serializer = TournamentDealInputSerializer(data=request.data)
        refuse_unknown_fields(serializer, request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        given = {
            "method": data["method"],
            "stacks": data["stacks"],
            "reserve_cents": data["reserve_cents"],
            "amounts": data["amounts"],
        }
        if data["preview"]:
            return Response(TournamentDealProposalSerializer(deal_propose(tournament, **given)).data)
        shown = data["worked_out"]
        worked_out = None if shown is None else {str(number).strip(): cents for number, cents in shown.items()}
        deal_record(actor=request.user, tournament=tournament, worked_out=worked_out, **given)
        return _state_answer(tournament, status.HTTP_201_CREATED)
