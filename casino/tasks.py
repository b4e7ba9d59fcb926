"""Celery tasks of the ground. Each takes plain arguments and calls a service or selector."""

from __future__ import annotations

from celery import shared_task
from django.db import transaction

from casino.audit import audit_checkpoint_make
from casino.audit_verify import audit_log_verify
from casino.idempotency import idempotency_keys_expire
from casino.outbox import outbox_flush


@shared_task(name="casino.audit_log_verify")
def audit_log_verify_task() -> dict[str, object]:
    """Verify the whole audit chain; return what an auditor needs to sign it off."""
    report = audit_log_verify()
    return {
        "ok": report.ok,
        "events_checked": report.events_checked,
        "broken_seq": report.broken_event.seq if report.broken_event else None,
        "message": report.describe(),
    }


@shared_task(name="casino.audit_sequence")
def audit_sequence_task() -> dict[str, object]:
    """Fold the events written since into the log's tree and sign its head, if any was (Celery beat, every
    ``TABLESIDE_AUDIT_ANCHOR_SECONDS``); skipped while another sequencer is at work."""
    with transaction.atomic():
        checkpoint = audit_checkpoint_make(reason="every few seconds", wait=False, only_if_moved=True)
    return {"made": checkpoint is not None, "leaves": checkpoint.tree_size if checkpoint else None}


@shared_task(name="casino.outbox_flush")
def outbox_flush_task() -> dict[str, object]:
    """Publish the queued tasks the broker could not take when they were asked for (Celery beat, every minute)."""
    report = outbox_flush()
    return {"sent": report.sent, "waiting": report.waiting, "last_error": report.last_error}


@shared_task(name="casino.idempotency_keys_expire")
def idempotency_keys_expire_task() -> dict[str, object]:
    """Let go the API's idempotency keys kept 24 hours (Celery beat, hourly)."""
    return {"expired": idempotency_keys_expire()}
