"""``manage.py restore_database FILE --into URL``: restore a backup (``backup_database``, or pg_dump's custom format)
into a new, empty PostgreSQL database, then grant the application's role (``casino.backups``;
docs/operations-backup.md). It refuses a database that holds anything: a restore never writes over data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.backups import BackupRefused, database_from_url, database_restore


class Command(BaseCommand):
    help = (
        "Restore a backup into a new, empty PostgreSQL database (postgres://USER@HOST:PORT/NAME), in one "
        "transaction, and grant the application's role its privileges there."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("backup", type=Path, metavar="FILE", help="the backup (pg_dump's custom format)")
        parser.add_argument(
            "--into",
            required=True,
            metavar="URL",
            help="the new, empty database, as its owner: postgres://OWNER@HOST:PORT/NAME",
        )
        parser.add_argument(
            "--app-role",
            default=settings.TABLESIDE_DB_APP_ROLE,
            metavar="ROLE",
            help="the application's role to grant (default TABLESIDE_DB_APP_ROLE); '' grants none",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        role = (options["app_role"] or "").strip()
        try:
            restored = database_restore(dump=options["backup"], into=database_from_url(options["into"]), app_role=role)
        except BackupRefused as exc:
            raise CommandError(str(exc)) from exc
        last = f", the last written {restored.last_event_at}" if restored.last_event_at else ""
        self.stdout.write(
            f"Restored {options['backup']} into {restored.database}: {restored.tables} tables, "
            f"{restored.audit_events:,} audit events{last}."
        )
        if restored.app_role:
            self.stdout.write(f"{restored.app_role}: {restored.grants} grants and revokes applied.")
        else:
            self.stdout.write(
                "No application role was granted (--app-role, TABLESIDE_DB_APP_ROLE): run "
                "`manage.py db_app_role ROLE` against the new database before the application connects to it."
            )
        self.stdout.write(
            self.style.SUCCESS(
                "Now verify it, with DATABASE_URL naming the new database: manage.py verify_audit, "
                "manage.py verify_ledger --replay, manage.py verify_ratings (docs/operations-backup.md)."
            )
        )
