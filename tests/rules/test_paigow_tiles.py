"""Pai Gow tiles: hand values, settings, fouls and settling (GAME_RULES.md §1).

The house way is in test_paigow_tiles_house_way.py.
"""

from __future__ import annotations

import doctest
import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.games import paigow_tiles as pgt
from rules.games.errors import InvalidHand
from rules.games.paigow_tiles import Kind, Outcome, Setting, hand_value, is_foul, outcome, peer_results
from rules.games.tiles import TILE_FACES, TILE_SET, Tile, parse_tiles


def value(hand: str, **rules: object) -> pgt.TileHandValue:
    return hand_value(parse_tiles(hand), **rules)  # type: ignore[arg-type]


def test_the_examples_in_the_module_docstrings_hold() -> None:
    assert doctest.testmod(pgt).failed == 0


# --- the published counts ------------------------------------------------------------------------


def test_the_496_two_tile_hands_split_into_the_published_counts() -> None:
    # The published "16 pairs" are the Gee Joon (4-2 with 2-1, one way to deal it) and the 15 pairs of
    # §1's list (eleven doubled faces, one way each, and four mixed pairs, one way each). The points
    # counts are of the remaining 456 hands, so wongs and gongs are not counted again as 1 and 0 points.
    kinds: Counter[str] = Counter()
    points: Counter[int] = Counter()
    for two in itertools.combinations(TILE_SET, 2):
        v = hand_value(two)
        if v.kind is Kind.POINTS:
            points[v.points] += 1
        else:
            kinds["pairs" if v.kind in (Kind.GEE_JOON, Kind.PAIR) else v.kind.name.lower() + "s"] += 1
    assert sum(kinds.values()) + sum(points.values()) == 496
    assert kinds == {"pairs": 16, "wongs": 8, "gongs": 16}
    assert points == {9: 48, 8: 56, 7: 52, 6: 56, 5: 44, 4: 52, 3: 48, 2: 44, 1: 32, 0: 24}


def test_of_the_sixteen_pairs_one_is_the_gee_joon() -> None:
    kinds = Counter(hand_value(two).kind for two in itertools.combinations(TILE_SET, 2))
    assert (kinds[Kind.GEE_JOON], kinds[Kind.PAIR]) == (1, 15)


# --- ranking, class by class ---------------------------------------------------------------------

PAIRS_HIGHEST_FIRST = [
    "6-6 6-6",
    "1-1 1-1",
    "4-4 4-4",
    "3-1 3-1",
    "5-5 5-5",
    "3-3 3-3",
    "2-2 2-2",
    "6-5 6-5",
    "6-4 6-4",
    "6-1 6-1",
    "5-1 5-1",
    "6-3 5-4",
    "6-2 5-3",
    "5-2 4-3",
    "4-1 3-2",
]
# From the Gee Joon down to 0 points, one hand of each step §1 names.
LADDER = [
    ("4-2 2-1", "Gee Joon"),
    *((hand, "") for hand in PAIRS_HIGHEST_FIRST),
    ("6-6 6-3", "Teen wong"),
    ("1-1 5-4", "Day wong"),
    ("6-6 6-2", "Teen gong"),
    ("1-1 4-4", "Day gong"),
    ("6-6 6-1", "9 points, high tile Teen"),
    ("1-1 6-1", "9 points, high tile Day"),
    ("3-1 5-5", "4 points, high tile Gor"),
    ("6-5 5-5", "1 point, high tile Mooy"),
    ("5-5 6-4", "0 points"),
]


@pytest.mark.parametrize(
    ("higher", "lower"),
    [(LADDER[i][0], LADDER[i + 1][0]) for i in range(len(LADDER) - 1)],
    ids=[f"{LADDER[i][0]} over {LADDER[i + 1][0]}" for i in range(len(LADDER) - 1)],
)
def test_each_hand_beats_the_next_on_the_ladder(higher: str, lower: str) -> None:
    assert value(higher) > value(lower)


