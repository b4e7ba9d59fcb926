"""The Open-Face tests' events: ``ofc`` makes one of any size; ``tournament`` is the API tests' (8 players started
at two tables) and ``dana`` the dealer of its table 1."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from poker_room.tournaments import services
from poker_room.tournaments.models import Tournament
from tests.api import test_ofc_api
from tests.poker_room.ofc_events.play import OFC
from tests.poker_room.tournament_setup import PLAYERS, T0


@pytest.fixture
def ofc(make_tournament: Callable[..., Tournament], director: User, rng: random.Random) -> Callable[..., Tournament]:
    """An Open-Face points tournament of ``players`` entries, started at T0 (not yet in round 1)."""

    def make(players: int = 8, tables: int = 2, **settings: Any) -> Tournament:
        tournament = make_tournament(tables=tables, **{**OFC, **settings})
        for name in PLAYERS[:players]:
            services.entry_register(actor=director, tournament=tournament, name=name, now=T0)
        return services.tournament_start(actor=director, tournament=tournament, now=T0, rng=rng)

    return make


# The API tests' event and the dealer of its table 1 (``tests.api.test_ofc_api``).
tournament = test_ofc_api.tournament
dana = test_ofc_api.dana
