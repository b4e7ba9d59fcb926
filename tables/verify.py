"""What ``verify_ledger`` holds of the table's money: every received slip, buy-in and final drop box posted once,
for its amount, between the right accounts, and no such posting without one; every slip and tray count as its
audit events recorded it. Registered with the ledger's verifier (``ledger.verify``) by ``tables.apps``."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from typing import Any

from django.contrib.auth import get_user_model

from casino.events import AuditEventType
from casino.models import AuditEvent
from ledger.models import TABLE_MONEY_KINDS, LedgerEntry, Posting
from ledger.verify import Findings
from tables.drop import drop_final
from tables.models import BuyIn, DropCount, Slip, TrayCount
from tables.money import MOVES

User = get_user_model()


def table_money_ledger_check(rounds: Collection[int] | None) -> Findings:
    """The table's money, for the ledger's verifier (on the whole ledger only: none of it is on a round)."""
    return Findings(problems=tuple(table_money_check()))


def _expected_postings() -> dict[str, tuple[str, int, int, int]]:
    """What the table's money must have posted, by key: (kind, table id, shift id, cents)."""
    expected: dict[str, tuple[str, int, int, int]] = {}
    for kind, number, table_id, shift_id, total in Slip.objects.filter(status=Slip.Status.RECEIVED).values_list(
        "kind", "number", "table_id", "shift_id", "total_cents"
    ):
        expected[f"slip:{kind}:{number}"] = (kind, table_id, shift_id, total)
    for pk, table_id, shift_id, amount in BuyIn.objects.values_list("pk", "table_id", "shift_id", "amount_cents"):
        expected[f"buy-in:{pk}"] = ("buy_in", table_id, shift_id, amount)
    boxes: dict[tuple[int, int], list[DropCount]] = defaultdict(list)
    for count in DropCount.objects.order_by("counted_at", "pk"):
        boxes[(count.table_id, count.shift_id)].append(count)
    for (table_id, shift_id), counts in boxes.items():
        final = drop_final(counts)
        if final is not None:
            expected[f"drop:{table_id}:{shift_id}"] = (
                "drop",
                table_id,
                shift_id,
                final.cash_cents + final.markers_cents,
            )
    return expected


def table_money_check() -> list[str]:
    """Hold the ledger's table-money postings to what the tables recorded; say what differs.

    Every received slip, every buy-in and every final drop box is posted exactly once (its key), on its table and
    shift, for its amount, out of and into the accounts its movement names (``tables.money.MOVES``); and no
    table-money posting is there without one of them.
    """
    problems: list[str] = []
    expected = _expected_postings()
    table_kinds = list(TABLE_MONEY_KINDS)
    postings = Posting.objects.filter(round_id__isnull=True, kind__in=table_kinds).order_by("pk")
    lines: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for posting_id, account, amount in LedgerEntry.objects.filter(
        posting__round_id__isnull=True, posting__kind__in=table_kinds
    ).values_list("posting_id", "account", "amount_cents"):
        lines[posting_id][account] += amount
    seen: set[str | None] = set()
    for pk, kind, key, table_id, shift_id in postings.values_list(
        "pk", "kind", "idempotency_key", "table_id", "shift_id"
    ):
        name = f"{Posting.Kind(kind).label.capitalize()} posting {pk} ({key})"
        wanted = expected.get(key or "")
        if wanted is None:
            problems.append(f"{name} posts the table's money for nothing the tables recorded.")
            continue
        seen.add(key)
        want_kind, want_table, want_shift, cents = wanted
        source, target = MOVES[want_kind]
        if (kind, table_id, shift_id) != (want_kind, want_table, want_shift):
            problems.append(f"{name} is not on the table and shift of what it posts.")
        if dict(lines[pk]) != {source: -cents, target: cents} and not (cents == 0 and not any(lines[pk].values())):
            problems.append(
                f"{name} does not move {cents} cents from {source} to {target}: its entries are {dict(lines[pk])}."
            )
    for key in sorted(set(expected) - seen):
        problems.append(f"The ledger holds no posting for {key}, which the tables recorded.")
    problems.extend(slips_audit_check())
    problems.extend(tray_counts_audit_check())
    return problems


