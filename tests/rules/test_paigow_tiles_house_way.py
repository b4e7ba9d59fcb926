"""The Pai Gow tiles house way, clause by clause (GAME_RULES.md §1, "House way `foxwoods`").

Each row is four tiles a dealer would recognise, the setting the way plays, and
words from the reason shown on the dealer's screen. Tiles are named by their pip
total as in §1: 12 Teen, 2 Day, 11 Foo, 10 Mooy or Ping.
"""

from __future__ import annotations

import itertools
from collections import Counter
from math import comb, prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.games import paigow_tiles as pgt
from rules.games.paigow_tiles import HOUSE_WAYS, Setting, hand_value, house_way, house_way_explained, is_foul
from rules.games.tiles import TILE_FACES, TILE_SET, Tile, parse_tiles


def check(hand: str, high: str, low: str, why: str) -> None:
    setting, reason = house_way_explained(parse_tiles(hand))
    assert setting == Setting.parse(high, low), f"{hand}: {setting} ({reason})"
    assert why in reason, reason
    assert not is_foul(setting)


def rows(table: list[tuple[str, str, str, str]]) -> pytest.MarkDecorator:
    return pytest.mark.parametrize(("hand", "high", "low", "why"), table, ids=[row[0] for row in table])


NEVER = "never split a pair of 4s, 5s, 6s, 10s or 11s"

NEVER_SPLIT = [
    ("3-1 3-1 6-6 5-4", "3-1 3-1", "6-6 5-4", NEVER),  # Gors kept, though a Teen wong was there
    ("2-2 2-2 6-6 6-1", "2-2 2-2", "6-6 6-1", NEVER),  # Bons
    ("4-1 3-2 6-6 5-3", "4-1 3-2", "6-6 5-3", NEVER),  # mixed fives
    ("3-3 3-3 1-1 6-1", "3-3 3-3", "1-1 6-1", NEVER),  # Chongs
    ("5-5 5-5 6-6 5-4", "5-5 5-5", "6-6 5-4", NEVER),  # Mooys
    ("6-4 6-4 1-1 6-1", "6-4 6-4", "1-1 6-1", NEVER),  # Pings
    ("6-5 6-5 6-6 4-4", "6-5 6-5", "6-6 4-4", NEVER),  # Foos
]


@rows(NEVER_SPLIT)
def test_pairs_of_4s_5s_6s_10s_and_11s_are_never_split(hand: str, high: str, low: str, why: str) -> None:
    check(hand, high, low, why)


TWO_PAIRS = [
    ("6-6 6-6 6-3 5-4", "6-6 6-6", "6-3 5-4", "two pairs stay together"),  # not wong/wong
    ("1-1 1-1 6-2 5-3", "1-1 1-1", "6-2 5-3", "two pairs stay together"),  # not gong/gong
    ("4-2 2-1 6-6 6-6", "4-2 2-1", "6-6 6-6", "two pairs stay together"),  # not 8/8
    ("5-2 4-3 6-6 6-6", "6-6 6-6", "5-2 4-3", "two pairs stay together"),  # not two high nines
    ("4-4 4-4 1-1 1-1", "1-1 1-1", "4-4 4-4", "two pairs stay together"),
    ("5-1 5-1 6-6 6-6", "6-6 6-6", "5-1 5-1", "two pairs stay together"),  # Looks with Teens
    ("6-5 6-5 6-2 5-3", "6-5 6-5", "6-2 5-3", "two pairs stay together"),  # Foos: not the 8s' split with 11s
    ("4-2 2-1 6-5 6-5", "4-2 2-1", "6-5 6-5", "two pairs stay together"),  # not the Gee Joon's split with 6-5s
    ("6-6 6-6 1-1 1-1", "6-6 6-6", "1-1 1-1", "two pairs stay together"),  # not 4/4
]


@rows(TWO_PAIRS)
def test_two_pairs_are_never_split_into_two_hands_below_both(hand: str, high: str, low: str, why: str) -> None:
    check(hand, high, low, why)


