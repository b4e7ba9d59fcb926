"""Settling the banked games: Pai Gow Poker against the house, tiles against a player bank, co-banking.

Every expected amount is worked out by hand in cents from GAME_RULES.md §1 and §2 and
``settlement.compute``'s docstring: a win pays even money (less 5% in Pai Gow Poker), a
loss goes to the bank, a push returns the stake, copies go to the banker.
"""

from __future__ import annotations

import random

import pytest

from casino.errors import ApplicationError, WrongState
from ledger.models import LedgerEntry, Posting
from rounds.models import Round
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from rules.services import rule_set_create
from settlement.services import settle_round
from tests.settlement.conftest import BANK, COPIES_BOTH, LOSES, PUSHES, WINS


def _seat(body: dict, number: int) -> dict:
    (line,) = [line for line in body["seats"] if line["seat"] == number]
    return line


def _settle(round_: Round, actor, key: str = "settle-1") -> dict:  # type: ignore[no-untyped-def]
    return settle_round(round=round_, actor=actor, idempotency_key=key)


# --- Pai Gow Poker, the house banks -------------------------------------------------------------


@pytest.mark.django_db
def test_a_win_pays_even_money_less_five_percent_commission(dealer, shift, pgp_table, play_to_hands, balances):
    round_ = play_to_hands(pgp_table, wagers={1: 2500}, hands={"banker": BANK, "seats": {"1": WINS}})
    body = _settle(round_, dealer)
    assert _seat(body, 1) == {
        "seat": 1,
        "action_place": 1,
        "wager_cents": 2500,
        "outcome": "win",
        "won_cents": 2500,
        "commission_cents": 125,
        "net_cents": 2375,
        "fouled": False,
    }
    assert body["house"] == {"bank_won_cents": -2500, "commission_cents": 125, "rake_cents": 0, "total_cents": -2375}
    assert balances(round_, "player") == {1: 2375}
    assert balances(round_, "house") == {None: -2500}
    assert balances(round_, "commission") == {None: 125}
    assert balances(round_, "wagers") == {None: 0}


@pytest.mark.django_db
def test_a_win_is_posted_as_the_stake_back_the_banks_payout_and_the_commission(
    dealer, shift, pgp_table, play_to_hands, entries
):
    round_ = play_to_hands(pgp_table, wagers={1: 2500}, hands={"banker": BANK, "seats": {"1": WINS}})
    _settle(round_, dealer)
    wager = Posting.objects.get(round_id=round_.pk, kind="wager")
    settlement = Posting.objects.get(round_id=round_.pk, kind="settlement")
    assert entries(wager) == [("player", 1, -2500, "wager"), ("wagers", None, 2500, "wager")]
    assert entries(settlement) == [
        ("wagers", None, -2500, "payout"),
        ("player", 1, 2500, "payout"),
        ("house", None, -2500, "payout"),
        ("player", 1, 2500, "payout"),
        ("player", 1, -125, "commission"),
        ("commission", None, 125, "commission"),
    ]
    for posting in (wager, settlement):
        assert sum(amount for _, _, amount, _ in entries(posting)) == 0
    assert set(LedgerEntry.objects.filter(posting=settlement).values_list("idempotency_key", flat=True)) == {"settle-1"}


@pytest.mark.django_db
def test_a_push_returns_the_stake_and_takes_no_commission(dealer, shift, pgp_table, play_to_hands, entries, balances):
    round_ = play_to_hands(pgp_table, wagers={2: 2500}, hands={"banker": BANK, "seats": {"2": PUSHES}})
    body = _settle(round_, dealer)
    line = _seat(body, 2)
    assert (line["outcome"], line["commission_cents"], line["net_cents"]) == ("push", 0, 0)
    assert entries(Posting.objects.get(round_id=round_.pk, kind="settlement")) == [
        ("wagers", None, -2500, "payout"),
        ("player", 2, 2500, "payout"),
    ]
    assert balances(round_, "player") == {2: 0}
    assert body["house"]["total_cents"] == 0


