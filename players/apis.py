"""REST endpoints of rated play (DESIGN.md "Players and ratings"): players (find, enrol, read, anonymise),
their rating sessions (seat, break, back, move, end, read; the sessions open at a table) and the floor's alerts.

Thin, one class per operation: the services of ``players.services`` decide every write (who may, and whether the
state allows it) and refuse with ``{"message", "extra"}``: 400, 403, 404 or 409. Every figure shown is
``players.figures``' (``session_figures``, ``hold_drift``), from what the sessions and tables keep: nothing here
reads a wager. Money is integer cents.

Who reads what:

- a player: the table staff and the Auditors. A Dealer sees a player's name and tier only, never their sessions or
  figures (``sessions``, ``card_number`` and the dates are null); a Floor supervisor, Pit boss or Auditor sees every
  session with its figures;
- a session: whoever may see the table it sits at (or last sat at): its dealer sees where it sits and its status,
  without figures (``figures`` null); the supervisors and Auditors see the figures, live;
- the alerts: the supervisors and Auditors.

A double tap changes nothing twice: a second start, break, return, move or end of the same session is refused by its
state (409), and a card number belongs to one player.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, TypedDict

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_inputs import valid_input
from casino.api_pages import ApiCursorPagination, page_response
from casino.errors import ApplicationError, NotAllowed
from casino.fields import StrictCharField, StrictIntegerField
from casino.roles import OVERSEERS, Role, require_role, user_has_role
from casino.users import Viewer, actor_of
from players.figures import HoldDrift, SessionFigures, hold_drift, session_figures
from players.models import Player, RatingSeat, RatingSession, TableHold
from players.selectors import player_search
from players.services import (
    MOST_CARD,
    MOST_CENTS,
    MOST_NAME,
    player_anonymise,
    player_create,
    session_end,
    session_move,
    session_pause,
    session_resume,
    session_start,
)
from tables.models import Table
from tables.permissions import require_view_table
from tables.selectors import table_get

# Who finds and reads players: the staff who seat them, and those who oversee the floor.
PLAYER_READERS: tuple[Role, ...] = (Role.DEALER, *OVERSEERS)
# The sessions a player's page lists, newest first: a regular's year fits.
MOST_SESSIONS = 100
MOST_QUERY = 120


def _sees_figures(user: Viewer) -> bool:
    """Whether ``user`` sees players' sessions and figures: a Floor supervisor, Pit boss or Auditor."""
    return bool(getattr(user, "is_superuser", False)) or user_has_role(user, *OVERSEERS)


def _require_overseer(user: Viewer, *, what: str) -> None:
    if not _sees_figures(user):
        needed = " or ".join(role.value for role in OVERSEERS)
        raise NotAllowed(
            _("Only a %(roles)s may read %(what)s.") % {"roles": needed, "what": what},
            extra={"required_roles": [r.value for r in OVERSEERS]},
        )


def _named(model: type[Player] | type[Table], pk: int, *, field: str, what: str) -> Any:
    """The row a body names by id, or a 400 naming the field (a 404 is for the address)."""
    found = model.objects.filter(pk=pk).first()
    if found is None:
        raise ApplicationError(
            _("There is no %(what)s with id %(id)s.") % {"what": what, "id": pk}, extra={"field": field}
        )
    return found


@dataclass(frozen=True)
class SessionView:
    """A session as the caller reads it: where it sits (or last sat), and its figures (None: not for this caller)."""

    session: RatingSession
    seat: RatingSeat | None
    figures: SessionFigures | None


def _view(session: RatingSession, seats: list[RatingSeat], *, figures: bool, now: Any) -> SessionView:
    seat = max(seats, key=lambda s: (s.started_at, s.pk)) if seats else None
    shown = session_figures(session, tier=session.player.tier, now=now) if figures else None
    return SessionView(session=session, seat=seat, figures=shown)


def _sessions() -> Any:
    seats = Prefetch("seats", queryset=RatingSeat.objects.select_related("table"))
    return RatingSession.objects.select_related("player").prefetch_related(seats)


