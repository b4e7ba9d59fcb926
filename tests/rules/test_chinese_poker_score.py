"""Chinese Poker scoring, every player against every other (GAME_RULES.md §3).

Arrangements, fouls, royalties, naturals and the swap itself are in test_chinese_poker.py.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.games.cards import CARDS, Card
from rules.games.chinese_poker import POINTS_SYSTEMS, ROYALTY_TABLES, Arrangement, PairScore, ScoreSheet, score
from rules.games.errors import InvalidHand
from rules.games.poker import high_hand


def arr(text: str) -> Arrangement:
    """``"front / middle / back"`` in card notation."""
    front, middle, back = text.split("/")
    return Arrangement.parse(front, middle, back)


# --- the seed's worked example ----------------------------------------------------------------

PLAYER_1 = arr("8s 8h 8d / Kh Qh Jd Th 9h / 7s 7h 7d Ts Td")
PLAYER_2 = arr("Ks Js 4s / Kc Qc 8c 7c 5c / Ad Qd 9d 6d 2d")  # three flushes: spades, clubs, diamonds
PLAYER_3 = arr("Qs Tc 5h / Ah Ac 2h 2c 4d / 3s 3h 3d 3c 6h")
SEED_TABLE = {1: PLAYER_1, 2: PLAYER_2, 3: PLAYER_3}


def test_the_seeds_worked_example_scores_minus_one_six_and_minus_five() -> None:
    sheet = score(SEED_TABLE, scoring="2-4", royalties="seed")
    assert sheet.totals == {1: -1, 2: 6, 3: -5}
    assert sheet.pair(2, 1).natural == sheet.pair(2, 3).natural == 3
    assert sheet.pair(2, 1).royalties == sheet.pair(2, 3).royalties == 0  # player 1's trips earn nothing here
    one_vs_three = sheet.pair(1, 3)
    assert (one_vs_three.won, one_vs_three.lost, one_vs_three.ties) == (2, 1, 0)
    assert (one_vs_three.system, one_vs_three.royalties, one_vs_three.net) == (2, 0, 2)  # +3 trips, -3 quads


def test_the_seeds_worked_example_at_each_pairs_own_value_a_point_in_cents() -> None:
    stakes = {frozenset({1, 2}): 100, frozenset({1, 3}): 25, frozenset({2, 3}): 50}
    sheet = score(SEED_TABLE, stakes=stakes)
    assert sheet.totals_cents == {1: -300 + 50, 2: 300 + 150, 3: -50 - 150}
    assert score(SEED_TABLE, stakes=10).totals_cents == {1: -10, 2: 60, 3: -50}
    assert score(SEED_TABLE).totals_cents is None


def test_stakes_must_be_agreed_for_every_pair_and_not_negative() -> None:
    with pytest.raises(InvalidHand, match="no value a point agreed between 2 and 3"):
        score(SEED_TABLE, stakes={frozenset({1, 2}): 100, frozenset({1, 3}): 25})
    with pytest.raises(InvalidHand, match="negative"):
        score(SEED_TABLE, stakes=-5)


# --- the points systems -----------------------------------------------------------------------
# Three hands, row by row: a high one, a low one and a high one's twin in other suits (a tie).
# Each row of each is legal under the others (front high card, middle one pair, back two pair).
ROWS = {
    "front": ("Ks Qs 9d", "Jh Th 8c", "Kh Qh 9c"),
    "middle": ("5s 5d 2c 3h 7s", "4h 4c 2d 3d 7h", "5h 5c 2h 3c 7d"),
    "back": ("As Ad 6s 6d Tc", "Js Jd 8s 8d 4s", "Ah Ac 6h 6c Td"),
}
HIGH, LOW, TWIN = (arr(" / ".join(ROWS[row][i] for row in ROWS)) for i in range(3))


def pair_of_hands(rows: str) -> tuple[Arrangement, Arrangement]:
    """Two hands whose rows, front to back, go ``W`` (the first wins), ``L`` or ``T`` (a tie)."""
    picks = {"W": (0, 1), "L": (1, 0), "T": (0, 2)}
    a, b = (
        arr(" / ".join(ROWS[row][picks[outcome][side]] for row, outcome in zip(ROWS, rows, strict=True)))
        for side in (0, 1)
    )
    return a, b


LINES = {"3-0": "WWW", "2-1": "WWL", "2-0": "WWT", "1-0": "WTT", "1-1": "WLT", "0-0": "TTT"}
SYSTEM_LINES = {
    "2-4": {"3-0": 4, "2-1": 2, "2-0": 3, "1-0": 2, "1-1": 0, "0-0": 0},
    "1-6": {"3-0": 6, "2-1": 1, "2-0": 2, "1-0": 1, "1-1": 0, "0-0": 0},
    "1-4": {"3-0": 4, "2-1": 1, "2-0": 2, "1-0": 1, "1-1": 0, "0-0": 0},
}
SYSTEM_CASES = [(system, line, points) for system, lines in SYSTEM_LINES.items() for line, points in lines.items()]


@pytest.mark.parametrize(("system", "line", "points"), SYSTEM_CASES, ids=[f"{s} {line}" for s, line, _ in SYSTEM_CASES])
def test_each_line_of_each_points_system(system: str, line: str, points: int) -> None:
    for rows in sorted(set(itertools.permutations(LINES[line]))):  # which row is won does not matter
        a, b = pair_of_hands("".join(rows))
        sheet = score({"ann": a, "bob": b}, scoring=system)
        ann = sheet.pair("ann", "bob")
        won, lost = map(int, line.split("-"))
        assert (ann.won, ann.lost, ann.ties) == (won, lost, 3 - won - lost)
        assert (ann.system, ann.royalties, ann.net) == (points, 0, points)
        assert sheet.totals == {"ann": points, "bob": -points}
        assert sheet.pair("bob", "ann").net == -points


def test_an_unknown_points_system_is_refused() -> None:
    with pytest.raises(InvalidHand, match="no points system '3-9'"):
        score({"ann": HIGH, "bob": LOW}, scoring="3-9")


# --- royalties and fouls ----------------------------------------------------------------------

ROYAL = arr("5s 5h 5d / Kh Kd Kc 2s 2d / As Ks Qs Js Ts")  # royalties 3 + 1 + 5
PLAIN = arr("Ah Qh 9c / 4s 4h 6c 7d 8h / 9s 9h 3c 3d Jc")
FOULED = arr("9s 9h 9d / Qh Jd 8c 7h 3c / Qd Qc 6h 6c 4h")  # trips over high card; its trips earn nothing
FOULED_TOO = arr("Ah Ad Ac / Jh Jc Th 8d 4d / 7s 7d 7c 3s 3d")

FOUL_CASES = [
    ({"royal": ROYAL, "plain": PLAIN}, "2-4", {"royal": 4 + 9, "plain": -13}, "royalties paid on top of a scoop"),
    ({"royal": ROYAL, "fouled": FOULED}, "2-4", {"royal": 13, "fouled": -13}, "a foul pays the scoop and royalties"),
    ({"royal": ROYAL, "fouled": FOULED}, "1-6", {"royal": 15, "fouled": -15}, "a foul pays the 1-6 scoop"),
    ({"royal": ROYAL, "fouled": FOULED}, "1-4", {"royal": 13, "fouled": -13}, "a foul pays the 1-4 scoop"),
    ({"fouled": FOULED, "too": FOULED_TOO}, "2-4", {"fouled": 0, "too": 0}, "two fouls score nothing"),
    (
        {"royal": ROYAL, "fouled": FOULED, "too": FOULED_TOO},
        "2-4",
        {"royal": 26, "fouled": -13, "too": -13},
        "two fouls pay the third and not each other",
    ),
]


@pytest.mark.parametrize(("hands", "system", "totals", "why"), FOUL_CASES, ids=[r[3] for r in FOUL_CASES])
def test_royalties_and_fouls(hands: dict[str, Arrangement], system: str, totals: dict[str, int], why: str) -> None:
    assert score(hands, scoring=system).totals == totals


def test_a_fouled_hand_is_recorded_as_scooped_and_its_royalties_dropped() -> None:
    sheet = score({"royal": ROYAL, "fouled": FOULED})
    fouled = sheet.pair("fouled", "royal")
    assert (fouled.won, fouled.lost, fouled.system, fouled.royalties, fouled.fouled, fouled.opponent_fouled) == (
        0,
        3,
        -4,
        -9,
        True,
        False,
    )
    assert sheet.pair("royal", "fouled").opponent_fouled


def test_royalties_can_be_switched_off_at_the_table() -> None:
    assert score({"royal": ROYAL, "plain": PLAIN}, royalties=None).totals == {"royal": 4, "plain": -4}
    assert score({"royal": ROYAL, "plain": PLAIN}, royalties="none").totals == {"royal": 4, "plain": -4}
    with pytest.raises(InvalidHand, match="no royalty table"):
        score({"royal": ROYAL, "plain": PLAIN}, royalties="mainz")


def test_the_seeds_table_with_player_one_mis_set() -> None:
    mis_set = arr("8s 8h 8d / 7s 7h 7d Ts Td / Kh Qh Jd Th 9h")  # full house over a straight
    sheet = score({1: mis_set, 2: PLAYER_2, 3: PLAYER_3})
    assert sheet.pair(2, 1).natural == 3  # the natural is paid whatever the other hand
    assert sheet.pair(3, 1).net == 4 + 3  # the scoop and player 3's quads
    assert sheet.totals == {1: -10, 2: 6, 3: 4}


# --- naturals ---------------------------------------------------------------------------------

SIX_PAIRS = arr("4s 4h 5d / 5c 7s 7h 9d 9c / Js Jh Kd Kc As")
FLUSHES = arr("2s 3s 5s / 2d 3d 4d 6d 7d / 2h 3h 5h 6h 8h")
FLUSHES_TOO = arr("2c 3c 4c / 6c 8c Tc Jc Qc / 8s 9s Ts Qs Ks")
NATURAL_CASES = [
    ({"six": SIX_PAIRS, "p3": PLAYER_3}, "higher", {"six": 6, "p3": -6}, "a natural wins its points"),
    ({"six": SIX_PAIRS, "fl": FLUSHES}, "higher", {"six": 6, "fl": -6}, "the higher natural wins its own value"),
    ({"fl": FLUSHES, "fl2": FLUSHES_TOO}, "higher", {"fl": 0, "fl2": 0}, "equal naturals push"),
    (
        {"six": SIX_PAIRS, "fl": FLUSHES, "fl2": FLUSHES_TOO},
        "higher",
        {"six": 12, "fl": -6, "fl2": -6},
        "three naturals",
    ),
    ({"six": SIX_PAIRS, "fl": FLUSHES}, "push", {"six": 0, "fl": 0}, "option: two naturals always push"),
]


@pytest.mark.parametrize(("hands", "option", "totals", "why"), NATURAL_CASES, ids=[r[3] for r in NATURAL_CASES])
def test_naturals_against_hands_and_against_each_other(
    hands: dict[str, Arrangement], option: str, totals: dict[str, int], why: str
) -> None:
    sheet = score(hands, natural_vs_natural=option)  # type: ignore[arg-type]
    assert sheet.totals == totals
    for (a, b), pair in sheet.pairs.items():
        assert pair.net == pair.natural and pair.won == pair.lost == pair.system == pair.royalties == 0, (a, b)


def test_a_player_may_play_a_natural_out_instead_and_may_not_claim_one_not_held() -> None:
    claimed = score({"six": SIX_PAIRS, "p3": PLAYER_3})
    played = score({"six": (SIX_PAIRS, False), "p3": PLAYER_3})
    assert claimed.totals == score({"six": (SIX_PAIRS, True), "p3": PLAYER_3}).totals == {"six": 6, "p3": -6}
    # played out: fours win the front; aces up take the middle and the quads the back
    assert played.pair("six", "p3").natural == 0
    assert (played.pair("six", "p3").won, played.pair("six", "p3").lost) == (1, 2)
    assert played.totals == score({"six": SIX_PAIRS, "p3": PLAYER_3}, naturals=False).totals
    with pytest.raises(InvalidHand, match="claims a natural but holds none"):
        score({"six": SIX_PAIRS, "p3": (PLAYER_3, True)})
    with pytest.raises(InvalidHand, match="naturals are off"):
        score({"six": (SIX_PAIRS, True), "p3": PLAYER_3}, naturals=False)


# --- surrender --------------------------------------------------------------------------------

SURRENDER_POINTS = {"2-4": 3, "1-6": 2, "1-4": 2}


@pytest.mark.parametrize(("system", "points"), SURRENDER_POINTS.items())
def test_a_surrender_loses_nought_two_under_each_points_system(system: str, points: int) -> None:
    sheet = score({"high": HIGH, "low": LOW, "twin": TWIN}, scoring=system, surrender={"high"})
    scoop = SYSTEM_LINES[system]["3-0"]  # the twin of the high hand scoops the low one
    assert sheet.totals == {"high": -2 * points, "low": points - scoop, "twin": points + scoop}
    high = sheet.pair("high", "twin")
    assert (high.won, high.lost, high.surrender, high.net) == (0, 2, -points, -points)


SURRENDER_CASES = [
    ({"a": HIGH, "b": LOW, "c": TWIN}, {"b", "c"}, {"a": 6, "b": -3, "c": -3}, "two surrenders score nothing together"),
    ({"a": HIGH, "b": LOW}, {"a", "b"}, {"a": 0, "b": 0}, "everyone surrenders"),
    (
        {"six": SIX_PAIRS, "p3": PLAYER_3},
        {"p3"},
        {"six": 6, "p3": -6},
        "a natural collects its points from a surrender",
    ),
    ({"six": SIX_PAIRS, "p3": PLAYER_3}, {"six"}, {"six": -3, "p3": 3}, "a natural surrendered is not shown"),
    ({"royal": ROYAL, "fouled": FOULED}, {"royal"}, {"royal": -3, "fouled": 3}, "a surrender pays even a foul"),
    ({"royal": ROYAL, "fouled": FOULED}, {"fouled"}, {"royal": 3, "fouled": -3}, "a surrender pays no royalties"),
]


@pytest.mark.parametrize(("hands", "out", "totals", "why"), SURRENDER_CASES, ids=[r[3] for r in SURRENDER_CASES])
def test_surrender_against_surrenders_naturals_and_fouls(
    hands: dict[str, Arrangement], out: set[str], totals: dict[str, int], why: str
) -> None:
    assert score(hands, surrender=out).totals == totals


# --- the swap ---------------------------------------------------------------------------------


def test_a_swap_costs_two_points_to_each_other_player_with_three_at_the_table() -> None:
    sheet = score({"high": HIGH, "low": LOW, "twin": TWIN}, swapped={"low"})
    assert sheet.totals == {"high": 4 + 2, "low": -12, "twin": 4 + 2}
    assert sheet.pair("low", "high").swap == -2 and sheet.pair("high", "twin").swap == 0
    both = score({"high": HIGH, "low": LOW, "twin": TWIN}, swapped={"low", "high"}, surrender={"low"})
    assert both.pair("high", "low").swap == 0 and both.pair("high", "low").surrender == 3
    assert both.totals == {"high": 3 - 2, "low": -3 - 3 - 2, "twin": 3 + 2 + 2}


def test_the_swap_is_for_three_players_only() -> None:
    with pytest.raises(InvalidHand, match="three players only, not 2"):
        score({"high": HIGH, "low": LOW}, swapped={"low"})


# --- the table --------------------------------------------------------------------------------

BAD_TABLES = [
    ({"a": HIGH}, {}, "two to four players, got 1"),
    ({"a": HIGH, "b": HIGH}, {}, "K♠ appears twice"),
    ({"a": HIGH, "b": LOW}, {"surrender": {"c"}}, "'c' surrendered but has no hand at the table"),
    ({"a": HIGH, "b": LOW}, {"natural_vs_natural": "both"}, "natural_vs_natural must be"),
    ({"a": HIGH, "b": ("Ks Qs 9d", True)}, {}, "an arrangement expected"),
]


@pytest.mark.parametrize(("hands", "options", "message"), BAD_TABLES, ids=[r[2] for r in BAD_TABLES])
def test_a_wrong_table_is_refused_in_the_dealers_words(
    hands: dict[str, object], options: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidHand, match=message):
        score(hands, **options)  # type: ignore[arg-type]


def test_the_sheet_lists_every_ordered_pair_once() -> None:
    sheet = score({"high": HIGH, "low": LOW, "twin": TWIN})
    assert set(sheet.pairs) == set(itertools.permutations(["high", "low", "twin"], 2))
    assert sheet.pairs["high", "low"] == sheet.pair("high", "low")
    with pytest.raises(KeyError):
        sheet.pair("high", "high")


# --- invariants -------------------------------------------------------------------------------

NATURAL_HANDS = [SIX_PAIRS, FLUSHES, FLUSHES_TOO, PLAYER_2]


def _set(cards: list[Card], tidy: bool) -> Arrangement:
    front, middle, back = tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:13])
    if tidy and high_hand(middle, wheel_second_highest=False) > high_hand(back, wheel_second_highest=False):
        middle, back = back, middle
    return Arrangement(front, middle, back)


@st.composite
def tables(draw: st.DrawFn) -> tuple[dict[int, Arrangement | tuple[Arrangement, bool]], dict[str, Any]]:
    players = draw(st.integers(2, 4))
    deck = draw(st.permutations(CARDS))
    first = draw(st.sampled_from([None, *NATURAL_HANDS]))
    if first is not None:  # a natural in the first seat, the rest dealt from what is left
        deck = [*first.cards, *(c for c in deck if c not in first.cards)]
    hands: dict[int, Arrangement | tuple[Arrangement, bool]] = {}
    for p in range(players):
        hand = first if p == 0 and first is not None else _set(deck[13 * p : 13 * p + 13], draw(st.booleans()))
        hands[p] = (hand, False) if draw(st.integers(0, 5)) == 0 else hand
    options: dict[str, Any] = {
        "scoring": draw(st.sampled_from(sorted(POINTS_SYSTEMS))),
        "royalties": draw(st.sampled_from([*ROYALTY_TABLES, None])),
        "surrender": draw(st.frozensets(st.integers(0, players - 1), max_size=players)),
        "swapped": draw(st.frozensets(st.integers(0, 2))) if players == 3 else frozenset(),
        "natural_vs_natural": draw(st.sampled_from(["higher", "push"])),
        "stakes": draw(
            st.one_of(
                st.integers(0, 500),
                st.fixed_dictionaries(
                    {frozenset(pair): st.integers(0, 500) for pair in itertools.combinations(range(players), 2)}
                ),
            )
        ),
    }
    return hands, options


def _items(pair: PairScore[int]) -> tuple[object, ...]:
    return (pair.won, pair.lost, pair.ties, pair.system, pair.royalties, pair.natural, pair.surrender, pair.swap)


def _mirrors(pair: PairScore[int], other: PairScore[int]) -> bool:
    return (pair.player, pair.opponent, pair.won, pair.lost, pair.ties, pair.fouled) == (
        other.opponent,
        other.player,
        other.lost,
        other.won,
        other.ties,
        other.opponent_fouled,
    ) and (pair.system, pair.royalties, pair.natural, pair.surrender, pair.swap, pair.net) == (
        -other.system,
        -other.royalties,
        -other.natural,
        -other.surrender,
        -other.swap,
        -other.net,
    )


@settings(max_examples=300, deadline=None)
@given(tables())
def test_every_score_sheet_sums_to_zero_and_each_pair_mirrors(
    table: tuple[dict[int, Arrangement | tuple[Arrangement, bool]], dict[str, Any]],
) -> None:
    hands, options = table
    sheet: ScoreSheet[int] = score(hands, **options)
    assert sum(sheet.totals.values()) == 0
    assert sheet.totals_cents is not None and sum(sheet.totals_cents.values()) == 0
    for (a, b), pair in sheet.pairs.items():
        assert _mirrors(pair, sheet.pair(b, a))
        assert pair.net == pair.system + pair.royalties + pair.natural + pair.surrender + pair.swap
        assert pair.won + pair.lost + pair.ties <= 3
    for player in hands:
        assert sheet.totals[player] == sum(sheet.pair(player, other).net for other in hands if other != player)


@settings(max_examples=200, deadline=None)
@given(tables(), st.data())
def test_swapping_two_players_seats_negates_their_pair_score(
    table: tuple[dict[int, Arrangement | tuple[Arrangement, bool]], dict[str, Any]], data: st.DataObject
) -> None:
    hands, options = table
    a, b = data.draw(st.sampled_from(list(itertools.combinations(sorted(hands), 2))))
    before = score(hands, **options)
    exchanged = {**hands, a: hands[b], b: hands[a]}

    seat_of = {a: b, b: a}

    def moved(group: frozenset[int]) -> frozenset[int]:
        return frozenset(seat_of.get(p, p) for p in group)

    after = score(
        exchanged, **{**options, "surrender": moved(options["surrender"]), "swapped": moved(options["swapped"])}
    )
    assert after.pair(a, b).net == -before.pair(a, b).net
    assert _items(after.pair(a, b)) == _items(before.pair(b, a))
    assert (after.totals[a], after.totals[b]) == (before.totals[b], before.totals[a])
