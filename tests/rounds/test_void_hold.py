"""A round under a void request is on hold: nothing more is played until a supervisor decides.

Dana (the table's dealer) asks for a void; until Paula (the pit boss) approves or rejects it, no wager is taken,
the betting does not close, nothing is dealt, no hands are recorded and the round does not settle: each refused
with a 409 that says why, and nothing written. Approving voids the round; rejecting lets play go on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from casino.errors import WrongState
from casino.models import AuditEvent
from ledger.models import Posting
from rounds.models import Adjustment, Round, Wager
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from settlement.services import adjustment_approve, adjustment_reject, adjustment_request, settle_round
from tables.models import Table
from tests.settlement.conftest import BANK, LOSES, WINS

HANDS = {"banker": BANK, "seats": {"1": WINS, "3": LOSES}}
pytestmark = pytest.mark.usefixtures("shift")


def _ask_void(dealer: Any, round_: Round) -> Adjustment:
    return adjustment_request(actor=dealer, round=round_, kind=Adjustment.Kind.VOID, reason="Misdeal")


def _written() -> tuple[int, int, int]:
    return Wager.objects.count(), Posting.objects.count(), AuditEvent.objects.count()


@pytest.mark.django_db
def test_no_wager_is_taken_while_a_void_of_the_round_waits_for_a_supervisor(pgp_table: Table, dealer: Any) -> None:
    round_ = round_open(actor=dealer, table=pgp_table)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=2500)
    _ask_void(dealer, round_)
    before = _written()
    with pytest.raises(WrongState) as refused:
        wager_place(actor=dealer, round=round_, seat=3, amount_cents=1000)
    assert refused.value.message == ("A void of round 1 is waiting for a supervisor: no wagers until it is decided.")
    assert refused.value.status_code == 409
    assert _written() == before


@pytest.mark.django_db
def test_closing_the_betting_and_dealing_wait_for_the_void_decision(pgp_table: Table, dealer: Any) -> None:
    round_ = round_open(actor=dealer, table=pgp_table)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=2500)
    _ask_void(dealer, round_)
    with pytest.raises(WrongState, match="waiting for a supervisor: nothing more is played"):
        round_close_betting(actor=dealer, round=round_)
    round_.refresh_from_db()
    assert round_.state == "open"


@pytest.mark.django_db
def test_the_deal_waits_for_the_void_decision(pgp_table: Table, dealer: Any) -> None:
    round_ = round_open(actor=dealer, table=pgp_table)
    for seat, cents in ((1, 2500), (3, 1000)):
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=cents)
    round_close_betting(actor=dealer, round=round_)
    _ask_void(dealer, round_)
    with pytest.raises(WrongState, match="void of round 1 is waiting"):
        round_deal(actor=dealer, round=round_, dice=[1, 2, 3])
    round_.refresh_from_db()
    assert round_.state == "betting_closed"


@pytest.mark.django_db
def test_a_revealed_round_under_a_void_request_neither_takes_new_hands_nor_settles(
    pgp_table: Table, dealer: Any, play_to_hands: Callable[..., Round]
) -> None:
    round_ = play_to_hands(pgp_table, wagers={1: 2500, 3: 1000}, hands=HANDS)
    _ask_void(dealer, round_)
    before = _written()
    with pytest.raises(WrongState, match="waiting for a supervisor"):
        round_hands_record(actor=dealer, round=round_, hands=HANDS)
    with pytest.raises(WrongState, match="waiting for a supervisor"):
        settle_round(round=round_, actor=dealer, idempotency_key="hold-1")
    assert _written() == before
    round_.refresh_from_db()
    assert round_.state == "revealed"


@pytest.mark.django_db
def test_approving_the_void_voids_the_held_round(pgp_table: Table, dealer: Any, pit_boss: Any) -> None:
    round_ = round_open(actor=dealer, table=pgp_table)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=2500)
    adjustment_approve(actor=pit_boss, adjustment=_ask_void(dealer, round_))
    round_.refresh_from_db()
    assert round_.state == "voided"


@pytest.mark.django_db
def test_a_rejected_void_lets_play_go_on(pgp_table: Table, dealer: Any, pit_boss: Any) -> None:
    round_ = round_open(actor=dealer, table=pgp_table)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=2500)
    adjustment_reject(actor=pit_boss, adjustment=_ask_void(dealer, round_), note="Dice were fine")
    wager_place(actor=dealer, round=round_, seat=3, amount_cents=1000)
    round_close_betting(actor=dealer, round=round_)
    round_.refresh_from_db()
    assert round_.state == "betting_closed" and round_.wagers.count() == 2