# What a slip's audit events record of it (``tables.slips._snapshot``) and must still hold: the people by name.
_SLIP_FIELDS = ("kind", "number", "chips", "total_cents", "status", "void_reason")
_SLIP_PEOPLE = ("requested_by", "issued_by", "dealer_signed_by", "supervisor_signed_by", "voided_by")


def _last_recorded(subject_type: str) -> dict[str, tuple[int, Any]]:
    """The last audit event of each subject of ``subject_type``: its seq and what it recorded after."""
    last: dict[str, tuple[int, Any]] = {}
    for seq, subject_id, after in (
        AuditEvent.objects.filter(subject_type=subject_type).order_by("seq").values_list("seq", "subject_id", "after")
    ):
        last[subject_id] = (seq, after)
    return last


def slips_audit_check() -> list[str]:
    """Hold every slip to the last audit event that recorded it: what it asked, where it stands, who issued,
    signed or voided it and why. A change made past the services (and past the database's guards, by the tables'
    owner) is named here, since the keyed audit chain cannot be rewritten to match."""
    problems: list[str] = []
    last = _last_recorded("tables.slip")
    names = dict(User.objects.values_list("pk", "username"))
    for row in Slip.objects.order_by("kind", "number").values("pk", *_SLIP_FIELDS, *(f"{p}_id" for p in _SLIP_PEOPLE)):
        name = f"{row['kind'].capitalize()} slip {row['number']}"
        seq, after = last.get(str(row["pk"]), (None, None))
        if not isinstance(after, dict):
            problems.append(f"{name} has no audit event: it was not written by Tableside's services.")
            continue
        held = {field: row[field] for field in _SLIP_FIELDS}
        held.update({person: names.get(row[f"{person}_id"]) for person in _SLIP_PEOPLE})
        differing = sorted(field for field, value in held.items() if after.get(field) != value)
        if differing:
            problems.append(f"{name} is not as audit event #{seq} recorded it: {', '.join(differing)} changed since.")
    return problems


def tray_counts_audit_check() -> list[str]:
    """Hold every tray count to its audit events: the chips, total and state the last one recorded, who counted
    it (the actor of ``tray.counted``) and who confirmed it (the actor of ``tray.confirmed``)."""
    problems: list[str] = []
    last = _last_recorded("tables.traycount")
    actors: dict[tuple[str, str], int | None] = {
        (subject_id, event_type): actor_id
        for subject_id, event_type, actor_id in AuditEvent.objects.filter(subject_type="tables.traycount").values_list(
            "subject_id", "event_type", "actor_id"
        )
    }
    for row in TrayCount.objects.order_by("pk").values(
        "pk", "kind", "counts", "total_cents", "status", "counted_by_id", "confirmed_by_id", "table__name"
    ):
        name = f"The {row['kind']} of table {row['table__name']} (tray count {row['pk']})"
        key = str(row["pk"])
        seq, after = last.get(key, (None, None))
        if not isinstance(after, dict):
            problems.append(f"{name} has no audit event: it was not written by Tableside's services.")
            continue
        differing = sorted(field for field in ("counts", "total_cents", "status") if after.get(field) != row[field])
        if actors.get((key, AuditEventType.TRAY_COUNTED)) != row["counted_by_id"]:
            differing.append("counted by")
        if row["confirmed_by_id"] is not None and (
            actors.get((key, AuditEventType.TRAY_COUNT_CONFIRMED)) != row["confirmed_by_id"]
        ):
            differing.append("confirmed by")
        if differing:
            problems.append(f"{name} is not as audit event #{seq} recorded it: {', '.join(differing)} changed since.")
    return problems
