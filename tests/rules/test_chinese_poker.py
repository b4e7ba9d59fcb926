"""Chinese Poker arrangements, fouls, royalties, naturals and the swap (GAME_RULES.md §3).

Scoring is in test_chinese_poker_score.py.
"""

from __future__ import annotations

import doctest
import itertools
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules.games import chinese_poker as cp
from rules.games.cards import CARDS, JOKER, Card, parse_cards
from rules.games.chinese_poker import Arrangement, Natural, is_foul, natural, natural_arrangement, royalties, swap
from rules.games.errors import InvalidHand
from rules.games.poker import Category, front_hand, high_hand


def arr(text: str) -> Arrangement:
    """``"front / middle / back"`` in card notation."""
    front, middle, back = text.split("/")
    return Arrangement.parse(front, middle, back)


def test_the_examples_in_the_module_docstrings_hold() -> None:
    assert doctest.testmod(cp).failed == 0


# --- arrangements ------------------------------------------------------------------------------


def test_an_arrangement_holds_its_thirteen_cards_front_middle_back() -> None:
    hand = arr("Qs Tc 5h / Ah Ac 2h 2c 4d / 3s 3h 3d 3c 6h")
    assert hand.cards == parse_cards("Qs Tc 5h Ah Ac 2h 2c 4d 3s 3h 3d 3c 6h")
    assert hand == Arrangement(parse_cards("Qs Tc 5h"), parse_cards("Ah Ac 2h 2c 4d"), parse_cards("3s 3h 3d 3c 6h"))
    assert str(hand) == "front: Qs Tc 5h, middle: Ah Ac 2h 2c 4d, back: 3s 3h 3d 3c 6h"


BAD_ARRANGEMENTS = [
    (
        parse_cards("As Kd"),
        parse_cards("Qh Jc 9s 5d 2c"),
        parse_cards("8s 7d 6h 4c 3s"),
        "front: 3 cards expected, got 2",
    ),
    (parse_cards("As Kd Qh"), parse_cards("Jc 9s 5d 2c"), parse_cards("8s 7d 6h 4c 3s"), "middle: 5 cards expected"),
    (parse_cards("As Kd Qh"), parse_cards("Jc 9s 5d 2c 2d"), parse_cards("8s 7d 6h 4c 3s 3h"), "back: 5 cards expect"),
    (parse_cards("As Kd Qh"), parse_cards("Jc 9s 5d 2c As"), parse_cards("8s 7d 6h 4c 3s"), "A♠ appears twice"),
    (parse_cards("As Kd Qh"), parse_cards("Jc 9s 5d 2c Jk"), parse_cards("8s 7d 6h 4c 3s"), "without the joker"),
    (
        parse_cards("As Kd Qh"),
        ("Jc", *parse_cards("9s 5d 2c 2d")),
        parse_cards("8s 7d 6h 4c 3s"),
        "cards expected, got",
    ),
]


@pytest.mark.parametrize(("front", "middle", "back", "message"), BAD_ARRANGEMENTS, ids=[r[3] for r in BAD_ARRANGEMENTS])
def test_an_arrangement_with_the_wrong_cards_is_refused_in_the_dealers_words(
    front: tuple[Card, ...], middle: tuple[Card, ...], back: tuple[Card, ...], message: str
) -> None:
    with pytest.raises(InvalidHand, match=message):
        Arrangement(front, middle, back)


# --- fouls -------------------------------------------------------------------------------------

