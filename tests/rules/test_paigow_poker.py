"""Pai Gow Poker settings, fouls and settling (GAME_RULES.md §2, "Setting and fouls", "Settling against the banker").

The house ways themselves are in test_paigow_poker_house_way.py.
"""

from __future__ import annotations

import doctest

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules.games import paigow_poker as pgp
from rules.games.cards import Card, deck, parse_cards
from rules.games.errors import InvalidHand
from rules.games.paigow_poker import Outcome, Setting, house_way, is_foul, outcome
from rules.games.poker import high_hand, low_hand


def test_the_examples_in_the_module_docstrings_hold() -> None:
    assert doctest.testmod(pgp).failed == 0


# --- settings ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hand",
    ["As Kd Qh Jc 9s 5d 2c", "As Ad Kh Kc 7s 4d 2c", "Jk As Ah Ad Ac Kh Kc", "9h 8h 7h 6h 5h 4h 3h"],
    ids=["no pair", "two pairs", "five aces and a pair", "a seven-card straight flush"],
)
def test_seven_cards_can_be_set_twenty_one_ways_each_a_five_and_a_two(hand: str) -> None:
    cards = parse_cards(hand)
    all_settings = pgp.settings(cards)
    assert len(all_settings) == 21 == len(set(all_settings))
    for setting in all_settings:
        assert (len(setting.high), len(setting.low)) == (5, 2)
        assert sorted(setting.cards) == sorted(cards)
    assert len({setting.low for setting in all_settings}) == 21


def test_a_setting_is_the_same_however_its_cards_were_written() -> None:
    assert Setting.parse("7s 4d 2c Ad As", "Kh Kc") == Setting.parse("As Ad 7s 4d 2c", "Kc Kh")
    assert Setting.parse("Ad As 7s 4d 2c", "Kh Kc") in pgp.settings(parse_cards("Kc 2c 4d As 7s Kh Ad"))
    assert str(Setting.parse("7s 4d 2c Ad As", "Kh Kc")) == "high: As Ad 7s 4d 2c, low: Kh Kc"


BAD_SETTINGS = [
    ("As Ad 7s 4d", "Kh Kc 2c", "high hand: 5 cards expected, got 4"),
    ("As Ad 7s 4d 2c", "Kh", "low hand: 2 cards expected, got 1"),
    ("As Ad 7s 4d 2c", "Kh As", "A♠ appears twice"),
    ("As Ad 7s 4d 2c", "Jk Jk", "Joker appears twice"),
]


