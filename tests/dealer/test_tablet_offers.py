"""What the tablet offers: the chips a wager at the table can use, and the tables with where their rounds stand."""

from __future__ import annotations

from typing import Any

import pytest

from tests.dealer.conftest import signed_in, text


@pytest.mark.django_db
def test_a_1_to_100_table_offers_no_500_chip_and_a_5_to_500_table_does(
    make_table: Any, shift: Any, dealer: Any
) -> None:
    small = make_table(name="CP-1", game="chinese_poker", seat_count=4, min_wager_cents=100, max_wager_cents=10_000)
    big = make_table(name="PGP-1", game="paigow_poker", seat_count=6, min_wager_cents=500, max_wager_cents=50_000)
    client = signed_in(dealer)
    client.post(f"/dealer/tables/{small.pk}/open/", {"key": "open-small"})
    client.post(f"/dealer/tables/{big.pk}/open/", {"key": "open-big"})

    offered = text(client.get(f"/dealer/tables/{small.pk}/"))
    assert 'data-chip="10000"' in offered and 'data-chip="50000"' not in offered
    assert 'data-chip="50000"' in text(client.get(f"/dealer/tables/{big.pk}/"))


@pytest.mark.django_db
def test_the_table_list_shows_where_each_tables_latest_round_stands(make_table: Any, shift: Any, pit_boss: Any) -> None:
    playing = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    make_table(name="PGP-2", game="paigow_poker", seat_count=6)
    client = signed_in(pit_boss)
    client.post(f"/dealer/tables/{playing.pk}/open/", {"key": "open-1"})

    page = text(client.get("/dealer/"))
    assert "Round 1" in page and "Betting open" in page and "No round yet" in page


@pytest.mark.django_db
def test_a_void_request_says_so_once_and_the_badge_says_the_round_is_on_hold(
    make_table: Any, shift: Any, dealer: Any
) -> None:
    from rounds.models import Round

    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    client = signed_in(dealer)
    client.post(f"/dealer/tables/{table.pk}/open/", {"key": "open-1"})
    round_ = Round.objects.get(table=table)
    page = text(client.post(f"/dealer/rounds/{round_.pk}/void-request/", {"reason": "Dice off the table"}, follow=True))
    assert page.count("Void requested: waiting for a supervisor") == 1  # the waiting banner, not a second one
    assert "Betting open · void asked" in page
