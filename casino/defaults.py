"""Development defaults that the settings (``config.settings``) fall back on and the system checks
(``casino.checks``) refuse in production. Plain constants: importing this module touches nothing."""

from __future__ import annotations

DEVELOPMENT_SECRET_KEY = "tableside-development-key-do-not-use-in-production"
