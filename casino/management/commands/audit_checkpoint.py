"""``manage.py audit_checkpoint``: sign the audit chain's head now (a shift close does it too), and print it."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from casino.audit import audit_checkpoint_make, checkpoint_record, checkpoint_text


class Command(BaseCommand):
    help = "Sign the audit chain's head (sequence number and hash) into the database and the checkpoint file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--reason", default="by hand", help="why (kept with the checkpoint)")

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            checkpoint = audit_checkpoint_make(reason=(options["reason"] or "by hand")[:80])
        if checkpoint is None:
            self.stdout.write("The audit chain is empty: nothing to checkpoint.")
            return
        self.stdout.write(checkpoint_text(checkpoint_record(checkpoint)))
