"""The deal's REST API: an entry number that is not one (or is written in other digits) is refused in words, and
nobody signed in works a deal out or records one."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from poker_room.deals.models import Deal
from poker_room.tournaments.models import Tournament
from tests.poker_room.deals.play import KEY, STACKS
from tests.poker_room.tournament_setup import everything

pytestmark = pytest.mark.django_db


def _post(user, tournament: Tournament, body: dict[str, Any]):
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(user)
    return client.post(f"/api/tournaments/{tournament.pk}/deal/", body, format="json")


@pytest.mark.parametrize(
    "key",
    [
        "²",  # a digit to str.isdigit, no number to int()
        "9" * 5000,  # beyond Python's digits for int()
        "①",
        "-1",
        "0x1",
        "",
        " ",
        "1.0",
    ],
)
def test_an_entry_number_that_is_not_one_is_refused_in_words(running, director, key) -> None:
    tournament = running(players=3)
    before = {**everything(tournament), "deals": Deal.objects.count()}
    response = _post(director, tournament, {"method": "icm", "stacks": {"1": 500, "2": 300, key: 200}})
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert set(body) == {"message", "extra"} and "not a player still in" in body["message"]
    assert {**everything(tournament), "deals": Deal.objects.count()} == before


def test_an_entry_number_written_in_other_digits_is_not_taken_for_one(running, director) -> None:
    tournament = running(players=3)
    response = _post(director, tournament, {"method": "icm", "stacks": {"1": 500, "2": 300, "٣": 200}, "preview": True})
    assert response.status_code == 400 and "not a player still in" in response.json()["message"]


def test_nobody_signed_in_works_out_or_records_a_deal(client, running) -> None:
    tournament = running(players=6)
    before = {**everything(tournament), "deals": Deal.objects.count()}
    api = APIClient(raise_request_exception=False)
    for preview in (True, False):
        body = {"method": "icm", "stacks": {str(n): c for n, c in STACKS.items()}, "preview": preview}
        assert api.post(f"/api/tournaments/{tournament.pk}/deal/", body, format="json").status_code in (401, 403)
    page = client.post(f"/poker-room/{tournament.pk}/deal/", {"form_key": KEY, "action": "record", "agreed": "yes"})
    assert page.status_code == 302 and "login" in page["Location"]
    assert {**everything(tournament), "deals": Deal.objects.count()} == before
