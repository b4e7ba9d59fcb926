"""The waitlist tests' fixtures (``evening``), and each test starting with the kiosk's counters at nought: an
address's names are counted in the cache for ten minutes, and on Redis (the PostgreSQL pass) a test would
otherwise meet the names an earlier test of the same worker put down."""

from __future__ import annotations

import pytest

from tests.caches import cache_clear
from tests.poker_room.waitlist.evening import fred, room  # noqa: F401  (fixtures)


@pytest.fixture(autouse=True)
def kiosk_counts_nought() -> None:
    cache_clear()
