"""Casino's hand-written SQL, in one place: one-statement writes and reads of single rows, for the hot
paths (settling a round, the audit log), the audit events' numbers and the sequencer's lock.

Django's ``Model.save()`` and ``QuerySet.get()`` build their SQL anew on every call: for a
settlement that is most of the time the process spends (docs/performance.md, "Settlement").
These helpers write and read the same rows the ORM would, with the statement text built once
per model and the values prepared by the model's own fields (``get_db_prep_save``) and read back
through its own converters (``from_db_value``), so what is stored and what comes back is exactly
what the ORM stores and returns.

They skip what the models here do not use: model signals (none is connected to these models),
multi-table inheritance and database routing (one database).

``user_group_names`` reads a user's groups (their roles) on every request; ``row_insert_unless_taken`` takes an API
write's idempotency key in one statement, and ``row_update`` keeps its answer. ``audit_event_insert`` writes an
audit event whose number the INSERT itself draws, running the change the event records in the same round trip where
it can; it takes no lock (``casino.audit`` computes the events' hashes). ``sequencer_lock`` is taken only by the
sequencer that folds the events into the log's tree, never by a writer.

The one vendor switch is ``_dialect()``: what differs between PostgreSQL and SQLite is said there and
nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper

from casino.models import AuditEvent

M = TypeVar("M", bound=models.Model)
T = TypeVar("T")

Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class _Dialect:
    """What this module's SQL needs to know of the database."""

    returning: bool  # an INSERT can return the new pk (``RETURNING``; not SQLite before 3.35)
    statements_in_one_trip: bool  # several statements in one query string, each run in turn
    writes_in_with: bool  # a WITH holds an INSERT whose rows the statement reads on (PostgreSQL's data-modifying WITH)
    event_number: str  # the statement drawing the next audit event's number
    sequencer_lock: str  # taking the sequencer's lock, waiting ("" where the database serialises writers itself)
    sequencer_try_lock: str  # taking it if free, answering whether it was
    report_reads: str  # what a report's transaction of large reads sets first ("" where nothing pays)


# An arbitrary constant naming "the audit log's sequencer" among PostgreSQL advisory locks.
_SEQUENCER_LOCK_KEY = 0x7AB1E51DE


@cache
def _dialect_of(vendor: str, returning: bool, server_side_binding: bool) -> _Dialect:
    if vendor == "postgresql":
        return _Dialect(
            returning=returning,
            # psycopg 3's client-side binding (Django's default) sends a query with the simple protocol, which
            # runs several statements in turn, each with its own snapshot; psycopg2 keeps only the last one's
            # result, and server-side binding takes one statement at a time.
            statements_in_one_trip=not server_side_binding and _psycopg3(),
            writes_in_with=True,
            # A sequence is never rolled back and never waits: the numbers of rolled-back writes are skipped.
            event_number="SELECT nextval('casino_auditevent_number')",
            sequencer_lock=f"SELECT pg_advisory_xact_lock({_SEQUENCER_LOCK_KEY})",
            sequencer_try_lock=f"SELECT pg_try_advisory_xact_lock({_SEQUENCER_LOCK_KEY})",
            # A report's statements run once each over millions of rows: compiling them to machine code (JIT, on by
            # default) cost 0.1-0.6 s a statement and won less (docs/performance.md, "The reports at 1,000,000
            # wagers"). For this transaction only.
            report_reads="SET LOCAL jit = off",
        )
    if vendor == "sqlite":  # its driver takes one statement at a time; a write locks the whole file
        seq, table = column(stored_field(AuditEvent, "seq")), quote(AuditEvent._meta.db_table)
        return _Dialect(
            returning=returning,
            statements_in_one_trip=False,
            writes_in_with=False,
            event_number=f"SELECT COALESCE(MAX({seq}), 0) + 1 FROM {table}",
            sequencer_lock="",
            sequencer_try_lock="",
            report_reads="",
        )
    raise ImproperlyConfigured(f"Tableside runs on PostgreSQL or SQLite, not {vendor}.")


def per_connection(name: str, make: Callable[[BaseDatabaseWrapper], T]) -> T:
    """``make(connection)`` worked out once a database connection and kept on it under ``name``: what an SQL
    module asks of the database several times a settle costs one look-up of the connection, not several."""
    wrapper = connections[DEFAULT_DB_ALIAS]
    if name not in wrapper.__dict__:
        wrapper.__dict__[name] = make(wrapper)
    return cast(T, wrapper.__dict__[name])


def _dialect() -> _Dialect:
    """The one vendor switch of this module."""
    return per_connection(
        "_tableside_rows_dialect",
        lambda wrapper: _dialect_of(
            wrapper.vendor,
            wrapper.features.can_return_columns_from_insert,
            bool(wrapper.settings_dict["OPTIONS"].get("server_side_binding")),
        ),
    )


