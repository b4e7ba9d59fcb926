"""Proving the ledger: every posting balances, and every app that posts holds its postings to what caused them.

``ledger_verify`` is what ``manage.py verify_ledger`` runs. The ledger checks what is its own (every posting's
entries sum to zero); what a posting must be depends on what moved the money, which the ledger does not know: each
app that posts registers its check here once (``ledger_check_register``, in its ``AppConfig.ready``), and
``ledger_verify`` runs them all in the order they were registered (the apps' order in ``INSTALLED_APPS``). This
registry is the one way the ledger asks the apps above it anything.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field

from django.db.models import Count, Sum

from ledger.models import Posting


@dataclass(frozen=True)
class Findings:
    """What one check found: its ``problems`` (none: it holds) and what it ``counted`` (``{"rounds": 12}``)."""

    problems: tuple[str, ...] = ()
    counted: Mapping[str, int] = field(default_factory=dict)


# A check of the rounds with these ids only, or (None) of the whole ledger.
LedgerCheck = Callable[[Collection[int] | None], Findings]


@dataclass(frozen=True)
class _Registered:
    name: str
    check: LedgerCheck
    scoped: bool  # it can check some rounds only; else it runs on the whole ledger only


_CHECKS: dict[str, _Registered] = {}


def ledger_check_register(name: str, check: LedgerCheck, *, scoped: bool) -> None:
    """Register the check of an app's postings under ``name`` (once; registering a name again replaces it).
    ``scoped``: it can check the postings of some rounds only (``verify_ledger --round``); else it runs only when
    the whole ledger is verified."""
    _CHECKS[name] = _Registered(name, check, scoped)


def ledger_checks() -> list[str]:
    """The names of the registered checks, in the order they run."""
    return list(_CHECKS)


@dataclass
class LedgerReport:
    """What ``ledger_verify`` checked and what it found wrong (``problems`` empty: the ledger is sound)."""

    postings: int = 0
    entries: int = 0
    counted: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def rounds(self) -> int:
        return self.counted.get("rounds", 0)

    @property
    def ok(self) -> bool:
        return not self.problems


def postings_balance(*, rounds: Collection[int] | None = None) -> tuple[int, int, list[str]]:
    """How many postings and entries there are (of the rounds with these ids, or all), and every posting whose
    entries do not sum to zero."""
    postings = Posting.objects.all()
    if rounds is not None:
        postings = postings.filter(round_id__in=list(rounds))
    sums = (
        postings.annotate(total=Sum("entries__amount_cents"), lines=Count("entries"))
        .values_list("pk", "round_id", "kind", "total", "lines")
        .order_by("pk")  # an aggregate ignores the model's ordering: the report's order is made explicit
    )
    count = entries = 0
    problems: list[str] = []
    for pk, round_id, kind, total, lines in sums:
        count += 1
        entries += lines
        if (total or 0) != 0:
            problems.append(
                f"Posting {pk} ({kind}) on round id {round_id} does not balance: its entries sum to {total} cents."
            )
    return count, entries, problems


def ledger_verify(*, rounds: Collection[int] | None = None) -> LedgerReport:
    """Check the whole ledger (or the postings of the rounds with these ids) and say what does not hold: every
    posting balances, then every registered check (``ledger_check_register``; on some rounds, the scoped ones)."""
    report = LedgerReport()
    report.postings, report.entries, problems = postings_balance(rounds=rounds)
    report.problems.extend(problems)
    for registered in _CHECKS.values():
        if rounds is not None and not registered.scoped:
            continue
        findings = registered.check(rounds)
        report.problems.extend(findings.problems)
        for what, number in findings.counted.items():
            report.counted[what] = report.counted.get(what, 0) + number
    return report
