"""A settle against the raw PostgreSQL floor for the same durable writes, in one run.

What a settle writes, for a seven-position Pai Gow Poker round (six wagers, the house banking): the round locked and
its shift checked (``FOR SHARE``), the settlement's posting and its ledger entries, the round's line in the table's
hold window and the window itself, the round moved to ``settled``, and its audit event; one durable COMMIT. Two ways:

* ``service``: ``settlement.services.settle_round``, as the API's view calls it (the hands read and checked, the
  engine, commission, the posting, the ratings, the audit event's keyed hash; 8 round trips);
* ``floor``: the same rows written by one PL/pgSQL function in one round trip and one COMMIT, their values
  computed beforehand (untimed): no Python, no ORM, no engine. What the database must do for a settle, and no more.

The two alternate table by table: a round at every table is settled through the service (timed), its rows read
back (untimed); then the table's next round is opened and revealed (untimed) and written by the floor function with
the same values (timed: the posting, its entries and the audit event's body are the service's, re-pointed at the
new round). Each figure is rounds a second over the calls' own times; the ratio is service / floor (the issue's
bound: at least 0.25).

Run from the repository root (PostgreSQL only; the data lives in a database made for the run and dropped after it)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tableside python bench/settle_floor.py --rounds 1000
"""

from __future__ import annotations

import argparse
import gc
import random
import secrets
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.harness import close_connections, machine, setup_django, throwaway_database  # noqa: E402
from bench.settlement import floor_build, round_revealed  # noqa: E402

BENCH_DATABASE = "tableside_bench_settle_floor"
BOUND = 0.25  # service / floor, rounds a second

FLOOR_FUNCTION = """
CREATE OR REPLACE FUNCTION bench_settle_floor(
    p_round bigint, p_table bigint, p_actor integer, p_key text, p_hands jsonb, p_result jsonb,
    e_accounts text[], e_seats bigint[], e_amounts bigint[], e_kinds text[],
    h_action bigint, h_win bigint, h_theo bigint, h_variance double precision,
    a_actor_name text, a_before jsonb, a_after jsonb, a_rows jsonb, a_hash text, a_key_id text
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    v_shift bigint;
    v_posting bigint;
BEGIN
    SELECT r.shift_id INTO v_shift FROM tables_round r WHERE r.id = p_round FOR UPDATE OF r;
    PERFORM 1 FROM casino_shift s WHERE s.id = v_shift AND s.closed_at IS NULL FOR SHARE OF s;
    INSERT INTO ledger_posting (round_id, table_id, shift_id, kind, idempotency_key, actor_id, created_at, reason,
                                hands, result, reverses_id, corrects_id)
    VALUES (p_round, NULL, NULL, 'settlement', p_key, p_actor, now(), '', p_hands, p_result, NULL, NULL)
    RETURNING id INTO v_posting;
    INSERT INTO ledger_ledgerentry (posting_id, round_id, actor_id, created_at, idempotency_key, account, seat_id,
                                    amount_cents, kind)
    SELECT v_posting, p_round, p_actor, now(), p_key, e.account, e.seat, e.amount, e.kind
    FROM unnest(e_accounts, e_seats, e_amounts, e_kinds) AS e(account, seat, amount, kind);
    INSERT INTO players_holdround (round_id, table_id, posting_id, action_cents, house_win_cents, theo_millicents,
                                   variance_cents2)
    VALUES (p_round, p_table, v_posting, h_action, h_win, h_theo, h_variance);
    INSERT INTO players_tablehold (table_id, rounds, action_cents, house_win_cents, theo_millicents, variance_cents2,
                                   updated_at)
    SELECT p_table, COUNT(*), COALESCE(SUM(w.action_cents), 0), COALESCE(SUM(w.house_win_cents), 0),
           COALESCE(SUM(w.theo_millicents), 0), COALESCE(SUM(w.variance_cents2), 0), now()
    FROM (SELECT action_cents, house_win_cents, theo_millicents, variance_cents2 FROM players_holdround
          WHERE table_id = p_table ORDER BY id DESC LIMIT 100) w
    ON CONFLICT (table_id) DO UPDATE SET rounds = excluded.rounds, action_cents = excluded.action_cents,
        house_win_cents = excluded.house_win_cents, theo_millicents = excluded.theo_millicents,
        variance_cents2 = excluded.variance_cents2, updated_at = excluded.updated_at;
    UPDATE tables_round SET state = 'settled', state_changed_at = now() WHERE id = p_round;
    INSERT INTO casino_auditevent (seq, occurred_at, actor_id, actor_name, event_type, subject_type, subject_id,
                                   before, after, reason, rows, prev_hash, hash, key_id)
    VALUES (nextval('casino_auditevent_number'), now(), p_actor, a_actor_name, 'round.settled', 'tables.round',
            p_round::text, a_before, a_after, '', a_rows, '', a_hash, a_key_id);
    RETURN v_posting;
END
$$;
"""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1000, help="rounds a path (default 1000)")
    parser.add_argument("--tables", type=int, default=100, help="tables (default 100)")
    parser.add_argument("--seed", type=int, default=20261129)
    args = parser.parse_args(argv)
    if min(args.rounds, args.tables) < 1:
        parser.error("--rounds and --tables are at least 1")
    return args


