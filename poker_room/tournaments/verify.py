"""The poker room's part of ``verify_ledger``: the tournaments' postings held to the rows that caused them.

Registered with the ledger's verifier (``ledger.verify``) by ``poker_room.apps``: ``ledger_verify`` runs it on the
whole ledger. That every posting balances and is the one its
audit event recorded is checked there, for every posting; here, what only the poker room knows:

* every ``Purchase`` has its payment posting (by its key), with exactly its lines, and names it; a payment of nothing
  has none;
* every elimination's prize and bounty were posted once, for their amounts, and the row names the prize's posting
  (else the bounty's); every undone elimination's postings were reversed line for line, the row naming the reversal,
  and no bust in force is reversed;
* a prize pool made final below its guarantee posted the overlay once; no other overlay;
* no tournament posting is there without one of those rows;
* a finished tournament's prize pool and bounties hold nothing;
* the deals, Open-Face hands and heads-up matches agree with their audit events and the rules
  (``poker_room.tournaments.verify_records``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from ledger.lines import Line
from ledger.models import TOURNAMENT_KINDS, LedgerEntry, Posting
from ledger.verify import Findings
from poker_room.tournaments import money
from poker_room.tournaments.models import Elimination, Purchase, Tournament
from poker_room.tournaments.verify_records import tournament_records_check

_Lines = Counter[tuple[str, int]]


@dataclass(frozen=True)
class _Posting:
    """A tournament posting as the checks read it: its kind, its lines (account, cents) and the posting it
    reverses."""

    pk: int
    kind: str
    lines: _Lines
    reverses: int | None


def _lines(lines: list[Line]) -> _Lines:
    return Counter((line.account, line.amount) for line in lines)


class _Ledger:
    """The tournaments' postings by key, with their lines (account, cents) and the posting each reverses."""

    def __init__(self) -> None:
        self.by_key: dict[str, _Posting] = {}
        lines: dict[int, _Lines] = defaultdict(Counter)
        for posting_id, account, amount in LedgerEntry.objects.filter(
            posting__kind__in=list(TOURNAMENT_KINDS)
        ).values_list("posting_id", "account", "amount_cents"):
            lines[posting_id][(account, amount)] += 1
        for pk, kind, key, reverses_id in (
            Posting.objects.filter(kind__in=list(TOURNAMENT_KINDS))
            .order_by("pk")
            .values_list("pk", "kind", "idempotency_key", "reverses_id")
        ):
            assert key is not None  # the poker room's postings are keyed (the ledger's constraint)
            self.by_key[key] = _Posting(pk, kind, lines[pk], reverses_id)
        self.lines_of: dict[int, _Lines] = {found.pk: found.lines for found in self.by_key.values()}
        self.expected: set[str] = set()
        self.problems: list[str] = []

    def holds(self, name: str, key: str, kind: str, lines: list[Line]) -> int | None:
        """Check that ``key`` posts exactly ``lines`` as ``kind`` (nothing, when ``lines`` is empty); its id."""
        found = self.by_key.get(key)
        if not lines:
            if found is not None:
                self.expected.add(key)
                self.problems.append(f"{name} pays nothing, but posting {found.pk} ({key}) posts for it.")
            return None
        self.expected.add(key)
        if found is None:
            self.problems.append(f"{name} has no posting in the ledger ({key}).")
            return None
        if found.kind != kind:
            self.problems.append(f"Posting {found.pk} ({key}) for {name} is a {found.kind} posting, not {kind}.")
        if found.lines != _lines(lines):
            want = ", ".join(f"{account} {amount:+d}" for account, amount in sorted(_lines(lines)))
            have = ", ".join(f"{account} {amount:+d}" for account, amount in sorted(found.lines))
            self.problems.append(
                f"Posting {found.pk} ({key}) does not hold what {name} posts: expected {want}, found {have}."
            )
        return found.pk

    def reversal_of(self, tournament_id: int, posting_id: int) -> _Posting | None:
        return self.by_key.get(money.undo_key(tournament_id, posting_id=posting_id))


def _ordinals(rows: list[tuple[int, tuple[Any, ...]]]) -> dict[int, int]:
    """Row id → which of its group it is (1-based, by id): a purchase among its entry's of its kind, an elimination
    among its entry's placings."""
    seen: Counter[tuple[Any, ...]] = Counter()
    result = {}
    for pk, group in sorted(rows):
        seen[group] += 1
        result[pk] = seen[group]
    return result


def _purchases_check(ledger: _Ledger) -> None:
    rows = list(
        Purchase.objects.values_list(
            "pk",
            "tournament_id",
            "entry_id",
            "entry__number",
            "kind",
            "prize_cents",
            "fee_cents",
            "bounty_cents",
            "posting_id",
        )
    )
    ordinals = _ordinals([(row[0], (row[2], row[4])) for row in rows])
    for pk, tournament_id, _entry_id, number, kind, prize, fee, bounty, posting_id in rows:
        name = f"Purchase {pk} (the {kind} of entry #{number} in tournament {tournament_id})"
        key = money.purchase_key(tournament_id, entry_number=number, kind=kind, ordinal=ordinals[pk])
        lines = money.purchase_lines(prize_cents=prize, fee_cents=fee, bounty_cents=bounty)
        found = ledger.holds(name, key, Posting.Kind.T_ENTRY, lines)
        if lines and found is not None and posting_id != found:
            ledger.problems.append(f"{name} names posting {posting_id}, not its payment's posting {found}.")
        if not lines and posting_id is not None:
            ledger.problems.append(f"{name} pays nothing but names posting {posting_id}.")


