from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _after_migrate(sender: AppConfig, using: str = "default", **kwargs: Any) -> None:
    """After every ``migrate``: SQLite's append-only triggers written again (a rebuilt table lost them); on
    PostgreSQL, django-pgtrigger's escape hatch closed and the application's role granted what it may do on
    the tables as they now are."""
    from django.conf import settings
    from django.db import connections

    from casino.append_only import pgtrigger_escape_hatch_close, sqlite_triggers_install
    from casino.db_role import app_role_grant, role_exists

    if sender.name != "casino":  # sent once per app, after all migrations: once is enough
        return
    connection = connections[using]
    sqlite_triggers_install(connection)
    pgtrigger_escape_hatch_close(connection)
    role = getattr(settings, "TABLESIDE_DB_APP_ROLE", "")
    if (
        connection.vendor == "postgresql"
        and role
        and role != connection.settings_dict.get("USER")
        and role_exists(connection, role)
    ):
        app_role_grant(connection, role)


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino floor"

    def ready(self) -> None:
        # Registered on import: the system checks, and the receiver that ends a user's API token at a password change.
        from casino import checks, tokens  # noqa: F401

        # Once per migrate, after every app's migrations (the last app's signal is enough, but each is cheap).
        post_migrate.connect(_after_migrate, dispatch_uid="casino.after_migrate")
