"""WSGI entry point. With DEBUG off it refuses to start on an unsafe configuration (``casino.checks``)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

from casino.checks import production_refusals_raise

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
# With DEBUG off and a development key the worker fails to boot, saying why: no request is served on it.
production_refusals_raise()
