"""``manage.py audit_checkpoints_held OLD --out NEW``: after a restore to an earlier point, write the lines of the
checkpoint file OLD whose signed heads this database holds to NEW (the restored database's own checkpoint file), and
name the heads it lost: the events signed after the restore point (``casino.backups``; docs/operations-backup.md).
OLD is left as it is: keep it, it is the record of what the restore lost."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.backups import BackupRefused, checkpoints_held_split


class Command(BaseCommand):
    help = (
        "Write the checkpoints of OLD that this database holds to NEW, and name the ones it lost (after a restore "
        "to an earlier point). OLD is not changed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("source", type=Path, metavar="OLD", help="the checkpoint file written before the restore")
        parser.add_argument("--out", required=True, type=Path, metavar="NEW", help="the new checkpoint file (new)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            split = checkpoints_held_split(source=options["source"], out=options["out"])
        except BackupRefused as exc:
            raise CommandError(str(exc)) from exc
        source, out = options["source"], options["out"]
        held = "is a head" if split.held == 1 else "are heads"
        self.stdout.write(f"{_checkpoints(split.held)} of {source} {held} this database holds: written to {out}.")
        if split.malformed:
            self.stdout.write(f"{split.malformed} line(s) of {source} are not checkpoints: left out.")
        if not split.lost:
            self.stdout.write(self.style.SUCCESS("This database holds every head of the file: nothing was lost."))
            return
        last = split.lost[-1]
        signs = "signs a head" if len(split.lost) == 1 else "sign heads"
        self.stdout.write(
            self.style.WARNING(
                f"{_checkpoints(len(split.lost))} of {source} {signs} this database does not hold: the last signs "
                f"{last.get('tree_size', 0)} leaves (up to event #{last['seq']}, at {last['made_at']}); this "
                f"database's tree holds {split.leaves}. Record it with the restore and keep {source} as it is. Before "
                f"the floor writes again, `manage.py audit_checkpoint` (signing the events the backup holds that no "
                f"head held yet), then `manage.py verify_audit --checkpoint-file {source}` names the leaves lost."
            )
        )


def _checkpoints(number: int) -> str:
    return f"{number} checkpoint" if number == 1 else f"{number} checkpoints"
