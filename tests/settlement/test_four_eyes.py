"""Four eyes on voids and corrections (DESIGN.md, "Trust"): whoever asked for a void or a correction, or dealt or
settled the round, cannot approve it, and a correction needs a second supervisor. Only a one-supervisor room
(``TABLESIDE_FOUR_EYES=0``) relaxes it.

The personas: Dana deals PGP-1; Fred is a Floor supervisor, Paula the Pit boss; Sam deals and supervises.
"""

from __future__ import annotations

import pytest

from casino.errors import NotAllowed
from casino.roles import Role
from ledger.models import LedgerEntry, Posting
from ledger.verify import ledger_verify
from rounds.models import Adjustment, Round
from rounds.services import round_open, void_round, wager_place
from rounds.services.voids import four_eyes_required, round_party
from settlement.services import adjustment_approve, adjustment_reject, adjustment_request, correct_round, settle_round
from settlement.services.corrections import correction_submit
from tests.settlement.conftest import BANK, LOSES, PUSHES, WINS

HANDS = {"banker": BANK, "seats": {"1": WINS, "2": LOSES}}
# Seat 2's cards were keyed wrong: it held the pushing hand.
CORRECTED = {"banker": BANK, "seats": {"1": WINS, "2": PUSHES}}


@pytest.fixture
def sam(make_user):  # type: ignore[no-untyped-def]
    """Deals some shifts and supervises others: both roles at once."""
    return make_user("sam_both", Role.DEALER, Role.FLOOR_SUPERVISOR)


@pytest.fixture
def revealed(shift, pgp_table, play_to_hands) -> Round:  # type: ignore[no-untyped-def]
    """Dana's round: seat 1 wins 25.00, seat 2 loses 10.00."""
    return play_to_hands(pgp_table, wagers={1: 2500, 2: 1000}, hands=HANDS)


@pytest.fixture
def settled(dealer, revealed) -> Round:  # type: ignore[no-untyped-def]
    settle_round(round=revealed, actor=dealer, idempotency_key="settle-1")
    return Round.objects.get(pk=revealed.pk)


def _still_pending(asked: Adjustment) -> bool:
    return Adjustment.objects.get(pk=asked.pk).status == Adjustment.Status.PENDING


def _settlement_in_force(round_: Round) -> int:
    return Posting.objects.get(round_id=round_.pk, kind="settlement", reversed_by__isnull=True).pk


# --- who may approve ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_four_eyes_are_on_unless_the_room_turns_them_off(settings) -> None:  # type: ignore[no-untyped-def]
    assert four_eyes_required() is True
    settings.TABLESIDE_FOUR_EYES = False
    assert four_eyes_required() is False


@pytest.mark.django_db
def test_the_supervisor_who_asked_for_a_void_cannot_approve_it_another_can(
    floor_supervisor, pit_boss, revealed, nothing_written
) -> None:
    asked = adjustment_request(actor=floor_supervisor, round=revealed, kind="void", reason="Card exposed")
    with (
        nothing_written(revealed),
        pytest.raises(NotAllowed, match="^You asked for this void: another supervisor approves it.$"),
    ):
        adjustment_approve(actor=floor_supervisor, adjustment=asked)
    assert _still_pending(asked)
    approved = adjustment_approve(actor=pit_boss, adjustment=asked)
    assert (approved.status, approved.decided_by) == ("approved", pit_boss)
    assert Round.objects.get(pk=revealed.pk).state == "voided"


@pytest.mark.django_db
def test_the_supervisor_who_asked_for_a_correction_cannot_approve_it_another_can(
    floor_supervisor, pit_boss, settled, nothing_written, balances
) -> None:
    asked = correction_submit(
        actor=pit_boss, round=settled, hands=CORRECTED, reason="Seat 2 keyed wrong", idempotency_key="fix-1"
    ).request
    assert asked is not None and (asked.kind, asked.requested_by) == ("correction", pit_boss)
    with (
        nothing_written(settled),
        pytest.raises(NotAllowed, match="^You asked for this correction: another supervisor approves it.$"),
    ):
        adjustment_approve(actor=pit_boss, adjustment=asked)
    assert _still_pending(asked)
    approved = adjustment_approve(actor=floor_supervisor, adjustment=asked)
    assert approved.posting.actor == floor_supervisor
    assert balances(settled, "player") == {1: 2375, 2: 0}
    assert ledger_verify().ok


