"""``manage.py archive_gaming_day YYYY-MM-DD --out DIR [--zip]``: write the signed archive of a closed gaming day
(``pit.archive``; docs/archive.md) into DIR, as ``DIR/tableside-gaming-day-YYYY-MM-DD/`` (and its .zip).

Refused, exiting non-zero with nothing written, for an unknown or open day, when DIR already holds the day's archive,
or when what it would hold does not verify.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from pit.archive.bundle import VERIFIER, ArchiveRefused, gaming_day_archive


class Command(BaseCommand):
    help = "Write the signed archive of a closed gaming day: its records, reports, audit events and their proofs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("business_date", metavar="YYYY-MM-DD", help="the gaming day's business date")
        parser.add_argument("--out", required=True, metavar="DIR", help="the directory to write the archive into")
        parser.add_argument("--zip", action="store_true", help="also write the archive as one .zip beside it")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            business_date = dt.date.fromisoformat(options["business_date"])
        except ValueError:
            raise CommandError(
                f"Give the gaming day's business date as YYYY-MM-DD (2026-03-01), not {options['business_date']!r}."
            ) from None
        try:
            written = gaming_day_archive(business_date=business_date, out=Path(options["out"]), zip_too=options["zip"])
        except ArchiveRefused as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"The archive of gaming day {business_date.isoformat()} is in {written.path}/")
        if written.zip_path is not None:
            self.stdout.write(f"and, as one file, {written.zip_path}")
        self.stdout.write(f"{written.files} files, the manifest signed with the audit key {written.key_id!r}. It holds")
        for line in written.held:
            self.stdout.write(f"  {line}")
        self.stdout.write(
            f"An auditor verifies it with Python 3 alone: python3 {written.path / VERIFIER} {written.path} "
            f"--key {written.key_id}:SECRET"
        )
