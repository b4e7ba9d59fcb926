"""Who acts and who looks: the user types every app's services and views share.

A service that writes is given the signed-in :data:`Actor` (``None`` where the system itself acts: a scheduled task,
a migration); a selector that only reads may be given whoever the request carries, the anonymous visitor included
(:data:`Viewer`). Views that write have required sign-in first (``login_required``, DRF's ``IsAuthenticated``), and
:func:`actor_of` says so to the type checker without trusting it blindly.
"""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied

Actor: TypeAlias = User
Viewer: TypeAlias = User | AnonymousUser


def actor_of(user: object) -> User:
    """The signed-in user a request acts for; a request without one is refused (403), never written."""
    if isinstance(user, User) and user.is_authenticated:
        return user
    raise PermissionDenied
