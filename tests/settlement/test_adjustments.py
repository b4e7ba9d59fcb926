"""A dealer asks for a void or a correction; a supervisor approves it (and it is done) or rejects it."""

from __future__ import annotations

import pytest

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.models import AuditEvent
from ledger.models import LedgerEntry, Posting
from ledger.verify import ledger_verify
from rounds.models import Adjustment, Round
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from settlement.services import adjustment_approve, adjustment_reject, adjustment_request, settle_round

BANKER = {"high": "Qs Qd 8s 5d 3c", "low": "Jh Jc"}
WINNER = {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"}
# The same seven cards set badly: the low hand (aces) above the high hand (kings) fouls and loses.
FOULED = {"high": "Kh Kc 7s 4d 2c", "low": "As Ad"}


@pytest.fixture
def table(make_table):
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


def _revealed(dealer, table, seat_hand) -> Round:
    round_ = round_open(actor=dealer, table=table)
    wager_place(actor=dealer, round=round_, seat=3, amount_cents=2000)
    round_close_betting(actor=dealer, round=round_)
    round_deal(actor=dealer, round=round_, dice=[1, 1, 1])
    return round_hands_record(actor=dealer, round=round_, hands={"banker": BANKER, "seats": {"3": seat_hand}})


def _player(round_: Round) -> int:
    return sum(LedgerEntry.objects.filter(round_id=round_.pk, account="player").values_list("amount_cents", flat=True))


@pytest.mark.django_db
def test_a_void_asked_by_the_dealer_is_done_when_a_supervisor_approves(dealer, floor_supervisor, shift, table):
    round_ = _revealed(dealer, table, WINNER)
    asked = adjustment_request(actor=dealer, round=round_, kind="void", reason="Card exposed on the deal")
    assert (asked.status, Round.objects.get(pk=round_.pk).state) == ("pending", "revealed")
    approved = adjustment_approve(actor=floor_supervisor, adjustment=asked, note="Seen on camera")
    assert (approved.status, approved.decided_by, approved.posting.kind) == ("approved", floor_supervisor, "void")
    stored = Round.objects.get(pk=round_.pk)
    assert (stored.state, stored.void_reason) == ("voided", "Card exposed on the deal")
    assert _player(round_) == 0
    assert ledger_verify().ok
    assert AuditEvent.objects.filter(event_type="adjustment.void_approved").count() == 1


@pytest.mark.django_db
def test_a_correction_asked_by_the_dealer_reverses_and_settles_again_when_approved(dealer, pit_boss, shift, table):
    round_ = _revealed(dealer, table, FOULED)
    settle_round(round=round_, actor=dealer, idempotency_key="first")
    assert _player(round_) == -2000  # the fouled hand lost
    asked = adjustment_request(
        actor=dealer,
        round=round_,
        kind="correction",
        reason="Hands keyed in swapped",
        hands={"banker": BANKER, "seats": {"3": WINNER}},
    )
    approved = adjustment_approve(actor=pit_boss, adjustment=asked)
    assert approved.posting.corrects.idempotency_key == "first"
    assert _player(round_) == 2000 - 100  # a win less 5%
    assert Posting.objects.filter(round_id=round_.pk, kind="reversal").count() == 1
    assert ledger_verify().ok


@pytest.mark.django_db
def test_a_rejected_request_leaves_the_round_as_it_was(dealer, pit_boss, shift, table) -> None:
    round_ = _revealed(dealer, table, WINNER)
    asked = adjustment_request(actor=dealer, round=round_, kind="void", reason="Player says misdeal")
    with pytest.raises(ApplicationError, match="Say why the request is rejected."):
        adjustment_reject(actor=pit_boss, adjustment=asked, note=" ")
    rejected = adjustment_reject(actor=pit_boss, adjustment=asked, note="Deal was fine")
    assert (rejected.status, Round.objects.get(pk=round_.pk).state) == ("rejected", "revealed")
    with pytest.raises(WrongState, match="already rejected"):
        adjustment_approve(actor=pit_boss, adjustment=asked)


@pytest.mark.django_db
def test_a_dealer_cannot_approve_and_one_request_waits_at_a_time(dealer, shift, table) -> None:
    round_ = _revealed(dealer, table, WINNER)
    asked = adjustment_request(actor=dealer, round=round_, kind="void", reason="Misdeal")
    with pytest.raises(NotAllowed, match="may approve a void or a correction"):
        adjustment_approve(actor=dealer, adjustment=asked)
    with pytest.raises(WrongState, match="already has a request waiting"):
        adjustment_request(actor=dealer, round=round_, kind="void", reason="Again")
    assert Adjustment.objects.count() == 1


@pytest.mark.django_db
def test_requests_are_checked_when_asked(dealer, auditor, shift, table) -> None:
    round_ = _revealed(dealer, table, WINNER)
    with pytest.raises(ApplicationError, match="with a reason"):
        adjustment_request(actor=dealer, round=round_, kind="void", reason="")
    with pytest.raises(WrongState, match="only a settled round is corrected"):
        adjustment_request(actor=dealer, round=round_, kind="correction", reason="Typo", hands={"seats": {}})
    with pytest.raises(NotAllowed):
        adjustment_request(actor=auditor, round=round_, kind="void", reason="Because")
    settle_round(round=round_, actor=dealer, idempotency_key="k")
    with pytest.raises(WrongState, match="Round 1 is settled: it cannot be voided."):
        adjustment_request(actor=dealer, round=round_, kind="void", reason="Too late")
    with pytest.raises(ApplicationError, match="Seat 3, high hand: 5 cards expected, got 4"):
        adjustment_request(
            actor=dealer,
            round=round_,
            kind="correction",
            reason="Typo",
            hands={"banker": BANKER, "seats": {"3": {"high": "As Ad 7s 4d", "low": "Kh Kc"}}},
        )
    assert not Adjustment.objects.exists()
