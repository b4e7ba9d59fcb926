"""Playing Open-Face points events in the tests: the event's settings, boards dealt from a seeded deck (each
player's 13 cards laid out the simple way: the three lowest in front, the next five in the middle, the five highest
behind, so some foul), the engine's points for them, who sits at a table, and round 1 begun."""

from __future__ import annotations

import random

from django.contrib.auth.models import User

from poker_room.ofc_events import services as ofc_points
from poker_room.tournaments.models import Entry, Tournament
from rules.games.cards import CARDS
from rules.games.ofc import Board, score
from tests.poker_room.tournament_setup import fresh

OFC = {"format": "ofc_points", "ofc_rounds": 2, "ofc_hands_per_round": 3, "table_size": 4}


def deal_boards(rng: random.Random, numbers: list[int]) -> dict[int, tuple[str, str, str]]:
    """Each player's 13 cards from a shuffled deck, laid out lowest in front, highest behind (some foul)."""
    deck = list(CARDS)
    rng.shuffle(deck)
    boards: dict[int, tuple[str, str, str]] = {}
    for i, number in enumerate(numbers):
        cards = sorted(deck[13 * i : 13 * i + 13], key=lambda card: (card.rank, card.suit))
        front, middle, back = cards[:3], cards[3:8], cards[8:]
        boards[number] = tuple(" ".join(str(card) for card in row) for row in (front, middle, back))  # type: ignore[assignment]
    return boards


def engine_points(boards: dict[int, tuple[str, str, str]], royalties: str = "mainz") -> dict[int, int]:
    sheet = score({str(number): Board.from_rows(*rows) for number, rows in boards.items()}, royalties=royalties)
    return {int(player): points for player, points in sheet.totals.items()}


def seated(tournament: Tournament, table: int) -> list[int]:
    return list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE, table_number=table)
        .order_by("seat_number")
        .values_list("number", flat=True)
    )


def round_begun(tournament: Tournament, director: User) -> Tournament:  # noqa: F811
    ofc_points.ofc_round_begin(actor=director, tournament=tournament, rng=random.Random(3))
    return fresh(tournament)
