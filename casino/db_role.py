"""The application's database role on PostgreSQL: what it may do, granted after every ``migrate``.

The tables and the triggers belong to the role that runs the migrations (the database's owner, or a
superuser); the application connects as another role (``TABLESIDE_DB_APP_ROLE``, ``tableside_app`` in the
README) that may read and write the tables it needs and nothing else:

* SELECT and INSERT on the append-only tables (``casino.append_only``): no UPDATE, DELETE or TRUNCATE;
* on a guarded table (a round, a seat, a request for a void or a correction: ``guarded_triggers``), SELECT,
  INSERT and UPDATE of the columns that may change only: no UPDATE of a frozen column, no DELETE;
* SELECT, INSERT, UPDATE and DELETE on the other tables; no TRUNCATE, REFERENCES or TRIGGER;
* SELECT only on ``django_migrations``; USAGE on the sequences and the schema, and no CREATE: no DDL,
  so it can neither drop a trigger nor alter a table (only a table's owner can).

``app_role_grant`` is idempotent: ``manage.py db_app_role`` runs it, and so does every ``migrate`` (a
``post_migrate`` receiver) when ``TABLESIDE_DB_APP_ROLE`` names the role, so a new table is granted with
the migration that makes it. The statements are PostgreSQL's; SQLite has no roles (its file's owner
can do anything, so there the triggers only guard against the application's own mistakes).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import DatabaseError, transaction
from django.db.backends.base.base import BaseDatabaseWrapper

from casino.append_only import append_only_tables, guarded_frozen_columns

READ_ONLY_TABLES = ("django_migrations",)


@dataclass(frozen=True)
class RoleReport:
    """What a connection's current role may do to the append-only tables (``app_role_check``)."""

    role: str
    superuser: bool
    owns: tuple[str, ...]
    may_change: tuple[str, ...]
    creates: bool = False  # may CREATE in the schema (PostgreSQL before 15 grants it to PUBLIC)

    @property
    def least_privilege(self) -> bool:
        return not (self.superuser or self.owns or self.may_change or self.creates)


def _q(connection: BaseDatabaseWrapper, name: str) -> str:
    return connection.ops.quote_name(name)


def app_role_statements(connection: BaseDatabaseWrapper, role: str) -> list[str]:
    """The GRANT and REVOKE statements that leave ``role`` with the application's privileges, and no more."""
    r = _q(connection, role)
    append_only = set(append_only_tables())
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        database = cursor.fetchone()[0]
    statements = [
        f"GRANT CONNECT ON DATABASE {_q(connection, database)} TO {r}",
        f"GRANT USAGE ON SCHEMA public TO {r}",
        f"REVOKE CREATE ON SCHEMA public FROM {r}",
    ]
    guarded = guarded_frozen_columns()
    for table in sorted(connection.introspection.table_names()):
        t = _q(connection, table)
        statements.append(f"REVOKE ALL ON {t} FROM {r}")
        if table in append_only:
            statements.append(f"GRANT SELECT, INSERT ON {t} TO {r}")
        elif table in guarded:
            with connection.cursor() as cursor:
                columns = [c.name for c in connection.introspection.get_table_description(cursor, table)]
            changing = ", ".join(_q(connection, c) for c in columns if c not in guarded[table] and c != "id")
            statements.append(f"GRANT SELECT, INSERT, UPDATE ({changing}) ON {t} TO {r}")
        elif table in READ_ONLY_TABLES:
            statements.append(f"GRANT SELECT ON {t} TO {r}")
        else:
            statements.append(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {t} TO {r}")
    statements.append(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {r}")
    return statements


def role_exists(connection: BaseDatabaseWrapper, role: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
        return cursor.fetchone() is not None


def app_role_create(connection: BaseDatabaseWrapper, role: str, password: str | None = None) -> None:
    """Create ``role`` as a login role with no special attribute, if it does not exist yet.

    Several processes may ask at once (the test suite's workers): the second one finds it made.
    """
    password_clause = " PASSWORD %s" if password else ""
    sql = (
        f"CREATE ROLE {_q(connection, role)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION "
        f"NOBYPASSRLS{password_clause}"
    )
    if role_exists(connection, role):
        return
    try:
        with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
            cursor.execute(sql, [password] if password else None)
    except DatabaseError:
        if not role_exists(connection, role):
            raise


def app_role_grant(connection: BaseDatabaseWrapper, role: str) -> list[str]:
    """Grant ``role`` the application's privileges on every table of the database; return the statements."""
    if connection.vendor != "postgresql":
        return []
    statements = app_role_statements(connection, role)
    # All or nothing: the running application never sees the role between a REVOKE and its GRANT.
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
    return statements


def app_role_check(connection: BaseDatabaseWrapper) -> RoleReport:
    """What the connection's current role may do to the append-only tables: is it the least-privilege role?"""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_user, rolsuper, has_schema_privilege(current_user, 'public', 'CREATE') "
            "FROM pg_roles WHERE rolname = current_user"
        )
        role, superuser, creates = cursor.fetchone()
        owns, may_change = [], []
        for table in append_only_tables():
            cursor.execute(
                "SELECT pg_get_userbyid(relowner) = current_user, "
                "has_table_privilege(current_user, c.oid, 'UPDATE, DELETE, TRUNCATE') "
                "FROM pg_class c WHERE c.oid = to_regclass(%s)",
                [table],
            )
            row = cursor.fetchone()
            if row is None:
                continue
            if row[0]:
                owns.append(table)
            if row[1]:
                may_change.append(table)
    return RoleReport(
        role=role, superuser=bool(superuser), owns=tuple(owns), may_change=tuple(may_change), creates=bool(creates)
    )
