"""REST endpoints reading the tables: each with the round being played there, which the rounds know (a layer above
the tables), so that a client that lost the answer to "open a round" finds the round it opened."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_pages import ApiCursorPagination, page_response
from rounds.selectors import unfinished_rounds
from tables.models import Table
from tables.permissions import require_view_table, tables_visible_to
from tables.selectors import table_get


class CurrentRoundSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    state = serializers.CharField()


class TableOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    pit = serializers.CharField(source="pit.name")
    game = serializers.CharField()
    game_display = serializers.CharField(source="get_game_display")
    min_wager_cents = serializers.IntegerField()
    max_wager_cents = serializers.IntegerField()
    seat_count = serializers.IntegerField()
    status = serializers.CharField()
    current_round = serializers.SerializerMethodField(
        help_text="The round being played at the table (not yet settled or voided), or null."
    )

    @extend_schema_field(CurrentRoundSerializer(allow_null=True))
    def get_current_round(self, table: Table) -> dict[str, Any] | None:
        current = self.context["current_rounds"].get(table.pk)
        return None if current is None else dict(CurrentRoundSerializer(current).data)


def _answer_data(tables: list[Table], *, many: bool) -> Any:
    context = {"current_rounds": unfinished_rounds(table.pk for table in tables)}
    return TableOutputSerializer(tables if many else tables[0], many=many, context=context).data


def _answer(tables: list[Table], *, many: bool) -> Response:
    return Response(_answer_data(tables, many=many))


class TableListApi(APIView):
    pagination_class = ApiCursorPagination
    page_ordering = ("name",)

    @extend_schema(
        responses=TableOutputSerializer(many=True),
        summary="The tables the user may see, by name: every table on the floor, or a dealer's own",
    )
    def get(self, request: Request) -> Response:
        return page_response(self, request, tables_visible_to(request.user), lambda page: _answer_data(page, many=True))


class TableDetailApi(APIView):
    @extend_schema(responses=TableOutputSerializer, summary="One table (a dealer sees their own)")
    def get(self, request: Request, table_id: int) -> Response:
        table = table_get(table_id=table_id)
        require_view_table(request.user, table)
        return _answer([table], many=False)