@pytest.mark.parametrize(("hand", "words"), [row for row in LADDER if row[1]], ids=[row[1] for row in LADDER if row[1]])
def test_the_dealer_reads_each_hand_aloud(hand: str, words: str) -> None:
    assert value(hand).describe() == words


@pytest.mark.parametrize(
    ("hand", "words"),
    [
        ("6-6 6-6", "pair of Teens"),
        ("6-3 5-4", "pair of mixed nines"),
        ("4-1 3-2", "pair of mixed fives"),
        ("6-1 5-1", "3 points, high tile Tit"),
        ("6-3 4-1", "4 points, high tile mixed nine"),
    ],
)
def test_pairs_and_points_are_read_in_the_dealers_words(hand: str, words: str) -> None:
    assert value(hand).describe() == words


def test_the_lowest_pair_beats_the_highest_wong_and_a_gong_beats_any_nine() -> None:
    assert value("4-1 3-2") > value("6-6 6-3")
    assert value("1-1 5-3") > value("6-6 6-1") > value("1-1 4-3")


@pytest.mark.parametrize(
    ("hand", "kind"),
    [
        ("6-6 6-3", Kind.WONG),
        ("6-6 5-4", Kind.WONG),
        ("1-1 6-3", Kind.WONG),
        ("1-1 5-4", Kind.WONG),
        ("6-6 6-2", Kind.GONG),  # the Czech seed's eight
        ("6-6 5-3", Kind.GONG),
        ("6-6 4-4", Kind.GONG),
        ("1-1 6-2", Kind.GONG),
        ("1-1 5-3", Kind.GONG),
        ("1-1 4-4", Kind.GONG),
        ("4-4 4-4", Kind.PAIR),  # two eights make a pair, not a gong
        ("6-2 5-3", Kind.PAIR),
        ("6-6 1-1", Kind.POINTS),
        ("4-4 6-3", Kind.POINTS),  # a nine with an eight: only Teen and Day make wongs and gongs
    ],
)
def test_wongs_and_gongs_need_a_teen_or_day_with_a_nine_or_an_eight(hand: str, kind: Kind) -> None:
    assert value(hand).kind is kind


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("6-6 6-3", "6-6 5-4"),  # Teen wongs
        ("1-1 6-3", "1-1 5-4"),  # Day wongs
        ("6-6 6-2", "6-6 4-4"),  # Teen gongs, whatever the eight
        ("6-6 5-3", "6-6 4-4"),
        ("1-1 6-2", "1-1 5-3"),
        ("6-6 5-1", "6-6 3-3"),  # 8 points, Teen high: the second tile does not count
        ("6-3 4-1", "5-4 3-2"),  # 4 points, a mixed nine high: the two nines rank equal
        ("5-2 6-5", "4-3 6-5"),  # 8 points, Foo high
    ],
)
def test_hands_with_the_same_class_and_high_tile_are_copies(first: str, second: str) -> None:
    assert value(first) == value(second)


@pytest.mark.parametrize(
    ("higher", "lower"),
    [
        ("6-6 5-1", "3-1 2-2"),  # 8 points: Teen over Gor
        ("4-4 5-1", "2-2 6-4"),  # 4 points: Yun over Bon
        ("3-3 6-2", "6-1 4-3"),  # 4 points: Chong over Tit
    ],
)
def test_within_points_the_higher_ranked_single_tile_breaks_the_tie(higher: str, lower: str) -> None:
    assert value(higher) > value(lower)


def test_points_come_before_the_high_tile() -> None:
    assert value("6-3 5-2") > value("6-6 1-1")  # 6 points, a mixed nine high, over 4 points, Teen high


@pytest.mark.parametrize(
    ("hand", "points"),
    [
        ("4-2 5-1", 9),  # 3 + 6, not 6 + 6 = 2
        ("2-1 6-2", 4),  # 6 + 8 = 4, not 3 + 8 = 1
        ("4-2 6-1", 3),  # 6 + 7, not 3 + 7 = 0
        ("2-1 4-3", 3),  # 6 + 7, not 3 + 7 = 0
        ("4-2 6-3", 5),  # 6 + 9, not 3 + 9 = 2
        ("2-1 5-5", 6),
        ("4-2 6-6", 8),
    ],
)
def test_a_gee_joon_tile_counts_3_or_6_whichever_makes_the_hand_higher(hand: str, points: int) -> None:
    assert value(hand).points == points


