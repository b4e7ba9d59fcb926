"""REST endpoints for playing a round: thin, one class per operation; the services decide everything.

Every step of play answers with the round as it now stands, without its ledger (``RoundStepOutputSerializer``:
its postings and balances are read with the round, ``GET``); a void answers the whole round, a settlement or a
correction the settlement (a correction that waits for a second supervisor answers 202 with its request); every
refusal is ``{"message", "extra"}`` with 400, 403, 404 or 409 (``casino.errors``). Settling and correcting take an
``Idempotency-Key``
header: the same key answers the same body and never pays twice.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_inputs import answer_data, valid_input
from casino.api_pages import TABLE_FILTER, ApiCursorPagination, filtered, page_response, since_filter
from casino.errors import ApplicationError
from casino.fields import StrictCharField, StrictIntegerField
from casino.users import actor_of
from rounds import ofc_turns
from rounds import services as round_services
from rounds.models import Adjustment, Round
from rounds.selectors import (
    STEP_WAGERS,
    adjustment_get,
    adjustment_list,
    round_get,
    round_get_for_action,
    round_get_for_reader,
    round_next_actions,
    round_step_read,
)
from rounds.services import round_open
from rounds.services.house_wager import house_wager_cents
from rules.api_shapes import RuleSetField
from settlement import services
from settlement.api_shapes import (
    HandsInputField,
    HandsInputSerializer,
    PlacementsField,
    PlacementsInputSerializer,
    RoundBalancesSerializer,
    SettlementOutputSerializer,
    StoredHandsField,
)
from settlement.selectors import RoundBalances, round_balances, settlement_in_force
from settlement.services import correction_submit
from tables.selectors import table_get_for_action

IDEMPOTENCY_KEY = OpenApiParameter(
    name="Idempotency-Key",
    type=str,
    location=OpenApiParameter.HEADER,
    required=True,
    description="Any unique string (a UUID). The same key returns the same settlement; it never pays twice.",
)


# --- answers --------------------------------------------------------------------------------------


class LedgerEntryOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    account = serializers.CharField()
    seat = serializers.IntegerField(source="seat_number", allow_null=True, default=None)
    amount_cents = serializers.IntegerField()
    kind = serializers.CharField()
    created_at = serializers.DateTimeField()


class PostingOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    kind = serializers.CharField()
    idempotency_key = serializers.CharField(allow_null=True)
    actor = serializers.CharField(source="actor.username", allow_null=True, default=None)
    created_at = serializers.DateTimeField()
    reason = serializers.CharField()
    reverses = serializers.IntegerField(source="reverses_id", allow_null=True)
    corrects = serializers.IntegerField(source="corrects_id", allow_null=True)
    entries = LedgerEntryOutputSerializer(many=True, source="entries_read")


class WagerOutputSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(source="seat.number")
    amount_cents = serializers.IntegerField()
    placed_at = serializers.DateTimeField()


class RoundStepOutputSerializer(serializers.Serializer[Any]):
    """What a step of play answers (open, a wager, close, the deal, the hands, a swap, a street): the round as it now
    stands, its wagers, deal and hands, without its ledger (``RoundOutputSerializer``, ``GET /api/rounds/{id}/``):
    a step moves no money a dealer reads back, and the ledger's postings grow with every wager."""

    id = serializers.IntegerField(source="pk")
    table = serializers.IntegerField(source="table_id")
    table_name = serializers.CharField(source="table.name")
    game = serializers.CharField(source="table.game")
    number = serializers.IntegerField()
    state = serializers.CharField()
    next_actions = serializers.SerializerMethodField()
    bank_seat = serializers.IntegerField(source="bank_seat.number", allow_null=True, default=None)
    bank_cents = serializers.IntegerField(allow_null=True)
    rule_set = RuleSetField(source="rule_set_snapshot")
    opened_at = serializers.DateTimeField()
    state_changed_at = serializers.DateTimeField()
    void_reason = serializers.CharField()
    deal_mode = serializers.CharField()
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    action_order = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    dealt = serializers.SerializerMethodField(
        help_text="The system's deal by position; in Open-Face placed in turn, only the cards dealt so far."
    )
    hands = StoredHandsField(allow_null=True)
    placements = PlacementsField(allow_null=True)
    wagers = WagerOutputSerializer(many=True, source=STEP_WAGERS)  # round_step_read
    house_wager_cents = serializers.SerializerMethodField(
        help_text="The house's wager against a player bank (Pai Gow Poker): the banker's last bet, in cents; null "
        'when the house does not wager. Its hand is entered as "house" with the hands.'
    )

    @extend_schema_field(serializers.DictField(child=serializers.CharField(), allow_null=True))
    def get_dealt(self, round_: Round) -> dict[str, str] | None:
        return ofc_turns.dealt_so_far(round_)

    def get_next_actions(self, round_: Round) -> list[str]:
        return round_next_actions(round_)

    def get_house_wager_cents(self, round_: Round) -> int | None:
        return house_wager_cents(round_)


