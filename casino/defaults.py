"""Development defaults that the settings (``config.settings``) fall back on and the system checks
(``casino.checks``) refuse in production. Plain constants: importing this module touches nothing."""

from __future__ import annotations

DEVELOPMENT_SECRET_KEY = "tableside-development-key-do-not-use-in-production"
# The audit chain's development key (HMAC): the system checks refuse it with DEBUG off.
DEVELOPMENT_AUDIT_KEY = "tableside-development-audit-key-do-not-use-in-production"
