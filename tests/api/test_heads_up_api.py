"""The heads-up REST API: the bracket drawn and read, a match's hands and winner, and who may.

Tina directs; Dana deals the first match's table; Otto deals another; Alex audits (reads only). Entries are named by
their number, a match by its id."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from casino.models import AuditEvent
from casino.roles import Role
from poker_room.heads_up.models import Match
from poker_room.tournaments import services
from poker_room.tournaments.models import Entry, Tournament
from tests.api.clients import api_client as _api
from tests.api.clients import refusal as _refused
from tests.poker_room import tournament_setup

director = tournament_setup.director
_empty_cache = tournament_setup._empty_cache

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(director: User) -> Callable[..., Tournament]:
    def start(players: int, **settings: Any) -> Tournament:
        tournament = services.tournament_create(
            actor=director, template_key="msop_heads_up", buy_in_cents=5_000, fee_cents=500, tables=(players + 1) // 2
        )
        services.tournament_settings_set(actor=director, tournament=tournament, **{"seeding": "seeded", **settings})
        for name in tournament_setup.PLAYERS[:players]:
            services.entry_register(actor=director, tournament=tournament, name=name)
        return services.tournament_start(actor=director, tournament=tournament, rng=random.Random(3))

    return start


def test_the_director_draws_a_knock_out_of_6_and_everyone_on_the_floor_reads_it(
    started: Callable[..., Tournament], director: User, make_user: Callable[..., User]
) -> None:
    tournament = started(6, heads_up_mode="knockout")
    address = f"/api/tournaments/{tournament.pk}/bracket/"
    before = _api(director).get(address).json()
    assert before["drawn"] is False and before["rounds"] == [] and before["mode"] == "knockout"
    _refused(_api(make_user("alex_auditor", Role.AUDITOR)).post(address), 403)
    response = _api(director).post(address)
    assert response.status_code == 201, response.content
    body = response.json()
    assert [column["name"] for column in body["rounds"]] == ["First round", "Semi-final", "Final"]
    first = body["rounds"][0]["matches"]
    assert [(m["a"], m["b"]) for m in first] == [(4, 5), (3, 6)]
    assert first[0]["table"] == 1 and first[0]["blinds"]["level"] == 1 and first[0]["blinds"]["hand_in_level"] == 1
    semi = body["rounds"][1]["matches"][0]
    assert (semi["a"], semi["b"], semi["b_from"]) == (1, None, "Winner of match 1")
    assert body["prize_tiers"] == [[3, 4], [5, 6]]
    _refused(_api(director).post(address), 409, "drawn already")
    dealer_read = _api(make_user("otto_dealer", Role.DEALER)).get(address)
    assert dealer_read.status_code == 200 and dealer_read.json() == _api(director).get(address).json()
    _refused(_api(make_user("cass", Role.CAGE_CASHIER)).get(address), 403)
    assert _api(None).get(address).status_code in (401, 403)


def test_a_match_played_through_the_api_hands_then_the_winner(
    started: Callable[..., Tournament], director: User, make_user: Callable[..., User]
) -> None:
    tournament = started(4, heads_up_mode="knockout")
    _api(director).post(f"/api/tournaments/{tournament.pk}/bracket/")
    match = Match.objects.get(tournament=tournament, round=1, number=1)
    dana = make_user("dana_dealer", Role.DEALER)
    services.tournament_table_dealer_set(
        actor=director, tournament=tournament, table_number=match.table_number, dealer=dana
    )
    hand = f"/api/tournaments/{tournament.pk}/matches/{match.pk}/hand/"
    for _ in range(7):
        body = _api(dana).post(hand, {}, format="json").json()
    assert body["hands"] == 7 and body["blinds"]["level"] == 2 and body["blinds"]["hand_in_level"] == 1
    body = _api(dana).post(hand, {"take_back": True}, format="json").json()
    assert body["hands"] == 6 and body["blinds"]["level"] == 1 and body["blinds"]["hand_in_level"] == 7
    otto = make_user("otto_dealer", Role.DEALER)
    _refused(_api(otto).post(hand, {}, format="json"), 403)
    _refused(_api(dana).post(hand, {"hands": 3}, format="json"), 400)
    decide = f"/api/tournaments/{tournament.pk}/matches/{match.pk}/decide/"
    events = AuditEvent.objects.count()
    _refused(_api(dana).post(decide, {"winner": 2}, format="json"), 400, "winner of")
    _refused(_api(dana).post(decide, {"winner": "one"}, format="json"), 400)
    assert AuditEvent.objects.count() == events
    body = _api(dana).post(decide, {"winner": match.entry_b.number}, format="json").json()
    assert body["status"] == "decided" and body["winner"] == match.entry_b.number
    assert Entry.objects.get(pk=match.entry_a_id).place == 4
    _refused(_api(dana).post(decide, {"winner": match.entry_b.number}, format="json"), 409, "decided")
    _refused(_api(dana).post(hand, {}, format="json"), 409, "decided")
    undo = f"/api/tournaments/{tournament.pk}/matches/{match.pk}/undo/"
    _refused(_api(dana).post(undo, {"reason": "wrong tap"}, format="json"), 403)
    body = _api(director).post(undo, {"reason": "wrong tap"}, format="json").json()
    assert body["status"] == "ready" and body["winner"] is None
    assert _api(director).post(f"/api/tournaments/{tournament.pk}/matches/99999/hand/").status_code == 404


def test_a_group_event_reads_its_groups(started: Callable[..., Tournament], director: User) -> None:
    tournament = started(7, group_size=4)
    body = _api(director).post(f"/api/tournaments/{tournament.pk}/bracket/").json()
    assert body["mode"] == "groups" and body["rounds"] == []
    assert [[line["entry"] for line in group["standing"]] for group in body["groups"]] == [[1, 4, 5, 7], [2, 3, 6]]
    assert [len(group["matches"]) for group in body["groups"]] == [6, 3]
    assert body["prize_tiers"] == [[3, 7]]