def _eliminations_check(ledger: _Ledger) -> None:
    rows = list(
        Elimination.objects.values_list(
            "pk",
            "tournament_id",
            "entry_id",
            "entry__number",
            "place",
            "status",
            "prize_cents",
            "bounty_paid_cents",
            "posting_id",
            "undo_posting_id",
        )
    )
    ordinals = _ordinals([(row[0], (row[2],)) for row in rows])
    for pk, tournament_id, _entry_id, number, place, status, prize, bounty, posting_id, undo_id in rows:
        name = f"Elimination {pk} (entry #{number}, place {place}, tournament {tournament_id})"
        placing = ordinals[pk]
        prize_id = ledger.holds(
            f"the prize of {name}",
            money.prize_key(tournament_id, entry_number=number, ordinal=placing),
            Posting.Kind.T_PRIZE,
            money.prize_lines(prize),
        )
        bounty_id = ledger.holds(
            f"the bounty of {name}",
            money.bounty_key(tournament_id, entry_number=number, ordinal=placing),
            Posting.Kind.T_BOUNTY,
            money.bounty_lines(bounty),
        )
        named = prize_id if prize_id is not None else bounty_id
        if posting_id != named:
            ledger.problems.append(f"{name} names posting {posting_id}, not {named}.")
        undone = status == Elimination.Status.UNDONE
        reversals: dict[int, int | None] = {}
        for original in (prize_id, bounty_id):
            if original is None:
                continue
            reversal = ledger.reversal_of(tournament_id, original)
            reversals[original] = None if reversal is None else reversal.pk
            key = money.undo_key(tournament_id, posting_id=original)
            if not undone:
                if reversal is not None:
                    ledger.expected.add(key)
                    ledger.problems.append(f"{name} is in force, but its posting {original} is reversed.")
                continue
            ledger.expected.add(key)
            if reversal is None:
                ledger.problems.append(f"{name} is undone, but its posting {original} was never reversed.")
                continue
            negated = Counter(
                {(account, -amount): count for (account, amount), count in ledger.lines_of[original].items()}
            )
            if reversal.kind != Posting.Kind.T_REVERSAL or reversal.reverses != original:
                ledger.problems.append(f"Posting {reversal.pk} ({key}) is not the reversal of posting {original}.")
            elif reversal.lines != negated:
                ledger.problems.append(
                    f"Reversal posting {reversal.pk} ({key}) does not undo posting {original} line for line."
                )
        if undone and named is not None and undo_id != reversals.get(named):
            ledger.problems.append(f"{name} names reversal {undo_id}, not {reversals.get(named)}.")
        if not undone and undo_id is not None:
            ledger.problems.append(f"{name} is in force but names reversal {undo_id}.")


def _tournaments_check(ledger: _Ledger) -> None:
    balances: dict[tuple[int, str], int] = defaultdict(int)
    for key, found in ledger.by_key.items():
        tournament_id = _tournament_of(key)
        if tournament_id is None:
            continue
        for (account, amount), count in found.lines.items():
            balances[(tournament_id, account)] += amount * count
    for pk, name, status, pool_locked_at, overlay in Tournament.objects.values_list(
        "pk", "name", "status", "pool_locked_at", "overlay_cents"
    ):
        if pool_locked_at is None and overlay:
            ledger.problems.append(f"Tournament {pk} ({name}) records an overlay before its prize pool is final.")
        ledger.holds(
            f"the overlay of tournament {pk} ({name})",
            money.overlay_key(pk),
            Posting.Kind.T_OVERLAY,
            money.overlay_lines(overlay),
        )
        if status == Tournament.Status.FINISHED:
            for account, what in ((money.PRIZE_POOL, "prize pool"), (money.BOUNTIES, "bounties")):
                left = balances[(pk, account)]
                if left:
                    ledger.problems.append(
                        f"Tournament {pk} ({name}) has finished, but its {what} still holds {left} cents."
                    )


def _tournament_of(key: str) -> int | None:
    parts = key.split(":")
    if len(parts) > 2 and parts[0] == "tournament" and parts[1].isdecimal():
        return int(parts[1])
    return None


def tournament_ledger_check(rounds: Collection[int] | None) -> Findings:
    """The tournaments' postings held to their purchases, eliminations and prize pools (the module's docstring), for
    the ledger's verifier (on the whole ledger only: none of them is on a round)."""
    ledger = _Ledger()
    _purchases_check(ledger)
    _eliminations_check(ledger)
    _tournaments_check(ledger)
    for key in sorted(set(ledger.by_key) - ledger.expected, key=lambda key: ledger.by_key[key].pk):
        found = ledger.by_key[key]
        ledger.problems.append(f"Posting {found.pk} ({found.kind}, {key}) posts tournament money for nothing recorded.")
    # The deals, Open-Face hands and heads-up matches held to their audit events and to the rules.
    return Findings(problems=(*ledger.problems, *tournament_records_check()))
