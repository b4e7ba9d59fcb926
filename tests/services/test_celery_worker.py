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
from casino.events import AuditEventType
from casino.tasks import audit_log_verify_task

ROOT = Path(__file__).resolve().parents[2]


def database_url_of_the_test_database() -> str:
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


def worker_start(queue: str, log: Path, **env: str) -> subprocess.Popen[bytes]:
    """A Celery worker process (in a process group of its own) on ``queue``, reading the test database."""
    # The worker inherits PGOPTIONS: in the PostgreSQL pass it too works as the application's role.
    environment = dict(
        os.environ,
        DATABASE_URL=database_url_of_the_test_database(),
        DJANGO_SETTINGS_MODULE="config.settings",
        TABLESIDE_AUDIT_CHECKPOINT_FILE=str(settings.TABLESIDE_AUDIT_CHECKPOINT_FILE),
        **env,
    )
    with log.open("a") as out:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "--without-heartbeat",
                "--without-gossip",
                "--without-mingle",
                "-Q",
                queue,
                "-n",
                f"{queue}-{uuid.uuid4().hex[:4]}@%h",
                "--loglevel=INFO",
            ],
            cwd=ROOT,
            env=environment,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def worker_stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture
def worker(real_services, transactional_db, tmp_path):  # type: ignore[no-untyped-def]
    """A Celery worker process on its own queue, reading the test database."""
    queue = f"tableside-test-{uuid.uuid4().hex[:8]}"
    log = tmp_path / "worker.log"
    process = worker_start(queue, log)
    try:
        yield queue, log
    finally:
        worker_stop(process)


def test_a_task_travels_through_redis_to_a_worker_process_and_its_result_comes_back(worker) -> None:
    queue, log = worker
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    for n in range(4):
        audit_event_record(actor=None, event_type=AuditEventType.TABLE_OPENED, subject=("tables.table", n))

    sent = audit_log_verify_task.apply_async(queue=queue)
    assert isinstance(sent, AsyncResult)
    result = sent.get(timeout=90)

    assert {key: result[key] for key in ("ok", "events_checked", "broken_seq")} == {
        "ok": True,
        "events_checked": 4,
        "broken_seq": None,
    }
    assert result["message"].startswith("Audit log intact: 4 events verified, 0 in its tree, held to 0 checkpoints.")
    assert "are not yet in a signed head outside the database" in result["message"]
    assert sent.state == "SUCCESS"
    assert sent.id in log.read_text(), "the worker's own log shows it ran the task"


def test_a_closed_shifts_reports_are_built_by_a_real_worker_and_a_second_run_changes_nothing(
    worker, make_table, shift, dealer, pit_boss
) -> None:
    from pit.tasks import shift_reports_build
    from settlement.models import ShiftReport

    queue, log = worker
    _played_and_closed_shift(make_table, shift, dealer, pit_boss, key="worker-shift")

    first = shift_reports_build.apply_async(args=[shift.pk], queue=queue).get(timeout=120)
    stored = {r.kind: r for r in ShiftReport.objects.filter(shift=shift)}
    assert set(stored) == {"shift", "commission", "audit", "ratings", "dealers"}
    # PGP-1 played and its drop box is not counted: the Master Game Report waits for the count.
    assert first["master_game"].startswith("waiting: ") and "PGP-1" in first["master_game"]
    assert all(stored[kind].status == "ready" and stored[kind].content_hash == first[kind] for kind in stored)
    assert (stored["shift"].data["floor"]["wins"], stored["shift"].data["floor"]["commission_cents"]) == (1, 125)
    assert stored["shift"].pdf[:5] == b"%PDF-"
    second = shift_reports_build.apply_async(args=[shift.pk], queue=queue).get(timeout=120)
    assert second == first
    assert "settlement.shift_reports_build" in log.read_text()


