"""The waitlist's REST API: a list run end to end (open, tables, names, call, seat, leave, move, close); a write sent
twice with one Idempotency-Key is done once; what is sent wrong is refused in words and writes nothing; an Auditor
reads and never writes; a Dealer and nobody signed in do neither."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.roles import Role
from poker_room.waitlist import services
from poker_room.waitlist.models import CashGame, WaitlistEntry
from tests.poker_room.waitlist.evening import everything

pytestmark = pytest.mark.django_db


def api(user: Any = None) -> APIClient:
    client = APIClient(raise_request_exception=False)
    if user is not None:
        client.force_authenticate(user)
    return client


def test_a_list_is_run_over_the_api_from_its_opening_to_its_close(shift, make_table, fred) -> None:  # type: ignore[no-untyped-def]
    main = make_table(name="OFC-1", game="ofc", seat_count=2)
    feeder = make_table(name="OFC-2", game="ofc", seat_count=2)
    desk = api(fred)
    opened = desk.post("/api/cash-games/", {"game": "ofc", "points_cents": 200}, format="json")
    assert opened.status_code == 201, opened.content
    game_id = opened.json()["id"]
    assert opened.json()["game_label"] == "Open-Face Chinese Poker" and opened.json()["points_cents"] == 200
    for table, must_move in ((main, False), (feeder, True)):
        added = desk.post(
            f"/api/cash-games/{game_id}/tables/", {"table_id": table.pk, "must_move": must_move}, format="json"
        )
        assert added.status_code == 201, added.content
    for name in ("Jo Lee", "Max Ott", "Ina Roe"):
        assert desk.post(f"/api/cash-games/{game_id}/entries/", {"name": name}, format="json").status_code == 201
    board = desk.get("/api/cash-games/").json()
    assert [(e["position"], e["name"], e["initials"]) for e in board[0]["waiting"]] == [
        (1, "Jo Lee", "J. L."),
        (2, "Max Ott", "M. O."),
        (3, "Ina Roe", "I. R."),
    ]
    for _ in range(3):
        called = desk.post(f"/api/cash-games/{game_id}/call/", format="json")
        assert called.status_code == 200, called.content
        entry = called.json()["called"][-1]
        assert desk.post(f"/api/waitlist-entries/{entry['id']}/seat/", {}, format="json").status_code == 200
    tables = {t["name"]: [e["name"] for e in t["seated"]] for t in desk.get("/api/cash-games/").json()[0]["tables"]}
    assert tables == {"OFC-1": ["Jo Lee", "Max Ott"], "OFC-2": ["Ina Roe"]}
    jo = WaitlistEntry.objects.get(name="Jo Lee")
    assert desk.post(f"/api/waitlist-entries/{jo.pk}/leave/", format="json").json()["next_move"] == "move"
    moved = desk.post(f"/api/cash-games/{game_id}/move/", {"seat": 1}, format="json")
    assert moved.status_code == 200
    seats = {t["name"]: [(e["seat"], e["name"]) for e in t["seated"]] for t in moved.json()["tables"]}
    assert seats == {"OFC-1": [(1, "Ina Roe"), (2, "Max Ott")], "OFC-2": []}  # the main game by seat
    refused = desk.post(f"/api/cash-games/{game_id}/close/", format="json")
    assert refused.status_code == 409 and "still on this list" in refused.json()["message"]
    for entry in WaitlistEntry.objects.filter(status="seated"):
        desk.post(f"/api/waitlist-entries/{entry.pk}/leave/", format="json")
    assert desk.post(f"/api/cash-games/{game_id}/close/", format="json").status_code == 200
    assert CashGame.objects.get(pk=game_id).closed_at is not None


def test_a_call_sent_twice_with_one_key_calls_one_name(room, fred) -> None:  # type: ignore[no-untyped-def]
    for name in ("Anna", "Ben"):
        services.waitlist_put_down(actor=fred, cash_game=room, name=name)
    desk = api(fred)
    first = desk.post(f"/api/cash-games/{room.pk}/call/", format="json", HTTP_IDEMPOTENCY_KEY="call-once-1")
    again = desk.post(f"/api/cash-games/{room.pk}/call/", format="json", HTTP_IDEMPOTENCY_KEY="call-once-1")
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert list(WaitlistEntry.objects.order_by("pk").values_list("status", flat=True)) == ["called", "waiting"]


@pytest.mark.parametrize(
    ("path", "body", "status", "message"),
    [
        ("entries/", {"name": ""}, 400, "Say the name"),
        ("entries/", {"name": "1234"}, 400, "written in letters"),
        ("entries/", {"name": "Anna", "nickname": "A"}, 400, "nickname"),
        ("entries/", {"player_id": 99999}, 404, ""),
        ("tables/", {"table_id": "one"}, 400, ""),
        ("tables/", {"table_id": 1.5}, 400, ""),
        ("call/", {}, 409, "Nobody is waiting"),
        ("move/", {"seat": 0}, 400, ""),
    ],
)
def test_what_is_sent_wrong_is_refused_in_words_and_writes_nothing(room, fred, path, body, status, message) -> None:  # type: ignore[no-untyped-def]
    before = everything()
    answer = api(fred).post(f"/api/cash-games/{room.pk}/{path}", body, format="json")
    assert answer.status_code == status, answer.content
    assert set(answer.json()) == {"message", "extra"} and message in answer.json()["message"]
    assert everything() == before


def test_an_auditor_reads_the_lists_and_writes_nothing_a_dealer_and_a_stranger_neither(
    room, fred, auditor, dealer
) -> None:  # type: ignore[no-untyped-def]
    entry = services.waitlist_put_down(actor=fred, cash_game=room, name="Anna")
    assert api(auditor).get("/api/cash-games/").status_code == 200
    before = everything()
    for who, read in ((auditor, 200), (dealer, 403), (None, 403)):
        client = api(who)
        assert client.get("/api/cash-games/").status_code in ((read,) if who else (401, 403))
        for path, body in (
            ("/api/cash-games/", {"game": "ofc", "points_cents": 100}),
            (f"/api/cash-games/{room.pk}/entries/", {"name": "Ben"}),
            (f"/api/cash-games/{room.pk}/call/", {}),
            (f"/api/waitlist-entries/{entry.pk}/remove/", {}),
        ):
            assert client.post(path, body, format="json").status_code in (401, 403)
    assert everything() == before


def test_a_tournament_director_runs_the_list_over_the_api(room, make_user) -> None:  # type: ignore[no-untyped-def]
    tess = make_user("tess", Role.TOURNAMENT_DIRECTOR)
    assert api(tess).post(f"/api/cash-games/{room.pk}/entries/", {"name": "Anna"}, format="json").status_code == 201