@pytest.mark.django_db
def test_the_supervisor_who_settled_the_round_cannot_approve_its_correction(
    dealer, pit_boss, floor_supervisor, shift, pgp_table, play_to_hands, nothing_written
) -> None:
    # The pit boss ran PGP-1 while Dana was on break, and settled the round.
    round_ = play_to_hands(pgp_table, wagers={1: 2500, 2: 1000}, hands=HANDS)
    settle_round(round=round_, actor=pit_boss, idempotency_key="settle-1")
    asked = adjustment_request(
        actor=dealer, round=round_, kind="correction", reason="Seat 2 keyed wrong", hands=CORRECTED
    )
    with (
        nothing_written(round_),
        pytest.raises(NotAllowed, match="^You settled round 1: another supervisor approves its correction.$"),
    ):
        adjustment_approve(actor=pit_boss, adjustment=asked)
    assert _still_pending(asked)
    assert adjustment_approve(actor=floor_supervisor, adjustment=asked).status == "approved"


@pytest.mark.django_db
def test_who_corrected_a_round_cannot_approve_its_next_correction(
    dealer, pit_boss, floor_supervisor, settled, nothing_written
) -> None:
    first = adjustment_request(actor=dealer, round=settled, kind="correction", reason="Seat 2", hands=CORRECTED)
    adjustment_approve(actor=pit_boss, adjustment=first)
    again = adjustment_request(actor=dealer, round=settled, kind="correction", reason="Back as it was", hands=HANDS)
    with nothing_written(settled), pytest.raises(NotAllowed, match="You settled round 1"):
        adjustment_approve(actor=pit_boss, adjustment=again)
    adjustment_approve(actor=floor_supervisor, adjustment=again)
    assert Posting.objects.filter(round_id=settled.pk, kind="reversal").count() == 2


@pytest.mark.django_db
def test_a_dealer_who_is_also_a_supervisor_cannot_approve_what_they_asked_for(
    sam, pit_boss, shift, pgp_table, play_to_hands, nothing_written
) -> None:
    round_ = play_to_hands(pgp_table, wagers={1: 2500, 2: 1000}, hands=HANDS, actor=sam)
    asked = adjustment_request(actor=sam, round=round_, kind="void", reason="Misdeal")
    with nothing_written(round_), pytest.raises(NotAllowed, match="You asked for this void"):
        adjustment_approve(actor=sam, adjustment=asked)
    assert _still_pending(asked)
    assert adjustment_approve(actor=pit_boss, adjustment=asked).status == "approved"


@pytest.mark.django_db
def test_a_supervisor_who_dealt_the_round_cannot_approve_its_void(
    dealer, sam, floor_supervisor, shift, pgp_table, play_to_hands, nothing_written
) -> None:
    round_ = play_to_hands(pgp_table, wagers={1: 2500, 2: 1000}, hands=HANDS, actor=sam)
    asked = adjustment_request(actor=dealer, round=round_, kind="void", reason="Card exposed")
    with (
        nothing_written(round_),
        pytest.raises(NotAllowed, match="^You dealt round 1: another supervisor approves its void.$"),
    ):
        adjustment_approve(actor=sam, adjustment=asked)
    assert adjustment_approve(actor=floor_supervisor, adjustment=asked).status == "approved"


# --- a supervisor's own void or correction -----------------------------------------------------------


@pytest.mark.django_db
def test_a_supervisor_voids_a_round_they_did_not_deal_at_once(floor_supervisor, revealed) -> None:
    void_round(actor=floor_supervisor, round=revealed, reason="Deck one card short")
    assert Round.objects.get(pk=revealed.pk).state == "voided"


@pytest.mark.django_db
def test_a_supervisor_who_dealt_the_round_asks_another_to_void_it(sam, shift, pgp_table, nothing_written) -> None:
    round_ = round_open(actor=sam, table=pgp_table)
    wager_place(actor=sam, round=round_, seat=1, amount_cents=2500)
    with (
        nothing_written(round_),
        pytest.raises(NotAllowed, match="^You dealt round 1: ask for the void; another supervisor approves it.$"),
    ):
        void_round(actor=sam, round=round_, reason="Misdeal")


@pytest.mark.django_db
def test_a_supervisor_who_only_took_a_wager_is_a_party_to_the_round(
    dealer, floor_supervisor, pit_boss, shift, pgp_table
) -> None:
    round_ = round_open(actor=dealer, table=pgp_table)
    assert round_party(user=floor_supervisor, round=round_) is None
    wager_place(actor=floor_supervisor, round=round_, seat=1, amount_cents=2500)
    assert round_party(user=floor_supervisor, round=round_) == "dealt"
    assert round_party(user=pit_boss, round=round_) is None
    with pytest.raises(NotAllowed, match="You dealt round 1"):
        void_round(actor=floor_supervisor, round=round_, reason="Misdeal")