@cache
def _psycopg3() -> bool:
    """Whether Django drives PostgreSQL through psycopg 3."""
    # Imported here, not at the top: the module imports psycopg, which a SQLite-only install may lack.
    from django.db.backends.postgresql.psycopg_any import is_psycopg3

    return bool(is_psycopg3)


@contextmanager
def report_reads() -> Iterator[None]:
    """A transaction for a report's reads of a shift's millions of rows, set for them (``_Dialect.report_reads``)."""
    with transaction.atomic():
        statement = _dialect().report_reads
        if statement:
            with connection.cursor() as cursor:
                cursor.execute(statement)
        yield


def quote(name: str) -> str:
    """A table or column name quoted for this database."""
    return connection.ops.quote_name(name)


def stored_field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    """The field ``name`` of ``model`` that is stored in its table (not a reverse relation)."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field):
        raise TypeError(f"{model.__name__}.{name} is not stored in its table")
    return field


def column(field: models.Field[Any, Any]) -> str:
    """A stored field's column name, quoted for this database."""
    if field.column is None:
        raise TypeError(f"{field} has no column")
    return quote(field.column)


def _pk(model: type[models.Model]) -> models.Field[Any, Any]:
    pk = model._meta.pk
    if pk is None:
        raise TypeError(f"{model.__name__} has no primary key")
    return pk


@cache
def _insert_sql(model: type[models.Model], dialect: _Dialect) -> tuple[str, tuple[models.Field[Any, Any], ...]]:
    fields = tuple(f for f in model._meta.concrete_fields if not f.primary_key)
    table = quote(model._meta.db_table)
    columns = ", ".join(column(f) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    back = f" RETURNING {column(_pk(model))}" if dialect.returning else ""
    return f"INSERT INTO {table} ({columns}) VALUES ({marks}){back}", fields


def insert_statement(instance: models.Model) -> tuple[str, list[Any]]:
    """The ``INSERT`` (``RETURNING pk`` where the database can) of a new instance and its values, as ``save()``
    would write them; ``inserted_from`` reads the new pk after it."""
    sql, fields = _insert_sql(type(instance), _dialect())
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
    return inserted(instance, cursor.fetchone()[0] if _dialect().returning else cursor.lastrowid)


def row_insert(instance: M) -> M:
    """INSERT a new instance as ``save()`` would (``auto_now_add`` and defaults included) and set its pk."""
    sql, values = insert_statement(instance)
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        return inserted_from(cursor, instance)


@cache
def _insert_unless_taken_sql(model: type[models.Model], unique: tuple[str, ...], dialect: _Dialect) -> tuple[str, bool]:
    """``_insert_sql`` of ``model`` that writes nothing where a row holds the same ``unique`` values, and whether it
    returns the new pk; built once a model, constraint and database."""
    sql, _fields = _insert_sql(model, dialect)
    target = ", ".join(column(stored_field(model, name)) for name in unique)
    head, returning, back = sql.partition(" RETURNING ")
    return f"{head} ON CONFLICT ({target}) DO NOTHING" + (f" RETURNING {back}" if returning else ""), bool(returning)


def row_insert_unless_taken(instance: M, unique: Sequence[str]) -> M | None:
    """INSERT a new instance as ``row_insert`` does, unless a row holding the same values of the fields ``unique``
    (a unique constraint's) is there: then nothing is written and the answer is None. One statement and no
    savepoint (``ON CONFLICT DO NOTHING``): the other row does not abort the caller's transaction, as an INSERT's
    IntegrityError would. A row of another transaction not yet committed is waited for, as by any INSERT."""
    _sql, values = insert_statement(instance)
    sql, returning = _insert_unless_taken_sql(type(instance), tuple(unique), _dialect())
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        if not returning:  # SQLite before 3.35: whether it wrote, then the row it wrote
            return inserted(instance, cursor.lastrowid) if cursor.rowcount == 1 else None
        written = cursor.fetchone()  # SQLite counts a RETURNING statement's rows only once they are read
        return inserted(instance, written[0]) if written is not None else None


def row_update(instance: models.Model, fields: Sequence[str]) -> None:
    """UPDATE the named fields of an existing row, as ``save(update_fields=...)`` would (``update_statement``)."""
    sql, values = update_statement(instance, fields)
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        if cursor.rowcount != 1:  # as save(update_fields=...) says of a row gone
            raise DatabaseError(f"{type(instance).__name__} {instance.pk}: the UPDATE changed {cursor.rowcount} rows")


def row_update_stored(model: type[models.Model], pk: Any, values: Mapping[str, Any]) -> None:
    """UPDATE the named fields of ``model``'s row ``pk`` to ``values`` as the database stores them (a str, an int,
    bytes), in one statement built once: ``row_update`` without the fields' own preparation of each value, which
    costs an API write's answer about 35 µs of CPU (``casino.idempotency``; docs/performance.md, "A round over HTTP
    through gunicorn")."""
    sql, _chosen = _update_sql(model, tuple(values), connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values.values(), pk])
        if cursor.rowcount != 1:  # as save(update_fields=...) says of a row gone
            raise DatabaseError(f"{model.__name__} {pk}: the UPDATE changed {cursor.rowcount} rows")


