"""The waitlist tests' fixtures (``evening``)."""

from __future__ import annotations

from tests.poker_room.waitlist.evening import fred, room  # noqa: F401  (fixtures)
