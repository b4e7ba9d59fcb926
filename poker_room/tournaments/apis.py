"""REST endpoints of the poker room's tournaments (DESIGN.md "The poker room", GAME_RULES.md §5).

Thin, one class per operation: the services (``poker_room.tournaments.services``,
``poker_room.tournaments.clock_services``) decide every write (who may, and whether the state allows it) and refuse with
``{"message", "extra"}``: 400, 403, 404 or 409. Entries are named as the director says them, by their number in the
tournament (``#7``), in the addresses and in the bodies; a bust is named by its id (the results and the console show
it). Money is integer cents, chips are integers. An input field this API does not know is refused (a setting mistyped
never silently changes nothing).

Who reads what (the writes are the services'):

- the tournaments, a tournament, the entries, the seats, the room display: whoever may look at the director's console
  (the director, the floor's supervisors, the Auditors: ``casino.roles.TOURNAMENT_VIEWERS``), and the Dealer of one
  of its tables: that dealer sees the players still in (to name who knocked whom out) and the seats and moves of
  their own tables only;
- the templates and the results (prizes, bounties, the money): the director, the supervisors and the Auditors.

A double tap changes nothing twice: a second bust of the same entry, a second add-on, a second start are refused by
their state (409) under the tournament's row lock.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_pages import ApiCursorPagination, filtered, page_response, since_filter
from casino.errors import ApplicationError
from casino.fields import RowOrProblem, StrictCharField, StrictIntegerField
from casino.roles import TOURNAMENT_VIEWERS, Role, require_role
from casino.users import Viewer
from poker_room.api_inputs import InputSerializer, cents_field, tournament_or_404, valid_input
from poker_room.floor import MOST_CHIPS, MOST_TEXT, is_viewer, reader_tables, require_viewer
from poker_room.pure.payouts import HOUSE_PAYOUTS, BandJson, bands_as_json
from poker_room.pure.structure import MAX_LEVELS, AnteKind, Game, LevelJson, LevelKind, structure_as_dicts
from poker_room.pure.templates_data import Template, template_structure, templates
from poker_room.tournaments import services
from poker_room.tournaments.clock_services import tournament_levels
from poker_room.tournaments.models import Tournament, TournamentTable
from poker_room.tournaments.selectors import Board, boards, tournament_board
from poker_room.tournaments.tables import MOST_TABLES

MOST_INT = 2**31 - 1  # a column of whole numbers (chips a stack, the payout unit): the database's integer
MOST_BANDS = 100
MOST_PLACES = 1000
MOST_CHIP_VALUES = 20


# --- inputs -------------------------------------------------------------------------------------------------------


class TournamentCreateInputSerializer(InputSerializer):
    template = serializers.ChoiceField(
        choices=[t.key for t in templates()], help_text="The event's template (GET /api/tournament-templates/)."
    )
    name = StrictCharField(
        required=False, allow_blank=True, allow_null=True, max_length=MOST_TEXT, help_text="The template's if empty."
    )
    buy_in_cents = cents_field(help_text="What one entry pays into the prize pool.")
    fee_cents = cents_field(required=False, default=0, help_text="What one entry pays the house.")
    bounty_cents = cents_field(
        required=False, default=0, help_text="The bounty on each player (a knock-out needs one)."
    )
    tables = StrictIntegerField(
        required=False, default=2, min_value=1, max_value=MOST_TABLES, help_text="Table 1 is the final table."
    )
    starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None)


class TournamentSettingsInputSerializer(InputSerializer):
    """The settings a director changes (``poker_room.services.SETTINGS``); only those sent change."""

    name = StrictCharField(required=False, max_length=MOST_TEXT)
    late_registration_level = StrictIntegerField(
        required=False, min_value=0, max_value=MAX_LEVELS, help_text="Registration is open to the end of this level."
    )
    reentries_max = StrictIntegerField(required=False, min_value=0, max_value=MAX_LEVELS)
    rebuys_max = StrictIntegerField(required=False, min_value=0, max_value=MAX_LEVELS)
    rebuy_until_level = StrictIntegerField(required=False, min_value=0, max_value=MAX_LEVELS)
    rebuy_cents = cents_field(required=False)
    rebuy_fee_cents = cents_field(required=False)
    rebuy_chips = StrictIntegerField(required=False, min_value=0, max_value=MOST_INT)
    addon_cents = cents_field(required=False)
    addon_fee_cents = cents_field(required=False)
    addon_chips = StrictIntegerField(required=False, min_value=0, max_value=MOST_INT)
    guarantee_cents = cents_field(required=False)
    payout_unit_cents = StrictIntegerField(required=False, min_value=1, max_value=MOST_INT)
    min_cash_cents = cents_field(required=False)
    bounty_kind = serializers.ChoiceField(choices=Tournament.BountyKind.values, required=False)
    bounty_cents = cents_field(required=False)
    buy_in_cents = cents_field(required=False)
    fee_cents = cents_field(required=False)
    starting_stack = StrictIntegerField(required=False, min_value=1, max_value=MOST_INT)
    table_size = StrictIntegerField(required=False, min_value=2, max_value=10)


class TournamentLevelSerializer(InputSerializer):
    """One row of the structure: a blind level (minutes or hands) or a break (minutes, maybe a colour-up)."""

    kind = serializers.ChoiceField(choices=[k.value for k in LevelKind])
    minutes = StrictIntegerField(required=False, allow_null=True, min_value=0, max_value=MOST_CHIPS)
    hands = StrictIntegerField(required=False, allow_null=True, min_value=0, max_value=MOST_CHIPS)
    small_blind = StrictIntegerField(required=False, min_value=0, max_value=MOST_CHIPS)
    big_blind = StrictIntegerField(required=False, min_value=0, max_value=MOST_CHIPS)
    ante = StrictIntegerField(required=False, min_value=0, max_value=MOST_CHIPS)
    ante_kind = serializers.ChoiceField(choices=[k.value for k in AnteKind], required=False)
    game = serializers.ChoiceField(
        choices=["", *(g.value for g in Game)], required=False, help_text="A mixed event's game of the level."
    )
    colour_up = StrictIntegerField(
        required=False, allow_null=True, min_value=1, max_value=MOST_CHIPS, help_text="A break: the chip taken out."
    )


class StructureInputSerializer(InputSerializer):
    levels = serializers.ListField(child=TournamentLevelSerializer(), max_length=MAX_LEVELS)
    chips = serializers.ListField(
        child=StrictIntegerField(min_value=1, max_value=MOST_CHIPS),
        required=False,
        allow_null=True,
        max_length=MOST_CHIP_VALUES,
        help_text="The house's chip values; left out or null: as they are.",
    )


class PayoutBandSerializer(InputSerializer):
    min_players = StrictIntegerField(min_value=1, max_value=MOST_INT)
    max_players = StrictIntegerField(
        allow_null=True, min_value=1, max_value=MOST_INT, help_text="Null: and any larger field (the last band)."
    )
    shares_bp = serializers.ListField(
        child=StrictIntegerField(min_value=0, max_value=10_000),
        max_length=MOST_PLACES,
        help_text="Each paid place's share in basis points (10000 = 100 %), first place first.",
    )


class PayoutsInputSerializer(InputSerializer):
    bands = serializers.ListField(
        child=PayoutBandSerializer(), allow_null=True, max_length=MOST_BANDS, help_text="Null: the house's table."
    )


# --- answers ------------------------------------------------------------------------------------------------------


class ClockOutputSerializer(serializers.Serializer[Any]):
    level = serializers.IntegerField(help_text="The row of the structure (0 first, breaks counted).")
    status = serializers.CharField(help_text="not_started, running or paused")
    remaining_ms = serializers.IntegerField(allow_null=True, help_text="Null: a level counted in hands.")
    ends_at = serializers.DateTimeField(allow_null=True, help_text="Running a timed level: when it ends.")
    hands_left = serializers.IntegerField(allow_null=True)
    overtime = serializers.BooleanField(help_text="Past the last level's end.")
    next_level = serializers.IntegerField(allow_null=True)
    ms_to_next_break = serializers.IntegerField(allow_null=True)
    next_break = serializers.IntegerField(allow_null=True)


class LevelLineOutputSerializer(serializers.Serializer[Any]):
    row = serializers.IntegerField()
    number = serializers.IntegerField(help_text="The director's level number (a break: the level before it).")
    is_break = serializers.BooleanField()
    game = serializers.CharField()
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()
    ante_kind = serializers.CharField()
    minutes = serializers.IntegerField(allow_null=True)
    hands = serializers.IntegerField(allow_null=True)
    colour_up = serializers.IntegerField(allow_null=True)


class BoardOutputSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(help_text="Raised by every change a screen shows.")
    now = serializers.DateTimeField(help_text="The instant the board was read at.")
    clock = ClockOutputSerializer(allow_null=True)
    level = LevelLineOutputSerializer(allow_null=True)
    following = LevelLineOutputSerializer(allow_null=True, help_text="The next row: a level or a break.")
    next_level = LevelLineOutputSerializer(allow_null=True)
    next_break = LevelLineOutputSerializer(allow_null=True)
    players_left = serializers.IntegerField()
    entries = serializers.IntegerField(help_text="Every buy-in, re-entries included.")
    reentries = serializers.IntegerField()
    rebuys = serializers.IntegerField()
    addons = serializers.IntegerField()
    chips_in_play = serializers.IntegerField()
    average_stack = serializers.IntegerField(allow_null=True)
    collected_cents = serializers.IntegerField(help_text="Paid into the prize pool.")
    guarantee_cents = serializers.IntegerField()
    prize_pool_cents = serializers.IntegerField(help_text="What was collected, or the guarantee if more.")
    overlay_cents = serializers.IntegerField()


class TournamentOutputSerializer(RowOrProblem):
    id = serializers.IntegerField(source="tournament.pk")
    name = serializers.CharField(source="tournament.name")
    template = serializers.CharField(source="tournament.template_key")
    games = serializers.ListField(child=serializers.CharField(), source="tournament.games")
    status = serializers.CharField(source="tournament.status", help_text="planned, running or finished")
    problem = serializers.CharField(
        source="board.problem",
        help_text="What makes the stored structure or clock unreadable, in words (empty when they read): the "
        "director can set them again. The figures that need them are then null.",
    )
    starts_at = serializers.DateTimeField(source="tournament.starts_at", allow_null=True)
    started_at = serializers.DateTimeField(source="tournament.started_at", allow_null=True)
    finished_at = serializers.DateTimeField(source="tournament.finished_at", allow_null=True)
    starting_stack = serializers.IntegerField(source="tournament.starting_stack")
    buy_in_cents = serializers.IntegerField(source="tournament.buy_in_cents")
    fee_cents = serializers.IntegerField(source="tournament.fee_cents")
    bounty_kind = serializers.CharField(source="tournament.bounty_kind", help_text="none, fixed or progressive")
    bounty_cents = serializers.IntegerField(source="tournament.bounty_cents")
    board = BoardOutputSerializer()


class PayoutBandOutputSerializer(serializers.Serializer[Any]):
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField(allow_null=True)
    shares_bp = serializers.ListField(child=serializers.IntegerField())


class TournamentTableOutputSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    seats = serializers.IntegerField()
    break_position = serializers.IntegerField(help_text="0: the final table; 1 breaks first.")
    dealer = serializers.CharField(source="dealer.get_username", allow_null=True, default=None)
    broken_at = serializers.DateTimeField(allow_null=True)


class TournamentDetailOutputSerializer(TournamentOutputSerializer):
    rules = serializers.CharField(source="tournament.rules")
    late_registration_level = serializers.IntegerField(source="tournament.late_registration_level")
    reentries_max = serializers.IntegerField(source="tournament.reentries_max")
    rebuys_max = serializers.IntegerField(source="tournament.rebuys_max")
    rebuy_until_level = serializers.IntegerField(source="tournament.rebuy_until_level")
    rebuy_cents = serializers.IntegerField(source="tournament.rebuy_cents")
    rebuy_fee_cents = serializers.IntegerField(source="tournament.rebuy_fee_cents")
    rebuy_chips = serializers.IntegerField(source="tournament.rebuy_chips")
    addon_cents = serializers.IntegerField(source="tournament.addon_cents")
    addon_fee_cents = serializers.IntegerField(source="tournament.addon_fee_cents")
    addon_chips = serializers.IntegerField(source="tournament.addon_chips")
    guarantee_cents = serializers.IntegerField(source="tournament.guarantee_cents")
    payout_unit_cents = serializers.IntegerField(source="tournament.payout_unit_cents")
    min_cash_cents = serializers.IntegerField(source="tournament.min_cash_cents")
    table_size = serializers.IntegerField(source="tournament.table_size")
    levels = TournamentLevelSerializer(many=True, help_text="The structure; empty when it cannot be read (problem).")
    chips = serializers.ListField(child=serializers.IntegerField(), source="tournament.chips")
    payouts = PayoutBandOutputSerializer(
        many=True,
        source="tournament.payouts",
        allow_null=True,
        help_text="The tournament's own table; null: the house's.",
    )
    payouts_in_force = PayoutBandOutputSerializer(many=True, help_text="The table that pays: its own or the house's.")
    tables = TournamentTableOutputSerializer(many=True)
    clock_status = serializers.CharField(source="tournament.clock_status")
    pool_locked_at = serializers.DateTimeField(
        source="tournament.pool_locked_at", allow_null=True, help_text="When the prize pool was made final."
    )
    overlay_cents = serializers.IntegerField(source="tournament.overlay_cents")
    created_by = serializers.CharField(source="tournament.created_by.get_username")
    created_at = serializers.DateTimeField(source="tournament.created_at")


@dataclass(frozen=True)
class TournamentView:
    """A tournament with its board; for the detail, its tables and the payout table in force."""

    tournament: Tournament
    board: Board
    tables: list[TournamentTable]
    payouts_in_force: list[BandJson]

    @property
    def levels(self) -> list[LevelJson]:
        """The structure as stored, once it reads (a row written past the application may not: ``board.problem``)."""
        try:
            return structure_as_dicts(tournament_levels(self.tournament))
        except ApplicationError:
            return []


def _detail(tournament_id: int) -> TournamentView:
    tournament = get_object_or_404(Tournament.objects.select_related("created_by"), pk=tournament_id)
    board = tournament_board(tournament, now=timezone.now())
    tables = list(TournamentTable.objects.filter(tournament=tournament).select_related("dealer").order_by("number"))
    in_force = tournament.payouts if tournament.payouts is not None else bands_as_json(HOUSE_PAYOUTS)
    return TournamentView(tournament, board, tables, list(in_force))


def detail_answer(tournament_id: int, code: int = status.HTTP_200_OK) -> Response:
    return Response(TournamentDetailOutputSerializer(_detail(tournament_id)).data, status=code)


class TemplateOutputSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    name = serializers.CharField()
    games = serializers.ListField(child=serializers.CharField())
    starting_stack = serializers.IntegerField(allow_null=True, help_text="Null: each player's league points.")
    stack_from_points = serializers.BooleanField()
    level_minutes = serializers.IntegerField(allow_null=True)
    level_hands = serializers.IntegerField(allow_null=True, help_text="Blinds up every so many hands (heads-up).")
    rules = serializers.CharField(help_text="The line the director shows.")
    knockout = serializers.BooleanField()
    ante_up = serializers.BooleanField()
    heads_up = serializers.BooleanField()
    table_size = serializers.IntegerField()
    source = serializers.CharField(  # type: ignore[assignment]  # the API's key, not Field.source
        help_text="Where in the seed document the event comes from."
    )
    structure = TournamentLevelSerializer(many=True, help_text="The default structure a new tournament gets.")


def _template_body(t: Template) -> dict[str, object]:
    """A template as ``TemplateOutputSerializer`` answers it: its fields, and the default structure it gives."""
    return {**asdict(t), "structure": structure_as_dicts(template_structure(t))}


# --- tournaments --------------------------------------------------------------------------------------------------


def _listed(user: Viewer, wanted: str | None) -> QuerySet[Tournament]:
    found = Tournament.objects.order_by("-created_at", "-pk")
    if wanted is not None:
        found = found.filter(status=wanted)
    if not is_viewer(user):
        dealt = Q(tables__dealer_id=user.pk, tables__broken_at__isnull=True)
        found = found.filter(pk__in=Tournament.objects.filter(dealt).values("pk"))
    return found


class TournamentListApi(APIView):
    pagination_class = ApiCursorPagination
    page_ordering = ("-created_at", "-pk")

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, description="planned, running or finished"),
            since_filter("created"),
        ],
        responses=TournamentOutputSerializer(many=True),
        summary="The tournaments, newest first, each with its board: the director, a "
        "supervisor or an Auditor; a Dealer, those they deal a table of",
    )
    def get(self, request: Request) -> Response:
        require_role(request.user, *TOURNAMENT_VIEWERS, Role.DEALER, action="list the tournaments")
        wanted = request.query_params.get("status") or None
        if wanted is not None and wanted not in Tournament.Status.values:
            raise ApplicationError(
                _("A tournament's status is %(statuses)s, not %(value)s.")
                % {"statuses": ", ".join(Tournament.Status.values), "value": repr(wanted)},
                extra={"field": "status"},
            )
        found = filtered(request, _listed(request.user, wanted), since="created_at__gte")

        def answer(page: list[Tournament]) -> Any:
            views = [TournamentView(t, b, [], []) for t, b in zip(page, boards(page), strict=True)]
            return TournamentOutputSerializer(views, many=True).data

        return page_response(self, request, found, answer)

    @extend_schema(
        request=TournamentCreateInputSerializer,
        responses={201: TournamentDetailOutputSerializer},
        summary="Create a tournament from a template: its game(s), stack, table size and a default structure "
        "(the director or a supervisor)",
        examples=[
            OpenApiExample(
                "The Main Event, 100.00 + 20.00, three tables",
                value={"template": "msop_main_event", "buy_in_cents": 10000, "fee_cents": 2000, "tables": 3},
                request_only=True,
            ),
            OpenApiExample(
                "Zocktoberfest, a knock-out with 20.00 on each head",
                value={"template": "zocktoberfest", "buy_in_cents": 5000, "fee_cents": 1000, "bounty_cents": 2000},
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        data = valid_input(TournamentCreateInputSerializer, request)
        tournament = services.tournament_create(
            actor=request.user,
            template_key=data["template"],
            name=data.get("name") or None,
            buy_in_cents=data["buy_in_cents"],
            fee_cents=data["fee_cents"],
            bounty_cents=data["bounty_cents"],
            tables=data["tables"],
            starts_at=data["starts_at"],
        )
        return detail_answer(tournament.pk, status.HTTP_201_CREATED)


class TemplateListApi(APIView):
    pagination_class = ApiCursorPagination  # a list of the seed's: paged by its order

    @extend_schema(
        responses=TemplateOutputSerializer(many=True),
        summary="Every event of the seed's card room as a template, with its default structure (the director, a "
        "supervisor or an Auditor)",
    )
    def get(self, request: Request) -> Response:
        require_viewer(request.user, what="read the tournament templates")
        return page_response(
            self,
            request,
            list(templates()),
            lambda page: TemplateOutputSerializer([_template_body(t) for t in page], many=True).data,
        )


class TournamentDetailApi(APIView):
    @extend_schema(
        responses=TournamentDetailOutputSerializer,
        summary="One tournament: its settings, structure, payout table, tables and board (a Dealer of one of its "
        "tables reads it too)",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        reader_tables(request.user, tournament_or_404(tournament_id), what="read a tournament")
        return detail_answer(tournament_id)

    @extend_schema(
        request=TournamentSettingsInputSerializer,
        responses=TournamentDetailOutputSerializer,
        summary="Change a tournament's settings: those sent change (the director or a supervisor)",
        description="What an entrant pays and gets, and the table size, only before the start (409 after); the "
        "payouts' rounding and minimum cash until the prize pool is final.",
        examples=[
            OpenApiExample(
                "Late registration to the end of level 6, one re-entry",
                value={"late_registration_level": 6, "reentries_max": 1},
                request_only=True,
            ),
            OpenApiExample(
                "Two rebuys until level 4, an add-on",
                value={
                    "rebuys_max": 2,
                    "rebuy_until_level": 4,
                    "rebuy_cents": 5000,
                    "rebuy_chips": 10000,
                    "addon_cents": 5000,
                    "addon_chips": 15000,
                },
                request_only=True,
            ),
        ],
    )
    def patch(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        data = valid_input(TournamentSettingsInputSerializer, request, partial=True)
        if not data:
            raise ApplicationError(_("Send the settings to change."), extra={"field": "body"})
        services.tournament_settings_set(actor=request.user, tournament=tournament, **data)
        return detail_answer(tournament_id)


class StructureApi(APIView):
    @extend_schema(
        request=StructureInputSerializer,
        responses=TournamentDetailOutputSerializer,
        summary="Replace the structure (and the house's chips): levels by time or hands, breaks with a colour-up "
        "(the director or a supervisor)",
        description="A level below the one before it, a break first or twice in a row, a blind the chips cannot "
        "pay: 400 in the director's words. While it runs, the levels played stay as they were (409).",
        examples=[
            OpenApiExample(
                "Two levels, a break colouring up the 25 chip, a level",
                value={
                    "levels": [
                        {"kind": "level", "minutes": 20, "small_blind": 25, "big_blind": 50},
                        {"kind": "level", "minutes": 20, "small_blind": 50, "big_blind": 100},
                        {"kind": "break", "minutes": 15, "colour_up": 25},
                        {
                            "kind": "level",
                            "minutes": 20,
                            "small_blind": 100,
                            "big_blind": 200,
                            "ante": 200,
                            "ante_kind": "big_blind",
                        },
                    ],
                    "chips": [25, 100, 500, 1000, 5000],
                },
                request_only=True,
            )
        ],
    )
    def put(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        data = valid_input(StructureInputSerializer, request)
        services.tournament_structure_set(
            actor=request.user,
            tournament=tournament,
            levels=[dict(level) for level in data["levels"]],
            chips=data.get("chips"),
        )
        return detail_answer(tournament_id)


class PayoutsApi(APIView):
    @extend_schema(
        request=PayoutsInputSerializer,
        responses=TournamentDetailOutputSerializer,
        summary="Set the payout table by field size, or null for the house's (the director or a supervisor)",
        description="Each band's shares add up to exactly 100 %, never rising down the places; the bands start at 1 "
        "player without a gap. Not once the prize pool is final (409).",
        examples=[
            OpenApiExample(
                "Up to 10 players 50/30/20, then 40/25/20/10/5",
                value={
                    "bands": [
                        {"min_players": 1, "max_players": 10, "shares_bp": [5000, 3000, 2000]},
                        {"min_players": 11, "max_players": None, "shares_bp": [4000, 2500, 2000, 1000, 500]},
                    ]
                },
                request_only=True,
            ),
            OpenApiExample("The house's table", value={"bands": None}, request_only=True),
        ],
    )
    def put(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        data = valid_input(PayoutsInputSerializer, request)
        bands = data["bands"]
        services.tournament_payouts_set(
            actor=request.user,
            tournament=tournament,
            bands=None if bands is None else [{**band, "shares_bp": list(band["shares_bp"])} for band in bands],
        )
        return detail_answer(tournament_id)


class StartApi(APIView):
    @extend_schema(
        request=None,
        responses=TournamentDetailOutputSerializer,
        summary="Start the tournament: seats drawn at random, the clock started (the director or a supervisor)",
        description="409 with fewer than two entries, more players than seats, or once started.",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        services.tournament_start(actor=request.user, tournament=tournament_or_404(tournament_id))
        return detail_answer(tournament_id)
