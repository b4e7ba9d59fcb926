"""The dealer-assist endpoints: the engines' answers over the API, under the table's rules, writing nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from casino.models import AuditEvent
from rules.models import RuleSet
from rules.services import rule_set_create, rule_set_default

PGP_URL = "/api/v1/assist/paigow-poker/house-way/"
TILES_URL = "/api/v1/assist/paigow-tiles/house-way/"
ADVISE_URL = "/api/v1/assist/paigow-tiles/advise/"
CP_SCORE_URL = "/api/v1/assist/chinese-poker/score/"
CP_SUGGEST_URL = "/api/v1/assist/chinese-poker/suggest/"
OFC_SCORE_URL = "/api/v1/assist/ofc/score/"


def _seats(*boards: tuple[str, str, str]) -> dict[str, dict[str, str]]:
    return {str(n): dict(zip(("front", "middle", "back"), rows, strict=True)) for n, rows in enumerate(boards, 1)}


# Ann sets quads behind a full house; Bob sets queens-and-jacks in the middle behind a straight.
CP_ANN = ("2s 3h 4d", "Ks Kh Kd 8c 8d", "9s 9h 9d 9c 5c")
CP_BOB = ("As Kc 7d", "Qs Qh Jc Js 2c", "8s 7h 6d 5s 4c")
# Ann's 2-1 against Bob, whose full house of kings royalties match her aces full.
OFC_ANN = ("2s 3d 4c", "Tc Th 7d 7s 2h", "Ac Ad Ah 3s 3h")
OFC_BOB = ("5s 6d 8c", "9c 9h Jd Qs 2d", "Kc Kd Kh Js Jc")

# Per endpoint: its URL, its game, a valid body, the body's field holding the hand, and that field
# with an unknown token and with a card (or a single tile) twice.
ENDPOINTS: dict[str, tuple[str, str, dict[str, Any], str, str, str]] = {
    "pgp house way": (
        PGP_URL,
        "paigow_poker",
        {"cards": "Kh Kc Qs Qd 9h 5c 3d"},
        "cards",
        "Kh Kc Qs Qd 9h 5c Xx",
        "Kh Kc Qs Qd 9h 5c Kh",
    ),
    "tiles house way": (TILES_URL, "paigow_tiles", {"tiles": "6-3 5-4 6-6 5-5"}, "tiles", "6-3 5-4 6-6 7-7", ""),
    "tiles advise": (ADVISE_URL, "paigow_tiles", {"tiles": "6-6 5-5 6-3 2-2"}, "tiles", "6-6 5-5 6-3 2-x", ""),
    "cp score": (CP_SCORE_URL, "chinese_poker", {"seats": _seats(CP_ANN, CP_BOB)}, "seats", "", ""),
    "cp suggest": (
        CP_SUGGEST_URL,
        "chinese_poker",
        {"cards": "2s 3d 4h 5c 6s 8d 9h Tc Js Qd Kh Ac 7c"},
        "cards",
        "2s 3d 4h 5c 6s 8d 9h Tc Js Qd Kh Ac 1c",
        "2s 3d 4h 5c 6s 8d 9h Tc Js Qd Kh Ac 2s",
    ),
    "ofc score": (OFC_SCORE_URL, "ofc", {"seats": _seats(OFC_ANN, OFC_BOB)}, "seats", "", ""),
}
OTHER_GAME = {
    "paigow_poker": "paigow_tiles",
    "paigow_tiles": "paigow_poker",
    "chinese_poker": "ofc",
    "ofc": "chinese_poker",
}


@pytest.fixture
def api(dealer: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(dealer)
    return client


def _post(api: APIClient, url: str, body: dict[str, Any], status: int = 200) -> Any:
    """POST ``body`` as JSON; check the status and return the answer."""
    response = api.post(url, body, format="json")
    assert response.status_code == status, response.content
    return response.json()


# --- the answers a dealer would recognise -----------------------------------------------------------


@pytest.mark.django_db
def test_pai_gow_poker_house_way_sets_two_pairs_kings_high_queens_low(api: APIClient) -> None:
    writes = AuditEvent.objects.count(), RuleSet.objects.count()
    answer = _post(api, PGP_URL, {"cards": "Kh Kc Qs Qd 9h 5c 3d"})
    assert answer["high"] == "Kh Kc 9h 5c 3d"
    assert answer["low"] == "Qs Qd"
    assert answer["high_value"] == "one pair"
    assert answer["low_value"] == "one pair"
    assert answer["rule"] == "two pairs, split: jacks or better with sixes or better"
    assert (AuditEvent.objects.count(), RuleSet.objects.count()) == writes


@pytest.mark.django_db
def test_pai_gow_poker_house_way_follows_the_rule_sets_way(api: APIClient, pit_boss: User) -> None:
    foxwoods = rule_set_create(actor=pit_boss, name="PGP Foxwoods", game="paigow_poker", pgp_house_way="foxwoods")
    hand = {"cards": "9s 9h 9d 2c 2d Ah Kc"}
    golden_nugget = _post(api, PGP_URL, hand)
    assert golden_nugget["rule"] == "full house kept: twos, and an ace and a king go low"
    assert (golden_nugget["high"], golden_nugget["low"]) == ("9s 9h 9d 2d 2c", "Ah Kc")
    assert golden_nugget["high_value"] == "full house"
    assert golden_nugget["low_value"] == "high card"
    writes = AuditEvent.objects.count()
    answer = _post(api, PGP_URL, {**hand, "rule_set": foxwoods.pk})
    assert answer["rule"] == "full house: the highest pair that does not foul goes low"
    assert (answer["high"], answer["low"]) == ("Ah Kc 9s 9h 9d", "2d 2c")
    assert AuditEvent.objects.count() == writes


@pytest.mark.django_db
def test_tiles_house_way_splits_nines_with_a_ten(api: APIClient) -> None:
    writes = AuditEvent.objects.count()
    answer = _post(api, TILES_URL, {"tiles": "6-3 5-4 6-6 5-5", "rule_set": rule_set_default(game="paigow_tiles").pk})
    assert answer == {
        "high": "6-6 6-3",
        "low": "5-5 5-4",
        "rule": "split 9s with 2, 10 or 12",
        "high_value": "Teen wong",
        "low_value": "9 points, high tile Mooy",
    }
    assert AuditEvent.objects.count() == writes


@pytest.mark.django_db
def test_tiles_advice_finds_a_better_setting_than_the_house_way(api: APIClient) -> None:
    writes = AuditEvent.objects.count()
    answer = _post(api, ADVISE_URL, {"tiles": "6-6 5-5 6-3 2-2"})
    assert (answer["house"]["high"], answer["house"]["low"]) == ("6-6 6-3", "5-5 2-2")
    assert round(answer["house"]["ev"], 4) == 0.1426
    assert (answer["best"]["high"], answer["best"]["low"]) == ("5-5 6-3", "6-6 2-2")
    assert round(answer["best"]["ev"], 4) == 0.2104
    assert answer["best"]["wins"] == 8286
    assert answer["way"] == "foxwoods"
    assert (answer["commission_bp"], answer["commission_on_player_wins"]) == (500, False)
    assert answer["bank_hands"] == 20475
    assert len(answer["settings"]) == 3
    assert all(s["wins"] + s["pushes"] + s["losses"] == 20475 for s in answer["settings"])
    assert answer["best"] in answer["settings"]
    assert AuditEvent.objects.count() == writes


@pytest.mark.django_db
def test_chinese_poker_score_sheet_with_stakes(api: APIClient) -> None:
    writes = AuditEvent.objects.count()
    answer = _post(api, CP_SCORE_URL, {"seats": _seats(CP_ANN, CP_BOB), "stakes_cents": 25})
    assert answer["seats"] == [{"seat": "1", "points": 6, "cents": 150}, {"seat": "2", "points": -6, "cents": -150}]
    bob_vs_ann = next(p for p in answer["pairs"] if (p["seat"], p["opponent"]) == ("2", "1"))
    assert bob_vs_ann == {
        "seat": "2",
        "opponent": "1",
        "won": 1,
        "lost": 2,
        "ties": 0,
        "system": -2,
        "royalties": -4,
        "natural": 0,
        "fouled": False,
        "opponent_fouled": False,
        "net": -6,
    }
    assert len(answer["pairs"]) == 2
    assert AuditEvent.objects.count() == writes


@pytest.mark.django_db
def test_tiles_advice_takes_the_commission_on_player_wins_from_the_rule_set(api: APIClient, pit_boss: User) -> None:
    paying = rule_set_create(
        actor=pit_boss, name="Tiles, players pay", game="paigow_tiles", commission_on_player_wins=True
    )
    answer = _post(api, ADVISE_URL, {"tiles": "6-6 5-5 6-3 2-2", "rule_set": paying.pk})
    assert (answer["commission_bp"], answer["commission_on_player_wins"]) == (500, True)
    assert answer["best"]["wins"] == 8286
    assert answer["best"]["ev"] < 0.2104


@pytest.mark.django_db
def test_chinese_poker_score_follows_the_rule_sets_points_system(api: APIClient, pit_boss: User) -> None:
    one_six = rule_set_create(actor=pit_boss, name="CP 1-6", game="chinese_poker", cp_scoring="1-6")
    answer = _post(api, CP_SCORE_URL, {"seats": _seats(CP_ANN, CP_BOB), "rule_set": one_six.pk})
    bob_vs_ann = next(p for p in answer["pairs"] if p["seat"] == "2")
    assert (bob_vs_ann["system"], bob_vs_ann["royalties"], bob_vs_ann["net"]) == (-1, -4, -5)


@pytest.mark.django_db
def test_chinese_poker_score_without_stakes_has_no_cents_and_reports_a_foul(api: APIClient) -> None:
    fouled = ("Kh Kd As", "Ks Kc Qd 7h 3s", "9s 9h 9c 2d 2h")  # KK-A over KK-Q-7-3
    other = ("2s 3h 4d", "8s 7d 6d 5s 4c", "Ah Ac Ad Jc Jd")
    answer = _post(api, CP_SCORE_URL, {"seats": _seats(fouled, other)})
    assert [s["cents"] for s in answer["seats"]] == [None, None]
    first = next(p for p in answer["pairs"] if p["seat"] == "1")
    assert (first["fouled"], first["won"], first["lost"]) == (True, 0, 3)
    assert sum(s["points"] for s in answer["seats"]) == 0


@pytest.mark.django_db
def test_chinese_poker_suggests_two_straights_behind_ace_king_queen(api: APIClient) -> None:
    writes = AuditEvent.objects.count()
    answer = _post(api, CP_SUGGEST_URL, {"cards": "2s 3d 4h 5c 6s 8d 9h Tc Js Qd Kh Ac 7c", "top": 2})
    assert len(answer) == 2
    best = answer[0]
    assert (best["front"], best["middle"], best["back"]) == ("Qd Kh Ac", "2s 3d 4h 5c 6s", "7c 8d 9h Tc Js")
    assert (best["middle_value"], best["back_value"]) == ("six-high straight", "jack-high straight")
    assert best["score"] > answer[1]["score"]
    assert len(best["win_chances"]) == 3
    assert AuditEvent.objects.count() == writes


@pytest.mark.django_db
def test_ofc_score_sheet_with_royalties_and_stakes(api: APIClient) -> None:
    writes = AuditEvent.objects.count()
    answer = _post(api, OFC_SCORE_URL, {"seats": _seats(OFC_ANN, OFC_BOB), "stakes_cents": 100})
    assert answer["royalty_table"] == "mainz"
    ann_vs_bob = next(p for p in answer["pairs"] if p["seat"] == "1")
    assert (ann_vs_bob["rows"], ann_vs_bob["net"]) == ([-1, 1, 1], 1)
    assert [(s["seat"], s["points"], s["cents"], s["fouled"]) for s in answer["seats"]] == [
        ("1", 1, 100, False),
        ("2", -1, -100, False),
    ]
    assert answer["seats"][0]["royalties"] == answer["seats"][1]["royalties"]
    assert AuditEvent.objects.count() == writes


@pytest.mark.django_db
def test_ofc_fouled_board_pays_six_and_the_royalties(api: APIClient) -> None:
    me = ("Qs Qd 4c", "9c 9h 7d 7s 2h", "Ac Ad Ah 3s 3d")
    fouled = ("Ks Kd 5c", "Jc Th 8d 7c 2d", "As 6d 6c 6h 4s")
    answer = _post(api, OFC_SCORE_URL, {"seats": _seats(me, fouled)})
    assert [(s["points"], s["fouled"], s["cents"]) for s in answer["seats"]] == [(19, False, None), (-19, True, None)]
    assert [s["fantasyland"] for s in answer["seats"]] == [False, False]  # the default rules play no Fantasyland


@pytest.mark.django_db
def test_ofc_names_fantasyland_when_the_rule_set_plays_it(api: APIClient, pit_boss: User) -> None:
    fantasyland = rule_set_create(actor=pit_boss, name="OFC with Fantasyland", game="ofc", fantasyland=True)
    queens = ("Qs Qd 4c", "9c 9h 7d 7s 2h", "Ac Ad Ah 3s 3d")
    kings_fouled = ("Ks Kd 5c", "Jc Th 8d 7c 2d", "As 6d 6c 6h 4s")  # kings in front, but the board fouls
    answer = _post(api, OFC_SCORE_URL, {"seats": _seats(queens, kings_fouled), "rule_set": fantasyland.pk})
    assert [s["fantasyland"] for s in answer["seats"]] == [True, False]


# --- refusals ---------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_a_rule_set_of_another_game_is_refused(api: APIClient, endpoint: str) -> None:
    url, game, body, *_ = ENDPOINTS[endpoint]
    other = rule_set_default(game=OTHER_GAME[game])
    answer = _post(api, url, {**body, "rule_set": other.pk}, status=400)
    assert other.name in answer["message"]
    assert answer["extra"] == {"field": "rule_set"}


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_an_unknown_rule_set_is_refused_naming_the_field(api: APIClient, endpoint: str) -> None:
    url, _, body, *_ = ENDPOINTS[endpoint]
    answer = _post(api, url, {**body, "rule_set": 987654}, status=400)
    assert answer == {"message": "There is no rule set 987654.", "extra": {"field": "rule_set"}}


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", [name for name, spec in ENDPOINTS.items() if spec[4]])
def test_bad_notation_is_refused_naming_the_token(api: APIClient, endpoint: str) -> None:
    url, _, body, field, bad, _ = ENDPOINTS[endpoint]
    answer = _post(api, url, {**body, field: bad}, status=400)
    assert f"{bad.split()[-1]!r} is not a" in answer["message"]
    assert answer["extra"] == {"field": field}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "body", "message"),
    [
        (PGP_URL, {"cards": "Kh Kc Qs Qd 9h 5c Kh"}, "K♥ appears twice"),
        (CP_SUGGEST_URL, {"cards": "2s 3d 4h 5c 6s 8d 9h Tc Js Qd Kh Ac 2s"}, "2♠ appears twice"),
        (TILES_URL, {"tiles": "6-3 3-6 6-6 5-5"}, "mixed nine 6-3 appears 2 times; the set has 1"),
        (ADVISE_URL, {"tiles": "6-6 6-6 6-6 5-5"}, "Teen 6-6 appears 3 times; the set has 2"),
    ],
)
def test_a_card_or_tile_more_often_than_the_deck_holds_is_refused(
    api: APIClient, url: str, body: dict[str, str], message: str
) -> None:
    assert _post(api, url, body, status=400)["message"] == message


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "body", "message"),
    [
        (PGP_URL, {"cards": "Kh Kc Qs Qd 9h 5c"}, "7 cards expected, got 6"),
        (TILES_URL, {"tiles": "6-6 5-4 3-1"}, "hand: 4 tiles expected, got 3"),
        (ADVISE_URL, {"tiles": "6-6 5-4 3-1"}, "4 tiles expected, got 3"),
        (CP_SUGGEST_URL, {"cards": "2s 3d 4h 5c 6s 8d 9h Tc Js Qd Kh Ac"}, "hand: 13 cards expected, got 12"),
    ],
)
def test_a_wrong_count_is_refused(api: APIClient, url: str, body: dict[str, str], message: str) -> None:
    assert _post(api, url, body, status=400)["message"] == message


@pytest.mark.django_db
@pytest.mark.parametrize("url", [CP_SCORE_URL, OFC_SCORE_URL])
def test_a_points_game_names_the_seat_and_row_of_a_bad_card(api: APIClient, url: str) -> None:
    bad = ("2s 3d 4c", "Tc Th 7d 7s 2h", "Ac Ad Ah 3s Zz")
    answer = _post(api, url, {"seats": _seats(OFC_ANN, bad)}, status=400)
    assert answer["message"].startswith("Seat 2, back: 'Zz' is not a card")
    assert answer["extra"] == {"field": "seats.2.back"}


@pytest.mark.django_db
@pytest.mark.parametrize("url", [CP_SCORE_URL, OFC_SCORE_URL])
def test_a_points_game_refuses_a_card_on_two_seats(api: APIClient, url: str) -> None:
    copy = ("2s 3d 4c", "Tc Th 7d 7s 2h", "Ac Ad Ah 3s 3h")  # Ann's board again
    answer = _post(api, url, {"seats": _seats(OFC_ANN, copy)}, status=400)
    assert "2♠" in answer["message"]
    assert answer["extra"] == {"field": "seats"}


@pytest.mark.django_db
@pytest.mark.parametrize("url", [CP_SCORE_URL, OFC_SCORE_URL])
def test_a_points_game_refuses_a_short_row_and_a_lone_seat(api: APIClient, url: str) -> None:
    short = ("2s 3d", "Tc Th 7d 7s 2h", "Ac Ad Ah 3s 3h")
    answer = _post(api, url, {"seats": _seats(OFC_BOB, short)}, status=400)
    assert answer["message"].startswith("Seat 2: ")
    assert "front" in answer["message"]
    assert answer["extra"] == {"field": "seats.2"}
    alone = _post(api, url, {"seats": _seats(OFC_BOB)}, status=400)
    assert "two to four" in alone["message"]


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_a_missing_field_is_refused_by_shape(api: APIClient, endpoint: str) -> None:
    url, _, _, field, *_ = ENDPOINTS[endpoint]
    answer = _post(api, url, {}, status=400)
    assert answer["message"] == f"{field}: This field is required."


@pytest.mark.django_db
def test_suggest_shows_at_most_five_arrangements(api: APIClient) -> None:
    answer = _post(api, CP_SUGGEST_URL, {"cards": "2s 3d 4h 5c 6s 8d 9h Tc Js Qd Kh Ac 7c", "top": 6}, status=400)
    assert answer["message"].startswith("top: ")


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_an_outsider_who_is_not_signed_in_is_refused(endpoint: str) -> None:
    url, _, body, *_ = ENDPOINTS[endpoint]
    response = APIClient().post(url, body, format="json")
    assert response.status_code in (401, 403)


@pytest.mark.django_db
def test_the_schema_lists_the_six_assist_endpoints(api: APIClient) -> None:
    response = api.get("/api/v1/schema/", {"format": "json"})
    assert response.status_code == 200
    paths = response.json()["paths"]
    for url in (PGP_URL, TILES_URL, ADVISE_URL, CP_SCORE_URL, CP_SUGGEST_URL, OFC_SCORE_URL):
        assert "post" in paths[url]
        assert "requestBody" in paths[url]["post"]
        assert "200" in paths[url]["post"]["responses"]
