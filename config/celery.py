"""The Celery application. Configuration comes from Django settings (``CELERY_*``).

Without ``CELERY_BROKER_URL`` tasks run eagerly in the calling process; with it
they travel through Redis to a worker started with ``celery -A config worker``.
The web asks for tasks through the outbox (``casino.outbox``): with Redis down a
request never waits on the broker for more than its timeouts, and no task is lost.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("tableside")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
