"""The rounds REST API end to end: open, wager, close, deal, hands or placements, settle, void, correct.

Everything after the fixtures goes through HTTP. The hands are ones whose outcome is
known from the engines' doctests (or worked out below), so every amount is checked by hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from casino.models import AuditEvent
from casino.roles import Role
from ledger.models import LedgerEntry, Posting
from rounds.models import Round, Wager
from rules.services import rule_set_create

# --- hands whose outcome is known -----------------------------------------------------------------

# Pai Gow Poker against the bank's queens / jacks (paigow_poker.outcome doctest, and two more):
PGP_BANK = {"high": "Qs Qd 8s 5d 3c", "low": "Jh Jc"}
PGP_WIN = {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"}  # aces over queens, kings over jacks
PGP_PUSH = {"high": "Ks Kd 9s 6c 4h", "low": "Tc 7c"}  # kings win high, ten-high loses low
PGP_LOSS = {"high": "Ts Th 9c 6d 2h", "low": "9h 8d"}  # tens lose high, nine-high loses low

# Pai Gow tiles: the house way sets the bank's 4-2 2-1 6-6 6-5 as 6-6 4-2 (8 points) / 6-5 2-1 (7 points).
TILES_BANK_UNSET = "4-2 2-1 6-6 6-5"
TILES_BANK = {"high": "6-6 4-2", "low": "6-5 2-1"}
TILES_WIN = {"high": "3-3 3-3", "low": "1-1 4-4"}  # pair of Chongs, Day gong
TILES_LOSS = {"high": "5-5 6-4", "low": "3-1 5-1"}  # 0 points, 0 points
TILES_OTHER = {"high": "1-1 6-3", "low": "5-1 4-1"}  # Day wong / 1 point: a push (copy low)

# Chinese Poker (chinese_poker.score doctest for Ann and Bob; Cy earns no royalties).
CP_ANN = {"front": "2s 3h 4d", "middle": "Ks Kh Kd 8c 8d", "back": "9s 9h 9d 9c 5c"}  # royalties 1 + 3
CP_BOB = {"front": "As Kc 7d", "middle": "Qs Qh Jc Js 2c", "back": "8s 7h 6d 5s 4c"}
CP_CY = {"front": "Jh Jd 3c", "middle": "Th Td 6s 6h 2d", "back": "Ac Ah Ad 7s 7c"}

# OFC (ofc.score doctest): Ann wins 2-1, the full houses' royalties cancel: Ann +1.
OFC_ANN = {"front": "2s 3d 4c", "middle": "Tc Th 7d 7s 2h", "back": "Ac Ad Ah 3s 3h"}
OFC_BOB = {"front": "5s 6d 8c", "middle": "9c 9h Jd Qs 2d", "back": "Kc Kd Kh Js Jc"}
OFC_ANN_STREETS = [
    {"back": "Ac Ad Ah", "middle": "Tc Th"},
    *({row: card} for row, card in [("front", "2s"), ("front", "3d"), ("front", "4c"), ("middle", "7d")]),
    *({row: card} for row, card in [("middle", "7s"), ("middle", "2h"), ("back", "3s"), ("back", "3h")]),
]
OFC_BOB_STREETS = [
    {"back": "Kc Kd Kh", "middle": "9c 9h"},
    *({row: card} for row, card in [("front", "5s"), ("front", "6d"), ("front", "8c"), ("middle", "Jd")]),
    *({row: card} for row, card in [("middle", "Qs"), ("middle", "2d"), ("back", "Js"), ("back", "Jc")]),
]

ROUND_PATHS = (
    "/api/v1/tables/{table_id}/rounds/",
    "/api/v1/rounds/{round_id}/",
    "/api/v1/rounds/{round_id}/wagers/",
    "/api/v1/rounds/{round_id}/close-betting/",
    "/api/v1/rounds/{round_id}/deal/",
    "/api/v1/rounds/{round_id}/hands/",
    "/api/v1/rounds/{round_id}/placements/",
    "/api/v1/rounds/{round_id}/settle/",
    "/api/v1/rounds/{round_id}/void/",
    "/api/v1/rounds/{round_id}/corrections/",
)


# --- helpers --------------------------------------------------------------------------------------


def _client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _url(round_id: int, action: str = "") -> str:
    return f"/api/v1/rounds/{round_id}/{action + '/' if action else ''}"


def _ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.content)
    return response.json()


def _refused(response: Any, status: int, *words: str) -> dict[str, Any]:
    """Check a refusal: the status, the ``{"message", "extra"}`` shape, and words the message must hold."""
    assert response.status_code == status, (response.status_code, response.content)
    body = response.json()
    assert set(body) == {"message", "extra"}, body
    for word in words:
        assert word in body["message"], (word, body["message"])
    return body


def _post(api: APIClient, url: str, body: Any = None, status: int = 200, **headers: str) -> Any:
    return _ok(api.post(url, body if body is not None else {}, format="json", **headers), status)


def _open(api: APIClient, table: Any, **body: Any) -> Any:
    return api.post(f"/api/v1/tables/{table.pk}/rounds/", body, format="json")


def _to_dealt(api: APIClient, table: Any, wagers: dict[int, int], dice: tuple[int, int, int] = (3, 5, 6)) -> int:
    """Open a round (the house banks), take the wagers, close the betting and record the dice."""
    round_id = _ok(_open(api, table), 201)["id"]
    for seat, amount in wagers.items():
        _post(api, _url(round_id, "wagers"), {"seat": seat, "amount_cents": amount}, 201)
    _post(api, _url(round_id, "close-betting"))
    _post(api, _url(round_id, "deal"), {"dice": list(dice)})
    return round_id


def _settle(api: APIClient, round_id: int, key: str) -> Any:
    return _ok(api.post(_url(round_id, "settle"), HTTP_IDEMPOTENCY_KEY=key))


def _entries(posting: dict[str, Any]) -> Counter[tuple[str, int | None, int, str]]:
    return Counter((e["account"], e["seat"], e["amount_cents"], e["kind"]) for e in posting["entries"])


def _check_postings_balance(detail: dict[str, Any]) -> None:
    for posting in detail["postings"]:
        assert posting["entries"], posting
        assert sum(e["amount_cents"] for e in posting["entries"]) == 0, posting


def _seats_by_number(body: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {line["seat"]: line for line in body["seats"]}


def _writes() -> tuple[int, int, int]:
    return LedgerEntry.objects.count(), Posting.objects.count(), AuditEvent.objects.count()


@pytest.fixture
def api(dealer: User) -> APIClient:
    return _client(dealer)


@pytest.fixture
def pgp_table(make_table: Callable[..., Any], shift: Any) -> Any:
    return make_table(name="PGP 1", game="paigow_poker", seat_count=6)


@pytest.fixture
def player_bank_tiles(make_table: Callable[..., Any], shift: Any, pit_boss: User) -> Any:
    rule_set = rule_set_create(
        actor=pit_boss, name="Tiles, players bank", game="paigow_tiles", banking_mode="player_rotation"
    )
    return make_table(name="Tiles P", game="paigow_tiles", seat_count=4, rule_set=rule_set)


PGP_HANDS = {"banker": PGP_BANK, "seats": {"1": PGP_WIN, "3": PGP_PUSH, "5": PGP_LOSS}}
PGP_WAGERS = {1: 2500, 3: 1000, 5: 5000}


def _pgp_revealed(api: APIClient, table: Any) -> int:
    round_id = _to_dealt(api, table, PGP_WAGERS)
    _post(api, _url(round_id, "hands"), PGP_HANDS)
    return round_id


# --- 1. one full round of each game ---------------------------------------------------------------


def test_pai_gow_poker_round_win_push_loss_with_commission_and_ledger(pgp_table: Any, dealer: User) -> None:
    # The dealer signs in with a token, not a session.
    token = _ok(
        APIClient().post(
            "/api/v1/auth/token/", {"username": dealer.username, "password": "s3cret-pass-word"}, format="json"
        )
    )["token"]
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    opened = _ok(_open(api, pgp_table), 201)
    assert opened["state"] == "open" and opened["next_actions"] == ["wager", "close_betting", "void"]
    assert opened["game"] == "paigow_poker" and opened["bank_seat"] is None
    round_id = opened["id"]
    for seat, amount in PGP_WAGERS.items():
        _post(api, _url(round_id, "wagers"), {"seat": seat, "amount_cents": amount}, 201)
    _post(api, _url(round_id, "close-betting"))
    dealt = _post(api, _url(round_id, "deal"), {"dice": [3, 5, 6]})
    # 3+5+6 = 14 counted from the dealer (1) counter-clockwise over 0, 6, 5, ..., 1: seat 1 first.
    assert dealt["state"] == "dealt" and dealt["dice"] == [3, 5, 6] and dealt["deal_mode"] == "dice"
    assert dealt["action_order"] == [1, 0, 6, 5, 4, 3, 2]
    revealed = _post(api, _url(round_id, "hands"), PGP_HANDS)
    assert revealed["state"] == "revealed" and revealed["next_actions"] == ["hands", "settle", "void"]
    assert revealed["hands"]["banker"]["set_by"] == "dealer"

    body = _settle(api, round_id, "pgp-round-1")
    assert body["round"] == round_id and body["game"] == "paigow_poker" and body["bank"] is None
    assert body["corrects"] is None and body["idempotency_key"] == "pgp-round-1"
    # Action order 1, 5, 3 among the seats wagering.
    assert [line["seat"] for line in body["seats"]] == [1, 5, 3]
    seats = _seats_by_number(body)
    assert {n: (s["outcome"], s["won_cents"], s["commission_cents"], s["net_cents"]) for n, s in seats.items()} == {
        1: ("win", 2500, 125, 2375),  # even money, 5% of 25.00 = 1.25
        3: ("push", 0, 0, 0),
        5: ("loss", -5000, 0, -5000),
    }
    assert {n: s["action_place"] for n, s in seats.items()} == {1: 1, 5: 2, 3: 3}
    # The house wins 50.00, pays 25.00, and takes 1.25 commission.
    assert body["house"] == {"bank_won_cents": 2500, "commission_cents": 125, "rake_cents": 0, "total_cents": 2625}

    detail = _ok(api.get(_url(round_id)))
    assert detail["state"] == "settled" and detail["next_actions"] == ["correct"]
    assert detail["settlement"] == body
    assert [(w["seat"], w["amount_cents"]) for w in detail["wagers"]] == [(1, 2500), (3, 1000), (5, 5000)]
    _check_postings_balance(detail)
    kinds = [p["kind"] for p in detail["postings"]]
    assert kinds == ["wager", "wager", "wager", "settlement"]
    for posting, (seat, amount) in zip(detail["postings"][:3], PGP_WAGERS.items(), strict=True):
        assert _entries(posting) == Counter(
            {("player", seat, -amount, "wager"): 1, ("wagers", None, amount, "wager"): 1}
        )
    settlement = detail["postings"][3]
    assert settlement["id"] == body["settlement_id"] and settlement["idempotency_key"] == "pgp-round-1"
    assert _entries(settlement) == Counter(
        {
            ("wagers", None, -2500, "payout"): 1,  # seat 1's stake back
            ("player", 1, 2500, "payout"): 2,  # ... and its win, from the house
            ("house", None, -2500, "payout"): 1,
            ("player", 1, -125, "commission"): 1,
            ("commission", None, 125, "commission"): 1,
            ("wagers", None, -5000, "bank"): 1,  # seat 5's stake to the house
            ("house", None, 5000, "bank"): 1,
            ("wagers", None, -1000, "payout"): 1,  # seat 3's stake back
            ("player", 3, 1000, "payout"): 1,
        }
    )
    assert detail["balances"] == {
        "players": {"1": 2375, "3": 0, "5": -5000},
        "banker": {},
        "house": 2500,
        "commission": 125,
        "rake": 0,
        "wagers": 0,
    }


def test_pai_gow_tiles_round_house_way_sets_the_bank(
    make_table: Callable[..., Any], shift: Any, api: APIClient
) -> None:
    table = make_table(name="Tiles 1", game="paigow_tiles", seat_count=4)
    round_id = _to_dealt(api, table, {2: 2000, 4: 3000}, dice=(1, 2, 3))
    revealed = _post(
        api,
        _url(round_id, "hands"),
        {"banker": {"tiles": TILES_BANK_UNSET}, "seats": {"2": TILES_WIN, "4": TILES_LOSS}},
    )
    banker = revealed["hands"]["banker"]
    assert banker["set_by"] == "house_way"
    assert banker["rule"] == "split the Gee Joon with 6-4, 6-5 or 6-6"
    assert (banker["high"], banker["low"]) == (TILES_BANK["high"], TILES_BANK["low"])
    assert revealed["hands"]["seats"]["2"]["set_by"] == "player"

    body = _settle(api, round_id, "tiles-1")
    seats = _seats_by_number(body)
    # Tiles: the house charges no commission on players' wins (only a player bank pays).
    assert (seats[2]["outcome"], seats[2]["won_cents"], seats[2]["commission_cents"], seats[2]["net_cents"]) == (
        "win",
        2000,
        0,
        2000,
    )
    assert (seats[4]["outcome"], seats[4]["net_cents"]) == ("loss", -3000)
    assert body["house"] == {"bank_won_cents": 1000, "commission_cents": 0, "rake_cents": 0, "total_cents": 1000}
    assert body["hands"]["banker"]["set_by"] == "house_way"
    detail = _ok(api.get(_url(round_id)))
    _check_postings_balance(detail)
    assert detail["balances"]["players"] == {"2": 2000, "4": -3000}
    assert (detail["balances"]["house"], detail["balances"]["wagers"]) == (1000, 0)


def test_chinese_poker_three_seats_each_pair_at_the_smaller_value_with_rake(
    make_table: Callable[..., Any], shift: Any, pit_boss: User, api: APIClient
) -> None:
    rule_set = rule_set_create(actor=pit_boss, name="CP rake 5%", game="chinese_poker", options={"rake_bp": 500})
    table = make_table(name="CP 1", game="chinese_poker", seat_count=4, rule_set=rule_set)
    round_id = _to_dealt(api, table, {1: 1000, 2: 2000, 3: 3000})
    _post(api, _url(round_id, "hands"), {"seats": {"1": CP_ANN, "2": CP_BOB, "3": CP_CY}})
    body = _settle(api, round_id, "cp-1")

    # Points (2-4, seed royalties): Ann-Bob +6 (2-1 rows, royalties 4); Ann-Cy +6 (2-1, royalties 4);
    # Bob-Cy -2 (Cy wins front and back). Stakes: the smaller value of the pair.
    pairs = {(p["seat"], p["opponent"]): (p["points"], p["stake_cents"], p["cents"]) for p in body["pairs"]}
    assert pairs == {(1, 2): (6, 1000, 6000), (1, 3): (6, 1000, 6000), (2, 3): (-2, 2000, -4000)}
    seats = _seats_by_number(body)
    summary = {
        n: (s["points"], s["royalties"], s["won_cents"], s["rake_cents"], s["net_cents"]) for n, s in seats.items()
    }
    assert summary == {
        1: (12, 4, 12000, 600, 11400),  # 5% rake on the 120.00 won
        2: (-8, 0, -10000, 0, -10000),
        3: (-4, 0, -2000, 0, -2000),
    }
    assert sum(s["won_cents"] for s in body["seats"]) == 0
    assert sum(s["net_cents"] for s in body["seats"]) + body["house"]["total_cents"] == 0
    assert body["house"] == {"bank_won_cents": 0, "commission_cents": 0, "rake_cents": 600, "total_cents": 600}
    assert body["bank"] is None

    detail = _ok(api.get(_url(round_id)))
    _check_postings_balance(detail)
    assert [p["kind"] for p in detail["postings"]] == ["settlement"]  # a points game's wagers move no money
    assert detail["balances"] == {
        "players": {"1": 11400, "2": -10000, "3": -2000},
        "banker": {},
        "house": 0,
        "commission": 0,
        "rake": 600,
        "wagers": 0,
    }


def test_ofc_round_placed_street_by_street(make_table: Callable[..., Any], shift: Any, api: APIClient) -> None:
    table = make_table(name="OFC 1", game="ofc", seat_count=3)
    round_id = _to_dealt(api, table, {1: 2000, 3: 3000})
    assert _ok(api.get(_url(round_id)))["next_actions"] == ["placements", "void"]
    # Whole hands are refused: OFC is placed street by street.
    _refused(api.post(_url(round_id, "hands"), {"seats": {"1": OFC_ANN, "3": OFC_BOB}}, format="json"), 400, "street")
    for street, (ann, bob) in enumerate(zip(OFC_ANN_STREETS, OFC_BOB_STREETS, strict=True), start=1):
        placed = _post(api, _url(round_id, "placements"), {"seats": {"1": ann, "3": bob}})
        assert placed["state"] == ("revealed" if street == 9 else "dealt"), street
    assert len(OFC_ANN_STREETS) == 9
    assert placed["placements"]["1"] == OFC_ANN and placed["placements"]["3"] == OFC_BOB
    assert placed["hands"]["seats"]["1"] == OFC_ANN

    body = _settle(api, round_id, "ofc-1")
    pair = body["pairs"][0]
    assert (pair["seat"], pair["opponent"], pair["points"], pair["rows"]) == (1, 3, 1, [-1, 1, 1])
    assert (pair["stake_cents"], pair["cents"]) == (2000, 2000)
    seats = _seats_by_number(body)
    assert {n: (s["points"], s["royalties"], s["net_cents"]) for n, s in seats.items()} == {
        1: (1, 6, 2000),
        3: (-1, 6, -2000),
    }
    detail = _ok(api.get(_url(round_id)))
    _check_postings_balance(detail)
    assert detail["state"] == "settled"
    assert detail["balances"]["players"] == {"1": 2000, "3": -2000}


# --- 2. a player bank that runs out ---------------------------------------------------------------


def test_player_bank_runs_out_later_wagers_get_no_action(player_bank_tiles: Any, api: APIClient) -> None:
    round_id = _ok(_open(api, player_bank_tiles, bank_seat=2, bank_cents=3000), 201)["id"]
    # The bank covers 30.00: a bigger wager is refused.
    _refused(api.post(_url(round_id, "wagers"), {"seat": 1, "amount_cents": 3500}, format="json"), 400, "covers 30.00")
    _refused(api.post(_url(round_id, "wagers"), {"seat": 2, "amount_cents": 1000}, format="json"), 400, "bank")
    for seat, amount in {4: 1000, 3: 3000, 1: 2000}.items():
        _post(api, _url(round_id, "wagers"), {"seat": seat, "amount_cents": amount}, 201)
    _post(api, _url(round_id, "close-betting"))
    # Dice 1+1+1 = 3, counted from the bank (seat 2) over 0, 4, 3, 2, 1: the dealer, then 4, 3, 2, 1.
    assert _post(api, _url(round_id, "deal"), {"dice": [1, 1, 1]})["action_order"] == [0, 4, 3, 2, 1]
    hands = {"banker": TILES_BANK, "seats": {"4": TILES_LOSS, "3": TILES_WIN, "1": TILES_OTHER}}
    _post(api, _url(round_id, "hands"), hands)
    body = _settle(api, round_id, "bank-runs-out")

    # Seat 4 loses 10.00 (the bank holds 40.00), seat 3 wins 30.00 (10.00 left): seat 1's 20.00 is not covered.
    assert [(s["seat"], s["action_place"], s["outcome"], s["won_cents"]) for s in body["seats"]] == [
        (4, 1, "loss", -1000),
        (3, 2, "win", 3000),
        (1, 3, "no_action", 0),
    ]
    assert body["bank_seat"] == 2
    assert body["bank"] == {
        "seat": 2,
        "bank_cents": 3000,
        "covers_cents": 3000,
        "co_banking": False,
        "won_cents": -2000,
        "commission_cents": 0,
        "net_cents": -2000,
    }
    assert body["house"]["total_cents"] == 0
    detail = _ok(api.get(_url(round_id)))
    _check_postings_balance(detail)
    assert _entries(detail["postings"][-1])[("player", 1, 2000, "payout")] == 1  # the stake back
    assert detail["balances"] == {
        "players": {"4": -1000, "3": 3000, "1": 0},
        "banker": {"2": -2000},
        "house": 0,
        "commission": 0,
        "rake": 0,
        "wagers": 0,
    }


# --- 3. banker rotation ---------------------------------------------------------------------------


def test_banker_rotation_is_enforced(player_bank_tiles: Any, api: APIClient) -> None:
    for number in (1, 2):
        round_id = _ok(_open(api, player_bank_tiles, bank_seat=2, bank_cents=5000), 201)["id"]
        _post(api, _url(round_id, "wagers"), {"seat": 1, "amount_cents": 1000}, 201)
        _post(api, _url(round_id, "close-betting"))
        dealt = _post(api, _url(round_id, "deal"), {"auto": True})
        assert dealt["deal_mode"] == "auto" and set(dealt["dealt"]) == {"0", "1", "2", "3", "4"}
        revealed = _post(api, _url(round_id, "hands"), {})  # training: the house way sets every hand
        assert revealed["hands"]["seats"]["1"]["set_by"] == "house_way"
        assert revealed["hands"]["banker"]["set_by"] == "house_way"
        body = _settle(api, round_id, f"rotation-{number}")
        assert body["bank_seat"] == 2 and body["number"] == number

    third = _refused(_open(api, player_bank_tiles, bank_seat=2, bank_cents=5000), 409, "seat 1", "2 rounds in a row")
    assert third["extra"]["next_banker_seat"] == 1
    other = _refused(_open(api, player_bank_tiles, bank_seat=3, bank_cents=5000), 409, "to seat 1", "not to seat 3")
    assert other["extra"]["next_banker_seat"] == 1
    assert _ok(_open(api, player_bank_tiles, bank_seat=1, bank_cents=5000), 201)["bank_seat"] == 1


# --- 4. void --------------------------------------------------------------------------------------


def test_void_returns_the_wagers_and_needs_a_supervisor(pgp_table: Any, api: APIClient, floor_supervisor: User) -> None:
    round_id = _to_dealt(api, pgp_table, PGP_WAGERS)
    _refused(api.post(_url(round_id, "void"), {"reason": "Misdeal"}, format="json"), 403, "void")
    supervisor = _client(floor_supervisor)
    _refused(supervisor.post(_url(round_id, "void"), {"reason": "  "}, format="json"), 400, "reason")
    _refused(supervisor.post(_url(round_id, "void"), {"reason": 5}, format="json"), 400, "reason")
    voided = _post(supervisor, _url(round_id, "void"), {"reason": "Misdeal: a card was exposed"})
    assert voided["state"] == "voided" and voided["void_reason"] == "Misdeal: a card was exposed"
    assert voided["next_actions"] == [] and voided["settlement"] is None
    _check_postings_balance(voided)
    void = voided["postings"][-1]
    assert void["kind"] == "void" and void["actor"] == floor_supervisor.username
    assert void["reason"] == "Misdeal: a card was exposed"
    assert voided["balances"] == {
        "players": {"1": 0, "3": 0, "5": 0},
        "banker": {},
        "house": 0,
        "commission": 0,
        "rake": 0,
        "wagers": 0,
    }
    _refused(supervisor.post(_url(round_id, "void"), {"reason": "again"}, format="json"), 409, "voided")


# --- 5. correction --------------------------------------------------------------------------------

# Seat 3's and seat 5's hands were swapped when entered: seat 3 lost, seat 5 pushed.
CORRECTED = {"banker": PGP_BANK, "seats": {"1": PGP_WIN, "3": PGP_LOSS, "5": PGP_PUSH}}


def test_correction_is_asked_by_one_supervisor_and_approved_by_another(
    pgp_table: Any, api: APIClient, pit_boss: User, floor_supervisor: User
) -> None:
    round_id = _pgp_revealed(api, pgp_table)
    first = _settle(api, round_id, "settle-1")
    body = {"hands": CORRECTED, "reason": "Seats 3 and 5 entered the wrong way round"}

    _refused(api.post(_url(round_id, "corrections"), body, format="json", HTTP_IDEMPOTENCY_KEY="fix-1"), 403)
    boss = _client(pit_boss)
    writes = _writes()
    asked = _ok(boss.post(_url(round_id, "corrections"), body, format="json", HTTP_IDEMPOTENCY_KEY="fix-1"), 202)
    assert "another supervisor approves it" in asked["message"]
    request = asked["request"]
    assert (request["kind"], request["status"], request["requested_by"]) == ("correction", "pending", "paula_pitboss")
    # Nothing moved yet: the request and its audit event only.
    assert _writes() == (writes[0], writes[1], writes[2] + 1)
    assert _ok(boss.get(_url(round_id)))["settlement"] == first
    # Its answer lost, sent again with its key: the first answer again, nothing asked twice.
    again = boss.post(_url(round_id, "corrections"), body, format="json", HTTP_IDEMPOTENCY_KEY="fix-1")
    assert (again.status_code, again["Idempotent-Replayed"]) == (202, "true")
    assert _writes() == (writes[0], writes[1], writes[2] + 1)
    # Asked again as a new request while it waits: one request at a time.
    _refused(
        boss.post(_url(round_id, "corrections"), body, format="json", HTTP_IDEMPOTENCY_KEY="fix-2"), 409, "waiting"
    )
    # The pit boss cannot approve their own correction; the floor supervisor can.
    approve = f"/api/v1/adjustments/{request['id']}/approve/"
    _refused(boss.post(approve, {}, format="json"), 403, "You asked for this correction")
    approved = _ok(_client(floor_supervisor).post(approve, {"note": "Checked on camera"}, format="json"))
    assert (approved["status"], approved["decided_by"]) == ("approved", "fred_floor")

    detail = _ok(boss.get(_url(round_id)))
    corrected = detail["settlement"]
    assert corrected["corrects"] == first["settlement_id"] and corrected["settlement_id"] != first["settlement_id"]
    assert corrected["settlement_id"] == approved["posting"]
    seats = _seats_by_number(corrected)
    assert {n: (s["outcome"], s["net_cents"]) for n, s in seats.items()} == {
        1: ("win", 2375),
        3: ("loss", -1000),
        5: ("push", 0),
    }
    # The house wins 10.00, pays 25.00, and keeps the 1.25 commission.
    assert corrected["house"] == {
        "bank_won_cents": -1500,
        "commission_cents": 125,
        "rake_cents": 0,
        "total_cents": -1375,
    }
    _check_postings_balance(detail)
    assert [p["kind"] for p in detail["postings"]] == ["wager"] * 3 + ["settlement", "reversal", "settlement"]
    old, reversal, new = detail["postings"][3:]
    assert reversal["reverses"] == old["id"] == first["settlement_id"]
    assert reversal["reason"] == body["reason"] and reversal["actor"] == floor_supervisor.username
    assert _entries(reversal) == Counter(
        {(a, s, -amount, "reversal"): n for (a, s, amount, _), n in _entries(old).items()}
    )
    assert new["corrects"] == old["id"] and new["id"] == corrected["settlement_id"]
    assert detail["hands"]["seats"]["3"]["high"] == PGP_LOSS["high"]
    assert detail["balances"] == {
        "players": {"1": 2375, "3": -1000, "5": 0},
        "banker": {},
        "house": -1500,
        "commission": 125,
        "rake": 0,
        "wagers": 0,
    }
    # The same hands as those in force: nothing to correct, refused when asked.
    _refused(
        boss.post(_url(round_id, "corrections"), body, format="json", HTTP_IDEMPOTENCY_KEY="fix-2"),
        400,
        "nothing to correct",
    )


def test_in_a_one_supervisor_room_the_correction_is_made_at_once_and_once_per_key(
    pgp_table: Any, api: APIClient, pit_boss: User, settings: Any
) -> None:
    settings.TABLESIDE_FOUR_EYES = False
    round_id = _pgp_revealed(api, pgp_table)
    first = _settle(api, round_id, "settle-1")
    body = {"hands": CORRECTED, "reason": "Seats 3 and 5 entered the wrong way round"}
    boss = _client(pit_boss)
    corrected = _ok(boss.post(_url(round_id, "corrections"), body, format="json", HTTP_IDEMPOTENCY_KEY="fix-1"))
    assert corrected["corrects"] == first["settlement_id"]
    assert corrected["house"]["total_cents"] == -1375
    again = _ok(boss.post(_url(round_id, "corrections"), body, format="json", HTTP_IDEMPOTENCY_KEY="fix-1"))
    assert again == corrected
    detail = _ok(boss.get(_url(round_id)))
    assert detail["settlement"] == corrected
    assert [p["kind"] for p in detail["postings"]] == ["wager"] * 3 + ["settlement", "reversal", "settlement"]


def test_correction_with_the_settle_key_is_refused(pgp_table: Any, api: APIClient, pit_boss: User, settings) -> None:
    settings.TABLESIDE_FOUR_EYES = False  # the key is the correction's own only when it is made at once
    round_id = _pgp_revealed(api, pgp_table)
    _settle(api, round_id, "shared-key")
    body = {"hands": CORRECTED, "reason": "Seats 3 and 5 entered the wrong way round"}
    response = _client(pit_boss).post(
        _url(round_id, "corrections"), body, format="json", HTTP_IDEMPOTENCY_KEY="shared-key"
    )
    assert response.status_code == 409, response.json()


# --- 6. bad input and wrong states ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "words"),
    [
        pytest.param(
            {"1": {"high": "As Ad 7s 4d", "low": "Kh Kc"}, "3": PGP_PUSH, "5": PGP_LOSS},
            ["Seat 1, high hand", "5 cards expected, got 4"],
            id="card count",
        ),
        pytest.param(
            {"1": PGP_WIN, "3": {"high": "Ks Kd 9s 6c 4h", "low": "Tc Kh"}, "5": PGP_LOSS},
            ["K♥ is used 2 times", "Seat 1", "Seat 3"],
            id="card twice",
        ),
        pytest.param(
            {"1": PGP_WIN, "3": PGP_PUSH, "5": {"high": "Ts Th 9c 6d Xx", "low": "9h 8d"}},
            ["Seat 5, high hand", "'Xx' is not a card"],
            id="unknown notation",
        ),
        pytest.param({"1": PGP_WIN, "3": PGP_PUSH}, ["Seat 5's hand is missing"], id="hand missing"),
        pytest.param(
            {"1": PGP_WIN, "3": PGP_PUSH, "5": PGP_LOSS, "2": PGP_LOSS}, ["Seat 2 has no wager"], id="seat not in play"
        ),
    ],
)
def test_bad_hands_answer_400_and_write_nothing(
    pgp_table: Any, api: APIClient, seats: dict[str, Any], words: list[str]
) -> None:
    round_id = _to_dealt(api, pgp_table, PGP_WAGERS)
    before, writes = _ok(api.get(_url(round_id))), _writes()
    _refused(api.post(_url(round_id, "hands"), {"banker": PGP_BANK, "seats": seats}, format="json"), 400, *words)
    assert _ok(api.get(_url(round_id))) == before
    assert _writes() == writes


def test_bad_wagers_and_dice_answer_400_and_write_nothing(pgp_table: Any, api: APIClient) -> None:
    round_id = _ok(_open(api, pgp_table), 201)["id"]
    _post(api, _url(round_id, "wagers"), {"seat": 1, "amount_cents": 1000}, 201)
    before, writes = _ok(api.get(_url(round_id))), _writes()
    too_low = _refused(
        api.post(_url(round_id, "wagers"), {"seat": 2, "amount_cents": 999}, format="json"),
        400,
        "10.00 to 500.00, not 9.99",
    )
    assert too_low["extra"] == {"field": "amount_cents", "min_cents": 1000, "max_cents": 50000}
    _refused(api.post(_url(round_id, "wagers"), {"seat": 2, "amount_cents": 50001}, format="json"), 400, "not 500.01")
    _refused(api.post(_url(round_id, "wagers"), {"seat": 7, "amount_cents": 1000}, format="json"), 400, "not 7")
    _refused(api.post(_url(round_id, "wagers"), {"seat": 2}, format="json"), 400, "amount_cents")
    # Only what a person means: not another script's digits, a boolean or a fraction for a number
    for seat in ("３", True, 2.5, "2.0"):
        _refused(api.post(_url(round_id, "wagers"), {"seat": seat, "amount_cents": 1000}, format="json"), 400, "seat")
    _refused(api.post(_url(round_id, "wagers"), {"seat": 1, "amount_cents": 2000}, format="json"), 409, "already")
    assert _ok(api.get(_url(round_id))) == before
    assert _writes() == writes

    _post(api, _url(round_id, "close-betting"))
    before, writes = _ok(api.get(_url(round_id))), _writes()
    _refused(api.post(_url(round_id, "deal"), {"dice": [3, 5]}, format="json"), 400, "3 dice expected, got 2")
    _refused(api.post(_url(round_id, "deal"), {"dice": [3, 5, 7]}, format="json"), 400, "not 7")
    _refused(api.post(_url(round_id, "deal"), {"dice": [3, 5, 6], "auto": True}, format="json"), 400, "not both")
    _refused(api.post(_url(round_id, "hands"), ["not", "an", "object"], format="json"), 400, "JSON object")
    assert _ok(api.get(_url(round_id))) == before
    assert _writes() == writes


def test_wrong_state_answers_409_and_unknown_round_404(pgp_table: Any, api: APIClient) -> None:
    round_id = _ok(_open(api, pgp_table), 201)["id"]
    _refused(api.post(_url(round_id, "close-betting")), 409, "needs a wager")
    again = _refused(_open(api, pgp_table), 409, "still open")
    assert again["extra"] == {"round_id": round_id, "round_number": 1, "state": "open"}
    _post(api, _url(round_id, "wagers"), {"seat": 1, "amount_cents": 1000}, 201)
    _post(api, _url(round_id, "close-betting"))
    before, writes = _ok(api.get(_url(round_id))), _writes()
    _refused(api.post(_url(round_id, "wagers"), {"seat": 2, "amount_cents": 1000}, format="json"), 409, "closed")
    _refused(
        api.post(_url(round_id, "hands"), {"banker": PGP_BANK, "seats": {"1": PGP_WIN}}, format="json"),
        409,
        "not to revealed",
    )
    early = _refused(api.post(_url(round_id, "settle"), HTTP_IDEMPOTENCY_KEY="early"), 409, "not to settled")
    assert early["extra"] == {"round_id": round_id, "round_number": 1, "state": "betting_closed"}
    assert _ok(api.get(_url(round_id))) == before
    assert _writes() == writes

    _post(api, _url(round_id, "deal"), {"dice": [3, 5, 6]})
    _refused(api.post(_url(round_id, "settle"), HTTP_IDEMPOTENCY_KEY="before-hands"), 409, "not to settled")
    _refused(api.post(_url(round_id, "placements"), {"seats": {"1": {"front": "2s"}}}, format="json"), 400, "Open-Face")
    _refused(api.post(_url(round_id, "corrections"), {"hands": {}, "reason": "x"}, format="json"), 403)

    missing = round_id + 1000
    _refused(api.get(_url(missing)), 404)
    _refused(api.post(_url(missing, "wagers"), {"seat": 1, "amount_cents": 1000}, format="json"), 404)
    _refused(api.post(_url(missing, "settle"), HTTP_IDEMPOTENCY_KEY="nowhere"), 404)
    _refused(api.post("/api/v1/tables/999999/rounds/", {}, format="json"), 404)

    anonymous = APIClient()
    assert anonymous.get(_url(round_id)).status_code in (401, 403)
    assert anonymous.post(_url(round_id, "void"), {"reason": "x"}, format="json").status_code in (401, 403)
    assert _ok(api.get(_url(round_id)))["state"] == "dealt"


# --- 7. idempotent settlement ---------------------------------------------------------------------


def test_settle_is_idempotent_by_key(
    pgp_table: Any, api: APIClient, make_table: Callable[..., Any], make_user: Callable[..., User]
) -> None:
    round_id = _pgp_revealed(api, pgp_table)
    _refused(api.post(_url(round_id, "settle"), HTTP_IDEMPOTENCY_KEY=None), 400, "Idempotency-Key")
    _refused(api.post(_url(round_id, "settle"), HTTP_IDEMPOTENCY_KEY="   "), 400, "Idempotency-Key")
    _refused(api.post(_url(round_id, "settle"), HTTP_IDEMPOTENCY_KEY="k" * 201), 400, "at most 200")
    first = _settle(api, round_id, "key-A")
    assert _settle(api, round_id, "key-A") == first
    assert _settle(api, round_id, "key-A") == first
    assert Posting.objects.filter(round_id=round_id, kind="settlement").count() == 1
    writes = _writes()
    _refused(api.post(_url(round_id, "settle"), HTTP_IDEMPOTENCY_KEY="key-B"), 409, "already settled")
    _refused(api.post(_url(round_id, "settle"), HTTP_IDEMPOTENCY_KEY=None), 400, "Idempotency-Key")
    assert _writes() == writes
    detail = _ok(api.get(_url(round_id)))
    assert [p["kind"] for p in detail["postings"]].count("settlement") == 1
    assert detail["settlement"] == first

    # The key belongs to that round: used on another round, it is refused (by the same user, as a key sent with
    # another request, 422; by anyone, by the settlement's own key, 409).
    other = make_table(name="PGP 2", game="paigow_poker", seat_count=6)
    other_round = _pgp_revealed(api, other)
    _refused(api.post(_url(other_round, "settle"), HTTP_IDEMPOTENCY_KEY="key-A"), 422, "another request")
    supervisor = _client(make_user("fay_floor", Role.FLOOR_SUPERVISOR))
    _refused(supervisor.post(_url(other_round, "settle"), HTTP_IDEMPOTENCY_KEY="key-A"), 409, "use a new key")
    assert _ok(api.get(_url(other_round)))["state"] == "revealed"


# --- 8. permissions -------------------------------------------------------------------------------


def test_another_dealer_cannot_play_the_table(pgp_table: Any, api: APIClient, make_user: Callable[..., User]) -> None:
    other = _client(make_user("otto_other_dealer", Role.DEALER))
    round_id = _ok(_open(api, pgp_table), 201)["id"]
    _refused(_open(other, pgp_table), 403, "not your table")
    _refused(
        other.post(_url(round_id, "wagers"), {"seat": 1, "amount_cents": 1000}, format="json"), 403, "not your table"
    )
    for seat, amount in PGP_WAGERS.items():
        _post(api, _url(round_id, "wagers"), {"seat": seat, "amount_cents": amount}, 201)
    _post(api, _url(round_id, "close-betting"))
    _post(api, _url(round_id, "deal"), {"dice": [3, 5, 6]})
    _post(api, _url(round_id, "hands"), PGP_HANDS)
    writes = _writes()
    _refused(other.post(_url(round_id, "settle"), HTTP_IDEMPOTENCY_KEY="other-1"), 403, "not your table")
    assert _writes() == writes
    _refused(other.get(_url(round_id)), 403, "not your table")
    assert _ok(api.get(_url(round_id)))["state"] == "revealed"


def test_auditor_reads_but_every_write_is_refused(
    pgp_table: Any, api: APIClient, auditor: User, make_table: Callable[..., Any]
) -> None:
    ofc_table = make_table(name="OFC A", game="ofc", seat_count=2)
    reader = _client(auditor)
    round_id = _pgp_revealed(api, pgp_table)
    ofc_round = _to_dealt(api, ofc_table, {1: 1000, 2: 1000})
    settled = _pgp_revealed(api, make_table(name="PGP S", game="paigow_poker", seat_count=6))
    _settle(api, settled, "audited")

    assert _ok(reader.get(_url(round_id)))["state"] == "revealed"
    assert _ok(reader.get(_url(settled)))["settlement"]["idempotency_key"] == "audited"
    assert {t["name"] for t in _ok(reader.get("/api/v1/tables/"))["results"]} == {"PGP 1", "OFC A", "PGP S"}
    assert _ok(reader.get(f"/api/v1/tables/{pgp_table.pk}/"))["game"] == "paigow_poker"

    fresh_table = make_table(name="PGP X", game="paigow_poker", seat_count=6)
    writes = _writes()
    attempts = [
        (f"/api/v1/tables/{fresh_table.pk}/rounds/", {}, {}),
        (_url(round_id, "wagers"), {"seat": 2, "amount_cents": 1000}, {}),
        (_url(round_id, "close-betting"), {}, {}),
        (_url(round_id, "deal"), {"dice": [3, 5, 6]}, {}),
        (_url(round_id, "hands"), PGP_HANDS, {}),
        (_url(ofc_round, "placements"), {"seats": {"1": OFC_ANN_STREETS[0]}}, {}),
        (_url(round_id, "settle"), {}, {"HTTP_IDEMPOTENCY_KEY": "auditor-1"}),
        (_url(round_id, "void"), {"reason": "audit"}, {}),
        (_url(settled, "corrections"), {"hands": CORRECTED, "reason": "audit"}, {"HTTP_IDEMPOTENCY_KEY": "auditor-2"}),
    ]
    for url, body, headers in attempts:
        _refused(reader.post(url, body, format="json", **headers), 403, "Only a")
    assert _writes() == writes
    assert _ok(reader.get(_url(round_id)))["state"] == "revealed"


def test_settle_replay_checks_who_asks(pgp_table: Any, api: APIClient, auditor: User) -> None:
    round_id = _pgp_revealed(api, pgp_table)
    _settle(api, round_id, "replayed")
    response = _client(auditor).post(_url(round_id, "settle"), HTTP_IDEMPOTENCY_KEY="replayed")
    assert response.status_code == 403, response.json()


# --- 9. the API description -----------------------------------------------------------------------


def test_schema_lists_every_round_path(api: APIClient) -> None:
    assert APIClient().get("/api/v1/schema/").status_code == 200  # a client generator fetches it without a sign-in
    schema = _ok(api.get("/api/v1/schema/", {"format": "json"}))
    for path in ROUND_PATHS:
        assert path in schema["paths"], path
    assert "post" in schema["paths"]["/api/v1/rounds/{round_id}/settle/"]
    parameters = schema["paths"]["/api/v1/rounds/{round_id}/settle/"]["post"]["parameters"]
    assert any(p["name"] == "Idempotency-Key" and p["in"] == "header" for p in parameters)


@pytest.mark.django_db
@pytest.mark.parametrize("bank_cents", [10**15 + 1, 2**70, 10**30], ids=["just-over", "2**70", "10**30"])
def test_a_bank_past_what_the_database_holds_is_refused_in_words_and_nothing_is_written(
    player_bank_tiles: Any, api: APIClient, bank_cents: int
) -> None:
    before = Round.objects.count()
    _refused(_open(api, player_bank_tiles, bank_seat=2, bank_cents=bank_cents), 400, "A bank puts up at most")
    assert Round.objects.count() == before


def test_a_client_that_lost_the_answer_to_open_a_round_finds_it_on_the_table(
    pgp_table: Any, api: APIClient, pit_boss: User, django_assert_max_num_queries: Any
) -> None:
    from rounds.services import void_round

    table_url = f"/api/v1/tables/{pgp_table.pk}/"
    assert _ok(api.get(table_url))["current_round"] is None
    opened = _ok(_open(api, pgp_table), 201)
    assert _ok(api.get(table_url))["current_round"] == {"id": opened["id"], "number": 1, "state": "open"}
    with django_assert_max_num_queries(8):  # the tables and their rounds in one query each, however many tables
        listed = _ok(api.get("/api/v1/tables/"))["results"]
    assert [t["current_round"] for t in listed if t["id"] == pgp_table.pk] == [
        {"id": opened["id"], "number": 1, "state": "open"}
    ]
    void_round(actor=pit_boss, round=Round.objects.get(pk=opened["id"]), reason="Misdeal")
    assert _ok(api.get(table_url))["current_round"] is None


def test_a_step_of_play_answers_the_round_without_its_ledger_and_reads_the_token_once(
    pgp_table: Any, dealer: User
) -> None:
    """A wager answers the round as it now stands (state, what comes next, every wager in seat order) and not its
    ledger, whose postings grow with every wager (the whole round: ``GET``); the request reads the dealer's token
    once, though the idempotency key and the view both ask who sent it, and the round twice (the view finds it, its
    service locks it), not a third time for the answer; where the round stands (its shift, a void asked for) is
    read once, with the lock, though the service checks it before and with the move. The wagers are read once a
    step: what the service checks under the lock (the seat free, the seats in play) is what the step answers. A round
    just opened answers its wagers, none, without reading them."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.authtoken.models import Token

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=dealer).key}")
    with CaptureQueriesContext(connection) as opening:
        opened = _ok(_open(api, pgp_table), 201)
    round_id = opened["id"]
    assert opened["wagers"] == []
    wagers_read = f'FROM "{Wager._meta.db_table}"'
    assert not any(wagers_read in q["sql"] for q in opening.captured_queries)  # none yet: none read
    _post(api, _url(round_id, "wagers"), {"seat": 4, "amount_cents": 3000}, 201)
    with CaptureQueriesContext(connection) as queries:
        body = _post(api, _url(round_id, "wagers"), {"seat": 2, "amount_cents": 2000}, 201)
    assert (body["state"], body["next_actions"]) == ("open", ["wager", "close_betting", "void"])
    assert [(w["seat"], w["amount_cents"]) for w in body["wagers"]] == [(2, 2000), (4, 3000)]
    assert not {"postings", "balances", "settlement"} & set(body)
    said = [q["sql"] for q in queries.captured_queries]
    assert sum('FROM "authtoken_token"' in sql for sql in said) == 1, said
    assert not any(sql.startswith("SELECT") and 'FROM "ledger_' in sql for sql in said), said
    assert sum(sql.startswith("SELECT") and 'FROM "tables_round"' in sql for sql in said) == 2, said
    standing = [sql for sql in said if 'FROM "casino_shift"' in sql]
    assert len(standing) == 1, said  # where it stands: read once
    if connection.vendor == "postgresql":  # in the lock's round trip
        assert "FOR UPDATE OF r" in standing[0], standing
    assert sum(sql.startswith("SELECT") and wagers_read in sql for sql in said) == 1, said  # checked and answered
    with CaptureQueriesContext(connection) as closing:
        closed = _post(api, _url(round_id, "close-betting"), HTTP_IDEMPOTENCY_KEY="close")
    assert sum('FROM "casino_shift"' in q["sql"] for q in closing.captured_queries) == 1  # once, for check and move
    assert [(w["seat"], w["amount_cents"]) for w in closed["wagers"]] == [(2, 2000), (4, 3000)]
    assert sum(q["sql"].startswith("SELECT") and wagers_read in q["sql"] for q in closing.captured_queries) == 1
    with CaptureQueriesContext(connection) as dealing:
        dealt = _post(api, _url(round_id, "deal"), {"auto": True}, HTTP_IDEMPOTENCY_KEY="deal")
    assert {"0", "2", "4"} <= set(dealt["dealt"]) and len(dealt["wagers"]) == 2  # the bank and the seats in play
    assert sum(q["sql"].startswith("SELECT") and wagers_read in q["sql"] for q in dealing.captured_queries) == 1
    detail = _ok(api.get(_url(round_id)))
    assert [p["kind"] for p in detail["postings"]] == ["wager", "wager"]  # the ledger, read with the round


def test_a_round_opened_at_a_table_that_is_not_there_is_a_404_and_writes_nothing(api: APIClient) -> None:
    events = AuditEvent.objects.count()
    _refused(api.post("/api/v1/tables/999999/rounds/", {}, format="json"), 404)
    assert (Round.objects.count(), AuditEvent.objects.count()) == (0, events)


def test_a_round_opens_with_bank_seat_and_for_this_release_with_its_old_name(
    player_bank_tiles: Any, api: APIClient
) -> None:
    refused = _refused(_open(api, player_bank_tiles, bank_seat=2, banker_seat=3, bank_cents=3000), 400, "bank_seat")
    assert list(refused["extra"]["fields"]) == ["bank_seat"]
    opened = _ok(_open(api, player_bank_tiles, banker_seat=2, bank_cents=3000), 201)
    assert (opened["bank_seat"], opened["bank_cents"]) == (2, 3000)
