"""One-statement writes and reads of single rows, for the hot paths (settling a round, the audit chain).

Django's ``Model.save()`` and ``QuerySet.get()`` build their SQL anew on every call: for a
settlement that is most of the time the process spends (docs/performance.md, "Settlement").
These helpers write and read the same rows the ORM would, with the statement text built once
per model and the values prepared by the model's own fields (``get_db_prep_save``) and read back
through its own converters (``from_db_value``), so what is stored and what comes back is exactly
what the ORM stores and returns.

They skip what the models here do not use: model signals (none is connected to these models),
multi-table inheritance and database routing (one database).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import connection, models

M = TypeVar("M", bound=models.Model)

Converter = Callable[[Any, Any, Any], Any]


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _insert_sql(model: type[models.Model], vendor: str, returning: bool) -> tuple[str, tuple[models.Field, ...]]:
    fields = tuple(f for f in model._meta.concrete_fields if not f.primary_key)
    table = _quote(model._meta.db_table)
    columns = ", ".join(_quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    back = f" RETURNING {_quote(model._meta.pk.column)}" if returning else ""
    return f"INSERT INTO {table} ({columns}) VALUES ({marks}){back}", fields


def insert_statement(instance: models.Model) -> tuple[str, list[Any]]:
    """The ``INSERT`` (``RETURNING pk`` where the database can) of a new instance and its values, as ``save()``
    would write them; ``inserted_from`` reads the new pk after it."""
    returning = connection.features.can_return_columns_from_insert
    sql, fields = _insert_sql(type(instance), connection.vendor, returning)
    return sql, [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]


def inserted(instance: M, pk: Any) -> M:
    """Mark ``instance`` as the stored row ``pk``, as ``save()`` leaves it."""
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = connection.alias
    return instance


def inserted_from(cursor: Any, instance: M) -> M:
    """``inserted`` with the pk of the ``insert_statement`` the cursor just ran (its RETURNING row, or the last
    row id on a database without RETURNING: SQLite before 3.35)."""
    returning = connection.features.can_return_columns_from_insert
    return inserted(instance, cursor.fetchone()[0] if returning else cursor.lastrowid)


def row_insert(instance: M) -> M:
    """INSERT a new instance as ``save()`` would (``auto_now_add`` and defaults included) and set its pk."""
    sql, values = insert_statement(instance)
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        return inserted_from(cursor, instance)


def statements_in_one_trip() -> bool:
    """Whether several statements may go to the database in one round trip (one query string).

    PostgreSQL through psycopg's client-side binding (Django's default) sends a query with the
    simple protocol, which runs several statements in turn, each with its own snapshot; SQLite's
    driver takes one statement at a time.
    """
    if connection.vendor != "postgresql" or connection.settings_dict["OPTIONS"].get("server_side_binding"):
        return False
    return _psycopg3()


@cache
def _psycopg3() -> bool:
    """Whether Django drives PostgreSQL through psycopg 3 (psycopg2 keeps only the last statement's result)."""
    from django.db.backends.postgresql.psycopg_any import is_psycopg3

    return bool(is_psycopg3)


def update_statement(instance: models.Model, fields: Sequence[str]) -> tuple[str, list[Any]]:
    """The ``UPDATE`` of the named fields of an existing row, and its values, as ``save(update_fields=...)``."""
    if not fields:
        raise ValueError("an UPDATE needs at least one field")
    meta = instance._meta
    chosen = [meta.get_field(name) for name in dict.fromkeys(fields)]  # each once, in order
    assignments = ", ".join(f"{_quote(f.column)} = %s" for f in chosen)
    values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in chosen]
    where = _quote(meta.pk.column)
    return f"UPDATE {_quote(meta.db_table)} SET {assignments} WHERE {where} = %s", [*values, instance.pk]


@cache
def _columns(model: type[models.Model], names: tuple[str, ...]) -> tuple[tuple[Any, models.Field], ...]:
    return tuple(
        (model._meta.get_field(name).get_col(model._meta.db_table), model._meta.get_field(name)) for name in names
    )


def _converters(model: type[models.Model], names: tuple[str, ...]) -> list[tuple[Any, list[Any]]]:
    """Each column's converters, as the ORM applies them: the backend's, then the field's (``from_db_value``).
    Looked up on every call: the backend's are bound to this thread's connection."""
    ops = connection.ops
    return [
        (column, ops.get_db_converters(column) + field.get_db_converters(connection))
        for column, field in _columns(model, names)
    ]


def columns_sql(model: type[models.Model], names: Sequence[str], alias: str) -> str:
    """``alias."column", ...`` for the fields ``names`` of ``model``, for a hand-written SELECT."""
    meta = model._meta
    return ", ".join(f"{alias}.{_quote(meta.get_field(name).column)}" for name in names)


def concrete_names(model: type[models.Model]) -> tuple[str, ...]:
    """Every stored field's attribute name (``table_id`` for a foreign key), in the model's order."""
    return tuple(f.attname for f in model._meta.concrete_fields)


def instance_from_row(model: type[M], names: Sequence[str], values: Sequence[Any]) -> M:
    """A model instance from the values of ``names`` as a raw cursor returned them.

    ``names`` are attribute names in the model's field order (``concrete_names`` or a part of it,
    in order); fields left out are deferred, loaded if read, as with ``QuerySet.only()``.
    """
    converted = []
    for (column, converters), value in zip(_converters(model, tuple(names)), values, strict=True):
        for converter in converters:
            value = converter(value, column, connection)
        converted.append(value)
    return model.from_db(connection.alias, list(names), converted)
