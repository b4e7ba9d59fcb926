"""REST endpoints of the card room's waitlist, under ``/api/cash-games/`` and ``/api/waitlist-entries/``.

GET ``/api/cash-games/``: every open list with its names, calls, tables and seats (the tournament director, a
supervisor or an Auditor). Every write is the desk's (the director or a supervisor), idempotent with the
``Idempotency-Key`` header as every write of the API, and answers with the list as it now stands. The services
(``poker_room.waitlist.services``) decide every refusal: 400 for what was sent, 403 for who, 409 for the list's state
(a name not called yet, no seat open, the must-move player first, the list closed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_inputs import refuse_unknown_fields
from casino.fields import StrictIntegerField
from casino.roles import TOURNAMENT_VIEWERS, require_role
from players.models import Player
from poker_room.floor import require_runner
from poker_room.waitlist import services
from poker_room.waitlist.models import POINTS_GAMES, CashGame, CashTable, WaitlistEntry
from poker_room.waitlist.selectors import CashGameLine, cash_game_line, cash_games_open
from tables.models import Table

# --- answers ------------------------------------------------------------------------------------------------------


class WaitlistEntryOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    position = serializers.IntegerField(allow_null=True, help_text="On the list, 1 first (waiting names only).")
    name = serializers.CharField()
    initials = serializers.CharField(help_text="As the room display shows the name.")
    rated = serializers.BooleanField()
    put_down_from = serializers.CharField(source="source", help_text="desk or kiosk")
    status = serializers.CharField(help_text="waiting, called or seated")
    put_down_at = serializers.DateTimeField(allow_null=True)
    called_at = serializers.DateTimeField(allow_null=True)
    table = serializers.CharField(help_text="Where a seat is held (called) or where the player sits.")
    seat = serializers.IntegerField(allow_null=True)
    since = serializers.DateTimeField(allow_null=True, help_text="At this table since (seated).")
    overdue = serializers.BooleanField(help_text="Called, and not seated within the minutes allowed.")
    problem = serializers.CharField()


class CashTableOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    must_move = serializers.BooleanField()
    dealing = serializers.BooleanField(help_text="The pit table is open.")
    seats = serializers.IntegerField()
    seated = WaitlistEntryOutputSerializer(many=True, help_text="Longest at the table first.")
    called = serializers.IntegerField(help_text="Seats held for names called.")


class CashGameOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    game = serializers.CharField()
    game_label = serializers.CharField()
    points_cents = serializers.IntegerField(help_text="A point's value, in cents.")
    waiting = WaitlistEntryOutputSerializer(many=True)
    called = WaitlistEntryOutputSerializer(many=True)
    tables = CashTableOutputSerializer(many=True)
    next_move = serializers.CharField(
        help_text="move: the main game's open seat goes to a must-move player; call: a name can be called; or empty."
    )
    problem = serializers.CharField()


def _answer(line: CashGameLine, code: int = status.HTTP_200_OK) -> Response:
    return Response(CashGameOutputSerializer(line).data, status=code)


def _body(serializer_class: type[serializers.Serializer[Any]], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    refuse_unknown_fields(serializer, request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


# --- input --------------------------------------------------------------------------------------------------------


class CashGameOpenInputSerializer(serializers.Serializer[Any]):
    game = serializers.ChoiceField(choices=POINTS_GAMES)
    points_cents = StrictIntegerField(min_value=1, max_value=services.MOST_POINT_CENTS)


class CashTableAddInputSerializer(serializers.Serializer[Any]):
    table_id = StrictIntegerField(min_value=1, help_text="The pit table (of the list's game).")
    must_move = serializers.BooleanField(default=False, help_text="true: it feeds the main game.")


class WaitlistPutDownInputSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(required=False, allow_blank=True, default="", max_length=200, trim_whitespace=False)
    player_id = StrictIntegerField(min_value=1, required=False, allow_null=True, default=None)


class SeatInputSerializer(serializers.Serializer[Any]):
    seat = StrictIntegerField(min_value=1, required=False, allow_null=True, default=None)


class EmptyInputSerializer(serializers.Serializer[Any]):
    pass


# --- endpoints ----------------------------------------------------------------------------------------------------


class CashGameListApi(APIView):
    @extend_schema(
        responses=CashGameOutputSerializer(many=True),
        summary="The card room's open lists: names waiting (in order), called, seated, the tables and their seats",
    )
    def get(self, request: Request) -> Response:
        require_role(request.user, *TOURNAMENT_VIEWERS, action="read the card room's waitlists")
        return Response(CashGameOutputSerializer(cash_games_open(), many=True).data)

    @extend_schema(
        request=CashGameOpenInputSerializer,
        responses={201: CashGameOutputSerializer},
        summary="Open a list for a points game at stakes (a point's value in cents)",
        description="409 when a list for the game and stakes is open already.",
    )
    def post(self, request: Request) -> Response:
        require_runner(request.user, action="open a cash game's list")
        data = _body(CashGameOpenInputSerializer, request)
        game = services.cash_game_open(actor=request.user, game=data["game"], points_cents=data["points_cents"])
        return _answer(cash_game_line(game), status.HTTP_201_CREATED)


def _game(cash_game_id: int) -> CashGame:
    return get_object_or_404(CashGame, pk=cash_game_id)


class CashGameCloseApi(APIView):
    @extend_schema(
        request=None,
        responses=CashGameOutputSerializer,
        summary="Close a list (nobody on it waiting, called or seated); its tables are taken off",
    )
    def post(self, request: Request, cash_game_id: int) -> Response:
        require_runner(request.user, action="close a cash game's list")
        _body(EmptyInputSerializer, request)
        game = services.cash_game_close(actor=request.user, cash_game=_game(cash_game_id))
        return _answer(cash_game_line(game))


class CashTableAddApi(APIView):
    @extend_schema(
        request=CashTableAddInputSerializer,
        responses={201: CashGameOutputSerializer},
        summary="A pit table of the list's game deals it: the main game, or a must-move table feeding it",
    )
    def post(self, request: Request, cash_game_id: int) -> Response:
        require_runner(request.user, action="add a table to a cash game")
        game = _game(cash_game_id)
        data = _body(CashTableAddInputSerializer, request)
        table = get_object_or_404(Table, pk=data["table_id"])
        services.cash_table_add(actor=request.user, cash_game=game, table=table, must_move=data["must_move"])
        return _answer(cash_game_line(game), status.HTTP_201_CREATED)


class CashTableRemoveApi(APIView):
    @extend_schema(request=None, responses=CashGameOutputSerializer, summary="Take a table off its list (nobody there)")
    def post(self, request: Request, cash_table_id: int) -> Response:
        require_runner(request.user, action="take a table off a cash game")
        _body(EmptyInputSerializer, request)
        table = services.cash_table_remove(
            actor=request.user, cash_table=get_object_or_404(CashTable, pk=cash_table_id)
        )
        return _answer(cash_game_line(table.cash_game))


class WaitlistPutDownApi(APIView):
    @extend_schema(
        request=WaitlistPutDownInputSerializer,
        responses={201: CashGameOutputSerializer},
        summary="Put a name down: a guest's name, or a rated player by id (their name from their card)",
        description="400 for a name that is empty, longer than 40 characters or without a letter; 409 when the "
        "guest or the player is on the list already, or the list is closed.",
    )
    def post(self, request: Request, cash_game_id: int) -> Response:
        require_runner(request.user, action="put a name down on a waitlist")
        game = _game(cash_game_id)
        data = _body(WaitlistPutDownInputSerializer, request)
        player = None if data["player_id"] is None else get_object_or_404(Player, pk=data["player_id"])
        services.waitlist_put_down(actor=request.user, cash_game=game, name=data["name"], player=player)
        return _answer(cash_game_line(game), status.HTTP_201_CREATED)


class WaitlistCallApi(APIView):
    @extend_schema(
        request=None,
        responses=CashGameOutputSerializer,
        summary="Call the first name waiting: a seat is held for them at the main game, or at a must-move table "
        "when the main game is full",
        description="409 when nobody is waiting, no seat is open, or the main game's open seat goes to a must-move "
        "player first.",
    )
    def post(self, request: Request, cash_game_id: int) -> Response:
        require_runner(request.user, action="call a name from a waitlist")
        game = _game(cash_game_id)
        _body(EmptyInputSerializer, request)
        services.waitlist_call(actor=request.user, cash_game=game)
        return _answer(cash_game_line(game))


class WaitlistMoveApi(APIView):
    @extend_schema(
        request=SeatInputSerializer,
        responses=CashGameOutputSerializer,
        summary="The player seated longest at a must-move table moves to the main game's open seat",
    )
    def post(self, request: Request, cash_game_id: int) -> Response:
        require_runner(request.user, action="move a player to the main game")
        game = _game(cash_game_id)
        data = _body(SeatInputSerializer, request)
        services.waitlist_move(actor=request.user, cash_game=game, seat=data["seat"])
        return _answer(cash_game_line(game))


def _entry(entry_id: int) -> WaitlistEntry:
    return get_object_or_404(WaitlistEntry, pk=entry_id)


class WaitlistSeatApi(APIView):
    @extend_schema(
        request=SeatInputSerializer,
        responses=CashGameOutputSerializer,
        summary="Seat a called player at the table held for them (a seat number, or the lowest free); a rated "
        "player's rating session starts there",
    )
    def post(self, request: Request, entry_id: int) -> Response:
        require_runner(request.user, action="seat a player from a waitlist")
        entry = _entry(entry_id)
        data = _body(SeatInputSerializer, request)
        services.waitlist_seat(actor=request.user, entry=entry, seat=data["seat"])
        return _answer(cash_game_line(entry.cash_game))


# A write on one name that takes no body (a no-show, a player leaving, a name taken off): the desk's, answered with
# the name's list as it now stands. Each endpoint names who may do it (``action``) and its service (``write``). (A
# comment, not a docstring: drf-spectacular would publish a docstring as each endpoint's description.)
class EntryWriteApi(APIView):
    action: ClassVar[str]
    write: ClassVar[Callable[..., object]]

    @extend_schema(request=None, responses=CashGameOutputSerializer)
    def post(self, request: Request, entry_id: int) -> Response:
        require_runner(request.user, action=self.action)
        entry = _entry(entry_id)
        _body(EmptyInputSerializer, request)
        type(self).write(actor=request.user, entry=entry)
        return _answer(cash_game_line(entry.cash_game))


@extend_schema_view(
    post=extend_schema(
        summary="A called player not seated within the minutes allowed is a no-show; the next name is called"
    )
)
class WaitlistNoShowApi(EntryWriteApi):
    action = "mark a no-show"
    write = staticmethod(services.waitlist_no_show)


@extend_schema_view(
    post=extend_schema(summary="A seated player leaves the game: the seat opens; a rated player's session ends")
)
class WaitlistLeaveApi(EntryWriteApi):
    action = "record a player leaving a cash game"
    write = staticmethod(services.waitlist_leave)


@extend_schema_view(post=extend_schema(summary="Take a waiting or called name off the list"))
class WaitlistRemoveApi(EntryWriteApi):
    action = "take a name off a waitlist"
    write = staticmethod(services.waitlist_remove)
