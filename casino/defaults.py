"""Development defaults that the settings (``config.settings``) fall back on and the system checks
(``casino.checks``) refuse in production. Plain constants: importing this module touches nothing."""

from __future__ import annotations

DEVELOPMENT_SECRET_KEY = "tableside-development-key-do-not-use-in-production"
# The audit chain's development key (HMAC): the system checks refuse it with DEBUG off.
DEVELOPMENT_AUDIT_KEY = "tableside-development-audit-key-do-not-use-in-production"
# The placeholders .env.example shows: a settings file copied from it and not edited would run on secrets anyone can
# read; the system checks refuse them with DEBUG off as they refuse the development keys.
EXAMPLE_SECRETS = frozenset(
    {
        "change-me-to-a-long-random-string",
        "a-long-random-secret-of-32-characters-or-more",
        "a-long-random-token",
    }
)