def _played_and_closed_shift(make_table, shift, dealer, pit_boss, *, key):  # type: ignore[no-untyped-def]
    """A round of PGP-1 settled (seat 1 wins 25.00), then the shift closed: its reports wait for a worker."""
    from casino.services import shift_close
    from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
    from settlement.services import settle_round

    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    round_ = round_open(actor=dealer, table=table)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=2500)
    round_close_betting(actor=dealer, round=round_)
    round_deal(actor=dealer, round=round_, dice=[3, 5, 6])
    round_hands_record(
        actor=dealer,
        round=round_,
        hands={
            "banker": {"high": "Qs Qd 8s 5d 3c", "low": "Jh Jc"},
            "seats": {"1": {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"}},
        },
    )
    settle_round(round=round_, actor=dealer, idempotency_key=key)
    shift_close(actor=pit_boss, shift=shift)  # its own task goes to the default queue, which no worker here reads


def _waits_on_a_lock(timeout: float) -> bool:
    """Whether another session of the test database waits on a row lock (the worker, mid-report), within timeout."""
    import time

    import psycopg

    db = connection.settings_dict
    deadline = time.monotonic() + timeout
    with psycopg.connect(
        host=db.get("HOST") or "127.0.0.1", port=db.get("PORT") or 5432, user="postgres", dbname=db["NAME"]
    ) as watcher:
        while time.monotonic() < deadline:
            # A lock not granted, by a session of this database (the application's role, PGOPTIONS, sees which
            # database another session is on, not its wait or its query).
            waiting = watcher.execute(
                "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                "WHERE a.datname = %s AND NOT l.granted",
                [db["NAME"]],
            ).fetchone()
            if waiting and waiting[0]:
                return True
            time.sleep(0.2)
    return False


def test_a_worker_killed_mid_report_has_its_report_built_once_by_another_without_beat(
    real_services, transactional_db, tmp_path, make_table, shift, dealer, pit_boss
) -> None:
    import os
    import signal
    import time

    import psycopg

    from casino.events import AuditEventType
    from casino.models import AuditEvent
    from casino.records import subject_type
    from pit.report_files import report_render
    from pit.tasks import shift_reports_build
    from settlement.models import ShiftReport

    _played_and_closed_shift(make_table, shift, dealer, pit_boss, key="worker-killed")
    queue, log = f"tableside-test-{uuid.uuid4().hex[:8]}", tmp_path / "worker.log"
    db = connection.settings_dict
    # The shift report's row, locked from another session: the worker renders the report, then waits on the lock
    # to store it, mid-task, when it is killed.
    ShiftReport.objects.create(shift=shift, kind="shift")
    holder = psycopg.connect(
        host=db.get("HOST") or "127.0.0.1", port=db.get("PORT") or 5432, user="postgres", dbname=db["NAME"]
    )
    holder.execute("SELECT 1 FROM settlement_shiftreport WHERE shift_id = %s FOR UPDATE", [shift.pk])
    first = worker_start(queue, log, TASK_VISIBILITY_SECONDS="240")
    sent = shift_reports_build.apply_async(args=[shift.pk], queue=queue)
    try:
        assert _waits_on_a_lock(timeout=90), log.read_text()[-2000:]
    finally:
        os.killpg(first.pid, signal.SIGKILL)  # the whole worker, as a lost machine: nothing is acknowledged
        first.wait(timeout=20)
        holder.rollback()
        holder.close()
    assert ShiftReport.objects.get(shift=shift, kind="shift").status != "ready"

    # Another worker, no beat: it finds the task held past its visibility (5 seconds here, 240 by default) and
    # delivers it again.
    started = time.monotonic()
    second = worker_start(queue, log, TASK_VISIBILITY_SECONDS="5")
    try:
        answer = sent.get(timeout=120)
    finally:
        worker_stop(second)
    assert time.monotonic() - started < 120
    built = ShiftReport.objects.get(shift=shift, kind="shift")
    assert built.status == "ready" and answer["shift"] == built.content_hash
    events = AuditEvent.objects.filter(
        event_type=AuditEventType.SHIFT_REPORT_BUILT, subject_type=subject_type(ShiftReport), subject_id=str(built.pk)
    )
    assert events.count() == 1  # built exactly once
    shift.refresh_from_db()
    assert report_render(shift=shift, kind="shift")[3] == built.content_hash  # what a rebuild gives
