"""REST endpoints of credit at the table (docs/markers.md): a player's credit and their line, the changes waiting
for a second Credit manager, markers asked for at a seat, issued, voided, redeemed at the cage, a returned cheque,
and the markers outstanding.

Thin, one class per operation: ``players.credit`` decides every write (who may, whether the state and the line
allow it) and refuses with ``{"message", "extra"}``: 400, 403, 404 or 409, writing nothing. Every write takes an
``Idempotency-Key`` (``casino.idempotency``): a write sent twice with one key records once. Money is integer cents.
Credit is read by the Credit managers, the cage and those who oversee the floor (``CREDIT_READERS``); a marker's
signature is never sent back (only whether it was drawn or typed).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_inputs import valid_input
from casino.fields import StrictCharField, StrictIntegerField, query_id
from casino.roles import require_role
from casino.users import actor_of
from players.credit import (
    MOST_CENTS,
    MOST_MARKER_CENTS,
    MOST_REASON,
    MOST_SIGNATURE,
    credit_change_decide,
    credit_line_set,
    marker_cheque_returned,
    marker_issue,
    marker_redeem,
    marker_request,
    marker_void,
)
from players.credit_selectors import CREDIT_READERS, markers_outstanding, markers_read, player_credit
from players.models import CreditLineChange, Marker, MarkerPayment, Player
from tables.selectors import table_get

_WRITES = {400: OpenApiTypes.OBJECT, 403: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT}


def _read(request: Request, what: str) -> None:
    require_role(request.user, *CREDIT_READERS, action=what)


# --- inputs ---------------------------------------------------------------------------------------


class CreditLineInputSerializer(serializers.Serializer[Any]):
    limit_cents = StrictIntegerField(min_value=0, max_value=MOST_CENTS, help_text="The line, in cents.")
    reason = StrictCharField(required=False, allow_blank=True, max_length=MOST_REASON, default="")


class CreditDecisionInputSerializer(serializers.Serializer[Any]):
    approve = serializers.BooleanField(help_text="true: the line changes; false: the change is refused.")


class MarkerRequestInputSerializer(serializers.Serializer[Any]):
    seat = StrictIntegerField(min_value=1, help_text="The seat of the player rated there, who signs the marker.")
    amount_cents = StrictIntegerField(min_value=1, max_value=MOST_MARKER_CENTS)
    signature = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=MOST_SIGNATURE,
        default="",
        help_text="The player's signature drawn on the tablet: a PNG as a data URL (data:image/png;base64,...).",
    )
    signed_name = StrictCharField(
        required=False, allow_blank=True, max_length=120, default="", help_text="Or the player's name, typed."
    )


class ReasonInputSerializer(serializers.Serializer[Any]):
    reason = StrictCharField(max_length=MOST_REASON)


class RedeemInputSerializer(serializers.Serializer[Any]):
    method = StrictCharField(help_text="cash, chips or cheque")
    reference = StrictCharField(
        required=False, allow_blank=True, max_length=40, default="", help_text="The cheque's number."
    )


# --- answers --------------------------------------------------------------------------------------


class MarkerOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    number = serializers.IntegerField(allow_null=True, help_text="Given when a supervisor issues it; without gaps.")
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    table = serializers.IntegerField(source="table_id")
    table_name = serializers.CharField(source="table.name")
    seat = serializers.IntegerField(source="seat_number")
    amount_cents = serializers.IntegerField()
    status = serializers.CharField(help_text="requested, in_drop, at_cage, redeemed or voided")
    signed = serializers.SerializerMethodField(help_text="drawn or typed")
    requested_by = serializers.CharField(source="requested_by.username")
    requested_at = serializers.DateTimeField()
    issued_by = serializers.CharField(source="issued_by.username", allow_null=True, default=None)
    issued_at = serializers.DateTimeField(allow_null=True)
    counted_at = serializers.DateTimeField(allow_null=True)
    redeemed_at = serializers.DateTimeField(allow_null=True)
    voided_by = serializers.CharField(source="voided_by.username", allow_null=True, default=None)
    void_reason = serializers.CharField()

    def get_signed(self, marker: Marker) -> str:
        return "drawn" if marker.signature else "typed"


class CreditChangeOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    player = serializers.IntegerField(source="player_id")
    limit_cents = serializers.IntegerField()
    previous_cents = serializers.IntegerField()
    reason = serializers.CharField()
    status = serializers.CharField(help_text="pending, approved or refused")
    asked_by = serializers.CharField(source="asked_by.username")
    decided_by = serializers.CharField(source="decided_by.username", allow_null=True, default=None)


class CreditOutputSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="player.pk")
    player_name = serializers.CharField(source="player.name")
    limit_cents = serializers.IntegerField()
    owing_cents = serializers.IntegerField(help_text="Every marker not redeemed or voided, waiting ones included.")
    available_cents = serializers.IntegerField()
    pending = CreditChangeOutputSerializer(allow_null=True, help_text="A change waiting for a second Credit manager.")
    markers = MarkerOutputSerializer(many=True, help_text="Newest first.")


class PaymentOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    marker = MarkerOutputSerializer()
    method = serializers.CharField(help_text="cash, chips, cheque, or returned (a cheque that came back)")
    amount_cents = serializers.IntegerField(help_text="Negative for a returned cheque.")
    reference = serializers.CharField()


class OutstandingOutputSerializer(serializers.Serializer[Any]):
    total_cents = serializers.IntegerField()
    at_cage_cents = serializers.IntegerField(help_text="Counted, at the cage; the rest is still in drop boxes.")
    markers = MarkerOutputSerializer(many=True, help_text="By number.")


def _marker(marker_id: int) -> Marker:
    return get_object_or_404(markers_read(), pk=marker_id)


def _marker_answer(marker: Marker, code: int = status.HTTP_200_OK) -> Response:
    return Response(MarkerOutputSerializer(_marker(marker.pk)).data, status=code)


def _payment_answer(payment: MarkerPayment) -> Response:
    payment = MarkerPayment.objects.select_related(
        "marker__player", "marker__table", "marker__requested_by", "marker__issued_by", "marker__voided_by"
    ).get(pk=payment.pk)
    return Response(PaymentOutputSerializer(payment).data, status=status.HTTP_201_CREATED)


# --- credit lines ---------------------------------------------------------------------------------


class PlayerCreditApi(APIView):
    @extend_schema(
        responses=CreditOutputSerializer,
        summary="A player's credit: the line, what their markers owe, what is left, a change waiting, their markers "
        "(a Credit manager, the cage, a supervisor or an Auditor)",
    )
    def get(self, request: Request, player_id: int) -> Response:
        _read(request, _("read a player's credit"))
        player = get_object_or_404(Player, pk=player_id)
        return Response(CreditOutputSerializer(player_credit(player=player)).data)


class CreditLineApi(APIView):
    idempotency_key_required = True  # it sets how much money a player may draw

    @extend_schema(
        request=CreditLineInputSerializer,
        responses={200: CreditOutputSerializer, 202: CreditChangeOutputSerializer, **_WRITES},
        summary="Set a player's credit line (a Credit manager): at once, or, raised above the approval threshold, "
        "as a change waiting for a second Credit manager (202)",
        examples=[OpenApiExample("A line of 20,000.00", value={"limit_cents": 2_000_000}, request_only=True)],
    )
    def post(self, request: Request, player_id: int) -> Response:
        data = valid_input(CreditLineInputSerializer, request)
        player = get_object_or_404(Player, pk=player_id)
        done = credit_line_set(
            actor=actor_of(request.user), player=player, limit_cents=data["limit_cents"], reason=data["reason"]
        )
        if isinstance(done, CreditLineChange):
            return Response(CreditChangeOutputSerializer(done).data, status=status.HTTP_202_ACCEPTED)
        return Response(CreditOutputSerializer(player_credit(player=player)).data)


class CreditChangeDecideApi(APIView):
    idempotency_key_required = True

    @extend_schema(
        request=CreditDecisionInputSerializer,
        responses={200: CreditChangeOutputSerializer, **_WRITES},
        summary="Approve or refuse a credit line waiting for approval (a second Credit manager, never the one who "
        "asked)",
    )
    def post(self, request: Request, change_id: int) -> Response:
        data = valid_input(CreditDecisionInputSerializer, request)
        change = get_object_or_404(CreditLineChange, pk=change_id)
        decided = credit_change_decide(actor=actor_of(request.user), change=change, approve=data["approve"])
        decided = CreditLineChange.objects.select_related("asked_by", "decided_by").get(pk=decided.pk)
        return Response(CreditChangeOutputSerializer(decided).data)


# --- markers --------------------------------------------------------------------------------------


class TableMarkersApi(APIView):
    idempotency_key_required = True  # it draws on a player's credit

    @extend_schema(
        request=MarkerRequestInputSerializer,
        responses={201: MarkerOutputSerializer, **_WRITES},
        summary="Ask for a marker at a seat for the player rated there, with their signature (the table's dealer or "
        "a supervisor); it waits for a supervisor to issue it",
        description="409 over what the player's credit line has left: nothing is written.",
        examples=[
            OpenApiExample(
                "2,000.00 at seat 2, signed by name",
                value={"seat": 2, "amount_cents": 200_000, "signed_name": "Lee"},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = valid_input(MarkerRequestInputSerializer, request)
        marker = marker_request(
            actor=actor_of(request.user),
            table=table_get(table_id=table_id),
            seat=data["seat"],
            amount_cents=data["amount_cents"],
            signature=data["signature"],
            signed_name=data["signed_name"],
        )
        return _marker_answer(marker, status.HTTP_201_CREATED)


class MarkerDetailApi(APIView):
    @extend_schema(responses=MarkerOutputSerializer, summary="A marker (credit readers)")
    def get(self, request: Request, marker_id: int) -> Response:
        _read(request, _("read a marker"))
        return Response(MarkerOutputSerializer(_marker(marker_id)).data)


class MarkerIssueApi(APIView):
    idempotency_key_required = True  # it moves chips

    @extend_schema(
        request=None,
        responses={200: MarkerOutputSerializer, **_WRITES},
        summary="Issue a marker asked for (a Floor supervisor or Pit boss, never the one who asked): its number, "
        "the chips out of the tray, the marker into the drop box",
    )
    def post(self, request: Request, marker_id: int) -> Response:
        valid_input(serializers.Serializer, request)
        return _marker_answer(marker_issue(actor=actor_of(request.user), marker=_marker(marker_id)))


class MarkerVoidApi(APIView):
    idempotency_key_required = True  # it moves chips

    @extend_schema(
        request=ReasonInputSerializer,
        responses={200: MarkerOutputSerializer, **_WRITES},
        summary="Void a marker asked for, or issued in the open shift (its buy-in voided), saying why (a Floor "
        "supervisor or Pit boss)",
    )
    def post(self, request: Request, marker_id: int) -> Response:
        data = valid_input(ReasonInputSerializer, request)
        voided = marker_void(actor=actor_of(request.user), marker=_marker(marker_id), reason=data["reason"])
        return _marker_answer(voided)


class MarkerRedeemApi(APIView):
    idempotency_key_required = True  # it moves money

    @extend_schema(
        request=RedeemInputSerializer,
        responses={201: PaymentOutputSerializer, **_WRITES},
        summary="Redeem an outstanding marker at the cage with cash, chips or a cheque (a Cage cashier)",
        examples=[OpenApiExample("By cheque", value={"method": "cheque", "reference": "004211"}, request_only=True)],
    )
    def post(self, request: Request, marker_id: int) -> Response:
        data = valid_input(RedeemInputSerializer, request)
        payment = marker_redeem(
            actor=actor_of(request.user), marker=_marker(marker_id), method=data["method"], reference=data["reference"]
        )
        return _payment_answer(payment)


class MarkerChequeReturnedApi(APIView):
    idempotency_key_required = True  # it moves money

    @extend_schema(
        request=ReasonInputSerializer,
        responses={201: PaymentOutputSerializer, **_WRITES},
        summary="A cheque a marker was redeemed with came back unpaid: the marker is outstanding again (a Cage "
        "cashier or Credit manager)",
    )
    def post(self, request: Request, marker_id: int) -> Response:
        data = valid_input(ReasonInputSerializer, request)
        returned = marker_cheque_returned(
            actor=actor_of(request.user), marker=_marker(marker_id), reason=data["reason"]
        )
        return _payment_answer(returned)


class MarkersOutstandingApi(APIView):
    @extend_schema(
        operation_id="markers_outstanding",
        parameters=[OpenApiParameter("player", int, description="One player's markers only (their id).")],
        responses=OutstandingOutputSerializer,
        summary="The markers outstanding (in drop boxes or at the cage), by number, and their totals (credit readers)",
    )
    def get(self, request: Request) -> Response:
        _read(request, _("read the markers outstanding"))
        outstanding = markers_outstanding()
        player = query_id(request.query_params.get("player"), field="player")  # "²" is refused, not a 500
        if player is not None:
            markers = [m for m in outstanding.markers if m.player_id == player]
            body = {
                "total_cents": sum(m.amount_cents for m in markers),
                "at_cage_cents": sum(m.amount_cents for m in markers if m.status == Marker.Status.AT_CAGE),
                "markers": markers,
            }
            return Response(OutstandingOutputSerializer(body).data)
        return Response(OutstandingOutputSerializer(outstanding).data)
