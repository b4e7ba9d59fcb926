"""Writes of the game-math lab: start a run of a rule set (or of an edited copy of it), play it in a task,
and fail the runs whose worker stopped. Each write records its audit event in the same transaction.

What a run plays, by game (``rules.games.lab``):

* Pai Gow Poker: a simulation of ``hands`` coups, house way against house way, in chunks of ``CHUNK_HANDS``, each
  drawn from the run's seed and its own index (``rules.games.lab.chunk_rng``); the running counts after each chunk,
  in chunk order, are the run's ``series``.
* Pai Gow tiles, banked: the exact enumeration of all 736,281,000 deals (62 s on one core, measured), in chunks of
  ``TILES_CHUNK`` player hands. Where the shipped counts (``rules/games/data/house_edges.json``) already hold these
  rules, the page shows them at once, labelled exact, and a run counts them again and records them.
* The points games and the tiles' peer variant have no bank and so no edge: no run (refused in words).

A run is played by every worker the casino has: the task that takes it (``rules.lab_run_play``) marks it running and
asks for one task a chunk (``rules.lab_chunk_play``), which any worker plays. A chunk's counts are written once
(``LabChunk``); the chunk that completes the run records the run's counts, its series and its audit event. The counts
for a seed are the same whether one worker played every chunk or many did, in whatever order. A worker lost mid-chunk
loses that chunk only: its task was not acknowledged, so the broker delivers it again (``TASK_VISIBILITY_SECONDS``),
and a chunk delivered twice finds its row and plays nothing.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino import numbers
from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from casino.outbox import outbox_enqueue
from casino.roles import SUPERVISORS, require_role
from rules import options as rule_options
from rules.advice import tables_directory
from rules.edges import options_key, outcome_key_text
from rules.games import lab as lab_engine
from rules.games import registry
from rules.games.lab import TILES_DEALS, Tally
from rules.games.paigow_poker_batch import flush_memo_prepare
from rules.models import LabChunk, LabRun, RuleSet

logger = logging.getLogger(__name__)

HANDS_MIN = 10_000
HANDS_MAX = 100_000_000
HANDS_DEFAULT = 1_000_000  # what the page offers and the API plays when no number is given
CHUNK_HANDS = 250_000  # a simulation's largest chunk: under a second on one core
TILES_CHUNK = 250  # player hands of the tiles' enumeration a chunk: about two seconds
# A running run none of whose chunks has finished for this long has stopped (every worker killed, or the broker
# lost its tasks): a chunk takes seconds, and a chunk whose worker died is delivered again within the broker's
# visibility timeout, so the bound waits for that redelivery before calling the run failed.
LAB_STALL = dt.timedelta(seconds=max(180, settings.TASK_VISIBILITY_SECONDS + 60))
# A run no worker has taken for this long never will be (the broker lost it): failed, so the lab is free again.
LAB_QUEUE_LIMIT = dt.timedelta(minutes=30)
TASK_NAME = "rules.lab_run_play"
CHUNK_TASK_NAME = "rules.lab_chunk_play"
_SERIES_POINTS = 50


class LabRefused(ApplicationError):
    """A lab run that cannot be started: ``extra["field"]`` names the input at fault, when one is."""


def lab_chunk_hands(hands: int) -> int:
    """Hands a chunk of a simulation of ``hands``: some fifty chunks (the convergence chart's points), at most
    ``CHUNK_HANDS`` each. It depends on the hands asked for alone, so a seed always cuts the run the same way."""
    return max(2_000, min(CHUNK_HANDS, -(-hands // _SERIES_POINTS)))


def lab_outcome_key(game: str, options: Mapping[str, Any], high_hand_ranks: int | None = None) -> str:
    """The outcome options of a rule set's options (``rules.edges.options_key``) as the run stores them, with the
    analysis comparison of the high hands when one is asked for: no rule set's key holds it, so such a run is never
    read as a rule set's edge (``rules.edges.lab_counts``)."""
    key = options_key(game, options)
    if high_hand_ranks is not None:
        key = (*key, ("high_hand_ranks", high_hand_ranks))
    return outcome_key_text(key)


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


def _seed(game: str, seed: object) -> int | None:
    if registry.game(game).tiles:  # tiles: the exact enumeration
        return None  # an enumeration draws nothing
    if seed is None:
        return random.SystemRandom().randrange(2**32)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise LabRefused(
            _("A seed is a whole number from 0 to %(high)s, or left out to draw one; not %(value)s.")
            % {"high": numbers.whole(2**63 - 1), "value": repr(seed)},
            extra={"field": "seed"},
        )
    return seed


def _high_hand_ranks(game: str, high_hand_ranks: object) -> int | None:
    if high_hand_ranks is None:
        return None  # every rank, as the rules say
    if registry.game(game).tiles:
        raise LabRefused(
            _(
                "Comparing the high hands by their first ranks is an analysis of Pai Gow Poker: tiles hands have no "
                "ranks to leave out. Leave it empty."
            ),
            extra={"field": "high_hand_ranks"},
        )
    if isinstance(high_hand_ranks, bool) or not isinstance(high_hand_ranks, int) or not 1 <= high_hand_ranks <= 5:
        raise LabRefused(
            _(
                "The high hands are compared by their category and their first 1 to 5 ranks, or by every rank "
                "(left empty); not %(value)s."
            )
            % {"value": repr(high_hand_ranks)},
            extra={"field": "high_hand_ranks"},
        )
    return high_hand_ranks


def _in_flight() -> LabRun | None:
    return LabRun.objects.filter(status__in=(LabRun.Status.QUEUED, LabRun.Status.RUNNING)).order_by("pk").first()


def lab_run_start(
    *,
    actor: User | None,
    rule_set: RuleSet,
    hands: object,
    request_key: str,
    changes: Mapping[str, Any] | None = None,
    seed: object = None,
    high_hand_ranks: object = None,
) -> LabRun:
    """Ask for a lab run of ``rule_set`` (with ``changes``: an edited copy) over ``hands`` hands; a worker plays it.

    ``high_hand_ranks`` (Pai Gow Poker, 1 to 5) is an analysis, not a rule: the high hands compared by their
    category and first ranks only (``rules.games.lab``), as the published Trump Plaza figures imply
    (docs/game-math.md). Its figures are shown as the run's own and never become a rule set's edge.

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
    seeded = _seed(game, seed)
    ranks = _high_hand_ranks(game, high_hand_ranks)
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
            outcome_key=lab_outcome_key(game, snapshot["options"], ranks),
            method=LabRun.Method.EXACT if registry.game(game).tiles else LabRun.Method.SIMULATED,
            hands_requested=requested,
            seed=seeded,
            high_hand_ranks=ranks,
            request_key=request_key,
            created_by=actor,
        )
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.LAB_RUN_STARTED,
            subject=run,
            after={
                "snapshot": snapshot,
                "method": run.method,
                "hands": requested,
                "seed": run.seed,
                "high_hand_ranks": ranks,
            },
        )
        outbox_enqueue(task_name=TASK_NAME, args=[run.pk])
    return run


def lab_chunk_count(run: LabRun) -> int:
    """How many chunks ``run`` is played in."""
    if run.method == LabRun.Method.EXACT:
        return -(-len(lab_engine.tiles_player_hands()) // TILES_CHUNK)
    return -(-int(run.hands_requested) // lab_chunk_hands(int(run.hands_requested)))


def _chunk_tally(run: LabRun, index: int) -> Tally:
    """Play chunk ``index`` of ``run``: its hands of the simulation, or its slice of the tiles' player hands."""
    options = run.snapshot["options"]
    if run.method == LabRun.Method.EXACT:
        hands = lab_engine.tiles_player_hands()[index * TILES_CHUNK : (index + 1) * TILES_CHUNK]
        return lab_engine.tiles_exact_counts(
            way=options["tiles_house_way"],
            player_hands=hands,
            gee_joon_single_rank=options["gee_joon_single_rank"],
            zero_zero_copy=options["zero_zero_copy"],
        )
    size = lab_chunk_hands(int(run.hands_requested))
    # Every flush hand set by the tables, the way's memo read from var/ (or set there once): the same settings,
    # twice as fast as setting the flush hands one by one as they come.
    flush_memo_prepare(
        options["pgp_house_way"],
        wheel_second_highest=options["wheel_second_highest"],
        joker_flush_as_ace=options["joker_flush_as_ace"],
        directory=tables_directory(),
    )
    return lab_engine.simulate_paigow_poker_chunk(
        min(size, int(run.hands_requested) - index * size),
        seed=int(run.seed or 0),
        index=index,
        way=options["pgp_house_way"],
        wheel_second_highest=options["wheel_second_highest"],
        joker_flush_as_ace=options["joker_flush_as_ace"],
        high_hand_ranks=run.high_hand_ranks,
    )


def _series(chunks: list[LabChunk]) -> list[list[int]]:
    """The running counts after each chunk, in chunk order, at most ``_SERIES_POINTS`` of them (the last always)."""
    running, points = Tally(), []
    for chunk in chunks:
        running = running + Tally(int(chunk.wins), int(chunk.pushes), int(chunk.losses))
        points.append([running.hands, running.wins, running.pushes, running.losses])
    step = max(1, -(-len(points) // _SERIES_POINTS))
    sampled = points[step - 1 :: step]
    if points and (not sampled or sampled[-1] != points[-1]):
        sampled.append(points[-1])
    return sampled


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
    """Take a queued run (the task ``rules.lab_run_play``): mark it running and ask for one task a chunk, which any
    worker plays (``lab_chunk_play``). Idempotent: a run already taken (a message delivered twice) is left alone."""
    with transaction.atomic():
        run = LabRun.objects.select_for_update().get(pk=run_id)
        if run.status != LabRun.Status.QUEUED:
            return run
        now = timezone.now()
        run.status, run.started_at, run.heartbeat_at = LabRun.Status.RUNNING, now, now
        run.save(update_fields=["status", "started_at", "heartbeat_at"])
        for index in range(lab_chunk_count(run)):
            outbox_enqueue(task_name=CHUNK_TASK_NAME, args=[run.pk, index])
    return LabRun.objects.get(pk=run_id)


def lab_chunk_play(*, run_id: int, index: int, worker: str = "") -> LabRun:
    """Play chunk ``index`` of a running run (the task ``rules.lab_chunk_play``, on any worker) and record its counts;
    the chunk that completes the run records the run's counts, series and audit event. A chunk already recorded (its
    task delivered again), or a run no longer running, is left alone. An engine that fails fails the run, with why.
    """
    run = LabRun.objects.get(pk=run_id)
    if run.status != LabRun.Status.RUNNING or LabChunk.objects.filter(run_id=run_id, index=index).exists():
        return run
    if not 0 <= index < lab_chunk_count(run):
        raise ValueError(f"lab run {run_id} has no chunk {index}")
    try:
        tally = _chunk_tally(run, index)
    except Exception as exc:  # any failure of the engine: the run is shown failed, with why (never left hanging)
        logger.exception("Lab run %s, chunk %s failed", run_id, index)
        _fail(run_id, error=f"{type(exc).__name__}: {exc}")
        return LabRun.objects.get(pk=run_id)
    with transaction.atomic():
        run = LabRun.objects.select_for_update().get(pk=run_id)
        if run.status != LabRun.Status.RUNNING or LabChunk.objects.filter(run_id=run_id, index=index).exists():
            return run
        now = timezone.now()
        LabChunk.objects.create(
            run=run,
            index=index,
            hands=tally.hands,
            wins=tally.wins,
            pushes=tally.pushes,
            losses=tally.losses,
            played_at=now,
            worker=worker[:200],
        )
        chunks = list(LabChunk.objects.filter(run_id=run_id).order_by("index"))
        total = Tally()
        for chunk in chunks:
            total = total + Tally(int(chunk.wins), int(chunk.pushes), int(chunk.losses))
        run.hands_done, run.wins, run.pushes, run.losses = total.hands, total.wins, total.pushes, total.losses
        run.heartbeat_at = now
        fields = ["hands_done", "wins", "pushes", "losses", "heartbeat_at"]
        if run.method == LabRun.Method.SIMULATED:
            run.series = _series(chunks)
            fields.append("series")
        if len(chunks) == lab_chunk_count(run):
            run.status, run.finished_at = LabRun.Status.FINISHED, now
            fields += ["status", "finished_at"]
        run.save(update_fields=fields)
        if run.status == LabRun.Status.FINISHED:
            audit_event_record(
                actor=None,
                event_type=AuditEventType.LAB_RUN_FINISHED,
                subject=run,
                after={
                    "hands": total.hands,
                    "wins": total.wins,
                    "pushes": total.pushes,
                    "losses": total.losses,
                    "chunks": len(chunks),
                },
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
