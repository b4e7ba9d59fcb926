"""Tables in the admin: to look at, and to open or close through the audited services.

A table changes only through ``tables.services`` (checked, and written to the
audit log), so the admin neither adds, edits nor deletes tables directly;
creating tables and assigning rule sets go through those services (``seed_demo``
today, the REST API next).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from casino.admin import ReadOnlyFloorAdmin
from casino.errors import ApplicationError
from tables.models import BuyIn, ChipDenomination, DropCount, Slip, Table, TrayCount
from tables.services import table_close, table_open


@admin.register(Table)
class TableAdmin(ReadOnlyFloorAdmin):
    list_display = ["name", "pit", "game", "min_wager_cents", "max_wager_cents", "seat_count", "rule_set", "status"]
    list_filter = ["pit", "game", "status"]
    search_fields = ["name"]
    actions = ["open_tables", "close_tables"]

    def _each(self, request: HttpRequest, queryset: QuerySet[Table], change: Any, done: str) -> None:
        for table in queryset:
            try:
                change(actor=request.user, table=table)
            except ApplicationError as error:
                self.message_user(request, error.message, level=messages.WARNING)
            else:
                self.message_user(request, f"Table {table.name} {done}.")

    @admin.action(description="Open the selected tables", permissions=["view"])
    def open_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        self._each(request, queryset, table_open, "opened")

    @admin.action(description="Close the selected tables", permissions=["view"])
    def close_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        self._each(request, queryset, table_close, "closed")


@admin.register(ChipDenomination)
class ChipDenominationAdmin(ReadOnlyFloorAdmin):
    list_display = ["__str__", "value_cents", "colour", "in_use"]


@admin.register(TrayCount)
class TrayCountAdmin(ReadOnlyFloorAdmin):
    """Tray counts are written by ``tables.tray`` only (counted, then confirmed by a second person)."""

    list_display = ["table", "shift", "kind", "total_cents", "expected_cents", "status", "counted_by", "confirmed_by"]
    list_filter = ["kind", "status", "table"]


@admin.register(Slip)
class SlipAdmin(ReadOnlyFloorAdmin):
    """Fills and credits are written by ``tables.slips`` only (requested, issued, signed twice, or voided)."""

    list_display = ["kind", "number", "table", "total_cents", "status", "requested_by", "issued_by"]
    list_filter = ["kind", "status", "table"]


@admin.register(BuyIn)
class BuyInAdmin(ReadOnlyFloorAdmin):
    list_display = ["table", "shift", "seat_number", "medium", "amount_cents", "recorded_by", "recorded_at"]
    list_filter = ["medium", "table"]


@admin.register(DropCount)
class DropCountAdmin(ReadOnlyFloorAdmin):
    list_display = ["table", "shift", "cash_cents", "markers_cents", "promo_cents", "counted_by", "counted_at"]
    list_filter = ["table"]
