"""REST endpoints of the tournament clock: start, pause, resume, a skip, time added or taken away, a hand counted.
Each answers with the tournament's detail; the clock's services (``poker_room.tournaments.clock_services``) decide
and audit every change."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.fields import StrictIntegerField
from casino.users import actor_of
from poker_room.api_inputs import InputSerializer, tournament_or_404, valid_input
from poker_room.pure.structure import MAX_LEVELS
from poker_room.tournaments import clock_services
from poker_room.tournaments.apis import TournamentDetailOutputSerializer, detail_answer


class ClockSkipInputSerializer(InputSerializer):
    by = StrictIntegerField(
        min_value=-MAX_LEVELS, max_value=MAX_LEVELS, help_text="Rows of the structure forward (+) or back (-)."
    )


class ClockAdjustInputSerializer(InputSerializer):
    seconds = StrictIntegerField(
        min_value=-clock_services.MOST_SECONDS,
        max_value=clock_services.MOST_SECONDS,
        help_text="Added to the level (+) or taken from it (-).",
    )


_CLOCK_WHO = " (the director or a supervisor; every change audited)"


class ClockStartApi(APIView):
    @extend_schema(request=None, responses=TournamentDetailOutputSerializer, summary="Start the clock" + _CLOCK_WHO)
    def post(self, request: Request, tournament_id: int) -> Response:
        clock_services.clock_start(actor=actor_of(request.user), tournament=tournament_or_404(tournament_id))
        return detail_answer(tournament_id)


class ClockPauseApi(APIView):
    @extend_schema(
        request=None,
        responses=TournamentDetailOutputSerializer,
        summary="Pause the clock: what is left of the level is kept" + _CLOCK_WHO,
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        clock_services.clock_pause(actor=actor_of(request.user), tournament=tournament_or_404(tournament_id))
        return detail_answer(tournament_id)


class ClockResumeApi(APIView):
    @extend_schema(
        request=None,
        responses=TournamentDetailOutputSerializer,
        summary="Resume the clock: the level ends what was left of it from now" + _CLOCK_WHO,
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        clock_services.clock_resume(actor=actor_of(request.user), tournament=tournament_or_404(tournament_id))
        return detail_answer(tournament_id)


class ClockSkipApi(APIView):
    @extend_schema(
        request=ClockSkipInputSerializer,
        responses=TournamentDetailOutputSerializer,
        summary="Skip rows of the structure forward or back, breaks included; the new level starts in full"
        + _CLOCK_WHO,
        examples=[
            OpenApiExample("To the next level", value={"by": 1}, request_only=True),
            OpenApiExample("Back one", value={"by": -1}, request_only=True),
        ],
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        data = valid_input(ClockSkipInputSerializer, request)
        clock_services.clock_skip(actor=actor_of(request.user), tournament=tournament, by=data["by"])
        return detail_answer(tournament_id)


class ClockAdjustApi(APIView):
    @extend_schema(
        request=ClockAdjustInputSerializer,
        responses=TournamentDetailOutputSerializer,
        summary="Add time to the level or take it away" + _CLOCK_WHO,
        examples=[OpenApiExample("One more minute", value={"seconds": 60}, request_only=True)],
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_or_404(tournament_id)
        data = valid_input(ClockAdjustInputSerializer, request)
        clock_services.clock_adjust(actor=actor_of(request.user), tournament=tournament, seconds=data["seconds"])
        return detail_answer(tournament_id)


class ClockHandApi(APIView):
    @extend_schema(
        request=None,
        responses=TournamentDetailOutputSerializer,
        summary="A hand finished in a level counted in hands (heads-up: the blinds rise every 7th hand)" + _CLOCK_WHO,
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        clock_services.clock_hand(actor=actor_of(request.user), tournament=tournament_or_404(tournament_id))
        return detail_answer(tournament_id)
