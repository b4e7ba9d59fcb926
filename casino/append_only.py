"""Append-only rows: the ledger and the audit log grow by new rows, never by edits.

Three guards, each for a different mistake or attacker (README, "The audit trail"):

* the ORM: a model that inherits ``AppendOnlyModel`` refuses ``save()`` on an existing row,
  ``delete()``, and the queryset's bulk ``update()`` and ``delete()``;
* the database: triggers refuse UPDATE, DELETE and TRUNCATE on those tables. On PostgreSQL they are
  django-pgtrigger's ``Protect`` triggers (``append_only_triggers``, in each model's ``Meta.triggers``,
  installed by the migrations); SQLite has no such library, so ``sqlite_triggers_install`` writes the
  same refusal as SQLite triggers after every ``migrate`` (a migration that rebuilds a table drops them);
* the application's database role, which holds no UPDATE, DELETE or TRUNCATE privilege on them
  (``casino.db_role``).

Corrections are new rows that refer to the old ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

import pgtrigger
from django.apps import apps
from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper


class AppendOnlyError(Exception):
    """Raised on any attempt to change or remove a row of an append-only table."""


_M = TypeVar("_M", bound=models.Model)


class AppendOnlyQuerySet(models.QuerySet[_M]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{self.model._meta.verbose_name_plural} are append-only: rows cannot be updated")

    def delete(self) -> NoReturn:
        raise AppendOnlyError(f"{self.model._meta.verbose_name_plural} are append-only: rows cannot be deleted")

    def bulk_update(self, objs: Any, fields: Any, batch_size: int | None = None) -> NoReturn:
        raise AppendOnlyError(f"{self.model._meta.verbose_name_plural} are append-only: rows cannot be updated")


class AppendOnlyModel(models.Model):
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError(
                f"{self._meta.verbose_name} {self.pk} is append-only: it cannot be changed; "
                "add a correcting row instead"
            )
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{self._meta.verbose_name} {self.pk} is append-only: it cannot be deleted")


def append_only_triggers() -> list[pgtrigger.Trigger]:
    """PostgreSQL's refusal of every change but INSERT, for an append-only model's ``Meta.triggers``.

    Row triggers for UPDATE and DELETE (an INSERT fires nothing: the settle path pays nothing for them)
    and a statement trigger for TRUNCATE, which fires no row trigger.
    """
    return [
        pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete),
        _no_truncate("append_only_truncate"),
    ]


def _no_truncate(name: str) -> pgtrigger.Trigger:
    """TRUNCATE refused (``Protect`` covers row operations only; TRUNCATE fires statement triggers)."""
    return pgtrigger.Trigger(
        name=name,
        operation=pgtrigger.Truncate,
        level=pgtrigger.Statement,
        when=pgtrigger.Before,
        func="RAISE EXCEPTION 'pgtrigger: Cannot truncate % table', TG_TABLE_NAME;",
    )


def append_only_models() -> list[type[models.Model]]:
    """Every installed append-only model."""
    return [model for model in apps.get_models() if issubclass(model, AppendOnlyModel)]


def append_only_tables() -> list[str]:
    """The database tables of every append-only model."""
    return sorted(model._meta.db_table for model in append_only_models())


# A table whose rows change but some of whose columns never do once written (a round's table, number and
# frozen rules), others never once the row has reached given states (a round's deal, once dealt), and whose
# finished rows never move again. Refused like an append-only table's changes (``guarded_triggers``).
@dataclass(frozen=True)
class _Guard:
    frozen: tuple[str, ...]
    state: str | None
    final_states: tuple[str, ...]
    frozen_from: tuple[tuple[str, ...], tuple[str, ...]]  # (columns, the states from which they are frozen)
    final_frozen: tuple[str, ...] = ()  # columns frozen once the row is in one of its final states


_GUARDED: dict[str, _Guard] = {}


def guarded_frozen_columns() -> dict[str, tuple[str, ...]]:
    """The guarded tables and the columns of each that never change (``casino.db_role`` grants UPDATE on the
    others only, so the application's role cannot change them whatever a trigger does)."""
    return {table: guard.frozen for table, guard in _GUARDED.items()}


def _guard_condition(table: str, distinct: str) -> str:
    guard = _GUARDED[table]

    def states(names: tuple[str, ...]) -> str:
        return ", ".join(f"'{s}'" for s in names)

    changed = [f'OLD."{c}" {distinct} NEW."{c}"' for c in guard.frozen]
    if guard.state is None:
        return " OR ".join(changed)
    columns, since = guard.frozen_from
    if columns:
        later = " OR ".join(f'OLD."{c}" {distinct} NEW."{c}"' for c in columns)
        changed.append(f'(OLD."{guard.state}" IN ({states(since)}) AND ({later}))')
    if guard.final_frozen:
        later = " OR ".join(f'OLD."{c}" {distinct} NEW."{c}"' for c in guard.final_frozen)
        changed.append(f'(OLD."{guard.state}" IN ({states(guard.final_states)}) AND ({later}))')
    if not guard.final_states:  # a row that may go back from every state (a finished tournament reopened)
        return " OR ".join(changed)
    moved = f'OLD."{guard.state}" {distinct} NEW."{guard.state}"'
    final = f'(OLD."{guard.state}" IN ({states(guard.final_states)}) AND {moved})'
    return " OR ".join([*changed, final])


def guarded_triggers(
    table: str,
    *,
    frozen: tuple[str, ...],
    state: str | None = None,
    final_states: tuple[str, ...] = (),
    frozen_from: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
    final_frozen: tuple[str, ...] = (),
) -> list[pgtrigger.Trigger]:
    """For ``Meta.triggers``: refuse an UPDATE of ``table`` that changes a ``frozen`` column, changes one of
    ``frozen_from``'s columns once the row is in one of its states, changes one of ``final_frozen``'s once it is in
    one of its ``final_states``, or moves a row out of one of its ``final_states``; and every DELETE and TRUNCATE
    (the SQLite twin: ``sqlite_triggers_install``)."""
    _GUARDED[table] = _Guard(frozen, state, final_states, frozen_from, final_frozen)
    return [
        pgtrigger.Protect(
            name="frozen_columns",
            operation=pgtrigger.Update,
            condition=pgtrigger.Condition(_guard_condition(table, "IS DISTINCT FROM")),
        ),
        pgtrigger.Protect(name="no_delete", operation=pgtrigger.Delete),
        _no_truncate("no_truncate"),
    ]


# --- SQLite -----------------------------------------------------------------------------------------


def _sqlite_trigger_statements(tables: Iterable[str]) -> list[tuple[str, str, str]]:
    """(table, name, CREATE TRIGGER) for each append-only table and operation, then for each guarded table;
    SQLite has no TRUNCATE."""
    statements = []
    for table in tables:
        for operation in ("UPDATE", "DELETE"):
            name = f"{table}_append_only_{operation.lower()}"
            message = f"{table} is append-only: rows cannot be {operation.lower()}d"
            statements.append(
                (
                    table,
                    name,
                    f'CREATE TRIGGER IF NOT EXISTS "{name}" BEFORE {operation} ON "{table}" '
                    f"BEGIN SELECT RAISE(ABORT, '{message}'); END",
                )
            )
    for table in _GUARDED:
        update, delete = f"{table}_frozen_update", f"{table}_frozen_delete"
        statements.append(
            (
                table,
                update,
                f'CREATE TRIGGER IF NOT EXISTS "{update}" BEFORE UPDATE ON "{table}" '
                f"WHEN {_guard_condition(table, 'IS NOT')} "
                f"BEGIN SELECT RAISE(ABORT, '{table}: a frozen column or a finished row cannot be changed'); END",
            )
        )
        statements.append(
            (
                table,
                delete,
                f'CREATE TRIGGER IF NOT EXISTS "{delete}" BEFORE DELETE ON "{table}" '
                f"BEGIN SELECT RAISE(ABORT, '{table}: rows cannot be deleted'); END",
            )
        )
    return statements


def pgtrigger_escape_hatch_close(connection: BaseDatabaseWrapper) -> None:
    """PostgreSQL: django-pgtrigger's triggers stand aside for a session that names them in the setting
    ``pgtrigger.ignore`` (its function ``_pgtrigger_should_ignore``). Any role may set it, so a role that
    may UPDATE a guarded table (a round) could lift its guard: the function is written again to answer no,
    always, after every ``migrate`` (each trigger a migration installs writes pgtrigger's own again first).
    Tableside never uses ``pgtrigger.ignore``; only a superuser or the tables' owner can switch triggers off."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT prosrc FROM pg_proc WHERE oid = to_regprocedure('public._pgtrigger_should_ignore(name)')"
        )
        found = cursor.fetchone()
        # Closed already (a later post_migrate, e.g. a test's flush, may run as a role that could not write it).
        if found is not None and "current_setting" in found[0].lower():
            cursor.execute(
                "CREATE OR REPLACE FUNCTION public._pgtrigger_should_ignore(trigger_name NAME) RETURNS BOOLEAN "
                "AS $$ BEGIN RETURN FALSE; END; $$ LANGUAGE plpgsql"
            )


def sqlite_triggers_install(connection: BaseDatabaseWrapper) -> None:
    """Write (again) the SQLite triggers that refuse UPDATE and DELETE on every append-only table."""
    if connection.vendor != "sqlite":
        return
    present = set(connection.introspection.table_names())
    with connection.cursor() as cursor:
        for table, _name, sql in _sqlite_trigger_statements(append_only_tables()):
            if table in present:
                cursor.execute(sql)


def sqlite_triggers_drop(connection: BaseDatabaseWrapper) -> None:
    """Remove the SQLite triggers (only the test suite's flush between transactional tests does this)."""
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        for _table, name, _sql in _sqlite_trigger_statements(append_only_tables()):
            cursor.execute(f'DROP TRIGGER IF EXISTS "{name}"')