@pytest.mark.django_db
def test_one_supervisor_cannot_correct_a_round_alone(pit_boss, settled, nothing_written) -> None:
    in_force = _settlement_in_force(settled)
    with (
        nothing_written(settled),
        pytest.raises(NotAllowed, match="^A correction needs a second supervisor: ask for it, and another supervisor"),
    ):
        correct_round(actor=pit_boss, round=settled, hands=CORRECTED, reason="Seat 2", idempotency_key="fix-1")
    with nothing_written(settled), pytest.raises(NotAllowed, match="You asked for this correction"):
        correct_round(
            actor=pit_boss,
            round=settled,
            hands=CORRECTED,
            reason="Seat 2",
            idempotency_key="fix-1",
            requested_by=pit_boss,
        )
    assert _settlement_in_force(settled) == in_force


@pytest.mark.django_db
def test_a_supervisors_correction_is_a_request_and_moves_no_money(pit_boss, settled, balances) -> None:
    before = (Posting.objects.count(), LedgerEntry.objects.count(), balances(settled, "player"))
    done = correction_submit(
        actor=pit_boss, round=settled, hands=CORRECTED, reason="Seat 2 keyed wrong", idempotency_key="fix-1"
    )
    assert done.settlement is None and done.request is not None
    assert (done.request.status, done.request.hands["seats"]["2"]) == ("pending", PUSHES)
    assert (Posting.objects.count(), LedgerEntry.objects.count(), balances(settled, "player")) == before
    assert balances(settled, "player") == {1: 2375, 2: -1000}
    stored = Round.objects.get(pk=settled.pk)
    assert (stored.state, stored.hands["seats"]["2"]["high"]) == ("settled", LOSES["high"])


@pytest.mark.django_db
def test_only_a_supervisor_corrects_even_by_asking(dealer, settled) -> None:
    with pytest.raises(NotAllowed, match="may correct a settled round"):
        correction_submit(actor=dealer, round=settled, hands=CORRECTED, reason="Seat 2", idempotency_key="fix-1")
    assert not Adjustment.objects.exists()


# --- rejecting ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_who_asked_may_withdraw_their_own_request(floor_supervisor, revealed) -> None:
    asked = adjustment_request(actor=floor_supervisor, round=revealed, kind="void", reason="Card exposed")
    withdrawn = adjustment_reject(actor=floor_supervisor, adjustment=asked, note="Seen again: it was not exposed")
    assert (withdrawn.status, withdrawn.decided_by) == ("rejected", floor_supervisor)
    assert Round.objects.get(pk=revealed.pk).state == "revealed"


@pytest.mark.django_db
def test_who_settled_the_round_cannot_dismiss_a_request_to_correct_it(
    dealer, pit_boss, floor_supervisor, shift, pgp_table, play_to_hands
) -> None:
    round_ = play_to_hands(pgp_table, wagers={1: 2500, 2: 1000}, hands=HANDS)
    settle_round(round=round_, actor=pit_boss, idempotency_key="settle-1")
    asked = adjustment_request(
        actor=dealer, round=round_, kind="correction", reason="Seat 2 keyed wrong", hands=CORRECTED
    )
    with pytest.raises(NotAllowed, match="^You settled round 1: another supervisor decides this request.$"):
        adjustment_reject(actor=pit_boss, adjustment=asked, note="It was right")
    assert _still_pending(asked)
    assert adjustment_reject(actor=floor_supervisor, adjustment=asked, note="It was right").status == "rejected"


# --- a one-supervisor room ------------------------------------------------------------------------


@pytest.mark.django_db
def test_in_a_one_supervisor_room_one_supervisor_asks_and_approves(settings, pit_boss, revealed) -> None:  # type: ignore[no-untyped-def]
    settings.TABLESIDE_FOUR_EYES = False
    asked = adjustment_request(actor=pit_boss, round=revealed, kind="void", reason="Card exposed")
    assert adjustment_approve(actor=pit_boss, adjustment=asked).status == "approved"


@pytest.mark.django_db
def test_in_a_one_supervisor_room_the_supervisor_who_settled_corrects_at_once(
    settings, pit_boss, shift, pgp_table, play_to_hands, balances
) -> None:  # type: ignore[no-untyped-def]
    settings.TABLESIDE_FOUR_EYES = False
    round_ = play_to_hands(pgp_table, wagers={1: 2500, 2: 1000}, hands=HANDS, actor=pit_boss)
    settle_round(round=round_, actor=pit_boss, idempotency_key="settle-1")
    done = correction_submit(
        actor=pit_boss, round=round_, hands=CORRECTED, reason="Seat 2 keyed wrong", idempotency_key="fix-1"
    )
    assert done.request is None and done.settlement is not None
    assert balances(round_, "player") == {1: 2375, 2: 0}
    assert not Adjustment.objects.exists()
    assert ledger_verify().ok
