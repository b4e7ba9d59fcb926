"""The poker room's Celery tasks (found by ``config.celery``'s autodiscovery): each calls one service."""

from __future__ import annotations

from celery import shared_task

from poker_room.waitlist.services import waitlist_no_shows


@shared_task(name="poker_room.waitlist_no_shows")
def waitlist_no_shows_task() -> int:
    """Every minute (Celery beat): called players not seated in time marked no-shows, the next names called."""
    return waitlist_no_shows()
