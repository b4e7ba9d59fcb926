"""Writes on tables. Each records its audit event in the same transaction."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.models import Pit
from casino.roles import SUPERVISORS, require_role
from rules.models import SEAT_LIMITS, Game
from tables.models import Table


def _money(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def _snapshot(table: Table) -> dict[str, object]:
    return {
        "name": table.name,
        "pit": table.pit.name,
        "game": table.game,
        "min_wager_cents": table.min_wager_cents,
        "max_wager_cents": table.max_wager_cents,
        "seat_count": table.seat_count,
        "status": table.status,
    }


def table_create(
    *,
    actor: AbstractBaseUser | None,
    pit: Pit,
    name: str,
    game: str,
    min_wager_cents: int,
    max_wager_cents: int,
    seat_count: int,
) -> Table:
    """Create a closed table in a pit, after checking its game, limits and seats."""
    require_role(actor, *SUPERVISORS, action="create a table")
    name = name.strip()
    if not name:
        raise ApplicationError("A table needs a name.")
    if game not in Game.values:
        raise ApplicationError(f"Unknown game {game!r}: choose one of {', '.join(Game.values)}.")
    if min_wager_cents <= 0:
        raise ApplicationError("The minimum wager must be more than zero.")
    if max_wager_cents < min_wager_cents:
        raise ApplicationError(
            f"The maximum wager ({_money(max_wager_cents)}) is below the minimum ({_money(min_wager_cents)})."
        )
    low, high = SEAT_LIMITS[game]
    if not low <= seat_count <= high:
        raise ApplicationError(f"A {Game(game).label} table has {low} to {high} player seats, not {seat_count}.")
    with transaction.atomic():
        if Table.objects.filter(name__iexact=name).exists():
            raise ApplicationError(f"There is already a table called {name!r}.")
        table = Table.objects.create(
            pit=pit,
            name=name,
            game=game,
            min_wager_cents=min_wager_cents,
            max_wager_cents=max_wager_cents,
            seat_count=seat_count,
        )
        audit_event_record(actor=actor, event_type="table.created", subject=table, after=_snapshot(table))
    return table


def _table_set_status(*, actor: AbstractBaseUser | None, table: Table, status: str, verb: str) -> Table:
    require_role(actor, *SUPERVISORS, action=f"{verb} a table")
    with transaction.atomic():
        locked = Table.objects.select_for_update().select_related("pit").get(pk=table.pk)
        if locked.status == status:
            raise WrongState(f"Table {locked.name} is already {Table.Status(status).label}.")
        before = _snapshot(locked)
        locked.status = status
        locked.save(update_fields=["status"])
        audit_event_record(
            actor=actor, event_type=f"table.{status}", subject=locked, before=before, after=_snapshot(locked)
        )
    return locked


def table_open(*, actor: AbstractBaseUser | None, table: Table) -> Table:
    """Open a closed table for play."""
    return _table_set_status(actor=actor, table=table, status=Table.Status.OPEN, verb="open")


def table_close(*, actor: AbstractBaseUser | None, table: Table) -> Table:
    """Close an open table."""
    return _table_set_status(actor=actor, table=table, status=Table.Status.CLOSED, verb="close")
