"""REST endpoints of the poker room's leagues: the leagues, one league's settings, its standings, its
events, and the Master Class invited from its standings.

Thin, one class per operation, as ``poker_room.tournaments.apis``: the services (``poker_room.leagues.services``) decide
every write and who may (the director, a supervisor) and refuse with ``{"message", "extra"}`` (400, 403, 404, 409);
reading is for whoever may look at the poker room's console (``TOURNAMENT_VIEWERS``). Points are strings with two
decimals (they are rounded half up to 0.01), money integer cents, chips integers. A field this API does not know is
refused.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, TypedDict

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_inputs import refuse_unknown_fields
from casino.api_pages import ApiCursorPagination, page_response
from casino.fields import RowOrProblem, StrictCharField, StrictIntegerField
from casino.roles import TOURNAMENT_VIEWERS, require_role
from poker_room.api_inputs import InputSerializer, cents_field, valid_input
from poker_room.floor import MOST_TEXT
from poker_room.leagues import services as leagues
from poker_room.leagues.models import League
from poker_room.leagues.selectors import league_list, league_standings, league_tie_breaks, standings_payload
from poker_room.pure.league_points import FORMULAS, MOST_EXPRESSION, MOST_TABLE, ROUNDINGS, TIE_BREAKS
from poker_room.tournaments.models import Entry


def _league(league_id: int) -> League:
    return get_object_or_404(League.objects.select_related("master_class"), pk=league_id)


def _viewer(request: Request, what: str) -> None:
    require_role(request.user, *TOURNAMENT_VIEWERS, action=what)


# --- bodies -------------------------------------------------------------------------------------------------------


class LeagueInputSerializer(InputSerializer):
    name = StrictCharField(max_length=MOST_TEXT)
    season = StrictCharField(max_length=40, help_text='e.g. "2026"')
    formula = serializers.ChoiceField(choices=list(FORMULAS), required=False, default="sqrt_place")
    expression = StrictCharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=MOST_EXPRESSION,
        help_text="With formula expression: arithmetic over players, place, buy_in, prize_pool, prize; functions "
        "sqrt, log10, ln, min, max, floor, ceil, round, abs.",
    )
    points_table = serializers.ListField(
        child=serializers.DecimalField(max_digits=9, decimal_places=2, min_value=Decimal(0)),
        required=False,
        default=list,
        max_length=MOST_TABLE,
        help_text="With formula table: the points of 1st, 2nd, ... place; 0 below.",
    )
    best_of = StrictIntegerField(required=False, default=0, min_value=0, max_value=leagues.MOST_BEST_OF)
    tie_breaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(TIE_BREAKS)), required=False, default=list, max_length=6
    )
    master_class_size = StrictIntegerField(required=False, default=10, min_value=2, max_value=leagues.MOST_MASTER_CLASS)
    chips_per_point = StrictIntegerField(required=False, default=1, min_value=1, max_value=leagues.MOST_CHIPS_PER_POINT)
    chip_rounding = serializers.ChoiceField(choices=list(ROUNDINGS), required=False, default="nearest")


class LeagueUpdateInputSerializer(LeagueInputSerializer):
    """Only the settings sent change."""


class LeagueEventInputSerializer(InputSerializer):
    tournament = StrictIntegerField(min_value=1, max_value=2**62, help_text="The tournament's id.")
    remove = serializers.BooleanField(required=False, default=False, help_text="true: take the event out.")


class MasterClassInputSerializer(InputSerializer):
    name = StrictCharField(required=False, allow_blank=True, allow_null=True, max_length=MOST_TEXT)
    buy_in_cents = cents_field(required=False, default=0, help_text="0: a freeroll (the default).")
    fee_cents = cents_field(required=False, default=0)
    starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None)


# --- answers ------------------------------------------------------------------------------------------------------


class LeagueOutputSerializer(RowOrProblem):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    season = serializers.CharField()
    formula = serializers.CharField()
    expression = serializers.CharField()
    points_table = serializers.ListField(child=serializers.FloatField())
    best_of = serializers.IntegerField()
    tie_breaks = serializers.SerializerMethodField()
    master_class_size = serializers.IntegerField()
    chips_per_point = serializers.IntegerField()
    chip_rounding = serializers.CharField()
    master_class = serializers.IntegerField(source="master_class_id", allow_null=True)
    events = serializers.SerializerMethodField()

    def get_tie_breaks(self, league: League) -> list[str]:
        return list(league_tie_breaks(league))

    def get_events(self, league: League) -> list[int]:
        return list(
            league.events.filter(removed_at__isnull=True).order_by("pk").values_list("tournament_id", flat=True)
        )


class LeagueEventLineSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    finished = serializers.BooleanField()
    players = serializers.IntegerField(help_text="Entries, re-entries included.")
    buy_in_cents = serializers.IntegerField()
    prize_pool_cents = serializers.IntegerField()


class LeagueResultSerializer(serializers.Serializer[Any]):
    event = serializers.IntegerField()
    place = serializers.IntegerField()
    points = serializers.CharField()
    counted = serializers.BooleanField(help_text="false: beyond the best N, dropped.")


class LeagueLineSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    player = serializers.IntegerField(allow_null=True)
    points = serializers.CharField()
    wins = serializers.IntegerField()
    cashes = serializers.IntegerField()
    events = serializers.IntegerField()
    best_finish = serializers.IntegerField()
    invited = serializers.BooleanField()
    chips = serializers.IntegerField(allow_null=True, help_text="The Master Class stack, for an invited player.")
    results = LeagueResultSerializer(many=True)


class LeagueStandingsOutputSerializer(serializers.Serializer[Any]):
    league = serializers.IntegerField()
    error = serializers.CharField(help_text="Why the formula could not score a result (then no lines).")
    smallest_chip = serializers.IntegerField()
    events = LeagueEventLineSerializer(many=True)
    lines = LeagueLineSerializer(many=True)


class MasterClassEntrySerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    player = serializers.IntegerField(allow_null=True)
    chips = serializers.IntegerField()


class MasterClassOutputSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    entries = MasterClassEntrySerializer(many=True)


class MasterClassEntryBody(TypedDict):
    """An invited player in the Master Class as the API answers it: their entry, with their points as chips."""

    entry: int
    name: str
    player: int | None
    chips: int


class MasterClassBody(TypedDict):
    tournament: int
    name: str
    entries: list[MasterClassEntryBody]


def _league_answer(league: League, code: int = status.HTTP_200_OK) -> Response:
    return Response(LeagueOutputSerializer(League.objects.get(pk=league.pk)).data, status=code)


# --- the endpoints ------------------------------------------------------------------------------------------------


class LeagueListApi(APIView):
    pagination_class = ApiCursorPagination
    page_ordering = ("-season", "name", "pk")

    @extend_schema(
        responses=LeagueOutputSerializer(many=True),
        summary="The leagues, the latest season first (the director, a supervisor or an Auditor)",
    )
    def get(self, request: Request) -> Response:
        _viewer(request, "list the leagues")
        return page_response(self, request, league_list(), lambda page: LeagueOutputSerializer(page, many=True).data)

    @extend_schema(
        request=LeagueInputSerializer,
        responses={201: LeagueOutputSerializer},
        summary="Create a league (the director or a supervisor)",
        examples=[
            OpenApiExample(
                "PokerStars points, best 10, the top 10 to the Master Class at 100 chips a point",
                value={
                    "name": "Mainz League",
                    "season": "2026",
                    "formula": "pokerstars",
                    "best_of": 10,
                    "tie_breaks": ["wins", "best_finish"],
                    "chips_per_point": 100,
                },
                request_only=True,
            ),
            OpenApiExample(
                "The house's own formula",
                value={
                    "name": "Tuesday League",
                    "season": "2026",
                    "formula": "expression",
                    "expression": "players - place + 1",
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        data = valid_input(LeagueInputSerializer, request)
        league = leagues.league_create(actor=request.user, **data)
        return _league_answer(league, status.HTTP_201_CREATED)


class LeagueDetailApi(APIView):
    @extend_schema(responses=LeagueOutputSerializer, summary="A league's settings and events")
    def get(self, request: Request, league_id: int) -> Response:
        _viewer(request, "read a league")
        return _league_answer(_league(league_id))

    @extend_schema(
        request=LeagueUpdateInputSerializer,
        responses=LeagueOutputSerializer,
        summary="Change a league's settings (the director or a supervisor); the scoring is final once the Master "
        "Class is invited",
    )
    def patch(self, request: Request, league_id: int) -> Response:
        league = _league(league_id)
        serializer = LeagueUpdateInputSerializer(data=request.data, partial=True)
        refuse_unknown_fields(serializer, request.data)
        serializer.is_valid(raise_exception=True)
        sent = {name: value for name, value in serializer.validated_data.items() if name in request.data}
        leagues.league_update(actor=request.user, league=league, **sent)
        return _league_answer(league)


class LeagueStandingsApi(APIView):
    @extend_schema(
        responses=LeagueStandingsOutputSerializer,
        summary="A league's standings: each event, each player's results (counted or dropped), the ranks and the "
        "Master Class's field with its stacks",
    )
    def get(self, request: Request, league_id: int) -> Response:
        _viewer(request, "read a league's standings")
        return Response(standings_payload(league_standings(_league(league_id))))


class LeagueEventsApi(APIView):
    @extend_schema(
        request=LeagueEventInputSerializer,
        responses=LeagueOutputSerializer,
        summary="Add a tournament to the league, or take it out (remove: true) (the director or a supervisor)",
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = _league(league_id)
        data = valid_input(LeagueEventInputSerializer, request)
        if data["remove"]:
            leagues.league_event_remove(actor=request.user, league=league, tournament_id=data["tournament"])
        else:
            leagues.league_event_add(actor=request.user, league=league, tournament_id=data["tournament"])
        return _league_answer(league)


class MasterClassApi(APIView):
    @extend_schema(
        request=MasterClassInputSerializer,
        responses={201: MasterClassOutputSerializer},
        summary="Invite the Master Class: a tournament of the master_class template with the top of the standings "
        "registered, each with their points as chips (once a league, when its events have finished)",
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = _league(league_id)
        data = valid_input(MasterClassInputSerializer, request)
        tournament = leagues.master_class_invite(
            actor=request.user,
            league=league,
            name=data.get("name") or None,
            buy_in_cents=data["buy_in_cents"],
            fee_cents=data["fee_cents"],
            starts_at=data["starts_at"],
        )
        body: MasterClassBody = {
            "tournament": tournament.pk,
            "name": tournament.name,
            "entries": [
                {"entry": entry.number, "name": entry.name, "player": entry.player_id, "chips": entry.chips}
                for entry in Entry.objects.filter(tournament=tournament).order_by("number")
            ],
        }
        return Response(body, status=status.HTTP_201_CREATED)
