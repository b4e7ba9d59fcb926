"""The game-math lab on the REST API, as on its page (``pit.lab_views``): a supervisor starts a run of a rule set, or
of an edited copy of its options, with a seed or one drawn for it; reads its progress and, once finished, each
side's edge with its 95% interval, the push rate and how the estimate converged; lists the runs. Thin: the writes are
``rules.lab_services``, the reads ``rules.lab_selectors``."""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

from django.db.models import Count
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_inputs import valid_input
from casino.api_pages import ApiCursorPagination, page_response
from casino.idempotency import HEADER
from casino.roles import SUPERVISORS, require_role
from casino.users import actor_of
from rules.api_shapes import RuleSetField
from rules.lab_selectors import LabFigures, lab_run_figures, lab_run_progress
from rules.lab_services import HANDS_DEFAULT, HANDS_MAX, HANDS_MIN, LabRefused, lab_chunk_count, lab_run_start
from rules.models import LabRun, RuleSet

LAB_USERS = SUPERVISORS  # as the page: a Floor supervisor or a Pit boss


@extend_schema_field(
    {
        "type": "object",
        "description": "Options to change for an edited copy, by name (the rule set's own settings and its game's "
        "house rules, as in the rule set's snapshot); the rule set itself is left as it is.",
        "additionalProperties": {"oneOf": [{"type": "boolean"}, {"type": "integer"}, {"type": "string"}]},
    }
)
class OptionChangesField(serializers.DictField):
    """Options and their values; the service checks each (``rules.options.rule_set_validate``)."""


class LabRunInputSerializer(serializers.Serializer[Any]):
    rule_set = serializers.IntegerField(min_value=1, help_text="The rule set to measure (its id).")
    hands = serializers.IntegerField(
        required=False,
        min_value=HANDS_MIN,
        max_value=HANDS_MAX,
        help_text="Hands to simulate (Pai Gow Poker); Pai Gow tiles count every deal exactly, whatever is asked.",
    )
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=2**63 - 1,
        help_text="The simulation's seed: the same seed, the same counts to the hand; drawn and shown when left out.",
    )
    changes = OptionChangesField(required=False)
    high_hand_ranks = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=5,
        help_text="Pai Gow Poker, an analysis and not a rule: compare the high hands by their category and their first "
        "N ranks only (a copy when those are equal), as the Wizard of Odds' published Trump Plaza figures imply; "
        "null or left out, every rank, as the rules and a dealer compare them. Such a run's figures are its own: "
        "they never become a rule set's edge.",
    )


class PositionEdgeSerializer(serializers.Serializer[Any]):
    edge = serializers.FloatField(help_text="The house's edge against this side, per unit of its action.")
    sd = serializers.FloatField(help_text="The standard deviation of one coup.")
    low = serializers.FloatField(help_text="The 95% interval's low end.")
    high = serializers.FloatField(help_text="The 95% interval's high end.")


class LabFiguresSerializer(serializers.Serializer[Any]):
    method = serializers.CharField()
    hands = serializers.IntegerField()
    player = PositionEdgeSerializer()
    banker = PositionEdgeSerializer()
    push_rate = serializers.FloatField()
    counts_from = serializers.CharField(source="source", help_text="Where the counts come from (this run).")


class LabRunOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="run.pk")
    rule_set = serializers.IntegerField(source="run.rule_set_id")
    rule_set_name = serializers.CharField(source="run.rule_set.name")
    edited = serializers.BooleanField(source="run.edited", help_text="Played an edited copy of the rule set.")
    game = serializers.CharField(source="run.game")
    rules = RuleSetField(source="run.snapshot", help_text="The rules the run played.")
    method = serializers.ChoiceField(choices=LabRun.Method.values, source="run.method")
    seed = serializers.IntegerField(source="run.seed", allow_null=True, help_text="Null for an exact count.")
    high_hand_ranks = serializers.IntegerField(
        source="run.high_hand_ranks",
        allow_null=True,
        help_text="The high hands compared by their category and this many ranks (an analysis); null, every rank.",
    )
    status = serializers.ChoiceField(
        choices=LabRun.Status.values, help_text="failed also for a run whose workers stopped reporting."
    )
    error = serializers.CharField(help_text="Why it failed; empty otherwise.")
    hands_requested = serializers.IntegerField(source="run.hands_requested")
    hands_done = serializers.IntegerField(source="run.hands_done")
    percent = serializers.FloatField()
    chunks = serializers.IntegerField(help_text="The parts the run is played in, by every worker.")
    chunks_done = serializers.IntegerField(source="run.chunks_done")  # annotated by _runs()
    wins = serializers.IntegerField(source="run.wins", help_text="The player's, so far.")
    pushes = serializers.IntegerField(source="run.pushes")
    losses = serializers.IntegerField(source="run.losses")
    figures = LabFiguresSerializer(allow_null=True, help_text="Once finished: each side's edge; null before.")
    series = serializers.ListField(
        source="run.series",
        child=serializers.ListField(child=serializers.IntegerField(), min_length=4, max_length=4),
        help_text="[hands, wins, pushes, losses] after each chunk in order (a simulation; at most 50 points).",
    )
    created_by = serializers.CharField(source="run.created_by.username", allow_null=True, default=None)
    created_at = serializers.DateTimeField(source="run.created_at")
    started_at = serializers.DateTimeField(source="run.started_at", allow_null=True)
    finished_at = serializers.DateTimeField(source="run.finished_at", allow_null=True)


