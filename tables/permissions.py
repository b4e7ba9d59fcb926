"""Who may see a table and who may act at it: one answer, asked by the tablet, the API and the services alike.

A table's rounds are played by the Dealer assigned to it (``tables.services.table_assign_dealer``);
a Floor supervisor or Pit boss may do whatever a Dealer may, at any table; an Auditor sees every
table and acts at none. ``None`` is the system itself (scheduled tasks, the demo), which may act.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from casino.errors import NotAllowed
from casino.roles import SUPERVISORS, Role, require_role, user_has_role
from tables.models import Table

User = AbstractBaseUser | AnonymousUser | None

# Who may open and play rounds (voids and corrections excepted: those are SUPERVISORS').
TABLE_STAFF: tuple[Role, ...] = (Role.DEALER, *SUPERVISORS)


def _anywhere(user: User, *roles: Role) -> bool:
    return user is None or bool(getattr(user, "is_superuser", False)) or user_has_role(user, *roles)


def can_act_at_table(user: User, table: Table) -> bool:
    """Whether ``user`` may play rounds at ``table``: its dealer, a Floor supervisor or Pit boss, the system."""
    if user is None or _anywhere(user, *SUPERVISORS):
        return True
    return user_has_role(user, Role.DEALER) and table.dealer_id == user.pk


def require_act_at_table(user: User, table: Table, *, action: str) -> None:
    """Refuse ``action`` at ``table`` (``NotAllowed``, a 403) unless ``can_act_at_table``."""
    require_role(user, *TABLE_STAFF, action=action)
    if not can_act_at_table(user, table):
        raise NotAllowed(
            f"Table {table.name} is not your table: only its dealer or a supervisor may {action}.",
            extra={"table": table.name},
        )


def can_view_every_table(user: User) -> bool:
    """Whether ``user`` sees every table: a Floor supervisor, Pit boss or Auditor (a dealer sees their own)."""
    return _anywhere(user, *SUPERVISORS, Role.AUDITOR)


def can_view_table(user: User, table: Table) -> bool:
    """Whether ``user`` may see ``table`` (its tablet, its rounds): those who may act there, and Auditors."""
    return can_view_every_table(user) or can_act_at_table(user, table)
