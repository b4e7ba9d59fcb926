"""A player's name as long as the form allows (120 characters) never widens a page: the tablet, its players page,
the pit's dashboard and the player's own page stay 1024 px wide, the name cut with an ellipsis where a line has no
room and shown whole in its title."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from players.services import player_create, session_start

LONG = ("Maximilian Alexander Konstantin von und zu Hohenzollern-Sigmaringen-Wittelsbach " * 3)[:120].strip()


@pytest.mark.django_db(transaction=True)
def test_a_120_character_name_fits_the_tablet_and_the_dashboard(
    new_page: Callable[..., Any], make_table: Callable[..., Any], shift: Any, dealer: Any, pit_boss: Any
) -> None:
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    player = player_create(actor=dealer, name=LONG, card_number="4242", tier="Platinum")
    session_start(actor=dealer, player=player, table=table, seat=2, chips_cents=0)

    for user, path in (
        (dealer, f"/dealer/tables/{table.pk}/"),
        (dealer, f"/dealer/tables/{table.pk}/players/"),
        (pit_boss, "/pit/"),
        (pit_boss, f"/players/{player.pk}/"),
    ):
        page = new_page(user)
        page.goto(path)
        page.wait_for_load_state()
        width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert width[0] <= width[1], f"{path} is {width[0]} px wide at 1024"
        assert page.get_by_text(LONG[:30]).count() >= 1, path
