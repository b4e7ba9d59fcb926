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

from settlement.compute import Line
from settlement.models import LedgerEntry, Posting
from settlement.sql import ledger_insert
from tables.models import Round
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
    return ledger_insert(posting, lines=lines, seat_ids=seat_ids)


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
      unfinished round none, and every wager of a banked round was posted.
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
    return report
