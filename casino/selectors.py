"""Reads on the floor: the open shift, the newest audit events."""

from __future__ import annotations

from casino.models import AuditEvent, Shift


def shift_current() -> Shift | None:
    """The open shift of the open gaming day, if any."""
    return Shift.objects.select_related("gaming_day").filter(closed_at__isnull=True).first()


def audit_events_recent(*, limit: int = 20) -> list[AuditEvent]:
    """The newest audit events, newest first."""
    return list(AuditEvent.objects.order_by("-seq")[:limit])
