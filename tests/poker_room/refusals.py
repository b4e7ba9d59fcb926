"""One way for a test to say a write to a tournament is refused and writes nothing."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from poker_room.tournaments.models import Tournament
from tests.poker_room.tournament_setup import everything


def refused(
    tournament: Tournament,
    error: type[Exception],
    message: str | re.Pattern[str],
    write: Callable[[], object],
    *,
    rows: Callable[[Tournament], object] = everything,
) -> None:
    """``write`` is refused with ``error`` saying ``message`` (a text: exactly; a pattern: found in it), and nothing
    at all is written: ``rows(tournament)`` reads the same after as before."""
    before = rows(tournament)
    with pytest.raises(error) as refusal:
        write()
    if isinstance(message, re.Pattern):
        assert message.search(str(refusal.value)), f"{message.pattern!r} not found in {str(refusal.value)!r}"
    else:
        assert str(refusal.value) == message
    assert rows(tournament) == before
