"""Security hygiene: no server starts with DEBUG off on a development key, production is HTTPS only
with HSTS, every page carries a Content-Security-Policy that the pages themselves keep, and ``check --deploy`` on
a production configuration is clean."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, override_settings

from casino.checks import production_refusals_raise
from casino.defaults import DEVELOPMENT_AUDIT_KEY, DEVELOPMENT_SECRET_KEY

# The tests that reach no database here run the code in a process of their own and set its environment, or check
# this process's settings and templates: the pass's database and services never reach them (tests/conftest.py).
pytestmark = pytest.mark.own_process

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "TABLESIDE_AUDIT_KEYS": f"k1:{secrets.token_urlsafe(40)}",
    "ALLOWED_HOSTS": "tableside.example.com",
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/tableside",
    "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
    "REDIS_URL": "redis://127.0.0.1:6379/1",
}
# Every variable the settings read that a developer's shell might hold; each run sets what it needs.
OURS = re.compile(
    r"^(DEBUG|SECRET_KEY|ALLOWED_HOSTS|DATABASE_URL|CELERY_|REDIS_URL|TABLESIDE_|SECURE_|SESSION_|CSRF_|DJANGO_ALLOW_ASYNC)"
)
PROBE = """
import json, django
django.setup()
from django.conf import settings
print(json.dumps({name: getattr(settings, name, None) for name in (
    "SECURE_SSL_REDIRECT", "SECURE_PROXY_SSL_HEADER", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD", "SILENCED_SYSTEM_CHECKS", "AXES_FAILURE_LIMIT", "TABLESIDE_TOKEN_HOURS")}))
"""


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not OURS.match(k)}
    clean.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60)


def production_settings(**env: str) -> dict[str, Any]:
    import json

    result = run(["-c", PROBE], **{**PRODUCTION, **env})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


# --- A production configuration ---------------------------------------------------------------------------------


def test_check_deploy_on_a_production_configuration_is_clean() -> None:
    result = run(["manage.py", "check", "--deploy"], **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout, result.stdout + result.stderr


def test_with_debug_off_plain_http_is_redirected_and_browsers_are_told_hsts_for_a_year() -> None:
    seen = production_settings()
    assert seen["SECURE_SSL_REDIRECT"] is True
    assert seen["SECURE_HSTS_SECONDS"] == 31_536_000
    assert seen["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert seen["SECURE_HSTS_PRELOAD"] is False
    assert seen["SILENCED_SYSTEM_CHECKS"] == ["security.W021"]
    assert seen["SECURE_PROXY_SSL_HEADER"] is None


def test_an_operator_behind_a_tls_proxy_names_its_header_and_may_opt_into_preload() -> None:
    seen = production_settings(SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto", SECURE_HSTS_PRELOAD="1")
    assert seen["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert seen["SECURE_HSTS_PRELOAD"] is True
    assert not seen["SILENCED_SYSTEM_CHECKS"]
    assert production_settings(SECURE_PROXY_SSL_HEADER="X-Forwarded-Ssl:on")["SECURE_PROXY_SSL_HEADER"] == [
        "HTTP_X_FORWARDED_SSL",
        "on",
    ]


@pytest.mark.parametrize(
    ("env", "complaint"),
    [
        ({"SECURE_PROXY_SSL_HEADER": "X Forwarded Proto"}, "SECURE_PROXY_SSL_HEADER must be a header name"),
        ({"SECURE_HSTS_SECONDS": "-1"}, "SECURE_HSTS_SECONDS must be 0 or more"),
        ({"SECURE_SSL_REDIRECT": "sometimes"}, "SECURE_SSL_REDIRECT must be true or false"),
        ({"TABLESIDE_LOGIN_FAILURES": "0"}, "TABLESIDE_LOGIN_FAILURES must be a whole number more than 0"),
        ({"TABLESIDE_LOGIN_FAILURES": "five"}, "TABLESIDE_LOGIN_FAILURES must be a whole number more than 0"),
        ({"TABLESIDE_LOGIN_COOLOFF_MINUTES": "1.5"}, "TABLESIDE_LOGIN_COOLOFF_MINUTES must be a whole number"),
        ({"TABLESIDE_TOKEN_HOURS": "-2"}, "TABLESIDE_TOKEN_HOURS must be a number more than 0"),
        ({"TABLESIDE_TOKEN_HOURS": "nan"}, "TABLESIDE_TOKEN_HOURS must be a number more than 0"),
    ],
)
def test_a_bad_security_value_is_refused_naming_the_variable(env: dict[str, str], complaint: str) -> None:
    result = run(["-c", PROBE], **{**PRODUCTION, **env})
    assert result.returncode != 0
    assert complaint in result.stderr


def test_the_lockout_and_token_numbers_come_from_the_environment() -> None:
    seen = production_settings(TABLESIDE_LOGIN_FAILURES="7", TABLESIDE_TOKEN_HOURS="9.5")
    assert seen["AXES_FAILURE_LIMIT"] == 7
    assert seen["TABLESIDE_TOKEN_HOURS"] == 9.5


# --- No server on a development key ------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", ["config.wsgi", "config.asgi"])
def test_the_server_entry_points_refuse_debug_off_on_the_development_secret_key(entry: str) -> None:
    result = run(["-c", f"import {entry}"], **{**PRODUCTION, "SECRET_KEY": DEVELOPMENT_SECRET_KEY})
    assert result.returncode != 0
    assert "ImproperlyConfigured: Tableside refuses to start with DEBUG off" in result.stderr
    assert "casino.E001" in result.stderr
    assert "casino.E004" not in result.stderr


@pytest.mark.parametrize("entry", ["config.wsgi", "config.asgi"])
def test_the_server_entry_points_refuse_debug_off_on_the_development_audit_key(entry: str) -> None:
    result = run(["-c", f"import {entry}"], **{**PRODUCTION, "TABLESIDE_AUDIT_KEYS": ""})
    assert result.returncode != 0
    assert "casino.E004: DEBUG is off but the audit chain's keys include the built-in development key." in (
        result.stderr
    )


@pytest.mark.parametrize("entry", ["config.wsgi", "config.asgi"])
def test_the_server_entry_points_load_on_a_production_configuration(entry: str) -> None:
    result = run(["-c", f"import {entry}; print('loaded')"], **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "loaded"


@pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")
def test_the_refusal_is_the_system_checks_own_list() -> None:
    proper = {
        "DEBUG": False,
        "SECRET_KEY": "k" * 64,
        "DATABASES": {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "tableside"}},
        "CELERY_TASK_ALWAYS_EAGER": False,
        "TABLESIDE_AUDIT_KEYS": {"2026a": "a" * 48},
    }
    with override_settings(**proper):
        production_refusals_raise()
    with (
        override_settings(**{**proper, "TABLESIDE_AUDIT_KEYS": {"dev": DEVELOPMENT_AUDIT_KEY}}),
        pytest.raises(ImproperlyConfigured, match="casino.E004"),
    ):
        production_refusals_raise()
    with override_settings(DEBUG=True, SECRET_KEY=DEVELOPMENT_SECRET_KEY):
        production_refusals_raise()


# --- Content-Security-Policy ------------------------------------------------------------------------------------


def csp_of(response: Any) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in (p.strip() for p in header.split(";")) if part}


@pytest.mark.django_db
def test_every_page_carries_a_csp_with_scripts_only_from_the_app_itself() -> None:
    policy = csp_of(Client().get("/accounts/login/"))
    assert policy["script-src"][0] == "'self'"
    assert "'unsafe-inline'" not in policy["script-src"] and "'unsafe-eval'" not in policy["script-src"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]


@pytest.mark.django_db
def test_every_api_answer_in_json_carries_a_fixed_policy_that_loads_nothing_and_is_framed_by_nobody(
    pit_boss: Any,
) -> None:
    client = Client()
    answers = {
        "refused, nobody signed in": client.get("/api/shifts/"),
        "an address with nothing": client.get("/api/no-such-thing/"),
        "a refused write": client.post("/api/rounds/-1/wagers/", data="{", content_type="application/json"),
        "an address without its slash": client.post("/api/rounds/1/wagers", data="{}", content_type="application/json"),
        "a NUL byte": client.get("/api/shifts/", {"closed": "\x00"}),
    }
    client.force_login(pit_boss)
    answers["read"] = client.get("/api/shifts/")
    for what, response in answers.items():
        assert response["Content-Type"].startswith("application/json"), what
        assert response["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'", what
    docs = csp_of(client.get("/api/docs/"))  # an HTML page under /api/: the pages' policy
    assert docs["script-src"][0] == "'self'" and docs["frame-ancestors"] == ["'none'"]


def test_a_nonce_asked_for_after_an_api_answer_is_written_is_an_error_as_on_a_page() -> None:
    from csp.exceptions import CSPNonceError
    from django.http import JsonResponse
    from django.test import RequestFactory

    from casino.middleware import ContentSecurityPolicy

    for path in ("/api/shifts/", "/accounts/login/"):  # an API answer, then a page's
        request = RequestFactory().get(path)
        middleware = ContentSecurityPolicy(lambda request: JsonResponse({}))
        middleware.process_request(request)
        response = middleware.process_response(request, JsonResponse({}))
        assert "Content-Security-Policy" in response
        with pytest.raises(CSPNonceError):
            str(request.csp_nonce)


@pytest.mark.django_db
def test_the_api_docs_load_their_start_up_script_from_an_address_not_inline(pit_boss) -> None:
    client = Client()
    client.force_login(pit_boss)
    page = client.get("/api/docs/").content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in script.content


TEMPLATE_DIRS = [
    ROOT / "templates",
    *(ROOT / app / "templates" for app in ("casino", "dealer", "pit", "tables")),
    ROOT / "poker_room",  # its packages' templates beside their views
]


def test_no_template_holds_an_inline_script_or_an_inline_event_handler() -> None:
    """The CSP refuses both: a script goes in a static file (``<script src>``), or carries ``request.csp_nonce``."""
    offenders = []
    for folder in TEMPLATE_DIRS:
        for path in folder.rglob("*.html") if folder.is_dir() else []:
            text = path.read_text(encoding="utf-8")
            for match in re.finditer(r"<script(?![^>]*\b(src|nonce)=)[^>]*>|\son[a-z]+\s*=\s*[\"']", text):
                offenders.append(f"{path.relative_to(ROOT)}: {match.group(0).strip()}")
    assert not offenders, offenders
