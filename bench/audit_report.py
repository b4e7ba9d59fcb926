"""The audit report of a busy shift: its figures and its PDF, built as the report task builds them, against a bound.

A floor of 2,000 tables writes 300 audited events a second; a shift's audit report lists every event of the shift
and states whether the whole log verifies. The bench opens a shift, records ``--events`` audit events in it (20,000
by default) through the project's recording path (``casino.audit.audit_event_record``, a transaction each hundred,
as the services write them: table moves with a reason on one in five, a long one on one in fifty), sequences the log
into its tree and anchors it (``casino.audit.audit_checkpoint_make``), closes the shift, and times
``pit.services.shift_report_build(kind="audit")``: the events read, the whole log verified, the figures hashed and
the PDF drawn, ``--runs`` times (the report deleted between runs), the best kept. The bound is 5 s.

Building the shift is not timed. The data lives in a throwaway database (PostgreSQL when ``DATABASE_URL`` says so,
else SQLite), dropped after the run.

Run from the repository root::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tableside python bench/audit_report.py
    python bench/audit_report.py --events 5000
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.harness import machine, setup_django, throwaway_database  # noqa: E402

BENCH_DATABASE = "tableside_bench_audit_report"
BOUND_SECONDS = 5.0
REASONS = ("Card exposed while dealing", "Dealer error: the hands set again by the house way at the table")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=20_000, help="audit events in the shift (default 20,000)")
    parser.add_argument("--runs", type=int, default=2, help="timed builds, the best kept (default 2)")
    parser.add_argument("--keep", action="store_true", help="keep the throwaway database (and say where it is)")
    args = parser.parse_args(argv)
    if args.events < 1 or args.runs < 1:
        parser.error("--events and --runs must be positive")
    return args


def shift_build(events: int) -> object:
    """A closed shift holding ``events`` audit events of table moves, recorded through the project's path."""
    from django.contrib.auth.models import Group, User
    from django.db import transaction

    from casino.audit import audit_checkpoint_make, audit_event_record
    from casino.events import AuditEventType
    from casino.roles import Role
    from casino.services import gaming_day_open, pit_create, shift_close, shift_open
    from tables.services import table_create

    boss = User.objects.create_user(username="bench_pit_boss", password="bench-pass-word")
    boss.groups.add(Group.objects.get(name=Role.PIT_BOSS.value))
    gaming_day_open(actor=boss, business_date=dt.date(2026, 11, 29))
    shift = shift_open(actor=boss, name="Day")
    pit = pit_create(actor=boss, name="Main")
    tables = [
        table_create(
            actor=boss,
            pit=pit,
            name=f"PGP-{n:03d}",
            game="paigow_poker",
            min_wager_cents=1_000,
            max_wager_cents=50_000,
            seat_count=6,
        )
        for n in range(1, 21)
    ]
    made = 0
    while made < events:
        with transaction.atomic():
            for n in range(made, min(events, made + 100)):
                reason = REASONS[1] * 3 if n % 50 == 0 else (REASONS[0] if n % 5 == 0 else "")
                audit_event_record(
                    actor=boss,
                    event_type=AuditEventType.TABLE_OPENED if n % 2 else AuditEventType.TABLE_CLOSED,
                    subject=tables[n % len(tables)],
                    after={"status": "open" if n % 2 else "closed", "n": n},
                    reason=reason,
                )
        made = min(events, made + 100)
    audit_checkpoint_make(reason="bench", shift=None, wait=True, only_if_moved=False)
    return shift_close(actor=boss, shift=shift)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    with throwaway_database(BENCH_DATABASE, args.keep) as where:
        setup_django()
        from casino.models import AuditEvent
        from pit.services import shift_report_build
        from settlement.models import ShiftReport

        print(f"The audit report of a shift of {args.events:,} audit events; {args.runs} timed builds, the best kept")
        print(f"machine:  {machine()}")
        print(f"database: {where}; DEBUG off")
        started = time.perf_counter()
        shift = shift_build(args.events)
        logged = AuditEvent.objects.count()
        print(f"shift:    {logged:,} events in the log; built in {time.perf_counter() - started:.1f} s (not timed)")
        took = []
        for _ in range(args.runs):
            ShiftReport.objects.filter(shift=shift, kind=ShiftReport.Kind.AUDIT).delete()
            started = time.perf_counter()
            report = shift_report_build(shift=shift, kind=ShiftReport.Kind.AUDIT)
            took.append(time.perf_counter() - started)
        listed = len(report.data["events"])
        best = min(took)
        ok = best <= BOUND_SECONDS and report.data["chain"]["ok"] and listed >= args.events
        verdict = "verifies" if report.data["chain"]["ok"] else "DOES NOT VERIFY"
        print(
            f"audit report: {best:.2f} s (runs {', '.join(f'{t:.2f}' for t in took)}); {listed:,} events listed, "
            f"the log {verdict}; PDF {len(report.pdf) / 1024:,.0f} KiB; bound {BOUND_SECONDS:.0f} s: "
            f"{'PASS' if ok else 'BELOW'}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