GEE_JOON = [
    ("4-2 2-1 6-4 6-5", "6-5 4-2", "6-4 2-1", "split the Gee Joon with 6-4, 6-5 or 6-6"),
    ("4-2 2-1 6-6 6-4", "6-6 4-2", "6-4 2-1", "split the Gee Joon with 6-4, 6-5 or 6-6"),
    ("4-2 2-1 6-6 6-5", "6-6 4-2", "6-5 2-1", "split the Gee Joon with 6-4, 6-5 or 6-6"),
    # Any mix of the three, as the clause reads, though the Gee Joon and Teens would beat both 8s.
    ("4-2 2-1 6-6 6-6", "4-2 2-1", "6-6 6-6", "two pairs stay together"),  # not 8/8: see TWO_PAIRS
    ("4-2 2-1 6-6 5-5", "4-2 2-1", "6-6 5-5", "keep the pair together (Gee Joon)"),  # Mooy is not Ping
    ("4-2 2-1 6-4 3-1", "4-2 2-1", "6-4 3-1", "keep the pair together (Gee Joon)"),
]


@rows(GEE_JOON)
def test_the_gee_joon_is_split_only_when_the_other_two_are_6_4_6_5_or_6_6(
    hand: str, high: str, low: str, why: str
) -> None:
    check(hand, high, low, why)


TEENS_AND_DAYS = [
    ("1-1 1-1 5-1 4-1", "1-1 5-1", "1-1 4-1", "split 2s and 12s for 6/8 or better"),  # 8/7
    ("1-1 1-1 5-2 3-1", "1-1 5-2", "1-1 3-1", "split 2s and 12s for 6/8 or better"),  # 9/6
    ("6-6 6-6 6-2 4-2", "6-6 6-2", "6-6 4-2", "split 2s and 12s for 6/8 or better"),  # gong/8
    ("6-6 6-6 3-1 4-1", "6-6 6-6", "4-1 3-1", "keep the pair together (pair of Teens)"),  # 7/6 is not 6/8
    ("6-6 6-6 5-5 5-1", "6-6 6-6", "5-5 5-1", "keep the pair together"),  # 8/2
    ("1-1 1-1 6-5 6-4", "1-1 1-1", "6-5 6-4", "keep the pair together (pair of Days)"),
    ("6-6 6-6 6-3 6-5", "6-6 6-3", "6-6 6-5", "split 2s and 12s with a 9 and an 11"),  # wong/3
    ("1-1 1-1 5-4 6-5", "1-1 5-4", "1-1 6-5", "split 2s and 12s with a 9 and an 11"),
]


@rows(TEENS_AND_DAYS)
def test_teens_and_days_are_split_for_6_8_or_better_and_with_a_9_and_an_11(
    hand: str, high: str, low: str, why: str
) -> None:
    check(hand, high, low, why)


SPLIT_9S_8S_7S = [
    ("6-3 5-4 1-1 5-5", "1-1 6-3", "5-5 5-4", "split 9s with 2, 10 or 12"),  # Day wong / 9 points
    ("6-3 5-4 6-6 6-4", "6-6 6-3", "6-4 5-4", "split 9s with 2, 10 or 12"),
    ("6-3 5-4 1-1 6-6", "6-6 6-3", "1-1 5-4", "split 9s with 2, 10 or 12"),  # two wongs
    ("6-3 5-4 6-5 6-6", "6-3 5-4", "6-6 6-5", "keep the pair together (pair of mixed nines)"),  # 11: no
    ("4-4 4-4 6-6 6-4", "6-6 4-4", "4-4 6-4", "split 8s with 2, 10, 11 or 12"),
    ("6-2 5-3 1-1 6-5", "1-1 6-2", "6-5 5-3", "split 8s with 2, 10, 11 or 12"),
    ("4-4 4-4 6-5 5-5", "6-5 4-4", "5-5 4-4", "split 8s with 2, 10, 11 or 12"),  # 9/8
    ("6-2 5-3 6-3 6-5", "6-5 6-2", "6-3 5-3", "split 8s with a 9 and an 11"),  # 9/7
    ("4-4 4-4 5-4 6-5", "6-5 4-4", "4-4 5-4", "split 8s with a 9 and an 11"),
    ("4-4 4-4 3-1 6-6", "4-4 4-4", "6-6 3-1", "keep the pair together (pair of Yuns)"),
    ("6-1 6-1 6-4 6-5", "6-5 6-1", "6-4 6-1", "split 7s with 2, 10, 11 or 12"),  # 8/7
    ("5-2 4-3 1-1 6-6", "6-6 5-2", "1-1 4-3", "split 7s with 2, 10, 11 or 12"),  # two high nines
    ("6-1 6-1 3-1 6-6", "6-1 6-1", "6-6 3-1", "keep the pair together (pair of Tits)"),  # a 4: no
    ("5-2 4-3 6-3 6-5", "5-2 4-3", "6-5 6-3", "keep the pair together (pair of mixed sevens)"),  # a 9: no
]


