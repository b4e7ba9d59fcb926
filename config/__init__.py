"""The Django project package: settings, URLs, the Celery application, WSGI and ASGI entry points.

It sits above every app (DESIGN.md, "Layout"): nothing below imports it.
"""

from __future__ import annotations

from config.celery import app as celery_app

__all__ = ["celery_app"]
