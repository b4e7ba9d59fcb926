"""One tournament row the code cannot read (a value outside its domain, written past the application) breaks only its
own clock panel, which says what is wrong in words; every page and list that shows it still answers, for every one
who watches the room, and the other tournaments on them are untouched."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.roles import Role
from poker_room.tournaments import services as tournaments
from poker_room.tournaments.models import Tournament

pytestmark = pytest.mark.django_db

CORRUPTIONS = {
    "a level past the last": ({"clock_level": 999}, "level 1000 of"),
    "a status it does not know": ({"clock_status": "bogus"}, "its status is 'bogus'"),
    "a running clock with no end": ({"clock_status": "running", "clock_ends_at": None}, "it runs with no end"),
    "a structure that is not a list": ({"levels": {"x": 1}}, "cannot be read"),
}


def _running(actor: User, name: str) -> Tournament:
    tournament = tournaments.tournament_create(
        actor=actor, template_key="msop_turbo", buy_in_cents=2000, fee_cents=500, name=name
    )
    for number in range(1, 5):
        tournaments.entry_register(actor=actor, tournament=tournament, name=f"Player {number}")
    tournaments.tournament_start(actor=actor, tournament=tournament)
    return Tournament.objects.get(pk=tournament.pk)


def _pages(broken: Tournament) -> list[str]:
    return [
        "/pit/",
        "/pit/live/",
        "/poker-room/",
        f"/poker-room/{broken.pk}/",
        f"/poker-room/{broken.pk}/display/",
        f"/poker-room/{broken.pk}/display.json",
        "/api/tournaments/",
        f"/api/tournaments/{broken.pk}/",
        f"/api/tournaments/{broken.pk}/display/",
    ]


@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_a_tournament_row_that_cannot_be_read_breaks_only_its_clock_panel(
    corruption: str, make_user: Any, pit_boss: User, shift: Any
) -> None:
    director = make_user("tess_director", Role.TOURNAMENT_DIRECTOR)
    broken, sound = _running(director, "MSOP Turbo"), _running(director, "Sunday Special")
    change, words = CORRUPTIONS[corruption]
    Tournament.objects.filter(pk=broken.pk).update(**change)  # past the services, as a bad restore or a hand edit
    failures = []
    for user in (pit_boss, director):
        client = Client(raise_request_exception=False)
        client.force_login(user)
        for page in _pages(broken):
            response = client.get(page)
            if response.status_code >= 500:
                failures.append(f"{user.username} {page}: {response.status_code}")
    assert not failures, failures
    client = Client()
    client.force_login(director)
    console = html.unescape(client.get(f"/poker-room/{broken.pk}/").content.decode())
    assert "of MSOP Turbo cannot be read" in console and words in console
    listing = html.unescape(client.get("/poker-room/").content.decode())
    assert words in listing and "Sunday Special" in listing
    # The sound tournament's own console is untouched.
    assert "cannot be read" not in client.get(f"/poker-room/{sound.pk}/").content.decode()
    api = Client()
    api.force_login(director)
    answer = api.get(f"/api/tournaments/{broken.pk}/").json()
    assert words in answer["problem"] and answer["name"] == "MSOP Turbo"
