"""The REST API of a tournament's deal: ``GET/POST /api/tournaments/<id>/deal/``: who may read and who
may write, a preview that writes nothing, a deal recorded once, and bad input refused as ``{"message", "extra"}``
with nothing written.

Tina directs; Paula is a Pit boss (a supervisor: she may record a deal too); Alex audits (reads only); Dana deals.
Six players at 90.00 into the pool: 540.00, paid 270.00, 162.00, 108.00.
"""

from __future__ import annotations

from typing import Any

import pytest

from poker_room.deals.models import Deal
from poker_room.pure.icm import chip_chop_cents, icm_deal_cents
from poker_room.tournaments import services
from tests.api.clients import api_client as _api
from tests.api.clients import refusal as _refused
from tests.poker_room import tournament_setup
from tests.poker_room.tournament_setup import everything

director = tournament_setup.director
make_tournament = tournament_setup.make_tournament
running = tournament_setup.running
rng = tournament_setup.rng
_empty_cache = tournament_setup._empty_cache

pytestmark = pytest.mark.django_db

STACKS = {"1": 30_000, "2": 24_000, "3": 18_000, "4": 12_000, "5": 9_000, "6": 7_000}
PRIZES = [27_000, 16_200, 10_800]


def written(tournament) -> dict[str, Any]:
    return {**everything(tournament), "deals": Deal.objects.count()}


def url(tournament) -> str:
    return f"/api/tournaments/{tournament.pk}/deal/"


def test_get_shows_the_players_in_and_that_a_deal_can_be_made(running, director, auditor) -> None:
    tournament = running(players=6)
    body = _api(auditor).get(url(tournament)).json()
    assert body["deal"] is None and body["can_deal"] is True and body["refusal"] == ""
    assert [player["entry"] for player in body["players_in"]] == [1, 2, 3, 4, 5, 6]


def test_a_preview_works_the_deal_out_and_writes_nothing(running, director) -> None:
    tournament = running(players=6)
    before = written(tournament)
    response = _api(director).post(url(tournament), {"method": "icm", "stacks": STACKS, "preview": True}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    stacks = list(STACKS.values())
    assert [line["amount_cents"] for line in body["lines"]] == list(icm_deal_cents(stacks, PRIZES))
    assert [line["chip_chop_cents"] for line in body["lines"]] == list(chip_chop_cents(stacks, PRIZES))
    assert body["prizes_left_cents"] == [27_000, 16_200, 10_800, 0, 0, 0] and body["money_cents"] == 54_000
    assert written(tournament) == before


def test_a_supervisor_records_a_deal_once(running, pit_boss) -> None:
    tournament = running(players=6)
    body_in = {"method": "chip_chop", "stacks": STACKS, "reserve_cents": 2_000}
    response = _api(pit_boss).post(url(tournament), body_in, format="json")
    assert response.status_code == 201, response.content
    deal = response.json()["deal"]
    assert deal["method"] == "chip_chop" and deal["reserve_cents"] == 2_000 and deal["recorded_by"] == pit_boss.username
    chop = chip_chop_cents(list(STACKS.values()), PRIZES, reserve_cents=2_000)
    by_entry = {line["entry"]: line["amount_cents"] for line in deal["lines"]}
    assert by_entry == {int(number): amount for number, amount in zip(STACKS, chop, strict=True)}
    before = written(tournament)
    _refused(_api(pit_boss).post(url(tournament), body_in, format="json"), 409, "recorded already")
    assert written(tournament) == before
    assert _api(pit_boss).get(url(tournament)).json()["deal"]["id"] == Deal.objects.get().pk


@pytest.mark.parametrize(
    ("body", "status", "contains"),
    [
        ({"method": "icm", "stacks": {k: v for k, v in STACKS.items() if k != "2"}}, 400, "missing: #2 Ben"),
        ({"method": "icm", "stacks": {**STACKS, "2": 0}}, 400, ""),
        ({"method": "icm", "stacks": {**STACKS, "2": "12k"}}, 400, ""),
        ({"method": "icm", "stacks": {**STACKS, "99": 5}}, 400, "#99 is not a player still in"),
        ({"method": "halves", "stacks": STACKS}, 400, ""),
        ({"method": "icm", "stacks": STACKS, "reserve_cents": 20_000}, 400, "it cannot be more"),
        ({"method": "icm", "stacks": STACKS, "bonus": 1}, 400, ""),
        ({"method": "custom", "stacks": STACKS}, 400, "Give the amount each player agreed on"),
        ({"method": "custom", "stacks": STACKS, "amounts": {k: 9_001 for k in STACKS}}, 400, "add up to 54006"),
        ({"method": "icm"}, 400, ""),
    ],
)
def test_bad_input_is_refused_in_words_and_writes_nothing(running, director, body, status, contains) -> None:
    tournament = running(players=6)
    before = written(tournament)
    _refused(_api(director).post(url(tournament), body, format="json"), status, contains)
    assert written(tournament) == before


def test_who_may_not(running, director, auditor, dealer) -> None:
    tournament = running(players=6)
    before = written(tournament)
    for who in (auditor, dealer):
        _refused(_api(who).post(url(tournament), {"method": "icm", "stacks": STACKS}, format="json"), 403)
        _refused(
            _api(who).post(url(tournament), {"method": "icm", "stacks": STACKS, "preview": True}, format="json"), 403
        )
    assert _api(dealer).get(url(tournament)).status_code == 403
    assert _api(None).get(url(tournament)).status_code in (401, 403)
    assert written(tournament) == before


def test_a_tournament_not_started_is_refused_and_one_not_there_is_404(make_tournament, director) -> None:
    tournament = make_tournament()
    _refused(
        _api(director).post(url(tournament), {"method": "icm", "stacks": {}}, format="json"), 409, "has not started"
    )
    assert _api(director).get("/api/tournaments/999999/deal/").status_code == 404


def test_a_deal_is_recorded_only_as_its_preview_showed_it(running, director) -> None:
    tournament = running(players=6)
    client = _api(director)
    shown = client.post(url(tournament), {"method": "icm", "stacks": STACKS, "preview": True}, format="json").json()
    agreed = {str(line["entry"]): line["amount_cents"] for line in shown["lines"]}
    # Between the preview and the record the house changes its minimum cash: 3rd prize is gone, the deal moves.
    services.tournament_settings_set(actor=director, tournament=tournament, min_cash_cents=12_000)
    before = written(tournament)
    body = {"method": "icm", "stacks": STACKS, "worked_out": agreed}
    _refused(client.post(url(tournament), body, format="json"), 409, "work it out again")
    assert written(tournament) == before
    again = client.post(url(tournament), {"method": "icm", "stacks": STACKS, "preview": True}, format="json").json()
    agreed = {str(line["entry"]): line["amount_cents"] for line in again["lines"]}
    response = client.post(url(tournament), {**body, "worked_out": agreed}, format="json")
    assert response.status_code == 201, response.content
    assert Deal.objects.get().amounts == agreed
