"""Writes of the game-math lab: start a run of a rule set (or of an edited copy of it), play it in a task,
and fail the runs whose worker stopped. Each write records its audit event in the same transaction.

What a run plays, by game (``rules.games.lab``):

* Pai Gow Poker: a simulation of ``hands`` coups, house way against house way, seeded, in steps of
  ``lab_batch(hands)`` hands; the running counts after each step are the run's ``series``.
* Pai Gow tiles, banked: the exact enumeration of all 736,281,000 deals (62 s on one core, measured). Where the shipped
  counts (``rules/games/data/house_edges.json``) already hold these rules, the page shows them at once, labelled
  exact, and a run counts them again and records them (it confirms them, or shows where it differs).
* The points games and the tiles' peer variant have no bank and so no edge: no run (refused in words).
"""

from __future__ import annotations

import datetime as dt
import logging
import random
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from casino.outbox import outbox_enqueue
from casino.roles import SUPERVISORS, require_role
from rules import options as rule_options
from rules.edges import options_key, outcome_key_text
from rules.games import registry
from rules.games.lab import TILES_DEALS, Tally, simulate_paigow_poker_batched, tiles_exact_counts
from rules.models import LabRun, RuleSet

logger = logging.getLogger(__name__)

HANDS_MIN = 10_000
HANDS_MAX = 10_000_000
# A running run whose worker has not reported progress for this long has stopped (killed, or its machine gone): the
# steps report every few seconds (a simulation step of at most 100,000 hands, 200 tiles hands of the enumeration).
LAB_STALL = dt.timedelta(minutes=3)
# A run no worker has taken for this long never will be (the broker lost it): failed, so the lab is free again.
LAB_QUEUE_LIMIT = dt.timedelta(minutes=30)
TASK_NAME = "rules.lab_run_play"
_SERIES_POINTS = 50


class LabRefused(ApplicationError):
    """A lab run that cannot be started: ``extra["field"]`` names the input at fault, when one is."""


