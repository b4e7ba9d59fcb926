"""A lab run played by real Celery worker processes through Redis (service-backed): the same seed gives the same
counts and the same convergence series with one worker and with two, and with two both play its chunks."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest
from celery import current_app
from django.contrib.auth.models import User

from rules.lab_services import TASK_NAME, lab_chunk_count, lab_run_start
from rules.models import LabChunk, LabRun, RuleSet
from rules.services import rule_set_default
from tests.services.test_celery_worker import worker_start, worker_stop

HANDS = 1_000_000
SEED = 20261129


def _run_with_workers(
    count: int, queue: str, log: Path, rule_set: RuleSet, supervisor: User
) -> tuple[LabRun, set[str]]:
    """Start a run of ``HANDS`` hands seeded ``SEED`` and have ``count`` worker processes on ``queue`` play it."""
    workers = [worker_start(queue, log, TABLESIDE_LAB_QUEUE=queue) for _ in range(count)]
    try:
        run = lab_run_start(
            actor=supervisor, rule_set=rule_set, hands=HANDS, seed=SEED, request_key=uuid.uuid4().hex
        )  # its task goes to the default queue, which no worker here reads: sent to this test's queue instead
        current_app.send_task(TASK_NAME, args=[run.pk], queue=queue)
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            run.refresh_from_db()
            if run.status in (LabRun.Status.FINISHED, LabRun.Status.FAILED):
                break
            time.sleep(0.2)
    finally:
        for process in workers:
            worker_stop(process)
    played_by = set(LabChunk.objects.filter(run=run).values_list("worker", flat=True))
    return run, played_by


@pytest.mark.django_db(transaction=True)
def test_the_same_seed_gives_the_same_counts_with_one_worker_and_with_two(
    real_services: None, floor_supervisor: User, tmp_path: Path
) -> None:
    from rules.options import PAIGOW_POKER

    rule_set = rule_set_default(game=PAIGOW_POKER)
    queue = f"tableside-lab-{uuid.uuid4().hex[:8]}"
    alone, by_one = _run_with_workers(1, queue, tmp_path / "one.log", rule_set, floor_supervisor)
    assert alone.status == LabRun.Status.FINISHED, (alone.error, (tmp_path / "one.log").read_text()[-3000:])
    together, by_two = _run_with_workers(2, queue, tmp_path / "two.log", rule_set, floor_supervisor)
    assert together.status == LabRun.Status.FINISHED, (together.error, (tmp_path / "two.log").read_text()[-3000:])

    assert alone.seed == together.seed == SEED and alone.hands_done == together.hands_done == HANDS
    assert (alone.wins, alone.pushes, alone.losses) == (together.wins, together.pushes, together.losses)
    assert alone.series == together.series and len(alone.series) == lab_chunk_count(alone)
    assert len(by_one) == 1 and len(by_two) == 2, (by_one, by_two)
