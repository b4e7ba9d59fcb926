"""The league tests' league: the Mainz League 2026, points by 10 × √players ÷ √place."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from poker_room.leagues import services as leagues
from poker_room.leagues.models import League


@pytest.fixture
def league(director: User) -> League:
    return leagues.league_create(actor=director, name="Mainz League", season="2026", formula="sqrt_place")
