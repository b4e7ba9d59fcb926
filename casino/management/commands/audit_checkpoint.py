"""``manage.py audit_checkpoint``: fold the events written since into the audit log's tree and sign its head now (the
sequencer does it every few seconds, a shift close too), and print it."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from casino.audit import audit_checkpoint_make, checkpoint_record, checkpoint_text


class Command(BaseCommand):
    help = "Sequence the audit log and sign its tree's head into the database, the checkpoint file and the witnesses."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--reason", default="by hand", help="why (kept with the checkpoint)")

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            checkpoint = audit_checkpoint_make(reason=(options["reason"] or "by hand")[:80])
        if checkpoint is None:
            self.stdout.write("The audit log is empty: nothing to checkpoint.")
            return
        self.stdout.write(checkpoint_text(checkpoint_record(checkpoint)))
