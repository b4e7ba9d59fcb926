"""``manage.py verify_ledger``: every posting balances, every reversal undoes its original, every round is square."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from settlement.ledger import ledger_verify


class Command(BaseCommand):
    help = (
        "Verify the ledger: every posting sums to zero, every reversal and void undoes its original line for "
        "line, every finished round has nothing left on the layout and one settlement in force if settled."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = ledger_verify()
        summary = f"{report.rounds} rounds, {report.postings} postings, {report.entries} ledger entries checked"
        if not report.ok:
            problems = "\n".join(f"  - {problem}" for problem in report.problems)
            raise CommandError(f"The ledger does not verify ({summary}):\n{problems}")
        self.stdout.write(self.style.SUCCESS(f"The ledger verifies: {summary}; every round balances."))
