"""``manage.py backup_database --out FILE``: back up the database the settings name (``DATABASE_URL``) with pg_dump,
in its custom format, and the audit checkpoint file beside it (``casino.backups``; docs/operations-backup.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.backups import BackupRefused, database_backup


class Command(BaseCommand):
    help = (
        "Back up the database (pg_dump, custom format) to FILE, and the audit checkpoint file to "
        "FILE.checkpoints.jsonl beside it. Keep the audit keys apart from both."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", required=True, type=Path, metavar="FILE", help="the backup to write (new)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            backup = database_backup(out=options["out"])
        except BackupRefused as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"Backed up {backup.database} to {backup.dump} ({backup.dump_bytes:,} bytes).")
        if backup.checkpoints is None:
            self.stdout.write(
                "There is no audit checkpoint file to copy (TABLESIDE_AUDIT_CHECKPOINT_FILE): the checkpoints are in "
                "the database and the shift reports only."
            )
        else:
            self.stdout.write(
                f"Copied {backup.checkpoint_lines} audit checkpoints to {backup.checkpoints}: every one is a head "
                "this backup holds."
            )
        self.stdout.write(
            self.style.SUCCESS(
                "Store both away from this machine; the audit keys (TABLESIDE_AUDIT_KEYS) go elsewhere, never with "
                "the backup."
            )
        )