@pytest.mark.parametrize(
    ("hand", "points"),
    [("5-5 6-4", 0), ("6-6 6-4", 2), ("3-1 2-2", 8), ("6-5 5-4", 0), ("1-1 6-4", 2)],
)
def test_points_are_the_pips_mod_ten_as_the_czech_seed_counts_them(hand: str, points: int) -> None:
    assert value(hand).kind is Kind.POINTS
    assert value(hand).points == points


def test_a_zero_point_hand_never_beats_anything_and_zero_against_zero_is_a_copy() -> None:
    zeros = [two for two in itertools.combinations(TILE_SET, 2) if hand_value(two).points == 0]
    zeros = [two for two in zeros if hand_value(two).kind is Kind.POINTS]
    assert len({hand_value(two) for two in zeros}) == 1
    lowest_one = min(hand_value(two) for two in itertools.combinations(TILE_SET, 2) if hand_value(two).points == 1)
    assert hand_value(zeros[0]) < lowest_one
    assert value("5-5 6-4") == value("6-5 5-4") == value("3-3 2-2")


def test_without_zero_zero_copy_a_zero_is_ranked_by_its_high_tile() -> None:
    assert value("5-5 6-4", zero_zero_copy=False) > value("6-5 5-4", zero_zero_copy=False)
    assert value("5-5 6-4", zero_zero_copy=False).describe() == "0 points, high tile Mooy"
    assert value("5-5 6-4", zero_zero_copy=False) < value("6-5 5-5", zero_zero_copy=False)


def test_the_gee_joon_single_rank_option_moves_the_4_2_below_the_mixed_fives() -> None:
    # 8 points each: 4-2 (as 3) with 3-2, and 4-1 with 2-1 (as 3)
    assert value("4-2 3-2") > value("4-1 2-1")  # seed: 4-2 ranks above the mixed fives
    assert value("4-2 3-2").describe() == "8 points, high tile Gee Joon"
    assert value("4-2 3-2", gee_joon_single_rank="lowest") == value("4-1 2-1", gee_joon_single_rank="lowest")
    assert value("4-2 3-2", gee_joon_single_rank="lowest").describe() == "8 points, high tile mixed five"


@pytest.mark.parametrize("rank", ["seed", "lowest"])
def test_under_either_ranking_the_2_1_is_the_lowest_single_tile(rank: str) -> None:
    assert value("2-1 4-1", gee_joon_single_rank=rank).describe() == "8 points, high tile mixed five"
    assert value("2-1 5-1", gee_joon_single_rank=rank).describe() == "9 points, high tile Look"


def test_every_option_keeps_the_gee_joon_on_top_and_the_order_total() -> None:
    for options in itertools.product(("seed", "lowest"), (True, False), (True, False), (True, False)):
        rules = dict(
            zip(("gee_joon_single_rank", "zero_zero_copy", "gee_joon_as_zero", "peer_points"), options, strict=True)
        )
        values = [hand_value(two, **rules) for two in itertools.combinations(TILE_SET, 2)]  # type: ignore[arg-type]
        top = max(values)
        assert top.kind is Kind.GEE_JOON
        assert values.count(top) == 1


def test_the_peer_variant_can_count_a_gee_joon_tile_as_zero() -> None:
    assert value("5-3 2-1", gee_joon_as_zero=True).points == 8  # the Czech seed: 3/5 + 1/2 = 8
    assert value("5-3 2-1").points == 4
    assert value("4-2 6-3", gee_joon_as_zero=True).points == 9
    assert value("4-2 2-1", gee_joon_as_zero=True).kind is Kind.GEE_JOON
    assert value("4-2 2-1", gee_joon_as_zero=True).points == 9  # "both together make 9, the highest"