class RoundOutputSerializer(RoundStepOutputSerializer):
    """A whole round: a step's answer, and its settlement in force, its balances and its ledger postings."""

    settlement = serializers.SerializerMethodField(
        allow_null=True, help_text="The settlement in force; null until the round settles (and after a void)."
    )
    balances = serializers.SerializerMethodField()
    postings = PostingOutputSerializer(many=True, source="ledger_postings")  # rounds_postings_read
    wagers = WagerOutputSerializer(many=True, source="wagers.all")  # round_queryset: in seat order, with their seats

    @extend_schema_field(SettlementOutputSerializer)
    def get_settlement(self, round_: Round) -> services.SettlementAnswer | None:
        posting = settlement_in_force(round_)
        return services.settlement_body(posting, round_) if posting is not None else None

    @extend_schema_field(RoundBalancesSerializer)
    def get_balances(self, round_: Round) -> RoundBalances:
        return round_balances(round_)


def _round(round_id: int) -> Response:
    return Response(answer_data(RoundOutputSerializer, round_get(round_id=round_id)))


def _step(round_: Round, status_code: int = status.HTTP_200_OK, *, opened: bool = False) -> Response:
    return Response(answer_data(RoundStepOutputSerializer, round_step_read(round_, opened=opened)), status=status_code)


class AdjustmentOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    round = serializers.IntegerField(source="round_id")
    table = serializers.IntegerField(source="round.table_id")
    table_name = serializers.CharField(source="round.table.name")
    round_number = serializers.IntegerField(source="round.number")
    kind = serializers.CharField()
    status = serializers.CharField()
    reason = serializers.CharField()
    hands = StoredHandsField(allow_null=True, help_text="A correction's hands; null for a void.")
    requested_by = serializers.CharField(source="requested_by.username", allow_null=True, default=None)
    requested_at = serializers.DateTimeField()
    decided_by = serializers.CharField(source="decided_by.username", allow_null=True, default=None)
    decided_at = serializers.DateTimeField(allow_null=True)
    decision_note = serializers.CharField()
    posting = serializers.IntegerField(source="posting_id", allow_null=True)


# --- rounds ---------------------------------------------------------------------------------------


@extend_schema_serializer(deprecate_fields=["banker_seat"])
class RoundOpenInputSerializer(serializers.Serializer[Any]):
    bank_seat = StrictIntegerField(
        required=False, allow_null=True, min_value=1, help_text="The seat that takes the bank (a player bank)."
    )
    banker_seat = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        help_text="Deprecated: bank_seat, the name the answers use; accepted in this release only.",
    )
    bank_cents = StrictIntegerField(required=False, allow_null=True, min_value=0)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        old = attrs.pop("banker_seat", None)
        if old is not None and attrs.get("bank_seat") not in (None, old):
            raise serializers.ValidationError({"bank_seat": [_("Send bank_seat only: banker_seat is its old name.")]})
        if old is not None:
            attrs["bank_seat"] = old
        return attrs


