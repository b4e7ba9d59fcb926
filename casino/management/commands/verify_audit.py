"""``manage.py verify_audit``: walk the audit chain; exit non-zero at the first broken event."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino.audit import audit_chain_verify


class Command(BaseCommand):
    help = "Verify the SHA-256 chain of the audit log and name the first broken event."

    def handle(self, *args: Any, **options: Any) -> None:
        report = audit_chain_verify()
        if not report.ok:
            raise CommandError(report.describe())
        self.stdout.write(self.style.SUCCESS(report.describe()))