@pytest.mark.django_db
def test_a_loss_goes_to_the_house(dealer, shift, pgp_table, play_to_hands, entries, balances) -> None:
    round_ = play_to_hands(pgp_table, wagers={3: 2500}, hands={"banker": BANK, "seats": {"3": LOSES}})
    body = _settle(round_, dealer)
    assert (_seat(body, 3)["outcome"], _seat(body, 3)["net_cents"]) == ("loss", -2500)
    assert entries(Posting.objects.get(round_id=round_.pk, kind="settlement")) == [
        ("wagers", None, -2500, "bank"),
        ("house", None, 2500, "bank"),
    ]
    assert balances(round_, "player") == {3: -2500}
    assert body["house"] == {"bank_won_cents": 2500, "commission_cents": 0, "rake_cents": 0, "total_cents": 2500}


@pytest.mark.django_db
def test_copies_go_to_the_banker(dealer, shift, pgp_table, play_to_hands, balances) -> None:
    round_ = play_to_hands(pgp_table, wagers={4: 2500}, hands={"banker": BANK, "seats": {"4": COPIES_BOTH}})
    body = _settle(round_, dealer)
    assert _seat(body, 4)["outcome"] == "loss"
    assert balances(round_, "house") == {None: 2500}


@pytest.mark.django_db
def test_one_hand_won_and_the_other_copied_is_a_push(dealer, shift, pgp_table, play_to_hands) -> None:
    aces_over_copied_jacks = {"high": "Ah Ac 9c 7h 6s", "low": "Js Jd"}
    round_ = play_to_hands(pgp_table, wagers={4: 2500}, hands={"banker": BANK, "seats": {"4": aces_over_copied_jacks}})
    assert _seat(_settle(round_, dealer), 4)["outcome"] == "push"


@pytest.mark.django_db
def test_every_seat_is_settled_against_the_bank_in_one_balanced_posting(
    dealer, shift, pgp_table, play_to_hands, balances, entries
):
    hands = {"banker": BANK, "seats": {"1": WINS, "2": PUSHES, "3": LOSES}}
    round_ = play_to_hands(pgp_table, wagers={1: 2500, 2: 1000, 3: 5000}, hands=hands)
    body = _settle(round_, dealer)
    assert {line["seat"]: line["outcome"] for line in body["seats"]} == {1: "win", 2: "push", 3: "loss"}
    assert balances(round_, "player") == {1: 2375, 2: 0, 3: -5000}
    # The house: +5000 from seat 3, -2500 to seat 1, +125 commission.
    assert body["house"] == {"bank_won_cents": 2500, "commission_cents": 125, "rake_cents": 0, "total_cents": 2625}
    assert sum(amount for _, _, amount, _ in entries(Posting.objects.get(round_id=round_.pk, kind="settlement"))) == 0
    assert balances(round_, "wagers") == {None: 0}


@pytest.mark.django_db
def test_the_house_sets_its_hand_by_the_house_way_when_given_the_seven_cards(
    dealer, shift, pgp_table, play_to_hands
) -> None:
    unset = {"cards": "Jh Qs 3c Jc 8s Qd 5d"}
    round_ = play_to_hands(pgp_table, wagers={1: 2500}, hands={"banker": unset, "seats": {"1": WINS}})
    banker = Round.objects.get(pk=round_.pk).hands["banker"]
    # Golden Nugget: two pair, queens and jacks, no ace: split them, the jacks low.
    assert (banker["high"], banker["low"], banker["set_by"]) == ("Qs Qd 8s 5d 3c", "Jh Jc", "house_way")
    assert _seat(_settle(round_, dealer), 1)["outcome"] == "win"


# A setting that fouls (kings high under aces low) but wins when set by the house way (aces high, kings low).
FOULED = {"high": "Kh Kc 9c 7h 5s", "low": "Ah Ac"}


