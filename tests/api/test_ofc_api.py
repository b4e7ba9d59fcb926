"""The REST API of Open-Face points tournaments: a round begun, hands entered and voided, the standings,
the finish; who may call each, and bad input refused in the dealer's words with nothing written.

Tina directs; Dana deals table 1, Otto no table here; Alex audits (reads only). Boards come from a seeded deck
(``tests.poker_room.test_ofc_points.deal_boards``), the expected points from ``rules.games.ofc.score``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from casino.roles import Role
from ledger.verify import ledger_verify
from poker_room.ofc_events.models import OfcHand
from poker_room.tournaments import services
from poker_room.tournaments.models import Entry, Tournament
from tests.api.clients import api_client as _api
from tests.api.clients import refusal as _refused
from tests.poker_room import tournament_setup
from tests.poker_room.ofc_events.play import OFC, deal_boards, engine_points, seated
from tests.poker_room.tournament_setup import PLAYERS, T0, everything

director = tournament_setup.director
make_tournament = tournament_setup.make_tournament
_empty_cache = tournament_setup._empty_cache
rng = tournament_setup.rng

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(make_tournament: Callable[..., Tournament], director: User, rng: random.Random) -> Tournament:
    made = make_tournament(tables=2, **OFC)
    for name in PLAYERS[:8]:
        services.entry_register(actor=director, tournament=made, name=name, now=T0)
    return services.tournament_start(actor=director, tournament=made, now=T0, rng=rng)


@pytest.fixture
def dana(make_user: Callable[..., User], director: User, tournament: Tournament) -> User:
    user = make_user("dana_dealer", Role.DEALER)
    services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=1, dealer=user)
    return user


def _url(tournament: Tournament, tail: str) -> str:
    return f"/api/tournaments/{tournament.pk}/ofc/{tail}"


def _boards_body(boards: dict[int, tuple[str, str, str]]) -> dict[str, Any]:
    return {"boards": {str(number): list(rows) for number, rows in boards.items()}}


def test_a_round_begins_with_its_tables(tournament: Tournament, director: User) -> None:
    response = _api(director).post(_url(tournament, "rounds/"))
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["round"], body["rounds"], body["hands_per_round"]) == (1, 2, 3)
    assert [len(table["seats"]) for table in body["tables"]] == [4, 4]
    assert {seat["entry"] for table in body["tables"] for seat in table["seats"]} == set(range(1, 9))
    _refused(_api(director).post(_url(tournament, "rounds/")), 409, "Round 1 is not over")


def test_the_tables_dealer_enters_a_hand_scored_by_the_engine(
    tournament: Tournament, director: User, dana: User
) -> None:
    _api(director).post(_url(tournament, "rounds/"))
    boards = deal_boards(random.Random(3), seated(tournament, 1))
    response = _api(dana).post(_url(tournament, "tables/1/hands/"), _boards_body(boards), format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert {int(k): v for k, v in body["points"].items()} == engine_points(boards)
    assert (body["round"], body["hand"], body["table"], body["status"]) == (1, 1, 1, "in_force")
    other = deal_boards(random.Random(3), seated(tournament, 2))
    _refused(
        _api(dana).post(_url(tournament, "tables/2/hands/"), _boards_body(other), format="json"), 403, "not your table"
    )


def test_a_card_twice_is_refused_naming_the_field_and_nothing_is_written(
    tournament: Tournament, director: User
) -> None:
    _api(director).post(_url(tournament, "rounds/"))
    seats = seated(tournament, 1)
    body = _boards_body(deal_boards(random.Random(3), seats))
    card = body["boards"][str(seats[0])][0].split()[0]
    body["boards"][str(seats[1])][0] = " ".join([card, *body["boards"][str(seats[1])][0].split()[1:]])
    before = everything(tournament)
    refused = _refused(_api(director).post(_url(tournament, "tables/1/hands/"), body, format="json"), 400)
    assert "is on the table twice" in refused["message"]
    assert refused["extra"]["field"] == f"{seats[1]}-front"
    assert everything(tournament) == before and not OfcHand.objects.exists()


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({}, 400),
        ({"boards": []}, 400),
        ({"boards": {"1": ["As Kd 7c", "2c"]}}, 400),
        ({"boards": {"1": [1, 2, 3]}}, 400),
        ({"boards": {"x": ["As Kd 7c", "2c 3c 4c 5c 6c", "7c 8c 9c Tc Jc"]}}, 400),
        ({"boards": {}, "extra": 1}, 400),
    ],
)
def test_bad_bodies_are_refused_not_a_500(tournament: Tournament, director: User, body: Any, status: int) -> None:
    _api(director).post(_url(tournament, "rounds/"))
    _refused(_api(director).post(_url(tournament, "tables/1/hands/"), body, format="json"), status)
    assert not OfcHand.objects.exists()


def test_void_the_latest_hand(tournament: Tournament, director: User, dana: User) -> None:
    _api(director).post(_url(tournament, "rounds/"))
    boards = deal_boards(random.Random(3), seated(tournament, 1))
    hand = _api(director).post(_url(tournament, "tables/1/hands/"), _boards_body(boards), format="json").json()
    _refused(_api(dana).post(_url(tournament, f"hands/{hand['id']}/void/"), {"reason": "x"}, format="json"), 403)
    response = _api(director).post(_url(tournament, f"hands/{hand['id']}/void/"), {"reason": "misread"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "voided"
    _refused(
        _api(director).post(_url(tournament, f"hands/{hand['id']}/void/"), {"reason": "again"}, format="json"),
        409,
        "voided already",
    )


def test_the_whole_event_standings_and_finish(tournament: Tournament, director: User, make_user) -> None:
    alex = make_user("alex_auditor", Role.AUDITOR)
    otto = make_user("otto_dealer", Role.DEALER)
    deck = random.Random(19)
    totals: dict[int, int] = {}
    for round_number in (1, 2):
        assert _api(director).post(_url(tournament, "rounds/")).status_code == 201
        for table in (1, 2):
            for _ in range(3):
                boards = deal_boards(deck, seated(tournament, table))
                answer = _api(director).post(
                    _url(tournament, f"tables/{table}/hands/"), _boards_body(boards), format="json"
                )
                assert answer.status_code == 201, answer.content
                for number, points in engine_points(boards).items():
                    totals[number] = totals.get(number, 0) + points
        if round_number == 1:
            _refused(_api(director).post(_url(tournament, "finish/")), 409, "finishes after the last round")
    _refused(
        _api(director).post(
            _url(tournament, "tables/1/hands/"), _boards_body(deal_boards(deck, seated(tournament, 1))), format="json"
        ),
        409,
        "has played all 3 hands of round 2",
    )
    standings = _api(alex).get(_url(tournament, "standings/"))
    assert standings.status_code == 200
    body = standings.json()
    assert {line["entry"]: line["points"] for line in body["standings"]} == totals
    assert body["tie_breaks"] == ["points", "last_round", "scoops", "fouls", "lot"]
    _refused(_api(otto).get(_url(tournament, "standings/")), 403)
    _refused(_api(alex).post(_url(tournament, "finish/")), 403)
    finished = _api(director).post(_url(tournament, "finish/"))
    assert finished.status_code == 200, finished.content
    lines = finished.json()["standings"]
    assert [line["place"] for line in lines] == list(range(1, 9))
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    assert Entry.objects.get(tournament=tournament, place=1).number == lines[0]["entry"]
    assert ledger_verify().ok
    _refused(_api(director).post(_url(tournament, "finish/")), 409)


def test_the_schema_documents_the_endpoints(director: User) -> None:
    response = _api(director).get("/api/schema/")
    assert response.status_code == 200
    text = response.content.decode()
    for path in ("ofc/rounds/", "ofc/tables/{table_number}/hands/", "ofc/standings/", "ofc/finish/"):
        assert path in text
