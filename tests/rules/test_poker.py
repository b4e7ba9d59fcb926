"""Poker hand values: the five-card ranking with the joker, the two-card low and
three-card front hands, and the one scale that compares them across sizes."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.games.cards import cards_text, deck, parse_cards
from rules.games.errors import InvalidHand
from rules.games.poker import Category, HandValue, best_hand, front_hand, high_hand, low_hand


def hh(text: str, **options: bool) -> HandValue:
    return high_hand(parse_cards(text), **options)


@pytest.mark.parametrize(
    ("hand", "category", "described"),
    [
        ("As Ac Ad Ah Jk", Category.FIVE_ACES, "five aces"),
        ("As Ks Qs Js Ts", Category.ROYAL_FLUSH, "royal flush"),
        ("As Ks Qs Js Jk", Category.ROYAL_FLUSH, "royal flush"),  # the joker completes the royal
        ("9h 8h 7h 6h 5h", Category.STRAIGHT_FLUSH, "nine-high straight flush"),
        ("Ad 2d 3d 4d 5d", Category.STRAIGHT_FLUSH, "five-high straight flush"),
        ("Kc Kd Kh Ks 2c", Category.FOUR_OF_A_KIND, "four kings"),
        ("Ac Ad Ah Jk 9s", Category.FOUR_OF_A_KIND, "four aces"),  # joker as the fourth ace
        ("Kc Kd Kh Jk 9s", Category.THREE_OF_A_KIND, "three kings"),  # joker only an ace: K K K A 9
        ("Kc Kd Kh 9s 9d", Category.FULL_HOUSE, "full house, kings over nines"),
        ("Kc Kd Jk 9s 9d", Category.TWO_PAIR, "two pair, kings and nines"),  # not a full house: joker is an ace
        ("Ac Ad Jk 9s 9d", Category.FULL_HOUSE, "full house, aces over nines"),
        ("Qh 9h 7h 4h 2h", Category.FLUSH, "queen-high flush"),
        ("Qh 9h 7h 4h Jk", Category.FLUSH, "ace-high flush"),
        ("Th 9c 8d 7s 6h", Category.STRAIGHT, "ten-high straight"),
        ("Th 9c Jk 7s 6h", Category.STRAIGHT, "ten-high straight"),  # the joker fills the 8
        ("As Kc Qd Jh Tc", Category.STRAIGHT, "ace-high straight"),
        ("Ah 2c 3d 4s 5h", Category.STRAIGHT, "five-high straight"),
        ("7c 7d 7h Ks 2d", Category.THREE_OF_A_KIND, "three sevens"),
        ("6c 6d 3h 3s Ad", Category.TWO_PAIR, "two pair, sixes and threes"),
        ("Jc Jd 8h 5s 2d", Category.ONE_PAIR, "pair of jacks"),
        ("Ac Jk 8h 5s 2d", Category.ONE_PAIR, "pair of aces"),  # the joker pairs the ace
        ("Kc Jk 8h 5s 2d", Category.HIGH_CARD, "ace high"),  # a lone joker is an ace
        ("Kc Jd 8h 5s 2d", Category.HIGH_CARD, "king high"),
    ],
)
def test_each_five_card_hand_is_named_as_a_dealer_reads_it(hand: str, category: Category, described: str) -> None:
    value = hh(hand)
    assert value.category is category
    assert value.describe() == described


RANKED_STRONGEST_FIRST = [
    "As Ac Ad Ah Jk",  # five aces
    "As Ks Qs Js Ts",  # royal flush
    "Ad 2d 3d 4d 5d",  # the wheel straight flush, second highest (Pai Gow Poker)
    "Kh Qh Jh Th 9h",  # king-high straight flush
    "2c 2d 2h 2s Ad",  # the lowest quads beat any full house
    "Ac Ad Ah Ks Kd",
    "Ac Kc 9c 5c 3c",  # flush
    "As Kc Qd Jh Tc",  # ace-high straight
    "Ah 2c 3d 4s 5h",  # the wheel, second highest straight
    "Kh Qc Jd Ts 9h",
    "6h 5c 4d 3s 2h",  # the lowest straight
    "Ac Ad Ah Ks Qd",  # trips
    "Ac Ad Ks Kd Qh",  # two pair
    "Ac Ad Ks Qd Jh",  # one pair
    "Ac Kd Qs Jd 9h",  # high card
    "7c 5d 4s 3d 2h",  # the worst hand
]


def test_the_five_card_ranking_runs_from_five_aces_down_to_seven_high() -> None:
    values = [hh(h) for h in RANKED_STRONGEST_FIRST]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)


def test_with_the_wheel_lowest_a_two_to_six_straight_beats_it() -> None:
    assert hh("Ah 2c 3d 4s 5h", wheel_second_highest=False) < hh("6h 5c 4d 3s 2h", wheel_second_highest=False)
    assert hh("Ah 2c 3d 4s 5h", wheel_second_highest=False).describe() == "five-high straight"
    assert hh("Ad 2d 3d 4d 5d", wheel_second_highest=False) < hh("6d 5d 4d 3d 2d", wheel_second_highest=False)


def test_a_joker_completing_a_flush_is_the_highest_missing_rank_unless_the_house_says_ace() -> None:
    assert hh("As Qs 9s 5s Jk").ranks == (14, 13, 12, 9, 5)  # the joker is the king
    assert hh("As Qs 9s 5s Jk", joker_flush_as_ace=True).ranks == (14, 14, 12, 9, 5)
    assert hh("Ks Qs 9s 5s Jk") == hh("Ks Qs 9s 5s Jk", joker_flush_as_ace=True)  # the ace was missing anyway


def test_the_joker_takes_the_highest_straight_it_can_make() -> None:
    assert hh("Jk Kc Qd Jh Tc").describe() == "ace-high straight"
    assert hh("Jk 2c 3d 4h 5c").describe() == "five-high straight"  # the wheel outranks six-high here
    assert hh("Jk 2c 3d 4h 5c", wheel_second_highest=False).describe() == "six-high straight"


def test_suits_never_break_ties_and_equal_hands_are_equal() -> None:
    assert hh("As Kd 9c 7h 3s") == hh("Ac Kh 9d 7s 3c")
    assert hh("Ts 9s 8s 7s 6s") == hh("Th 9h 8h 7h 6h")


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        ("Ks Kd 9c 9h Ac", "Ks Kd 9c 9h Qc"),  # kicker
        ("Ks Kd 9c 9h 2c", "Qs Qd Jc Jh Ac"),  # higher top pair
        ("8s 8d 8c 2h 2s", "7s 7d 7c Ah As"),  # full house by the trips
        ("Ad Kd 9d 7d 3d", "Ah Kh 9h 7h 2h"),  # flushes by the last card
    ],
)
def test_ties_within_a_category_go_to_the_higher_ranks_in_order(stronger: str, weaker: str) -> None:
    assert hh(stronger) > hh(weaker)


@pytest.mark.parametrize(
    ("low", "category", "ranks"),
    [
        ("Ks Kd", Category.ONE_PAIR, (13,)),
        ("Jk Ad", Category.ONE_PAIR, (14,)),  # the joker is an ace
        ("Jk Kd", Category.HIGH_CARD, (14, 13)),  # "ace-king"
        ("2c 7d", Category.HIGH_CARD, (7, 2)),
    ],
)
def test_two_card_hands_are_pairs_or_two_ranks_with_the_joker_an_ace(
    low: str, category: Category, ranks: tuple[int, ...]
) -> None:
    value = low_hand(parse_cards(low))
    assert (value.category, value.ranks) == (category, ranks)


def test_two_card_hands_know_no_straights_or_flushes() -> None:
    assert low_hand(parse_cards("Qs Js")) < low_hand(parse_cards("Kd 2c"))
    assert low_hand(parse_cards("2c 2d")) > low_hand(parse_cards("Ad Ks"))


@pytest.mark.parametrize(
    ("front", "described"),
    [("Qs Qd Qc", "three queens"), ("Qs Qd 5c", "pair of queens"), ("As 9d 5c", "ace high")],
)
def test_three_card_fronts_know_trips_pairs_and_high_cards_only(front: str, described: str) -> None:
    assert front_hand(parse_cards(front)).describe() == described
    assert front_hand(parse_cards("As Ks Qs")).category is Category.HIGH_CARD  # no straight, no flush


@pytest.mark.parametrize(
    ("smaller", "five", "smaller_is_higher"),
    [
        ("Ks Kd", "Qs Qh 9c 7d 2s", True),  # low pair above the high hand's pair: a foul
        ("Ks Kd", "Kc Kh 9c 7d 2s", False),  # equal over the low's two cards: the big hand is higher
        ("As Kd", "Ac Kh 9c 7d 2s", False),
        ("As Kd", "Ac Qh Jc 7d 2s", True),
        ("Ks Qd", "Kc Qh 9c 7d 2s", False),
        ("2s 2d", "As Kd Qh Jc 9s", True),  # any pair beats no pair
        ("Kh Ad 7c", "Ks Kd Qc 7d 3s", False),  # front high card under a middle pair
        ("Kh Kc Ad", "Ks Kd Qc 7d 3s", True),  # KK-A in front over KK-Q-7-3 middle: a foul (GAME_RULES §3)
        ("Kh Kc Qd", "Ks Kd Qc 7d 3s", False),  # equal over the front's three cards
        ("8h 8c 8d", "As Ks Qs Js 9d", True),  # trips over high card
        ("8h 8c 8d", "8s 9s Ts Js Qs", False),  # trips under a straight flush
    ],
)
def test_smaller_hands_compare_with_five_cards_by_category_then_rank_by_rank(
    smaller: str, five: str, smaller_is_higher: bool
) -> None:
    cards = parse_cards(smaller)
    value = low_hand(cards) if len(cards) == 2 else front_hand(cards)
    assert (value > hh(five, wheel_second_highest=len(cards) == 2)) is smaller_is_higher


@pytest.mark.parametrize(
    ("seven", "described", "five"),
    [
        ("Kh Kd Ks 9c 9d 2s 3s", "full house, kings over nines", "Kh Kd Ks 9c 9d"),
        ("As 2s 3s 4s 9s Kd Kc", "ace-high flush", "As 2s 3s 4s 9s"),
        ("Jk 2s 3s 4s 5s Kd Kc", "five-high straight flush", "Jk 2s 3s 4s 5s"),
        ("Jk Ah Ad Ac As 2c 3d", "five aces", "Jk Ah Ad Ac As"),
        ("Qh Qd Qs Qc 9c 9d 9s", "four queens", "Qh Qd Qs Qc 9c"),
        ("Th 9c 8d 7s 6h 5h 4h", "ten-high straight", "Th 9c 8d 7s 6h"),
        ("Jk 7h 7d 3c 3s 2h 2d", "two pair, sevens and threes", "Jk 7h 7d 3c 3s"),
    ],
)
def test_the_best_five_of_seven_and_the_cards_that_make_it(seven: str, described: str, five: str) -> None:
    value, cards = best_hand(parse_cards(seven))
    assert value.describe() == described
    assert cards_text(cards) == five
    assert high_hand(cards) == value


@pytest.mark.parametrize(
    ("call", "cards", "message"),
    [
        (high_hand, "As Kd 9c 7h", "5 cards expected, got 4"),
        (high_hand, "As Kd 9c 7h 2c 3c", "5 cards expected, got 6"),
        (best_hand, "As Kd 9c 7h", "5 to 7 cards expected, got 4"),
        (best_hand, "As Kd 9c 7h 2c 3c 4c 5c", "5 to 7 cards expected, got 8"),
        (low_hand, "As Kd 9c", "2 cards expected, got 3"),
        (front_hand, "As Kd", "3 cards expected, got 2"),
    ],
)
def test_the_wrong_number_of_cards_is_refused(call: object, cards: str, message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        call(parse_cards(cards))  # type: ignore[operator]


@pytest.mark.parametrize("call", [high_hand, best_hand, low_hand, front_hand])
def test_a_card_given_twice_is_refused_by_name(call: object) -> None:
    ace = parse_cards("As")[0]
    size = {high_hand: 5, best_hand: 7, low_hand: 2, front_hand: 3}[call]  # type: ignore[index]
    others = [c for c in deck(joker=False) if c is not ace][: size - 2]
    with pytest.raises(InvalidHand, match="A♠ appears twice"):
        call((ace, *others, ace))  # type: ignore[operator]


def reference_best(cards: tuple, **options: bool) -> HandValue:  # type: ignore[type-arg]
    return max(high_hand(five, **options) for five in itertools.combinations(cards, 5))


OPTIONS = st.fixed_dictionaries({"wheel_second_highest": st.booleans(), "joker_flush_as_ace": st.booleans()})


@settings(max_examples=400, deadline=None)
@given(st.permutations(deck(joker=True)).map(lambda d: d[:7]), st.integers(5, 7), OPTIONS)
def test_best_hand_equals_the_best_of_all_its_five_card_subsets(
    shuffled: tuple,
    size: int,
    options: dict[str, bool],  # type: ignore[type-arg]
) -> None:
    cards = tuple(shuffled[:size])
    value, five = best_hand(cards, **options)
    assert value == reference_best(cards, **options)
    assert len(five) == 5 and set(five) <= set(cards)
    assert high_hand(five, **options) == value


@settings(max_examples=300, deadline=None)
@given(st.permutations(deck(joker=True)).map(lambda d: d[:5]))
def test_the_hand_value_does_not_depend_on_the_order_of_the_cards(cards: tuple) -> None:  # type: ignore[type-arg]
    assert high_hand(cards) == high_hand(tuple(reversed(cards))) == high_hand(tuple(sorted(cards)))


def test_the_per_card_rank_keys_name_every_multiset_of_one_size() -> None:
    from rules.games.cards import RANK_KEYS
    from rules.games.poker import _rank_key, _rank_multisets

    for size in (5, 6, 7):
        multisets = list(_rank_multisets(size, distinct=False))
        assert len({_rank_key(m) for m in multisets}) == len(multisets)
    joker = RANK_KEYS[15]
    assert joker > 4 * RANK_KEYS[14] + 3 * RANK_KEYS[13]  # above any seven natural ranks


@settings(max_examples=300, deadline=None)
@given(st.permutations(deck(joker=True)).map(lambda d: d[:3]))
def test_small_hands_come_from_their_groups_alone(cards: tuple) -> None:  # type: ignore[type-arg]
    from collections import Counter

    ranks = sorted((14 if c.is_joker else c.rank for c in cards), reverse=True)
    counts = Counter(ranks)
    expected_front = {3: Category.THREE_OF_A_KIND, 2: Category.ONE_PAIR, 1: Category.HIGH_CARD}[max(counts.values())]
    assert front_hand(cards).category is expected_front
    low_counts = Counter(14 if c.is_joker else c.rank for c in cards[:2])
    assert low_hand(cards[:2]).category is (Category.ONE_PAIR if len(low_counts) == 1 else Category.HIGH_CARD)
    assert low_hand(cards[:2]).ranks == tuple(sorted(low_counts, key=lambda r: (-low_counts[r], -r)))