@pytest.mark.django_db
def test_a_fouled_hand_loses_its_wager_under_the_forfeit_policy(dealer, shift, pgp_table, play_to_hands, balances):
    assert pgp_table.rule_set.options["foul_policy"] == "forfeit"
    round_ = play_to_hands(pgp_table, wagers={5: 2500}, hands={"banker": BANK, "seats": {"5": FOULED}})
    assert Round.objects.get(pk=round_.pk).hands["seats"]["5"]["fouled"] is True
    line = _seat(_settle(round_, dealer), 5)
    assert (line["outcome"], line["fouled"], line["net_cents"]) == ("loss", True, -2500)
    assert balances(round_, "house") == {None: 2500}


@pytest.mark.django_db
def test_a_fouled_hand_is_set_by_the_house_way_under_that_policy(
    dealer, pit_boss, shift, make_table, play_to_hands
) -> None:
    rules = rule_set_create(actor=pit_boss, name="PGP re-set fouls", game="paigow_poker", foul_policy="house_way")
    table = make_table(name="PGP-5", game="paigow_poker", seat_count=6, rule_set=rules)
    round_ = play_to_hands(table, wagers={5: 2500}, hands={"banker": BANK, "seats": {"5": FOULED}})
    line = _seat(_settle(round_, dealer), 5)
    assert (line["outcome"], line["fouled"], line["net_cents"]) == ("win", True, 2375)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("rounding", "commission"),
    [
        ("cent_down", 125),  # 5% of 25.10 is 1.255
        ("cent_up", 126),
        ("quarter_down", 125),
        ("quarter_up", 150),
        ("whole_unit", 100),
    ],
)
def test_the_rounding_policy_sets_the_commission_on_an_odd_win(
    dealer, pit_boss, shift, make_table, play_to_hands, balances, rounding, commission
):
    rules = rule_set_create(actor=pit_boss, name=f"PGP {rounding}", game="paigow_poker", commission_rounding=rounding)
    table = make_table(name="PGP-R", game="paigow_poker", seat_count=6, rule_set=rules)
    round_ = play_to_hands(table, wagers={1: 2510}, hands={"banker": BANK, "seats": {"1": WINS}})
    line = _seat(_settle(round_, dealer), 1)
    assert (line["won_cents"], line["commission_cents"], line["net_cents"]) == (2510, commission, 2510 - commission)
    assert balances(round_, "commission") == {None: commission}


# --- Pai Gow tiles, a player banks ---------------------------------------------------------------

# Seat 3 banks with 8 points high (Ping and a mixed eight) and 2 points low.
TILES_BANK = {"high": "6-4 5-3", "low": "5-2 4-1"}
TILES_WIN = {"high": "4-4 6-5", "low": "3-3 6-3"}  # 9 points over 8, 5 points over 2
TILES_WIN_TOO = {"high": "5-5 5-5", "low": "4-4 3-1"}  # a pair of Mooys, 2 points Yun over 2 points seven
TILES_LOSE = {"high": "5-1 6-2", "low": "3-2 4-3"}  # 4 points under 8, 2 points seven under 2 points seven


@pytest.fixture
def tiles_table(pit_boss, make_table):  # type: ignore[no-untyped-def]
    rules = rule_set_create(actor=pit_boss, name="Tiles rotation", game="paigow_tiles", banking_mode="player_rotation")
    return make_table(name="PG-1", game="paigow_tiles", seat_count=6, rule_set=rules)


# Seat 3 banks and rolls 1+2+3 = 6: counting seat 3 as one, counter-clockwise, seat 5 gets the first stack.
DICE = (1, 2, 3)
ORDER = [5, 4, 3, 2, 1, 0, 6]


