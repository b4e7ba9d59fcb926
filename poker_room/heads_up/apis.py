"""REST endpoints of a heads-up event: the bracket (read it, draw it), and a match's hands and winner.

Thin, as ``poker_room.tournaments.apis``: ``poker_room.heads_up.services`` decides every write and refuses with
``{"message", "extra"}`` (400, 403, 404, 409). Players are named by their entry number; a match by its id (the bracket
lists them). Whoever may read the console reads the bracket, and so does a Dealer (the tablet shows it).
"""

from __future__ import annotations

from typing import Any, TypedDict

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.fields import StrictCharField, StrictIntegerField
from casino.roles import TOURNAMENT_VIEWERS, Role, require_role
from poker_room.api_inputs import MOST_NUMBER, InputSerializer, tournament_or_404, valid_input
from poker_room.heads_up import services as heads_up
from poker_room.heads_up.models import Match
from poker_room.heads_up.selectors import BracketView, MatchLine, bracket_view
from poker_room.tournaments.models import Entry, Tournament


def _match(tournament: Tournament, match_id: int) -> Match:
    return get_object_or_404(Match, tournament=tournament, pk=match_id)


# --- outputs ------------------------------------------------------------------------------------------------------


class MatchBlindsOutputSerializer(serializers.Serializer[Any]):
    level = serializers.IntegerField(help_text="The level, as the director counts (breaks left out).")
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()
    hand_in_level = serializers.IntegerField(help_text="The next hand's place in its level (1 = its first).")
    hands_in_level = serializers.IntegerField()
    last_level = serializers.BooleanField()


class MatchOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    stage = serializers.ChoiceField(choices=Match.Stage.choices)
    round = serializers.IntegerField()
    number = serializers.IntegerField()
    group = serializers.IntegerField(allow_null=True)
    a = serializers.IntegerField(allow_null=True, help_text="Side a's entry number (null: not known yet).")
    b = serializers.IntegerField(allow_null=True)
    a_from = serializers.CharField(help_text='Where side a comes from while not known ("Winner of match 3").')
    b_from = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    hands = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Match.Status.choices)
    winner = serializers.IntegerField(allow_null=True)
    blinds = MatchBlindsOutputSerializer(allow_null=True, help_text="The next hand's blinds (a match being played).")


class GroupStandingOutputSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    place = serializers.IntegerField()


class HeadsUpGroupOutputSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    standing = GroupStandingOutputSerializer(many=True, help_text="Wins, then head-to-head among the tied, then seed.")
    matches = MatchOutputSerializer(many=True)


class KnockoutRoundOutputSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    name = serializers.CharField()
    matches = MatchOutputSerializer(many=True)


class BracketOutputSerializer(serializers.Serializer[Any]):
    drawn = serializers.BooleanField()
    mode = serializers.ChoiceField(choices=["groups", "knockout"], help_text="The stage the field plays first.")
    prize_tiers = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Ranges of places [first, last] sharing their prizes equally.",
    )
    groups = HeadsUpGroupOutputSerializer(many=True)
    rounds = KnockoutRoundOutputSerializer(many=True)


def _number(entry: Entry | None) -> int | None:
    return entry.number if entry is not None else None


class MatchBlindsBody(TypedDict):
    level: int
    small_blind: int
    big_blind: int
    ante: int
    hand_in_level: int
    hands_in_level: int
    last_level: bool


class MatchBody(TypedDict):
    """A match as the API answers it (``MatchOutputSerializer``): entries by number."""

    id: int
    stage: str
    round: int
    number: int
    group: int | None
    a: int | None
    b: int | None
    a_from: str
    b_from: str
    table: int | None
    hands: int
    status: str
    winner: int | None
    blinds: MatchBlindsBody | None


class GroupStandingBody(TypedDict):
    """One player's line in a group's standing."""

    entry: int
    name: str
    played: int
    wins: int
    losses: int
    place: int


class GroupBody(TypedDict):
    number: int
    standing: list[GroupStandingBody]
    matches: list[MatchBody]


class KnockoutRoundBody(TypedDict):
    number: int
    name: str
    matches: list[MatchBody]


class BracketBody(TypedDict):
    """The bracket as the API answers it (``BracketOutputSerializer``)."""

    drawn: bool
    mode: str
    prize_tiers: list[list[int]]
    groups: list[GroupBody]
    rounds: list[KnockoutRoundBody]


def match_data(line: MatchLine) -> MatchBody:
    match, blinds = line.match, line.blinds
    return {
        "id": match.pk,
        "stage": match.stage,
        "round": match.round,
        "number": match.number,
        "group": match.group,
        "a": _number(line.a),
        "b": _number(line.b),
        "a_from": line.a_from,
        "b_from": line.b_from,
        "table": match.table_number,
        "hands": match.hands,
        "status": match.status,
        "winner": _number(match.winner),
        "blinds": None
        if blinds is None
        else {
            "level": blinds.level_number,
            "small_blind": blinds.level.small_blind,
            "big_blind": blinds.level.big_blind,
            "ante": blinds.level.ante,
            "hand_in_level": blinds.hand_in_level,
            "hands_in_level": blinds.hands_in_level,
            "last_level": blinds.last,
        },
    }


