"""The audit log: recording chained events and verifying the chain.

Every event's hash is ``sha256(prev_hash + canonical_json)`` where the canonical
JSON holds the event's sequence number, UTC time, actor, type, subject,
before/after and reason, serialised with sorted keys and no whitespace. The
first event chains to 64 zeros. Writers take one lock for the chain before
reading its head (``casino.rows.chain_lock_and_head``, where its SQL is), so two
concurrent actions can never fork it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from django.utils import timezone

from casino.events import AuditEventType
from casino.models import GENESIS_HASH, AuditEvent
from casino.rows import chain_lock_and_head, row_insert

SYSTEM_ACTOR = "system"


def _jsonable(value: Any) -> Any:
    """What the value looks like after a JSON round trip (as stored in the database)."""
    if value is None:
        return None
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def canonical_json(payload: Mapping[str, Any]) -> str:
    """The one serialisation the hash is computed over."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _payload(event: AuditEvent) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "occurred_at": event.occurred_at.astimezone(dt.UTC).isoformat(timespec="microseconds"),
        "actor_id": event.actor_id,
        "actor_name": event.actor_name,
        "event_type": event.event_type,
        "subject_type": event.subject_type,
        "subject_id": event.subject_id,
        "before": event.before,
        "after": event.after,
        "reason": event.reason,
    }


def event_hash(*, prev_hash: str, event: AuditEvent) -> str:
    """SHA-256 over the previous hash and this event's canonical JSON, as hex."""
    return hashlib.sha256((prev_hash + canonical_json(_payload(event))).encode("utf-8")).hexdigest()


def _subject_key(subject: models.Model | tuple[str, object]) -> tuple[str, str]:
    if isinstance(subject, models.Model):
        return subject._meta.label_lower, str(subject.pk)
    kind, ident = subject
    return kind, str(ident)


def audit_event_record(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    event_type: AuditEventType,
    subject: models.Model | tuple[str, object],
    before: Any = None,
    after: Any = None,
    reason: str = "",
    change: tuple[str, Sequence[Any]] | None = None,
) -> AuditEvent:
    """Append one event to the chain, inside the caller's transaction.

    Call it in the same ``transaction.atomic`` block as the change it records,
    so the change and its event commit or roll back together. ``change`` is that
    change as a statement not yet run, the UPDATE of one locked row
    (``casino.rows.update_statement``): it runs first, in the same round trip as the
    chain's lock where the driver allows, and must change exactly one row.
    """
    event_type = AuditEventType(event_type)  # a kind of event not listed is a bug: ValueError, nothing written
    subject_type, subject_id = _subject_key(subject)
    user = actor if actor is not None and actor.is_authenticated else None
    # No savepoint of its own: the event fails or succeeds with the change around it.
    with transaction.atomic(savepoint=False):
        last = chain_lock_and_head(change)
        event = AuditEvent(
            seq=(last[0] + 1) if last else 1,
            occurred_at=timezone.now(),
            actor=user,
            actor_name=user.get_username() if user is not None else SYSTEM_ACTOR,
            event_type=event_type.value,
            subject_type=subject_type,
            subject_id=subject_id,
            before=_jsonable(before),
            after=_jsonable(after),
            reason=reason,
            prev_hash=last[1] if last else GENESIS_HASH,
        )
        event.hash = event_hash(prev_hash=event.prev_hash, event=event)
        row_insert(event)
    return event


@dataclass(frozen=True)
class ChainReport:
    """The result of walking the audit chain."""

    events_checked: int
    broken_event: AuditEvent | None = None
    problem: str = ""

    @property
    def ok(self) -> bool:
        return self.broken_event is None

    def describe(self) -> str:
        if self.ok:
            return f"Audit chain intact: {self.events_checked} events verified."
        event = self.broken_event
        assert event is not None
        return (
            f"Audit chain broken at event #{event.seq} (id {event.pk}, {event.event_type} on "
            f"{event.subject_type}:{event.subject_id}, {event.occurred_at.isoformat()}): {self.problem}"
        )


def _events_in_order(queryset: models.QuerySet[AuditEvent]) -> Iterator[AuditEvent]:
    return queryset.order_by("seq").iterator(chunk_size=2000)


def audit_chain_verify() -> ChainReport:
    """Walk the whole chain from the first event; report the first broken link.

    An event is broken when its sequence number skips or repeats (an event was
    removed or inserted), when its ``prev_hash`` is not the previous event's
    hash, or when its stored ``hash`` does not match its content.
    """
    expected_prev = GENESIS_HASH
    expected_seq = 1
    checked = 0
    for event in _events_in_order(AuditEvent.objects.all()):
        if event.seq != expected_seq:
            return ChainReport(checked, event, f"sequence number {event.seq} where {expected_seq} was expected")
        if event.prev_hash != expected_prev:
            return ChainReport(checked, event, "its previous-hash link does not match the event before it")
        if event_hash(prev_hash=event.prev_hash, event=event) != event.hash:
            return ChainReport(checked, event, "its stored hash does not match its content (the row was altered)")
        checked += 1
        expected_prev = event.hash
        expected_seq += 1
    return ChainReport(checked)
