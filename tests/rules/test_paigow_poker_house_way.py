"""The Pai Gow Poker house ways, clause by clause (GAME_RULES.md §2, "House way", "Other house ways").

Each row is a hand a dealer would recognise, the low hand the way sets (by rank,
"Jk" where the joker's place is the point) and words from the reason shown on
the dealer's screen.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.games import paigow_poker as pgp
from rules.games.cards import JOKER, Card, deck, parse_cards
from rules.games.paigow_poker import HOUSE_WAYS, Setting, house_way, house_way_explained, is_foul
from rules.games.poker import high_hand, low_hand

RANK_TEXT = "23456789TJQKA"


def ranks(cards: tuple[Card, ...], *, joker: str = "A") -> str:
    """The ranks of cards, highest first, as "A K" or "8 8"; the joker as ``joker``."""
    return " ".join(joker if c.is_joker else RANK_TEXT[c.rank - 2] for c in cards)


def low_of(hand: str, way: str = "golden_nugget") -> str:
    return ranks(house_way(parse_cards(hand), way).low)


def check(hand: str, low: str, why: str, way: str = "golden_nugget") -> Setting:
    setting, reason = house_way_explained(parse_cards(hand), way)
    assert ranks(setting.low) == low, f"{hand}: {setting} ({reason})"
    assert why in reason, reason
    assert not is_foul(setting)
    return setting


# --- Golden Nugget, the default --------------------------------------------------------------

GOLDEN_NUGGET_PAIRS = [
    # hand, low hand, reason
    ("Ks 9h 7d 5c 4s 3h 2d", "9 7", "no pair: the highest card high, the next two low"),
    ("8s 8h Ad Kc 9s 4h 2d", "A K", "one pair: the pair high, the two highest singles low"),
    ("As Ad Kh Kc 7s 4d 2c", "K K", "two pairs, split: aces with any pair"),
    ("As Ad 3h 3c Ks 9d 2c", "3 3", "two pairs, split: aces with any pair"),
    ("Js Jd 6h 6c As 4d 2c", "6 6", "two pairs, split: jacks or better with sixes or better"),
    ("Ks Kd 7h 7c As 4d 2c", "7 7", "two pairs, split: jacks or better with sixes or better"),
    ("Qs Qd 8h 8c 9s 4d 2c", "8 8", "two pairs, split"),
    ("Ts Td 8h 8c Ks 4d 2c", "8 8", "two pairs, split: a pair of sevens or better, no ace to go low"),
    ("Js Jd 5h 5c As 4d 2c", "A 4", "two pairs, kept together: a pair of sevens or better, an ace goes low"),
    ("Ts Td 8h 8c As 4d 2c", "A 4", "two pairs, kept together: a pair of sevens or better, an ace goes low"),
    ("6s 6d 5h 5c Ks 4d 2c", "K 4", "two pairs, kept together: both below sevens"),
    ("6s 6d 5h 5c As 4d 2c", "A 4", "two pairs, kept together: both below sevens"),
    ("Ks Kd Qh Qc 5s 5d 2c", "K K", "three pairs: the highest pair low"),
    ("4s 4d 3h 3c 2s 2d Ac", "4 4", "three pairs: the highest pair low"),
    ("9s 9d 9h Ac Kd 5s 2c", "A K", "three of a kind: high, the two highest singles low"),
    ("As Ad Ah Kc Qd 5s 2c", "A K", "three aces: an ace and the next highest card low"),
    ("9s 9d 9h 5c 5d Ks 2c", "5 5", "full house: the pair low, three of a kind high"),
    ("9s 9d 9h As Ad Kc 2c", "A A", "full house: the pair low"),
    ("9s 9d 9h 2c 2d As Kc", "A K", "full house kept: twos, and an ace and a king go low"),
    ("9s 9d 9h 2c 2d As Qc", "2 2", "full house: the pair low"),
    ("9s 9d 9h 3c 3d As Kc", "3 3", "full house: the pair low"),
    ("9s 9d 9h Kc Kd 5s 5c", "K K", "three of a kind and two pairs: the higher pair low, the full house high"),
    ("9s 9d 9h Kc Kd Ks 5c", "K K", "two three of a kinds: a pair from the higher low"),
]


@pytest.mark.parametrize(
    ("hand", "low", "why"), GOLDEN_NUGGET_PAIRS, ids=[row[2] + " | " + row[0] for row in GOLDEN_NUGGET_PAIRS]
)
def test_golden_nugget_sets_pairs_and_trips_as_the_seed_says(hand: str, low: str, why: str) -> None:
    check(hand, low, why)


GOLDEN_NUGGET_STRAIGHTS = [
    ("8s 7d 6h 5c 4d Kc 2s", "K 2", "straight kept high"),
    ("8s 7d 6h 5c 4d Ks Kh", "K K", "straight kept high"),
    ("7s 7d 7h 8c 9s Td Jc", "7 7", "straight kept high"),
    ("9s 8d 7h 6c 5d 4c 3s", "9 8", "straight kept high, the highest low that keeps it"),
    ("As Ad 5h 4c 3s 2d 9c", "A 9", "straight kept high"),
    ("Ks Qs 9s 5s 2s Ah Kd", "A K", "flush kept high"),
    ("Ks Qs 9s 5s 2s 3s Ad", "A K", "flush kept high, the highest low that keeps it"),
    ("Js Jd 7h 7c 9s 8d Tc", "J 7", "straight kept high"),
    ("As 5d 5h 4c 4s 3d 2c", "A 3", "given up for the pair rules (two pairs and a single ace)"),
    ("Js Jd 6s 6c 9s 4s 2s", "6 6", "given up for the pair rules (jacks and sixes)"),
    ("Qs Qd 6s 6c 9s 4s 2s", "Q 6", "flush kept high"),
    ("As Ad 7s 7c 9s 4s 2s", "7 7", "given up for the pair rules (aces and any pair)"),
    ("9h 8h 7h 6h 5h Jc 2d", "J 2", "straight flush kept high"),
    ("Ah Kh Qh Jh Th 9h 2c", "A 2", "straight flush kept high, the highest low that keeps it"),
    ("9h 8h 7h 6h 5h 4h Jd", "J 9", "straight flush kept high, the highest low that keeps it"),
    ("Th 9h 8h 7h 6h Jc 5d", "J T", "straight flush broken into a straight: a jack or better goes low"),
    ("Th 9h 8h 7h 6h 9c 5d", "9 5", "straight flush kept high"),
    ("Ah Kh Qh Jh Th 2s 3h", "A 2", "royal flush broken into a flush: a king or better goes low"),
    ("Ah Kh Qh Jh Th 9c Kc", "A K", "royal flush broken into a straight: a king or better goes low"),
    ("Ah Kh Qh Jh Th Qc 2d", "Q 2", "royal flush kept high"),
    ("Ah Kh Qh Jh Th Ts Js", "J T", "royal flush kept high"),
]


@pytest.mark.parametrize(
    ("hand", "low", "why"), GOLDEN_NUGGET_STRAIGHTS, ids=[row[2] + " | " + row[0] for row in GOLDEN_NUGGET_STRAIGHTS]
)
def test_golden_nugget_keeps_straights_and_flushes_high_with_its_exceptions(hand: str, low: str, why: str) -> None:
    setting = check(hand, low, why)
    if "kept high" in why or "broken" in why:
        assert high_hand(setting.high) >= high_hand(parse_cards("6s 5h 4d 3c 2s"))


GOLDEN_NUGGET_QUADS = [
    ("5s 5h 5d 5c Ad Kh 2c", "A K", "four of a kind, twos to sixes: never split"),
    ("2s 2h 2d 2c Ad Ah Kc", "A A", "four of a kind, twos to sixes: never split"),
    ("8s 8h 8d 8c Ad Kh 2c", "A K", "four of a kind, sevens to tens: kept, an ace or a pair goes low"),
    ("8s 8h 8d 8c Qd 3h 3c", "3 3", "four of a kind, sevens to tens: kept, an ace or a pair goes low"),
    ("8s 8h 8d 8c 5d 5h 5c", "5 5", "four of a kind, sevens to tens: kept"),
    ("8s 8h 8d 8c Kd Qh 2c", "8 8", "four of a kind, sevens to tens: split, no ace or pair to go low"),
    ("Qs Qh Qd Qc Ad Kh 2c", "Q Q", "four of a kind, jacks to kings: split, no pair of tens or better to go low"),
    ("Qs Qh Qd Qc 9d 9h 2c", "Q Q", "four of a kind, jacks to kings: split"),
    ("Qs Qh Qd Qc Td Th 2c", "T T", "four of a kind, jacks to kings: kept, a pair of tens or better goes low"),
    ("As Ah Ad Ac 7d 7h 2c", "7 7", "four aces: kept, a pair of sevens or better goes low"),
    ("As Ah Ad Ac 6d 6h Kc", "A A", "four aces: split, no pair of sevens or better to go low"),
    ("As Ah Ad Ac Jk Kh Kc", "K K", "five aces, kept: a pair of kings goes low"),
    ("As Ah Ad Ac Jk Qh Qc", "A A", "five aces, split: a pair of aces low"),
    ("As Ah Ad Ac Jk Qh Kc", "A A", "five aces, split: a pair of aces low"),
]


@pytest.mark.parametrize(
    ("hand", "low", "why"), GOLDEN_NUGGET_QUADS, ids=[row[2] + " | " + row[0] for row in GOLDEN_NUGGET_QUADS]
)
def test_golden_nugget_splits_four_of_a_kind_by_rank_band(hand: str, low: str, why: str) -> None:
    check(hand, low, why)


# --- the joker: an ace, unless it completes a straight or flush the rules keep ---------------

JOKER_PLACEMENT = [
    # hand, low hand (the joker as Jk), the high hand it leaves
    ("Jk 9h 7d 5c Ks 3h 2d", "K 9", "high card", "no pair: the joker is the ace and stays high"),
    ("Jk Kd 9h 9c 5s 4d 2c", "Jk K", "one pair", "one pair: the joker goes low as an ace beside the king"),
    ("9s 9d 9h 2c 2d Jk Kc", "Jk K", "full house", "full house kept: the joker is the ace of ace-king"),
    ("Ts Td 8h 8c Jk 4d 2c", "Jk 4", "two pair", "two pairs kept: the joker is the single ace"),
    ("As Jk 9h 9c 5s 5d 2c", "Jk A", "two pair", "three pairs: the joker pairs the ace and goes low"),
    ("Jk 8h 7h 6h 5h Kc Ad", "A K", "straight flush", "the joker completes a straight flush, ace and king low"),
    ("As Jk Ks Kd 9s 5s 2s", "K K", "flush", "the joker completes a flush so the kings can go low"),
    ("Ah Kh Qh Jh Jk Js Jd", "J J", "royal flush", "the joker completes a royal flush rather than a full house"),
    ("As Ah Ad Jk Ks Qs Js", "A A", "royal flush", "three aces and the joker: the joker makes the royal flush"),
    ("Jk Ks Qd Jc Th 5d 2c", "5 2", "straight", "the joker completes a straight"),
    ("Ts 9d 8h 7c 6d 9c Jk", "9 9", "straight", "the joker stands in for a nine so both nines go low"),
]


@pytest.mark.parametrize(
    ("hand", "low", "high", "case"), JOKER_PLACEMENT, ids=[row[3] + " | " + row[0] for row in JOKER_PLACEMENT]
)
def test_the_joker_plays_as_an_ace_unless_it_completes_a_kept_straight_or_flush(
    hand: str, low: str, high: str, case: str
) -> None:
    setting = house_way(parse_cards(hand))
    assert ranks(setting.low, joker="Jk") == low, str(setting)
    assert high_hand(setting.high).category.name.lower().replace("_", " ") == high, str(setting)


# --- the other ways, against the Golden Nugget on the same hands -----------------------------

WAYS_COMPARED = [
    # hand, golden_nugget, trump_plaza, foxwoods
    ("Ks 9h 7d 5c 4s 3h 2d", "9 7", "9 7", "9 7", "no pair: the same everywhere"),
    ("6s 6d 5h 5c Qs 4d 2c", "Q 4", "5 5", "5 5", "two small pairs and a queen"),
    ("6s 6d 5h 5c Ks 4d 2c", "K 4", "K 4", "K 4", "two small pairs and a king"),
    ("Ts Td 5h 5c Ks 4d 2c", "5 5", "K 4", "5 5", "tens and fives with a king"),
    ("Ts Td 8h 8c As 4d 2c", "A 4", "A 4", "A 4", "tens and eights with an ace"),
    ("Ts Td 8h 8c Ks 4d 2c", "8 8", "8 8", "8 8", "tens and eights with a king"),
    ("Js Jd 6h 6c As 4d 2c", "6 6", "A 4", "6 6", "jacks and sixes with an ace"),
    ("Ks Kd 5h 5c As 4d 2c", "A 4", "A 4", "5 5", "kings and fives with an ace"),
    ("Ks Kd 8h 8c As 4d 2c", "8 8", "8 8", "8 8", "kings and eights with an ace"),
    ("As Ad 3h 3c Ks 9d 2c", "3 3", "3 3", "3 3", "aces and threes"),
    ("Ks Kd Qh Qc 5s 5d 2c", "K K", "K K", "K K", "three pairs"),
    ("As Ad Ah Kc Qd 5s 2c", "A K", "A K", "A K", "three aces"),
    ("9s 9d 9h Kc Kd Ks 5c", "K K", "K K", "K K", "two three of a kinds"),
    ("9s 9d 9h 2c 2d As Kc", "A K", "A K", "2 2", "full house of twos with ace-king"),
    ("Ks Kd Kh 9c 9d 5s 5c", "9 9", "9 9", "K K", "kings full with two pairs"),
    ("Ks Kd Kh 9c 9d 5s 2c", "9 9", "9 9", "9 9", "kings full: the kings cannot go low"),
    ("8s 8h 8d 8c Kd Qh 2c", "8 8", "K Q", "K Q", "four eights with a king"),
    ("8s 8h 8d 8c Qd Jh 2c", "8 8", "8 8", "8 8", "four eights with a queen"),
    ("Qs Qh Qd Qc Ad Kh 2c", "Q Q", "A K", "Q Q", "four queens with an ace"),
    ("Js Jh Jd Jc Ad Kh 2c", "J J", "A K", "J J", "four jacks with an ace"),
    ("Qs Qh Qd Qc 9d 9h 2c", "Q Q", "9 9", "9 9", "four queens with a pair of nines"),
    ("5s 5h 5d 5c Ad Kh 2c", "A K", "A K", "A K", "four fives"),
    ("As Ah Ad Ac 6d 6h Kc", "A A", "6 6", "6 6", "four aces with a pair of sixes"),
    ("As Ah Ad Ac Kd Qh 2c", "A A", "A A", "A A", "four aces without a pair"),
    ("As Ah Ad Ac Jk Kh Kc", "K K", "K K", "K K", "five aces with a pair of kings"),
    ("As Ah Ad Ac Jk Qh Kc", "A A", "A A", "A A", "five aces without"),
    ("Ks Qs 9s 5s 2s 3s Ad", "A K", "A K", "A K", "a six-card flush"),
]


@pytest.mark.parametrize(
    ("hand", "golden_nugget", "trump_plaza", "foxwoods", "case"),
    WAYS_COMPARED,
    ids=[row[4] + " | " + row[0] for row in WAYS_COMPARED],
)
def test_trump_plaza_and_foxwoods_differ_from_the_golden_nugget_where_their_tables_do(
    hand: str, golden_nugget: str, trump_plaza: str, foxwoods: str, case: str
) -> None:
    assert (low_of(hand), low_of(hand, "trump_plaza"), low_of(hand, "foxwoods")) == (
        golden_nugget,
        trump_plaza,
        foxwoods,
    )


OTHER_WAYS_REASONS = [
    ("6s 6d 5h 5c Qs 4d 2c", "trump_plaza", "5 5", "two pairs, split: low with low or medium, no king or better"),
    ("Ts Td 5h 5c Ks 4d 2c", "trump_plaza", "K 4", "two pairs, kept together: low with low or medium, a king"),
    ("Js Jd 6h 6c As 4d 2c", "trump_plaza", "A 4", "two pairs, kept together: low with high, an ace goes low"),
    ("Ts Td 8h 8c Ks 4d 2c", "trump_plaza", "8 8", "two pairs, split: medium with medium, no ace to go low"),
    ("Ks Kd 8h 8c As 4d 2c", "trump_plaza", "8 8", "two pairs, split: medium or high with high"),
    ("As Ah Ad Ac Kd Qh 2c", "trump_plaza", "A A", "four aces: split"),
    ("As Ah Ad Ac 6d 6h Kc", "trump_plaza", "6 6", "four aces: kept, a pair goes low"),
    # Two pairs beside a straight or flush: the published reading plays them by the two-pair rules, the
    # literal text keeps the straight or flush (docs/game-math.md, "The bank's low hand, exactly").
    ("6s 5d 4h 3c 2s 3d 2h", "trump_plaza", "2 2", "for the pair rules (two pairs beside it); two pairs, split"),
    ("6s 5d 4h 3c 2s 3d 2h", "trump_plaza_literal", "3 2", "straight kept high"),
    ("Ks Qd Jh Tc 9s Kd 9h", "trump_plaza", "9 9", "two pairs beside it); two pairs, split: medium or high with high"),
    ("Ks Qd Jh Tc 9s Kd 9h", "trump_plaza_literal", "K 9", "straight kept high"),
    ("7h 6h 5h 4h 2h 7c 2c", "trump_plaza", "2 2", "two pairs beside it); two pairs, split: low with low or medium"),
    ("7h 6h 5h 4h 2h 7c 2c", "trump_plaza_literal", "7 2", "flush kept high"),
    # The joker beside a natural ace is a pair of aces in that test, even as the wheel's five.
    ("Jk Ah 4c 3d 2s 7s 2h", "trump_plaza", "2 2", "beside it, the joker pairing the ace); two pairs, split"),
    ("Jk Ah 4c 3d 2s 7s 2h", "trump_plaza_literal", "7 2", "straight kept high"),
    # A straight flush with two pairs goes to the pair rules too.
    ("9s 8s 7s 6s 5s 9h 5h", "trump_plaza", "5 5", "straight flush given up for the pair rules (two pairs beside it)"),
    ("9s 8s 7s 6s 5s 9h 5h", "trump_plaza_literal", "9 5", "straight flush kept high"),
    # No preference for the straight flush: the highest low that keeps a straight or flush.
    ("9s 8s 7s 6s 5s 4h Td", "trump_plaza", "T 9", "straight flush broken into a straight: the highest low that keeps"),
    ("9s 8s 7s 6s 5s 4h Td", "trump_plaza_literal", "T 4", "straight flush kept high"),
    # The low hands compared card by card by rank then suit: the straight leaves 5s 2s, the flush 5h 4h, and
    # the five of spades outranks the five of hearts before the four meets the two.
    ("8s 7s 6s 5s 5h 4h 2s", "trump_plaza", "5 2", "straight kept high, the highest low that keeps it; equal top"),
    ("8s 7s 6s 5s 5h 4h 2s", "trump_plaza_literal", "5 4", "flush kept high"),
    ("8h 7h 6h 5h 5s 4s 2h", "trump_plaza", "5 4", "flush kept high, the highest low that keeps it"),
    ("Ks Kd 5h 5c As 4d 2c", "foxwoods", "5 5", "two pairs, split: big pair jacks or better"),
    ("Ts Td 5h 5c As 4d 2c", "foxwoods", "A 4", "two pairs, kept together: big pair sevens to tens, an ace"),
    ("6s 6d 5h 5c Qs 4d 2c", "foxwoods", "5 5", "two pairs, split: big pair sixes or lower, no king or better"),
    ("9s 9d 9h 2c 2d As Kc", "foxwoods", "2 2", "full house: the highest pair that does not foul goes low"),
    ("Ks Kd Kh 9c 9d 5s 2c", "foxwoods", "9 9", "full house: the highest pair that does not foul goes low"),
    ("8s 8h 8d 8c Kd Qh 2c", "foxwoods", "K Q", "four of a kind, sevens to tens: kept, a king or better"),
    ("Qs Qh Qd Qc Ad Kh 2c", "foxwoods", "Q Q", "four of a kind, jacks to aces: split"),
]


@pytest.mark.parametrize(
    ("hand", "way", "low", "why"),
    OTHER_WAYS_REASONS,
    ids=[f"{row[1]}: {row[3]} | {row[0]}" for row in OTHER_WAYS_REASONS],
)
def test_the_other_ways_tell_the_dealer_which_rule_set_the_hand(hand: str, way: str, low: str, why: str) -> None:
    check(hand, low, why, way)


@pytest.mark.parametrize(
    ("hand", "low", "cards"),
    [
        ("8s 7s 6s 5s 5h 4h 2s", "5s 2s", "the flush suit's five outranks the other: the straight, its five low"),
        ("8h 7h 6h 5h 5s 4s 2h", "5s 4s", "the same hand in hearts and spades: the flush, the other five low"),
    ],
    ids=["spades flush beside hearts", "hearts flush beside spades"],
)
def test_trump_plaza_compares_equal_top_cards_of_the_low_by_suit(hand: str, low: str, cards: str) -> None:
    setting, why = house_way_explained(parse_cards(hand), "trump_plaza")
    assert " ".join(map(str, setting.low)) == low, f"{cards}: {setting} ({why})"
    assert not is_foul(setting)


TRUMP_PLAZA_CLAUSES = [
    # clause turned off, hand, low with it, low without it
    ("joker_pairs_ace_beside_straight", "Jk Ah 4c 3d 2s 7s 2h", "2 2", "7 2"),
    ("pairs_over_straight_flush", "9s 8s 7s 6s 5s 9h 5h", "5 5", "9 5"),
    ("straight_flush_preferred", "9s 8s 7s 6s 5s 4h Td", "T 9", "T 4"),
    ("low_by_rank_then_suit", "8s 7s 6s 5s 5h 4h 2s", "5 2", "5 4"),
]


@pytest.mark.parametrize(
    ("clause", "hand", "low", "without"), TRUMP_PLAZA_CLAUSES, ids=[r[0] for r in TRUMP_PLAZA_CLAUSES]
)
def test_each_clause_of_the_published_trump_plaza_reading_decides_its_own_hand(
    clause: str, hand: str, low: str, without: str
) -> None:
    way = pgp.TRUMP_PLAZA
    changes: dict[str, Any] = {clause: not getattr(way, clause)}
    flipped = replace(way, name=f"without_{clause}", **changes)
    assert (ranks(house_way(parse_cards(hand), way).low), ranks(house_way(parse_cards(hand), flipped).low)) == (
        low,
        without,
    )
    for other in ("golden_nugget", "foxwoods", "trump_plaza_literal"):  # the other ways keep the old reading
        assert getattr(HOUSE_WAYS[other], clause) == getattr(flipped, clause)


def test_the_golden_nugget_is_the_default_way_and_every_way_is_registered() -> None:
    hand = parse_cards("6s 6d 5h 5c Qs 4d 2c")
    assert house_way(hand) == house_way(hand, "golden_nugget") == house_way(hand, HOUSE_WAYS["golden_nugget"])
    assert set(HOUSE_WAYS) >= {"golden_nugget", "trump_plaza", "foxwoods"}
    assert all(name == way.name for name, way in HOUSE_WAYS.items())


def test_a_casinos_own_way_is_data_read_by_the_same_rules() -> None:
    never_split = replace(pgp.GOLDEN_NUGGET, name="never_split_two_pairs", two_pairs=())
    setting, why = house_way_explained(parse_cards("As Ad Kh Kc 7s 4d 2c"), never_split)
    assert (ranks(setting.low), why) == ("7 4", "two pairs, kept together")


def test_the_explanation_goes_with_the_same_setting_as_the_house_way() -> None:
    for text in ("As Ad Kh Kc 7s 4d 2c", "Th 9h 8h 7h 6h Jc 5d", "As Ah Ad Ac Jk Qh Kc"):
        hand = parse_cards(text)
        for way in HOUSE_WAYS:
            assert house_way_explained(hand, way)[0] == house_way(hand, way)


def test_an_unknown_house_way_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown house way 'caesars': choose one of golden_nugget, trump_plaza"):
        house_way(parse_cards("As Ad Kh Kc 7s 4d 2c"), "caesars")


# --- invariants ------------------------------------------------------------------------------

hands = st.lists(st.sampled_from(deck(joker=True)), min_size=7, max_size=7, unique=True)
ways = st.sampled_from(sorted(HOUSE_WAYS))
options = st.fixed_dictionaries({"wheel_second_highest": st.booleans(), "joker_flush_as_ace": st.booleans()})


@settings(max_examples=600, deadline=None)
@given(hand=hands, way=ways, opts=options)
def test_the_house_way_never_fouls_and_sets_the_cards_it_was_dealt(
    hand: list[Card], way: str, opts: dict[str, bool]
) -> None:
    setting = house_way(hand, way, **opts)
    assert setting in pgp.settings(hand)
    assert not is_foul(setting, **opts)


@settings(max_examples=300, deadline=None)
@given(hand=hands, way=ways, opts=options)
def test_where_suits_or_the_joker_leave_a_choice_the_house_way_takes_the_highest_high_hand(
    hand: list[Card], way: str, opts: dict[str, bool]
) -> None:
    setting = house_way(hand, way, **opts)
    low, high = low_hand(setting.low), high_hand(setting.high, **opts)
    same_low = [s for s in pgp.settings(hand) if low_hand(s.low) == low]
    assert high == max(high_hand(s.high, **opts) for s in same_low)


@settings(max_examples=200, deadline=None)
@given(hand=hands)
def test_with_a_joker_dealt_the_house_way_never_fouls(hand: list[Card]) -> None:
    with_joker = [c for c in hand if not c.is_joker][:6] + [JOKER]
    for way in HOUSE_WAYS:
        assert not is_foul(house_way(with_joker, way))


def test_a_rule_whose_setting_would_foul_gives_way_to_the_best_setting_that_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def pair_low(way: pgp.HouseWay, r: list[int], g: tuple[tuple[int, int], ...]) -> pgp.Choice:
        return [[(g[0][0], g[0][0] + 1)]], "a careless rule: the pair low"  # five singles high: fouled

    for pattern, (runs, rule, straights_first) in pgp._SHAPES.items():
        if rule is pgp._one_pair:
            monkeypatch.setitem(pgp._SHAPES, pattern, (runs, pair_low, straights_first))
    setting, why = house_way_explained(parse_cards("8s 8h Ad Kc 9s 4h 2d"))
    assert (ranks(setting.low), why) == (
        "A K",
        "a careless rule: the pair low; that fouls, so the best setting that does not",
    )


@pytest.mark.parametrize(
    ("wheel_second_highest", "low"),
    [(True, "Jk 9"), (False, "A 9")],
    ids=[
        "the wheel second highest: keep the wheel, the joker low as an ace",
        "the wheel lowest: the joker high as a six",
    ],
)
def test_where_the_joker_goes_follows_the_tables_straight_ranking(wheel_second_highest: bool, low: str) -> None:
    setting = house_way(parse_cards("Jk As 5d 4c 3h 2s 9c"), wheel_second_highest=wheel_second_highest)
    assert ranks(setting.low, joker="Jk") == low