@rows(SPLIT_9S_8S_7S)
def test_9s_8s_and_7s_are_split_with_the_listed_tiles_and_kept_otherwise(
    hand: str, high: str, low: str, why: str
) -> None:
    check(hand, high, low, why)


TEEN_OR_DAY = [
    # no exception: a high nine before a gong before a wong
    ("6-6 6-1 6-2 5-5", "6-6 6-1", "5-5 6-2", "Teen or Day with a 7-9: high nine first"),
    ("6-6 6-1 4-4 4-1", "6-6 6-1", "4-4 4-1", "Teen or Day with a 7-9: high nine first"),  # a high 8 with a 5
    ("1-1 4-3 6-3 2-2", "1-1 4-3", "2-2 6-3", "Teen or Day with a 7-9: high nine first"),  # not the wong
    ("1-1 6-2 6-3 3-3", "1-1 6-2", "3-3 6-3", "Teen or Day with a 7-9: gong first"),  # not the wong
    # exceptions
    ("6-6 6-1 6-3 6-5", "6-6 6-3", "6-5 6-1", "wong first, the fourth tile is an 11"),  # over a high nine
    ("6-6 6-2 5-4 6-5", "6-6 5-4", "6-5 6-2", "wong first, the fourth tile is an 11"),  # over a gong
    ("6-6 6-1 4-4 3-1", "6-6 4-4", "3-1 6-1", "gong before high nine, the fourth tile is a 4"),
    ("6-6 6-1 6-2 2-2", "6-6 6-2", "2-2 6-1", "gong before high nine, the fourth tile is a 4"),
    ("6-6 6-1 6-2 4-1", "6-6 6-2", "6-1 4-1", "gong before high nine, a low 8 with a 5"),
    ("1-1 4-3 5-3 3-2", "1-1 5-3", "4-3 3-2", "gong before high nine, a low 8 with a 5"),
    # one combination only
    ("6-6 6-3 2-2 5-1", "6-6 6-3", "5-1 2-2", "Teen or Day with a 7-9: wong"),
    ("1-1 5-2 6-5 4-1", "1-1 5-2", "6-5 4-1", "Teen or Day with a 7-9: high nine"),
    # Teen and Day both: of the settings making the high nine, the last rule picks (the highest low)
    ("6-6 1-1 6-1 6-3", "1-1 6-3", "6-6 6-1", "Teen or Day with a 7-9: high nine first"),
]


@rows(TEEN_OR_DAY)
def test_a_teen_or_day_plays_with_a_7_8_or_9_high_nine_before_gong_before_wong(
    hand: str, high: str, low: str, why: str
) -> None:
    check(hand, high, low, why)


OTHERWISE = [
    # best low 2 (Chong), below high 3, and a 9 possible: maximize the high hand
    ("3-3 5-1 2-1 4-1", "3-3 2-1", "5-1 4-1", "maximize the high hand"),
    # best low 6: maximize the low hand (7/6, not 8/5)
    ("6-6 6-4 5-1 4-1", "6-6 4-1", "6-4 5-1", "maximize the low hand"),
    ("6-5 6-4 3-1 2-2", "2-2 6-5", "6-4 3-1", "maximize the low hand"),
    # best low 3 with a Bon, below high 3, and a 7 possible: maximize the high hand (7/0, not 4/3)
    ("4-4 3-3 2-2 6-3", "4-4 6-3", "3-3 2-2", "maximize the high hand"),
    # best low exactly high 3 (3 points, Chong high): maximize the low hand (4/3, not 7/0)
    ("3-1 5-5 3-3 6-1", "3-1 5-5", "3-3 6-1", "maximize the low hand"),
    # best low below high 3 but no 7 possible: maximize the low hand (4/2, not 6/0)
    ("6-6 3-1 5-5 6-4", "3-1 6-4", "6-6 5-5", "maximize the low hand"),
]


