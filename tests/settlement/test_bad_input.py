"""Bad input is refused in the dealer's words, and a refusal writes nothing.

Each test checks that no wager, posting, ledger entry or audit event was written and the
round is as it was (state, dice, hands and the rest): the ``nothing_written`` fixture.
"""

from __future__ import annotations

import random

import pytest

from casino.errors import ApplicationError, WrongState
from rounds.models import Round
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from settlement.services import settle_round
from tests.settlement.conftest import BANK, LOSES, WINS


@pytest.fixture
def open_round(dealer, shift, pgp_table) -> Round:  # type: ignore[no-untyped-def]
    return round_open(actor=dealer, table=pgp_table)


@pytest.fixture
def dealt_round(dealer, open_round) -> Round:  # type: ignore[no-untyped-def]
    """Seats 1 and 2 wager 25.00 each; the dice are rolled; the hands are not in yet."""
    for seat in (1, 2):
        wager_place(actor=dealer, round=open_round, seat=seat, amount_cents=2500)
    round_close_betting(actor=dealer, round=open_round)
    return round_deal(actor=dealer, round=open_round, dice=[3, 4, 5])


# --- wagers ---------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(("amount", "shown"), [(999, "9.99"), (50001, "500.01")])
def test_a_wager_outside_the_table_limits_is_refused(dealer, open_round, nothing_written, amount, shown) -> None:
    with (
        nothing_written(open_round),
        pytest.raises(ApplicationError, match=f"A wager at table PGP-1 is 10.00 to 500.00, not {shown}."),
    ):
        wager_place(actor=dealer, round=open_round, seat=1, amount_cents=amount)


@pytest.mark.django_db
def test_a_seat_wagers_once_a_round(dealer, open_round, nothing_written) -> None:
    wager_place(actor=dealer, round=open_round, seat=2, amount_cents=1000)
    with (
        nothing_written(open_round),
        pytest.raises(WrongState, match="Seat 2 already has a wager of 10.00 on round 1."),
    ):
        wager_place(actor=dealer, round=open_round, seat=2, amount_cents=2000)


@pytest.mark.django_db
def test_no_wager_is_taken_once_the_betting_is_closed(dealer, open_round, nothing_written) -> None:
    wager_place(actor=dealer, round=open_round, seat=2, amount_cents=1000)
    round_close_betting(actor=dealer, round=open_round)
    with (
        nothing_written(open_round),
        pytest.raises(WrongState, match="Betting is closed on round 1: it is betting_closed.") as refused,
    ):
        wager_place(actor=dealer, round=open_round, seat=3, amount_cents=1000)
    assert refused.value.status_code == 409


@pytest.mark.django_db
@pytest.mark.parametrize("seat", [0, 7])
def test_a_wager_on_a_seat_the_table_does_not_have_is_refused(dealer, open_round, nothing_written, seat) -> None:
    with nothing_written(open_round), pytest.raises(ApplicationError, match=f"PGP-1 has seats 1 to 6, not {seat}."):
        wager_place(actor=dealer, round=open_round, seat=seat, amount_cents=1000)


@pytest.mark.django_db
@pytest.mark.parametrize("amount", ["25.00", 2500.0, True])
def test_a_wager_is_a_whole_number_of_cents(dealer, open_round, nothing_written, amount) -> None:
    with nothing_written(open_round), pytest.raises(ApplicationError, match="The amount cents is a whole number"):
        wager_place(actor=dealer, round=open_round, seat=1, amount_cents=amount)


@pytest.mark.django_db
def test_the_betting_does_not_close_without_a_wager(dealer, open_round, nothing_written) -> None:
    with nothing_written(open_round), pytest.raises(WrongState, match="Round 1 needs a wager before the betting"):
        round_close_betting(actor=dealer, round=open_round)


