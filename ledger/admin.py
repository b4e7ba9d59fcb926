"""Postings and ledger entries in the admin: read-only for supervisors and auditors (append-only rows)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from casino.admin import NoWritesAdmin
from casino.roles import OVERSEERS, user_has_role
from ledger.models import LedgerEntry, Posting


class MoneyReadOnlyAdmin(NoWritesAdmin):
    """Money rows are append-only: supervisors and auditors look; nobody edits or deletes them here."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser or user_has_role(request.user, *OVERSEERS))

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self.has_view_permission(request)


@admin.register(Posting)
class PostingAdmin(MoneyReadOnlyAdmin):
    list_display = [
        "pk",
        "round_id",
        "table_id",
        "kind",
        "idempotency_key",
        "actor",
        "created_at",
        "reverses",
        "corrects",
    ]
    list_filter = ["kind"]
    search_fields = ["idempotency_key", "reason"]
    list_select_related = ["actor"]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(MoneyReadOnlyAdmin):
    list_display = ["pk", "posting", "round_id", "account", "seat_id", "amount_cents", "kind", "actor", "created_at"]
    list_filter = ["account", "kind"]
    list_select_related = ["posting", "actor"]