@dataclass
class Written:
    """What the service wrote for one settle, to be written again by the floor for the table's next round."""

    hands: str
    result: str
    entries: tuple[list[str], list[int | None], list[int], list[str]]
    hold: tuple[int, int, int, float]
    actor_name: str
    before: str
    after: str
    rows: str
    key_id: str


def written_by(round_id: int) -> Written:
    import json

    from casino.models import AuditEvent
    from ledger.models import LedgerEntry, Posting
    from players.models import HoldRound

    posting = Posting.objects.get(round_id=round_id, kind="settlement")
    entries = list(LedgerEntry.objects.filter(posting=posting).order_by("pk"))
    hold = HoldRound.objects.get(round_id=round_id)
    event = AuditEvent.objects.get(event_type="round.settled", subject_id=str(round_id))
    return Written(
        hands=json.dumps(posting.hands),
        result=json.dumps(posting.result),
        entries=(
            [e.account for e in entries],
            [e.seat_id for e in entries],
            [e.amount_cents for e in entries],
            [e.kind for e in entries],
        ),
        hold=(hold.action_cents, hold.house_win_cents, hold.theo_millicents, hold.variance_cents2),
        actor_name=event.actor_name,
        before=json.dumps(event.before),
        after=json.dumps(event.after),
        rows=json.dumps(event.rows),
        key_id=event.key_id,
    )


def floor_settle(round_: Any, actor_id: int, key: str, written: Written) -> None:
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        accounts, seats, amounts, kinds = written.entries
        cursor.execute(
            "SELECT bench_settle_floor(%s, %s, %s, %s, %s::jsonb, %s::jsonb, %s::text[], %s::bigint[], %s::bigint[],"
            " %s::text[], %s, %s, %s, %s, %s, %s::jsonb, %s::jsonb, %s::jsonb, %s, %s)",
            [
                round_.pk,
                round_.table_id,
                actor_id,
                key,
                written.hands,
                written.result,
                accounts,
                seats,
                amounts,
                kinds,
                *written.hold,
                written.actor_name,
                written.before,
                written.after,
                written.rows,
                secrets.token_hex(32),
                written.key_id,
            ],
        )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    with throwaway_database(BENCH_DATABASE, False) as where:
        setup_django()
        from django.contrib.auth.models import User
        from django.db import connection

        from settlement.services import settle_round

        if connection.vendor != "postgresql":
            print("settle_floor: PostgreSQL only (its floor is a PL/pgSQL function); set DATABASE_URL")
            return 2
        rng = random.Random(args.seed)
        print("A settle against the raw PostgreSQL floor for the same durable writes (one PL/pgSQL call, one COMMIT)")
        print(f"machine:  {machine()}")
        print(f"database: {where}; DEBUG off")
        floor = floor_build(min(args.tables, args.rounds))
        with connection.cursor() as cursor:
            cursor.execute(FLOOR_FUNCTION)
        service_times: list[float] = []
        floor_times: list[float] = []
        service_cpu = floor_cpu = 0.0
        done = 0
        while done < args.rounds:
            batch = floor.tables[: min(len(floor.tables), args.rounds - done)]
            revealed = [round_revealed(floor, table, rng) for table in batch]
            gc.collect()
            gc.disable()
            for round_ in revealed:
                actor = User.objects.get(pk=floor.dealer.pk)  # each request has its own user object
                cpu, started = time.process_time(), time.perf_counter()
                settle_round(round=round_, actor=actor, idempotency_key=f"service-{round_.pk}")
                service_times.append(time.perf_counter() - started)
                service_cpu += time.process_time() - cpu
            gc.enable()
            rows = [written_by(round_.pk) for round_ in revealed]
            nexts = [round_revealed(floor, table, rng) for table in batch]
            gc.collect()
            gc.disable()
            for round_, written in zip(nexts, rows, strict=True):
                cpu, started = time.process_time(), time.perf_counter()
                floor_settle(round_, floor.dealer.pk, f"floor-{round_.pk}", written)
                floor_times.append(time.perf_counter() - started)
                floor_cpu += time.process_time() - cpu
            gc.enable()
            done += len(batch)
        print()
        print(f"{'path':<9}{'rounds/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'CPU ms':>9}")
        for name, times, cpu in (("service", service_times, service_cpu), ("floor", floor_times, floor_cpu)):
            ordered = sorted(times)
            p50, p99 = (1000 * ordered[round(q * (len(ordered) - 1))] for q in (0.5, 0.99))
            print(f"{name:<9}{len(times) / sum(times):>10.1f}{p50:>9.2f}{p99:>9.2f}{1000 * cpu / len(times):>9.2f}")
        ratio = (len(service_times) / sum(service_times)) / (len(floor_times) / sum(floor_times))
        print(
            f"\nservice / floor, rounds a second: {ratio:.2f}x   (bound >= {BOUND}x: "
            + ("PASS" if ratio >= BOUND else "BELOW")
            + ")"
        )
        print(
            f"mean ms a settle: service {1000 * statistics.fmean(service_times):.2f}, "
            f"floor {1000 * statistics.fmean(floor_times):.2f}"
        )
        close_connections()
        return 0


if __name__ == "__main__":
    sys.exit(main())
