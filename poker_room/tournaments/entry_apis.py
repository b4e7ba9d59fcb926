"""REST endpoints of a tournament's players: the entries (registration, re-entry, rebuys, add-ons), a player out
and a mistaken bust undone, the seating and the results sheet.

Thin, one class per operation, as ``poker_room.tournaments.apis`` (whose docstring says who reads what): the services
decide every write and refuse with ``{"message", "extra"}``. Entries are named by their number in the tournament
(``#7``), in the addresses and in the bodies; a bust by its id (the results and the console show it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_pages import ApiCursorPagination, page_response
from casino.errors import ApplicationError
from casino.fields import StrictCharField, StrictIntegerField
from poker_room.api_inputs import MOST_NUMBER, InputSerializer, tournament_or_404, valid_input
from poker_room.floor import MOST_TEXT, reader_tables, require_viewer
from poker_room.tournaments import services
from poker_room.tournaments.models import Elimination, Entry, SeatMove, Tournament
from poker_room.tournaments.money import TournamentMoney, tournament_money
from poker_room.tournaments.page_selectors import PrizeLine, ResultLine, results, table_lines, tournament_payouts

MOST_MOVES = 50  # the seat changes the seating shows, newest first


def _entry(tournament: Tournament, number: int) -> Entry:
    """The tournament's entry by the number the director says (404 in an address)."""
    return get_object_or_404(Entry, tournament=tournament, number=number)


def _entry_named(tournament: Tournament, number: int, *, field: str) -> Entry:
    """The entry a body names by its number, or a 400 naming the field (a 404 is for the address)."""
    found = Entry.objects.filter(tournament=tournament, number=number).first()
    if found is None:
        raise ApplicationError(
            _("%(name)s has no entry #%(number)s.") % {"name": tournament.name, "number": number},
            extra={"field": field},
        )
    return found


class EntryRegisterInputSerializer(InputSerializer):
    name = StrictCharField(required=False, allow_blank=True, allow_null=True, max_length=MOST_TEXT, default="")
    player_id = StrictIntegerField(
        required=False, allow_null=True, default=None, min_value=1, max_value=2**62, help_text="A player's id."
    )


class EliminateInputSerializer(InputSerializer):
    eliminated_by = StrictIntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=MOST_NUMBER,
        help_text="The entry number of who knocked the player out (a knock-out needs it).",
    )


class UndoInputSerializer(InputSerializer):
    reason = StrictCharField(max_length=500)


class EntryOutputSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(help_text="The entry's number in the tournament (#7).")
    name = serializers.CharField()
    player = serializers.IntegerField(source="player_id", allow_null=True, help_text="The player's id, if any.")
    reentry_of = serializers.IntegerField(
        source="reentry_of.number", allow_null=True, default=None, help_text="The entry this one re-enters."
    )
    status = serializers.CharField(help_text="active, busted or won")
    table = serializers.IntegerField(source="table_number", allow_null=True)
    seat = serializers.IntegerField(source="seat_number", allow_null=True)
    chips = serializers.IntegerField(help_text="Chips bought: the stack, rebuys, the add-on.")
    rebuys = serializers.IntegerField()
    addon = serializers.BooleanField()
    bounty_cents = serializers.IntegerField(help_text="The bounty on this player's head.")
    place = serializers.IntegerField(allow_null=True)
    registered_at = serializers.DateTimeField(source="created_at")


def _entry_answer(tournament: Tournament, number: int, code: int = status.HTTP_200_OK) -> Response:
    entry = Entry.objects.select_related("reentry_of").get(tournament=tournament, number=number)
    return Response(EntryOutputSerializer(entry).data, status=code)


class EliminationOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk", help_text="The bust's id (to undo it).")
    entry = serializers.IntegerField(source="entry.number")
    name = serializers.CharField(source="entry.name")
    eliminated_by = serializers.IntegerField(source="eliminated_by.number", allow_null=True, default=None)
    place = serializers.IntegerField()
    prize_cents = serializers.IntegerField()
    bounty_paid_cents = serializers.IntegerField()
    bounty_added_cents = serializers.IntegerField(help_text="A progressive bounty: added to the eliminator's.")
    table = serializers.IntegerField(source="table_number", allow_null=True)
    seat = serializers.IntegerField(source="seat_number", allow_null=True)
    status = serializers.CharField(help_text="in_force or undone")
    created_at = serializers.DateTimeField()
    undone_at = serializers.DateTimeField(allow_null=True)
    undo_reason = serializers.CharField()


def _elimination_answer(elimination_id: int, code: int = status.HTTP_200_OK) -> Response:
    elimination = Elimination.objects.select_related("entry", "eliminated_by").get(pk=elimination_id)
    return Response(EliminationOutputSerializer(elimination).data, status=code)


class SeatOutputSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry.number", allow_null=True, default=None)
    name = serializers.CharField(source="entry.name", allow_null=True, default=None)
    chips = serializers.IntegerField(source="entry.chips", allow_null=True, default=None)
    is_button = serializers.BooleanField()


class SeatingTableOutputSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(source="table.number")
    seats = SeatOutputSerializer(many=True)
    break_position = serializers.IntegerField(source="table.break_position")
    dealer = serializers.CharField(source="table.dealer.get_username", allow_null=True, default=None)
    broken_at = serializers.DateTimeField(source="table.broken_at", allow_null=True)
    button = serializers.IntegerField(source="table.button", allow_null=True)
    players = serializers.IntegerField()


class MoveOutputSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(source="entry.number")
    name = serializers.CharField(source="entry.name")
    from_table = serializers.IntegerField(allow_null=True)
    from_seat = serializers.IntegerField(allow_null=True)
    to_table = serializers.IntegerField()
    to_seat = serializers.IntegerField()
    reason = serializers.CharField(help_text="draw, balance, table_break, final_table or undo")
    at = serializers.DateTimeField(source="created_at")


class SeatingOutputSerializer(serializers.Serializer[Any]):
    tables = SeatingTableOutputSerializer(many=True)
    moves = MoveOutputSerializer(many=True, help_text=f"The latest seat changes, newest first (at most {MOST_MOVES}).")


class ResultLineOutputSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField(allow_null=True, help_text="Null: still in.")
    entry = serializers.IntegerField(source="entry.number")
    name = serializers.CharField(source="entry.name")
    status = serializers.CharField(source="entry.status")
    prize_cents = serializers.IntegerField()
    bounties_cents = serializers.IntegerField(help_text="The bounties won (the winner's own included).")
    knockouts = serializers.IntegerField()


class PrizeOutputSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    prize_cents = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry.number", allow_null=True, default=None)


class MoneyOutputSerializer(serializers.Serializer[Any]):
    collected_cents = serializers.IntegerField(help_text="Paid into the prize pool by the entrants.")
    fees_cents = serializers.IntegerField(help_text="The house's fees.")
    bounties_in_cents = serializers.IntegerField()
    prizes_paid_cents = serializers.IntegerField()
    bounties_paid_cents = serializers.IntegerField()
    overlay_cents = serializers.IntegerField(help_text="Added by the house to reach the guarantee (a cost).")
    pool_cents = serializers.IntegerField(help_text="The prize pool in the ledger: collected plus the overlay.")
    pool_left_cents = serializers.IntegerField()
    bounties_left_cents = serializers.IntegerField()
    revenue_cents = serializers.IntegerField(help_text="The fees above the overlay; never negative.")
    house_cost_cents = serializers.IntegerField(help_text="The overlay above the fees.")


