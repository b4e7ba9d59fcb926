"""Reads of the game-math lab: a run's figures (each side's edge with its 95% interval, the push rate),
its progress for the page's bar, the convergence series for the chart, and the rule sets the lab offers."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, TypedDict

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.edges import Counts, PositionEdge, edges_from_counts, options_key, shipped_counts
from rules.lab_services import LAB_STALL, has_bank
from rules.models import LabRun, RuleSet


@dataclass(frozen=True)
class LabFigures:
    """What a run (or the shipped counts) says: each side's edge and 95% interval, the push rate, over ``hands``."""

    method: str
    hands: int
    player: PositionEdge
    banker: PositionEdge
    push_rate: float
    source: str
    seed: int | None = None  # a simulation's seed: the same seed, the same figures


class LabProgress(TypedDict):
    """The small JSON the page's progress bar polls."""

    id: int
    status: str
    status_label: str
    hands_done: int
    hands_requested: int
    percent: float
    done: bool
    error: str


@dataclass(frozen=True)
class SeriesPoint:
    """One point of the convergence chart: hands played, each side's edge and its 95% interval so far."""

    hands: int
    player: PositionEdge
    banker: PositionEdge


def _figures(counts: Counts, snapshot: dict[str, Any]) -> LabFigures:
    edges = edges_from_counts(
        counts,
        commission_bp=int(snapshot["commission_rate_bp"]),
        commission_on_player_wins=bool(snapshot["commission_on_player_wins"]),
    )
    assert edges.player is not None and edges.banker is not None  # a banked game's counts
    return LabFigures(
        method=counts.method,
        hands=counts.hands,
        player=edges.player,
        banker=edges.banker,
        push_rate=counts.pushes / counts.hands,
        source=edges.source,
        seed=edges.seed,
    )


def _counts(run: LabRun, wins: int, pushes: int, losses: int) -> Counts:
    return Counts(
        game=run.game,
        options=options_key(run.game, run.snapshot["options"]),
        method=run.method,
        wins=wins,
        pushes=pushes,
        losses=losses,
        hands=wins + pushes + losses,
        seed=run.seed,
        command=f"lab run {run.pk}",
    )


def lab_run_figures(*, run: LabRun) -> LabFigures | None:
    """A finished run's figures (None before it has finished)."""
    if run.status != LabRun.Status.FINISHED or not run.hands_done:
        return None
    return _figures(_counts(run, run.wins, run.pushes, run.losses), run.snapshot)


def shipped_figures(*, snapshot: dict[str, Any]) -> LabFigures | None:
    """The figures of the shipped counts (``rules/games/data/house_edges.json``) for these rules, if it holds them."""
    if not has_bank(snapshot):
        return None
    counts = shipped_counts(snapshot["game"], options_key(snapshot["game"], snapshot["options"]))
    return None if counts is None else _figures(counts, snapshot)


def lab_run_series(*, run: LabRun) -> list[SeriesPoint]:
    """The estimate after each step of a simulation, with its interval (an exact enumeration has no series)."""
    points = []
    for hands, wins, pushes, losses in run.series or []:
        if hands:
            figures = _figures(_counts(run, wins, pushes, losses), run.snapshot)
            points.append(SeriesPoint(hands=hands, player=figures.player, banker=figures.banker))
    return points


def lab_run_stalled(*, run: LabRun, now: dt.datetime | None = None) -> bool:
    """Whether a running run's worker has stopped reporting (``LAB_STALL``): shown as failed, not hanging (the next
    start records it failed, ``lab_runs_fail_stalled``)."""
    beat = run.heartbeat_at or run.started_at
    return run.status == LabRun.Status.RUNNING and beat is not None and beat < (now or timezone.now()) - LAB_STALL


def lab_run_progress(*, run: LabRun) -> LabProgress:
    """Where a run is: for the progress bar."""
    requested = run.hands_requested or 1
    status, label, error = run.status, str(run.get_status_display()), run.error
    if lab_run_stalled(run=run):
        status, label = LabRun.Status.FAILED.value, str(LabRun.Status.FAILED.label)
        error = _("The worker stopped reporting progress: start the run again.")
    return {
        "id": run.pk,
        "status": status,
        "status_label": label,
        "hands_done": run.hands_done,
        "hands_requested": run.hands_requested,
        "percent": round(100 * run.hands_done / requested, 1),
        "done": status in (LabRun.Status.FINISHED, LabRun.Status.FAILED),
        "error": error,
    }


def lab_runs_recent(*, limit: int = 20) -> QuerySet[LabRun]:
    return LabRun.objects.select_related("rule_set", "created_by").order_by("-created_at", "-pk")[:limit]


def lab_run_get(*, run_id: int) -> LabRun | None:
    return LabRun.objects.select_related("rule_set", "created_by").filter(pk=run_id).first()


def lab_rule_sets() -> list[RuleSet]:
    """Every rule set, by game and name (the page says which have no bank)."""
    return list(RuleSet.objects.order_by("game", "name"))
