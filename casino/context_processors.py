"""What every page's header needs: which of the faces (tablet, pit, cage, count room, poker room) the signed-in user may
open."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from casino.roles import (
    CAGE_VIEWERS,
    COUNT_VIEWERS,
    CREDIT_VIEWERS,
    OVERSEERS,
    TABLE_STAFF,
    TOURNAMENT_VIEWERS,
    user_roles,
)


def faces(request: HttpRequest) -> dict[str, Any]:
    """``may_deal``: Dealers and supervisors get the tablet link; ``may_watch``: supervisors and auditors the pit;
    ``may_cage`` and ``may_count``: the cage's queue and the count room, for who works there and who oversees;
    ``may_credit``: the markers outstanding and players' credit, for the Credit managers, the cage and who oversees;
    ``may_poker_room``: the tournaments' console, for who runs tournaments and the Auditors."""
    roles = user_roles(request.user) if hasattr(request, "user") else frozenset()
    superuser = bool(getattr(getattr(request, "user", None), "is_superuser", False))
    return {
        "may_deal": superuser or bool(roles & set(TABLE_STAFF)),
        "may_watch": superuser or bool(roles & set(OVERSEERS)),
        "may_cage": superuser or bool(roles & set(CAGE_VIEWERS)),
        "may_count": superuser or bool(roles & set(COUNT_VIEWERS)),
        "may_credit": superuser or bool(roles & set(CREDIT_VIEWERS)),
        "may_poker_room": superuser or bool(roles & set(TOURNAMENT_VIEWERS)),
    }
