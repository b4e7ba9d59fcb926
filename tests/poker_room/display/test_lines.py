"""The room display of a heads-up and an Open-Face points event: the matches being played, or the round and
the leaders, in place of the clock; entry numbers, never a name; a new line as soon as a hand is counted."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from django.test import Client

from poker_room.display.views import display_address, display_token
from poker_room.heads_up import services as heads_up
from poker_room.heads_up.models import Match
from poker_room.ofc_events import services as ofc_points
from poker_room.tournaments import services
from poker_room.tournaments.models import Tournament
from tests.poker_room.tournament_setup import T0

pytestmark = pytest.mark.django_db

NAMES = ("Anna", "Ben", "Cem", "Dora", "Emil", "Fritz", "Gina", "Hans")


def _started(director: User, *, template_key: str, players: int, **create: object) -> Tournament:
    tournament = services.tournament_create(
        actor=director, template_key=template_key, buy_in_cents=2000, fee_cents=500, **create
    )
    for name in NAMES[:players]:
        services.entry_register(actor=director, tournament=tournament, name=name, now=T0)
    return services.tournament_start(actor=director, tournament=tournament, now=T0, rng=random.Random(19))


def _json(client: Client, tournament: Tournament) -> dict[str, object]:
    response = client.get(f"/poker-room/screen/{display_token(tournament.pk)}/display.json")
    assert response.status_code == 200
    return response.json()


def test_a_heads_up_display_lists_the_matches_with_their_blinds_and_moves_with_each_hand(director: User) -> None:
    tournament = _started(director, template_key="msop_heads_up", players=4, tables=2)
    heads_up.bracket_draw(actor=director, tournament=tournament, rng=random.Random(19))
    client = Client()
    payload = _json(client, tournament)
    assert payload["format"] == "heads_up"
    lines = payload["lines"]
    assert len(lines) == 2, lines
    match = Match.objects.filter(tournament=tournament, table_number=1).exclude(status="decided").get()
    assert lines[0].startswith(f"Table 1: #{match.entry_a.number} v #{match.entry_b.number}")
    assert "level 1," in lines[0] and "hand 1 of 7" in lines[0]
    for _hand in range(7):
        heads_up.match_hand(actor=director, tournament=tournament, match=match)
    after = _json(client, tournament)["lines"][0]
    assert "level 2" in after and "hand 1 of 7" in after  # the 8th hand is level 2's first
    assert not any(name in line for line in after for name in NAMES)
    page = client.get(display_address(tournament.pk)).content.decode()
    assert "data-no-clock" in page and f"#{match.entry_a.number} v #{match.entry_b.number}" in page


def test_an_open_face_display_shows_the_round_its_tables_and_the_leaders(director: User) -> None:
    tournament = _started(director, template_key="msop_turbo", players=8, tables=2, format="ofc_points")
    ofc_points.ofc_round_begin(actor=director, tournament=tournament, rng=random.Random(19))
    lines = _json(Client(), tournament)["lines"]
    assert lines[0] == "Round 1 of 3, 15 hands a round"
    assert lines[1:3] == ["Table 1: 0 of 15 hands played", "Table 2: 0 of 15 hands played"]
    assert len(lines) == 3 + 5 and lines[3].endswith("· 0 points")
    assert not any(name in line for line in lines for name in NAMES)


def test_a_chip_tournament_keeps_its_clock_and_has_no_lines(director: User) -> None:
    tournament = _started(director, template_key="msop_turbo", players=4, tables=1)
    payload = _json(Client(), tournament)
    assert (payload["format"], payload["lines"]) == ("chips", [])
    assert "data-no-clock" not in Client().get(display_address(tournament.pk)).content.decode()
