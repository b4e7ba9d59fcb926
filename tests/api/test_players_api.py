"""The REST API of rated play: players, rating sessions and the floor's alerts.

Dana deals PGP-1 and PGP-2, Otto deals PGP-3; Fred is a Floor supervisor, Paula a Pit boss, Alex an Auditor, Cora a
Cage cashier. Mr Lee (card 1001, Gold) plays. A Dealer sees a player's name and tier and where a session sits, never
the figures; the supervisors and Auditors see every figure, live. Every refusal is ``{"message", "extra"}`` with 400,
403, 404 or 409, and writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth.models import User

from casino.models import AuditEvent
from casino.roles import Role
from players.figures import session_figures
from players.models import Player, RatingSeat, RatingSession
from players.services import player_create, session_start
from settlement.services import settle_round
from tables.services import table_assign_dealer
from tests.api.clients import api_client as _api
from tests.api.clients import refusal as _refused
from tests.settlement import conftest as settlement_fixtures
from tests.settlement.conftest import BANK, LOSES, WINS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("house_chips")]
play_to_hands = settlement_fixtures.play_to_hands  # the settlement tests' fixture: a round played up to its hands


@pytest.fixture
def otto(make_user: Callable[..., User]) -> User:
    return make_user("otto_dealer", Role.DEALER)


@pytest.fixture
def cora(make_user: Callable[..., User]) -> User:
    return make_user("cora_cage", Role.CAGE_CASHIER)


@pytest.fixture
def tables(shift, make_table, pit_boss, otto) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    third = make_table(name="PGP-3", game="paigow_poker", seat_count=6)
    return {
        "PGP-1": make_table(name="PGP-1", game="paigow_poker", seat_count=6),
        "PGP-2": make_table(name="PGP-2", game="paigow_poker", seat_count=6),
        "PGP-3": table_assign_dealer(actor=pit_boss, table=third, dealer=otto),
    }


@pytest.fixture
def lee(dealer) -> Player:  # type: ignore[no-untyped-def]
    return player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")


@pytest.fixture
def seated(dealer, tables, lee) -> RatingSession:  # type: ignore[no-untyped-def]
    return session_start(actor=dealer, player=lee, table=tables["PGP-1"], seat=1, chips_cents=10_000)


@contextmanager
def nothing_written() -> Iterator[None]:
    counts = (Player.objects.count(), RatingSession.objects.count(), RatingSeat.objects.count())
    statuses = list(RatingSession.objects.order_by("pk").values_list("status", "seconds_played"))
    events = AuditEvent.objects.count()
    yield
    assert (Player.objects.count(), RatingSession.objects.count(), RatingSeat.objects.count()) == counts
    assert list(RatingSession.objects.order_by("pk").values_list("status", "seconds_played")) == statuses
    assert AuditEvent.objects.count() == events


def _settle(dealer, play_to_hands, table, wagers, seats, key):  # type: ignore[no-untyped-def]
    round_ = play_to_hands(table, wagers=wagers, hands={"banker": BANK, "seats": seats})
    settle_round(round=round_, actor=dealer, idempotency_key=key)


# --- players --------------------------------------------------------------------------------------


def test_a_dealer_enrols_a_player_and_sees_the_name_and_tier_only(dealer, tables) -> None:  # type: ignore[no-untyped-def]
    answer = _api(dealer).post(
        "/api/players/", {"name": "Mr  Lee", "card_number": "1001", "tier": "Gold"}, format="json"
    )
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert (body["name"], body["tier"], body["anonymous"]) == ("Mr Lee", "Gold", False)
    assert (body["card_number"], body["sessions"], body["sessions_total"]) == (None, None, None)
    anonymous = _api(dealer).post("/api/players/", {"tier": "Bronze", "anonymous": True}, format="json")
    assert anonymous.status_code == 201 and anonymous.json()["name"] == ""
    as_text = _api(dealer).post("/api/players/", {"tier": "Silver", "anonymous": "true"}, format="json")
    assert as_text.status_code == 201 and as_text.json()["anonymous"] is True
    assert Player.objects.count() == 3


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (
            {"name": "Someone", "card_number": "1001", "tier": "Gold"},
            409,
            "Card number 1001 belongs to another player.",
        ),
        ({"name": "X", "tier": "Diamond"}, 400, "The tiers are Bronze, Silver, Gold, Platinum, not 'Diamond'."),
        ({"name": "X"}, 400, "tier: This field is required."),
        ({"name": "X", "tier": 3}, 400, "tier: Not a valid string."),
        ({"name": 5, "tier": "Gold"}, 400, "name: Not a valid string."),
        ({"name": "X", "tier": "Gold", "anonymous": "yes"}, 400, "anonymous: Must be a valid boolean."),
        ({"name": "X", "tier": "Gold", "anonymous": 1}, 400, "anonymous: Must be a valid boolean."),
        ({"name": "X" * 121, "tier": "Gold"}, 400, "name: Ensure this field has no more than 120 characters."),
        ({"name": "X", "tier": "Gold", "anonymous": True}, 400, "An anonymous player has no name and no card number."),
        ({"name": "   ", "tier": "Gold"}, 400, "Say the player's name, or enrol them as anonymous."),
        ({"name": "Nul\x00", "tier": "Gold"}, 400, "The request holds text no field can hold"),
    ],
)
def test_an_enrolment_that_cannot_be_is_refused_in_words_and_writes_nothing(dealer, lee, body, status, message) -> None:  # type: ignore[no-untyped-def]
    with nothing_written():
        _refused(_api(dealer).post("/api/players/", body, format="json"), status, message)


def test_only_the_table_staff_enrol_and_only_they_and_the_auditors_read_players(  # type: ignore[no-untyped-def]
    cora, auditor, lee
) -> None:
    with nothing_written():
        _refused(_api(cora).post("/api/players/", {"name": "Y", "tier": "Gold"}, format="json"), 403, "may enrol")
        _refused(_api(auditor).post("/api/players/", {"name": "Y", "tier": "Gold"}, format="json"), 403)
        _refused(_api(None).post("/api/players/", {"name": "Y", "tier": "Gold"}, format="json"), 401)
    _refused(_api(cora).get("/api/players/", {"q": "lee"}), 403, "may find a player")
    _refused(_api(cora).get(f"/api/players/{lee.pk}/"), 403, "may read a player")
    assert _api(auditor).get("/api/players/", {"q": "lee"}).json()["results"][0]["name"] == "Mr Lee"


def test_a_dealer_finds_a_player_by_card_or_by_name(dealer, lee) -> None:  # type: ignore[no-untyped-def]
    api = _api(dealer)
    player_create(actor=dealer, name="Anna Lee-Park", card_number="2002", tier="Silver")
    assert [p["name"] for p in api.get("/api/players/", {"q": " 1001 "}).json()["results"]] == ["Mr Lee"]
    assert [p["name"] for p in api.get("/api/players/", {"q": "LEE"}).json()["results"]] == ["Anna Lee-Park", "Mr Lee"]
    assert api.get("/api/players/", {"q": "nobody"}).json()["results"] == []
    assert set(api.get("/api/players/", {"q": "1001"}).json()["results"][0]) == {"id", "name", "tier", "anonymous"}
    _refused(api.get("/api/players/"), 400, "Say whom to find")
    _refused(api.get("/api/players/", {"q": "  "}), 400, "Say whom to find")
    _refused(api.get("/api/players/", {"q": "lee\x00"}), 400, "NUL byte")
    _refused(api.get("/api/players/", {"q": "x" * 500}), 400, "at most 120 characters")


def test_a_supervisor_sees_a_players_sessions_and_figures_and_a_dealer_does_not(  # type: ignore[no-untyped-def]
    dealer, floor_supervisor, auditor, tables, lee, seated, play_to_hands
) -> None:
    _settle(dealer, play_to_hands, tables["PGP-1"], {1: 2500}, {"1": WINS}, "p1")
    _settle(dealer, play_to_hands, tables["PGP-1"], {1: 5000}, {"1": LOSES}, "p2")
    limited = _api(dealer).get(f"/api/players/{lee.pk}/").json()
    assert limited == {
        "id": lee.pk,
        "name": "Mr Lee",
        "tier": "Gold",
        "anonymous": False,
        "card_number": None,
        "created_at": None,
        "anonymised_at": None,
        "sessions": None,
        "sessions_total": None,
    }
    for who in (floor_supervisor, auditor):
        full = _api(who).get(f"/api/players/{lee.pk}/").json()
        assert full["card_number"] == "1001" and full["sessions_total"] == 1
        (session,) = full["sessions"]
        expected = session_figures(RatingSession.objects.get(pk=seated.pk), tier="Gold")
        figures = session["figures"]
        assert (figures["rounds"], figures["wagered_cents"], figures["win_loss_cents"]) == (2, 7500, 2375 - 5000)
        assert figures["average_bet_cents"] == expected.average_bet_cents == 3750
        assert (figures["theo_cents"], figures["comp_cents"], figures["buy_in_cents"]) == (
            expected.theo_cents,
            expected.comp_cents,
            10_000,
        )
        assert (session["table_name"], session["seat"], session["status"]) == ("PGP-1", 1, "playing")
    _refused(_api(dealer).get("/api/players/999999/"), 404)


def test_a_supervisor_anonymises_a_player_once_and_a_dealer_may_not(dealer, floor_supervisor, lee) -> None:  # type: ignore[no-untyped-def]
    with nothing_written():
        _refused(_api(dealer).post(f"/api/players/{lee.pk}/anonymise/"), 403, "may anonymise a player")
    answer = _api(floor_supervisor).post(f"/api/players/{lee.pk}/anonymise/")
    assert answer.status_code == 200
    assert (answer.json()["name"], answer.json()["card_number"], answer.json()["anonymous"]) == ("", None, True)
    assert answer.json()["anonymised_at"] is not None
    with nothing_written():
        _refused(_api(floor_supervisor).post(f"/api/players/{lee.pk}/anonymise/"), 409, "anonymised already")
    _refused(_api(floor_supervisor).post("/api/players/999999/anonymise/"), 404)


# --- rating sessions ------------------------------------------------------------------------------


def test_a_session_from_the_seat_to_the_end_through_the_api(dealer, pit_boss, tables, lee) -> None:  # type: ignore[no-untyped-def]
    api = _api(dealer)
    body = {"player": lee.pk, "table": tables["PGP-1"].pk, "seat": 3, "chips_cents": 50_000}
    started = api.post("/api/rating-sessions/", body, format="json")
    assert started.status_code == 201, started.content
    session = started.json()
    assert (session["status"], session["table_name"], session["seat"], session["figures"]) == (
        "playing",
        "PGP-1",
        3,
        None,
    )
    assert session["player"] == {"id": lee.pk, "name": "Mr Lee", "tier": "Gold", "anonymous": False}
    path = f"/api/rating-sessions/{session['id']}/"
    assert api.post(path + "pause/").json()["status"] == "paused"
    assert api.post(path + "resume/").json()["status"] == "playing"
    moved = api.post(path + "move/", {"table": tables["PGP-2"].pk, "seat": 1}, format="json").json()
    assert (moved["table_name"], moved["seat"]) == ("PGP-2", 1)
    ended = api.post(path + "end/", {"walk_with_cents": 62_500}, format="json").json()
    assert (ended["status"], ended["table_name"], ended["seat"]) == ("ended", "PGP-2", 1)
    _refused(api.get(path), 403, "Only a supervisor or an auditor may read this session")  # his history now
    read = _api(pit_boss).get(path).json()
    assert read["figures"]["walk_with_cents"] == 62_500 and read["figures"]["buy_in_cents"] == 50_000
    assert read["ended_at"] is not None
    # A second session may start; ending without a figure records none.
    again = api.post("/api/rating-sessions/", {"player": lee.pk, "table": tables["PGP-1"].pk, "seat": 3}, format="json")
    assert again.status_code == 201
    assert api.post(f"/api/rating-sessions/{again.json()['id']}/end/", {}, format="json").status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"table": "PGP-1", "seat": 3}, 400, "table: A valid integer is required."),
        ({"seat": "three"}, 400, "seat: A valid integer is required."),
        ({"seat": 2.5}, 400, "seat: A valid integer is required."),
        ({"seat": True}, 400, "seat: A valid integer is required."),
        ({"seat": 0}, 400, "seat: Ensure this value is greater than or equal to 1."),
        ({"seat": 9}, 400, "Table PGP-1 has seats 1 to 6, not 9."),
        ({"chips_cents": -500}, 400, "chips_cents: Ensure this value is greater than or equal to 0."),
        ({"chips_cents": "5,000"}, 400, "chips_cents: A valid integer is required."),
        ({"player": 999999}, 400, "There is no player with id 999999."),
        ({"table": 999999}, 400, "There is no table with id 999999."),
        ({"player": None}, 400, "player: This field may not be null."),
        ({"seat": 1}, 409, "Seat 1 at table PGP-1 is rated for another player already."),
    ],
)
def test_a_seating_that_cannot_be_is_refused_in_words_and_writes_nothing(  # type: ignore[no-untyped-def]
    dealer, tables, seated, body, status, message
) -> None:
    kim = player_create(actor=dealer, tier="Bronze", anonymous=True)
    full = {"player": kim.pk, "table": tables["PGP-1"].pk, "seat": 3, **body}
    with nothing_written():
        _refused(_api(dealer).post("/api/rating-sessions/", full, format="json"), status, message)
    with nothing_written():  # the seat left out too: named beside the rest
        missing = {name: value for name, value in full.items() if name != "seat"}
        refused = _refused(_api(dealer).post("/api/rating-sessions/", missing, format="json"), 400)
        assert refused["extra"]["fields"]["seat"] == ["This field is required."]


def test_who_may_seat_and_move_a_player_is_the_tables_dealer_or_a_supervisor(  # type: ignore[no-untyped-def]
    dealer, otto, auditor, cora, floor_supervisor, tables, lee, seated
) -> None:
    kim = player_create(actor=dealer, tier="Bronze", anonymous=True)
    body = {"player": kim.pk, "table": tables["PGP-1"].pk, "seat": 2}
    with nothing_written():
        _refused(_api(otto).post("/api/rating-sessions/", body, format="json"), 403, "Table PGP-1 is not your table")
        _refused(_api(auditor).post("/api/rating-sessions/", body, format="json"), 403)
        _refused(_api(cora).post("/api/rating-sessions/", body, format="json"), 403)
        _refused(_api(None).post("/api/rating-sessions/", body, format="json"), 401)
        path = f"/api/rating-sessions/{seated.pk}/"
        _refused(_api(otto).post(path + "pause/"), 403, "Table PGP-1 is not your table")
        _refused(_api(dealer).post(path + "move/", {"table": tables["PGP-3"].pk, "seat": 1}, format="json"), 403)
        _refused(_api(otto).post(path + "end/", {}, format="json"), 403)
        # Twice the same: the state refuses the second.
        _refused(_api(dealer).post(path + "resume/"), 409, "only a session on a break resumes")
        _refused(_api(dealer).post(path + "move/", {"table": tables["PGP-1"].pk, "seat": 1}, format="json"), 409)
        again = {"player": lee.pk, "table": tables["PGP-2"].pk, "seat": 1}
        _refused(_api(dealer).post("/api/rating-sessions/", again, format="json"), 409, "in a rating session already")
        _refused(_api(dealer).post(path + "move/", {"table": tables["PGP-2"].pk}, format="json"), 400, "seat")
        _refused(_api(dealer).post(path + "end/", {"walk_with_cents": -5}, format="json"), 400, "walk_with_cents")
        _refused(_api(dealer).post(path + "end/", {"walk_with_cents": "lots"}, format="json"), 400, "walk_with_cents")
        _refused(_api(dealer).post("/api/rating-sessions/999999/pause/"), 404)
    moved = _api(floor_supervisor).post(
        f"/api/rating-sessions/{seated.pk}/move/", {"table": tables["PGP-3"].pk, "seat": 1}, format="json"
    )
    assert moved.status_code == 200 and moved.json()["table_name"] == "PGP-3"
    assert _api(dealer).post(f"/api/rating-sessions/{seated.pk}/pause/").status_code == 403  # not Dana's table now
    assert _api(otto).post(f"/api/rating-sessions/{seated.pk}/pause/").status_code == 200
    assert _api(otto).post(f"/api/rating-sessions/{seated.pk}/pause/").status_code == 409


def test_a_session_is_read_by_its_tables_dealer_without_figures_and_by_the_overseers_with(  # type: ignore[no-untyped-def]
    dealer, otto, cora, pit_boss, auditor, tables, seated, play_to_hands
) -> None:
    _settle(dealer, play_to_hands, tables["PGP-1"], {1: 2500, 2: 1000}, {"1": WINS, "2": LOSES}, "s1")
    path = f"/api/rating-sessions/{seated.pk}/"
    mine = _api(dealer).get(path).json()
    assert (mine["status"], mine["table_name"], mine["figures"]) == ("playing", "PGP-1", None)
    _refused(_api(otto).get(path), 403, "Table PGP-1 is not your table")
    _refused(_api(cora).get(path), 403)
    _refused(_api(pit_boss).get("/api/rating-sessions/999999/"), 404)
    for who in (pit_boss, auditor):
        figures = _api(who).get(path).json()["figures"]
        assert (figures["rounds"], figures["win_loss_cents"], figures["wagered_cents"]) == (1, 2375, 2500)
        assert figures["seconds_played"] >= 0 and figures["alert"] is False
    at_table = _api(dealer).get(f"/api/tables/{tables['PGP-1'].pk}/rating-sessions/").json()["results"]
    assert [(s["seat"], s["player"]["name"], s["figures"]) for s in at_table] == [(1, "Mr Lee", None)]
    boss_view = _api(pit_boss).get(f"/api/tables/{tables['PGP-1'].pk}/rating-sessions/").json()["results"]
    assert boss_view[0]["figures"]["rounds"] == 1
    assert _api(pit_boss).get(f"/api/tables/{tables['PGP-2'].pk}/rating-sessions/").json()["results"] == []
    _refused(_api(otto).get(f"/api/tables/{tables['PGP-1'].pk}/rating-sessions/"), 403)
    _refused(_api(pit_boss).get("/api/tables/999999/rating-sessions/"), 404)


# --- alerts ---------------------------------------------------------------------------------------


def test_the_alerts_name_the_player_winning_far_above_expectation_and_the_drifting_table(  # type: ignore[no-untyped-def]
    dealer, pit_boss, auditor, tables, seated, play_to_hands, settings
) -> None:
    settings.TABLESIDE_HOLD_ALERT_MIN_ROUNDS = 6
    assert _api(pit_boss).get("/api/rating-alerts/").json() == {"sessions": [], "tables": []}
    for number in range(8):  # eight wins in a row: beyond three standard deviations
        _settle(dealer, play_to_hands, tables["PGP-1"], {1: 2500}, {"1": WINS}, f"a{number}")
    for who in (pit_boss, auditor):
        alerts = _api(who).get("/api/rating-alerts/").json()
        (session,) = alerts["sessions"]
        assert session["id"] == seated.pk and session["figures"]["alert"] is True
        assert session["figures"]["z"] > 3 and session["table_name"] == "PGP-1"
        (table,) = alerts["tables"]
        assert table["table_name"] == "PGP-1" and table["z"] < -1.96 and table["rounds"] == 8
        assert table["house_win_cents"] == -8 * 2375
    _refused(_api(dealer).get("/api/rating-alerts/"), 403, "may read the rating alerts")
    _refused(_api(None).get("/api/rating-alerts/"), 401)