def test_the_peer_variant_counts_a_gong_10_and_a_wong_11_without_changing_the_order() -> None:
    assert (value("1-1 5-3", peer_points=True).points, value("6-6 6-3", peer_points=True).points) == (10, 11)
    assert (value("1-1 5-3").points, value("6-6 6-3").points) == (0, 1)
    hands = list(itertools.combinations(TILE_SET, 2))
    plain = [hand_value(h) for h in hands]
    peer = [hand_value(h, peer_points=True) for h in hands]
    for (a, b), (pa, pb) in zip(itertools.combinations(plain, 2), itertools.combinations(peer, 2), strict=True):
        assert (a > b, a == b) == (pa > pb, pa == pb)


def test_hand_values_do_not_depend_on_the_order_of_the_tiles() -> None:
    for a, b in itertools.combinations(TILE_SET, 2):
        assert hand_value((a, b)) == hand_value((b, a))


# --- settings and fouls ----------------------------------------------------------------------------


def test_four_tiles_can_be_set_three_ways_none_of_them_fouled() -> None:
    four = parse_tiles("3-1 6-6 2-2 5-4")
    all_settings = pgt.settings(four)
    assert len(all_settings) == 3 == len(set(all_settings))
    for setting in all_settings:
        assert sorted(setting.tiles) == sorted(four)
        assert not is_foul(setting)
        assert hand_value(setting.high) >= hand_value(setting.low)


def test_repeated_tiles_can_make_two_of_the_three_settings_the_same() -> None:
    assert len(set(pgt.settings(parse_tiles("6-6 6-6 1-1 1-1")))) == 2


def test_a_setting_is_the_same_however_its_tiles_were_written() -> None:
    assert Setting.parse("5-4 6-6", "2-2 1-3") == Setting.parse("6-6 4-5", "3-1 2-2")
    assert str(Setting.parse("5-4 6-6", "2-2 1-3")) == "high: 6-6 5-4, low: 3-1 2-2"


@pytest.mark.parametrize(
    ("high", "low", "fouled"),
    [
        ("6-6 6-6", "4-2 2-1", True),  # the Gee Joon low
        ("6-5 6-4", "6-6 5-4", True),  # a wong low, 1 point high
        ("6-6 5-1", "6-6 3-3", False),  # copies: the high hand does not rank below the low
        ("5-5 6-4", "6-5 5-4", False),  # 0 against 0 is a copy
        ("6-5 5-4", "5-1 4-1", True),  # 0 points high, 1 point low
    ],
)
def test_a_setting_is_fouled_only_when_its_low_hand_ranks_above_its_high_hand(
    high: str, low: str, fouled: bool
) -> None:
    assert is_foul(Setting.parse(high, low)) is fouled


# --- settling against the banker ------------------------------------------------------------------

SETTLING = [
    # player high, player low, banker high, banker low, outcome
    ("6-6 6-6", "1-1 6-3", "3-1 3-1", "5-1 4-1", Outcome.WIN),  # both strictly higher
    ("6-6 6-6", "5-1 4-1", "3-1 3-1", "1-1 6-3", Outcome.PUSH),  # high won, low lost
    ("3-1 3-1", "5-1 4-1", "6-6 6-6", "1-1 6-3", Outcome.LOSS),  # both lower
    ("6-6 5-1", "6-5 5-2", "6-6 3-3", "4-4 4-1", Outcome.PUSH),  # high copy, low won
    ("6-6 5-1", "4-4 4-1", "6-6 3-3", "6-5 5-2", Outcome.LOSS),  # high copy, low lost
    ("6-6 5-1", "6-4 5-3", "6-6 3-3", "6-4 6-2", Outcome.LOSS),  # both copies go to the banker
    ("6-6 5-1", "5-5 6-4", "4-4 3-3", "6-5 5-4", Outcome.PUSH),  # 0 against 0: a copy, and the high won
    ("6-6 5-1", "5-5 6-4", "6-6 6-1", "6-5 5-4", Outcome.LOSS),  # a copy low and a lost high
]


