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

import datetime as dt
import os
import tomllib
from pathlib import Path
from typing import Any

import environ
from csp.constants import NONCE, NONE, SELF, UNSAFE_INLINE
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
# Under /api/ a failed CSRF check is JSON like every refusal there; elsewhere Django's page.
CSRF_FAILURE_VIEW = "casino.errors.csrf_failure"


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
# Events written before the chain was keyed (plain SHA-256, an installation from before the keys) end at this
# sequence number; any later event without a key is a forgery. 0: keyed from the first event.
TABLESIDE_AUDIT_UNKEYED_UNTIL = env.int("TABLESIDE_AUDIT_UNKEYED_UNTIL", default=0)
# Where every signed checkpoint of the chain's head is also appended (one JSON line each), outside the
# database; "" keeps them in the database and the shift reports only.
TABLESIDE_AUDIT_CHECKPOINT_FILE = os.environ.get(
    "TABLESIDE_AUDIT_CHECKPOINT_FILE", str(VAR_DIR / "audit-checkpoints.jsonl")
)
# Whether the process that wrote an event sequences the log once that long has passed (it never waits for
# another sequencer): the embedded default has no Celery beat.
TABLESIDE_AUDIT_SEQUENCE_AFTER_WRITES = env.bool("TABLESIDE_AUDIT_SEQUENCE_AFTER_WRITES", default=True)
# Witnesses every signed head is handed to besides the checkpoint file, comma-separated: "syslog" (to
# TABLESIDE_AUDIT_SYSLOG_ADDRESS, host:port over UDP, or the local /dev/log), or the dotted path of a callable that
# takes the head as a dict (a second database, a write-once store).
TABLESIDE_AUDIT_WITNESSES = env.list("TABLESIDE_AUDIT_WITNESSES", default=[])
TABLESIDE_AUDIT_SYSLOG_ADDRESS = os.environ.get("TABLESIDE_AUDIT_SYSLOG_ADDRESS", "")
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
    "axes",
    "casino",
    "ledger",
    "rules",
    "tables",
    "rounds",
    "players",
    "settlement",
    "poker_room",
    "dealer",
    "pit",
]