# --- the dice -------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ([0, 3, 4], "Dice: a die shows 1 to 6, not 0."),
        ([1, 7, 4], "Dice: a die shows 1 to 6, not 7."),
        ([1, 2], "Dice: 3 dice expected, got 2."),
    ],
)
def test_dice_out_of_range_are_refused(dealer, open_round, nothing_written, dice, message) -> None:
    wager_place(actor=dealer, round=open_round, seat=1, amount_cents=1000)
    round_close_betting(actor=dealer, round=open_round)
    with nothing_written(open_round), pytest.raises(ApplicationError, match=message.replace(".", r"\.")):
        round_deal(actor=dealer, round=open_round, dice=dice)


# --- the hands ------------------------------------------------------------------------------------


def _hands(**seats):  # type: ignore[no-untyped-def]
    return {"banker": BANK, "seats": {"1": WINS, "2": LOSES, **seats}}


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        pytest.param(
            _hands(**{"2": {"high": "Ts Td 9h 6c", "low": "9d 2d"}}),
            "Seat 2, high hand: 5 cards expected, got 4",
            id="a card short",
        ),
        pytest.param(
            _hands(**{"2": {"high": "Ts Td 9h 6c 4h", "low": "9d 2d 3h"}}),
            "Seat 2, low hand: 2 cards expected, got 3",
            id="a card over",
        ),
        pytest.param(
            _hands(**{"2": {"high": "Ts Td 9h 6c 4h", "low": "Kh 2d"}}),
            r"K♥ is used 2 times \(Seat 1, Seat 2\); the deck has one.",
            id="one card in two seats",
        ),
        pytest.param(
            _hands(**{"2": {"high": "Ts Td 9h 6c 4h", "low": "Qs 2d"}}),
            r"Q♠ is used 2 times \(Seat 2, the bank\); the deck has one.",
            id="one card in a seat and the bank",
        ),
        pytest.param(
            _hands(**{"2": {"high": "Ts Td 9h 6c 4h", "low": "9x 2d"}}),
            "Seat 2, low hand: '9x' is not a card",
            id="unknown notation",
        ),
        pytest.param(
            _hands(**{"4": {"high": "Ks Kd 9s 6d 3d", "low": "8h 7c"}}),
            r"Seat 4 has no wager in this round \(seats in play: 1, 2\).",
            id="a seat without a wager",
        ),
        pytest.param(
            {"banker": BANK, "seats": {"1": WINS}},
            "Seat 2's hand is missing.",
            id="a seat's hand missing",
        ),
        pytest.param(
            {"seats": {"1": WINS, "2": LOSES}},
            "The bank's hand is missing",
            id="the bank's hand missing",
        ),
        pytest.param(
            _hands(**{"2": {"high": "Ts Td 9h 6c 4h"}}),
            "Seat 2: the low hand is missing",
            id="a low hand missing",
        ),
    ],
)
@pytest.mark.django_db
def test_bad_hands_are_refused_saying_where_the_problem_is(dealer, dealt_round, nothing_written, hands, message):
    with nothing_written(dealt_round), pytest.raises(ApplicationError, match=message):
        round_hands_record(actor=dealer, round=dealt_round, hands=hands)


@pytest.mark.django_db
def test_when_the_system_dealt_the_hands_entered_must_be_the_cards_dealt(dealer, open_round, nothing_written):
    wager_place(actor=dealer, round=open_round, seat=1, amount_cents=1000)
    round_close_betting(actor=dealer, round=open_round)
    round_ = round_deal(actor=dealer, round=open_round, auto=True, rng=random.Random(11))
    dealt = round_.dealt["1"]
    with nothing_written(round_), pytest.raises(ApplicationError, match=f"Seat 1 was dealt {dealt}; the hand entered"):
        round_hands_record(actor=dealer, round=round_, hands={"seats": {"1": WINS}})


@pytest.mark.django_db
def test_a_round_is_not_settled_before_its_hands_are_in(dealer, dealt_round, nothing_written) -> None:
    with (
        nothing_written(dealt_round),
        pytest.raises(WrongState, match="A round goes from dealt to revealed, not to settled."),
    ):
        settle_round(round=dealt_round, actor=dealer, idempotency_key="too-soon")
