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


def _logging_as_configured(**_: Any) -> None:
    import logging.config

    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)


def _celery_signals_connect() -> None:
    """The request's id into the tasks it asks for and onto their log lines; each task's time and failures
    measured (``casino.request_ids``, ``casino.metrics``); a worker's own metrics served where asked for."""
    from celery.signals import (
        before_task_publish,
        setup_logging,
        task_failure,
        task_postrun,
        task_prerun,
        worker_init,
    )

    from casino import metrics, request_ids

    # A worker logs as the web does (settings.LOGGING: plain or JSON lines, the request's id), not in Celery's own
    # format: with a receiver here Celery leaves the logging as Django configured it.
    setup_logging.connect(_logging_as_configured, dispatch_uid="casino.logging_as_configured")
    before_task_publish.connect(request_ids.task_header_add, dispatch_uid="casino.request_id_header")
    task_prerun.connect(request_ids.task_ids_take, dispatch_uid="casino.task_ids_take")
    task_postrun.connect(request_ids.task_ids_let_go, dispatch_uid="casino.task_ids_let_go")
    task_prerun.connect(metrics.task_started, dispatch_uid="casino.task_started")
    task_postrun.connect(metrics.task_ended, dispatch_uid="casino.task_ended")
    task_failure.connect(metrics.task_failed, dispatch_uid="casino.task_failed")
    worker_init.connect(metrics.worker_metrics_serve, dispatch_uid="casino.worker_metrics")


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino floor"

    def ready(self) -> None:
        # Registered on import: the system checks, and the receiver that ends a user's API token at a password change.
        from casino import checks, tokens  # noqa: F401

        # Once per migrate, after every app's migrations (the last app's signal is enough, but each is cheap).
        post_migrate.connect(_after_migrate, dispatch_uid="casino.after_migrate")
        _celery_signals_connect()
        # After Django's own receiver (connected when django.db was imported): a kept connection whose socket is quiet
        # counts as checked, without Django's SELECT 1 (casino.kept_connections).
        from django.core.signals import request_finished, request_started

        from casino.audit import audit_after_answer, audit_request_started
        from casino.kept_connections import kept_connections_check

        request_started.connect(kept_connections_check, dispatch_uid="casino.kept_connections_check")
        # The audit log's sequencing that a request's write makes due runs after the request's answer is sent.
        request_started.connect(audit_request_started, dispatch_uid="casino.audit_request_started")
        request_finished.connect(audit_after_answer, dispatch_uid="casino.audit_after_answer")
