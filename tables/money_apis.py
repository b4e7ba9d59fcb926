"""REST endpoints of the table's money (DESIGN.md "The table's money"): the house's chips, the tray
counts, fills and credits, buy-ins and the drop box. Thin, one class per operation, the bodies it takes and answers
in ``tables.money_api_shapes``; the services of
``tables.tray``, ``tables.slips`` and ``tables.drop`` decide every write (who may, and whether the state allows it)
and refuse with ``{"message", "extra"}``: 400, 403, 404 or 409. Money is integer cents; chips and notes are counted
by denomination, an object of ``{"value in cents": how many}``.

Who reads what (``tables.permissions``):

- the chips: anyone signed in (the house's chips are no secret, and every form needs them);
- a table's tray counts and buy-ins: whoever may see the table (its dealer, a supervisor, an Auditor);
- a table's slips: the same, and a Cage cashier (the cage's queue is every table's); the slip numbers accounted
  for: the supervisors, the Auditors and the cage;
- a drop box: whoever may see the table, and the Count team once the shift is closed; a count team member who has
  not counted the box yet sees only that counts exist, and by whom, not their figures, until the box is final.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_inputs import valid_input
from casino.api_pages import SHIFT_FILTER, TABLE_FILTER, ApiCursorPagination, filtered, page_response, since_filter
from casino.errors import ApplicationError, NotAllowed
from casino.fields import query_id
from casino.roles import OVERSEERS, Role
from casino.selectors import shift_current
from casino.users import actor_of
from tables.drop import DropBox, buy_in_record, buy_in_void, drop_box, drop_count_record
from tables.models import BuyIn, Slip
from tables.money_api_shapes import (
    BuyInInputSerializer,
    BuyInOutputSerializer,
    ChipOutputSerializer,
    DropBoxOutputSerializer,
    DropCountInputSerializer,
    SlipNumbersOutputSerializer,
    SlipOutputSerializer,
    SlipRequestInputSerializer,
    SlipVoidInputSerializer,
    TrayCountInputSerializer,
    TrayCountOutputSerializer,
)
from tables.permissions import (
    can_read_slip_numbers,
    drop_figures_hidden,
    require_read_drop_box,
    require_read_slips,
    require_view_table,
    slip_tables_visible_to,
)
from tables.selectors import (
    buy_in_list,
    chip_list,
    drop_shift_get,
    slip_get,
    slip_list,
    table_get,
    tray_count_get,
    tray_count_list,
)
from tables.slips import slip_issue, slip_numbers, slip_request, slip_sign, slip_void
from tables.tray import tray_count_confirm, tray_count_record


def _choice(request: Request, name: str, choices: list[str], *, what: str) -> str | None:
    """A query parameter that is one of ``choices``, or left out (None); anything else, empty included, is refused,
    naming it."""
    wanted = request.query_params.get(name)
    if wanted is not None and wanted not in choices:
        raise ApplicationError(
            _("%(what)s is %(choices)s, not %(wanted)s.")
            % {"what": what, "choices": " or ".join(choices), "wanted": repr(wanted)},
            extra={"field": name},
        )
    return wanted


# --- the chips and the tray -----------------------------------------------------------------------


class ChipListApi(APIView):
    pagination_class = ApiCursorPagination
    page_ordering = ("value_cents",)

    @extend_schema(
        responses=ChipOutputSerializer(many=True),
        summary="The house's chips in use, lowest value first (anyone signed in)",
    )
    def get(self, request: Request) -> Response:
        return page_response(self, request, chip_list(), lambda page: ChipOutputSerializer(page, many=True).data)


class TableTrayCountsApi(APIView):
    idempotency_key_required = True  # it moves money or chips (casino.idempotency)
    pagination_class = ApiCursorPagination
    page_ordering = ("-counted_at", "-pk")

    @extend_schema(
        parameters=[SHIFT_FILTER, since_filter("counted")],
        responses=TrayCountOutputSerializer(many=True),
        summary="The table's tray counts, newest first, each opener with its discrepancy against the last closer "
        "(the table's dealer, a supervisor or an Auditor)",
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = table_get(table_id=table_id)
        require_view_table(request.user, table)
        counts = filtered(request, tray_count_list(table=table), shift="shift_id", since="counted_at__gte")
        return page_response(self, request, counts, lambda page: TrayCountOutputSerializer(page, many=True).data)

    @extend_schema(
        request=TrayCountInputSerializer,
        responses={201: TrayCountOutputSerializer},
        summary="Count the table's tray, an opener or a closer, in the open shift (the table's dealer or a "
        "supervisor); it waits for a supervisor's confirmation",
        description="409 with no shift open, or while another count of the table waits for its confirmation.",
        examples=[
            OpenApiExample(
                "An opener worth 1,000.00",
                value={"kind": "opener", "counts": {"2500": 28, "10000": 3}},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = valid_input(TrayCountInputSerializer, request)
        count = tray_count_record(
            actor=actor_of(request.user), table=table_get(table_id=table_id), kind=data["kind"], counts=data["counts"]
        )
        return Response(
            TrayCountOutputSerializer(tray_count_get(tray_count_id=count.pk)).data, status=status.HTTP_201_CREATED
        )


class TrayCountConfirmApi(APIView):
    idempotency_key_required = True  # it moves money or chips (casino.idempotency)

    @extend_schema(
        request=None,
        responses=TrayCountOutputSerializer,
        summary="Confirm a tray count (a Floor supervisor or Pit boss who did not count it)",
        description="409 when it is already confirmed.",
    )
    def post(self, request: Request, tray_count_id: int) -> Response:
        count = tray_count_confirm(actor=actor_of(request.user), count=tray_count_get(tray_count_id=tray_count_id))
        return Response(TrayCountOutputSerializer(tray_count_get(tray_count_id=count.pk)).data)


# --- fills and credits ----------------------------------------------------------------------------

SLIP_FILTERS = [
    OpenApiParameter("status", str, enum=list(Slip.Status.values), description="Only slips in this status."),
    OpenApiParameter("kind", str, enum=list(Slip.Kind.values), description="Only fills, or only credits."),
    SHIFT_FILTER,
    since_filter("requested"),
]


def _slips_filtered(request: Request, slips: QuerySet[Slip]) -> QuerySet[Slip]:
    """``slips`` of the status, kind, shift and time the request asks for (each left out: any)."""
    status = _choice(request, "status", list(Slip.Status.values), what=_("A slip's status"))
    kind = _choice(request, "kind", list(Slip.Kind.values), what=_("A slip"))
    if status:
        slips = slips.filter(status=status)
    if kind:
        slips = slips.filter(kind=kind)
    return filtered(request, slips, shift="shift_id", since="requested_at__gte")


def _slip(slip_id: int) -> Response:
    return Response(SlipOutputSerializer(slip_get(slip_id=slip_id)).data)


class TableSlipsApi(APIView):
    idempotency_key_required = True  # it moves money or chips (casino.idempotency)
    pagination_class = ApiCursorPagination
    page_ordering = ("requested_at", "pk")

    @extend_schema(
        parameters=SLIP_FILTERS,
        responses=SlipOutputSerializer(many=True),
        summary="The table's fills and credits, oldest first (the table's dealer, a supervisor, an Auditor or the "
        "cage)",
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = table_get(table_id=table_id)
        require_read_slips(request.user, table)
        slips = _slips_filtered(request, slip_list(table=table))
        return page_response(self, request, slips, lambda page: SlipOutputSerializer(page, many=True).data)

    @extend_schema(
        request=SlipRequestInputSerializer,
        responses={201: SlipOutputSerializer},
        summary="Ask the cage for a fill (chips to the table) or a credit (chips back to the cage), in the open "
        "shift (the table's dealer or a supervisor); the slip takes the kind's next number",
        description="409 with no shift open.",
        examples=[
            OpenApiExample(
                "A fill of 2,000.00", value={"kind": "fill", "chips": {"2500": 40, "10000": 10}}, request_only=True
            )
        ],
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = valid_input(SlipRequestInputSerializer, request)
        slip = slip_request(
            actor=actor_of(request.user), table=table_get(table_id=table_id), kind=data["kind"], chips=data["chips"]
        )
        return Response(SlipOutputSerializer(slip_get(slip_id=slip.pk)).data, status=status.HTTP_201_CREATED)


class SlipListApi(APIView):
    pagination_class = ApiCursorPagination
    page_ordering = ("requested_at", "pk")

    @extend_schema(
        parameters=[*SLIP_FILTERS, TABLE_FILTER],
        responses=SlipOutputSerializer(many=True),
        summary="Fills and credits across the tables, oldest first; ?status=requested is the cage's queue (the "
        "cage, supervisors and Auditors see every table's, a dealer their own table's)",
    )
    def get(self, request: Request) -> Response:
        slips = _slips_filtered(request, slip_list(tables=slip_tables_visible_to(request.user)))
        slips = filtered(request, slips, table="table_id")
        return page_response(self, request, slips, lambda page: SlipOutputSerializer(page, many=True).data)


class SlipDetailApi(APIView):
    @extend_schema(
        responses=SlipOutputSerializer,
        summary="One slip (the table's dealer, a supervisor, an Auditor or the cage)",
    )
    def get(self, request: Request, slip_id: int) -> Response:
        slip = slip_get(slip_id=slip_id)
        require_read_slips(request.user, slip.table)
        return Response(SlipOutputSerializer(slip).data)


class SlipStepApi(APIView):
    """A slip taken one step on, with no body: ``step`` (a service of ``tables.slips``) says who may and refuses a
    slip not in the status for it (409); the answer is the slip as it is then."""

    idempotency_key_required = True  # it moves money or chips (casino.idempotency)
    step: ClassVar[Callable[..., Slip]]

    def post(self, request: Request, slip_id: int) -> Response:
        self.step(actor=actor_of(request.user), slip=slip_get(slip_id=slip_id))
        return _slip(slip_id)


@extend_schema_view(
    post=extend_schema(
        request=None,
        responses=SlipOutputSerializer,
        summary="Issue a requested slip at the cage (a Cage cashier, never whoever asked for it)",
        description="409 when the slip is not waiting for the cage (issued, received or voided).",
    )
)
class SlipIssueApi(SlipStepApi):
    step = staticmethod(slip_issue)


@extend_schema_view(
    post=extend_schema(
        request=None,
        responses=SlipOutputSerializer,
        summary="Sign an issued slip at its table: first the dealer (or a supervisor), then a supervisor, two "
        "different people and never a Cage cashier; with both it is received",
        description="409 when the slip is not issued yet, already received or voided, or already signed by the "
        "same person.",
    )
)
class SlipSignApi(SlipStepApi):
    step = staticmethod(slip_sign)


class SlipVoidApi(APIView):
    idempotency_key_required = True  # it moves money or chips (casino.idempotency)

    @extend_schema(
        request=SlipVoidInputSerializer,
        responses=SlipOutputSerializer,
        summary="Void a slip not yet received, saying why; it keeps its number (Floor supervisor or Pit boss)",
        description="409 when the slip is received or already voided.",
        examples=[
            OpenApiExample("Asked at the wrong table", value={"reason": "Asked at the wrong table"}, request_only=True)
        ],
    )
    def post(self, request: Request, slip_id: int) -> Response:
        data = valid_input(SlipVoidInputSerializer, request)
        slip_void(actor=actor_of(request.user), slip=slip_get(slip_id=slip_id), reason=data["reason"])
        return _slip(slip_id)


class SlipNumbersApi(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("kind", str, required=True, enum=list(Slip.Kind.values))],
        responses=SlipNumbersOutputSerializer,
        summary="Every slip number of a kind accounted for: used, voided and missing (the cage, a supervisor or "
        "an Auditor)",
    )
    def get(self, request: Request) -> Response:
        if not can_read_slip_numbers(request.user):
            readers = [*OVERSEERS, Role.CAGE_CASHIER]
            raise NotAllowed(
                _("Only a %(roles)s may read the slip numbers.")
                % {"roles": " or ".join(role.value for role in readers)},
                extra={"required_roles": [role.value for role in readers]},
            )
        kind = _choice(request, "kind", list(Slip.Kind.values), what=_("A slip"))
        if kind is None:
            raise ApplicationError(_("Say which slips: kind is fill or credit."), extra={"field": "kind"})
        return Response(SlipNumbersOutputSerializer(slip_numbers(kind=kind)).data)


# --- buy-ins and the drop box ---------------------------------------------------------------------


class TableBuyInsApi(APIView):
    idempotency_key_required = True  # it moves money or chips (casino.idempotency)
    pagination_class = ApiCursorPagination
    page_ordering = ("recorded_at", "pk")

    @extend_schema(
        parameters=[
            OpenApiParameter("shift", int, description="The shift's buy-ins (its id); the open shift's when left out."),
            since_filter("recorded"),
        ],
        responses=BuyInOutputSerializer(many=True),
        summary="The table's buy-ins in a shift, by default the open one, in the order taken (the table's dealer, a "
        "supervisor or an Auditor); none with no shift open",
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = table_get(table_id=table_id)
        require_view_table(request.user, table)
        shift_id = query_id(request.query_params.get("shift"), field="shift")
        shift = shift_current() if shift_id is None else drop_shift_get(shift_id=shift_id)
        buy_ins = filtered(request, buy_in_list(table=table, shift=shift), since="recorded_at__gte")
        return page_response(self, request, buy_ins, lambda page: BuyInOutputSerializer(page, many=True).data)

    @extend_schema(
        request=BuyInInputSerializer,
        responses={201: BuyInOutputSerializer},
        summary="Record cash exchanged for chips at a seat, in the open shift; it goes into the drop box (the "
        "table's dealer or a supervisor). A marker's chips are recorded when the marker is issued.",
        description="409 with no shift open.",
        examples=[
            OpenApiExample(
                "500.00 cash at seat 3", value={"seat": 3, "medium": "cash", "amount_cents": 50000}, request_only=True
            )
        ],
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = valid_input(BuyInInputSerializer, request)
        buy_in = buy_in_record(
            actor=actor_of(request.user),
            table=table_get(table_id=table_id),
            seat=data["seat"],
            medium=data["medium"],
            amount_cents=data["amount_cents"],
        )
        return Response(BuyInOutputSerializer(buy_in).data, status=status.HTTP_201_CREATED)


def _box(request: Request, box: DropBox) -> dict[str, Any]:
    hidden = drop_figures_hidden(
        request.user, counted_by=[count.counted_by_id for count in box.counts], final=box.final is not None
    )
    return dict(DropBoxOutputSerializer(box, context={"figures_hidden": hidden}).data)


class BuyInVoidApi(APIView):
    idempotency_key_required = True  # it moves money or chips (casino.idempotency)

    @extend_schema(
        request=SlipVoidInputSerializer,
        responses={
            201: BuyInOutputSerializer,
            400: OpenApiTypes.OBJECT,
            403: OpenApiTypes.OBJECT,
            409: OpenApiTypes.OBJECT,
        },
        summary="Void a buy-in keyed wrong, in its own shift, saying why: a correcting row of the opposite amount "
        "(Floor supervisor or Pit boss)",
        description="409 when the buy-in is already voided, is itself a void, or its shift is closed.",
        examples=[
            OpenApiExample("Keyed 5,000 for 500", value={"reason": "Keyed 5,000.00 for 500.00"}, request_only=True)
        ],
    )
    def post(self, request: Request, buy_in_id: int) -> Response:
        data = valid_input(SlipVoidInputSerializer, request)
        buy_in = get_object_or_404(BuyIn.objects.select_related("table"), pk=buy_in_id)
        require_view_table(request.user, buy_in.table)
        voiding = buy_in_void(actor=actor_of(request.user), buy_in=buy_in, reason=data["reason"])
        voiding = BuyIn.objects.select_related("recorded_by").get(pk=voiding.pk)
        return Response(BuyInOutputSerializer(voiding).data, status=status.HTTP_201_CREATED)


class DropBoxApi(APIView):
    idempotency_key_required = True  # it moves money or chips (casino.idempotency)

    @extend_schema(
        responses=DropBoxOutputSerializer,
        summary="The table's drop box for a shift: where its count stands, its counts and the drop (the table's "
        "dealer, a supervisor, an Auditor; the Count team once the shift is closed, blind to the counts' figures "
        "until it has counted the box)",
    )
    def get(self, request: Request, table_id: int, shift_id: int) -> Response:
        table, shift = table_get(table_id=table_id), drop_shift_get(shift_id=shift_id)
        require_read_drop_box(request.user, table, shift_closed=shift.closed_at is not None)
        return Response(_box(request, drop_box(table=table, shift=shift)))

    @extend_schema(
        request=DropCountInputSerializer,
        responses={201: DropBoxOutputSerializer},
        summary="Count the table's drop box for a closed shift (the Count team): notes by denomination, markers "
        "and promotional chips; final when two counts by two different people agree",
        description="409 while the shift is open or when the box is already final; 403 for a second count by the "
        "same person.",
        examples=[
            OpenApiExample(
                "720.00 in notes, a 1,000.00 marker",
                value={"cash": {"10000": 5, "2000": 10, "500": 4}, "markers_cents": 100000, "promo_cents": 0},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, table_id: int, shift_id: int) -> Response:
        data = valid_input(DropCountInputSerializer, request)
        table, shift = table_get(table_id=table_id), drop_shift_get(shift_id=shift_id)
        drop_count_record(
            actor=actor_of(request.user),
            table=table,
            shift=shift,
            cash=data["cash"],
            markers_cents=data["markers_cents"],
            promo_cents=data["promo_cents"],
        )
        return Response(_box(request, drop_box(table=table, shift=shift)), status=status.HTTP_201_CREATED)
