"""The room display's payload over the REST API: what the TV shows (``poker_room.display.selectors``), for whoever may
look at the console and the Dealers of the tournament's tables."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from poker_room.api_inputs import tournament_or_404
from poker_room.display.selectors import display_payload
from poker_room.floor import reader_tables


class DisplayLevelOutputSerializer(serializers.Serializer[Any]):
    row = serializers.IntegerField()
    number = serializers.IntegerField()
    is_break = serializers.BooleanField()
    label = serializers.CharField()  # type: ignore[assignment]  # the screens' key, not Field.label
    game = serializers.CharField()
    game_name = serializers.CharField()
    rule_line = serializers.CharField()
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()
    ante_kind = serializers.CharField()
    ante_label = serializers.CharField()
    length_ms = serializers.IntegerField(allow_null=True)
    hands = serializers.IntegerField(allow_null=True)
    colour_up = serializers.IntegerField(allow_null=True)


class DisplayOutputSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    server_now = serializers.CharField(help_text="The server's clock (ISO-8601, UTC, milliseconds).")
    name = serializers.CharField()
    status = serializers.CharField()
    status_label = serializers.CharField()
    clock_status = serializers.CharField()
    clock_label = serializers.CharField()
    level = DisplayLevelOutputSerializer(allow_null=True)
    ends_at = serializers.CharField(allow_null=True, help_text="When the level ends (ISO-8601, UTC), running.")
    remaining_ms = serializers.IntegerField(allow_null=True)
    hands_left = serializers.IntegerField(allow_null=True)
    overtime = serializers.BooleanField()
    following = DisplayLevelOutputSerializer(allow_null=True)
    next_level = DisplayLevelOutputSerializer(allow_null=True)
    players_left = serializers.IntegerField()
    entries = serializers.IntegerField()
    average_stack = serializers.IntegerField(allow_null=True)
    chips_in_play = serializers.IntegerField()
    prize_pool_cents = serializers.IntegerField()
    guarantee_cents = serializers.IntegerField()
    next_break_ms = serializers.IntegerField(allow_null=True)
    next_break = DisplayLevelOutputSerializer(allow_null=True)
    colour_up = serializers.IntegerField(allow_null=True)
    rules = serializers.CharField()
    format = serializers.CharField(help_text="chips, heads_up or ofc_points: the last two show `lines`, no clock")
    lines = serializers.ListField(
        child=serializers.CharField(), help_text="The matches being played, or the round and the standings' leaders"
    )


class DisplayApi(APIView):
    @extend_schema(
        responses=DisplayOutputSerializer,
        summary="The room display's payload: the level, blinds, ante, time left, next level, players left, average "
        "stack, prize pool and next break; no player's name (a Dealer of one of its tables reads it too)",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        reader_tables(request.user, tournament_or_404(tournament_id), what="read a tournament's display")
        return Response(DisplayOutputSerializer(display_payload(tournament_id)).data)
