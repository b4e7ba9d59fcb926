"""Posting to the ledger, and proving it: every posting balances, every round comes back to zero on the layout.

``post`` is the one writer of ``LedgerEntry`` rows (its statements are in ``settlement.sql``).
``ledger_verify`` is what ``manage.py verify_ledger`` runs.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Q, Sum

from casino.events import AuditEventType
from casino.models import AuditEvent
from settlement.compute import Line
from settlement.models import LedgerEntry, Posting, Wager
from settlement.sql import ledger_insert
from tables.models import Round, Seat
from tables.states import RoundState


def post(
    *,
    round: Round,
    kind: str,
    lines: Iterable[Line],
    actor: AbstractBaseUser | None,
    seat_ids: Mapping[int, int],
    idempotency_key: str | None = None,
    **fields: Any,
) -> Posting:
    """Write one posting and its entries (``lines``, which must sum to zero); ``seat_ids`` maps seat numbers to ids."""
    lines = list(lines)
    total = sum(line.amount for line in lines)
    if total != 0:
        raise ValueError(f"a posting must balance; these lines sum to {total} cents")
    if actor is not None and not actor.is_authenticated:
        actor = None
    posting = Posting(round=round, kind=kind, idempotency_key=idempotency_key, actor=actor, **fields)
    posting = ledger_insert(posting, lines=lines, seat_ids=seat_ids)
    posting.lines = tuple(lines)  # type: ignore[attr-defined]  # for posting_record, in the same transaction
    return posting


def posting_record(posting: Posting) -> dict[str, Any]:
    """A posting as the audit event that caused it records it: its id, kind and every line (account, seat
    number, cents, kind). ``ledger_audit_check`` holds the stored entries to it, and the event's keyed hash
    holds it: neither record can change without the other showing it."""
    lines: tuple[Line, ...] = posting.lines  # type: ignore[attr-defined]
    record: dict[str, Any] = {
        "id": posting.pk,
        "kind": posting.kind,
        "lines": [[line.account, line.seat, line.amount, line.kind] for line in lines],
    }
    return record


def reversal_lines(entries: Iterable[LedgerEntry], seat_numbers: Mapping[int, int]) -> list[Line]:
    """Lines that undo ``entries`` exactly: the same accounts and seats, the amounts negated."""
    return [
        Line(entry.account, seat_numbers[entry.seat_id] if entry.seat_id else None, -entry.amount_cents, "reversal")
        for entry in entries
    ]


@dataclass
class LedgerReport:
    """What ``ledger_verify`` checked and what it found wrong (``problems`` empty: the ledger is sound)."""

    postings: int = 0
    entries: int = 0
    rounds: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _key(entry: Mapping[str, Any]) -> tuple[str, int | None, int]:
    return (entry["account"], entry["seat_id"], entry["amount_cents"])


def ledger_verify(*, rounds: Iterable[int] | None = None) -> LedgerReport:
    """Check the whole ledger (or the rounds with these ids) and say what does not hold.

    * every posting's entries sum to zero;
    * every reversal (and every void) matches the entries it undoes, line for line, negated;
    * a round's chips on the layout (``wagers``) equal its wagers while it is in play and
      are back to zero once it is settled or voided;
    * a settled round has exactly one settlement in force (not reversed), a voided or
      unfinished round none, and every wager of a banked round was posted;
    * every posting and every wager is the one the audit event that caused it recorded, line for line
      (``ledger_audit_check``).
    """
    report = LedgerReport()
    postings = Posting.objects.all()
    if rounds is not None:
        postings = postings.filter(round_id__in=list(rounds))
    sums = (
        postings.annotate(total=Sum("entries__amount_cents"), lines=Count("entries"))
        .values("pk", "round_id", "kind", "total", "lines", "reverses_id")
        .order_by("pk")  # an aggregate ignores the model's ordering: the report's order is made explicit
    )
    for posting in sums:
        report.postings += 1
        report.entries += posting["lines"]
        if (posting["total"] or 0) != 0:
            report.problems.append(
                f"Posting {posting['pk']} ({posting['kind']}) on round id {posting['round_id']} "
                f"does not balance: its entries sum to {posting['total']} cents."
            )
    entries = LedgerEntry.objects.all() if rounds is None else LedgerEntry.objects.filter(round_id__in=list(rounds))
    by_posting: dict[int, Counter[tuple[str, int | None, int]]] = defaultdict(Counter)
    for entry in entries.values("posting_id", "account", "seat_id", "amount_cents"):
        by_posting[entry["posting_id"]][_key(entry)] += 1
    wager_postings = defaultdict(list)
    for posting in sums:
        if posting["kind"] == Posting.Kind.WAGER:
            wager_postings[posting["round_id"]].append(posting["pk"])
    for posting in sums:
        if posting["kind"] == Posting.Kind.REVERSAL:
            undone = [posting["reverses_id"]]
        elif posting["kind"] == Posting.Kind.VOID:
            undone = wager_postings[posting["round_id"]]
        else:
            continue
        expected: Counter[tuple[str, int | None, int]] = Counter()
        for original in undone:
            for (account, seat, amount), count in by_posting[original].items():
                expected[(account, seat, -amount)] += count
        if by_posting[posting["pk"]] != expected:
            report.problems.append(
                f"{posting['kind'].capitalize()} posting {posting['pk']} on round id {posting['round_id']} "
                f"does not undo posting(s) {', '.join(map(str, undone))} line for line."
            )
    round_rows = Round.objects.all() if rounds is None else Round.objects.filter(pk__in=list(rounds))
    round_rows = (
        round_rows.annotate(
            layout=Sum("ledger_entries__amount_cents", filter=Q(ledger_entries__account="wagers")),
        )
        .select_related("table")
        .order_by("pk")
    )
    in_force = Counter(
        postings.filter(kind=Posting.Kind.SETTLEMENT, reversed_by__isnull=True).values_list("round_id", flat=True)
    )
    voids = Counter(postings.filter(kind=Posting.Kind.VOID).values_list("round_id", flat=True))
    staked = dict(
        Round.objects.filter(pk__in=[r.pk for r in round_rows])
        .annotate(staked=Sum("wagers__amount_cents"))
        .values_list("pk", "staked")
    )
    for round_ in round_rows:
        report.rounds += 1
        name = f"Round {round_.number} at table {round_.table.name}"
        layout = round_.layout or 0
        banked = round_.rule_set_snapshot["banking_mode"] != "none"
        if round_.state in (RoundState.SETTLED, RoundState.VOIDED):
            if layout != 0:
                report.problems.append(f"{name} is {round_.state} but {layout} cents are still on the layout.")
        elif banked and layout != (staked.get(round_.pk) or 0):
            report.problems.append(
                f"{name} holds {staked.get(round_.pk) or 0} cents of wagers but {layout} cents on the layout."
            )
        settled = in_force[round_.pk]
        if round_.state == RoundState.SETTLED and settled != 1:
            report.problems.append(f"{name} is settled but has {settled} settlements in force (one expected).")
        if round_.state != RoundState.SETTLED and settled:
            report.problems.append(f"{name} is {round_.state} but has a settlement in force.")
        if round_.state == RoundState.VOIDED and banked and staked.get(round_.pk) and voids[round_.pk] != 1:
            report.problems.append(f"{name} is voided but its wagers were not returned by one void posting.")
    report.problems.extend(ledger_audit_check(rounds=rounds))
    return report


# The events that move money, each naming the postings it wrote (``posting_record``).
MONEY_EVENTS = (
    AuditEventType.WAGER_PLACED,
    AuditEventType.ROUND_SETTLED,
    AuditEventType.ROUND_VOIDED,
    AuditEventType.SETTLEMENT_CORRECTED,
)

_Lines = Counter[tuple[str, int | None, int, str]]


def _recorded(after: Any) -> list[Mapping[str, Any]]:
    if not isinstance(after, Mapping):
        return []
    found = after.get("postings") or (after.get("money") or {}).get("postings") or []
    return [p for p in found if isinstance(p, Mapping) and "id" in p]


def ledger_audit_check(*, rounds: Iterable[int] | None = None) -> list[str]:
    """Hold the ledger and the wagers to the audit events that wrote them; say what differs.

    Each money event (``MONEY_EVENTS``) records the postings it wrote, line for line, and a wager's
    event its amount. A posting or a wager with no event, an event whose posting is gone, and entries or an
    amount that are not what the event recorded are each named. Postings and wagers older than the first
    one an event recorded were written before money was audited (a note, not a problem).
    """
    round_ids = None if rounds is None else set(rounds)
    recorded: dict[int, tuple[int, str, _Lines, Any]] = {}
    wager_events: dict[int, tuple[int, int]] = {}
    for seq, event_type, subject_id, after in (
        AuditEvent.objects.filter(event_type__in=[e.value for e in MONEY_EVENTS])
        .order_by("seq")
        .values_list("seq", "event_type", "subject_id", "after")
        .iterator(chunk_size=5000)
    ):
        if event_type == AuditEventType.WAGER_PLACED and isinstance(after, Mapping) and subject_id.isdigit():
            wager_events[int(subject_id)] = (seq, after.get("amount_cents"))
        # A settlement's event records the hands it settled (the round's, or the correction's): the replay
        # recomputes the settlement from the posting's own copy, which must be the same.
        settled_hands = after.get("hands") if isinstance(after, Mapping) else None
        for posting in _recorded(after):
            lines: _Lines = Counter(tuple(line) for line in posting.get("lines", ()))  # type: ignore[misc]
            kind = str(posting.get("kind"))
            hands = settled_hands if kind == Posting.Kind.SETTLEMENT else None
            recorded[int(posting["id"])] = (seq, kind, lines, hands)
    problems: list[str] = []
    numbers = dict(Seat.objects.values_list("pk", "number"))
    postings, entries, wagers = Posting.objects.all(), LedgerEntry.objects.all(), Wager.objects.all()
    if round_ids is not None:
        postings, entries, wagers = (
            postings.filter(round_id__in=round_ids),
            entries.filter(round_id__in=round_ids),
            wagers.filter(round_id__in=round_ids),
        )
    found: dict[int, _Lines] = defaultdict(Counter)
    for posting_id, account, seat_id, amount, kind in entries.values_list(
        "posting_id", "account", "seat_id", "amount_cents", "kind"
    ).iterator(chunk_size=5000):
        found[posting_id][(account, numbers.get(seat_id) if seat_id else None, amount, kind)] += 1
    first_audited = min(recorded, default=None)
    seen: set[int] = set()
    for pk, kind_stored, round_id, hands in (
        postings.order_by("pk").values_list("pk", "kind", "round_id", "hands").iterator(chunk_size=2000)
    ):
        seen.add(pk)
        if pk not in recorded:
            if first_audited is not None and pk > first_audited:
                problems.append(f"{_posting_name(pk, kind_stored, round_id)} has no audit event: it was not written "
                                "by Tableside's services.")  # fmt: skip
            continue
        seq, kind, lines, recorded_hands = recorded[pk]
        if kind != kind_stored:
            problems.append(f"{_posting_name(pk, kind_stored, round_id)} is recorded as a {kind} posting by audit "
                            f"event #{seq}.")  # fmt: skip
        if found[pk] != lines:
            problems.append(
                f"{_posting_name(pk, kind_stored, round_id)} does not hold the entries audit event #{seq} recorded: "
                f"recorded {_lines_text(lines - found[pk])}, found {_lines_text(found[pk] - lines)}."
            )
        if recorded_hands is not None and recorded_hands != hands:
            problems.append(
                f"{_posting_name(pk, kind_stored, round_id)} does not hold the hands audit event #{seq} recorded "
                "settling: they were changed after the settlement."
            )
    missing = [pk for pk in recorded if pk not in seen]
    if round_ids is not None and missing:  # outside the rounds looked at, or gone
        missing = sorted(set(missing) - set(Posting.objects.filter(pk__in=missing).values_list("pk", flat=True)))
    for posting_id in sorted(missing):
        seq, kind, _lines, _hands = recorded[posting_id]
        problems.append(f"Audit event #{seq} recorded {kind} posting {posting_id}, which the ledger no longer holds.")
    first_wager = min(wager_events, default=None)
    for pk, amount_stored, round_id, seat_id in (
        wagers.order_by("pk").values_list("pk", "amount_cents", "round_id", "seat_id").iterator(chunk_size=5000)
    ):
        if pk not in wager_events:
            if first_wager is not None and pk > first_wager:
                problems.append(f"{_wager_name(pk, round_id, numbers.get(seat_id))} has no audit event: it was not "
                                "taken by Tableside's services.")  # fmt: skip
            continue
        seq, amount = wager_events[pk]
        if amount != amount_stored:
            problems.append(
                f"{_wager_name(pk, round_id, numbers.get(seat_id))} holds {amount_stored} cents, but audit event "
                f"#{seq} recorded {amount} cents taken."
            )
    return problems


def _round_name(round_id: int) -> str:
    found = Round.objects.filter(pk=round_id).values_list("number", "table__name").first()
    return f"round {found[0]} at table {found[1]}" if found else "a round that no longer exists"


def _posting_name(pk: int, kind: str, round_id: int) -> str:
    """How a problem names a posting (read only for the postings that have one)."""
    return f"{Posting.Kind(kind).label.capitalize()} posting {pk} on {_round_name(round_id)} (round id {round_id})"


def _wager_name(pk: int, round_id: int, seat: int | None) -> str:
    return f"The wager on seat {seat} of {_round_name(round_id)} (wager id {pk})"


def _lines_text(lines: _Lines) -> str:
    if not lines:
        return "nothing else"
    parts = []
    for (account, seat, amount, kind), count in sorted(lines.items(), key=str):
        who = f" seat {seat}" if seat is not None else ""
        parts.append(f"{account}{who} {amount:+d} ({kind})" + (f" ×{count}" if count > 1 else ""))
    return ", ".join(parts)
