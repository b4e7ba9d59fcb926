"""``manage.py verify_ledger``: every posting balances, every reversal undoes its original, every round is square.

``--replay`` also settles every settled round again from its hands, wagers and frozen rules and compares
the answer with its postings to the cent (``settlement.replay``).
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from ledger.verify import ledger_verify
from settlement.replay import ledger_replay


class Command(BaseCommand):
    help = (
        "Verify the ledger: every posting sums to zero, every reversal and void undoes its original line for "
        "line, every finished round has nothing left on the layout and one settlement in force if settled. "
        "With --replay, also settle every round again and compare it with its postings to the cent."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--replay",
            action="store_true",
            help="also recompute every settlement from its hands, wagers and frozen rules and compare it with the "
            "postings, and every wager posting with its wager",
        )
        parser.add_argument(
            "--round",
            dest="rounds",
            type=int,
            action="append",
            metavar="ID",
            help="check only the round with this id (repeat for more rounds)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        rounds = options.get("rounds") or None
        failures = []
        report = ledger_verify(rounds=rounds)
        summary = f"{report.rounds} rounds, {report.postings} postings, {report.entries} ledger entries checked"
        if report.ok:
            self.stdout.write(self.style.SUCCESS(f"The ledger verifies: {summary}; every round balances."))
        else:
            failures.append(f"The ledger does not verify ({summary}):\n{_listed(report.problems)}")
        if options.get("replay"):
            replayed = ledger_replay(rounds=rounds)
            summary = (
                f"{_count(replayed.rounds, 'settled round')} recomputed ({_count(replayed.settlements, 'settlement')}, "
                f"{_count(replayed.wagers, 'wager posting')})"
            )
            if replayed.ok:
                self.stdout.write(
                    self.style.SUCCESS(f"Replay: {summary}; every settlement matches its postings to the cent.")
                )
            else:
                failures.append(
                    f"The replay found {_count(len(replayed.problems), 'difference')} ({summary}):\n"
                    f"{_listed(replayed.problems)}"
                )
        if failures:
            raise CommandError("\n".join(failures))


def _listed(problems: list[str]) -> str:
    return "\n".join(f"  - {problem}" for problem in problems)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
