"""Who may see a table and who may act at it: one answer, asked by the tablet, the API and the services alike
(the role sets ``TABLE_STAFF`` and ``OVERSEERS`` are ``casino.roles``').

A table's rounds are played by the Dealer assigned to it (``tables.services.table_assign_dealer``);
a Floor supervisor or Pit boss may do whatever a Dealer may, at any table; an Auditor sees every
table and acts at none. ``None`` is the system itself (scheduled tasks, the demo), which may act.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from casino.errors import NotAllowed
from casino.roles import OVERSEERS, SUPERVISORS, TABLE_STAFF, Role, require_role, user_has_role
from tables.models import Table

User = AbstractBaseUser | AnonymousUser | None


def _anywhere(user: User, *roles: Role) -> bool:
    return user is None or bool(getattr(user, "is_superuser", False)) or user_has_role(user, *roles)


def can_act_at_table(user: User, table: Table) -> bool:
    """Whether ``user`` may play rounds at ``table``: its dealer, a Floor supervisor or Pit boss, the system."""
    if _anywhere(user, *SUPERVISORS):  # the system (None) too
        return True
    return user_has_role(user, Role.DEALER) and table.dealer_id == user.pk  # type: ignore[union-attr]


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
    return _anywhere(user, *OVERSEERS)


def tables_visible_to(user: User) -> QuerySet[Table]:
    """The tables ``user`` may see: every table for those who oversee the floor, a dealer's own for a dealer."""
    tables = Table.objects.select_related("pit", "rule_set", "dealer").order_by("pit__name", "name")
    if can_view_every_table(user):
        return tables
    if user is None or not user_has_role(user, Role.DEALER):
        return tables.none()
    return tables.filter(dealer_id=user.pk)


def can_view_table(user: User, table: Table) -> bool:
    """Whether ``user`` may see ``table`` (its tablet, its rounds): those who may act there, and Auditors."""
    return can_view_every_table(user) or can_act_at_table(user, table)


def require_view_table(user: User, table: Table) -> None:
    """Refuse a read of ``table`` or anything at it (``NotAllowed``, a 403) unless ``can_view_table``: the API
    reads by the tablet's rule."""
    if not can_view_table(user, table):
        raise NotAllowed(
            _("Table %(table)s is not your table: only its dealer, a supervisor or an auditor may see it.")
            % {"table": table.name},
            extra={"table": table.name},
        )
