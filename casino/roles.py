"""Staff roles. Each is a Django group, created by a data migration."""

from __future__ import annotations

from enum import StrEnum

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext, pgettext_lazy

from casino.errors import NotAllowed
from casino.rows import user_group_names


class Role(StrEnum):
    DEALER = "Dealer"
    FLOOR_SUPERVISOR = "Floor supervisor"
    PIT_BOSS = "Pit boss"
    AUDITOR = "Auditor"
    # Issues fills and credits at the cage; never signs a slip at a table.
    CAGE_CASHIER = "Cage cashier"
    # Counts the drop boxes: two members count each box, independently.
    COUNT_TEAM = "Count team"
    # Runs the poker room's tournaments: structures, the clock, entries, seating, payouts.
    TOURNAMENT_DIRECTOR = "Tournament director"
    # Sets and changes players' credit lines (a large one needs a second Credit manager's approval).
    CREDIT_MANAGER = "Credit manager"


# The roles as a user reads them, in the active language (the values stay the groups' names).
ROLE_NAMES = {
    Role.DEALER: pgettext_lazy("role", "Dealer"),
    Role.FLOOR_SUPERVISOR: pgettext_lazy("role", "Floor supervisor"),
    Role.PIT_BOSS: pgettext_lazy("role", "Pit boss"),
    Role.AUDITOR: pgettext_lazy("role", "Auditor"),
    Role.CAGE_CASHIER: pgettext_lazy("role", "Cage cashier"),
    Role.COUNT_TEAM: pgettext_lazy("role", "Count team"),
    Role.TOURNAMENT_DIRECTOR: pgettext_lazy("role", "Tournament director"),
    Role.CREDIT_MANAGER: pgettext_lazy("role", "Credit manager"),
}

SUPERVISORS: tuple[Role, ...] = (Role.FLOOR_SUPERVISOR, Role.PIT_BOSS)
# Who plays rounds at a table (the table's own dealer, or a supervisor at any: ``tables.permissions``).
TABLE_STAFF: tuple[Role, ...] = (Role.DEALER, *SUPERVISORS)
# Who oversees the whole floor: every table, the pit, the reports (Auditors read only).
OVERSEERS: tuple[Role, ...] = (*SUPERVISORS, Role.AUDITOR)
# Who opens the cage's queue and the count room: the role that works there, and those who oversee the floor (read).
CAGE_VIEWERS: tuple[Role, ...] = (Role.CAGE_CASHIER, *OVERSEERS)
COUNT_VIEWERS: tuple[Role, ...] = (Role.COUNT_TEAM, *OVERSEERS)
# Who reads credit lines and markers: who sets the lines, the cage that redeems markers, and those who oversee.
CREDIT_VIEWERS: tuple[Role, ...] = (Role.CREDIT_MANAGER, Role.CAGE_CASHIER, *OVERSEERS)
# Who runs a tournament (the director, and the floor's supervisors), and who may look at its console (Auditors read).
TOURNAMENT_RUNNERS: tuple[Role, ...] = (Role.TOURNAMENT_DIRECTOR, *SUPERVISORS)
TOURNAMENT_VIEWERS: tuple[Role, ...] = (*TOURNAMENT_RUNNERS, Role.AUDITOR)


_CACHE = "_tableside_roles"


def user_roles(user: User | AnonymousUser) -> frozenset[Role]:
    """The roles a user holds (none for an anonymous user).

    Read once per user object (one request, one task) and kept on it, as Django keeps
    a user's permissions: a role granted meanwhile counts from the next request.
    """
    if not user.is_authenticated:
        return frozenset()
    cached: frozenset[Role] | None = getattr(user, _CACHE, None)
    if cached is None:
        names = user_group_names(user.pk)  # one statement (casino.rows)
        cached = frozenset(role for role in Role if role.value in names)
        setattr(user, _CACHE, cached)
    return cached


def user_has_role(user: User | AnonymousUser, *roles: Role) -> bool:
    """Whether the user holds at least one of ``roles``."""
    return bool(user_roles(user) & set(roles))


def require_role(user: User | AnonymousUser | None, *roles: Role, action: str) -> None:
    """Refuse ``action`` unless the user holds one of ``roles``.

    ``None`` is the system itself (scheduled tasks) and may act; a superuser may too.
    """
    if user is None or getattr(user, "is_superuser", False):
        return
    if not user_has_role(user, *roles):
        needed = gettext(" or ").join(str(ROLE_NAMES[role]) for role in roles)
        raise NotAllowed(
            gettext("Only a %(roles)s may %(action)s.") % {"roles": needed, "action": action},
            extra={"required_roles": [r.value for r in roles]},
        )
