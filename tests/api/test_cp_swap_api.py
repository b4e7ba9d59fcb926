"""The REST API for Chinese Poker's swap and surrender (GAME_RULES.md §3): ``POST /api/rounds/{id}/swaps/`` and the
``surrendered`` seats of ``POST /api/rounds/{id}/hands/``; every refusal is ``{"message", "extra"}``."""

from __future__ import annotations

from typing import Any

import pytest

from rules.services import rule_set_create
from tests.api.clients import api_client, refusal

SEED_EXAMPLE = {  # GAME_RULES.md §3's worked example: totals 1: -1, 2: +6, 3: -5
    "1": {"front": "8s 8h 8d", "middle": "Kh Qh Jd Th 9h", "back": "7s 7h 7d Ts Td"},
    "2": {"front": "Ks Js 4s", "middle": "Kc Qc 8c 7c 5c", "back": "Ad Qd 9d 6d 2d"},
    "3": {"front": "Qs Tc 5h", "middle": "Ah Ac 2h 2c 4d", "back": "3s 3h 3d 3c 6h"},
}


@pytest.fixture
def dealt(pit_boss, dealer, make_table, shift) -> tuple[Any, int]:  # type: ignore[no-untyped-def]
    rules = rule_set_create(
        actor=pit_boss, name="CP API", game="chinese_poker", surrender_allowed=True, swap_allowed=True
    )
    table = make_table(name="CP-API", game="chinese_poker", seat_count=4, rule_set=rules)
    api = api_client(dealer)
    round_id = api.post(f"/api/tables/{table.pk}/rounds/", {}, format="json").json()["id"]
    for seat in (1, 2, 3):
        api.post(f"/api/rounds/{round_id}/wagers/", {"seat": seat, "amount_cents": 1000}, format="json")
    api.post(f"/api/rounds/{round_id}/close-betting/", format="json")
    assert api.post(f"/api/rounds/{round_id}/deal/", {"dice": [1, 2, 3]}, format="json").status_code == 200
    return api, round_id


@pytest.mark.django_db
def test_a_swap_and_a_surrender_over_the_api_settle_with_their_points(dealt) -> None:  # type: ignore[no-untyped-def]
    api, round_id = dealt
    answer = api.post(f"/api/rounds/{round_id}/swaps/", {"seat": 3, "gave": "Kd", "took": "Qs"}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["hands"]["swaps"] == [{"seat": 3, "gave": "Kd", "took": "Qs"}]
    hands = {"seats": SEED_EXAMPLE, "surrendered": [1]}
    assert api.post(f"/api/rounds/{round_id}/hands/", hands, format="json").status_code == 200
    body = api.post(f"/api/rounds/{round_id}/settle/", {}, format="json", HTTP_IDEMPOTENCY_KEY="api-ss").json()
    # 1 v 2: seat 2's natural (3) beats the surrender; 1 v 3: the surrender's 3, less seat 3's swap (2): -1;
    # 2 v 3: the natural's 3 and the swap's 2.
    pairs = {(p["seat"], p["opponent"]): p["points"] for p in body["pairs"]}
    assert pairs == {(1, 2): -3, (1, 3): -1, (2, 3): 5}
    assert {s["seat"]: s["net_cents"] for s in body["seats"]} == {1: -4000, 2: 8000, 3: -4000}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"seat": 3, "gave": "Kd"}, 400, None),
        ({"seat": "three", "gave": "Kd", "took": "Qs"}, 400, None),
        ({"seat": 5, "gave": "Kd", "took": "Qs"}, 400, "Seat 5 has no wager"),
        ({"seat": 3, "gave": "Kd Kh", "took": "Qs"}, 400, "2 cards given but 1 taken"),
    ],
)
def test_a_bad_swap_is_refused_in_the_dealers_words(dealt, body, status, message) -> None:  # type: ignore[no-untyped-def]
    api, round_id = dealt
    refusal(api.post(f"/api/rounds/{round_id}/swaps/", body, format="json"), status, message)
    assert "swaps" not in (api.get(f"/api/rounds/{round_id}/").json()["hands"] or {})


@pytest.mark.django_db
@pytest.mark.parametrize("named", [None, []], ids=["null", "empty"])
def test_hands_that_name_no_swaps_cannot_drop_a_recorded_swap(dealt, named) -> None:  # type: ignore[no-untyped-def]
    """A swap recorded at the table stands: hands sent with ``"swaps": null`` (or none) are refused, nothing written,
    and the seat that swapped still pays its 2 points to each other player."""
    api, round_id = dealt
    api.post(f"/api/rounds/{round_id}/swaps/", {"seat": 3, "gave": "Kd", "took": "Qs"}, format="json")
    before = api.get(f"/api/rounds/{round_id}/").json()
    refused = api.post(f"/api/rounds/{round_id}/hands/", {"seats": SEED_EXAMPLE, "swaps": named}, format="json")
    refusal(refused, 400, "leave them out of the hands")
    assert api.get(f"/api/rounds/{round_id}/").json() == before
    assert api.post(f"/api/rounds/{round_id}/hands/", {"seats": SEED_EXAMPLE}, format="json").status_code == 200
    body = api.post(f"/api/rounds/{round_id}/settle/", {}, format="json", HTTP_IDEMPOTENCY_KEY="api-sn").json()
    assert {s["seat"]: s["net_cents"] for s in body["seats"]} == {1: 1000, 2: 8000, 3: -9000}  # the swap's example
