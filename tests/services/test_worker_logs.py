"""A real Celery worker (service-backed) logs as the web does: JSON lines with TABLESIDE_LOG_FORMAT=json, and the
lines of a task carry the id of the request that asked for it."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from casino import request_ids
from casino.tasks import audit_sequence_task
from tests.services.test_celery_worker import worker_start, worker_stop


@pytest.mark.django_db(transaction=True)
def test_a_tasks_log_lines_in_the_worker_carry_the_request_id_of_the_request_that_asked_for_it(
    real_services: None, tmp_path: Path
) -> None:
    queue = f"tableside-test-{uuid.uuid4().hex[:8]}"
    log = tmp_path / "worker.log"
    process = worker_start(queue, log, TABLESIDE_LOG_FORMAT="json")
    try:
        token = request_ids.request_id.set("req-from-the-tablet-42")
        try:
            sent = audit_sequence_task.apply_async(queue=queue)
        finally:
            request_ids.request_id.reset(token)
        sent.get(timeout=90)
    finally:
        worker_stop(process)

    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    assert lines, log.read_text()[-2000:]
    of_the_task = [line for line in lines if line.get("task_id") == sent.id]
    assert of_the_task, log.read_text()[-2000:]
    assert all(line["request_id"] == "req-from-the-tablet-42" for line in of_the_task)
    assert any("succeeded" in line["message"] for line in of_the_task)
    assert all(line["task"] == "casino.audit_sequence" for line in of_the_task)
