"""Celery tasks of the rules: the game-math lab's runs. Each takes plain arguments and calls a service."""

from __future__ import annotations

from celery import shared_task

from rules.lab_services import TASK_NAME, lab_run_play


@shared_task(name=TASK_NAME)
def lab_run_play_task(run_id: int) -> dict[str, object]:
    """Play a queued lab run (``rules.lab_services.lab_run_play``); answer its status and counts. Idempotent: a run
    delivered twice is played once."""
    run = lab_run_play(run_id=run_id)
    return {"status": run.status, "hands": run.hands_done, "wins": run.wins, "pushes": run.pushes, "losses": run.losses}
