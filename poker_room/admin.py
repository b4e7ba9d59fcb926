"""The poker room in the admin, for Django's autodiscovery: each package registers its own models."""

from __future__ import annotations

from poker_room.tournaments import admin as tournaments_admin

__all__ = ["tournaments_admin"]