def _session_view(user: Viewer, session_id: int, *, reading: bool = False) -> SessionView:
    """One session as ``user`` may read it (403 unless they may see its table), or 404. ``reading``: a read, not the
    answer to an act: the table staff read only a session seated now (an ended one is the player's history)."""
    session = get_object_or_404(_sessions(), pk=session_id)
    seats = list(session.seats.all())
    figures = _sees_figures(user)
    if not figures:
        ended = session.status == RatingSession.Status.ENDED
        if not seats or (reading and ended):  # not for the table staff
            raise NotAllowed(_("Only a supervisor or an auditor may read this session."))
        require_view_table(user, max(seats, key=lambda s: (s.started_at, s.pk)).table)
    return _view(session, seats, figures=figures, now=timezone.now())


def _session_answer(
    request: Request, session_id: int, code: int = status.HTTP_200_OK, *, reading: bool = False
) -> Response:
    return Response(SessionOutputSerializer(_session_view(request.user, session_id, reading=reading)).data, status=code)


# --- inputs ---------------------------------------------------------------------------------------


class StrictBooleanField(serializers.BooleanField):
    """Yes or no: JSON true or false, or a form's "true" / "false"; never a number or another word taken for one."""

    def to_internal_value(self, data: Any) -> bool:
        if isinstance(data, bool):
            return data
        if isinstance(data, str) and data.strip().lower() in ("true", "false"):
            return data.strip().lower() == "true"
        self.fail("invalid", input=data)
        raise AssertionError("unreachable")  # ``fail`` raises


class PlayerCreateInputSerializer(serializers.Serializer[Any]):
    tier = StrictCharField(help_text="One of the house's tiers (TABLESIDE_PLAYER_TIERS), e.g. Gold.")
    name = StrictCharField(required=False, allow_blank=True, max_length=MOST_NAME, default="")
    card_number = StrictCharField(
        required=False, allow_blank=True, allow_null=True, max_length=MOST_CARD, default="", help_text="Optional."
    )
    anonymous = StrictBooleanField(
        required=False, default=False, help_text="True: a tier only, no name and no card number."
    )


class SessionStartInputSerializer(serializers.Serializer[Any]):
    player = StrictIntegerField(help_text="The player's id.")
    table = StrictIntegerField(help_text="The table's id.")
    seat = StrictIntegerField(min_value=1)
    chips_cents = StrictIntegerField(
        required=False, default=0, min_value=0, max_value=MOST_CENTS, help_text="Chips brought from elsewhere."
    )


class SessionMoveInputSerializer(serializers.Serializer[Any]):
    table = StrictIntegerField(help_text="The id of the table the player moves to (it may be the same table).")
    seat = StrictIntegerField(min_value=1)


class SessionEndInputSerializer(serializers.Serializer[Any]):
    walk_with_cents = StrictIntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=0,
        max_value=MOST_CENTS,
        help_text="What the player walked with, in chips (null or left out: not counted).",
    )


# --- answers --------------------------------------------------------------------------------------


class PlayerOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField(help_text="Empty for an anonymous player.")
    tier = serializers.CharField()
    anonymous = serializers.BooleanField()


class FiguresOutputSerializer(serializers.Serializer[Any]):
    rounds = serializers.IntegerField(help_text="Rounds played as a player.")
    banker_rounds = serializers.IntegerField()
    seconds_played = serializers.IntegerField(help_text="Breaks excluded; a session playing counts up to now.")
    wagered_cents = serializers.IntegerField()
    banker_wagered_cents = serializers.IntegerField()
    average_bet_cents = serializers.IntegerField(allow_null=True)
    win_loss_cents = serializers.IntegerField(help_text="The player's: won positive.")
    theo_cents = serializers.IntegerField(help_text="Every wager x its house edge, summed.")
    classic_theo_cents = serializers.IntegerField(
        allow_null=True, help_text="Average bet x hours x decisions an hour x the session's edge."
    )
    decisions_per_hour = serializers.IntegerField()
    rounds_per_hour = serializers.FloatField(allow_null=True)
    edge_percent = serializers.FloatField(allow_null=True)
    comp_cents = serializers.IntegerField()
    reinvestment_bp = serializers.IntegerField()
    points = serializers.IntegerField()
    buy_in_cents = serializers.IntegerField()
    walk_with_cents = serializers.IntegerField(allow_null=True)
    z = serializers.FloatField(allow_null=True, help_text="Standard deviations of the win above the expectation.")
    alert = serializers.BooleanField()


class SessionOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="session.pk")
    player = PlayerOutputSerializer(source="session.player")
    status = serializers.CharField(source="session.status", help_text="playing, paused or ended")
    started_at = serializers.DateTimeField(source="session.started_at")
    ended_at = serializers.DateTimeField(source="session.ended_at", allow_null=True)
    table = serializers.IntegerField(source="seat.table_id", allow_null=True, default=None)
    table_name = serializers.CharField(source="seat.table.name", allow_null=True, default=None)
    seat = serializers.IntegerField(
        source="seat.seat_number", allow_null=True, default=None, help_text="Where it sits; once ended, where it sat."
    )
    figures = FiguresOutputSerializer(
        allow_null=True, help_text="Null for a Dealer: the figures are the supervisors' and Auditors'."
    )


class PlayerDetailOutputSerializer(PlayerOutputSerializer):
    card_number = serializers.CharField(allow_null=True, help_text="Null for a Dealer, or when there is none.")
    created_at = serializers.DateTimeField(allow_null=True, help_text="Null for a Dealer.")
    anonymised_at = serializers.DateTimeField(
        allow_null=True, help_text="When anonymised on request; null for a Dealer."
    )
    sessions = SessionOutputSerializer(
        many=True, allow_null=True, help_text=f"Newest first, at most {MOST_SESSIONS}; null for a Dealer."
    )
    sessions_total = serializers.IntegerField(allow_null=True, help_text="Null for a Dealer.")


class TableDriftOutputSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField(source="table.pk")
    table_name = serializers.CharField(source="table.name")
    rounds = serializers.IntegerField(source="drift.rounds", help_text="The rounds in the table's hold window.")
    action_cents = serializers.IntegerField(source="drift.action_cents")
    house_win_cents = serializers.IntegerField(source="drift.house_win_cents")
    theo_cents = serializers.IntegerField(source="drift.theo_cents")
    hold_percent = serializers.FloatField(source="drift.hold_percent", allow_null=True)
    expected_percent = serializers.FloatField(source="drift.expected_percent", allow_null=True)
    z = serializers.FloatField(source="drift.z", allow_null=True)


class AlertsOutputSerializer(serializers.Serializer[Any]):
    sessions = SessionOutputSerializer(many=True, help_text="Open sessions flagged, highest z first.")
    tables = TableDriftOutputSerializer(many=True, help_text="Tables whose hold left its interval, largest |z| first.")


class PlayerBody(TypedDict):
    """A player as the API answers: name, tier and whether anonymised for everyone; the card number, the dates and
    the sessions (newest first, at most ``MOST_SESSIONS``, with their total) for those who see figures, else None."""

    pk: int
    name: str
    tier: str
    anonymous: bool
    card_number: str | None
    created_at: dt.datetime | None
    anonymised_at: dt.datetime | None
    sessions: list[SessionView] | None
    sessions_total: int | None


def _player_body(user: Viewer, player: Player) -> PlayerBody:
    """The player as ``user`` may see them (see the module's docstring)."""
    body: PlayerBody = {
        "pk": player.pk,
        "name": player.name,
        "tier": player.tier,
        "anonymous": player.anonymous,
        "card_number": None,
        "created_at": None,
        "anonymised_at": None,
        "sessions": None,
        "sessions_total": None,
    }
    if _sees_figures(user):
        sessions = _sessions().filter(player=player)
        now = timezone.now()
        body["card_number"] = player.card_number
        body["created_at"] = player.created_at
        body["anonymised_at"] = player.anonymised_at
        body["sessions"] = [
            _view(session, list(session.seats.all()), figures=True, now=now) for session in sessions[:MOST_SESSIONS]
        ]
        body["sessions_total"] = sessions.count()
    return body


def _player_answer(request: Request, player: Player, code: int = status.HTTP_200_OK) -> Response:
    return Response(PlayerDetailOutputSerializer(_player_body(request.user, player)).data, status=code)


# --- players --------------------------------------------------------------------------------------