@pytest.mark.parametrize(
    ("p_high", "p_low", "b_high", "b_low", "expected"),
    SETTLING,
    ids=[
        "both hands higher: the player wins",
        "one hand each: a push",
        "both hands lower: the banker wins",
        "a copy high and a better low: a push",
        "a copy high and a worse low: the banker wins",
        "copies both: the banker wins",
        "0 against 0 is a copy, the high hand won: a push",
        "0 against 0 is a copy, the high hand lost: the banker wins",
    ],
)
def test_a_wager_is_settled_hand_against_hand(
    p_high: str, p_low: str, b_high: str, b_low: str, expected: Outcome
) -> None:
    assert outcome(Setting.parse(p_high, p_low), Setting.parse(b_high, b_low)) is expected


def test_a_fouled_player_setting_loses_whatever_it_holds() -> None:
    fouled = Setting.parse("6-5 5-3", "6-6 6-6")  # Teens low, 9 points high
    banker = Setting.parse("6-4 5-1", "6-1 2-2")
    assert is_foul(fouled)
    assert outcome(fouled, banker) is Outcome.LOSS
    assert outcome(Setting.parse("6-6 6-6", "6-5 5-3"), banker) is Outcome.WIN  # the same tiles, set right


def test_a_fouled_player_setting_can_be_reset_by_the_house_way_instead() -> None:
    fouled = Setting.parse("6-5 5-3", "6-6 6-6")
    banker = Setting.parse("6-4 5-1", "6-1 2-2")
    assert outcome(fouled, banker, foul_policy="house_way") is Outcome.WIN


def test_a_fouled_bank_setting_is_reset_by_the_house_way() -> None:
    player = Setting.parse("1-1 6-3", "5-5 4-3")  # a Day wong, 7 points Mooy high
    fouled_bank = Setting.parse("3-1 4-4", "6-6 6-1")  # 2 points high, 9 points low
    reset = pgt.house_way(fouled_bank.tiles)
    assert str(reset) == "high: 6-6 4-4, low: 3-1 6-1"  # a Teen gong, 1 point
    assert outcome(player, fouled_bank) is Outcome.WIN is outcome(player, reset)  # as set, it would be a push


def test_settling_refuses_more_of_a_tile_than_the_set_holds() -> None:
    with pytest.raises(InvalidHand, match="mixed nine 6-3 appears 2 times; the set has 1"):
        outcome(Setting.parse("6-6 6-3", "5-1 4-1"), Setting.parse("1-1 6-3", "3-1 3-2"))


# --- the peer variant -------------------------------------------------------------------------------


def test_in_the_peer_variant_everyone_is_compared_with_everyone() -> None:
    results = peer_results(
        {
            1: Setting.parse("6-6 6-6", "1-1 5-4"),  # Teens, a Day wong
            2: Setting.parse("4-4 6-1", "3-1 5-1"),  # 5 points Yun high, 0 points
            3: Setting.parse("4-2 2-1", "5-5 6-4"),  # the Gee Joon, 0 points
            4: Setting.parse("6-5 6-4", "5-1 6-3"),  # 1 point Foo high, 5 points Look high: fouled
        },
        gee_joon_as_zero=True,
        peer_points=True,
    )
    assert len(results) == 12
    assert results[1, 2] is Outcome.WIN and results[2, 1] is Outcome.LOSS
    assert results[1, 3] is Outcome.PUSH  # one hand each
    assert results[2, 3] is Outcome.PUSH  # the Gee Joon wins high, the two zeros are a copy: a draw
    assert results[4, 1] is Outcome.LOSS and results[4, 2] is Outcome.LOSS  # the fouled setting loses


def test_two_fouled_peers_draw_and_a_reset_peer_plays_its_house_way() -> None:
    fouled_a = Setting.parse("6-5 5-3", "6-6 6-6")
    fouled_b = Setting.parse("6-4 5-1", "1-1 1-1")
    assert peer_results({"a": fouled_a, "b": fouled_b})["a", "b"] is Outcome.PUSH
    assert peer_results({"a": fouled_a, "b": fouled_b}, foul_policy="house_way")["a", "b"] is Outcome.WIN