FOULS = [
    ("Kh Kd As / Ks Kc Qd 7h 3s / 9s 9h 9c 2d 2h", True, "KK-A in front over KK-Q-7-3 in the middle"),
    ("Kh Kd 2s / Ks Kc Qd 7h 3s / 9s 9h 9c 2d 2h", False, "KK-2 in front under KK-Q-7-3 in the middle"),
    ("Qs Qd 5c / Qh Qc 5s 3d 2c / Ah Kh 8h 6h 3h", False, "a front equal over its three cards is below the middle"),
    ("2s 4h 5d / As Kd 9h 7c 3s / Ah Kc 9d 7s 3h", False, "a middle equal to the back is allowed"),
    ("Ts 8h 7d / 6s 5h 4c 3d 2c / Ah 5d 4s 3c 2h", True, "the wheel is the lowest straight: below a six-high one"),
    ("2s 3h 4d / 7s 7h 7c Kd 2c / Ah Ad 5d 5s 9h", True, "trips in the middle over two pair in the back"),
    ("7s 7h 7c / Ks Kd 9c 9h 2c / Ah Ad As 5s 5h", True, "trips in front over two pair in the middle"),
    ("7s 7h 7c / Ks Kd Kc 9h 2c / Ah Ad As 5s 5h", False, "sevens in front under kings in the middle"),
    (
        "Ah Kh Qh / Ac Kd 9c 7h 2c / Qs Jd 9s 6h 4d",
        True,
        "a three-card flush and straight are only high cards, still over",
    ),
]


@pytest.mark.parametrize(("hand", "fouled", "why"), FOULS, ids=[r[2] for r in FOULS])
def test_rows_must_not_descend_from_back_to_front(hand: str, fouled: bool, why: str) -> None:
    assert is_foul(arr(hand)) is fouled


@settings(max_examples=300, deadline=None)
@given(st.permutations(CARDS))
def test_a_foul_is_exactly_the_card_engine_comparison_with_the_wheel_lowest(deck: list[Card]) -> None:
    front, middle, back = tuple(deck[:3]), tuple(deck[3:8]), tuple(deck[8:13])
    m, b = high_hand(middle, wheel_second_highest=False), high_hand(back, wheel_second_highest=False)
    assert is_foul(Arrangement(front, middle, back)) is (front_hand(front) > m or m > b)
    assert Arrangement(front, middle, back).values == (front_hand(front), m, b)


# --- royalties ---------------------------------------------------------------------------------

ROYALTIES = [
    ("5s 5h 5d / Kh Kd Kc 9s 2d / As Ad Ac 4h 4s", 3, "three of a kind in front: 3"),
    ("2s 3h 4d / Kh Kd Kc 9s 9d / Ah As Ad 5c 5s", 1, "a full house in the middle: 1"),
    ("2s 3h 4d / Ks Kh Qd Qc 7s / 9s 9h 9d 9c 2c", 3, "four of a kind in the back: 3"),
    ("2s 3h 4d / 9s 9h 9d 9c 2c / Js Jh Jd Jc 3c", 6, "four of a kind in the middle and the back: 3 + 3"),
    ("2s 3h 4d / Ks Kh Qd Qc 7s / 9c 8c 7c 6c 5c", 4, "a straight flush in the back: 4"),
    ("Js 3h 6c / Ks Kh Qd Qc 7s / 5d 4d 3d 2d Ad", 4, "a five-high straight flush in the back: 4"),
    (
        "2s 3h 4d / 9c 8c 7c 6c 5c / As Ks Qs Js Ts",
        9,
        "a straight flush in the middle, a royal flush in the back: 4 + 5",
    ),
    ("2s 3h 4d / Ks Kc Qd Qc 7s / Ah Kh Qh Jh Th", 5, "a royal flush in the back: 5"),
    ("2s 3h 4d / Ah Kh Qh Jh Th / As Ks Qs Js Ts", 10, "royal flushes in the middle and the back: 5 + 5"),
    ("Qs Qh 4d / Ks Kh Qd Qc 7s / Ac Kc 9c 6c 5c", 0, "a pair in front, two pair, a flush: nothing"),
    ("2s 3h 4d / Ks Kh Qd Qc 7s / Ah Ac As 5c 5s", 0, "a full house in the back: nothing"),
    ("5s 5h 5d / Kh Qd Jc Ts 9d / As Ad Ac Ah 4s", 6, "trips in front, quads in the back: 3 + 3"),
    ("5s 5h 5d / Kh Kd 9c 8s 2d / As Ad Ac Ah 4s", 0, "trips over a pair: fouled, so nothing"),
]


