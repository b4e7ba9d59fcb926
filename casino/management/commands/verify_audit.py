"""``manage.py verify_audit``: check every audit event and hold the log's tree to its signed heads, then hold every
audited record to its last audit event and every kept figure to its rows (``casino.verify``); exit non-zero naming
every broken event, every head the log no longer gives, and every record changed, inserted or removed past the
application. ``--proof FILE`` checks an inclusion or consistency proof (``manage.py audit_proof``) as well.

The checkpoints are the database's, the checkpoint file's (``TABLESIDE_AUDIT_CHECKPOINT_FILE``), every
``--checkpoint-file`` given, and every ``--checkpoint`` copied from a shift report
(``SIZE:ROOT:SEQ:HASH:MADE_AT:KEY:SIGNATURE``, the older ``SEQ:HASH:MADE_AT:KEY:SIGNATURE``, or just ``SEQ:HASH``).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.audit import checkpoint_parse, checkpoints_from_file
from casino.audit_verify import audit_log_verify, audit_proof_check
from casino.verify import records_verify


class Command(BaseCommand):
    help = (
        "Verify every audit event and the audit log's tree against its signed checkpoints, naming every broken event, "
        "then every audited record and kept figure against its audit events."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--checkpoint",
            action="append",
            default=[],
            metavar="[SIZE:ROOT:]SEQ:HASH[:MADE_AT:KEY:SIGNATURE]",
            help="a checkpoint printed in a shift report (repeatable)",
        )
        parser.add_argument(
            "--checkpoint-file",
            action="append",
            default=[],
            metavar="PATH",
            help="another checkpoint file (repeatable)",
        )
        parser.add_argument(
            "--proof",
            action="append",
            default=[],
            metavar="PATH",
            help="an inclusion or consistency proof written by audit_proof, checked too (repeatable)",
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
        for path in options["proof"]:
            try:
                with open(path, encoding="utf-8") as handle:
                    proof = json.load(handle)
            except (OSError, ValueError) as exc:
                raise CommandError(f"{path} is not a proof: {exc}") from exc
            problems = audit_proof_check(proof if isinstance(proof, dict) else {})
            if problems:
                raise CommandError(f"The proof in {path} fails: " + "; ".join(problems) + ".")
            self.stdout.write(f"The {proof['kind']} proof in {path} holds.")
        report = audit_log_verify(checkpoints=checkpoints)
        if not report.ok:
            raise CommandError(report.describe())
        records = records_verify()
        if not records.ok:
            raise CommandError(f"{report.describe()}\n{records.describe()}")
        self.stdout.write(self.style.SUCCESS(f"{report.describe()}\n{records.describe()}"))