seats = st.integers(min_value=2, max_value=4)


@settings(max_examples=300, deadline=None)
@given(
    order=st.permutations(TILE_SET),
    n=seats,
    picks=st.lists(st.integers(0, 2), min_size=4, max_size=4),
    flips=st.lists(st.booleans(), min_size=4, max_size=4),
)
def test_peer_results_are_antisymmetric_and_cover_every_pair_of_seats(
    order: list[Tile], n: int, picks: list[int], flips: list[bool]
) -> None:
    by_seat = {}
    for seat in range(n):
        setting = pgt.settings(order[4 * seat : 4 * seat + 4])[picks[seat]]
        by_seat[seat] = Setting(setting.low, setting.high) if flips[seat] else setting  # some fouled
    results = peer_results(by_seat)
    assert set(results) == {(a, b) for a in range(n) for b in range(n) if a != b}
    for (a, b), result in results.items():
        assert results[b, a] is result.reversed


# --- bad input ---------------------------------------------------------------------------------------

SIX_SIX, ONE_ONE, NINE = Tile(6, 6), Tile(1, 1), Tile(6, 3)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: hand_value((SIX_SIX, ONE_ONE, NINE)), "hand: 2 tiles expected, got 3"),
        (lambda: hand_value((SIX_SIX,)), "hand: 2 tiles expected, got 1"),
        (lambda: hand_value((NINE, NINE)), "hand: mixed nine 6-3 appears 2 times; the set has 1"),
        (lambda: hand_value(("6-6", "1-1")), "hand: tiles expected, got '6-6'"),  # type: ignore[arg-type]
        (lambda: pgt.settings((SIX_SIX, ONE_ONE, NINE)), "hand: 4 tiles expected, got 3"),
        (lambda: pgt.house_way((SIX_SIX, SIX_SIX, SIX_SIX, NINE)), "hand: Teen 6-6 appears 3 times; the set has 2"),
        (lambda: pgt.house_way((SIX_SIX, NINE, NINE, ONE_ONE)), "hand: mixed nine 6-3 appears 2 times"),
        (lambda: pgt.house_way(parse_tiles("6-6 1-1 6-3 5-4 2-2")), "hand: 4 tiles expected, got 5"),
        (lambda: Setting((SIX_SIX, ONE_ONE, NINE), (Tile(2, 2),)), "high hand: 2 tiles expected, got 3"),  # type: ignore[arg-type]
        (lambda: Setting.parse("6-6 1-1", "6-6 6-6"), "Teen 6-6 appears 3 times; the set has 2"),
    ],
    ids=[
        "three tiles for one hand",
        "one tile for one hand",
        "a single tile twice",
        "text where tiles belong",
        "three tiles to set",
        "three Teens",
        "a mixed nine twice",
        "five tiles to set",
        "a setting of three and one",
        "a setting with three Teens",
    ],
)
def test_bad_hands_are_refused_in_the_dealers_words(call: object, message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        call()  # type: ignore[operator]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: pgt.house_way(parse_tiles("6-6 1-1 6-3 2-2"), "vegas"),
            "unknown house way 'vegas': choose one of foxwoods",
        ),
        (lambda: value("6-6 1-1", gee_joon_single_rank="middle"), "unknown gee_joon_single_rank 'middle'"),
        (
            lambda: outcome(
                Setting.parse("6-6 1-1", "6-3 2-2"), Setting.parse("5-5 4-4", "3-1 2-1"), foul_policy="push"
            ),
            "unknown foul policy 'push'",
        ),
    ],
    ids=["an unknown house way", "an unknown Gee Joon ranking", "an unknown foul policy"],
)
def test_unknown_options_are_refused_naming_the_choices(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]


def test_every_face_pair_the_set_can_hold_has_a_value() -> None:
    for a in TILE_FACES:
        for b in TILE_FACES:
            if a is b and a.copies == 1:
                with pytest.raises(InvalidHand):
                    hand_value((a, b))
            else:
                assert isinstance(hand_value((a, b)), int)
