"""The heads-up tests' event: an MSOP Heads Up started with its players (and its bracket drawn)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from poker_room.heads_up import services as heads_up
from poker_room.heads_up.models import Match
from poker_room.tournaments import services
from poker_room.tournaments.models import Tournament
from tests.poker_room.heads_up.play import player_names
from tests.poker_room.tournament_setup import T0, fresh


@pytest.fixture
def heads_up_event(director: User) -> Callable[..., Tournament]:
    """An MSOP Heads Up (7-hand levels, tables of two) with ``players`` registered and started."""

    def make(players: int, *, draw: bool = True, tables: int | None = None, **settings: object) -> Tournament:
        tournament = services.tournament_create(
            actor=director,
            template_key="msop_heads_up",
            buy_in_cents=9_000,
            fee_cents=1_000,
            tables=tables or (players + 1) // 2,
        )
        services.tournament_settings_set(actor=director, tournament=tournament, **{"seeding": "seeded", **settings})
        for name in player_names(players):
            services.entry_register(actor=director, tournament=tournament, name=name, now=T0)
        started = services.tournament_start(actor=director, tournament=tournament, now=T0, rng=random.Random(19))
        if draw and not Match.objects.filter(tournament=started).exists():
            heads_up.bracket_draw(actor=director, tournament=started, rng=random.Random(19))
        return fresh(started)

    return make
