"""REST endpoints for tables: thin, one class per operation."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.selectors import table_get, table_list


class TableOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    pit = serializers.CharField(source="pit.name")
    game = serializers.CharField()
    game_display = serializers.CharField(source="get_game_display")
    min_wager_cents = serializers.IntegerField()
    max_wager_cents = serializers.IntegerField()
    seat_count = serializers.IntegerField()
    status = serializers.CharField()


class TableListApi(APIView):
    @extend_schema(responses=TableOutputSerializer(many=True), summary="List every table on the floor")
    def get(self, request: Request) -> Response:
        return Response(TableOutputSerializer(table_list(), many=True).data)


class TableDetailApi(APIView):
    @extend_schema(responses=TableOutputSerializer, summary="One table")
    def get(self, request: Request, table_id: int) -> Response:
        return Response(TableOutputSerializer(table_get(table_id=table_id)).data)
