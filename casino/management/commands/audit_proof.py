"""``manage.py audit_proof EVENT``: prove that audit event EVENT is in a signed head of the log (an inclusion proof),
or with ``--from N`` that the latest signed head (or ``--to M``) extends the one of N leaves (a consistency proof).

The proof is JSON, written to ``--out`` or printed: ``python casino/merkle.py PROOF`` checks it with the Python
standard library alone (``--key KEY_ID=SECRET`` to check the signatures too), ``manage.py verify_audit --proof``
against this installation.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.audit_verify import ProofRefused, audit_consistency_proof, audit_inclusion_proof


class Command(BaseCommand):
    help = "Write an inclusion proof for one audit event, or a consistency proof between two signed heads."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", nargs="?", type=int, help="the audit event's number (#N)")
        parser.add_argument("--checkpoint-size", type=int, help="prove against the head of this many leaves")
        parser.add_argument("--from", dest="first", type=int, metavar="N", help="consistency from the head of N leaves")
        parser.add_argument("--to", dest="second", type=int, metavar="M", help="…to the head of M leaves (latest)")
        parser.add_argument("--out", metavar="PATH", help="write the proof here instead of printing it")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["first"] is not None:
                proof = audit_consistency_proof(options["first"], options["second"])
            elif options["event"] is not None:
                proof = audit_inclusion_proof(options["event"], tree_size=options["checkpoint_size"])
            else:
                raise CommandError("Name an audit event (audit_proof 812), or --from N for a consistency proof.")
        except ProofRefused as exc:
            raise CommandError(str(exc)) from exc
        text = json.dumps(proof, indent=2, sort_keys=True)
        if options["out"]:
            with open(options["out"], "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
            self.stdout.write(f"The {proof['kind']} proof is in {options['out']}.")
        else:
            self.stdout.write(text)
