"""``manage.py verify_audit``: walk the audit chain and hold it to its checkpoints, then hold every audited record
to its last audit event and every kept figure to its rows (``casino.verify``); exit non-zero at the first broken
event, at any checkpoint the chain no longer reaches, or naming every record changed, inserted or removed past the
application.

The checkpoints are the database's, the checkpoint file's (``TABLESIDE_AUDIT_CHECKPOINT_FILE``), every
``--checkpoint-file`` given, and every ``--checkpoint`` copied from a shift report
(``SEQ:HASH:MADE_AT:KEY:SIGNATURE``, or just ``SEQ:HASH``).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.audit import audit_chain_verify, checkpoint_parse, checkpoints_from_file
from casino.verify import records_verify


class Command(BaseCommand):
    help = (
        "Verify the keyed hash chain of the audit log against its checkpoints and name the first broken event, then "
        "every audited record and kept figure against its audit events."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--checkpoint",
            action="append",
            default=[],
            metavar="SEQ:HASH[:MADE_AT:KEY:SIGNATURE]",
            help="a checkpoint printed in a shift report (repeatable)",
        )
        parser.add_argument(
            "--checkpoint-file",
            action="append",
            default=[],
            metavar="PATH",
            help="another checkpoint file (repeatable)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        checkpoints = []
        for text in options["checkpoint"]:
            try:
                checkpoints.append({**checkpoint_parse(text), "source": f"--checkpoint {text[:24]}…"})
            except ValueError as exc:
                raise CommandError(str(exc)) from exc
        for path in options["checkpoint_file"]:
            found = checkpoints_from_file(path)
            if not found:
                raise CommandError(f"{path} holds no checkpoint (or does not exist).")
            checkpoints.extend(found)
        report = audit_chain_verify(checkpoints=checkpoints)
        if not report.ok:
            raise CommandError(report.describe())
        records = records_verify()
        if not records.ok:
            raise CommandError(f"{report.describe()}\n{records.describe()}")
        self.stdout.write(self.style.SUCCESS(f"{report.describe()}\n{records.describe()}"))
