"""A correction request on a round with the house's wager against a player bank, as the pit reviews it:
the house's hand, entered unset and stored set by the house way, is marked changed only when its cards changed."""

from __future__ import annotations

import pytest

from pit.corrections import correction_review
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from rules.services import rule_set_create
from settlement.services import adjustment_request, settle_round
from tests.settlement.conftest import BANK, LOSES


def _play(table, dealer, *, banker: int | None, wagers: dict[int, int], hands: dict, key: str):  # type: ignore[no-untyped-def]
    round_ = round_open(actor=dealer, table=table, banker_seat=banker, bank_cents=10_000 if banker else None)
    for seat, amount in wagers.items():
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=amount)
    round_close_betting(actor=dealer, round=round_)
    round_deal(actor=dealer, round=round_, dice=[1, 1, 1])
    round_ = round_hands_record(actor=dealer, round=round_, hands=hands)
    settle_round(round=round_, actor=dealer, idempotency_key=key)
    return round_


@pytest.mark.django_db
def test_the_review_marks_the_house_hand_changed_only_when_its_cards_changed(pit_boss, dealer, make_table, shift):
    rules = rule_set_create(actor=pit_boss, name="PGP rotation", game="paigow_poker", banking_mode="player_rotation")
    table = make_table(name="PGP-R", game="paigow_poker", seat_count=6, rule_set=rules)
    _play(table, dealer, banker=None, wagers={3: 2500}, hands={"banker": {"cards": "Qh Qc 8h 5c 3s Js Jd"},
          "seats": {"3": LOSES}}, key="r1")  # fmt: skip
    house = {"cards": "As Ad 7s 4d 2c Kh Kc"}
    round_ = _play(table, dealer, banker=3, wagers={1: 1000}, hands={"banker": BANK, "house": house,
                   "seats": {"1": LOSES}}, key="r2")  # fmt: skip
    seat_only = adjustment_request(
        actor=dealer,
        round=round_,
        kind="correction",
        reason="Seat 1's hand was keyed wrong",
        hands={"banker": BANK, "house": house, "seats": {"1": {"high": "Ts Td 9h 6c 2d", "low": "9d 4h"}}},
    )
    assert correction_review(adjustment=seat_only).changed == frozenset({"1"})
    assert [hand.key for hand in correction_review(adjustment=seat_only).settled] == ["bank", "1", "house"]