def writes_in_with() -> bool:
    """Whether one statement may read a row and INSERT from it in a ``WITH`` (PostgreSQL), on one snapshot."""
    return _dialect().writes_in_with


def statements_in_one_trip() -> bool:
    """Whether several statements may go to the database in one round trip (one query string), each
    with its own snapshot: PostgreSQL through psycopg 3's client-side binding, not SQLite."""
    return _dialect().statements_in_one_trip


@cache
def _update_sql(model: type[models.Model], names: tuple[str, ...], vendor: str) -> tuple[str, tuple[Any, ...]]:
    """The ``UPDATE`` of the fields ``names`` (each once, in order) of ``model``'s row by pk, and those fields; built
    once a model, fields and database vendor (the names quoted as its connection quotes them)."""
    chosen = tuple(stored_field(model, name) for name in dict.fromkeys(names))
    assignments = ", ".join(f"{column(f)} = %s" for f in chosen)
    where = column(_pk(model))
    return f"UPDATE {quote(model._meta.db_table)} SET {assignments} WHERE {where} = %s", chosen


def update_statement(instance: models.Model, fields: Sequence[str]) -> tuple[str, list[Any]]:
    """The ``UPDATE`` of the named fields of an existing row, and its values, as ``save(update_fields=...)``."""
    if not fields:
        raise ValueError("an UPDATE needs at least one field")
    sql, chosen = _update_sql(type(instance), tuple(fields), connection.vendor)
    values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in chosen]
    return sql, [*values, instance.pk]


@cache
def _columns(model: type[models.Model], names: tuple[str, ...]) -> tuple[tuple[Any, models.Field[Any, Any]], ...]:
    fields = [stored_field(model, name) for name in names]
    return tuple((field.get_col(model._meta.db_table), field) for field in fields)


def _converters(model: type[models.Model], names: tuple[str, ...]) -> list[tuple[Any, list[Any]]]:
    """Each column's converters, as the ORM applies them: the backend's, then the field's (``from_db_value``).
    Kept on this thread's connection (the backend's are bound to it), worked out once a model and columns."""
    known: dict[tuple[type[models.Model], tuple[str, ...]], list[tuple[Any, list[Any]]]] = per_connection(
        "_tableside_converters", lambda wrapper: {}
    )
    found = known.get((model, names))
    if found is None:
        ops = connection.ops
        found = known[(model, names)] = [
            (column, ops.get_db_converters(column) + field.get_db_converters(connection))
            for column, field in _columns(model, names)
        ]
    return found


def columns_sql(model: type[models.Model], names: Sequence[str], alias: str) -> str:
    """``alias."column", ...`` for the fields ``names`` of ``model``, for a hand-written SELECT."""
    return ", ".join(f"{alias}.{column(stored_field(model, name))}" for name in names)


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


# --- the audit log -----------------------------------------------------------------------------------


@cache
def _event_insert_sql(dialect: _Dialect) -> tuple[str, tuple[models.Field[Any, Any], ...]]:
    """The audit event's INSERT that draws its number itself (PostgreSQL: ``nextval`` in the statement), returning
    its pk and number; with no sequence (SQLite), the INSERT of every field. Either writes nothing where an event
    with the same hash is stored (``ON CONFLICT DO NOTHING``: no row returned, none counted)."""
    if not dialect.event_number.startswith("SELECT nextval"):
        sql, _returns = _insert_unless_taken_sql(AuditEvent, ("hash",), dialect)
        return sql, _insert_sql(AuditEvent, dialect)[1]
    fields = tuple(f for f in AuditEvent._meta.concrete_fields if not f.primary_key and f.name != "seq")
    table = quote(AuditEvent._meta.db_table)
    columns = ", ".join([column(stored_field(AuditEvent, "seq")), *(column(f) for f in fields)])
    marks = ", ".join(["nextval('casino_auditevent_number')", *(["%s"] * len(fields))])
    back = f"{column(_pk(AuditEvent))}, {column(stored_field(AuditEvent, 'seq'))}"
    unless = f"ON CONFLICT ({column(stored_field(AuditEvent, 'hash'))}) DO NOTHING"
    return f"INSERT INTO {table} ({columns}) VALUES ({marks}) {unless} RETURNING {back}", fields


