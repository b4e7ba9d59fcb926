"""Writes on tables. Each records its audit event in the same transaction."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.models import Pit
from casino.roles import SUPERVISORS, require_role
from rules.models import SEAT_LIMITS, Game, RuleSet
from rules.services import rule_set_default
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
        "rule_set": table.rule_set.name,
        "rule_set_version": table.rule_set.snapshot()["version"],
    }


def _check_rule_set_game(*, table_name: str, game: str, rule_set: RuleSet) -> None:
    if rule_set.game != game:
        raise ApplicationError(
            f"Table {table_name} deals {Game(game).label}; rule set {rule_set.name!r} is for "
            f"{Game(rule_set.game).label}: choose a {Game(game).label} rule set.",
            extra={"field": "rule_set"},
        )


def table_create(
    *,
    actor: AbstractBaseUser | None,
    pit: Pit,
    name: str,
    game: str,
    min_wager_cents: int,
    max_wager_cents: int,
    seat_count: int,
    rule_set: RuleSet | None = None,
) -> Table:
    """Create a closed table in a pit, after checking its game, limits, seats and rule set.

    A table always plays by a rule set of its game; without one it gets the game's
    default house rules (``rules.services.rule_set_default``).
    """
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
    if rule_set is not None:
        _check_rule_set_game(table_name=name, game=game, rule_set=rule_set)
    with transaction.atomic():
        if Table.objects.filter(name__iexact=name).exists():
            raise ApplicationError(f"There is already a table called {name!r}.")
        if rule_set is None:
            rule_set = rule_set_default(game=game)
        table = Table.objects.create(
            pit=pit,
            name=name,
            game=game,
            min_wager_cents=min_wager_cents,
            max_wager_cents=max_wager_cents,
            seat_count=seat_count,
            rule_set=rule_set,
        )
        audit_event_record(actor=actor, event_type="table.created", subject=table, after=_snapshot(table))
    return table


def _table_set_status(*, actor: AbstractBaseUser | None, table: Table, status: str, verb: str) -> Table:
    require_role(actor, *SUPERVISORS, action=f"{verb} a table")
    with transaction.atomic():
        locked = Table.objects.select_for_update(of=("self",)).select_related("pit", "rule_set").get(pk=table.pk)
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


def table_assign_rule_set(*, actor: AbstractBaseUser | None, table: Table, rule_set: RuleSet) -> Table:
    """Make ``table`` play by ``rule_set``, which must be a rule set of the table's game.

    Rounds already opened keep the snapshot they took; the new rules apply from the next round.
    """
    require_role(actor, *SUPERVISORS, action="change a table's rule set")
    with transaction.atomic():
        locked = Table.objects.select_for_update(of=("self",)).select_related("pit", "rule_set").get(pk=table.pk)
        _check_rule_set_game(table_name=locked.name, game=locked.game, rule_set=rule_set)
        if locked.rule_set_id == rule_set.pk:
            raise WrongState(f"Table {locked.name} already plays by {rule_set.name!r}.")
        before = _snapshot(locked)
        locked.rule_set = rule_set
        locked.save(update_fields=["rule_set"])
        audit_event_record(
            actor=actor,
            event_type="table.rule_set_assigned",
            subject=locked,
            before=before,
            after=_snapshot(locked),
        )
    return locked
