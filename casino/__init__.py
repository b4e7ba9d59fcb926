"""The Django project package and the floor: pits, gaming days, shifts, roles, audit log."""

from __future__ import annotations

from casino.celery import app as celery_app

__all__ = ["celery_app"]