@pytest.mark.parametrize(("high", "low", "message"), BAD_SETTINGS, ids=[row[2] for row in BAD_SETTINGS])
def test_a_setting_with_the_wrong_cards_is_refused_in_the_dealers_words(high: str, low: str, message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        Setting(parse_cards(high), tuple(Card(t) for t in low.split()))


# --- fouls -------------------------------------------------------------------------------------

FOULS = [
    # high, low, fouled?
    ("Qs Qh 9c 7d 2s", "Jk Kd", False, "a pair of queens over the joker's ace-king"),
    ("Qs Jh 9c 7d 2s", "Jk Kd", True, "queen high under the joker's ace-king"),
    ("Ks Qh 9c 7d 2s", "Ad 3c", True, "king high under ace-three"),
    ("As Qh 9c 7d 2s", "Ad 3c", False, "ace-queen over ace-three"),
    ("As Kh 9c 7d 2s", "Ad Kc", False, "ace-king over ace-king: a tie goes to the high hand"),
    ("8s 8h 7c 5d 2s", "8d 8c", False, "eights over eights: the high hand wins the tie"),
    ("8s 8h 7c 5d 2s", "9d 9c", True, "eights under nines"),
    ("Ts 9h 7c 5d 2s", "2d 2c", True, "ten high under a pair of twos"),
    ("Jk Ks 9s 5s 2s", "Ah Ad", False, "the joker's flush over a pair of aces"),
    ("Jk 9s 8s 7h 6d", "Ah Ad", False, "the joker's straight over a pair of aces"),
    ("Jk Qs 9c 5s 2s", "Ah Kd", True, "the joker as the ace of ace-queen high, under ace-king"),
    ("Jk Ks 9c 5s 2s", "Ah Kd", False, "the joker as the ace of ace-king high, over ace-king low"),
    ("As 2h 3c 4d 5s", "Kh Kd", False, "the wheel over a pair of kings"),
]


@pytest.mark.parametrize(("high", "low", "fouled", "case"), FOULS, ids=[row[3] for row in FOULS])
def test_a_setting_fouls_when_the_low_hand_outranks_the_high_hand(high: str, low: str, fouled: bool, case: str) -> None:
    setting = Setting.parse(high, low)
    assert is_foul(setting) is fouled
    assert is_foul(setting, wheel_second_highest=False, joker_flush_as_ace=True) is fouled


# --- settling ----------------------------------------------------------------------------------

SETTLING = [
    # player high, player low, banker high, banker low, outcome
    ("As Ad 7s 4d 2c", "Kh Kc", "Qs Qd 8s 5d 3c", "Jh Jc", Outcome.WIN, "both hands beat the banker's: a win"),
    ("As Ad 7s 4d 2c", "9h 3c", "Qs Qd 8s 5d 3s", "Jh Jc", Outcome.PUSH, "high wins, low loses: a push"),
    ("Qs Qd 8s 5d 3c", "9h 4c", "As Ad 7s 4d 2c", "Kh Kc", Outcome.LOSS, "both hands lose: a loss"),
    ("Js Jh 9d 7c 3s", "Ah Kd", "Qs Qh 9c 7d 2s", "As Kc", Outcome.LOSS, "high loses, low a copy: banker"),
    ("Qs Qh 9c 7d 2s", "Ah Kd", "Js Jh 9d 7c 3s", "As Kc", Outcome.PUSH, "high wins, low a copy: a push"),
    ("Qs Qh 9c 7d 2s", "Ah Kd", "Qd Qc 9d 7h 2h", "As Ks", Outcome.LOSS, "both hands copies: copies go to the banker"),
    ("Qs Qh 9c 7d 2s", "Ah 5d", "Qd Qc 9d 7h 2h", "Kc 4s", Outcome.PUSH, "high a copy, low wins: a push"),
]


@pytest.mark.parametrize(
    ("player_high", "player_low", "banker_high", "banker_low", "result", "case"), SETTLING, ids=[r[5] for r in SETTLING]
)
def test_a_player_wins_both_hands_to_win_and_copies_go_to_the_banker(
    player_high: str, player_low: str, banker_high: str, banker_low: str, result: Outcome, case: str
) -> None:
    assert outcome(Setting.parse(player_high, player_low), Setting.parse(banker_high, banker_low)) is result


# Kings low under a queen-high hand: fouled. Set by the house way it is a pair of kings high.
FOULED = Setting.parse("Qs Jh 9c 7d 2s", "Kh Kd")
TWO_PAIR_BANK = Setting.parse("Ts Th 8c 8d 3s", "Ac 4c")


def test_a_fouled_player_hand_loses_under_the_forfeit_policy() -> None:
    assert is_foul(FOULED)
    assert outcome(FOULED, TWO_PAIR_BANK) is Outcome.LOSS
    assert outcome(FOULED, TWO_PAIR_BANK, foul_policy="forfeit") is Outcome.LOSS


def test_a_fouled_player_hand_is_reset_by_the_house_way_under_that_policy() -> None:
    assert house_way(FOULED.cards) == Setting.parse("Kh Kd 9c 7d 2s", "Qs Jh")
    # Reset, the kings lose to two pair and queen-jack loses to ace-four: a loss...
    assert outcome(FOULED, TWO_PAIR_BANK, foul_policy="house_way") is Outcome.LOSS
    # ...while against a weaker bank the reset hand wins where the forfeit lost.
    weak_bank = Setting.parse("Ts 8h 6c 5d 3s", "9h 4c")
    assert outcome(FOULED, weak_bank, foul_policy="house_way") is Outcome.WIN
    assert outcome(FOULED, weak_bank, foul_policy="forfeit") is Outcome.LOSS


def test_a_fouled_bank_hand_is_always_reset_by_the_house_way() -> None:
    player = Setting.parse("Ts Th 8c 8d 3s", "Ac 4c")
    # As set, the player's two pair would beat queen high but ace-four lose to kings: a push.
    # Reset by the house way the bank holds kings high and queen-jack low: the player wins.
    assert outcome(player, FOULED) is Outcome.WIN
    assert outcome(player, FOULED, foul_policy="house_way") is Outcome.WIN


def test_the_bank_is_reset_by_the_tables_own_house_way() -> None:
    bank = Setting.parse("5h 5c Qs 4d 2c", "6s 6d")  # sixes low over fives high: fouled
    player = Setting.parse("Ks Kh 9c 8d 3s", "7c 7h")
    # Golden Nugget keeps sixes and fives together with the queen low; Trump Plaza splits them.
    assert house_way(bank.cards) == Setting.parse("6s 6d 5h 5c 2c", "Qs 4d")
    assert house_way(bank.cards, "trump_plaza") == Setting.parse("Qs 6s 6d 4d 2c", "5h 5c")
    assert outcome(player, bank) is Outcome.PUSH  # kings lose to two pair, sevens beat queen-four
    assert outcome(player, bank, way="trump_plaza") is Outcome.WIN  # kings beat sixes, sevens beat fives


def test_a_card_in_both_settings_is_refused() -> None:
    with pytest.raises(InvalidHand, match="A♠ appears twice"):
        outcome(Setting.parse("As Ad 7s 4d 2c", "Kh Kc"), Setting.parse("Qs Qd 8s 5d 3c", "As Jc"))


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ({"foul_policy": "refund"}, "unknown foul policy 'refund': choose one of forfeit, house_way"),
        ({"way": "caesars"}, "unknown house way 'caesars'"),
    ],
    ids=["an unknown foul policy", "an unknown house way"],
)
def test_unknown_settling_options_are_refused_by_name(option: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        outcome(Setting.parse("As Ad 7s 4d 2c", "Kh Kc"), Setting.parse("Qs Qd 8s 5d 3c", "Jh Jc"), **option)  # type: ignore[arg-type]


# --- bad hands ---------------------------------------------------------------------------------

BAD_HANDS = [
    (parse_cards("As Kd Qh Jc 9s 5d"), "7 cards expected, got 6"),
    (parse_cards("As Kd Qh Jc 9s 5d 2c 3c"), "7 cards expected, got 8"),
    ((*parse_cards("As Kd Qh Jc 9s 5d"), Card("As")), "A♠ appears twice"),
    ((*parse_cards("As Kd Qh Jc 9s 5d"), "2c"), "hand: cards expected, got '2c'"),
]


@pytest.mark.parametrize(("hand", "message"), BAD_HANDS, ids=[row[1] for row in BAD_HANDS])
def test_a_bad_hand_is_refused_in_the_dealers_words(hand: tuple[Card, ...], message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        house_way(hand)
    with pytest.raises(InvalidHand, match=message):
        pgp.settings(hand)


# --- invariants --------------------------------------------------------------------------------

fourteen = st.lists(st.sampled_from(deck(joker=True)), min_size=14, max_size=14, unique=True)
picks = st.integers(min_value=0, max_value=20)


@settings(max_examples=400, deadline=None)
@given(cards=fourteen, first=picks, second=picks)
def test_swapping_player_and_banker_flips_win_and_loss_when_no_hand_is_a_copy(
    cards: list[Card], first: int, second: int
) -> None:
    a, b = pgp.settings(cards[:7])[first], pgp.settings(cards[7:])[second]
    assume(not is_foul(a) and not is_foul(b))
    assume(high_hand(a.high) != high_hand(b.high) and low_hand(a.low) != low_hand(b.low))
    flipped = {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN, Outcome.PUSH: Outcome.PUSH}
    assert outcome(b, a) is flipped[outcome(a, b)]


ROTATED = {"s": "d", "h": "c", "d": "s", "c": "h"}
naturals = st.lists(st.sampled_from(deck(joker=False)), min_size=7, max_size=7, unique=True)


@settings(max_examples=200, deadline=None)
@given(cards=naturals, pick=picks)
def test_copies_in_both_hands_go_to_the_banker_whoever_banks(cards: list[Card], pick: int) -> None:
    mirror = [Card(c.rank, ROTATED[c.suit]) for c in cards]  # the same ranks, other suits
    assume(not set(mirror) & set(cards))
    a = pgp.settings(cards)[pick]
    b = Setting(*(tuple(Card(c.rank, ROTATED[c.suit]) for c in cards) for cards in (a.high, a.low)))
    assume(not is_foul(a))
    assert outcome(a, b) is Outcome.LOSS
    assert outcome(b, a) is Outcome.LOSS
