"""Reads on the floor."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from casino.models import AuditEvent, Pit, Shift
from tables.models import Table


def shift_current() -> Shift | None:
    """The open shift of the open gaming day, if any."""
    return Shift.objects.select_related("gaming_day").filter(closed_at__isnull=True).first()


def pits_with_tables() -> QuerySet[Pit]:
    """Every pit with its tables, in two queries."""
    return Pit.objects.prefetch_related(Prefetch("tables", queryset=Table.objects.order_by("name")))


def audit_events_recent(*, limit: int = 20) -> list[AuditEvent]:
    """The newest audit events, newest first."""
    return list(AuditEvent.objects.order_by("-seq")[:limit])
