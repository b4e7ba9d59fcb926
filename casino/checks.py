"""System checks for unsafe production settings, with stable ids.

With DEBUG on, development defaults only warn; with DEBUG off they are errors,
so ``manage.py check --deploy`` (and every management command) refuses to run a
production server on the development secret key, on SQLite, or without a
Celery broker. A server that runs no management command (gunicorn, uvicorn) asks
the same checks through ``production_refusals_raise`` from ``config.wsgi`` and
``config.asgi``, and does not start.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, Warning, register
from django.core.exceptions import ImproperlyConfigured

from casino.defaults import DEVELOPMENT_AUDIT_KEY, DEVELOPMENT_SECRET_KEY, EXAMPLE_SECRETS


def _published_secret_key_in_use() -> bool:
    return settings.SECRET_KEY == DEVELOPMENT_SECRET_KEY or settings.SECRET_KEY in EXAMPLE_SECRETS


@register(Tags.security)
def check_secret_key(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    if settings.DEBUG or not _published_secret_key_in_use():
        return []
    return [
        Error(
            "DEBUG is off but SECRET_KEY is the built-in development key."
            if settings.SECRET_KEY == DEVELOPMENT_SECRET_KEY
            else "DEBUG is off but SECRET_KEY is .env.example's placeholder.",
            hint="Set SECRET_KEY to a long random value in the environment.",
            id="casino.E001",
        )
    ]


@register(Tags.security, deploy=True)
def check_secret_key_deploy(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """With DEBUG on the development key only warns, and only under ``check --deploy``."""
    if not settings.DEBUG or not _published_secret_key_in_use():
        return []
    return [
        Warning(
            "Running on the built-in development SECRET_KEY.",
            hint="Fine for a demo; set SECRET_KEY in the environment for anything real.",
            id="casino.W001",
        )
    ]


@register()
def check_database(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    engine = settings.DATABASES["default"]["ENGINE"]
    if settings.DEBUG or engine != "django.db.backends.sqlite3":
        return []
    return [
        Error(
            "DEBUG is off but the database is the embedded SQLite file.",
            hint="Set DATABASE_URL=postgres://USER@HOST:5432/NAME for production.",
            id="casino.E002",
        )
    ]


@register()
def check_celery(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    if settings.DEBUG or not settings.CELERY_TASK_ALWAYS_EAGER:
        return []
    return [
        Error(
            "DEBUG is off but Celery runs tasks eagerly in the web process (no CELERY_BROKER_URL).",
            hint="Set CELERY_BROKER_URL=redis://HOST:6379/0 and run a worker: celery -A config worker.",
            id="casino.E003",
        )
    ]


@register(Tags.security)
def check_audit_key(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """The audit chain's keys are what make it impossible to recompute: none of them is the published development
    key (kept for verifying, it would let anyone who read the source sign an event as that key)."""
    published = {DEVELOPMENT_AUDIT_KEY, *EXAMPLE_SECRETS}
    if settings.DEBUG or not published.intersection(settings.TABLESIDE_AUDIT_KEYS.values()):
        return []
    return [
        Error(
            "DEBUG is off but the audit chain's keys include the built-in development key."
            if DEVELOPMENT_AUDIT_KEY in settings.TABLESIDE_AUDIT_KEYS.values()
            else "DEBUG is off but the audit chain's keys include .env.example's placeholder.",
            hint="Set TABLESIDE_AUDIT_KEYS=id:secret (a long random secret, kept outside the database): see README.",
            id="casino.E004",
        )
    ]


@register(Tags.security)
def check_metrics_token(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """The metrics page's token is not a placeholder anyone can read in .env.example."""
    token = getattr(settings, "TABLESIDE_METRICS_TOKEN", "")
    if settings.DEBUG or token not in EXAMPLE_SECRETS:
        return []
    return [
        Error(
            "DEBUG is off but TABLESIDE_METRICS_TOKEN is .env.example's placeholder.",
            hint="Set it to a long random value (python -c 'import secrets; print(secrets.token_urlsafe(32))').",
            id="casino.E005",
        )
    ]


# The checks above whose error stops a server from starting: each says what is wrong with the configuration.
PRODUCTION_CHECKS = (check_secret_key, check_database, check_celery, check_audit_key, check_metrics_token)


def production_refusals_raise() -> None:
    """Refuse to serve (``ImproperlyConfigured``) on any error of ``PRODUCTION_CHECKS``: the WSGI and ASGI entry
    points call it, so gunicorn's worker fails to boot with the message instead of serving on a published key.
    With DEBUG on every check passes."""
    errors = [message for check in PRODUCTION_CHECKS for message in check() if message.is_serious()]
    if errors:
        lines = "\n".join(f"  {error.id}: {error.msg} {error.hint}" for error in errors)
        raise ImproperlyConfigured(f"Tableside refuses to start with DEBUG off:\n{lines}")
