"""Celery tasks of the rules: the game-math lab's runs. Each takes plain arguments and calls a service."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from rules.lab_services import CHUNK_TASK_NAME, TASK_NAME, lab_chunk_play, lab_run_play


@shared_task(name=TASK_NAME)
def lab_run_play_task(run_id: int) -> dict[str, object]:
    """Take a queued lab run (``rules.lab_services.lab_run_play``): its chunks go to every worker. Idempotent: a run
    delivered twice is taken once."""
    run = lab_run_play(run_id=run_id)
    return {"status": run.status, "hands": run.hands_done, "wins": run.wins, "pushes": run.pushes, "losses": run.losses}


@shared_task(name=CHUNK_TASK_NAME, bind=True)
def lab_chunk_play_task(self: Any, run_id: int, index: int) -> dict[str, object]:
    """Play one chunk of a running lab run on this worker (``rules.lab_services.lab_chunk_play``); answer the run's
    status and counts so far. Idempotent: a chunk delivered twice is played once."""
    run = lab_chunk_play(run_id=run_id, index=index, worker=str(self.request.hostname or ""))
    return {"status": run.status, "hands": run.hands_done, "wins": run.wins, "pushes": run.pushes, "losses": run.losses}