@rows(OTHERWISE)
def test_otherwise_the_low_hand_is_maximized_unless_it_is_below_high_3_and_a_7_is_there(
    hand: str, high: str, low: str, why: str
) -> None:
    check(hand, high, low, why)


def test_a_pair_rule_comes_before_the_teen_or_day_rule() -> None:
    setting, why = house_way_explained(parse_tiles("6-1 6-1 3-1 6-6"))  # Teen + Tit would be a high nine
    assert setting == Setting.parse("6-1 6-1", "6-6 3-1")
    assert why.startswith("keep the pair together")


def test_the_way_is_the_same_however_the_tiles_are_ordered() -> None:
    hand = parse_tiles("6-6 6-1 6-2 4-1")
    settings_seen = {house_way(order) for order in itertools.permutations(hand)}
    assert settings_seen == {Setting.parse("6-6 6-2", "6-1 4-1")}


def test_foxwoods_is_the_default_and_in_the_registry() -> None:
    assert set(HOUSE_WAYS) == {"foxwoods"}
    hand = parse_tiles("6-6 6-1 6-2 4-1")
    assert house_way(hand) == house_way(hand, "foxwoods") == house_way(hand, HOUSE_WAYS["foxwoods"])


# --- every hand ---------------------------------------------------------------------------------


def face_multisets() -> list[tuple[tuple[Tile, ...], int]]:
    """Every multiset of four faces the set can deal, with how many of the C(32, 4) hands it stands for."""
    out: list[tuple[tuple[Tile, ...], int]] = []
    for faces in itertools.combinations_with_replacement(TILE_FACES, 4):
        counts = Counter(faces)
        ways = prod(comb(face.copies, n) for face, n in counts.items())
        if ways:
            out.append((faces, ways))
    return out


MULTISETS = face_multisets()


def test_the_multisets_cover_all_35960_four_tile_hands() -> None:
    assert len(MULTISETS) == 8130  # 4,285 if the two tiles of a mixed group are not told apart
    assert sum(ways for _, ways in MULTISETS) == comb(32, 4) == 35960


@pytest.mark.parametrize(
    "rules",
    [
        {},
        {"gee_joon_single_rank": "lowest"},
        {"zero_zero_copy": False},
        {"gee_joon_as_zero": True, "peer_points": True},
    ],
    ids=["default rules", "Gee Joon tiles lowest", "zeros ranked by tile", "peer options"],
)
def test_the_house_way_sets_every_hand_one_of_its_three_ways_and_never_fouls(rules: dict[str, object]) -> None:
    for faces, _ in MULTISETS:
        setting, why = house_way_explained(faces, **rules)  # type: ignore[arg-type]
        assert setting in pgt.settings(faces, **rules), faces  # type: ignore[arg-type]
        assert not is_foul(setting, **rules), (faces, why)  # type: ignore[arg-type]
        assert why


def test_each_of_the_35960_hands_the_set_can_deal_gets_one_of_its_own_settings_unfouled() -> None:
    count = 0
    for four in itertools.combinations(TILE_SET, 4):
        setting = house_way(four)
        assert setting in pgt.settings(four) and not is_foul(setting), four
        count += 1
    assert count == 35960


def test_every_reason_is_one_of_the_ways_clauses() -> None:
    reasons = {house_way_explained(faces)[1].split(" (")[0].split(":")[0] for faces, _ in MULTISETS}
    assert reasons == {
        "two pairs stay together",
        NEVER,
        "split the Gee Joon with 6-4, 6-5 or 6-6",
        "split 2s and 12s for 6/8 or better",
        "split 2s and 12s with a 9 and an 11",
        "split 9s with 2, 10 or 12",
        "split 8s with 2, 10, 11 or 12",
        "split 8s with a 9 and an 11",
        "split 7s with 2, 10, 11 or 12",
        "keep the pair together",
        "Teen or Day with a 7-9",
        "maximize the high hand",
        "maximize the low hand",
    }


@settings(max_examples=300, deadline=None)
@given(order=st.permutations(TILE_SET))
def test_the_house_way_never_fouls_a_dealt_hand(order: list[Tile]) -> None:
    for seat in range(8):
        four = order[4 * seat : 4 * seat + 4]
        setting = house_way(four)
        assert sorted(setting.tiles) == sorted(four)
        assert hand_value(setting.high) >= hand_value(setting.low)
