"""Fixtures and helpers of the tournament service tests (entries, eliminations, money): the personas, a tournament
made through the services with a short structure, a frozen clock, and a count of everything a refusal must not
write. Test modules import the fixtures they use."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from casino.models import AuditEvent
from casino.roles import Role
from ledger.models import LedgerEntry, Posting
from poker_room.tournaments import services
from poker_room.tournaments.models import Elimination, Entry, Purchase, SeatMove, Tournament, TournamentTable
from tests.caches import cache_clear

T0 = dt.datetime(2025, 10, 18, 18, 0, tzinfo=dt.UTC)  # shuffle up and deal at 18:00

# 20-minute levels; a 15-minute break after level 3 colours up the 25 chips, another after level 6.
# Minutes from the start: L1 0–20, L2 20–40, L3 40–60, break 60–75, L4 75–95, L5 95–115, L6 115–135, break 135–150.
LEVELS: list[dict[str, Any]] = [
    {"kind": "level", "minutes": 20, "small_blind": 25, "big_blind": 50},
    {"kind": "level", "minutes": 20, "small_blind": 50, "big_blind": 100},
    {"kind": "level", "minutes": 20, "small_blind": 75, "big_blind": 150},
    {"kind": "break", "minutes": 15, "colour_up": 25},
    {"kind": "level", "minutes": 20, "small_blind": 100, "big_blind": 200, "ante": 200, "ante_kind": "big_blind"},
    {"kind": "level", "minutes": 20, "small_blind": 200, "big_blind": 400, "ante": 400, "ante_kind": "big_blind"},
    {"kind": "level", "minutes": 20, "small_blind": 300, "big_blind": 600, "ante": 600, "ante_kind": "big_blind"},
    {"kind": "break", "minutes": 15},
    {"kind": "level", "minutes": 20, "small_blind": 400, "big_blind": 800, "ante": 800, "ante_kind": "big_blind"},
    {"kind": "level", "minutes": 20, "small_blind": 500, "big_blind": 1000, "ante": 1000, "ante_kind": "big_blind"},
]

PLAYERS = [
    "Anna",
    "Ben",
    "Cem",
    "Dora",
    "Emil",
    "Fritz",
    "Gina",
    "Hans",
    "Ines",
    "Jonas",
    "Karl",
    "Lena",
    "Mia",
    "Nils",
    "Olga",
    "Paul",
    "Quinn",
    "Rosa",
    "Sven",
    "Tom",
    "Uwe",
    "Vera",
]


def at(minutes: float) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes)


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache_clear()  # the tournaments' versions outlive a rolled-back test database


@pytest.fixture
def director(make_user: Callable[..., User]) -> User:
    return make_user("tina_director", Role.TOURNAMENT_DIRECTOR)


@pytest.fixture
def rng() -> random.Random:
    return random.Random(18)


@pytest.fixture
def make_tournament(director: User) -> Callable[..., Tournament]:
    """A tournament made and set up through the services: the short structure above, then ``settings``."""

    def make(
        *,
        template_key: str = "msop_main_event",
        buy_in_cents: int = 9_000,
        fee_cents: int = 1_000,
        bounty_cents: int = 0,
        tables: int = 2,
        **settings: Any,
    ) -> Tournament:
        tournament = services.tournament_create(
            actor=director,
            template_key=template_key,
            buy_in_cents=buy_in_cents,
            fee_cents=fee_cents,
            bounty_cents=bounty_cents,
            tables=tables,
        )
        services.tournament_structure_set(actor=director, tournament=tournament, levels=LEVELS)
        if settings:
            services.tournament_settings_set(actor=director, tournament=tournament, **settings)
        return Tournament.objects.get(pk=tournament.pk)

    return make


@pytest.fixture
def running(
    make_tournament: Callable[..., Tournament], director: User, rng: random.Random
) -> Callable[..., Tournament]:
    """A tournament with ``players`` registered and started at ``T0``."""

    def start(players: int = 6, **fields: Any) -> Tournament:
        tournament = make_tournament(**fields)
        for name in PLAYERS[:players]:
            services.entry_register(actor=director, tournament=tournament, name=name, now=T0)
        return services.tournament_start(actor=director, tournament=tournament, now=T0, rng=rng)

    return start


def entry(tournament: Tournament, number: int) -> Entry:
    return Entry.objects.get(tournament=tournament, number=number)


def fresh(tournament: Tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


def everything(tournament: Tournament) -> dict[str, Any]:
    """Every row a write could add or change: a refusal leaves all of it as it was."""
    return {
        "entries": list(Entry.objects.filter(tournament=tournament).order_by("pk").values()),
        "purchases": Purchase.objects.count(),
        "eliminations": list(Elimination.objects.order_by("pk").values()),
        "seat_moves": SeatMove.objects.count(),
        "tables": list(TournamentTable.objects.filter(tournament=tournament).order_by("pk").values()),
        "postings": Posting.objects.count(),
        "ledger_entries": LedgerEntry.objects.count(),
        "audit_events": AuditEvent.objects.count(),
        "tournament": Tournament.objects.filter(pk=tournament.pk).values().get(),
    }


def seating(tournament: Tournament) -> dict[int, int]:
    """Players at each table in play."""
    counts: dict[int, int] = {}
    for table in TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True):
        counts[table.number] = Entry.objects.filter(
            tournament=tournament, status=Entry.Status.ACTIVE, table_number=table.number
        ).count()
    return counts
