"""System checks refuse unsafe production settings and only warn in development."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core import checks
from django.test import override_settings

from config.settings import DEVELOPMENT_SECRET_KEY

pytestmark = pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")

SQLITE = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "x.sqlite3"}}
POSTGRES = {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "tableside"}}
REAL_KEY = "k" * 64
AUDIT_KEYS = {"2026a": "a" * 48}


def ids(*, deploy: bool = False) -> set[str]:
    return {message.id for message in checks.run_checks(include_deployment_checks=deploy) if message.id}


def test_development_defaults_with_debug_on_pass_the_plain_check() -> None:
    with override_settings(DEBUG=True, SECRET_KEY=DEVELOPMENT_SECRET_KEY, DATABASES=SQLITE):
        assert not {i for i in ids() if i.startswith("casino.")}


def test_the_development_key_warns_under_check_deploy_with_debug_on() -> None:
    with override_settings(DEBUG=True, SECRET_KEY=DEVELOPMENT_SECRET_KEY):
        assert "casino.W001" in ids(deploy=True)


def test_debug_off_with_the_development_key_is_an_error() -> None:
    with override_settings(DEBUG=False, SECRET_KEY=DEVELOPMENT_SECRET_KEY, DATABASES=POSTGRES):
        assert "casino.E001" in ids()


def test_debug_off_on_sqlite_is_an_error() -> None:
    with override_settings(DEBUG=False, SECRET_KEY=REAL_KEY, DATABASES=SQLITE, CELERY_TASK_ALWAYS_EAGER=False):
        found = ids()
    assert "casino.E002" in found
    assert "casino.E001" not in found


def test_debug_off_with_eager_celery_is_an_error() -> None:
    with override_settings(DEBUG=False, SECRET_KEY=REAL_KEY, DATABASES=POSTGRES, CELERY_TASK_ALWAYS_EAGER=True):
        assert "casino.E003" in ids()


def test_debug_off_with_the_development_audit_key_is_an_error() -> None:
    """Whoever read the source could recompute the chain: production signs it with its own key."""
    with override_settings(DEBUG=False, SECRET_KEY=REAL_KEY, DATABASES=POSTGRES, CELERY_TASK_ALWAYS_EAGER=False):
        assert "casino.E004" in ids()


def test_debug_off_with_the_development_audit_key_kept_for_verifying_is_an_error_too() -> None:
    from casino.defaults import DEVELOPMENT_AUDIT_KEY

    keys = {**AUDIT_KEYS, "dev": DEVELOPMENT_AUDIT_KEY}
    with override_settings(
        DEBUG=False, SECRET_KEY=REAL_KEY, DATABASES=POSTGRES, CELERY_TASK_ALWAYS_EAGER=False, TABLESIDE_AUDIT_KEYS=keys
    ):
        assert "casino.E004" in ids()


def test_a_proper_production_configuration_raises_none_of_ours() -> None:
    with override_settings(
        DEBUG=False,
        SECRET_KEY=REAL_KEY,
        DATABASES=POSTGRES,
        CELERY_TASK_ALWAYS_EAGER=False,
        TABLESIDE_AUDIT_KEYS=AUDIT_KEYS,
    ):
        assert not {i for i in ids(deploy=True) if i.startswith("casino.")}


@pytest.mark.parametrize(
    ("setting", "value", "check"),
    [
        ("SECRET_KEY", "change-me-to-a-long-random-string", "casino.E001"),
        ("TABLESIDE_AUDIT_KEYS", {"2026a": "a-long-random-secret-of-32-characters-or-more"}, "casino.E004"),
        ("TABLESIDE_METRICS_TOKEN", "a-long-random-token", "casino.E005"),
    ],
)
def test_a_settings_file_copied_from_the_example_and_not_edited_is_refused(
    setting: str, value: object, check: str
) -> None:
    """.env.example's placeholders are published: a production server does not start on them."""
    proper: dict[str, object] = {
        "DEBUG": False,
        "SECRET_KEY": REAL_KEY,
        "DATABASES": POSTGRES,
        "CELERY_TASK_ALWAYS_EAGER": False,
        "TABLESIDE_AUDIT_KEYS": AUDIT_KEYS,
    }
    with override_settings(**{**proper, setting: value}):
        assert check in ids()
    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text()
    shown = value if isinstance(value, str) else next(iter(value.values()))
    assert shown in example
