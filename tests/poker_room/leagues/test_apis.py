"""The league REST API given what is not its own: events that are no tournament, another league's event, a league
that is not there, malformed settings; each refused, nothing written."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from poker_room.leagues import services as leagues
from poker_room.leagues.models import League, LeagueEvent
from tests.api.clients import api_client as _api
from tests.poker_room.leagues.play import play

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"tournament": 2**62}, 400),
        ({"tournament": 2**63 + 5}, 400),
        ({"tournament": "7"}, 400),
        ({"tournament": None}, 400),
        ({"tournament": [1]}, 400),
        ({}, 400),
        ({"tournament": 1, "remove": "perhaps"}, 400),
        ({"tournament": 1, "league": 2}, 400),
    ],
)
def test_the_events_api_refuses_what_is_no_tournament_and_writes_nothing(director, body, status) -> None:
    league = leagues.league_create(actor=director, name="Mainz League", season="2026")
    response = _api(director).post(f"/api/leagues/{league.pk}/events/", body, format="json")
    assert response.status_code == status, response.content[:300]
    assert set(response.json()) == {"message", "extra"}
    assert not LeagueEvent.objects.exists()


def test_another_league_s_event_and_a_league_that_is_not_there(director, make_tournament) -> None:
    one = leagues.league_create(actor=director, name="Mainz League", season="2026")
    two = leagues.league_create(actor=director, name="Ladies League", season="2026")
    event = play(director, make_tournament, ["Anna", "Ben"])
    leagues.league_event_add(actor=director, league=one, tournament_id=event.pk)
    api = _api(director)
    taken = api.post(f"/api/leagues/{two.pk}/events/", {"tournament": event.pk, "remove": True}, format="json")
    assert taken.status_code == 409 and "is not in Ladies League" in taken.json()["message"]
    assert LeagueEvent.objects.get().removed_at is None
    for path in ("", "standings/", "events/", "master-class/"):
        method = api.get if path in ("", "standings/") else api.post
        assert method(f"/api/leagues/999999/{path}", {}, format="json").status_code == 404
    client_404 = APIClient()
    client_404.force_authenticate(director)
    assert client_404.patch("/api/leagues/999999/", {"name": "x"}, format="json").status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {"chips_per_point": 10**30},
        {"best_of": -1},
        {"master_class_size": "ten"},
        {"points_table": ["1e999"]},
        {"points_table": "25, 18"},
        {"tie_breaks": "wins"},
        {"expression": "open('/etc/passwd')", "formula": "expression"},
        {"name": None},
        {"name": "x" * 10_000},
        {"chip_rounding": "sideways"},
    ],
)
def test_a_league_s_settings_refuse_malformed_values_and_write_nothing(director, body) -> None:
    league = leagues.league_create(actor=director, name="Mainz League", season="2026")
    before = League.objects.filter(pk=league.pk).values().get()
    response = _api(director).patch(f"/api/leagues/{league.pk}/", body, format="json")
    assert response.status_code == 400, response.content[:300]
    assert League.objects.filter(pk=league.pk).values().get() == before
