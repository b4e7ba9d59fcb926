"""REST endpoints of dealer rotation: the floor's rotation (read), and the writes: a dealer clocked in or out, a string
made and started, a push (a dealer tapping in, or a supervisor pushing the due dealer). Thin, one class per operation;
``tables.rotation`` decides every write and refuses with ``{"message", "extra"}``: 400, 403, 404 or 409. Every write
takes an ``Idempotency-Key`` (``casino.idempotency``): sent again with the same key, the first answer is replayed.

Who reads the rotation: those who oversee the floor (supervisors, Auditors); who writes it: a Floor supervisor or Pit
boss, and a dealer tapping in themselves.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_inputs import valid_input
from casino.errors import ApplicationError
from casino.fields import StrictCharField, StrictIntegerField
from casino.roles import OVERSEERS, require_role
from casino.users import actor_of
from tables.models import DealerPush, DealerString, Table
from tables.rotation import dealer_clock_in, dealer_clock_out, rotation_push, string_create, string_start
from tables.rotation_selectors import rotation_floor

# The largest id the API takes (the database's integer): a larger one is refused as bad input, never looked up.
MOST_ID = 2**31 - 1


def _dealer(dealer_id: int) -> User:
    user = User.objects.filter(pk=dealer_id).first()
    if user is None:
        raise ApplicationError(_("There is no user %(id)s.") % {"id": dealer_id}, extra={"field": "dealer"})
    return user


# --- inputs ---------------------------------------------------------------------------------------


class DealerInputSerializer(serializers.Serializer[Any]):
    dealer = StrictIntegerField(min_value=1, max_value=MOST_ID, help_text="The dealer's user id.")


class PushInputSerializer(serializers.Serializer[Any]):
    dealer = StrictIntegerField(
        min_value=1,
        max_value=MOST_ID,
        required=False,
        help_text="The dealer to push onto the table (a supervisor; by default the one the rotation has there). A "
        "dealer leaves it out: they tap in themselves.",
    )


class StringInputSerializer(serializers.Serializer[Any]):
    name = StrictCharField(max_length=40)
    tables = serializers.ListField(
        child=StrictIntegerField(min_value=1, max_value=MOST_ID),
        min_length=1,
        help_text="The tables' ids, in the push's order.",
    )
    on_minutes = StrictIntegerField(min_value=1, max_value=600, help_text="Minutes on (a round robin: at each table).")
    off_minutes = StrictIntegerField(
        min_value=1, max_value=600, allow_null=True, help_text="Minutes off; null for a round robin."
    )


# --- answers --------------------------------------------------------------------------------------


class ClockInOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    dealer = serializers.IntegerField(source="dealer_id")
    dealer_name = serializers.CharField(source="dealer.username")
    clocked_in_at = serializers.DateTimeField()
    clocked_out_at = serializers.DateTimeField(allow_null=True)


class StringOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    on_minutes = serializers.IntegerField()
    off_minutes = serializers.IntegerField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    generation = serializers.IntegerField()


class PushOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    table = serializers.IntegerField(source="table_id")
    dealer_in = serializers.IntegerField(source="dealer_in_id")
    dealer_out = serializers.IntegerField(source="dealer_out_id", allow_null=True)
    asked_at = serializers.DateTimeField()
    done_at = serializers.DateTimeField(
        allow_null=True, help_text="When the table's dealer changed; null while it waits for the round in play."
    )


class RotationTableSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField(source="table.pk")
    table_name = serializers.CharField(source="table.name")
    dealer_name = serializers.CharField(help_text="Who deals it now; empty: nobody.")
    dealer_since = serializers.DateTimeField(allow_null=True, help_text="On the box since.")
    due_name = serializers.CharField(help_text="Whom the rotation has there now.")
    next_at = serializers.DateTimeField(help_text="The next push.")
    next_name = serializers.CharField(help_text="The relief at the next push.")
    waiting_name = serializers.CharField(help_text="A push waiting for the round's end: its dealer; empty: none.")
    overdue = serializers.BooleanField()


class RotationBreakSerializer(serializers.Serializer[Any]):
    dealer_name = serializers.CharField()
    since = serializers.DateTimeField()
    back_at = serializers.DateTimeField()
    back_table = serializers.CharField()


class RotationStringSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="string.pk")
    name = serializers.CharField(source="string.name")
    pattern = serializers.CharField(source="pattern_text")
    push_minutes = serializers.IntegerField()
    started_at = serializers.DateTimeField(source="string.started_at", allow_null=True)
    dealers = serializers.ListField(child=serializers.CharField(), source="dealer_names")
    tables = RotationTableSerializer(many=True)
    breaks = RotationBreakSerializer(many=True)
    alerts = serializers.ListField(child=serializers.CharField())
    problem = serializers.CharField(help_text="Why this string cannot be read; empty when it can.")


class RotationClockedInSerializer(serializers.Serializer[Any]):
    dealer = serializers.IntegerField(source="dealer.pk")
    dealer_name = serializers.CharField(source="dealer.username")
    since = serializers.DateTimeField()
    table_name = serializers.CharField(source="where", help_text="The table they deal; empty: none.")


class RotationOutputSerializer(serializers.Serializer[Any]):
    at = serializers.DateTimeField()
    strings = RotationStringSerializer(many=True)
    clocked_in = RotationClockedInSerializer(many=True)
    alerts = serializers.ListField(child=serializers.CharField(), help_text="Overdue breaks and pushes.")


# --- endpoints ------------------------------------------------------------------------------------


class RotationApi(APIView):
    @extend_schema(
        responses=RotationOutputSerializer,
        summary="The floor's rotation now: every string (who deals where and since when, the relief and when, who is "
        "on break), the dealers clocked in, overdue breaks (supervisors and Auditors)",
    )
    def get(self, request: Request) -> Response:
        require_role(request.user, *OVERSEERS, action="read the rotation")
        now = timezone.now()
        floor = rotation_floor(at=now)
        body = {"at": now, "strings": floor.strings, "clocked_in": floor.clocked_in, "alerts": floor.alerts}
        return Response(RotationOutputSerializer(body).data)


class ClockInApi(APIView):
    @extend_schema(
        request=DealerInputSerializer,
        responses={201: ClockInOutputSerializer},
        summary="Clock a dealer in for the shift (a Floor supervisor or Pit boss)",
        description="409 when the dealer is already clocked in.",
    )
    def post(self, request: Request) -> Response:
        data = valid_input(DealerInputSerializer, request)
        clock = dealer_clock_in(actor=actor_of(request.user), dealer=_dealer(data["dealer"]))
        return Response(ClockInOutputSerializer(clock).data, status=status.HTTP_201_CREATED)


class ClockOutApi(APIView):
    @extend_schema(
        request=DealerInputSerializer,
        responses={200: ClockInOutputSerializer},
        summary="Clock a dealer out (a Floor supervisor or Pit boss)",
        description="409 when the dealer is not clocked in, deals a table, or waits to take one over.",
    )
    def post(self, request: Request) -> Response:
        data = valid_input(DealerInputSerializer, request)
        clock = dealer_clock_out(actor=actor_of(request.user), dealer=_dealer(data["dealer"]))
        return Response(ClockInOutputSerializer(clock).data)


class StringsApi(APIView):
    @extend_schema(
        request=StringInputSerializer,
        responses={201: StringOutputSerializer},
        summary="Make a string of tables with its break pattern (a Floor supervisor or Pit boss)",
        description="400 for a pattern the string cannot keep (60 on / 20 off needs a multiple of 3 tables); 409 for "
        "a table already in a string.",
        examples=[
            OpenApiExample(
                "60 on / 20 off over three tables",
                value={"name": "Pai Gow A", "tables": [1, 2, 3], "on_minutes": 60, "off_minutes": 20},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = valid_input(StringInputSerializer, request)
        by_id = Table.objects.in_bulk(data["tables"])
        missing = [pk for pk in data["tables"] if pk not in by_id]
        if missing:
            raise ApplicationError(_("There is no table %(id)s.") % {"id": missing[0]}, extra={"field": "tables"})
        string = string_create(
            actor=actor_of(request.user),
            name=data["name"],
            tables=[by_id[pk] for pk in data["tables"]],
            on_minutes=data["on_minutes"],
            off_minutes=data["off_minutes"],
        )
        return Response(StringOutputSerializer(string).data, status=status.HTTP_201_CREATED)


class StringStartApi(APIView):
    @extend_schema(
        request=None,
        responses={200: StringOutputSerializer},
        summary="Start a string (again): its dealers chosen from who is clocked in, the rotation counted from now "
        "(a Floor supervisor or Pit boss)",
        description="409 when too few dealers are clocked in and free.",
    )
    def post(self, request: Request, string_id: int) -> Response:
        string = string_start(actor=actor_of(request.user), string=get_object_or_404(DealerString, pk=string_id))
        return Response(StringOutputSerializer(string).data)


class TablePushApi(APIView):
    @extend_schema(
        request=PushInputSerializer,
        responses={201: PushOutputSerializer},
        summary="A dealer taps in at the table, or a supervisor pushes a dealer onto it: at once, or, with a round "
        "in play, at that round's end (``done_at`` null until then)",
        description="403 when a dealer taps in where the rotation does not have them; 409 when the dealer still "
        "deals another table or another push waits there.",
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = valid_input(PushInputSerializer, request)
        table = get_object_or_404(Table, pk=table_id)
        dealer = _dealer(data["dealer"]) if "dealer" in data else None
        push: DealerPush = rotation_push(actor=actor_of(request.user), table=table, dealer=dealer)
        return Response(PushOutputSerializer(push).data, status=status.HTTP_201_CREATED)
