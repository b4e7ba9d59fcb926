"""What the console shows of the heads-up side of a tournament (issue 19)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from poker_room.models import Tournament


def console_context(tournament: Tournament, user: AbstractBaseUser) -> dict[str, Any]:
    return {}
