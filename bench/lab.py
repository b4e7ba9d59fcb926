"""The game-math lab on one worker and on two: the same seeded run, its wall time from the start to the last chunk,
with one Celery worker process and then with two reading the lab's queue, in one run; the ratio is the speed-up
(the bound: at least 1.8 with two workers on a two-core machine) and the two runs' counts must be equal.

Each worker is ``celery -A config worker --pool=solo`` on a queue of the bench's own (``TABLESIDE_LAB_QUEUE``), as a
casino would set workers aside for the math; the run is started through ``rules.lab_services.lab_run_start`` and its
first task sent to that queue; the clock stops when the run's row says finished. The workers are started and warmed
(one small run each) before the clock starts, so their import time is not counted.

Run from the repository root (PostgreSQL and Redis; the data lives in a database made for the run and dropped
after it)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tableside CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \\
        python bench/lab.py --hands 20000000
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.harness import close_connections, machine, setup_django, throwaway_database  # noqa: E402

BENCH_DATABASE = "tableside_bench_lab"
BOUND = 1.8  # two workers / one, on two cores


def _worker(queue: str, log: Path) -> subprocess.Popen[bytes]:
    environment = dict(os.environ, TABLESIDE_LAB_QUEUE=queue, DJANGO_SETTINGS_MODULE="config.settings")
    with log.open("a") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--without-heartbeat",
             "--without-gossip", "--without-mingle", "-Q", queue, "-n", f"{queue}-{uuid.uuid4().hex[:4]}@%h",
             "--loglevel=WARNING"],
            cwd=ROOT, env=environment, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip


def _played(hands: int, seed: int, queue: str, supervisor: Any, rule_set: Any) -> tuple[float, Any]:
    from celery import current_app

    from rules.lab_services import TASK_NAME, lab_run_start
    from rules.models import LabRun

    run = lab_run_start(actor=supervisor, rule_set=rule_set, hands=hands, seed=seed, request_key=uuid.uuid4().hex)
    started = time.perf_counter()
    current_app.send_task(TASK_NAME, args=[run.pk], queue=queue)
    while True:
        run.refresh_from_db()
        if run.status in (LabRun.Status.FINISHED, LabRun.Status.FAILED):
            break
        time.sleep(0.05)
    elapsed = time.perf_counter() - started
    if run.status != LabRun.Status.FINISHED:
        raise SystemExit(f"lab run {run.pk} failed: {run.error}")
    return elapsed, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20_000_000)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--keep", action="store_true", help="keep the bench database afterwards")
    arguments = parser.parse_args()
    if not os.environ.get("CELERY_BROKER_URL"):
        raise SystemExit("CELERY_BROKER_URL must name the Redis the workers read (the lab's tasks travel through it)")
    with throwaway_database(BENCH_DATABASE, arguments.keep) as where:
        setup_django()
        from django.contrib.auth.models import Group, User
        from django.core.management import call_command

        from casino.roles import Role
        from rules.lab_services import lab_chunk_count
        from rules.options import PAIGOW_POKER
        from rules.services import rule_set_default

        call_command("migrate", verbosity=0)
        supervisor = User.objects.create_user("bench_supervisor")
        supervisor.groups.add(Group.objects.get_or_create(name=Role.FLOOR_SUPERVISOR.value)[0])
        rule_set = rule_set_default(game=PAIGOW_POKER)
        close_connections()
        print(f"machine: {machine()}\ndatabase: {where}\n")
        times: dict[int, float] = {}
        counts: dict[int, tuple[int, int, int]] = {}
        for workers in (1, 2):
            queue = f"tableside-bench-lab-{uuid.uuid4().hex[:8]}"
            log = Path(f"/tmp/{queue}.log")
            processes = [_worker(queue, log) for _ in range(workers)]
            try:
                _played(100_000, 1, queue, supervisor, rule_set)  # the workers up and warm
                elapsed, run = _played(arguments.hands, arguments.seed, queue, supervisor, rule_set)
            finally:
                for process in processes:
                    process.terminate()
                    process.wait(timeout=30)
            times[workers], counts[workers] = elapsed, (run.wins, run.pushes, run.losses)
            played_by = len(set(run.chunks.values_list("worker", flat=True)))
            print(
                f"{workers} worker(s): {arguments.hands:,} hands in {elapsed:.2f} s "
                f"({arguments.hands / elapsed / 1e6:.2f} M hands/s), {lab_chunk_count(run)} chunks, "
                f"played by {played_by} worker(s); W/P/L {counts[workers]}"
            )
        ratio = times[1] / times[2]
        same = counts[1] == counts[2]
        print(f"\nspeed-up with two workers: {ratio:.2f}x (bound {BOUND}x: {'met' if ratio >= BOUND else 'NOT met'})")
        print(f"the same counts with one worker and with two: {'yes' if same else 'NO'}")
        if not same:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
