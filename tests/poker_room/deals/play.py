"""A final table in the deal tests: six players at 90.00 into the pool (540.00, paid 50/30/20 %: 270.00, 162.00,
108.00 under the house table), their stacks, what a refusal must leave as it was, the players still in, and the
one-time keys of the forms."""

from __future__ import annotations

from typing import Any

from poker_room.deals.models import Deal
from poker_room.tournaments.models import Entry, Tournament
from tests.poker_room.tournament_setup import everything

PRIZES = [27_000, 16_200, 10_800]
STACKS = {1: 30_000, 2: 24_000, 3: 18_000, 4: 12_000, 5: 9_000, 6: 7_000}


def written(tournament: Tournament) -> dict[str, Any]:
    return {**everything(tournament), "deals": Deal.objects.count()}


def active(tournament: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).order_by("number"))


KEY = "0123456789abcdef0123456789abcdef"
OTHER_KEY = "fedcba9876543210fedcba9876543210"
