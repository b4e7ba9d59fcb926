"""REST endpoints of a tournament's tables: how many, the Dealer put on each, and the button. The services
(``poker_room.tournaments.tables``) decide every write."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.errors import ApplicationError
from casino.fields import StrictCharField, StrictIntegerField
from casino.roles import Role, user_has_role
from poker_room.api_inputs import InputSerializer, tournament_or_404, valid_input
from poker_room.tournaments import services
from poker_room.tournaments.apis import TournamentDetailOutputSerializer, TournamentTableOutputSerializer, detail_answer
from poker_room.tournaments.models import Tournament, TournamentTable
from poker_room.tournaments.tables import MOST_TABLES


class TablesInputSerializer(InputSerializer):
    count = StrictIntegerField(min_value=1, max_value=MOST_TABLES)


class ButtonInputSerializer(InputSerializer):
    seat = StrictIntegerField(min_value=1, max_value=10)


class TableDealerInputSerializer(InputSerializer):
    dealer = StrictCharField(allow_null=True, max_length=150, help_text="A Dealer's username; null: nobody.")


class TablesApi(APIView):
    @extend_schema(
        request=TablesInputSerializer,
        responses=TournamentDetailOutputSerializer,
        summary="Set how many tables the tournament has: table 1 is the final table, the highest number breaks first "
        "(the director or a supervisor)",
        description="Before the start, any number; once it runs, tables are only added (a late entry with every seat "
        "taken needs one: 409 naming it), never taken away (409).",
        examples=[OpenApiExample("Three tables", value={"count": 3}, request_only=True)],
    )
    def put(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        data = valid_input(TablesInputSerializer, request)
        services.tournament_tables_set(actor=request.user, tournament=tournament, count=data["count"])
        return detail_answer(tournament_id)


class TournamentTableStateOutputSerializer(TournamentTableOutputSerializer):
    button = serializers.IntegerField(allow_null=True)


def _table_answer(tournament: Tournament, table_number: int) -> Response:
    table = TournamentTable.objects.select_related("dealer").get(tournament=tournament, number=table_number)
    return Response(TournamentTableStateOutputSerializer(table).data)


class TableButtonApi(APIView):
    @extend_schema(
        request=ButtonInputSerializer,
        responses=TournamentTableStateOutputSerializer,
        summary="Put the dealer button on a seat (the director, a supervisor, or the table's dealer)",
        examples=[OpenApiExample("Seat 4", value={"seat": 4}, request_only=True)],
    )
    def post(self, request: Request, tournament_id: int, table_number: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        get_object_or_404(TournamentTable, tournament=tournament, number=table_number)
        data = valid_input(ButtonInputSerializer, request)
        services.table_button_set(
            actor=request.user, tournament=tournament, table_number=table_number, seat=data["seat"]
        )
        return _table_answer(tournament, table_number)


def _dealer(username: str | None) -> User | None:
    if username is None:
        return None
    model = get_user_model()
    user = model.objects.filter(**{model.USERNAME_FIELD: username}).first()
    if user is None or not user_has_role(user, Role.DEALER):
        raise ApplicationError(_("%(user)s is not a Dealer.") % {"user": repr(username)}, extra={"field": "dealer"})
    return user


class TableDealerApi(APIView):
    @extend_schema(
        request=TableDealerInputSerializer,
        responses=TournamentTableStateOutputSerializer,
        summary="Put a Dealer on a tournament table, or take them off: they record busts and move the button there "
        "(the director or a supervisor)",
        examples=[OpenApiExample("Dana deals it", value={"dealer": "dana"}, request_only=True)],
    )
    def post(self, request: Request, tournament_id: int, table_number: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        get_object_or_404(TournamentTable, tournament=tournament, number=table_number)
        data = valid_input(TableDealerInputSerializer, request)
        services.tournament_table_dealer_set(
            actor=request.user, tournament=tournament, table_number=table_number, dealer=_dealer(data["dealer"])
        )
        return _table_answer(tournament, table_number)
