"""The house's wager against a player bank on the tablet: what the dealer is told, and what is refused.

The tapping itself is in tests/browser/test_player_bank_house_wager.py; here the pages' words: the open's
notice, the panel while betting, the refusal of a bank too small for the house's wager (nothing written), and a
stale form posting the house's hand on a round where the house does not wager.
"""

from __future__ import annotations

import pytest

from rounds.models import HouseWager, Round
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from rules.services import rule_set_create
from settlement.services import settle_round
from tables.models import Table
from tests.dealer.conftest import HTMX, LOSES, nothing_written, signed_in, text


@pytest.fixture
def rotation(pit_boss, make_table, shift) -> Table:  # type: ignore[no-untyped-def]
    rules = rule_set_create(
        actor=pit_boss, name="PGP players bank", game="paigow_poker", banking_mode="player_rotation"
    )
    return make_table(name="PGP-R", game="paigow_poker", seat_count=6, rule_set=rules)


def _seat_3_bets(table: Table, dealer) -> None:  # type: ignore[no-untyped-def]
    """Round 1, the house banks: seat 3 bets 25.00 and loses."""
    round_ = round_open(actor=dealer, table=table)
    wager_place(actor=dealer, round=round_, seat=3, amount_cents=2500)
    round_close_betting(actor=dealer, round=round_)
    round_deal(actor=dealer, round=round_, dice=[1, 1, 1])
    hands = {"banker": {"cards": "Qh Qc 8h 5c 3s Js Jd"}, "seats": {"3": LOSES}}
    round_hands_record(actor=dealer, round=round_, hands=hands)
    settle_round(round=round_, actor=dealer, idempotency_key="round-1")


@pytest.mark.django_db
def test_the_open_says_what_the_house_wagers_and_the_panel_keeps_saying_it(rotation, dealer) -> None:
    _seat_3_bets(rotation, dealer)
    client = signed_in(dealer)
    opened = client.post(f"/dealer/tables/{rotation.pk}/open/", {"banker": "3", "bank_cents": "10000"}, **HTMX)
    page = text(opened)
    assert opened.status_code == 200
    assert "Round 2 is open: take the wagers. The house wagers 25.00 against the bank (seat 3&#x27;s last bet)." in page
    assert 'data-house-wager="2500"' in page and "last bet (round 1)" in page
    assert HouseWager.objects.get().amount_cents == 2500


@pytest.mark.django_db
def test_a_bank_too_small_for_the_house_wager_is_refused_in_the_banner_and_nothing_is_written(rotation, dealer):
    _seat_3_bets(rotation, dealer)
    client = signed_in(dealer)
    with nothing_written():
        refused = client.post(f"/dealer/tables/{rotation.pk}/open/", {"banker": "3", "bank_cents": "2000"}, **HTMX)
    assert refused.status_code == 400
    assert "a bank of 20.00 cannot cover it. Put up at least 25.00." in text(refused)
    assert HouseWager.objects.count() == 0


@pytest.mark.django_db
def test_with_no_last_bet_the_tablet_says_the_house_does_not_wager_and_a_stale_house_hand_is_refused(
    rotation, dealer
) -> None:
    client = signed_in(dealer)
    opened = client.post(f"/dealer/tables/{rotation.pk}/open/", {"banker": "3", "bank_cents": "10000"}, **HTMX)
    assert "Seat 3 had no settled wager at this table this shift" in text(opened)
    round_ = Round.objects.get()
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=1000)
    round_close_betting(actor=dealer, round=round_)
    round_deal(actor=dealer, round=round_, dice=[1, 1, 1])
    page = text(client.get(f"/dealer/tables/{rotation.pk}/"))
    assert 'data-group="house"' not in page  # no house hand to tap in
    form = {
        "hand-bank-high": "Qs Qd 8s 5d 3c",
        "hand-bank-low": "Jh Jc",
        "hand-1-high": LOSES["high"],
        "hand-1-low": LOSES["low"],
        "hand-house-cards": "As Ad 7s 4d 2c Kh Kc",  # a stale form from another round: ignored, not the house's
    }
    recorded = client.post(f"/dealer/rounds/{round_.pk}/hands/", form, **HTMX)
    assert recorded.status_code == 200
    assert "house" not in Round.objects.get().hands
