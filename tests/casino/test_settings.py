"""The settings module switches on environment variables and rejects bad values."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Each test runs the code in a process of its own and sets its environment: see tests/conftest.py.
pytestmark = pytest.mark.own_process

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, django
django.setup()
from django.conf import settings
print(json.dumps({
    "engine": settings.DATABASES["default"]["ENGINE"],
    "db_name": str(settings.DATABASES["default"]["NAME"]),
    "db_host": settings.DATABASES["default"].get("HOST", ""),
    "eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "broker": settings.CELERY_BROKER_URL,
    "cache": settings.CACHES["default"]["BACKEND"],
    "debug": settings.DEBUG,
}))
"""
SERVICE_VARS = ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "REDIS_URL", "DEBUG", "SECRET_KEY")


def read_settings(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in SERVICE_VARS}
    clean.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60
    )


def settings_under(**env: str) -> dict[str, object]:
    result = read_settings(**env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_with_nothing_set_the_embedded_defaults_are_sqlite_eager_celery_and_a_local_cache() -> None:
    seen = settings_under()
    assert seen["engine"] == "django.db.backends.sqlite3"
    assert seen["db_name"].endswith("var/tableside.sqlite3")
    assert seen["eager"] is True
    assert seen["broker"] is None
    assert seen["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert seen["debug"] is True


def test_a_postgres_database_url_switches_the_database_to_postgresql() -> None:
    seen = settings_under(DATABASE_URL="postgres://postgres@db.example:5432/tableside")
    assert seen["engine"] == "django.db.backends.postgresql"
    assert seen["db_name"] == "tableside"
    assert seen["db_host"] == "db.example"


def test_a_broker_url_sends_tasks_to_redis_instead_of_running_them_in_process() -> None:
    seen = settings_under(CELERY_BROKER_URL="redis://127.0.0.1:6379/0")
    assert seen["eager"] is False
    assert seen["broker"] == "redis://127.0.0.1:6379/0"


def test_a_redis_url_switches_the_cache_to_redis() -> None:
    seen = settings_under(REDIS_URL="redis://127.0.0.1:6379/1")
    assert seen["cache"] == "django_redis.cache.RedisCache"


@pytest.mark.parametrize(
    ("env", "complaint"),
    [
        ({"DEBUG": "maybe"}, "DEBUG must be true or false"),
        ({"DATABASE_URL": "mysql://root@localhost/tableside"}, "DATABASE_URL must start with one of"),
        ({"CELERY_BROKER_URL": "amqp://guest@localhost//"}, "CELERY_BROKER_URL must start with one of redis://"),
        ({"REDIS_URL": "localhost:6379"}, "REDIS_URL must start with one of redis://"),
    ],
)
def test_a_bad_value_is_refused_with_a_message_naming_the_variable(env: dict[str, str], complaint: str) -> None:
    result = read_settings(**env)
    assert result.returncode != 0
    assert complaint in result.stderr
