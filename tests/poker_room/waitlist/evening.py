"""What the waitlist's tests share: a frozen clock, the rows a refusal must leave as they were, and the room of the
tests (Chinese Poker at 5.00 a point; CP-1 the main game, CP-2 must move into it; Fred, a Floor supervisor, at the
desk)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

import pytest

from casino.models import AuditEvent
from players.models import RatingSession
from poker_room.waitlist import services
from poker_room.waitlist.models import CashGame, CashTable, WaitlistEntry

T0 = dt.datetime(2026, 11, 28, 19, 0, tzinfo=dt.UTC)


@contextmanager
def at(minutes: float) -> Iterator[None]:
    with mock.patch("django.utils.timezone.now", return_value=T0 + dt.timedelta(minutes=minutes)):
        yield


def everything() -> dict[str, object]:
    return {
        "games": list(CashGame.objects.values_list("pk", "closed_at")),
        "tables": list(CashTable.objects.values_list("pk", "removed_at", "must_move")),
        "entries": list(WaitlistEntry.objects.values_list("pk", "status", "table_id", "seat_number", "session_id")),
        "sessions": RatingSession.objects.count(),
        "events": AuditEvent.objects.count(),
    }


def refused(error: type[Exception], message: str, write) -> None:  # type: ignore[no-untyped-def]
    before = everything()
    with pytest.raises(error) as refusal:
        write()
    assert message in str(refusal.value), str(refusal.value)
    assert everything() == before


@pytest.fixture
def fred(floor_supervisor):  # type: ignore[no-untyped-def]
    return floor_supervisor


@pytest.fixture
def room(shift, make_table, fred):  # type: ignore[no-untyped-def]
    main = make_table(name="CP-1", game="chinese_poker", seat_count=4)
    feeder = make_table(name="CP-2", game="chinese_poker", seat_count=4)
    with at(0):
        game = services.cash_game_open(actor=fred, game="chinese_poker", points_cents=500)
        services.cash_table_add(actor=fred, cash_game=game, table=main)
        services.cash_table_add(actor=fred, cash_game=game, table=feeder, must_move=True)
    return game