@pytest.mark.parametrize(("hand", "points", "why"), ROYALTIES, ids=[r[2] for r in ROYALTIES])
def test_each_royalty_of_the_seed_table(hand: str, points: int, why: str) -> None:
    assert royalties(arr(hand)) == royalties(arr(hand), "seed") == points


def test_royalties_can_be_switched_off_and_an_unknown_table_is_refused() -> None:
    hand = arr("5s 5h 5d / Kh Kd Kc 2s 2d / As Ks Qs Js Ts")
    assert royalties(hand) == 9
    assert royalties(hand, None) == royalties(hand, "none") == 0
    assert (
        royalties(hand, cp.RoyaltyTable("fronts only", front={Category.THREE_OF_A_KIND: 10}, middle={}, back={})) == 10
    )
    with pytest.raises(InvalidHand, match="no royalty table 'vegas'"):
        royalties(hand, "vegas")


# --- naturals ----------------------------------------------------------------------------------

NATURALS = [
    ("2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As", "six pairs", 6),
    ("2s 2h 2d 2c 7s 7h 9d 9c Js Jh Kd Kc As", "six pairs", 6),  # four of a kind counts as two pairs
    ("2s 2h 2d 5c 5s 7h 7d 9c 9s Jh Jd Kc Ks", "six pairs", 6),  # three of a kind holds a pair
    ("Ks Js 4s Kc Qc 8c 7c 5c Ad Qd 9d 6d 2d", "three flushes", 3),  # 3 spades, 5 clubs, 5 diamonds (the seed)
    ("2h 4h 6h 8h Th Qh Ah 3h 2c 5c 9c Jc Kc", "three flushes", 3),  # 8 hearts: front and a row, 5 clubs
    ("2s 3s 5s 6s 8s 9s Js Qs Ks As 2d 4d 7d", "three flushes", 3),  # 10 spades: two rows, 3 diamonds
    ("Ks Qh Jd Tc 9s Th 9d 8c 7s 6h 3d 2c Ah", "three straights", 3),  # the seed: KQJT9, T9876, 32A
    ("Qs Kh Ad 2c 3s 4h 5d 6c 5s 6h 7d 8c 9s", "three straights", 3),  # Q-K-A in front
    ("Jh Qd Kc As 2h 3d 4c 5s 5h 6d 7c 8s 9h", "three straights", 3),  # the wheel is a straight
    ("As 2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks", "13-card straight", 13),
    ("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", "13-card royal flush", 50),
    ("2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Qc As", None, 0),  # five pairs
    ("2s 4s 6s 8s Ts Qs 3h 5h 7h 9h 2c 4c Kc", None, 0),  # suits 6-4-3 do not split 3/5/5
    ("Jh Qd Kc As 2h 3d 4c 5s 5h 6d 7c 8s Th", None, 0),  # one card off three straights
    ("8s 8h 8d Kh Qh Jd Th 9h 7s 7h 7d Ts Td", None, 0),  # the seed's player 1
    ("Qs Tc 5h Ah Ac 2h 2c 4d 3s 3h 3d 3c 6h", None, 0),  # the seed's player 3
]


def _is_straight(ranks: list[int]) -> bool:
    low = sorted(1 if r == 14 else r for r in ranks)
    high = sorted(ranks)
    return any(len(set(s)) == len(s) and s[-1] - s[0] == len(s) - 1 for s in (low, high))


def _rows_split(cards: tuple[Card, ...], ok: object) -> bool:
    """Whether some 3/5/5 setting makes every row pass ``ok`` (a plain search over the settings)."""
    assert callable(ok)
    for front in itertools.combinations(cards, 3):
        if not ok(front):
            continue
        rest = [c for c in cards if c not in front]
        for middle in itertools.combinations(rest, 5):
            if ok(middle) and ok([c for c in rest if c not in middle]):
                return True
    return False