class PlayerListApi(APIView):
    pagination_class = ApiCursorPagination
    page_ordering = ("name", "pk")

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "q", str, required=True, description="A card number (exactly), or words of the name (each anywhere)."
            )
        ],
        responses=PlayerOutputSerializer(many=True),
        summary="Find players by card number or name, by name (a Dealer, a supervisor or an Auditor)",
    )
    def get(self, request: Request) -> Response:
        require_role(request.user, *PLAYER_READERS, action="find a player")
        query = request.query_params.get("q")
        if query is None or not query.strip():
            raise ApplicationError(_("Say whom to find: q is a card number or words of a name."), extra={"field": "q"})
        if len(query) > MOST_QUERY:
            raise ApplicationError(
                _("q is a card number or a name of at most %(most)s characters.") % {"most": MOST_QUERY},
                extra={"field": "q"},
            )
        found = player_search(query=query)
        return page_response(self, request, found, lambda page: PlayerOutputSerializer(page, many=True).data)

    @extend_schema(
        request=PlayerCreateInputSerializer,
        responses={201: PlayerDetailOutputSerializer},
        summary="Enrol a player: a name and an optional card number, or anonymous with a tier only (a Dealer or a "
        "supervisor)",
        description="409 when the card number belongs to another player.",
        examples=[
            OpenApiExample("Mr Lee, Gold", value={"name": "Mr Lee", "card_number": "1001", "tier": "Gold"}),
            OpenApiExample("Anonymous, Bronze", value={"tier": "Bronze", "anonymous": True}),
        ],
    )
    def post(self, request: Request) -> Response:
        data = valid_input(PlayerCreateInputSerializer, request)
        player = player_create(
            actor=actor_of(request.user),
            tier=data["tier"],
            name=data["name"],
            card_number=data["card_number"] or "",
            anonymous=data["anonymous"],
        )
        return _player_answer(request, player, status.HTTP_201_CREATED)


class PlayerDetailApi(APIView):
    @extend_schema(
        responses=PlayerDetailOutputSerializer,
        summary="One player: a Dealer sees the name and tier; a supervisor or an Auditor also the card number and "
        "every session with its figures",
    )
    def get(self, request: Request, player_id: int) -> Response:
        require_role(request.user, *PLAYER_READERS, action="read a player")
        return _player_answer(request, get_object_or_404(Player, pk=player_id))


class PlayerAnonymiseApi(APIView):
    @extend_schema(
        request=None,
        responses=PlayerDetailOutputSerializer,
        summary="Anonymise a player on their request: the name and card number are blanked, the sessions, the "
        "ledger and the audit trail stay (a Floor supervisor or Pit boss)",
        description="409 when the player is anonymised already.",
    )
    def post(self, request: Request, player_id: int) -> Response:
        player = player_anonymise(actor=actor_of(request.user), player=get_object_or_404(Player, pk=player_id))
        return _player_answer(request, player)


# --- rating sessions ------------------------------------------------------------------------------


