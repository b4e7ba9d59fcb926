"""Players in the admin: to look at only. A player and a session change only through ``players.services`` (checked
and audited)."""

from __future__ import annotations

from django.contrib import admin

from casino.admin import ReadOnlyFloorAdmin
from players.models import Player, RatingSession


@admin.register(Player)
class PlayerAdmin(ReadOnlyFloorAdmin):
    list_display = ["name", "card_number", "tier", "anonymous", "created_at"]
    list_filter = ["tier", "anonymous"]
    search_fields = ["name", "card_number"]


@admin.register(RatingSession)
class RatingSessionAdmin(ReadOnlyFloorAdmin):
    list_display = ["player", "status", "started_at", "ended_at", "seconds_played", "rounds", "wagered_cents"]
    list_filter = ["status"]
