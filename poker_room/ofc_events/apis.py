"""REST endpoints of Open-Face points tournaments: a round begun, a hand entered or voided, the
standings, the finish. Thin, one class per operation, as ``poker_room.tournaments.apis``: the services
(``poker_room.ofc_events.services``) decide who may and whether the state allows it, and refuse with ``{"message",
"extra"}`` (400, 403, 404, 409). Players are named by their entry number, boards as card text ("As Kd 7c"), points as
whole numbers.

Who reads the standings: whoever may look at the console (the director, the supervisors, the Auditors) and the
dealers of the tournament's tables (the players at their tables see the standings on the tablet anyway).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.fields import StrictCharField, StrictIntegerField
from poker_room.api_inputs import InputSerializer, tournament_or_404, valid_input
from poker_room.floor import reader_tables
from poker_room.ofc_events import services
from poker_room.ofc_events.models import OfcHand
from poker_room.ofc_events.selectors import hands_played, ofc_standings, round_tables
from poker_room.pure.ofc_standings import TIE_BREAKS
from poker_room.tournaments.models import Tournament

_WHO_RUNS = " (the director or a supervisor)"


# --- inputs -------------------------------------------------------------------------------------------------------


class HandInputSerializer(InputSerializer):
    boards = serializers.DictField(
        child=serializers.ListField(
            child=StrictCharField(max_length=60, allow_blank=True, trim_whitespace=True), min_length=3, max_length=3
        ),
        help_text='Each seated player\'s board by entry number: ["front 3 cards", "middle 5", "back 5"].',
    )

    round = StrictIntegerField(
        required=False,
        min_value=1,
        max_value=10_000,
        help_text="The round the boards were laid in (optional): refused (409) if another round is being played.",
    )
    hand = StrictIntegerField(
        required=False,
        min_value=1,
        max_value=10_000,
        help_text="The hand's number at the table (optional): refused (409) unless it is the table's next hand, so a "
        "hand sent again after a timeout is not recorded twice.",
    )


class OfcVoidInputSerializer(InputSerializer):
    reason = StrictCharField(max_length=500)


# --- outputs ------------------------------------------------------------------------------------------------------


class OfcSeatOutputSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    entry = serializers.IntegerField(help_text="The entry number.")
    name = serializers.CharField()


class RoundTableOutputSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    hands_played = serializers.IntegerField()
    seats = OfcSeatOutputSerializer(many=True)


class OfcRoundOutputSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField(help_text="The round being played (0 before round 1).")
    rounds = serializers.IntegerField()
    hands_per_round = serializers.IntegerField()
    tables = RoundTableOutputSerializer(many=True)


class HandOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    hand = serializers.IntegerField(help_text="Its number in the round at its table.")
    table = serializers.IntegerField(source="table_number")
    status = serializers.CharField()
    boards = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    points = serializers.DictField(child=serializers.IntegerField(), help_text="Zero-sum, by entry number.")
    royalties = serializers.DictField(child=serializers.IntegerField())
    fouls = serializers.ListField(child=serializers.IntegerField())
    void_reason = serializers.CharField()


class StandingOutputSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="Shared by players level on every tie-break while no lot is drawn.")
    place = serializers.IntegerField(allow_null=True, help_text="The place once finished.")
    entry = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    points = serializers.IntegerField()
    by_round = serializers.ListField(child=serializers.IntegerField())
    last_round = serializers.IntegerField(help_text="The points of the last round played (the first tie-break).")
    scoops = serializers.IntegerField()
    fouls = serializers.IntegerField()
    royalties = serializers.IntegerField()
    hands = serializers.IntegerField()
    lot = serializers.IntegerField(allow_null=True)
    tied = serializers.BooleanField()


class StandingsOutputSerializer(serializers.Serializer[Any]):
    status = serializers.CharField()
    round = serializers.IntegerField()
    rounds = serializers.IntegerField()
    hands_per_round = serializers.IntegerField()
    royalties = serializers.CharField(help_text="The royalty table: mainz or standard.")
    tie_breaks = serializers.ListField(child=serializers.CharField())
    standings = StandingOutputSerializer(many=True)


def _round_answer(tournament: Tournament, code: int = status.HTTP_200_OK) -> Response:
    played = hands_played(tournament, tournament.ofc_round)
    body = {
        "round": tournament.ofc_round,
        "rounds": tournament.ofc_rounds,
        "hands_per_round": tournament.ofc_hands_per_round,
        "tables": [
            {
                "table": number,
                "hands_played": played.get(number, 0),
                "seats": [{"seat": e.seat_number, "entry": e.number, "name": e.name} for e in players],
            }
            for number, players in sorted(round_tables(tournament).items())
        ],
    }
    return Response(OfcRoundOutputSerializer(body).data, status=code)


def _standings_answer(tournament_id: int) -> Response:
    tournament = Tournament.objects.get(pk=tournament_id)
    body = {
        "status": tournament.status,
        "round": tournament.ofc_round,
        "rounds": tournament.ofc_rounds,
        "hands_per_round": tournament.ofc_hands_per_round,
        "royalties": tournament.ofc_royalties,
        "tie_breaks": list(TIE_BREAKS),
        "standings": ofc_standings(tournament),
    }
    return Response(StandingsOutputSerializer(body).data)


# --- the endpoints ------------------------------------------------------------------------------------------------


class OfcRoundApi(APIView):
    @extend_schema(
        request=None,
        responses={201: OfcRoundOutputSerializer},
        summary="Begin the next Open-Face round: the tables drawn again at random" + _WHO_RUNS,
        description="409 before the start, while a table has hands left to play in the round, after the last round, "
        "or for a tournament that is not an Open-Face points event.",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        begun = services.ofc_round_begin(actor=request.user, tournament=tournament_or_404(tournament_id))
        return _round_answer(begun, status.HTTP_201_CREATED)


class OfcHandApi(APIView):
    @extend_schema(
        request=HandInputSerializer,
        responses={201: HandOutputSerializer},
        summary="Enter one hand at a table: every seated player's finished board, scored by the engine (the table's "
        "dealer, the director or a supervisor)",
        description="400 for a board missing or not 3, 5 and 5 cards, a card not read, a card twice on the table (in "
        "the dealer's words, naming the field); 409 beyond the round's hands.",
        examples=[
            OpenApiExample(
                "Two players",
                value={
                    "boards": {
                        "3": ["Qs Qd 4c", "9c 9h 7d 7s 2h", "Ac Ad Ah 3s 3d"],
                        "7": ["2s 3h 4d", "5s 5h 8h 9s Ts", "Kc Kh Jd Js 2c"],
                    }
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, tournament_id: int, table_number: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        data = valid_input(HandInputSerializer, request)
        hand = services.ofc_hand_record(
            actor=request.user,
            tournament=tournament,
            table_number=table_number,
            boards=data["boards"],
            round_number=data.get("round"),
            hand_number=data.get("hand"),
        )
        return Response(HandOutputSerializer(hand).data, status=status.HTTP_201_CREATED)


class OfcHandVoidApi(APIView):
    @extend_schema(
        request=OfcVoidInputSerializer,
        responses=HandOutputSerializer,
        summary="Void a hand entered wrongly, saying why: the table's latest of the round" + _WHO_RUNS,
        description="409 for a hand voided already, of a round that is over, or with a later hand at its table.",
    )
    def post(self, request: Request, tournament_id: int, hand_id: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        hand = get_object_or_404(OfcHand, tournament=tournament, pk=hand_id)
        data = valid_input(OfcVoidInputSerializer, request)
        voided = services.ofc_hand_void(actor=request.user, tournament=tournament, hand=hand, reason=data["reason"])
        return Response(HandOutputSerializer(voided).data)


class OfcStandingsApi(APIView):
    @extend_schema(
        responses=StandingsOutputSerializer,
        summary="The standings: points by round and in all; ties broken by the last round's points, the scoops, the "
        "fewest fouls, then a lot drawn at the finish",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        reader_tables(request.user, tournament, what="read the standings")
        return _standings_answer(tournament.pk)


class OfcFinishApi(APIView):
    @extend_schema(
        request=None,
        responses=StandingsOutputSerializer,
        summary="Finish after the last round's last hand: everyone placed by the standings and paid" + _WHO_RUNS,
        description="409 before the last round is complete, or once finished.",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        services.ofc_finish(actor=request.user, tournament=tournament)
        return _standings_answer(tournament.pk)