@pytest.mark.django_db
def test_a_player_bank_settles_in_the_dice_order_until_it_cannot_cover_the_next_wager(
    dealer, shift, tiles_table, play_to_hands, balances
):
    hands = {"banker": TILES_BANK, "seats": {"5": TILES_WIN, "2": TILES_WIN_TOO, "1": TILES_LOSE}}
    round_ = play_to_hands(
        tiles_table, wagers={1: 1000, 2: 2000, 5: 4000}, hands=hands, dice=DICE, banker_seat=3, bank_cents=5000
    )
    assert round_.action_order == ORDER
    body = _settle(round_, dealer)
    # Seat 5 wins 40.00 and leaves 10.00 in the bank: seat 2's 20.00 is more than that, so it and seat 1
    # after it (10.00, which the bank could have covered) get their stakes back.
    assert [(line["seat"], line["action_place"], line["outcome"], line["net_cents"]) for line in body["seats"]] == [
        (5, 1, "win", 4000),
        (2, 2, "no_action", 0),
        (1, 3, "no_action", 0),
    ]
    assert body["bank"] == {
        "seat": 3,
        "bank_cents": 5000,
        "covers_cents": 5000,
        "co_banking": False,
        "won_cents": -4000,
        "commission_cents": 0,
        "net_cents": -4000,
    }
    assert balances(round_, "player") == {1: 0, 2: 0, 5: 4000}
    assert balances(round_, "banker") == {3: -4000}
    assert balances(round_, "wagers") == {None: 0}
    assert not LedgerEntry.objects.filter(round_id=round_.pk, account__in=["house", "commission"]).exists()


@pytest.mark.django_db
def test_the_player_banker_pays_five_percent_of_the_banks_net_win_and_players_pay_none(
    dealer, shift, tiles_table, play_to_hands, balances
):
    hands = {"banker": TILES_BANK, "seats": {"5": TILES_LOSE, "2": TILES_WIN}}
    round_ = play_to_hands(
        tiles_table, wagers={2: 2000, 5: 3000}, hands=hands, dice=DICE, banker_seat=3, bank_cents=5000
    )
    body = _settle(round_, dealer)
    assert [(line["seat"], line["outcome"], line["commission_cents"]) for line in body["seats"]] == [
        (5, "loss", 0),
        (2, "win", 0),
    ]
    # The bank takes 30.00 from seat 5 and pays 20.00 to seat 2: a net win of 10.00, 5% of it to the house.
    assert (body["bank"]["won_cents"], body["bank"]["commission_cents"], body["bank"]["net_cents"]) == (1000, 50, 950)
    assert body["house"] == {"bank_won_cents": 0, "commission_cents": 50, "rake_cents": 0, "total_cents": 50}
    assert balances(round_, "player") == {2: 2000, 5: -3000}
    assert balances(round_, "banker") == {3: 950}
    assert balances(round_, "commission") == {None: 50}


@pytest.mark.django_db
def test_the_banker_does_not_wager(dealer, shift, tiles_table, nothing_written) -> None:
    round_ = round_open(actor=dealer, table=tiles_table, banker_seat=3, bank_cents=5000)
    with nothing_written(round_), pytest.raises(ApplicationError, match="Seat 3 holds the bank this round"):
        wager_place(actor=dealer, round=round_, seat=3, amount_cents=1000)


@pytest.mark.django_db
def test_a_wager_the_player_bank_cannot_cover_is_refused_when_it_is_placed(
    dealer, shift, tiles_table, nothing_written
) -> None:
    round_ = round_open(actor=dealer, table=tiles_table, banker_seat=3, bank_cents=5000)
    with (
        nothing_written(round_),
        pytest.raises(ApplicationError, match=r"The bank \(seat 3\) covers 50.00: a wager of 50.01 is more") as refused,
    ):
        wager_place(actor=dealer, round=round_, seat=1, amount_cents=5001)
    assert refused.value.extra["covers_cents"] == 5000
    assert wager_place(actor=dealer, round=round_, seat=1, amount_cents=5000).amount_cents == 5000


# --- Pai Gow Poker, co-banking --------------------------------------------------------------------


@pytest.fixture
def co_bank_table(pit_boss, make_table):  # type: ignore[no-untyped-def]
    rules = rule_set_create(actor=pit_boss, name="PGP co-banking", game="paigow_poker", banking_mode="co_banking")
    return make_table(name="PGP-C", game="paigow_poker", seat_count=6, rule_set=rules)


