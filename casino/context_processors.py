"""What every page's header needs: which of the two faces (tablet, pit) the signed-in user may open."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from casino.roles import OVERSEERS, TABLE_STAFF, user_roles


def faces(request: HttpRequest) -> dict[str, Any]:
    """``may_deal``: Dealers and supervisors get the tablet link; ``may_watch``: supervisors and auditors the pit."""
    roles = user_roles(request.user) if hasattr(request, "user") else frozenset()
    superuser = bool(getattr(getattr(request, "user", None), "is_superuser", False))
    return {
        "may_deal": superuser or bool(roles & set(TABLE_STAFF)),
        "may_watch": superuser or bool(roles & set(OVERSEERS)),
    }
