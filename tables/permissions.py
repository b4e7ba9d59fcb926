"""Who may see a table and who may act at it: one answer, asked by the tablet, the API and the services alike
(the role sets ``TABLE_STAFF`` and ``OVERSEERS`` are ``casino.roles``').

A table's rounds are played by the Dealer assigned to it (``tables.services.table_assign_dealer``);
a Floor supervisor or Pit boss may do whatever a Dealer may, at any table; an Auditor sees every
table and acts at none. ``None`` is the system itself (scheduled tasks, the demo), which may act.

The table's money is read by whoever may see the table; besides them a Cage cashier reads every table's
slips (the cage's queue), and the Count team reads a closed shift's drop boxes, blind to the other counts' figures
until it has counted the box itself. Who may *write* it is each service's own check (``tables.tray``,
``tables.slips``, ``tables.drop``).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from casino.errors import NotAllowed
from casino.roles import OVERSEERS, SUPERVISORS, TABLE_STAFF, Role, require_role, user_has_role
from casino.users import Viewer
from tables.models import Table

# Whom a question is asked of: whoever the request carries (the anonymous visitor included), or None, the system.
Who = Viewer | None


def _anywhere(user: Who, *roles: Role) -> bool:
    return user is None or bool(getattr(user, "is_superuser", False)) or user_has_role(user, *roles)


def can_act_at_table(user: Who, table: Table) -> bool:
    """Whether ``user`` may play rounds at ``table``: its dealer, a Floor supervisor or Pit boss, the system."""
    if _anywhere(user, *SUPERVISORS):  # the system (None) too
        return True
    return user is not None and user_has_role(user, Role.DEALER) and table.dealer_id == user.pk


def require_act_at_table(user: Who, table: Table, *, action: str) -> None:
    """Refuse ``action`` at ``table`` (``NotAllowed``, a 403) unless ``can_act_at_table``."""
    require_role(user, *TABLE_STAFF, action=action)
    if not can_act_at_table(user, table):
        raise NotAllowed(
            _("Table %(table)s is not your table: only its dealer or a supervisor may %(action)s.")
            % {"table": table.name, "action": action},
            extra={"table": table.name},
        )


def can_view_every_table(user: Who) -> bool:
    """Whether ``user`` sees every table: a Floor supervisor, Pit boss or Auditor (a dealer sees their own)."""
    return _anywhere(user, *OVERSEERS)


def tables_visible_to(user: Who) -> QuerySet[Table]:
    """The tables ``user`` may see: every table for those who oversee the floor, a dealer's own for a dealer."""
    tables = Table.objects.select_related("pit", "rule_set", "dealer").order_by("pit__name", "name")
    if can_view_every_table(user):
        return tables
    if user is None or not user_has_role(user, Role.DEALER):
        return tables.none()
    return tables.filter(dealer_id=user.pk)


def can_view_table(user: Who, table: Table) -> bool:
    """Whether ``user`` may see ``table`` (its tablet, its rounds): those who may act there, and Auditors."""
    return can_view_every_table(user) or can_act_at_table(user, table)


def can_view_table_money(user: Who, table: Table) -> bool:
    """Whether ``user`` may see ``table``'s money (its slips, their PDF): whoever may see the table, and the cage,
    which issues its fills and credits."""
    return can_view_table(user, table) or _anywhere(user, Role.CAGE_CASHIER)


def require_view_table(user: Who, table: Table) -> None:
    """Refuse a read of ``table`` or anything at it (``NotAllowed``, a 403) unless ``can_view_table``: the API
    reads by the tablet's rule."""
    if not can_view_table(user, table):
        raise NotAllowed(
            _("Table %(table)s is not your table: only its dealer, a supervisor or an auditor may see it.")
            % {"table": table.name},
            extra={"table": table.name},
        )


# --- who reads the table's money ------------------------------------------------------


def can_read_slips(user: Who, table: Table) -> bool:
    """Whether ``user`` may read ``table``'s fill and credit slips: whoever may see the table (its dealer, the
    supervisors, the Auditors), and a Cage cashier, whose queue is every table's."""
    return can_view_table(user, table) or _anywhere(user, Role.CAGE_CASHIER)


def require_read_slips(user: Who, table: Table) -> None:
    """Refuse a read of ``table``'s slips (``NotAllowed``, a 403) unless ``can_read_slips``."""
    if not can_read_slips(user, table):
        raise NotAllowed(
            _(
                "Table %(table)s is not your table: only its dealer, a supervisor, an auditor or the cage may see "
                "its slips."
            )
            % {"table": table.name},
            extra={"table": table.name},
        )


def slip_tables_visible_to(user: Who) -> QuerySet[Table] | None:
    """The tables whose slips ``user`` may list: None for every table (the cage, those who oversee the floor), a
    dealer's own for a dealer, none for anyone else."""
    if _anywhere(user, *OVERSEERS, Role.CAGE_CASHIER):
        return None
    return tables_visible_to(user)


def can_read_slip_numbers(user: Who) -> bool:
    """Whether ``user`` may read how every slip number of a kind is accounted for, across the floor: the cage, the
    supervisors and the Auditors."""
    return _anywhere(user, *OVERSEERS, Role.CAGE_CASHIER)


def require_read_drop_box(user: Who, table: Table, *, shift_closed: bool) -> None:
    """Refuse a read of ``table``'s drop box for a shift (``NotAllowed``, a 403) unless ``user`` may see the table,
    or counts boxes (the Count team) and the shift is closed: a box is the count team's once its shift closes."""
    if can_view_table(user, table):
        return
    if user is not None and user_has_role(user, Role.COUNT_TEAM):
        if shift_closed:
            return
        raise NotAllowed(
            _("The shift is still open: the count team sees table %(table)s's drop box once the shift closes.")
            % {"table": table.name},
            extra={"table": table.name},
        )
    raise NotAllowed(
        _("Only the table's dealer, a supervisor, an auditor or the count team may see table %(table)s's drop box.")
        % {"table": table.name},
        extra={"table": table.name},
    )


def drop_figures_hidden(user: Who, *, counted_by: Iterable[int], final: bool) -> bool:
    """Whether ``user`` must not see the figures of a drop box's counts (``counted_by``: who counted each): a
    member of the Count team who has not counted the box yet counts it blind, knowing only that a count exists,
    until the box is final."""
    if final or user is None or not user_has_role(user, Role.COUNT_TEAM):
        return False
    return user.pk not in set(counted_by)
