"""A real task through Redis to a real worker process, and its result read back (service-backed)."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from celery.result import AsyncResult
from django.conf import settings
from django.db import connection

from casino.audit import audit_event_record
from casino.tasks import audit_chain_verify_task

ROOT = Path(__file__).resolve().parents[2]


def database_url_of_the_test_database() -> str:
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


@pytest.fixture
def worker(real_services, transactional_db, tmp_path):  # type: ignore[no-untyped-def]
    """A Celery worker process on its own queue, reading the test database."""
    queue = f"tableside-test-{uuid.uuid4().hex[:8]}"
    log = tmp_path / "worker.log"
    env = dict(os.environ, DATABASE_URL=database_url_of_the_test_database(), DJANGO_SETTINGS_MODULE="casino.settings")
    with log.open("w") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "casino",
                "worker",
                "--pool=solo",
                "--without-heartbeat",
                "--without-gossip",
                "--without-mingle",
                "-Q",
                queue,
                "-n",
                f"{queue}@%h",
                "--loglevel=INFO",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield queue, log
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_a_task_travels_through_redis_to_a_worker_process_and_its_result_comes_back(worker) -> None:
    queue, log = worker
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    for n in range(4):
        audit_event_record(actor=None, event_type="table.opened", subject=("tables.table", n))

    sent = audit_chain_verify_task.apply_async(queue=queue)
    assert isinstance(sent, AsyncResult)
    result = sent.get(timeout=90)

    assert result == {
        "ok": True,
        "events_checked": 4,
        "broken_seq": None,
        "message": "Audit chain intact: 4 events verified.",
    }
    assert sent.state == "SUCCESS"
    assert sent.id in log.read_text(), "the worker's own log shows it ran the task"
