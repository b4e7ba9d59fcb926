"""Who plays a round: the table's dealer, or a Floor supervisor or Pit boss anywhere; an auditor only looks.

Also: a table with a round in play is not closed.
"""

from __future__ import annotations

import pytest

from casino.errors import NotAllowed, WrongState
from casino.roles import Role
from rounds.models import Round
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, void_round, wager_place
from settlement.services import correct_round, settle_round
from tables.models import Table
from tables.services import table_assign_dealer, table_close
from tests.settlement.conftest import BANK, LOSES, PUSHES, WINS

HANDS = {"banker": BANK, "seats": {"1": WINS}}


@pytest.fixture
def other_dealer(make_user):  # type: ignore[no-untyped-def]
    """A Dealer, but not the one working PGP-1."""
    return make_user("olly_other_dealer", Role.DEALER)


@pytest.fixture
def open_round(dealer, shift, pgp_table) -> Round:  # type: ignore[no-untyped-def]
    return round_open(actor=dealer, table=pgp_table)


@pytest.mark.django_db
def test_a_dealer_cannot_take_wagers_at_a_table_that_is_not_theirs(other_dealer, open_round, nothing_written):
    with (
        nothing_written(open_round),
        pytest.raises(NotAllowed, match="Table PGP-1 is not your table: only its dealer or a supervisor may take a"),
    ):
        wager_place(actor=other_dealer, round=open_round, seat=1, amount_cents=1000)


@pytest.mark.django_db
def test_a_dealer_cannot_settle_at_a_table_that_is_not_theirs(
    other_dealer, shift, pgp_table, play_to_hands, nothing_written
) -> None:
    round_ = play_to_hands(pgp_table, wagers={1: 1000}, hands=HANDS)
    with (
        nothing_written(round_),
        pytest.raises(NotAllowed, match="Table PGP-1 is not your table: only its dealer or a supervisor may settle"),
    ):
        settle_round(round=round_, actor=other_dealer, idempotency_key="not-mine")


@pytest.mark.django_db
def test_a_dealer_cannot_move_a_round_at_a_table_that_is_not_theirs(dealer, other_dealer, open_round, nothing_written):
    wager_place(actor=dealer, round=open_round, seat=1, amount_cents=1000)
    with nothing_written(open_round), pytest.raises(NotAllowed, match="may close the betting"):
        round_close_betting(actor=other_dealer, round=open_round)
    round_close_betting(actor=dealer, round=open_round)
    with nothing_written(open_round), pytest.raises(NotAllowed, match="may deal"):
        round_deal(actor=other_dealer, round=open_round, dice=[1, 2, 3])
    round_deal(actor=dealer, round=open_round, dice=[1, 2, 3])
    with nothing_written(open_round), pytest.raises(NotAllowed, match="may enter the hands"):
        round_hands_record(actor=other_dealer, round=open_round, hands=HANDS)


@pytest.mark.django_db
def test_the_dealer_assigned_to_the_table_plays_it_and_the_one_relieved_no_longer_does(
    dealer, other_dealer, pit_boss, pgp_table, open_round
) -> None:
    with pytest.raises(WrongState, match="A round is in play at table"):  # relieved between rounds, never mid-round
        table_assign_dealer(actor=pit_boss, table=pgp_table, dealer=other_dealer)
    void_round(actor=pit_boss, round=open_round, reason="relief")
    table_assign_dealer(actor=pit_boss, table=pgp_table, dealer=other_dealer)
    next_round = round_open(actor=other_dealer, table=pgp_table)
    assert wager_place(actor=other_dealer, round=next_round, seat=1, amount_cents=1000).placed_by == other_dealer
    with pytest.raises(NotAllowed, match="not your table"):
        wager_place(actor=dealer, round=next_round, seat=2, amount_cents=1000)


@pytest.mark.django_db
def test_a_floor_supervisor_may_play_a_round_at_any_table(floor_supervisor, shift, pgp_table, play_to_hands):
    round_ = play_to_hands(pgp_table, wagers={1: 1000}, hands=HANDS, actor=floor_supervisor)
    body = settle_round(round=round_, actor=floor_supervisor, idempotency_key="floor-1")
    assert body["seats"][0]["outcome"] == "win"


@pytest.mark.django_db
def test_an_auditor_cannot_play_any_step_of_a_round(dealer, auditor, open_round, nothing_written) -> None:
    round_ = open_round
    with nothing_written(round_), pytest.raises(NotAllowed, match="Only a Dealer or .* may take a wager."):
        wager_place(actor=auditor, round=round_, seat=1, amount_cents=1000)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=1000)
    with nothing_written(round_), pytest.raises(NotAllowed, match="may close the betting."):
        round_close_betting(actor=auditor, round=round_)
    round_close_betting(actor=dealer, round=round_)
    with nothing_written(round_), pytest.raises(NotAllowed, match="may deal."):
        round_deal(actor=auditor, round=round_, dice=[2, 2, 2])
    round_deal(actor=dealer, round=round_, dice=[2, 2, 2])
    with nothing_written(round_), pytest.raises(NotAllowed, match="may enter the hands."):
        round_hands_record(actor=auditor, round=round_, hands=HANDS)
    round_hands_record(actor=dealer, round=round_, hands=HANDS)
    with nothing_written(round_), pytest.raises(NotAllowed, match="may settle a round."):
        settle_round(round=round_, actor=auditor, idempotency_key="auditor-1")
    with nothing_written(round_), pytest.raises(NotAllowed, match="may void a round."):
        void_round(actor=auditor, round=round_, reason="Looked wrong")
    settle_round(round=round_, actor=dealer, idempotency_key="settle-1")
    corrected = {"banker": BANK, "seats": {"1": PUSHES}}
    with nothing_written(round_), pytest.raises(NotAllowed, match="may correct a settled round."):
        correct_round(actor=auditor, round=round_, hands=corrected, reason="Looked wrong", idempotency_key="aud-2")


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["auditor", "other_dealer"])
def test_retrying_a_used_settlement_key_still_checks_who_asks(
    request, dealer, shift, pgp_table, play_to_hands, persona
):
    actor = request.getfixturevalue(persona)
    round_ = play_to_hands(pgp_table, wagers={1: 1000, 2: 1000}, hands={**HANDS, "seats": {"1": WINS, "2": LOSES}})
    settle_round(round=round_, actor=dealer, idempotency_key="settle-1")
    with pytest.raises(NotAllowed, match="may settle a round"):
        settle_round(round=round_, actor=actor, idempotency_key="settle-1")


# --- closing the table ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_table_with_a_round_in_play_is_not_closed(dealer, pit_boss, pgp_table, open_round, nothing_written):
    wager_place(actor=dealer, round=open_round, seat=1, amount_cents=1000)
    with (
        nothing_written(open_round),
        pytest.raises(WrongState, match="Round 1 at table PGP-1 is still open: settle or void it before closing"),
    ):
        table_close(actor=pit_boss, table=pgp_table)
    assert Table.objects.get(pk=pgp_table.pk).status == "open"


@pytest.mark.django_db
def test_a_table_closes_once_its_round_is_voided(dealer, pit_boss, pgp_table, open_round) -> None:
    wager_place(actor=dealer, round=open_round, seat=1, amount_cents=1000)
    void_round(actor=pit_boss, round=open_round, reason="Table closing early")
    assert table_close(actor=pit_boss, table=pgp_table).status == "closed"