def audit_event_insert(event: AuditEvent, change: tuple[str, Sequence[Any]] | None = None) -> AuditEvent | None:
    """Run ``change`` (a statement and its parameters, the UPDATE of one row) if given, then INSERT ``event``, whose
    number the database draws in the same statement (a sequence: never rolled back, never waited for; the numbers of
    rolled-back writes are skipped), in one round trip where the driver allows; ``event.seq`` and its pk are set.
    ``change`` must change exactly one row (RuntimeError otherwise). No lock: two writers never wait for each
    other here (on SQLite the database serialises its writers itself, and the number is the highest plus one).

    None, with ``change`` run all the same, where an event with the same hash is stored (the same fact at the same
    microsecond; one not yet committed is waited for, as by any INSERT): nothing of ``event`` is written, and the
    caller's transaction goes on (``casino.audit`` stamps it a microsecond later and writes it again)."""
    dialect = _dialect()
    sql, fields = _event_insert_sql(dialect)
    drawn = dialect.event_number.startswith("SELECT nextval")
    with connection.cursor() as cursor:
        if change and (not drawn or not dialect.statements_in_one_trip):
            cursor.execute(*change)
            _changed_one_row(cursor.rowcount)
            change = None
        if not drawn:
            cursor.execute(dialect.event_number)
            event.seq = int(cursor.fetchone()[0])
        values = [f.get_db_prep_save(f.pre_save(event, True), connection) for f in fields]
        if change:
            cursor.execute(f"{change[0]}; {sql}", [*change[1], *values])
            _changed_one_row(cursor.rowcount)
            cursor.nextset()
        else:
            cursor.execute(sql, values)
        written = cursor.fetchone() if drawn or dialect.returning else None
        if drawn:
            if written is None:
                return None
            pk, event.seq = written
            return inserted(event, pk)
        if written is None and cursor.rowcount != 1:  # SQLite before 3.35 returns nothing: it counts what it wrote
            return None
        return inserted(event, written[0] if written is not None else cursor.lastrowid)


def audit_event_next_number() -> int:
    """Draw an audit event's number on its own (a data migration's event; the services' go through
    ``audit_event_insert``)."""
    with connection.cursor() as cursor:
        cursor.execute(_dialect().event_number)
        return int(cursor.fetchone()[0])


def audit_event_numbers_resume() -> None:
    """Draw the next audit event's number after the highest one stored: after events were loaded by hand (an
    upgrade, a restore). PostgreSQL only; SQLite takes the highest stored number plus one every time."""
    if connection.vendor != "postgresql":
        return
    seq, table = column(stored_field(AuditEvent, "seq")), quote(AuditEvent._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT setval('casino_auditevent_number', COALESCE((SELECT MAX({seq}) FROM {table}), 0) + 1, false)"
        )


def sequencer_lock(*, wait: bool) -> bool:
    """Take the audit log sequencer's lock until the transaction ends: whether it is held (``wait`` False: only if
    no other sequencer holds it). Statements after it read what the sequencer before it committed."""
    dialect = _dialect()
    if not dialect.sequencer_lock:
        return True
    with connection.cursor() as cursor:
        cursor.execute(dialect.sequencer_lock if wait else dialect.sequencer_try_lock)
        return wait or bool(cursor.fetchone()[0])


def _changed_one_row(count: int) -> None:
    if count != 1:  # the caller holds the row's lock: anything else is a bug, and the transaction rolls back
        raise RuntimeError(f"the change an audit event records must change one row; it changed {count}")


# --- a user's groups (their roles, ``casino.roles``) -------------------------------------------------


@cache
def _group_names_sql() -> str:
    """The names of one user's groups: the SELECT the ORM's ``user.groups.values_list("name")`` sends."""
    groups = get_user_model().groups
    through = groups.through._meta.db_table
    user_column, group_column = groups.field.m2m_column_name(), groups.field.m2m_reverse_name()
    return (
        f"SELECT g.{quote('name')} FROM {quote(Group._meta.db_table)} g JOIN {quote(through)} ug "
        f"ON ug.{quote(group_column)} = g.{quote('id')} WHERE ug.{quote(user_column)} = %s"
    )


def user_group_names(user_pk: Any) -> set[str]:
    """The names of a user's groups, in one statement built once.

    Read on every request of a signed-in user (``casino.roles.user_roles``, once a user object):
    the ORM's query costs about 0.34 ms more CPU a call, 14% of a settle's rate on the settle path
    (docs/performance.md, "The re-layout"), so it is written out here; ``tests/casino/test_roles.py``
    holds it to the ORM's answer.
    """
    with connection.cursor() as cursor:
        cursor.execute(_group_names_sql(), [user_pk])
        return {name for (name,) in cursor.fetchall()}
