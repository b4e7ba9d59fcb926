"""The room display of a heads-up event on the TV: no clock, the matches being played with their blinds, a
hand counted on a match's tablet reaching the screen at its next poll."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from casino.roles import Role
from poker_room.display.views import display_address
from poker_room.heads_up import services as heads_up
from poker_room.heads_up.models import Match
from poker_room.tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)

TV = {"width": 1024, "height": 768}


def test_the_room_display_of_a_heads_up_event_lists_its_matches_and_follows_the_hands(
    new_page: Callable[..., Any], make_user: Callable[..., User], shoot: Callable[[Any, str], Any]
) -> None:
    director = make_user("tina_director", Role.TOURNAMENT_DIRECTOR)
    tournament = services.tournament_create(
        actor=director, template_key="msop_heads_up", buy_in_cents=2000, fee_cents=500, tables=3
    )
    for name in ("Anna", "Ben", "Cem", "Dora", "Emil", "Fritz"):
        services.entry_register(actor=director, tournament=tournament, name=name)
    services.tournament_start(actor=director, tournament=tournament, rng=random.Random(19))
    heads_up.bracket_draw(actor=director, tournament=tournament, rng=random.Random(19))

    tv = new_page(viewport=TV)
    tv.goto(display_address(tournament.pk))
    lines = tv.locator(".d-lines li")
    expect(lines).to_have_count(2)  # six players: two first-round matches, the top two seeds wait with a bye
    expect(tv.locator(".d-clock")).to_be_hidden()
    expect(lines.first).to_contain_text("hand 1 of 7")
    match = Match.objects.filter(tournament=tournament, table_number=1).exclude(status="decided").get()
    for _hand in range(8):
        heads_up.match_hand(actor=director, tournament=tournament, match=match)
    expect(lines.first).to_contain_text("level 2")  # the 8th hand counted: level 2's first hand is next
    expect(lines.first).to_contain_text("hand 2 of 7")
    assert "Anna" not in tv.locator("main").inner_text()
    shoot(tv, "poker-room-display-heads-up")
