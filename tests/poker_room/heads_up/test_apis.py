"""The heads-up REST API's refusals: a match whose players are not known, a group result once the knock-out is
drawn, and malformed input, each a 400 or a 409 that writes nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from poker_room.heads_up import services as heads_up
from poker_room.heads_up.models import Match
from poker_room.tournaments.models import Tournament
from tests.poker_room.heads_up.play import writes
from tests.poker_room.tournament_setup import PLAYERS, T0, director, fresh  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def test_a_match_whose_players_are_not_known_is_neither_counted_nor_decided(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(5, heads_up_mode="knockout")
    waiting = Match.objects.get(tournament=tournament, round=2, number=1)  # seed 1 against the winner of 4 v 5
    final = Match.objects.get(tournament=tournament, round=3)
    before = writes(tournament)
    api = APIClient()
    api.force_authenticate(director)
    base = f"/api/tournaments/{tournament.pk}/matches/"
    for match in (waiting, final):
        for path, body in (("hand/", {}), ("decide/", {"winner": 1}), ("undo/", {"reason": "x"})):
            response = api.post(f"{base}{match.pk}/{path}", body, format="json")
            assert response.status_code == 409, (path, response.content)
    client = Client()
    client.force_login(director)
    response = client.post(
        f"/poker-room/{tournament.pk}/matches/{waiting.pk}/decide/", {"winner": "1", "confirm": "yes"}
    )
    assert response.status_code == 409 and "waits for its players" in response.content.decode()
    assert client.get(f"/poker-room/{tournament.pk}/matches/{final.pk}/").status_code == 200
    assert writes(tournament) == before


def test_a_group_result_stands_once_the_knock_out_is_drawn(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
) -> None:
    tournament = heads_up_event(6, heads_up_mode="groups", group_size=3)
    _play_out_groups = Match.objects.filter(tournament=tournament, stage="group")
    while (match := _play_out_groups.filter(status="ready", table_number__isnull=False).first()) is not None:
        heads_up.match_decide(actor=director, tournament=tournament, match=match, winner=match.entry_a_id)
    assert Match.objects.filter(tournament=tournament, stage="knockout").exists()
    before = writes(tournament)
    last = Match.objects.filter(tournament=tournament, stage="group").order_by("-decided_at", "-pk").first()
    api = APIClient()
    api.force_authenticate(director)
    response = api.post(f"/api/tournaments/{tournament.pk}/matches/{last.pk}/undo/", {"reason": "x"}, format="json")
    assert response.status_code == 409 and "is complete" in response.json()["message"]
    assert writes(tournament) == before


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("decide/", {}),
        ("decide/", {"winner": "one"}),
        ("decide/", {"winner": 0}),
        ("decide/", {"winner": -3}),
        ("decide/", {"winner": 10**30}),
        ("decide/", {"winner": True}),
        ("decide/", {"winner": [1]}),
        ("decide/", {"winner": 99}),
        ("decide/", {"winner": 3}),  # in the tournament, not in this match
        ("hand/", {"take_back": "maybe"}),
        ("hand/", {"take_back": [True]}),
        ("undo/", {}),
        ("undo/", {"reason": 5}),
        ("undo/", {"reason": "x" * 501}),
    ],
)
def test_malformed_match_input_is_a_400_or_409_and_writes_nothing(
    heads_up_event: Callable[..., Tournament],
    director: User,  # noqa: F811
    path: str,
    body: dict[str, object],
) -> None:
    tournament = heads_up_event(4, heads_up_mode="knockout")
    match = Match.objects.get(tournament=tournament, round=1, number=1)
    before = writes(tournament)
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(director)
    response = api.post(f"/api/tournaments/{tournament.pk}/matches/{match.pk}/{path}", body, format="json")
    assert response.status_code in (400, 409), response.content
    assert set(response.json()) == {"message", "extra"}
    assert writes(tournament) == before