def _view(run: LabRun) -> dict[str, Any]:
    progress = lab_run_progress(run=run)
    figures: LabFigures | None = lab_run_figures(run=run)
    return {
        "run": run,
        "status": progress["status"],
        "error": progress["error"],
        "percent": progress["percent"],
        "chunks": lab_chunk_count(run),
        "figures": figures,
    }


def _runs() -> Any:
    """Runs with their rule set, who started them and how many chunks are played (one query for a page)."""
    return LabRun.objects.select_related("rule_set", "created_by").annotate(chunks_done=Count("chunks"))


def _request_key(request: Request) -> str:
    """The service's one-time key: the request's Idempotency-Key (kept per user), or a new one."""
    sent = request.headers.get(HEADER)
    if not sent:
        return uuid.uuid4().hex
    return hashlib.sha256(f"{request.user.pk}:{sent}".encode()).hexdigest()[:32]


class LabRunListApi(APIView):
    pagination_class = ApiCursorPagination
    page_ordering = ("-created_at", "-pk")

    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=list(LabRun.Status.values), description="Only runs in it.")],
        responses=LabRunOutputSerializer(many=True),
        summary="The lab's runs, newest first (a Floor supervisor or a Pit boss)",
    )
    def get(self, request: Request) -> Response:
        require_role(request.user, *LAB_USERS, action="read the game-math lab")
        runs = _runs()
        wanted = request.query_params.get("status")
        if wanted:
            if wanted not in LabRun.Status.values:
                raise LabRefused(
                    _("A run's status is %(statuses)s, not %(value)s.")
                    % {"statuses": ", ".join(LabRun.Status.values), "value": repr(wanted)},
                    extra={"field": "status"},
                )
            runs = runs.filter(status=wanted)
        return page_response(
            self, request, runs, lambda page: LabRunOutputSerializer([_view(run) for run in page], many=True).data
        )

    @extend_schema(
        request=LabRunInputSerializer,
        responses={201: LabRunOutputSerializer},
        summary="Start a run of a rule set, or of an edited copy of its options, on every worker (a Floor supervisor "
        "or a Pit boss); one run at a time",
        description="409 while another run is under way. The same Idempotency-Key answers the run it started.",
        examples=[
            OpenApiExample(
                "Ten million hands of Pai Gow Poker under the Trump Plaza way, seeded",
                value={"rule_set": 2, "hands": 10_000_000, "seed": 42, "changes": {"pgp_house_way": "trump_plaza"}},
                request_only=True,
            ),
            OpenApiExample(
                "The same, the high hands compared by their category and first two ranks (docs/game-math.md)",
                value={
                    "rule_set": 2,
                    "hands": 10_000_000,
                    "seed": 42,
                    "changes": {"pgp_house_way": "trump_plaza"},
                    "high_hand_ranks": 2,
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        require_role(request.user, *LAB_USERS, action="run the game-math lab")
        data = valid_input(LabRunInputSerializer, request)
        rule_set = RuleSet.objects.filter(pk=data["rule_set"]).first()
        if rule_set is None:
            raise LabRefused(
                _("There is no rule set %(id)s: pick one from the list.") % {"id": data["rule_set"]},
                extra={"field": "rule_set"},
            )
        run = lab_run_start(
            actor=actor_of(request.user),
            rule_set=rule_set,
            hands=data.get("hands", HANDS_DEFAULT),
            changes=data.get("changes") or None,
            seed=data.get("seed"),
            high_hand_ranks=data.get("high_hand_ranks"),
            request_key=_request_key(request),
        )
        run = _runs().get(pk=run.pk)
        return Response(LabRunOutputSerializer(_view(run)).data, status=status.HTTP_201_CREATED)


class LabRunDetailApi(APIView):
    @extend_schema(
        responses=LabRunOutputSerializer,
        summary="A run's progress and, once finished, its figures (a Floor supervisor or a Pit boss)",
    )
    def get(self, request: Request, run_id: int) -> Response:
        require_role(request.user, *LAB_USERS, action="read the game-math lab")
        return Response(LabRunOutputSerializer(_view(get_object_or_404(_runs(), pk=run_id))).data)