def lab_batch(hands: int) -> int:
    """Hands a step of a simulation: some fifty points on the convergence chart, 2,000 to 100,000 hands each."""
    return max(2_000, min(100_000, hands // _SERIES_POINTS))


def lab_outcome_key(game: str, options: Mapping[str, Any]) -> str:
    """The outcome options of a rule set's options (``rules.edges.options_key``) as the run stores them."""
    return outcome_key_text(options_key(game, options))


def has_bank(snapshot: Mapping[str, Any]) -> bool:
    """Whether these rules have a bank, and so a house edge to measure (not a points game, not the peer variant)."""
    return registry.game(snapshot["game"]).bankable and snapshot["banking_mode"] != rule_options.NO_BANK


def lab_snapshot(*, rule_set: RuleSet, changes: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The rules a run plays: the rule set's, or a copy with ``changes`` (common settings and the game's options,
    flat), validated by ``rules.options.rule_set_validate``. Raises ``RuleSetInvalid`` in a pit boss's words."""
    base = rule_set.snapshot()
    if not changes:
        return base
    common = {key: value for key, value in changes.items() if key in rule_options.COMMON_FIELDS}
    own = {key: value for key, value in changes.items() if key not in rule_options.COMMON_FIELDS}
    settings = rule_options.rule_set_validate(
        game=rule_set.game,
        common={**{field: base[field] for field in rule_options.COMMON_FIELDS}, **common},
        options={**base["options"], **own},
    )
    copy = rule_options.snapshot_build(
        rule_set_id=rule_set.pk,
        name=_("%(name)s (edited copy)") % {"name": rule_set.name},
        game=rule_set.game,
        settings=settings,
    )
    return base if copy["version"] == base["version"] else copy


def _hands(game: str, hands: object) -> int:
    if registry.game(game).tiles:  # tiles: the exact enumeration
        return TILES_DEALS  # the exact enumeration: every deal, whatever was asked
    if isinstance(hands, bool) or not isinstance(hands, int) or not HANDS_MIN <= hands <= HANDS_MAX:
        raise LabRefused(
            _("The number of hands is a whole number from %(low)s to %(high)s, not %(value)s.")
            % {"low": f"{HANDS_MIN:,}", "high": f"{HANDS_MAX:,}", "value": repr(hands)},
            extra={"field": "hands"},
        )
    return hands


def _seed(game: str, seed: int | None) -> int | None:
    if registry.game(game).tiles:  # tiles: the exact enumeration
        return None  # an enumeration draws nothing
    return random.SystemRandom().randrange(2**32) if seed is None else seed


def _in_flight() -> LabRun | None:
    return LabRun.objects.filter(status__in=(LabRun.Status.QUEUED, LabRun.Status.RUNNING)).order_by("pk").first()


def lab_run_start(
    *,
    actor: User | None,
    rule_set: RuleSet,
    hands: object,
    request_key: str,
    changes: Mapping[str, Any] | None = None,
    seed: int | None = None,
) -> LabRun:
    """Ask for a lab run of ``rule_set`` (with ``changes``: an edited copy) over ``hands`` hands; a worker plays it.

    Supervisors only. ``request_key`` is the page's one-time form key: the same form sent twice (a double tap,
    Back and send again) answers the run it started, and starts nothing. One run at a time on the floor (a run
    takes a whole core): another is refused while one waits or runs. Nothing is written when refused.
    """
    require_role(actor, *SUPERVISORS, action=_("run the game-math lab"))
    if not request_key or len(request_key) > 32:
        raise LabRefused(_("This form is out of date: reload the page and start again."))
    found = LabRun.objects.filter(request_key=request_key).first()
    if found is not None:
        return found
    snapshot = lab_snapshot(rule_set=rule_set, changes=changes)
    if not has_bank(snapshot):
        raise LabRefused(
            _("%(game)s has no bank here, so no house edge to measure: the house takes a rake or a time charge.")
            % {"game": rule_options.game_label(snapshot["game"])}
        )
    game = snapshot["game"]
    requested = _hands(game, hands)
    lab_runs_fail_stalled()
    with transaction.atomic():
        RuleSet.objects.select_for_update().get(pk=rule_set.pk)  # one start at a time per rule set
        busy = _in_flight()
        if busy is not None:
            raise WrongState(
                _("Lab run %(id)s (%(name)s) is still under way: one run at a time, wait for it to finish.")
                % {"id": busy.pk, "name": busy.snapshot["name"]}
            )
        run = LabRun.objects.create(
            rule_set=rule_set,
            edited=snapshot["version"] != rule_set.snapshot()["version"],
            game=game,
            snapshot=snapshot,
            outcome_key=lab_outcome_key(game, snapshot["options"]),
            method=LabRun.Method.EXACT if registry.game(game).tiles else LabRun.Method.SIMULATED,
            hands_requested=requested,
            seed=_seed(game, seed),
            request_key=request_key,
            created_by=actor,
        )
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.LAB_RUN_STARTED,
            subject=run,
            after={"snapshot": snapshot, "method": run.method, "hands": requested, "seed": run.seed},
        )
        outbox_enqueue(task_name=TASK_NAME, args=[run.pk])
    return run


def _progress(run_id: int, tally: Tally, *, series: list[list[int]] | None) -> None:
    fields: dict[str, Any] = {
        "hands_done": tally.hands,
        "wins": tally.wins,
        "pushes": tally.pushes,
        "losses": tally.losses,
        "heartbeat_at": timezone.now(),
    }
    if series is not None:
        fields["series"] = series
    LabRun.objects.filter(pk=run_id, status=LabRun.Status.RUNNING).update(**fields)


def _play(run: LabRun) -> Tally:
    """The run's engine, reporting every step to the row."""
    options = run.snapshot["options"]
    if run.method == LabRun.Method.EXACT:
        return tiles_exact_counts(
            way=options["tiles_house_way"],
            gee_joon_single_rank=options["gee_joon_single_rank"],
            zero_zero_copy=options["zero_zero_copy"],
            progress=lambda tally: _progress(run.pk, tally, series=None),
        )
    series: list[list[int]] = []

    def step(tally: Tally) -> None:
        series.append([tally.hands, tally.wins, tally.pushes, tally.losses])
        _progress(run.pk, tally, series=series)

    return simulate_paigow_poker_batched(
        run.hands_requested,
        seed=int(run.seed or 0),
        way=options["pgp_house_way"],
        wheel_second_highest=options["wheel_second_highest"],
        joker_flush_as_ace=options["joker_flush_as_ace"],
        batch=lab_batch(run.hands_requested),
        progress=step,
    )


def _fail(run_id: int, *, error: str) -> None:
    with transaction.atomic():
        run = LabRun.objects.select_for_update().get(pk=run_id)
        if run.status in (LabRun.Status.FINISHED, LabRun.Status.FAILED):
            return
        run.status, run.error, run.finished_at = LabRun.Status.FAILED, error[:2000], timezone.now()
        run.save(update_fields=["status", "error", "finished_at"])
        audit_event_record(
            actor=None,
            event_type=AuditEventType.LAB_RUN_FAILED,
            subject=run,
            after={"error": run.error, "hands_done": run.hands_done},
        )


def lab_run_play(*, run_id: int) -> LabRun:
    """Play a queued run (the task ``rules.lab_run_play``): mark it running, run its engine step by step, then
    record its counts, finished; or, if the engine fails, record it failed with why (never left hanging).

    Idempotent: a run already taken (a message delivered twice) is left alone.
    """
    with transaction.atomic():
        run = LabRun.objects.select_for_update().get(pk=run_id)
        if run.status != LabRun.Status.QUEUED:
            return run
        now = timezone.now()
        run.status, run.started_at, run.heartbeat_at = LabRun.Status.RUNNING, now, now
        run.save(update_fields=["status", "started_at", "heartbeat_at"])
    try:
        tally = _play(run)
    except Exception as exc:  # any failure of the engine or the database: shown as failed, with why
        logger.exception("Lab run %s failed", run_id)
        _fail(run_id, error=f"{type(exc).__name__}: {exc}")
        return LabRun.objects.get(pk=run_id)
    with transaction.atomic():
        run = LabRun.objects.select_for_update().get(pk=run_id)
        if run.status != LabRun.Status.RUNNING:  # failed meanwhile as stalled: what it found stays unrecorded
            return run
        run.hands_done, run.wins, run.pushes, run.losses = tally.hands, tally.wins, tally.pushes, tally.losses
        run.status, run.finished_at = LabRun.Status.FINISHED, timezone.now()
        run.save(update_fields=["hands_done", "wins", "pushes", "losses", "status", "finished_at"])
        audit_event_record(
            actor=None,
            event_type=AuditEventType.LAB_RUN_FINISHED,
            subject=run,
            after={"hands": tally.hands, "wins": tally.wins, "pushes": tally.pushes, "losses": tally.losses},
        )
    return run


def lab_runs_fail_stalled(*, now: dt.datetime | None = None) -> int:
    """Mark failed every running run without progress for ``LAB_STALL`` (its worker died): the page shows it failed,
    not hanging, and a new run may start. Answers how many."""
    now = now or timezone.now()
    stalled = list(
        LabRun.objects.filter(status=LabRun.Status.RUNNING, heartbeat_at__lt=now - LAB_STALL).values_list(
            "pk", flat=True
        )
    )
    for run_id in stalled:
        _fail(
            run_id,
            error=_("The worker stopped reporting progress for %(minutes)s minutes: start the run again.")
            % {"minutes": int(LAB_STALL.total_seconds() // 60)},
        )
    never_taken = list(
        LabRun.objects.filter(status=LabRun.Status.QUEUED, created_at__lt=now - LAB_QUEUE_LIMIT).values_list(
            "pk", flat=True
        )
    )
    for run_id in never_taken:
        _fail(
            run_id,
            error=_("No worker took the run within %(minutes)s minutes: check the Celery worker, then start it again.")
            % {"minutes": int(LAB_QUEUE_LIMIT.total_seconds() // 60)},
        )
    return len(stalled) + len(never_taken)