class RoundOpenApi(APIView):
    @extend_schema(
        request=RoundOpenInputSerializer,
        responses={201: RoundStepOutputSerializer},
        summary="Open the next round at a table (optionally with a player bank)",
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = valid_input(RoundOpenInputSerializer, request)
        table = table_get_for_action(table_id=table_id)
        round_ = round_open(
            actor=actor_of(request.user),
            table=table,
            banker_seat=data.get("bank_seat"),
            bank_cents=data.get("bank_cents"),
        )
        return _step(round_, status.HTTP_201_CREATED, opened=True)


class RoundDetailApi(APIView):
    @extend_schema(
        responses=RoundOutputSerializer,
        summary="One round: state, wagers, deal, hands, settlement, ledger (a dealer reads their own table's)",
    )
    def get(self, request: Request, round_id: int) -> Response:
        return Response(answer_data(RoundOutputSerializer, round_get_for_reader(round_id=round_id, user=request.user)))


class WagerInputSerializer(serializers.Serializer[Any]):
    seat = StrictIntegerField()
    amount_cents = StrictIntegerField()


class WagerCreateApi(APIView):
    @extend_schema(
        request=WagerInputSerializer,
        responses={201: RoundStepOutputSerializer},
        summary="Take a seat's wager (banked games: the stake; points games: the value of a point)",
        examples=[OpenApiExample("A wager of 25.00 on seat 3", value={"seat": 3, "amount_cents": 2500})],
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = valid_input(WagerInputSerializer, request)
        wager = round_services.wager_place(
            actor=actor_of(request.user),
            round=round_get_for_action(round_id=round_id),
            seat=data["seat"],
            amount_cents=data["amount_cents"],
        )
        return _step(wager.round, status.HTTP_201_CREATED)


class CloseBettingApi(APIView):
    @extend_schema(request=None, responses=RoundStepOutputSerializer, summary="Close the betting")
    def post(self, request: Request, round_id: int) -> Response:
        done = round_services.round_close_betting(
            actor=actor_of(request.user), round=round_get_for_action(round_id=round_id)
        )
        return _step(done)


class DealInputSerializer(serializers.Serializer[Any]):
    dice = serializers.ListField(child=StrictIntegerField(), required=False)
    auto = serializers.BooleanField(required=False, default=False)


class DealApi(APIView):
    @extend_schema(
        request=DealInputSerializer,
        responses=RoundStepOutputSerializer,
        summary="Record the three dice (and the action order they give), or let the system deal",
        examples=[
            OpenApiExample("Dice", value={"dice": [3, 5, 6]}),
            OpenApiExample("The system deals (training)", value={"auto": True}),
        ],
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = valid_input(DealInputSerializer, request)
        done = round_services.round_deal(
            actor=actor_of(request.user),
            round=round_get_for_action(round_id=round_id),
            dice=data.get("dice"),
            auto=data["auto"],
        )
        return _step(done)


class HandsApi(APIView):
    @extend_schema(
        request=HandsInputSerializer,
        responses=RoundStepOutputSerializer,
        summary="Enter the revealed hands (the round becomes revealed; they may be entered again until it settles)",
        examples=[
            OpenApiExample(
                "Pai Gow Poker, the house way sets the bank",
                value={
                    "banker": {"cards": "As Ad 7s 4d 2c Kh Kc"},
                    "seats": {"3": {"high": "Qs Qd 8s 5d 3c", "low": "Jh Jc"}},
                },
            ),
            OpenApiExample(
                "Pai Gow Poker, seat 3 banks and the house wagers against it (its cards set by the house way)",
                value={
                    "banker": {"high": "Qs Qd 8s 5d 3c", "low": "Jh Jc"},
                    "house": {"cards": "As Ad 7s 4d 2c Kh Kc"},
                    "seats": {"1": {"high": "Ts Td 9h 6c 4h", "low": "9d 2d"}},
                },
            ),
            OpenApiExample(
                "Pai Gow tiles",
                value={"banker": {"tiles": "6-6 5-4 3-1 2-2"}, "seats": {"2": {"high": "1-1 6-3", "low": "5-1 5-3"}}},
            ),
            OpenApiExample(
                "Chinese Poker",
                value={
                    "seats": {
                        "1": {"front": "2s 3h 4d", "middle": "Ks Kh Kd 8c 8d", "back": "9s 9h 9d 9c 5c"},
                        "2": {"front": "As Kc 7d", "middle": "Qs Qh Jc Js 2c", "back": "8s 7h 6d 5s 4c"},
                    }
                },
            ),
            OpenApiExample(
                "Chinese Poker, seat 2 surrenders (where the rule set allows it)",
                value={
                    "seats": {
                        "1": {"front": "2s 3h 4d", "middle": "Ks Kh Kd 8c 8d", "back": "9s 9h 9d 9c 5c"},
                        "2": {"front": "As Kc 7d", "middle": "Qs Qh Jc Js 2c", "back": "8s 7h 6d 5s 4c"},
                    },
                    "surrendered": [2],
                },
            ),
        ],
    )
    def post(self, request: Request, round_id: int) -> Response:
        done = round_services.round_hands_record(
            actor=actor_of(request.user), round=round_get_for_action(round_id=round_id), hands=_object(request)
        )
        return _step(done)


class SwapInputSerializer(serializers.Serializer[Any]):
    seat = StrictIntegerField()
    gave = StrictCharField(help_text="The cards the seat gives, in notation (``2s 3h``).")
    took = StrictCharField(help_text="As many cards taken from the 13 undealt cards (``Ad Kh``).")


class SwapApi(APIView):
    @extend_schema(
        request=SwapInputSerializer,
        responses=RoundStepOutputSerializer,
        summary="Chinese Poker, three players: record a seat's swap with the undealt cards, in the order announced",
        examples=[OpenApiExample("Seat 2 swaps two cards", value={"seat": 2, "gave": "2s 3h", "took": "Ad Kh"})],
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = valid_input(SwapInputSerializer, request)
        done = round_services.round_swap_record(
            actor=actor_of(request.user),
            round=round_get_for_action(round_id=round_id),
            seat=data["seat"],
            gave=data["gave"],
            took=data["took"],
        )
        return _step(done)


def _object(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise ApplicationError(_("Send a JSON object."), extra={"field": "body"})
    return dict(request.data)


class PlacementsApi(APIView):
    @extend_schema(
        request=PlacementsInputSerializer,
        responses=RoundStepOutputSerializer,
        summary="Open-Face Chinese Poker: place one street for the seats named, in turn from the button",
        examples=[
            OpenApiExample(
                "First street (five cards)", value={"seats": {"1": {"back": "Ac Ad Ah", "middle": "Tc Th"}}}
            ),
            OpenApiExample("A later street (one card)", value={"seats": {"1": {"front": "2s"}}}),
            OpenApiExample(
                "Fantasyland: 13 cards at once and the discard",
                value={
                    "seats": {
                        "2": {
                            "front": "7c 7d 7h",
                            "middle": "8s 8h 8d 2s 2d",
                            "back": "Ac Ad Ah 3s 3d",
                            "discard": "5h",
                        }
                    }
                },
            ),
        ],
    )
    def post(self, request: Request, round_id: int) -> Response:
        done = round_services.round_placements_record(
            actor=actor_of(request.user), round=round_get_for_action(round_id=round_id), placements=_object(request)
        )
        return _step(done)


def _key(request: Request) -> str:
    return str(request.headers.get("Idempotency-Key", ""))


class SettleApi(APIView):
    idempotency_key_required = True  # it moves money or chips (casino.idempotency)

    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses=SettlementOutputSerializer,
        summary="Settle a revealed round: outcomes, commission, ledger entries, once",
    )
    def post(self, request: Request, round_id: int) -> Response:
        body = services.settle_round(
            round=round_get_for_action(round_id=round_id), actor=actor_of(request.user), idempotency_key=_key(request)
        )
        return Response(body)


class VoidInputSerializer(serializers.Serializer[Any]):
    reason = StrictCharField(allow_blank=True)


class VoidApi(APIView):
    @extend_schema(
        request=VoidInputSerializer,
        responses=RoundOutputSerializer,
        summary="Void a round not yet settled and return its wagers (Floor supervisor or Pit boss)",
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = valid_input(VoidInputSerializer, request)
        round_services.void_round(
            actor=actor_of(request.user), round=round_get_for_action(round_id=round_id), reason=data["reason"]
        )
        return _round(round_id)


class CorrectionInputSerializer(serializers.Serializer[Any]):
    hands = HandsInputField(help_text="The corrected hands, as for the hands endpoint (OFC: finished boards).")
    reason = StrictCharField(allow_blank=True)


class CorrectionApi(APIView):
    idempotency_key_required = True  # it moves money or chips (casino.idempotency)

    @extend_schema(
        request=CorrectionInputSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            200: SettlementOutputSerializer,
            202: inline_serializer(
                "CorrectionRequested",
                {"message": serializers.CharField(), "request": AdjustmentOutputSerializer()},
            ),
        },
        summary="Correct a settled round (Floor supervisor or Pit boss): with four eyes (the default) the "
        "correction waits for another supervisor's approval (202); in a one-supervisor room it reverses the "
        "settlement and settles again at once (200)",
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = valid_input(CorrectionInputSerializer, request)
        hands = data["hands"]
        if not isinstance(hands, dict):
            raise ApplicationError(
                _("The corrected hands are an object, as for the hands endpoint."), extra={"field": "hands"}
            )
        done = correction_submit(
            actor=actor_of(request.user),
            round=round_get_for_action(round_id=round_id),
            hands=hands,
            reason=data["reason"],
            idempotency_key=_key(request),
        )
        if done.request is not None:
            message = "Correction asked for: another supervisor approves it from the pit before the ledger changes."
            return Response(
                {"message": message, "request": AdjustmentOutputSerializer(done.request).data},
                status=status.HTTP_202_ACCEPTED,
            )
        return Response(done.settlement)


# --- requests for voids and corrections -----------------------------------------------------------


class AdjustmentRequestInputSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["void", "correction"])
    reason = StrictCharField(allow_blank=True)
    hands = HandsInputField(required=False, allow_null=True, help_text="A correction's hands; none for a void.")


class AdjustmentRequestApi(APIView):
    @extend_schema(
        request=AdjustmentRequestInputSerializer,
        responses={201: AdjustmentOutputSerializer},
        summary="The dealer asks a supervisor to void this round or correct its settlement",
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = valid_input(AdjustmentRequestInputSerializer, request)
        adjustment = services.adjustment_request(
            actor=actor_of(request.user),
            round=round_get_for_action(round_id=round_id),
            kind=data["kind"],
            reason=data["reason"],
            hands=data.get("hands"),
        )
        return Response(AdjustmentOutputSerializer(adjustment).data, status=status.HTTP_201_CREATED)


class AdjustmentListApi(APIView):
    pagination_class = ApiCursorPagination
    page_ordering = ("-requested_at", "-pk")

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, description="pending, approved or rejected"),
            TABLE_FILTER,
            since_filter("requested"),
        ],
        responses=AdjustmentOutputSerializer(many=True),
        summary="Void and correction requests, newest first (a dealer sees their own table's)",
    )
    def get(self, request: Request) -> Response:
        wanted = request.query_params.get("status") or None
        if wanted is not None and wanted not in Adjustment.Status.values:
            raise ApplicationError(
                _("A request's status is %(statuses)s, not %(wanted)s.")
                % {"statuses": ", ".join(Adjustment.Status.values), "wanted": repr(wanted)},
                extra={"field": "status"},
            )
        rows = adjustment_list(status=wanted, user=request.user)
        rows = filtered(request, rows, table="round__table_id", since="requested_at__gte")
        return page_response(self, request, rows, lambda page: AdjustmentOutputSerializer(page, many=True).data)


class DecisionInputSerializer(serializers.Serializer[Any]):
    note = StrictCharField(allow_blank=True, required=False, default="")


class AdjustmentApproveApi(APIView):
    @extend_schema(
        request=DecisionInputSerializer,
        responses=AdjustmentOutputSerializer,
        summary="Approve a request: the round is voided or corrected (Floor supervisor or Pit boss)",
    )
    def post(self, request: Request, adjustment_id: int) -> Response:
        data = valid_input(DecisionInputSerializer, request)
        adjustment = services.adjustment_approve(
            actor=actor_of(request.user), adjustment=adjustment_get(adjustment_id=adjustment_id), note=data["note"]
        )
        return Response(AdjustmentOutputSerializer(adjustment_get(adjustment_id=adjustment.pk)).data)


class AdjustmentRejectApi(APIView):
    @extend_schema(
        request=DecisionInputSerializer,
        responses=AdjustmentOutputSerializer,
        summary="Reject a request, saying why (Floor supervisor or Pit boss)",
    )
    def post(self, request: Request, adjustment_id: int) -> Response:
        data = valid_input(DecisionInputSerializer, request)
        adjustment = services.adjustment_reject(
            actor=actor_of(request.user), adjustment=adjustment_get(adjustment_id=adjustment_id), note=data["note"]
        )
        return Response(AdjustmentOutputSerializer(adjustment_get(adjustment_id=adjustment.pk)).data)
