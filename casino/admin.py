from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.http import HttpRequest

from casino.models import AuditCheckpoint, AuditEvent, GamingDay, Pit, Shift, TaskOutbox
from casino.roles import SUPERVISORS, user_has_role

if TYPE_CHECKING:  # the admin's classes take their model as a type argument only in the stubs
    ModelAdmin = admin.ModelAdmin[Any]
else:
    ModelAdmin = admin.ModelAdmin


class NoWritesAdmin(ModelAdmin):
    """Rows that change only through audited services (or never): the admin adds, edits and deletes none."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyFloorAdmin(NoWritesAdmin):
    """Floor records change only through the services (checked and audited); supervisors view them here."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser or user_has_role(request.user, *SUPERVISORS))

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self.has_view_permission(request)


@admin.register(Pit)
class PitAdmin(ReadOnlyFloorAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]


@admin.register(GamingDay)
class GamingDayAdmin(ReadOnlyFloorAdmin):
    list_display = ["business_date", "opened_at", "opened_by", "closed_at", "closed_by"]
    readonly_fields = ["opened_at", "opened_by", "closed_at", "closed_by"]


@admin.register(Shift)
class ShiftAdmin(ReadOnlyFloorAdmin):
    list_display = ["gaming_day", "number", "name", "opened_at", "opened_by", "closed_at", "closed_by"]
    list_filter = ["gaming_day"]
    readonly_fields = ["opened_at", "opened_by", "closed_at", "closed_by"]


@admin.register(AuditEvent)
class AuditEventAdmin(NoWritesAdmin):
    """Read-only: the audit log is append-only, not even a superuser edits it here."""

    list_display = ["seq", "occurred_at", "actor_name", "event_type", "subject_type", "subject_id", "reason"]
    list_filter = ["event_type", "subject_type"]
    search_fields = ["event_type", "subject_id", "actor_name", "reason"]
    ordering = ["-seq"]


@admin.register(AuditCheckpoint)
class AuditCheckpointAdmin(NoWritesAdmin):
    """Read-only: the signed heads of the audit chain (``manage.py verify_audit`` holds the chain to them)."""

    list_display = ["seq", "made_at", "reason", "shift", "key_id", "head_hash"]
    list_filter = ["reason"]
    ordering = ["-seq", "-pk"]


@admin.register(TaskOutbox)
class TaskOutboxAdmin(NoWritesAdmin):
    """Read-only: the Celery tasks asked for, and whether the broker has them (``manage.py outbox_flush``)."""

    list_display = ["pk", "task_name", "args", "created_at", "sent_at", "attempts", "last_error"]
    list_filter = [("sent_at", admin.EmptyFieldListFilter), "task_name"]
    ordering = ["-pk"]
