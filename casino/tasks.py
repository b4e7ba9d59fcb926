"""Celery tasks of the ground. Each takes plain arguments and calls a service or selector."""

from __future__ import annotations

from celery import shared_task

from casino.audit import audit_chain_verify


@shared_task(name="casino.audit_chain_verify")
def audit_chain_verify_task() -> dict[str, object]:
    """Verify the whole audit chain; return what an auditor needs to sign it off."""
    report = audit_chain_verify()
    return {
        "ok": report.ok,
        "events_checked": report.events_checked,
        "broken_seq": report.broken_event.seq if report.broken_event else None,
        "message": report.describe(),
    }
