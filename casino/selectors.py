"""Reads on the floor: the gaming days and their shifts, the open shift, the newest audit events."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from casino.models import AuditEvent, GamingDay, Shift
from casino.roles import Role


def shift_current() -> Shift | None:
    """The open shift of the open gaming day, if any."""
    return Shift.objects.select_related("gaming_day").filter(closed_at__isnull=True).first()


def shift_current_held() -> Shift | None:
    """The open shift, its row held until the transaction ends (``FOR NO KEY UPDATE``; call inside one): a close
    (``FOR UPDATE``) waits for the write under way, and a write that comes during a close waits for it and then
    finds no shift open. For the table's money (``tables.tray``, ``tables.slips``, ``tables.drop``), whose writes
    are few and short."""
    shift = shift_current()
    if shift is None:
        return None
    return (
        Shift.objects.select_for_update(no_key=True, of=("self",))
        .select_related("gaming_day")
        .filter(pk=shift.pk, closed_at__isnull=True)
        .first()
    )


def audit_events_recent(*, limit: int = 20) -> list[AuditEvent]:
    """The newest audit events, newest first."""
    return list(AuditEvent.objects.order_by("-seq")[:limit])


def gaming_day_list() -> QuerySet[GamingDay]:
    """Gaming days, newest first, with who opened and closed them and their shifts (first shift first)."""
    shifts = Shift.objects.select_related("opened_by", "closed_by").order_by("number")
    return GamingDay.objects.select_related("opened_by", "closed_by").prefetch_related(
        Prefetch("shifts", queryset=shifts)
    )


def gaming_day_current() -> GamingDay | None:
    """The open gaming day with its shifts, if any (one is open at a time: ``casino.services.gaming_day_open``)."""
    return gaming_day_list().filter(closed_at__isnull=True).first()


def gaming_day_get(*, gaming_day_id: int) -> GamingDay:
    """One gaming day with its shifts, or 404."""
    return get_object_or_404(gaming_day_list(), pk=gaming_day_id)


def business_date_today() -> dt.date:
    """Today's date on the floor's clock (``TIME_ZONE``)."""
    return timezone.localdate()


def business_date_next() -> dt.date:
    """What the open-a-gaming-day form suggests: today, unless today's gaming day (or a later one) was already opened
    (a day once closed cannot open again): then the day after the latest."""
    today = business_date_today()
    latest = GamingDay.objects.order_by("-business_date").values_list("business_date", flat=True).first()
    if latest is not None and latest >= today:
        return latest + dt.timedelta(days=1)
    return today


# What the open-a-shift form suggests; any other name may be typed.
SHIFT_NAMES: tuple[str, ...] = ("Day", "Swing", "Graveyard")


def shift_name_next(*, gaming_day: GamingDay | None) -> str:
    """The suggested name of the next shift of ``gaming_day``: Day, then Swing, then Graveyard, then Day again."""
    count = gaming_day.shifts.count() if gaming_day is not None else 0
    return SHIFT_NAMES[count % len(SHIFT_NAMES)]


def users_with_role(*, role: Role) -> QuerySet[User]:
    """The active users holding ``role``, by username (a table's set-up chooses its dealer among the Dealers)."""
    return (
        get_user_model()
        .objects.filter(is_active=True, groups__name=role.value)
        .distinct()
        .order_by(get_user_model().USERNAME_FIELD)
    )
