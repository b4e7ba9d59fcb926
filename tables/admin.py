from __future__ import annotations

from django.contrib import admin

from tables.models import Table


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["name", "pit", "game", "min_wager_cents", "max_wager_cents", "seat_count", "status"]
    list_filter = ["pit", "game", "status"]
    search_fields = ["name"]
