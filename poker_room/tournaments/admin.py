"""The poker room in the admin: to look at only. A tournament, its entries, payments, busts and seat changes change
only through ``poker_room.tournaments.services`` (checked, posted and audited)."""

from __future__ import annotations

from django.contrib import admin

from casino.admin import ReadOnlyFloorAdmin
from poker_room.tournaments.models import Elimination, Entry, Purchase, SeatMove, Tournament, TournamentTable


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyFloorAdmin):
    list_display = ["name", "template_key", "status", "starts_at", "buy_in_cents", "fee_cents", "bounty_kind"]
    list_filter = ["status", "template_key", "bounty_kind"]
    search_fields = ["name"]


@admin.register(TournamentTable)
class TournamentTableAdmin(ReadOnlyFloorAdmin):
    list_display = ["tournament", "number", "seats", "break_position", "button", "dealer", "broken_at"]
    list_filter = ["tournament"]


@admin.register(Entry)
class EntryAdmin(ReadOnlyFloorAdmin):
    list_display = ["tournament", "number", "name", "status", "table_number", "seat_number", "chips", "place"]
    list_filter = ["tournament", "status"]
    search_fields = ["name"]


@admin.register(Purchase)
class PurchaseAdmin(ReadOnlyFloorAdmin):
    list_display = ["tournament", "entry", "kind", "prize_cents", "fee_cents", "bounty_cents", "chips", "created_at"]
    list_filter = ["tournament", "kind"]


@admin.register(Elimination)
class EliminationAdmin(ReadOnlyFloorAdmin):
    list_display = ["tournament", "entry", "place", "eliminated_by", "prize_cents", "bounty_paid_cents", "status"]
    list_filter = ["tournament", "status"]


@admin.register(SeatMove)
class SeatMoveAdmin(ReadOnlyFloorAdmin):
    list_display = ["tournament", "entry", "from_table", "from_seat", "to_table", "to_seat", "reason", "created_at"]
    list_filter = ["tournament", "reason"]