def brute_naturals(cards: tuple[Card, ...]) -> set[Natural]:
    """Every natural the 13 cards hold, found the slow, plain way."""
    ranks = [c.rank for c in cards]
    found = set()
    if sum(n // 2 for n in Counter(ranks).values()) >= 6:
        found.add(cp.SIX_PAIRS)
    if len(set(ranks)) == 13:
        found.add(cp.THIRTEEN_CARD_STRAIGHT)
        if len({c.suit for c in cards}) == 1:
            found.add(cp.THIRTEEN_CARD_ROYAL_FLUSH)
    if _rows_split(cards, lambda row: len({c.suit for c in row}) == 1):
        found.add(cp.THREE_FLUSHES)
    if _rows_split(cards, lambda row: _is_straight([c.rank for c in row])):
        found.add(cp.THREE_STRAIGHTS)
    return found


@pytest.mark.parametrize(("hand", "name", "points"), NATURALS, ids=[f"{r[1]}: {r[0]}" for r in NATURALS])
def test_each_natural_and_its_points(hand: str, name: str | None, points: int) -> None:
    cards = parse_cards(hand)
    found = natural(cards)
    assert (found.name, found.points) == (name, points) if found else name is None
    best = max(brute_naturals(cards), key=lambda n: n.points, default=None)
    assert (best.points if best else 0) == points


@pytest.mark.parametrize("hand", [r[0] for r in NATURALS if r[1] != "six pairs"])
def test_a_natural_made_of_rows_can_be_shown_as_a_legal_setting(hand: str) -> None:
    cards = parse_cards(hand)
    shown = natural_arrangement(cards)
    if natural(cards) is None:
        assert shown is None
        return
    assert shown is not None
    assert sorted(shown.cards) == sorted(cards)
    assert not is_foul(shown)
    rows = (shown.front, shown.middle, shown.back)
    flushes = all(len({c.suit for c in row}) == 1 for row in rows)
    straights = all(_is_straight([c.rank for c in row]) for row in rows)
    assert flushes or straights


def test_the_highest_natural_counts_when_several_apply() -> None:
    royal = parse_cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh")
    assert brute_naturals(royal) == {
        cp.THIRTEEN_CARD_ROYAL_FLUSH,
        cp.THIRTEEN_CARD_STRAIGHT,
        cp.THREE_FLUSHES,
        cp.THREE_STRAIGHTS,
    }
    assert natural(royal) == Natural("13-card royal flush", 50)
    pairs_and_flushes = parse_cards("2s 3s 4s 5s 6s 2h 3h 4h 5h 7h 6d 7d 9d")  # and three flushes
    assert brute_naturals(pairs_and_flushes) == {cp.SIX_PAIRS, cp.THREE_FLUSHES}
    assert natural(pairs_and_flushes) == cp.SIX_PAIRS
    shown = natural_arrangement(pairs_and_flushes)
    assert (
        shown is not None and [len({c.suit for c in row}) for row in (shown.front, shown.middle, shown.back)] == [1] * 3
    )


def test_natural_wants_thirteen_distinct_cards() -> None:
    with pytest.raises(InvalidHand, match="13 cards expected, got 12"):
        natural(parse_cards("2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc"))
    with pytest.raises(InvalidHand, match="2♠ appears twice"):
        natural((*parse_cards("2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc"), Card("2s")))
    with pytest.raises(InvalidHand, match="without the joker"):
        natural((*parse_cards("2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc"), JOKER))


# Hands near the row-made naturals: three straights or three flushes dealt, then perhaps one card changed.
WINDOWS3 = [tuple(14 if r == 1 else r for r in range(lo, lo + 3)) for lo in range(1, 13)]
WINDOWS5 = [tuple(14 if r == 1 else r for r in range(lo, lo + 5)) for lo in range(1, 11)]


@st.composite
def near_three_straights(draw: st.DrawFn) -> tuple[Card, ...]:
    ranks = [*draw(st.sampled_from(WINDOWS3)), *draw(st.sampled_from(WINDOWS5)), *draw(st.sampled_from(WINDOWS5))]
    suits = draw(st.lists(st.sampled_from("shdc"), min_size=13, max_size=13))
    cards = [Card(r, s) for r, s in zip(ranks, suits, strict=True)]
    assume(len(set(cards)) == 13)
    if draw(st.booleans()):
        cards[draw(st.integers(0, 12))] = draw(st.sampled_from([c for c in CARDS if c not in cards]))
    return tuple(cards)


@st.composite
def near_three_flushes(draw: st.DrawFn) -> tuple[Card, ...]:
    suits = [draw(st.sampled_from("shdc")) for _ in range(3)]
    cards: list[Card] = []
    for suit, size in zip(suits, (3, 5, 5), strict=True):
        free = [c for c in CARDS if c.suit == suit and c not in cards]
        assume(len(free) >= size)
        cards += draw(st.lists(st.sampled_from(free), min_size=size, max_size=size, unique=True))
    if draw(st.booleans()):
        cards[draw(st.integers(0, 12))] = draw(st.sampled_from([c for c in CARDS if c not in cards]))
    return tuple(cards)


@settings(max_examples=150, deadline=None)
@given(st.one_of(near_three_straights(), near_three_flushes(), st.permutations(CARDS).map(lambda d: tuple(d[:13]))))
def test_the_quick_natural_test_agrees_with_a_search_over_every_setting(cards: tuple[Card, ...]) -> None:
    found = brute_naturals(cards)
    best = max((n.points for n in found), default=0)
    got = natural(cards)
    assert (got.points if got else 0) == best
    assert got is None or got in found


# --- the swap ----------------------------------------------------------------------------------

HAND = parse_cards("2s 3h 5d 7c 8s 9h Jd Qc Ks 4h 6d Tc Ah")
UNDEALT = parse_cards("2h 3d 5c 7s 8h 9d Jc Qs Kh 4d 6c Ts Ad")


def test_a_swap_exchanges_cards_with_the_undealt_ones_card_for_card() -> None:
    hand, undealt = swap(HAND, UNDEALT, parse_cards("2s 3h 5d"), parse_cards("Ad Kh Qs"))
    assert len(hand) == len(undealt) == 13
    assert set(hand) == (set(HAND) - set(parse_cards("2s 3h 5d"))) | set(parse_cards("Ad Kh Qs"))
    assert set(undealt) == (set(UNDEALT) - set(parse_cards("Ad Kh Qs"))) | set(parse_cards("2s 3h 5d"))
    assert swap(HAND, UNDEALT, (), ()) == (HAND, UNDEALT)
    everything, rest = swap(HAND, UNDEALT, HAND, UNDEALT)
    assert set(everything) == set(UNDEALT) and set(rest) == set(HAND)


BAD_SWAPS = [
    (HAND, UNDEALT, "2s", "As", "A♠ is not among the undealt cards"),
    (HAND, UNDEALT, "2h", "Ad", "2♥ is not in the hand"),
    (HAND, UNDEALT, "2s 3h", "Ad", "2 cards given but 1 taken"),
    (HAND, UNDEALT, "2s 2s", "Ad Kh", "2♠ appears twice"),
    (HAND[:12], UNDEALT, "2s", "Ad", "hand: 13 cards expected, got 12"),
    (HAND, UNDEALT[:12], "2s", "Ad", "undealt cards: 13 cards expected, got 12"),
    (HAND, (*UNDEALT[:12], HAND[0]), "3h", "Ad", "2♠ appears twice"),
]


@pytest.mark.parametrize(("hand", "undealt", "give", "take", "message"), BAD_SWAPS, ids=[r[4] for r in BAD_SWAPS])
def test_a_wrong_swap_is_refused_in_the_dealers_words(
    hand: tuple[Card, ...], undealt: tuple[Card, ...], give: str, take: str, message: str
) -> None:
    given = tuple(Card(t) for t in give.split())
    with pytest.raises(InvalidHand, match=message):
        swap(hand, undealt, given, tuple(Card(t) for t in take.split()))
