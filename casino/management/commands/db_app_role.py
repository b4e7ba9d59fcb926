"""``manage.py db_app_role ROLE``: give the application's PostgreSQL role its privileges, and no more.

Run it as the database's owner (or a superuser) after ``migrate``; ``--create`` makes the role first
(a login role with no special attribute; its password from the environment variable ``--password-env``
names). ``--check`` says instead whether the role this process connects as is the least-privilege one.
"""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction

from casino.db_role import app_role_check, app_role_create, app_role_grant, role_exists


class Command(BaseCommand):
    help = "Grant the application's PostgreSQL role what it may do (no UPDATE/DELETE on append-only tables, no DDL)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("role", nargs="?", default="", help="the application's role (e.g. tableside_app)")
        parser.add_argument("--create", action="store_true", help="create the role if it does not exist")
        parser.add_argument("--password-env", default="", help="environment variable holding the new role's password")
        parser.add_argument("--check", action="store_true", help="check the role this process connects as")

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("Database roles are PostgreSQL's: SQLite has none (its triggers still refuse edits).")
        if options["check"]:
            report = app_role_check(connection)
            if report.least_privilege:
                self.stdout.write(f"{report.role}: may not change, remove or alter any append-only table.")
                return
            problems = []
            if report.superuser:
                problems.append("is a superuser")
            if report.owns:
                problems.append(f"owns {', '.join(report.owns)} (an owner can drop their triggers)")
            if report.creates:
                problems.append(
                    "may CREATE in the schema public (PostgreSQL before 15 grants it to everyone: "
                    "REVOKE CREATE ON SCHEMA public FROM PUBLIC)"
                )
            if report.may_change:
                problems.append(f"may UPDATE, DELETE or TRUNCATE {', '.join(report.may_change)}")
            raise CommandError(f"{report.role} is not a least-privilege application role: it {'; it '.join(problems)}.")
        role = options["role"].strip()
        if not role:
            raise CommandError("Name the application's role, e.g. `manage.py db_app_role tableside_app`.")
        with transaction.atomic():
            if options["create"]:
                password = os.environ.get(options["password_env"], "") if options["password_env"] else ""
                app_role_create(connection, role, password or None)
            elif not role_exists(connection, role):
                raise CommandError(f"There is no role {role!r}: create it, or add --create.")
            statements = app_role_grant(connection, role)
        self.stdout.write(f"{role}: {len(statements)} grants and revokes applied.")
