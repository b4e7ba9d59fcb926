"""How long the auditor's checks take: ``verify_audit`` (the keyed chain, then every audited record held to its last
audit event), ``verify_ledger`` and ``verify_ledger --replay``, over a floor of seven-position Pai Gow Poker rounds
played through the services, a rated player at the first seat of every table.

The floor is built once (``--rounds`` rounds at ``--tables`` tables: open, six wagers, close, the system's deal,
the house way's hands, settle; every wager and settlement writes its audit event) in a throwaway database. Then
each check is timed ``--repeats`` times, best shown, against a floor of its own run in the same process: reading
the rows it reads (every audit event; every posting, entry and wager), with nothing checked. The ratio says
what checking costs over reading.

Run from the repository root::

    python bench/verify.py --rounds 3000
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tableside python bench/verify.py --rounds 3000
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.harness import close_connections, machine, setup_django, throwaway_database  # noqa: E402

SEED = 20261124


def best(repeats: int, run: Callable[[], Any]) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeats):
        gc.collect()
        started = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - started)
    return min(times), result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the throwaway database")
    args = parser.parse_args(argv)
    with throwaway_database("tableside_bench_verify", args.keep) as where:
        setup_django()
        from bench.settlement import floor_build, round_revealed
        from casino.audit_verify import audit_log_verify
        from casino.models import AuditEvent
        from casino.verify import records_verify
        from ledger.models import LedgerEntry, Posting
        from ledger.verify import ledger_verify
        from players.services import player_create, session_start
        from rounds.models import Wager
        from settlement.replay import ledger_replay
        from settlement.services import settle_round

        print(f"{where} | {machine()}")
        rng = random.Random(SEED)
        floor = floor_build(args.tables)
        for number, table in enumerate(floor.tables):  # the ratings a settle feeds: a rated row a round at seat 1
            player = player_create(actor=floor.dealer, tier="Gold", name=f"Player {number}")
            session_start(actor=floor.dealer, player=player, table=table, seat=1)
        started, made = time.perf_counter(), 0
        while made < args.rounds:
            for table in floor.tables[: args.rounds - made]:
                round_ = round_revealed(floor, table, rng)
                settle_round(round=round_, actor=floor.dealer, idempotency_key=f"bench-{round_.pk}")
                made += 1
        print(f"{made} rounds played and settled in {time.perf_counter() - started:.0f} s; "
              f"{AuditEvent.objects.count()} audit events, {Posting.objects.count()} postings, "
              f"{LedgerEntry.objects.count()} entries")  # fmt: skip

        def read_events() -> int:
            return sum(1 for _ in AuditEvent.objects.order_by("seq").iterator(chunk_size=2000))

        def read_ledger() -> int:
            rows = 0
            for model in (Posting, LedgerEntry, Wager):
                rows += sum(1 for _ in model.objects.order_by("pk").values_list().iterator(chunk_size=5000))
            return rows

        floor_events, _ = best(args.repeats, read_events)
        floor_ledger, _ = best(args.repeats, read_ledger)
        checks = [
            ("verify_audit (keyed chain)", floor_events, audit_log_verify),
            ("verify_audit (records held to their events)", floor_events, records_verify),
            ("verify_ledger (sums, reversals, audit events)", floor_ledger + floor_events, ledger_verify),
            ("verify_ledger --replay (the engines again)", floor_ledger, ledger_replay),
        ]
        print(f"{'check':48} {'best s':>8} {'floor s':>8} {'ratio':>7} {'rounds/s':>9}  ok")
        for name, floor_s, check in checks:
            seconds, report = best(args.repeats, check)
            print(
                f"{name:48} {seconds:8.2f} {floor_s:8.2f} {seconds / floor_s:7.1f} {made / seconds:9.0f}  {report.ok}"
            )
        close_connections()


if __name__ == "__main__":
    main()