class ResultsOutputSerializer(serializers.Serializer[Any]):
    status = serializers.CharField()
    entries = serializers.IntegerField()
    prize_pool_cents = serializers.IntegerField(help_text="What was collected, or the guarantee if more.")
    guarantee_cents = serializers.IntegerField()
    places = ResultLineOutputSerializer(many=True, help_text="By place, those still in first.")
    prizes = PrizeOutputSerializer(many=True, help_text="What each paid place pays for the field as it stands.")
    prizes_refusal = serializers.CharField(help_text="Why no prize can be worked out yet (empty when they can).")
    money = MoneyOutputSerializer(help_text="The tournament's money as the ledger holds it.")


class EntryListApi(APIView):
    idempotency_key_required = True  # it moves money or chips (casino.idempotency)
    pagination_class = ApiCursorPagination
    page_ordering = ("number",)

    @extend_schema(
        responses=EntryOutputSerializer(many=True),
        summary="The entries by number (a Dealer of one of its tables: the players still in)",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        tables = reader_tables(request.user, tournament, what="read a tournament's entries")
        entries = Entry.objects.filter(tournament=tournament).select_related("reentry_of")
        if tables is not None:
            entries = entries.filter(status=Entry.Status.ACTIVE)
        return page_response(self, request, entries, lambda page: EntryOutputSerializer(page, many=True).data)

    @extend_schema(
        request=EntryRegisterInputSerializer,
        responses={201: EntryOutputSerializer},
        summary="Register a player, by name or by player id: the payment posted and, once it runs, a seat drawn "
        "(the director or a supervisor)",
        description="409 once registration has closed (after the late-registration level) or the prize pool is "
        "final, or when the player is in already.",
        examples=[
            OpenApiExample("By name", value={"name": "Anna"}, request_only=True),
            OpenApiExample("A player of the house", value={"player_id": 12}, request_only=True),
        ],
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        data = valid_input(EntryRegisterInputSerializer, request)
        entry = services.entry_register(
            actor=request.user, tournament=tournament, name=data["name"] or "", player_id=data["player_id"]
        )
        return _entry_answer(tournament, entry.number, status.HTTP_201_CREATED)


class EntryReenterApi(APIView):
    idempotency_key_required = True  # it moves money or chips (casino.idempotency)

    @extend_schema(
        request=None,
        responses={201: EntryOutputSerializer},
        summary="A busted player buys in again while registration is open: a new entry with the starting stack "
        "(the director or a supervisor)",
        description="409 for a player still in, beyond the re-entries allowed, or once registration has closed.",
    )
    def post(self, request: Request, tournament_id: int, entry_number: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        entry = services.entry_reenter(
            actor=request.user, tournament=tournament, entry=_entry(tournament, entry_number)
        )
        return _entry_answer(tournament, entry.number, status.HTTP_201_CREATED)


class EntryRebuyApi(APIView):
    idempotency_key_required = True  # it moves money or chips (casino.idempotency)

    @extend_schema(
        request=None,
        responses=EntryOutputSerializer,
        summary="A rebuy during the rebuy period (the director or a supervisor)",
        description="409 beyond the rebuys allowed, after the rebuy period, or for a player who is out.",
    )
    def post(self, request: Request, tournament_id: int, entry_number: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        services.entry_rebuy(actor=request.user, tournament=tournament, entry=_entry(tournament, entry_number))
        return _entry_answer(tournament, entry_number)


class EntryAddonApi(APIView):
    idempotency_key_required = True  # it moves money or chips (casino.idempotency)

    @extend_schema(
        request=None,
        responses=EntryOutputSerializer,
        summary="The add-on, once an entry, at the end of the rebuy period (the director or a supervisor)",
        description="409 outside its break, or a second time.",
    )
    def post(self, request: Request, tournament_id: int, entry_number: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        services.entry_addon(actor=request.user, tournament=tournament, entry=_entry(tournament, entry_number))
        return _entry_answer(tournament, entry_number)


class EntryEliminateApi(APIView):
    idempotency_key_required = True  # it moves money or chips (casino.idempotency)

    @extend_schema(
        request=EliminateInputSerializer,
        responses={201: EliminationOutputSerializer},
        summary="A player out: placed, paid if in the money, the bounty paid, the tables balanced (the director, a "
        "supervisor, or the dealer of the player's table)",
        description="409 for a player already out (a double tap busts once) or the last player in.",
        examples=[
            OpenApiExample("Knocked out by #12", value={"eliminated_by": 12}, request_only=True),
            OpenApiExample("No bounty: nobody named", value={}, request_only=True),
        ],
    )
    def post(self, request: Request, tournament_id: int, entry_number: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        entry = _entry(tournament, entry_number)
        data = valid_input(EliminateInputSerializer, request)
        by = data["eliminated_by"]
        elimination = services.entry_eliminate(
            actor=request.user,
            tournament=tournament,
            entry=entry,
            eliminated_by=None if by is None else _entry_named(tournament, by, field="eliminated_by"),
        )
        return _elimination_answer(elimination.pk, status.HTTP_201_CREATED)


class EliminationUndoApi(APIView):
    @extend_schema(
        request=UndoInputSerializer,
        responses=EliminationOutputSerializer,
        summary="Undo a mistaken bust, the latest first, saying why: its prize and bounty reversed, the player "
        "back in a seat (the director or a supervisor)",
        description="409 for a bust undone already, or while a later one stands.",
        examples=[
            OpenApiExample("Wrong player", value={"reason": "The dealer named the wrong seat."}, request_only=True)
        ],
    )
    def post(self, request: Request, tournament_id: int, elimination_id: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        elimination = get_object_or_404(Elimination, tournament=tournament, pk=elimination_id)
        data = valid_input(UndoInputSerializer, request)
        services.elimination_undo(
            actor=request.user, tournament=tournament, elimination=elimination, reason=data["reason"]
        )
        return _elimination_answer(elimination.pk)


class SeatingApi(APIView):
    @extend_schema(
        responses=SeatingOutputSerializer,
        summary="The tables, who sits where, the buttons, and the latest seat changes (a Dealer: their own tables)",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        mine = reader_tables(request.user, tournament, what="read a tournament's seats")
        active = list(Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE))
        lines = [line for line in table_lines(tournament, active) if mine is None or line.table.number in mine]
        moves = SeatMove.objects.filter(tournament=tournament).select_related("entry").order_by("-pk")
        if mine is not None:
            moves = moves.filter(Q(to_table__in=mine) | Q(from_table__in=mine))
        return Response(SeatingOutputSerializer({"tables": lines, "moves": moves[:MOST_MOVES]}).data)


@dataclass(frozen=True)
class ResultsView:
    status: str
    entries: int
    prize_pool_cents: int
    guarantee_cents: int
    places: list[ResultLine]
    prizes: list[PrizeLine]
    prizes_refusal: str
    money: TournamentMoney


class ResultsApi(APIView):
    @extend_schema(
        responses=ResultsOutputSerializer,
        summary="The results sheet: places, names, prizes and bounties; the prize pool, the fees, the overlay and "
        "the revenue as the ledger holds them (the director, a supervisor or an Auditor)",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        require_viewer(request.user, what="read a tournament's results")
        tournament = tournament_or_404(tournament_id)
        sheet = results(tournament, now=timezone.now())
        eliminations = list(
            Elimination.objects.filter(tournament=tournament, status=Elimination.Status.IN_FORCE).select_related(
                "entry"
            )
        )
        payouts = tournament_payouts(tournament, sheet.board, eliminations)
        view = ResultsView(
            status=tournament.status,
            entries=sheet.board.entries,
            prize_pool_cents=sheet.board.prize_pool_cents,
            guarantee_cents=tournament.guarantee_cents,
            places=sheet.lines,
            prizes=payouts.places,
            prizes_refusal=payouts.refusal,
            money=tournament_money(tournament),
        )
        return Response(ResultsOutputSerializer(view).data)