def _house_round_with_a_wager(actor, table, seat: int, amount: int) -> None:  # type: ignore[no-untyped-def]
    """A round the house banks, in which ``seat`` wagers ``amount``: the co-banker's last wager."""
    round_ = round_open(actor=actor, table=table)
    wager_place(actor=actor, round=round_, seat=seat, amount_cents=amount)
    round_close_betting(actor=actor, round=round_)
    round_deal(actor=actor, round=round_, auto=True, rng=random.Random(7))
    round_hands_record(actor=actor, round=round_, hands={})
    settle_round(round=round_, actor=actor, idempotency_key=f"house-round-{round_.pk}")


@pytest.mark.django_db
def test_co_banking_splits_every_result_half_to_the_player_banker_and_half_and_the_odd_cent_to_the_house(
    dealer, shift, co_bank_table, play_to_hands, balances
):
    _house_round_with_a_wager(dealer, co_bank_table, seat=2, amount=2000)
    hands = {"banker": BANK, "seats": {"4": WINS, "1": LOSES}}
    round_ = play_to_hands(co_bank_table, wagers={1: 3001, 4: 1001}, hands=hands, banker_seat=2, bank_cents=2200)
    body = _settle(round_, dealer, key="co-bank")
    assert [(line["seat"], line["outcome"], line["commission_cents"], line["net_cents"]) for line in body["seats"]] == [
        (4, "win", 50, 951),  # 5% of 10.01 is 0.5005: 50 cents
        (1, "loss", 0, -3001),
    ]
    # Seat 4's 10.01: 5.00 from the player bank, 5.01 from the house. Seat 1's 30.01: 15.00 and 15.01.
    # The player bank's net win, 15.00 - 5.00 = 10.00, pays 5%: 0.50.
    assert body["bank"] == {
        "seat": 2,
        "bank_cents": 2200,
        "covers_cents": 4400,
        "co_banking": True,
        "won_cents": 1000,
        "commission_cents": 50,
        "net_cents": 950,
    }
    assert body["house"] == {"bank_won_cents": 1000, "commission_cents": 100, "rake_cents": 0, "total_cents": 1100}
    assert balances(round_, "player") == {1: -3001, 4: 951}
    assert balances(round_, "banker") == {2: 950}
    assert balances(round_, "house") == {None: 1000}
    assert balances(round_, "commission") == {None: 100}


@pytest.mark.django_db
def test_a_co_banker_banks_at_most_their_last_wager_plus_ten_percent(dealer, shift, co_bank_table) -> None:
    _house_round_with_a_wager(dealer, co_bank_table, seat=2, amount=2000)
    rounds = Round.objects.count()
    with pytest.raises(ApplicationError, match=r"Seat 2's last wager was 20.00: .* at most 22.00 .* not 22.01") as no:
        round_open(actor=dealer, table=co_bank_table, banker_seat=2, bank_cents=2201)
    assert no.value.extra["most_cents"] == 2200
    assert Round.objects.count() == rounds
    round_ = round_open(actor=dealer, table=co_bank_table, banker_seat=2, bank_cents=2200)
    assert (round_.bank_seat.number, round_.bank_cents) == (2, 2200)


@pytest.mark.django_db
def test_a_seat_that_never_wagered_cannot_co_bank(dealer, shift, co_bank_table) -> None:
    _house_round_with_a_wager(dealer, co_bank_table, seat=2, amount=2000)
    rounds = Round.objects.count()
    with pytest.raises(WrongState, match="Seat 5 has not wagered at table PGP-C yet"):
        round_open(actor=dealer, table=co_bank_table, banker_seat=5, bank_cents=1000)
    assert Round.objects.count() == rounds


@pytest.mark.django_db
def test_co_banking_the_bank_covers_wagers_up_to_twice_what_the_player_put_up(
    dealer, shift, co_bank_table, nothing_written
) -> None:
    _house_round_with_a_wager(dealer, co_bank_table, seat=2, amount=2000)
    round_ = round_open(actor=dealer, table=co_bank_table, banker_seat=2, bank_cents=2200)
    with nothing_written(round_), pytest.raises(ApplicationError, match="covers 44.00: a wager of 44.01"):
        wager_place(actor=dealer, round=round_, seat=1, amount_cents=4401)
    assert wager_place(actor=dealer, round=round_, seat=1, amount_cents=4400).amount_cents == 4400
