"""The tournament service tests' fixtures (``tournament_setup``): the director persona, a tournament made through the
services, one started with its players, a seeded draw."""

from __future__ import annotations

from tests.poker_room.tournament_setup import (  # noqa: F401  (fixtures)
    _empty_cache,
    director,
    make_tournament,
    rng,
    running,
)
