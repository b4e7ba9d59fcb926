"""Audited writes a second with C concurrent writers, through the project's recording path, against the same
inserts with no log, in the same run on the same PostgreSQL.

Each writer is a process of its own with its own connection (as a gunicorn worker is), and commits one audit event
per transaction, durably, as a service does:

* ``plain``: the event row inserted with nothing drawn, hashed or locked: the floor, the same INSERT and COMMIT;
* ``log``: ``casino.audit.audit_event_record`` as every service calls it (its number drawn from the sequence, its
  HMAC, its row), the process that wrote sequencing the log into its tree every ``TABLESIDE_AUDIT_ANCHOR_SECONDS``
  as in production (never waiting for another sequencer);
* ``chain``: what the log did before it was a tree, for the record: every writer takes one floor-wide lock, reads
  the head and links its event to it, holding the lock until its COMMIT.

Each mode runs on a throwaway database of its own, made and migrated for it, in the same run.

It prints writes a second for each and the ratios ``log/plain`` and ``chain/plain``, for C = 1, 2, 4, 8.

Run from the repository root (PostgreSQL only: SQLite serialises every writer by design)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tableside python bench/audit_writes.py --writes 400
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import queue
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.harness import close_connections, machine, setup_django, throwaway_database  # noqa: E402

MODES = ("plain", "log", "chain")


def _writer(mode: str, worker: int, writes: int, start: Any, ready: Any, done: Any) -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    import uuid

    from django.db import connection, transaction
    from django.utils import timezone

    from casino.audit import audit_event_record, event_hash
    from casino.events import AuditEventType
    from casino.models import GENESIS_HASH, AuditEvent
    from casino.rows import row_insert

    def plain(n: int) -> None:
        with transaction.atomic():
            row_insert(
                AuditEvent(
                    seq=10**12 + uuid.uuid4().int % 10**11,  # never a number the log draws
                    occurred_at=timezone.now(),
                    actor_name="system",
                    event_type="round.settled",
                    subject_type="tables.round",
                    subject_id=str(n),
                    after={"state": "settled"},
                    prev_hash="",
                    hash=uuid.uuid4().hex * 2,
                    key_id="dev",
                )
            )

    def log(n: int) -> None:
        # Each writer its own rounds, as each table's tablet settles its own: two writers recording the same event
        # about the same round within one microsecond would make two rows of one hash, which the log refuses.
        with transaction.atomic():
            audit_event_record(
                actor=None,
                event_type=AuditEventType.ROUND_SETTLED,
                subject=("tables.round", f"{worker}-{n}"),
                after={"state": "x"},
            )

    def chain(n: int) -> None:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(7777)")
                cursor.execute(
                    "SELECT seq, hash FROM casino_auditevent WHERE seq >= 2 * 10^12 ORDER BY seq DESC LIMIT 1"
                )
                head = cursor.fetchone()
            event = AuditEvent(
                seq=head[0] + 1 if head else 2 * 10**12,
                occurred_at=timezone.now(),
                actor_name="system",
                event_type="round.settled",
                subject_type="tables.round",
                subject_id=str(n),
                after={"state": "settled"},
                prev_hash=head[1] if head else GENESIS_HASH,
                key_id="dev",
            )
            event.hash = event_hash(prev_hash=event.prev_hash, event=event)
            row_insert(event)

    write = {"plain": plain, "log": log, "chain": chain}[mode]
    write(-1)  # the connection made and the statements warmed before the clock starts
    ready.put(worker)
    start.wait()
    began = time.perf_counter()
    for n in range(writes):
        write(n)
    done.put(time.perf_counter() - began)
    connection.close()


def run(mode: str, writers: int, writes: int) -> float:
    """Writes a second, all writers together, from the barrier to the last commit."""
    context = mp.get_context("spawn")
    start, ready, done = context.Event(), context.Queue(), context.Queue()
    processes = [context.Process(target=_writer, args=(mode, i, writes, start, ready, done)) for i in range(writers)]
    for process in processes:
        process.start()
    for _ in processes:
        ready.get(timeout=120)
    start.set()
    began = time.perf_counter()
    finished = 0
    while finished < len(processes):  # a writer that died (its traceback above) never answers: stop, do not wait
        try:
            done.get(timeout=1)
            finished += 1
        except queue.Empty:
            failed = [process.exitcode for process in processes if process.exitcode not in (None, 0)]
            if failed:
                for process in processes:
                    process.kill()
                raise SystemExit(f"{mode}: a writer failed (exit code {failed[0]}); nothing measured") from None
    wall = time.perf_counter() - began
    for process in processes:
        process.join()
    return writers * writes / wall


def migrate() -> None:
    """The schema, in a process of its own: the parent never holds a connection the writers would share."""
    subprocess.run([sys.executable, str(ROOT / "manage.py"), "migrate", "-v", "0"], check=True, cwd=ROOT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writes", type=int, default=400, help="events each writer commits (default 400)")
    parser.add_argument("--writers", default="1,2,4,8", help="concurrent writers to try (default 1,2,4,8)")
    args = parser.parse_args()
    if "postgres" not in os.environ.get("DATABASE_URL", ""):
        raise SystemExit("Set DATABASE_URL to a PostgreSQL server: SQLite serialises every writer by design.")
    counts = [int(w) for w in args.writers.split(",")]
    rates: dict[tuple[str, int], float] = {}
    server = os.environ["DATABASE_URL"]
    verified = ""
    for mode in MODES:  # each on a database of its own: the log's sequencer never meets the others' rows
        os.environ["DATABASE_URL"] = server
        with throwaway_database(f"tableside_bench_audit_{mode}", False) as where:
            if mode == MODES[0]:
                setup_django()  # migrates this one
                print(f"Audited writes a second, one event per durable transaction: {machine()}; {where}.")
                close_connections()
            else:
                migrate()
            for writers in counts:
                rates[mode, writers] = run(mode, writers, args.writes)
                print(f"  {mode:<6} {writers:>2} writers: {rates[mode, writers]:>7.0f} writes/s", flush=True)
            if mode == "log":
                report = subprocess.run(
                    [sys.executable, str(ROOT / "manage.py"), "verify_audit"], capture_output=True, text=True, cwd=ROOT
                )
                verified = report.stdout.strip().splitlines()[0] if report.returncode == 0 else report.stderr.strip()
    print(f"{'writers':>8} {'plain/s':>9} {'log/s':>9} {'chain/s':>9} {'log/plain':>10} {'chain/plain':>12}")
    for writers in counts:
        plain, log, chain = (rates[mode, writers] for mode in MODES)
        print(f"{writers:>8} {plain:>9.0f} {log:>9.0f} {chain:>9.0f} {log / plain:>9.2f}x {chain / plain:>11.2f}x")
    print(f"The log's database afterwards, verify_audit: {verified}")


if __name__ == "__main__":
    main()
