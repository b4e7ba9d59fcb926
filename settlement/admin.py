"""Wagers and void or correction requests in the admin: read-only for supervisors and auditors."""

from __future__ import annotations

from django.contrib import admin

from ledger.admin import MoneyReadOnlyAdmin
from rounds.models import Adjustment, Wager


@admin.register(Wager)
class WagerAdmin(MoneyReadOnlyAdmin):
    list_display = ["round", "seat", "amount_cents", "placed_by", "placed_at"]
    list_select_related = ["round__table", "seat__table", "placed_by"]


@admin.register(Adjustment)
class AdjustmentAdmin(MoneyReadOnlyAdmin):
    list_display = ["pk", "round", "kind", "status", "requested_by", "requested_at", "decided_by", "decided_at"]
    list_filter = ["kind", "status"]
    list_select_related = ["round__table", "requested_by", "decided_by"]
