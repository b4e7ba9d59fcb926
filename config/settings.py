"""Tableside settings: one module, driven by environment variables.

Every variable has an embedded default that runs with zero set-up (SQLite in
``var/``, Celery tasks run eagerly in-process, a local-memory cache), so a fresh
checkout works. Point it at real services with:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tableside
    CELERY_BROKER_URL=redis://127.0.0.1:6379/0
    REDIS_URL=redis://127.0.0.1:6379/1

Unsafe production combinations (DEBUG off with the development secret key,
SQLite or eager Celery) are reported by the system checks in ``casino.checks``.
See ``.env.example`` for the full list.
"""

from __future__ import annotations

import os
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

from casino.defaults import DEVELOPMENT_AUDIT_KEY, DEVELOPMENT_SECRET_KEY

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()

# A .env file beside manage.py is read if present; real environment variables win.
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)


def _bool(name: str, default: bool) -> bool:
    """Read a boolean variable, refusing anything that is not clearly yes or no."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false (1/0, yes/no, on/off), got {raw!r}")


def _optional_url(name: str, schemes: tuple[str, ...]) -> str | None:
    """Read an optional URL variable whose scheme must be one of ``schemes``."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    scheme = raw.split("://", 1)[0].lower() if "://" in raw else ""
    if scheme not in schemes:
        raise ImproperlyConfigured(
            f"{name} must start with one of {', '.join(s + '://' for s in schemes)}, got {raw!r}"
        )
    return raw


DEBUG = _bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip() or DEVELOPMENT_SECRET_KEY
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])


def _audit_keys(raw: str) -> dict[str, str]:
    """``TABLESIDE_AUDIT_KEYS``: ``id:secret`` pairs, comma-separated, the key new events are signed with first.

    Rotation: put the new key first and keep the old ones after it, so the events and checkpoints they
    signed still verify (README, "The audit trail").
    """
    keys: dict[str, str] = {}
    for part in (p.strip() for p in raw.split(",")):
        if not part:
            continue
        key_id, sep, secret = part.partition(":")
        key_id, secret = key_id.strip(), secret.strip()
        if not sep or not key_id or len(key_id) > 16 or not key_id.isalnum():
            raise ImproperlyConfigured(
                "TABLESIDE_AUDIT_KEYS holds id:secret pairs, comma-separated, each id letters and digits "
                f"(at most 16), got {part.split(':')[0]!r}"
            )
        if len(secret) < 32:
            raise ImproperlyConfigured(
                f"TABLESIDE_AUDIT_KEYS: the secret of key {key_id!r} is shorter than 32 characters"
            )
        if key_id in keys:
            raise ImproperlyConfigured(f"TABLESIDE_AUDIT_KEYS names key {key_id!r} twice")
        keys[key_id] = secret
    return keys


# The audit chain's keys (HMAC-SHA256): outside the database, so whoever holds only the database cannot
# recompute the chain. The first signs new events and checkpoints; the others verify older ones.
TABLESIDE_AUDIT_KEYS = _audit_keys(os.environ.get("TABLESIDE_AUDIT_KEYS", "")) or {"dev": DEVELOPMENT_AUDIT_KEY}
# Events written before the chain was keyed (plain SHA-256, an installation older than issue 14) end at this
# sequence number; any later event without a key is a forgery. 0: keyed from the first event.
TABLESIDE_AUDIT_UNKEYED_UNTIL = env.int("TABLESIDE_AUDIT_UNKEYED_UNTIL", default=0)
# Where every signed checkpoint of the chain's head is also appended (one JSON line each), outside the
# database; "" keeps them in the database and the shift reports only.
TABLESIDE_AUDIT_CHECKPOINT_FILE = os.environ.get(
    "TABLESIDE_AUDIT_CHECKPOINT_FILE", str(VAR_DIR / "audit-checkpoints.jsonl")
)
# PostgreSQL: the role the application connects as, granted its privileges after every migrate (casino.db_role).
TABLESIDE_DB_APP_ROLE = os.environ.get("TABLESIDE_DB_APP_ROLE", "").strip()

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "pgtrigger",
    "casino",
    "rules",
    "tables",
    "settlement",
    "dealer",
    "pit",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "casino.middleware.RefuseNulBytes",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "casino.context_processors.faces",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------
_database_url = _optional_url("DATABASE_URL", ("sqlite", "postgres", "postgresql", "pgsql"))
if _database_url is None:
    VAR_DIR.mkdir(exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "tableside.sqlite3",
            "OPTIONS": {"timeout": 20},
        }
    }
else:
    DATABASES = {"default": env.db_url_config(_database_url)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DATABASE_CONN_MAX_AGE", default=60))
        DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # INSERT OR REPLACE deletes the row it replaces without firing DELETE triggers unless recursive triggers are
    # on: on, the append-only triggers (casino.append_only) refuse it as they refuse a DELETE.
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = "PRAGMA recursive_triggers = ON"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache ------------------------------------------------------------------
REDIS_URL = _optional_url("REDIS_URL", ("redis", "rediss"))
if REDIS_URL is None:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tableside"}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}

# --- Celery -----------------------------------------------------------------
# No broker: tasks run eagerly in-process (the embedded default). A broker URL
# sends them through Redis to a real worker, with results kept in Redis too.
CELERY_BROKER_URL = _optional_url("CELERY_BROKER_URL", ("redis", "rediss"))
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "").strip() or CELERY_BROKER_URL
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"

# --- Shift boundaries (Celery beat, ``celery -A config beat``) ------------------
# Every 5 minutes ``pit.tasks.shift_boundaries`` closes the open shift once it
# has run longer than SHIFT_HOURS (default 8, fractions allowed: 7.5) and builds
# every closed shift's missing or unfinished reports.
SHIFT_HOURS = env.float("SHIFT_HOURS", default=8.0)
if not 0 < SHIFT_HOURS <= 24:
    raise ImproperlyConfigured(f"SHIFT_HOURS must be more than 0 and at most 24, got {SHIFT_HOURS!r}")
CELERY_BEAT_SCHEDULE = {
    "shift-boundaries": {"task": "casino.shift_boundaries", "schedule": 5 * 60.0},
    # The audit chain's head signed every 5 minutes when it moved (and at every shift close): a tail cut off
    # the chain loses at most the events since the last checkpoint unseen (casino.audit).
    "audit-checkpoint": {"task": "casino.audit_checkpoint", "schedule": 5 * 60.0},
}

# --- Auth ---------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "floor"
LOGOUT_REDIRECT_URL = "login"

# --- Internationalisation -----------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

# --- Static files -------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# WhiteNoise serves every asset (htmx, the style sheet, Swagger UI) from the app itself, no CDN;
# with DEBUG on (and in tests) it reads them straight from the apps, without collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

# --- REST API -----------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "casino.errors.api_exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "casino.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Tableside API",
    "DESCRIPTION": "Casino table management and dealer assist for the Pai Gow family of games.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The API description is for signed-in staff and integrators, not the public.
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Security when DEBUG is off ---------------------------------------------------
if not DEBUG:
    SESSION_COOKIE_SECURE = _bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = _bool("CSRF_COOKIE_SECURE", True)
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

# --- Four eyes on voids and corrections (DESIGN.md, "Trust") ------------------------
# Whoever asked for a void or a correction, or dealt or settled the round, cannot approve it, and a correction
# needs a second supervisor. Only a one-supervisor room turns this off (TABLESIDE_FOUR_EYES=0); the shift and
# audit reports then say so.
TABLESIDE_FOUR_EYES = _bool("TABLESIDE_FOUR_EYES", True)