class SessionStartApi(APIView):
    @extend_schema(
        request=SessionStartInputSerializer,
        responses={201: SessionOutputSerializer},
        summary="Seat a player at a table for a rating session: the clock starts (the table's dealer or a supervisor)",
        description="409 when the player is in a session already, the seat is rated for another player or the table "
        "is closed.",
        examples=[
            OpenApiExample(
                "Seat 3, with 500.00 in chips", value={"player": 1, "table": 1, "seat": 3, "chips_cents": 50000}
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = valid_input(SessionStartInputSerializer, request)
        session = session_start(
            actor=actor_of(request.user),
            player=_named(Player, data["player"], field="player", what=_("player")),
            table=_named(Table, data["table"], field="table", what=_("table")),
            seat=data["seat"],
            chips_cents=data["chips_cents"],
        )
        return _session_answer(request, session.pk, status.HTTP_201_CREATED)


class SessionDetailApi(APIView):
    @extend_schema(
        responses=SessionOutputSerializer,
        summary="One rating session, where it sits and its live figures (figures: a supervisor or an Auditor; the "
        "table's dealer sees the rest)",
    )
    def get(self, request: Request, session_id: int) -> Response:
        return _session_answer(request, session_id, reading=True)


class SessionPauseApi(APIView):
    @extend_schema(
        request=None,
        responses=SessionOutputSerializer,
        summary="The player takes a break: the clock stops, the seat stays theirs (the table's dealer or a supervisor)",
        description="409 unless the session is playing.",
    )
    def post(self, request: Request, session_id: int) -> Response:
        session_pause(actor=actor_of(request.user), session=get_object_or_404(RatingSession, pk=session_id))
        return _session_answer(request, session_id)


class SessionResumeApi(APIView):
    @extend_schema(
        request=None,
        responses=SessionOutputSerializer,
        summary="The player is back from a break: the clock runs again (the table's dealer or a supervisor)",
        description="409 unless the session is on a break.",
    )
    def post(self, request: Request, session_id: int) -> Response:
        session_resume(actor=actor_of(request.user), session=get_object_or_404(RatingSession, pk=session_id))
        return _session_answer(request, session_id)


class SessionMoveApi(APIView):
    @extend_schema(
        request=SessionMoveInputSerializer,
        responses=SessionOutputSerializer,
        summary="The player moves to another seat or table: the same session continues there (the dealer of the "
        "table moved to, or a supervisor)",
        description="409 when the session has ended, the seat is rated for another player or the table is closed.",
        examples=[OpenApiExample("To seat 1 of table 2", value={"table": 2, "seat": 1})],
    )
    def post(self, request: Request, session_id: int) -> Response:
        data = valid_input(SessionMoveInputSerializer, request)
        session = get_object_or_404(RatingSession, pk=session_id)
        table = _named(Table, data["table"], field="table", what=_("table"))
        session_move(actor=actor_of(request.user), session=session, table=table, seat=data["seat"])
        return _session_answer(request, session_id)


class SessionEndApi(APIView):
    @extend_schema(
        request=SessionEndInputSerializer,
        responses=SessionOutputSerializer,
        summary="The player leaves: the clock stops for good and the seat is free; what they walked with is recorded "
        "(the table's dealer or a supervisor)",
        description="409 when the session has ended already.",
        examples=[OpenApiExample("Walked with 1,250.00", value={"walk_with_cents": 125000})],
    )
    def post(self, request: Request, session_id: int) -> Response:
        data = valid_input(SessionEndInputSerializer, request)
        session = get_object_or_404(RatingSession, pk=session_id)
        session_end(actor=actor_of(request.user), session=session, walk_with_cents=data["walk_with_cents"])
        return _session_answer(request, session_id)


class TableSessionsApi(APIView):
    pagination_class = ApiCursorPagination
    page_ordering = ("seat_number", "pk")

    @extend_schema(
        responses=SessionOutputSerializer(many=True),
        summary="The rating sessions seated at a table now (playing or on a break), by seat (the table's dealer, a "
        "supervisor or an Auditor; figures for the last two)",
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = table_get(table_id=table_id)
        require_view_table(request.user, table)
        figures, now = _sees_figures(request.user), timezone.now()
        seats = RatingSeat.objects.filter(table=table, ended_at__isnull=True).select_related("table", "session__player")
        return page_response(
            self,
            request,
            seats,
            lambda page: (
                SessionOutputSerializer(
                    [_view(seat.session, [seat], figures=figures, now=now) for seat in page], many=True
                ).data
            ),
        )


# --- alerts ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableDrift:
    table: Table
    drift: HoldDrift


class AlertsApi(APIView):
    @extend_schema(
        responses=AlertsOutputSerializer,
        summary="The floor's rating alerts: open sessions whose player wins far above expectation, and tables whose "
        "hold over their last rounds left its interval (a supervisor or an Auditor)",
        description="The thresholds are settings: TABLESIDE_RATING_ALERT_SIGMA for a session, TABLESIDE_HOLD_ALERT_Z "
        "and TABLESIDE_HOLD_ALERT_MIN_ROUNDS for a table.",
    )
    def get(self, request: Request) -> Response:
        _require_overseer(request.user, what=_("the rating alerts"))
        now = timezone.now()
        seated = Prefetch("seats", queryset=RatingSeat.objects.filter(ended_at__isnull=True).select_related("table"))
        open_sessions = (
            RatingSession.objects.exclude(status=RatingSession.Status.ENDED)
            .select_related("player")
            .prefetch_related(seated)
        )
        views = [_view(session, list(session.seats.all()), figures=True, now=now) for session in open_sessions]
        flagged = sorted(
            (view for view in views if view.figures is not None and view.figures.alert),
            key=lambda view: (-(view.figures.z or 0.0), view.session.pk),  # type: ignore[union-attr]
        )
        drifts = [(window.table, hold_drift(window)) for window in TableHold.objects.select_related("table")]
        tables = sorted(
            (TableDrift(table=table, drift=drift) for table, drift in drifts if drift is not None and drift.alert),
            key=lambda d: (-abs(d.drift.z or 0.0), d.table.name),
        )
        return Response(AlertsOutputSerializer({"sessions": flagged, "tables": tables}).data)