def bracket_data(view: BracketView) -> BracketBody:
    return {
        "drawn": view.drawn,
        "mode": view.mode,
        "prize_tiers": view.tournament.prize_tiers or [],
        "groups": [
            {
                "number": box.number,
                "standing": [
                    {
                        "entry": line.player.number,
                        "name": line.player.name,
                        "played": line.played,
                        "wins": line.wins,
                        "losses": line.losses,
                        "place": line.place,
                    }
                    for line in box.standing
                ],
                "matches": [match_data(line) for line in box.matches],
            }
            for box in view.groups
        ],
        "rounds": [
            {"number": column.number, "name": column.name, "matches": [match_data(line) for line in column.matches]}
            for column in view.rounds
        ],
    }


def _bracket_answer(tournament_id: int, code: int = status.HTTP_200_OK) -> Response:
    return Response(bracket_data(bracket_view(tournament_or_404(tournament_id))), status=code)


def _match_answer(tournament: Tournament, match: Match) -> Response:
    view = bracket_view(Tournament.objects.get(pk=tournament.pk))
    lines = [line for box in view.groups for line in box.matches] + [
        line for column in view.rounds for line in column.matches
    ]
    return Response(match_data(next(line for line in lines if line.match.pk == match.pk)))


# --- inputs -------------------------------------------------------------------------------------------------------


class MatchDecideInputSerializer(InputSerializer):
    winner = StrictIntegerField(min_value=1, max_value=MOST_NUMBER, help_text="The winner's entry number.")


class MatchHandInputSerializer(InputSerializer):
    take_back = serializers.BooleanField(
        required=False, default=False, help_text="true: take back the last hand counted (a mis-tap)."
    )


class MatchUndoInputSerializer(InputSerializer):
    reason = StrictCharField(max_length=500)


# --- endpoints ----------------------------------------------------------------------------------------------------


class BracketApi(APIView):
    @extend_schema(
        responses=BracketOutputSerializer,
        summary="The bracket of a heads-up event: groups with their standings, knock-out rounds with their matches "
        "(the director, a supervisor, an Auditor or a Dealer)",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        require_role(request.user, *TOURNAMENT_VIEWERS, Role.DEALER, action="read a bracket")
        return _bracket_answer(tournament_id)

    @extend_schema(
        request=None,
        responses={201: BracketOutputSerializer},
        summary="Draw the bracket once the event has started: a knock-out, or groups by field size (the director or a "
        "supervisor)",
        description="409 before the start, for an event that is not heads-up, or once drawn.",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        heads_up.bracket_draw(actor=request.user, tournament=tournament_or_404(tournament_id))
        return _bracket_answer(tournament_id, status.HTTP_201_CREATED)


class MatchHandApi(APIView):
    @extend_schema(
        request=MatchHandInputSerializer,
        responses=MatchOutputSerializer,
        summary="A hand of the match played (the blinds rise with the hands: every 7th in the MSOP Heads Up), or the "
        "last one taken back (the table's dealer, the director or a supervisor)",
        description="409 for a match decided, waiting for its players or without a table, or no hand to take back.",
        examples=[
            OpenApiExample("A hand played", value={}, request_only=True),
            OpenApiExample("A mis-tap taken back", value={"take_back": True}, request_only=True),
        ],
    )
    def post(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        match = _match(tournament, match_id)
        data = valid_input(MatchHandInputSerializer, request)
        service = heads_up.match_hand_undo if data["take_back"] else heads_up.match_hand
        service(actor=request.user, tournament=tournament, match=match)
        return _match_answer(tournament, match)


class MatchDecideApi(APIView):
    @extend_schema(
        request=MatchDecideInputSerializer,
        responses=MatchOutputSerializer,
        summary="The match's winner: in a knock-out the loser is out and the winner moves on; the final finishes the "
        "event (the table's dealer, the director or a supervisor)",
        description="400 for a winner who is not in the match; 409 for a match decided or not being played.",
        examples=[OpenApiExample("Entry #7 won", value={"winner": 7}, request_only=True)],
    )
    def post(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        match = _match(tournament, match_id)
        data = valid_input(MatchDecideInputSerializer, request)
        entry = Entry.objects.filter(tournament=tournament, number=data["winner"]).first()
        heads_up.match_decide(actor=request.user, tournament=tournament, match=match, winner=entry.pk if entry else 0)
        return _match_answer(tournament, match)


class MatchUndoApi(APIView):
    @extend_schema(
        request=MatchUndoInputSerializer,
        responses=MatchOutputSerializer,
        summary="A wrong winner undone, saying why: the loser's bust undone and the winner taken back from the next "
        "match (the director or a supervisor)",
        description="409 once the next match has had a hand, a later bust stands, or the group is complete.",
        examples=[
            OpenApiExample("Wrong player", value={"reason": "The dealer tapped the wrong name."}, request_only=True)
        ],
    )
    def post(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        match = _match(tournament, match_id)
        data = valid_input(MatchUndoInputSerializer, request)
        heads_up.match_undo(actor=request.user, tournament=tournament, match=match, reason=data["reason"])
        return _match_answer(tournament, match)