MIDDLEWARE = [
    # /healthz, /readyz and /metrics answered first: a load balancer probes by address, over plain HTTP.
    "casino.health.HealthProbes",
    # The request's id (X-Request-ID) on every log line of the request and of the tasks it asks for.
    "casino.request_ids.RequestIds",
    # Each request's time by view, for /metrics.
    "casino.metrics.RequestMetrics",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The Content-Security-Policy: django-csp's on the pages, a fixed strict one on the API's JSON answers; outside
    # the middleware below, so that their own refusals (a 404 or a 308 under /api/, a NUL byte, a key) carry it too.
    "casino.middleware.ContentSecurityPolicy",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "casino.middleware.ApiTrailingSlash",
    "django.middleware.common.CommonMiddleware",
    # Under /api/ a 404 is JSON, with DEBUG on as off.
    "casino.middleware.ApiNotFoundAsJson",
    # An API write's body kept whole before it is read as a form: its Idempotency-Key's fingerprint is its bytes.
    "casino.idempotency.KeepTheBody",
    "casino.middleware.RefuseNulBytes",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Every API write with an Idempotency-Key recorded once; a write that moves money refused without one.
    "casino.idempotency.IdempotentWrites",
    # Django's messages on the pages; an API request (JSON) makes no message store.
    "casino.middleware.PageMessages",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: turns a sign-in refused for a lockout into the lockout answer (casino.lockout).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [
            BASE_DIR / "templates",
            # The poker room keeps each package's templates beside its views; what they share is the app's own.
            *(
                BASE_DIR / "poker_room" / package / "templates"
                for package in ("tournaments", "heads_up", "ofc_events", "deals", "leagues", "display", "waitlist")
            ),
        ],
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
DATABASES: dict[str, dict[str, Any]]
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
# Redis is a convenience, never a dependency (README, "When Redis is down"): every command to it, the cache's
# and the broker's, gives up after these many seconds, and a cache that cannot answer is a miss (a read) or
# nothing (a write), logged once per failed command; the dashboard then sums its figures from the database.


def _positive_number(name: str, default: float, *, whole: bool = False, most: float | None = None) -> float:
    """Read a number that must be more than zero (a whole one where ``whole``, at most ``most`` where given),
    naming the variable if not."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw) if whole else float(raw)
    except ValueError:
        value = 0
    if not 0 < value < float("inf") or (most is not None and value > most):  # NaN fails too
        kind = "a whole number" if whole else "a number"
        limit = f" and at most {most:g}" if most is not None else ""
        raise ImproperlyConfigured(f"{name} must be {kind} more than 0{limit}, got {raw!r}")
    return value


REDIS_SOCKET_CONNECT_TIMEOUT = _positive_number("REDIS_SOCKET_CONNECT_TIMEOUT", 0.5, most=30)
REDIS_SOCKET_TIMEOUT = _positive_number("REDIS_SOCKET_TIMEOUT", 0.5, most=30)
# Every event is folded into the audit log's tree and its head signed and handed to the witnesses outside the
# database within this many seconds (Celery beat, and the process that wrote it): the tail that can be cut unseen.
TABLESIDE_AUDIT_ANCHOR_SECONDS = _positive_number("TABLESIDE_AUDIT_ANCHOR_SECONDS", 5.0, most=300)
# /readyz fails while the oldest audit event not yet in a signed head is older than this (0: not checked). Beat
# anchors every TABLESIDE_AUDIT_ANCHOR_SECONDS; a tail older than a minute means beat or the sequencer stopped.
TABLESIDE_READY_UNANCHORED_SECONDS = _positive_number(
    "TABLESIDE_READY_UNANCHORED_SECONDS", max(60.0, 12 * TABLESIDE_AUDIT_ANCHOR_SECONDS), most=86_400
)
# /metrics answers a request bearing this token (Authorization: Bearer ...); unset, it is not served (404).
TABLESIDE_METRICS_TOKEN = os.environ.get("TABLESIDE_METRICS_TOKEN", "").strip()
# A Celery worker's own metrics (prometheus-client's HTTP server) on this port; 0: none (docs/monitoring.md).
TABLESIDE_WORKER_METRICS_PORT = env.int("TABLESIDE_WORKER_METRICS_PORT", default=0)
TABLESIDE_WORKER_METRICS_ADDRESS = env.str("TABLESIDE_WORKER_METRICS_ADDRESS", default="127.0.0.1")
REDIS_URL = _optional_url("REDIS_URL", ("redis", "rediss"))
CACHES: dict[str, dict[str, Any]]
if REDIS_URL is None:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tableside"}}
else:
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "CLIENT_CLASS": "casino.redis_cache.BackingOffClient",
                "SOCKET_CONNECT_TIMEOUT": REDIS_SOCKET_CONNECT_TIMEOUT,
                "SOCKET_TIMEOUT": REDIS_SOCKET_TIMEOUT,
                "IGNORE_EXCEPTIONS": True,
            },
        }
    }
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True

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
# Publishing a task gives up at once when the broker refuses or does not answer within the Redis timeouts
# (max_retries 0: no reconnecting in a web request): the task waits in the outbox (casino.outbox) for
# ``outbox_flush``. A worker still reconnects to its broker for ever (broker_connection_retry).
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_SOCKET_CONNECT_TIMEOUT
# A task is acknowledged when it ends (CELERY_TASK_ACKS_LATE); a worker killed outright (kill -9, a machine lost)
# never says so, and its task stays with the broker unacknowledged. Any running worker sweeps for such tasks every
# 10 seconds and delivers again one held longer than TASK_VISIBILITY_SECONDS (default 240: a killed report build
# runs again within 5 minutes, beat or no beat). A task still running past it is delivered a second time too, and
# every task is idempotent: a report finishes what is missing, a lab run already taken is left alone.
TASK_VISIBILITY_SECONDS = _positive_number("TASK_VISIBILITY_SECONDS", 240, most=3600)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": REDIS_SOCKET_CONNECT_TIMEOUT,
    "socket_timeout": REDIS_SOCKET_TIMEOUT,
    "max_retries": 0,
    "visibility_timeout": TASK_VISIBILITY_SECONDS,
    "unacked_restore_interval": 10,
    "unacked_restore_throttle": 1,
}
CELERY_TASK_PUBLISH_RETRY = False
# The game-math lab's tasks (a run taken, then its chunks, ``rules.lab_services``) go to this queue: the default one,
# or a queue of the casino's own for workers it sets aside for the math (``celery -A config worker -Q lab``), so a long
# run never delays a shift's reports. Every worker reading the queue plays chunks of a run at once.
# The queue every other task goes to: "celery", or a name of the installation's own where several installations
# (a test floor beside the live one) share one Redis; its workers read it (``celery -A config worker -Q <name>``).
CELERY_TASK_DEFAULT_QUEUE = env.str("TABLESIDE_TASK_QUEUE", default="celery").strip() or "celery"
TABLESIDE_LAB_QUEUE = (
    env.str("TABLESIDE_LAB_QUEUE", default=CELERY_TASK_DEFAULT_QUEUE).strip() or CELERY_TASK_DEFAULT_QUEUE
)
CELERY_TASK_ROUTES = {"rules.lab_*": {"queue": TABLESIDE_LAB_QUEUE}}

# --- Shift boundaries (Celery beat, ``celery -A config beat``) ------------------
# Every 5 minutes ``pit.tasks.shift_boundaries`` closes the open shift once it
# has run longer than SHIFT_HOURS (default 8, fractions allowed: 7.5) and builds
# every closed shift's missing or unfinished reports.
SHIFT_HOURS = env.float("SHIFT_HOURS", default=8.0)
if not 0 < SHIFT_HOURS <= 24:
    raise ImproperlyConfigured(f"SHIFT_HOURS must be more than 0 and at most 24, got {SHIFT_HOURS!r}")
CELERY_BEAT_SCHEDULE = {
    "shift-boundaries": {"task": "casino.shift_boundaries", "schedule": 5 * 60.0},
    # The events written since folded into the audit log's tree and its head signed and handed to the witnesses
    # (and at every shift close): a tail cut off the log loses at most these seconds' events unseen (casino.audit).
    "audit-sequence": {"task": "casino.audit_sequence", "schedule": TABLESIDE_AUDIT_ANCHOR_SECONDS},
    # Tasks that could not be published when they were asked for (the broker down): sent again (casino.outbox).
    "outbox-flush": {"task": "casino.outbox_flush", "schedule": 60.0},
    # The API's idempotency keys let go once kept 24 hours (casino.idempotency).
    "idempotency-keys-expire": {"task": "casino.idempotency_keys_expire", "schedule": 60 * 60.0},
    # The card room's called players not seated in time marked no-shows, the next names called (poker_room.waitlist).
    "waitlist-no-shows": {"task": "poker_room.waitlist_no_shows", "schedule": 60.0},
}
# The card room's waitlist (docs/waitlist.md): a called player not seated within this many minutes is a no-show and
# the next name is called; the room display's kiosk takes at most this many names from one address in ten minutes,
# and one list holds at most TABLESIDE_WAITLIST_KIOSK_WAITING kiosk names waiting (the desk's are not counted).
TABLESIDE_WAITLIST_NO_SHOW_MINUTES = int(
    _positive_number("TABLESIDE_WAITLIST_NO_SHOW_MINUTES", 10, whole=True, most=240)
)
TABLESIDE_WAITLIST_KIOSK_NAMES = int(_positive_number("TABLESIDE_WAITLIST_KIOSK_NAMES", 3, whole=True, most=100))
TABLESIDE_WAITLIST_KIOSK_WAITING = int(_positive_number("TABLESIDE_WAITLIST_KIOSK_WAITING", 20, whole=True, most=500))

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


# Sign-in throttling (django-axes, README "Sign-in lockout"): after TABLESIDE_LOGIN_FAILURES failed sign-ins for
# one username from one address, on the sign-in page, the admin's or the API's token endpoint, that pair is locked
# out for TABLESIDE_LOGIN_COOLOFF_MINUTES (a failure while locked out starts the wait again); a successful sign-in
# clears the count. A supervisor unlocks early: ``manage.py axes_reset_username <username>`` or the admin.
AUTHENTICATION_BACKENDS = [
    "casino.lockout.LockoutBackend",  # first: refuses a locked-out pair before any password is checked
    "django.contrib.auth.backends.ModelBackend",
]
TABLESIDE_LOGIN_FAILURES = int(_positive_number("TABLESIDE_LOGIN_FAILURES", 5, whole=True))
TABLESIDE_LOGIN_COOLOFF_MINUTES = int(_positive_number("TABLESIDE_LOGIN_COOLOFF_MINUTES", 15, whole=True))
AXES_FAILURE_LIMIT = TABLESIDE_LOGIN_FAILURES
AXES_COOLOFF_TIME = dt.timedelta(minutes=TABLESIDE_LOGIN_COOLOFF_MINUTES)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "casino.lockout.lockout_response"
AXES_HTTP_RESPONSE_CODE = 429  # a lockout is "Too Many Requests" (axes' default, stated for casino.lockout)
AXES_VERBOSE = False  # no banner on every manage.py command; lockouts are still logged
# Behind a TLS-terminating proxy every request comes from the proxy's address: trust X-Forwarded-For from that
# many proxies (set by the proxy, never by the client) to tell the devices apart.
TABLESIDE_TRUSTED_PROXIES = env.int("TABLESIDE_TRUSTED_PROXIES", default=0)
if TABLESIDE_TRUSTED_PROXIES < 0:
    raise ImproperlyConfigured(f"TABLESIDE_TRUSTED_PROXIES must be 0 or more, got {TABLESIDE_TRUSTED_PROXIES}")
AXES_CLIENT_IP_CALLABLE = "casino.lockout.client_address"
# API tokens (casino.tokens) last a shift and a margin from the sign-in that made them; a new sign-in replaces the
# token, a password change or POST /api/auth/token/revoke/ ends it.
TABLESIDE_TOKEN_HOURS = _positive_number("TABLESIDE_TOKEN_HOURS", 12.0)

# --- Internationalisation -----------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Numbers and dates by the active language (config/formats): "2 000.00" and "2 000,00", "2026-11-29" and "29.11.2026".
FORMAT_MODULE_PATH = ["config.formats"]
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
        # The token first: a request without a session or a token, or with an ended token, is a 401 that says
        # how to sign in (WWW-Authenticate: Token), not a 403.
        "casino.tokens.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "casino.errors.api_exception_handler",
    # JSON bodies only: one request format, so a client generated from the schema sends what the server reads (a
    # form or multipart body is refused with 415, naming the one it takes). The pages post their forms to Django views.
    "DEFAULT_PARSER_CLASSES": ["casino.parsers.JSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Tableside API",
    "DESCRIPTION": (
        "Casino table management and dealer assist for the Pai Gow family of games.\n\n"
        "Every refusal is a `Refusal` (`{message, extra}`), on every status: those each operation lists, and two "
        "that belong to an address: 405 for a method the address does not take, and 308 for an address without its "
        "trailing slash, to the address with it (`Location`, and `extra.location`), keeping the method and the body. "
        "Every list is paged (`next`, `previous`, `results`; `page_size` 1 to 500). What each version changed: "
        "docs/api/CHANGELOG.md."
    ),
    # The project's version (pyproject.toml); docs/api/CHANGELOG.md says what each one changed.
    "VERSION": tomllib.loads((BASE_DIR / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"],
    "SERVE_INCLUDE_SCHEMA": False,
    # The API's description is readable without a sign-in, as an integrator's generator fetches it: it holds the
    # operations and their shapes, nothing of the floor's data and no secret.
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    # A request's model apart from its answer's (FooRequest beside Foo): read-only fields are not asked for, and a
    # generated client's request classes hold only what it sends.
    "COMPONENT_SPLIT_REQUEST": True,
    # OpenAPI 3.1: a nullable field is a type and null (``oneOf`` a component and ``null``), which generators and
    # strict validators read alike; 3.0's ``nullable`` beside an ``allOf`` they read differently.
    "OAS_VERSION": "3.1.0",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Every operation's refusals ({"message", "extra"}: 400, 401/403, 404, 409) documented in one place.
    "PREPROCESSING_HOOKS": ["casino.openapi.preprocess_version_only"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "casino.openapi.postprocess_refusals",
        "casino.openapi.postprocess_request_examples",
        "casino.openapi.postprocess_nullable_objects",
    ],
}


# --- Security when DEBUG is off ---------------------------------------------------
def _proxy_ssl_header(raw: str) -> tuple[str, str] | None:
    """``SECURE_PROXY_SSL_HEADER``: the header a TLS-terminating proxy sets on a request that came in over HTTPS,
    ``X-Forwarded-Proto`` (meaning ``X-Forwarded-Proto: https``) or ``Name:value``; empty for none."""
    raw = raw.strip()
    if not raw:
        return None
    name, _, value = raw.partition(":")
    name, value = name.strip(), value.strip() or "https"
    if not name or not all(c.isalnum() or c == "-" for c in name):
        raise ImproperlyConfigured(
            f"SECURE_PROXY_SSL_HEADER must be a header name such as X-Forwarded-Proto (or Name:value), got {raw!r}"
        )
    return "HTTP_" + name.upper().replace("-", "_"), value


if not DEBUG:
    SESSION_COOKIE_SECURE = _bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = _bool("CSRF_COOKIE_SECURE", True)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    # HTTPS only: plain HTTP is redirected, and browsers are told to use HTTPS for a year (HSTS). Behind a proxy
    # that ends TLS, name the header it sets (SECURE_PROXY_SSL_HEADER=X-Forwarded-Proto) or Django sees HTTP.
    SECURE_SSL_REDIRECT = _bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = _proxy_ssl_header(os.environ.get("SECURE_PROXY_SSL_HEADER", ""))
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000)
    if SECURE_HSTS_SECONDS < 0:
        raise ImproperlyConfigured(f"SECURE_HSTS_SECONDS must be 0 or more, got {SECURE_HSTS_SECONDS}")
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    # Preloading is a promise to the browsers' built-in lists, hard to take back: off unless the operator opts in,
    # so Django's reminder to opt in (security.W021) is silenced while it is off.
    SECURE_HSTS_PRELOAD = _bool("SECURE_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        SILENCED_SYSTEM_CHECKS = ["security.W021"]

# Content-Security-Policy (django-csp), with DEBUG on too so the tests and the browser tests run under it: scripts
# only from the app's own /static/ (htmx included) or carrying the response's nonce (``request.csp_nonce``), no
# plugins, no framing. Inline styles stay allowed: the tablet places the seats with style attributes.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Logs: plain lines on the embedded default; JSON lines (one object a line: time, level, logger, message,
# request_id, task, task_id and any extra fields) with TABLESIDE_LOG_FORMAT=json, for a log collector.
TABLESIDE_LOG_FORMAT = env.str("TABLESIDE_LOG_FORMAT", default="text").strip().lower()
if TABLESIDE_LOG_FORMAT not in ("text", "json"):
    raise ImproperlyConfigured(f"TABLESIDE_LOG_FORMAT is text or json, got {TABLESIDE_LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"format": "%(levelname)s %(name)s%(request_tag)s %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(levelname)s %(name)s %(message)s %(request_id)s %(task)s %(task_id)s",
            "rename_fields": {"levelname": "level", "name": "logger"},
            "timestamp": "time",
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": TABLESIDE_LOG_FORMAT,
            "filters": ["request_ids"],
        }
    },
    "filters": {
        "request_ids": {"()": "casino.request_ids.RequestIdOnRecords"},
        "redis_backing_off": {"()": "casino.redis_cache.QuietWhileBackingOff"},
        "refusals_without_traceback": {"()": "casino.logs.RefusalsWithoutTraceback"},
    },
    "loggers": {
        "django_redis.cache": {"filters": ["redis_backing_off"]},
        "django.request": {"filters": ["refusals_without_traceback"]},
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

# --- The table's chip tray ----------------------------------------------------------------------------
# An opener that differs from the table's last closer by more than TABLESIDE_TRAY_REPORT_ABOVE_CENTS needs a written
# report; by TABLESIDE_TRAY_ESCALATE_FROM_CENTS or more it is escalated (the New Jersey rule: 25.00 and 100.00).
TABLESIDE_TRAY_REPORT_ABOVE_CENTS = int(_positive_number("TABLESIDE_TRAY_REPORT_ABOVE_CENTS", 2500, whole=True))
TABLESIDE_TRAY_ESCALATE_FROM_CENTS = int(_positive_number("TABLESIDE_TRAY_ESCALATE_FROM_CENTS", 10000, whole=True))
if TABLESIDE_TRAY_ESCALATE_FROM_CENTS <= TABLESIDE_TRAY_REPORT_ABOVE_CENTS:
    raise ImproperlyConfigured(
        "TABLESIDE_TRAY_ESCALATE_FROM_CENTS must be more than TABLESIDE_TRAY_REPORT_ABOVE_CENTS, got "
        f"{TABLESIDE_TRAY_ESCALATE_FROM_CENTS} and {TABLESIDE_TRAY_REPORT_ABOVE_CENTS}"
    )

# --- Players ----------------------------------------------------------------------------------------
# The house's player tiers, lowest first, and what each gets back of its theoretical win as comps (reinvestment,
# basis points). A tier is data a casino sets, not code.
TABLESIDE_PLAYER_TIERS: dict[str, int] = {"Bronze": 2000, "Silver": 2500, "Gold": 3000, "Platinum": 3500}
# A rating's points: one point for every this many cents of theoretical win.
TABLESIDE_RATING_CENTS_PER_POINT = 100
# The classic estimate of theo beside the exact one: average bet x hours x decisions an hour x house edge, the pace
# the industry assumes when nobody counts the rounds.
TABLESIDE_RATING_DECISIONS_PER_HOUR = 60
# A rated session is flagged when the player's win is this many standard deviations above what they were expected
# to win (their expectation is minus their theo).
TABLESIDE_RATING_ALERT_SIGMA = 3.0
# A table's hold over its last N settled rounds, flagged when it leaves its 95% interval (|z| > 1.96) once at least
# the minimum number of rounds is in the window.
TABLESIDE_HOLD_WINDOW_ROUNDS = 100
TABLESIDE_HOLD_ALERT_MIN_ROUNDS = 30
TABLESIDE_HOLD_ALERT_Z = 1.96
# Credit at the table: a credit line set above this many cents waits for a second Credit manager's approval.
TABLESIDE_CREDIT_APPROVAL_ABOVE_CENTS = 1_000_000

# --- Four eyes on voids and corrections (DESIGN.md, "Trust") ------------------------
# Whoever asked for a void or a correction, or dealt or settled the round, cannot approve it, and a correction
# needs a second supervisor. Only a one-supervisor room turns this off (TABLESIDE_FOUR_EYES=0); the shift and
# audit reports then say so.
TABLESIDE_FOUR_EYES = _bool("TABLESIDE_FOUR_EYES", True)
