"""The REST API of the leagues: create, read, change, events, standings and the Master Class; who may;
bad input refused naming the field with nothing written.

Tina directs; Alex audits (reads only); Dana deals (neither reads nor writes a league); signed out gets 401/403.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from casino.models import AuditEvent
from casino.roles import Role
from poker_room.leagues.models import League
from poker_room.pure.league_points import Result, master_class_chips, points
from poker_room.tournaments.models import Entry, Tournament
from tests.api.clients import api_client as _api
from tests.poker_room import tournament_setup
from tests.poker_room.leagues.play import play

director = tournament_setup.director
make_tournament = tournament_setup.make_tournament
_empty_cache = tournament_setup._empty_cache

pytestmark = pytest.mark.django_db


@pytest.fixture
def auditor(make_user) -> User:
    return make_user("alex_auditor", Role.AUDITOR)


def _create(client: APIClient, **body: Any) -> Any:
    return client.post("/api/leagues/", {"name": "Mainz League", "season": "2026", **body}, format="json")


def test_a_league_season_through_the_api(director, make_tournament, auditor):
    client = _api(director)
    made = _create(client, formula="pokerstars", best_of=2, master_class_size=2, chips_per_point=100)
    assert made.status_code == 201, made.json()
    league = made.json()
    assert league["formula"] == "pokerstars" and league["tie_breaks"] == ["wins", "best_finish", "cashes"]
    one = play(director, make_tournament, ["Anna", "Ben", "Cem", "Dora", "Emil", "Fritz", "Gina"], buy_in_cents=2_000)
    two = play(director, make_tournament, ["Ben", "Anna", "Cem"], buy_in_cents=2_000)
    for event in (one, two):
        answer = client.post(f"/api/leagues/{league['id']}/events/", {"tournament": event.pk}, format="json")
        assert answer.status_code == 200, answer.json()
    assert answer.json()["events"] == [one.pk, two.pk]

    standings = _api(auditor).get(f"/api/leagues/{league['id']}/standings/")
    assert standings.status_code == 200
    body = standings.json()
    first = body["lines"][0]
    expected = points(Result(7, 1, 20), formula="pokerstars") + points(Result(3, 2, 20), formula="pokerstars")
    assert first["name"] == "Anna" and first["points"] == str(expected)
    assert [event["players"] for event in body["events"]] == [7, 3]
    assert first["chips"] == master_class_chips(expected, chips_per_point=100, smallest_chip=25, rounding="nearest")

    changed = client.patch(f"/api/leagues/{league['id']}/", {"chip_rounding": "down"}, format="json")
    assert changed.status_code == 200 and changed.json()["chip_rounding"] == "down"
    assert changed.json()["best_of"] == 2  # not sent, not changed

    master = client.post(f"/api/leagues/{league['id']}/master-class/", {}, format="json")
    assert master.status_code == 201, master.json()
    invited = master.json()["entries"]
    assert [row["name"] for row in invited] == ["Anna", "Ben"]
    assert invited[0]["chips"] == master_class_chips(expected, chips_per_point=100, smallest_chip=25, rounding="down")
    assert Entry.objects.filter(tournament_id=master.json()["tournament"]).count() == 2
    again = client.post(f"/api/leagues/{league['id']}/master-class/", {}, format="json")
    assert again.status_code == 409 and "already" in again.json()["message"]


def test_the_house_s_expression_and_table_through_the_api(director):
    client = _api(director)
    table = _create(client, formula="table", points_table=[25, 18, 13.5])
    assert table.status_code == 201 and table.json()["points_table"] == [25, 18, 13.5]
    expression = _create(client, formula="expression", expression="players - place + 1")
    assert expression.status_code == 201 and expression.json()["expression"] == "players - place + 1"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"formula": "expression", "expression": "__import__('os')"}, "expression"),
        ({"formula": "expression", "expression": "2 ** 99"}, "expression"),
        ({"formula": "table", "points_table": [5, 10]}, "points_table"),
        ({"formula": "golf"}, "formula"),
        ({"tie_breaks": ["luck"]}, "tie_breaks"),
        ({"best_of": -1}, "best_of"),
        ({"master_class_size": 1}, "master_class_size"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_input_is_refused_naming_the_field_and_writes_nothing(director, body, field):
    before = League.objects.count(), AuditEvent.objects.count()
    answer = _create(_api(director), **body)
    assert answer.status_code == 400, answer.json()
    assert answer.json()["extra"].get("field") == field or field in str(answer.json())
    assert (League.objects.count(), AuditEvent.objects.count()) == before


def test_who_may_read_and_write(director, auditor, make_user, make_tournament):
    dealer = make_user("dana_dealer", Role.DEALER)
    league = _create(_api(director)).json()
    assert _api(auditor).get("/api/leagues/").status_code == 200
    assert _api(auditor).get(f"/api/leagues/{league['id']}/").status_code == 200
    assert _create(_api(auditor)).status_code == 403
    assert _api(auditor).patch(f"/api/leagues/{league['id']}/", {"best_of": 3}, format="json").status_code == 403
    event = make_tournament()
    assert (
        _api(auditor).post(f"/api/leagues/{league['id']}/events/", {"tournament": event.pk}, format="json").status_code
        == 403
    )
    assert _api(dealer).get(f"/api/leagues/{league['id']}/standings/").status_code == 403
    assert _api(None).get("/api/leagues/").status_code in (401, 403)
    assert _api(director).get("/api/leagues/99999/").status_code == 404
    missing = _api(director).post(f"/api/leagues/{league['id']}/events/", {"tournament": 99_999}, format="json")
    assert missing.status_code == 400 and missing.json()["extra"]["field"] == "tournament"
    assert Tournament.objects.filter(pk=event.pk).exists()


def test_an_event_is_taken_out(director, make_tournament):
    client = _api(director)
    league = _create(client).json()
    event = make_tournament()
    client.post(f"/api/leagues/{league['id']}/events/", {"tournament": event.pk}, format="json")
    out = client.post(f"/api/leagues/{league['id']}/events/", {"tournament": event.pk, "remove": True}, format="json")
    assert out.status_code == 200 and out.json()["events"] == []
