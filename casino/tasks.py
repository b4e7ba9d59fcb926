"""Celery tasks of the ground. Each takes plain arguments and calls a service or selector."""

from __future__ import annotations

from celery import shared_task
from django.db import transaction

from casino.audit import audit_chain_verify, audit_checkpoint_make
from casino.idempotency import idempotency_keys_expire
from casino.models import AuditCheckpoint
from casino.outbox import outbox_flush
from casino.rows import chain_head


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


@shared_task(name="casino.audit_checkpoint")
def audit_checkpoint_task() -> dict[str, object]:
    """Sign the chain's head if it moved since the last checkpoint (Celery beat, every 5 minutes)."""
    with transaction.atomic():
        head = chain_head()
        last = AuditCheckpoint.objects.order_by("-seq", "-pk").first()
        if head is None or (last is not None and last.seq == head[0]):
            return {"made": False, "seq": last.seq if last else None}
        checkpoint = audit_checkpoint_make(reason="every 5 minutes")
    return {"made": checkpoint is not None, "seq": checkpoint.seq if checkpoint else None}


@shared_task(name="casino.outbox_flush")
def outbox_flush_task() -> dict[str, object]:
    """Publish the queued tasks the broker could not take when they were asked for (Celery beat, every minute)."""
    report = outbox_flush()
    return {"sent": report.sent, "waiting": report.waiting, "last_error": report.last_error}


@shared_task(name="casino.idempotency_keys_expire")
def idempotency_keys_expire_task() -> dict[str, object]:
    """Let go the API's idempotency keys kept 24 hours (Celery beat, hourly)."""
    return {"expired": idempotency_keys_expire()}
