"""The Redis timeouts come from the environment, are checked, and reach both the cache and the Celery broker."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.casino.test_settings import ROOT, SERVICE_VARS

# Each test runs the code in a process of its own and sets its environment: see tests/conftest.py.
pytestmark = pytest.mark.own_process

PROBE = """
import json, django
django.setup()
from django.conf import settings
from config.celery import app
print(json.dumps({
    "caches": settings.CACHES,
    "log_ignored": settings.DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS,
    "transport": app.conf.broker_transport_options,
    "connection_timeout": app.conf.broker_connection_timeout,
    "publish_retry": app.conf.task_publish_retry,
    "worker_reconnects": app.conf.broker_connection_retry,
}))
"""
TIMEOUT_VARS = ("REDIS_SOCKET_TIMEOUT", "REDIS_SOCKET_CONNECT_TIMEOUT", "TASK_VISIBILITY_SECONDS")


def probe(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in (*SERVICE_VARS, *TIMEOUT_VARS)}
    clean.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60
    )


def test_a_redis_url_gives_a_cache_that_gives_up_after_half_a_second_and_ignores_redis_failing() -> None:
    from tests.faults.conftest import redis_caches

    result = probe(REDIS_URL="redis://cache.example:6379/1", CELERY_BROKER_URL="redis://broker.example:6379/0")
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen["caches"] == redis_caches("redis://cache.example:6379/1")  # what the fault tests run with
    assert seen["caches"]["default"]["OPTIONS"] == {
        "CLIENT_CLASS": "casino.redis_cache.BackingOffClient",  # a failed Redis is left alone a while
        "SOCKET_CONNECT_TIMEOUT": 0.5,
        "SOCKET_TIMEOUT": 0.5,
        "IGNORE_EXCEPTIONS": True,
    }
    assert seen["log_ignored"] is True
    assert seen["transport"] == {
        "socket_connect_timeout": 0.5,
        "socket_timeout": 0.5,
        "max_retries": 0,
        # A task a killed worker held is delivered again after 4 minutes, swept for every 10 seconds.
        "visibility_timeout": 240,
        "unacked_restore_interval": 10,
        "unacked_restore_throttle": 1,
    }
    assert (seen["connection_timeout"], seen["publish_retry"], seen["worker_reconnects"]) == (0.5, False, True)


def test_the_timeouts_are_read_from_the_environment() -> None:
    result = probe(
        REDIS_URL="redis://cache.example:6379/1", REDIS_SOCKET_TIMEOUT="2", REDIS_SOCKET_CONNECT_TIMEOUT="0.25"
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen["caches"]["default"]["OPTIONS"]["SOCKET_TIMEOUT"] == 2.0
    assert seen["caches"]["default"]["OPTIONS"]["SOCKET_CONNECT_TIMEOUT"] == 0.25
    assert seen["transport"]["socket_timeout"] == 2.0 and seen["connection_timeout"] == 0.25
    kept = probe(TASK_VISIBILITY_SECONDS="600")
    assert kept.returncode == 0, kept.stderr
    assert json.loads(kept.stdout)["transport"]["visibility_timeout"] == 600


@pytest.mark.parametrize("raw", ["soon", "0", "3601"])
def test_a_visibility_that_is_not_seconds_up_to_an_hour_is_refused_naming_the_variable(raw: str) -> None:
    result = probe(TASK_VISIBILITY_SECONDS=raw)
    assert result.returncode != 0
    assert f"TASK_VISIBILITY_SECONDS must be a number more than 0 and at most 3600, got {raw!r}" in result.stderr


@pytest.mark.parametrize("raw", ["soon", "0", "301"])
def test_an_anchor_period_that_is_not_seconds_up_to_five_minutes_is_refused_naming_the_variable(raw: str) -> None:
    """The audit log's tail may be cut unseen for this long: never unbounded, never nothing."""
    result = probe(TABLESIDE_AUDIT_ANCHOR_SECONDS=raw)
    assert result.returncode != 0
    assert f"TABLESIDE_AUDIT_ANCHOR_SECONDS must be a number more than 0 and at most 300, got {raw!r}" in result.stderr


@pytest.mark.parametrize("raw", ["soon", "0", "-1", "nan", "31", "inf"])
def test_a_timeout_that_is_not_a_number_of_seconds_up_to_30_is_refused_naming_the_variable(raw: str) -> None:
    result = probe(REDIS_SOCKET_TIMEOUT=raw)
    assert result.returncode != 0
    assert f"REDIS_SOCKET_TIMEOUT must be a number more than 0 and at most 30, got {raw!r}" in result.stderr
