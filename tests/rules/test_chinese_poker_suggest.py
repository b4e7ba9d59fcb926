"""Setting advice for Chinese Poker (GAME_RULES.md §3): every legal split, ranked by a documented objective."""

from __future__ import annotations

import doctest
import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.games import chinese_poker_suggest as cps
from rules.games.cards import CARDS, JOKER, Card, parse_cards
from rules.games.chinese_poker import Arrangement, is_foul, points_system, royalties, royalty_table, score
from rules.games.chinese_poker_suggest import compare_objectives, suggest
from rules.games.errors import InvalidHand
from rules.games.poker import Category


def test_the_examples_in_the_module_docstrings_hold() -> None:
    assert doctest.testmod(cps).failed == 0


def test_thirteen_cards_split_72072_ways_each_a_front_of_three_a_middle_and_a_back_of_five() -> None:
    s = cps._splits()
    assert len(s.front) == 72_072 == len(set(zip(s.front.tolist(), s.middle.tolist(), s.back.tolist(), strict=True)))
    for i in range(0, 72_072, 997):
        positions = [*s.threes[s.front[i]], *s.fives[s.middle[i]], *s.fives[s.back[i]]]
        assert sorted(positions) == list(range(13))


HANDS = [
    ("As Ah Kd Kc 7s 7h 7d 9c Jd 2s 4h 5c Qd", "aces, kings and trips"),
    ("2s 3d 4h 5c 6s 8d 9h Tc Js Qd Kh Ac 7c", "a 13-card straight"),
    ("As Ks Qs Js Ts 9h 9d 4c 4h 3d 2c 6h 7c", "a royal flush"),
    ("2c 5d 7h 9s Jc 3d 6h 8s Tc 4d Qh Kc 3s", "nothing much"),
]


@pytest.mark.parametrize("hand", [h for h, _ in HANDS], ids=[case for _, case in HANDS])
def test_the_legal_splits_are_exactly_the_arrangements_that_do_not_foul(hand: str) -> None:
    cards = parse_cards(hand)
    legal = cps._legal(cps._hand_indices(cards), royalty_table("seed"))
    fouls = []
    for split in range(0, 72_072, 37):
        arrangement = cps._arrangement(legal.hand, split)
        fouls.append(is_foul(arrangement))
        if not fouls[-1]:
            position = int(np.searchsorted(legal.split, split))
            assert legal.split[position] == split
            assert tuple(arrangement.values) == (legal.front[position], legal.middle[position], legal.back[position])
            assert legal.royalties[position] == royalties(arrangement)
    assert sum(not f for f in fouls) == np.isin(np.arange(0, 72_072, 37), legal.split).sum()


SETTINGS = [
    # hand, what the best setting must show, the case
    ("As Ks Qs Js Ts 9h 9d 4c 4h 3d 2c 6h 7c", "royal flush in back", "a royal flush goes in back, royalties 5"),
    ("9s 9h 9d 9c 2s 5h 7d Jc Qh 3c 4d 8s Kh", "four nines in back", "four of a kind goes in back"),
    ("2s 3d 4h 5c 6s 8d 9h Tc Js Qd Kh Ac 7c", "two straights", "a 13-card straight keeps two straights"),
]


@pytest.mark.parametrize(("hand", "shows"), [r[:2] for r in SETTINGS], ids=[r[2] for r in SETTINGS])
def test_the_best_setting_keeps_a_big_hand_together(hand: str, shows: str) -> None:
    best = suggest(parse_cards(hand), top=1)[0]
    front, middle, back = best.values
    if shows == "royal flush in back":
        assert back.category is Category.ROYAL_FLUSH and best.royalties == 5
    elif shows == "four nines in back":
        assert back.category is Category.FOUR_OF_A_KIND and back.ranks[0] == 9
    else:
        assert middle.category is Category.STRAIGHT and back.category is Category.STRAIGHT


def test_suggestions_are_distinct_settings_best_first_of_the_very_cards_dealt() -> None:
    cards = parse_cards("As Ah Kd Kc 7s 7h 7d 9c Jd 2s 4h 5c Qd")
    found = suggest(cards, top=5)
    assert len(found) == 5 == len({s.values for s in found})
    assert [s.score for s in found] == sorted((s.score for s in found), reverse=True)
    for s in found:
        assert sorted(s.arrangement.cards) == sorted(cards) and s.royalties == royalties(s.arrangement)
        assert all(0.0 <= p <= 1.0 for p in s.win_chances)


def test_the_strength_score_is_the_expected_points_of_independent_rows_under_the_points_system() -> None:
    cards = parse_cards("2c 5d 7h 9s Jc 3d 6h 8s Tc 4d Qh Kc 3s")
    legal = cps._legal(cps._hand_indices(cards), royalty_table("seed"))
    tables = cps._calibration()
    for name in ("2-4", "1-6", "1-4"):
        system = points_system(name)
        points, _ = cps._expected_points(legal, tables, system)
        for i in range(0, len(legal.split), 4001):
            chances = []
            for table, value in zip(tables, (legal.front[i], legal.middle[i], legal.back[i]), strict=True):
                win, tie = (float(x[0]) for x in table.chances(np.array([value])))
                chances.append({1: win, 0: tie, -1: 1.0 - win - tie})
            expected = float(legal.royalties[i])
            for outcome in itertools.product((1, 0, -1), repeat=3):
                won, lost = outcome.count(1), outcome.count(-1)
                p = chances[0][outcome[0]] * chances[1][outcome[1]] * chances[2][outcome[2]]
                expected += p * system.by_score[won * 4 + lost]
            assert points[i] == pytest.approx(expected)


def test_the_simulation_scores_a_setting_as_chinese_poker_scores_it_against_each_opponent() -> None:
    mine = parse_cards("As Ah Kd Kc 7s 7h 7d 9c Jd 2s 4h 5c Qd")
    rest = [c for c in CARDS if c not in mine]
    theirs = suggest(rest[:13], top=1)[0].arrangement
    best = suggest(mine, top=1)[0].arrangement
    legal = cps._legal(cps._hand_indices(mine), royalty_table("seed"))
    opponent = (*theirs.values, royalties(theirs))
    for scoring in ("2-4", "1-6"):
        points, _ = cps._points_against(legal, [opponent], points_system(scoring))
        position = next(
            i for i in range(len(legal.split)) if (legal.front[i], legal.middle[i], legal.back[i]) == best.values
        )
        sheet = score({"me": best, "them": theirs}, scoring=scoring, naturals=False)
        assert points[position] == sheet.totals["me"]


def test_the_simulation_is_seeded_and_never_fouls_either() -> None:
    cards = parse_cards("2c 5d 7h 9s Jc 3d 6h 8s Tc 4d Qh Kc 3s")
    first = suggest(cards, objective="simulation", seed=7, samples=15)
    assert first == suggest(cards, objective="simulation", seed=7, samples=15)
    assert not any(is_foul(s.arrangement) for s in first)


def test_the_strength_choice_is_close_to_the_simulations_on_seeded_hands() -> None:
    found = compare_objectives(hands=4, samples=30, seed=3)
    assert found.hands == 4 and 0.0 <= found.agreement <= 1.0
    assert found.mean_loss <= 0.5  # points a hand, 2-4 scoring; the bench reports a larger sample


BAD = [
    (lambda: suggest(parse_cards("As Ah Kd Kc 7s 7h 7d 9c Jd 2s 4h 5c")), "hand: 13 cards expected, got 12"),
    (lambda: suggest((*parse_cards("As Ah Kd Kc 7s 7h 7d 9c Jd 2s 4h 5c"), Card("As"))), "A♠ appears twice"),
    (lambda: suggest((*parse_cards("As Ah Kd Kc 7s 7h 7d 9c Jd 2s 4h 5c"), JOKER)), "without the joker"),
    (lambda: suggest(CARDS[:13], top=0), "top must be at least 1, got 0"),
    (lambda: suggest(CARDS[:13], objective="guess"), "unknown objective 'guess'"),  # type: ignore[arg-type]
    (lambda: suggest(CARDS[:13], objective="simulation", samples=0), "samples must be at least 1"),
    (lambda: suggest(CARDS[:13], scoring="3-9"), "no points system '3-9'"),
]


@pytest.mark.parametrize(("call", "message"), BAD, ids=[m for _, m in BAD])
def test_a_bad_request_is_refused_in_the_dealers_words(call: object, message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        call()  # type: ignore[operator]


hands13 = st.lists(st.sampled_from(CARDS), min_size=13, max_size=13, unique=True)


@settings(max_examples=150, deadline=None)
@given(cards=hands13, scoring=st.sampled_from(["2-4", "1-6"]), table=st.sampled_from(["seed", "none"]))
def test_suggest_never_returns_a_fouled_arrangement(cards: list[Card], scoring: str, table: str) -> None:
    found = suggest(cards, top=3, scoring=scoring, royalties=table)
    assert 1 <= len(found) <= 3
    for s in found:
        assert not is_foul(s.arrangement)
        assert sorted(s.arrangement.cards) == sorted(cards)
    assert [s.score for s in found] == sorted((s.score for s in found), reverse=True)
    best_value = suggest(cards, top=1, scoring=scoring, royalties=table)[0]
    assert best_value == found[0] and isinstance(best_value.arrangement, Arrangement)


def test_the_shipped_calibration_is_what_the_seeded_fictitious_play_rebuilds(tmp_path: Path) -> None:
    assert cps.CALIBRATION_FILE.is_file(), "run python -m rules.games.chinese_poker_suggest to rebuild it"
    rebuilt = tmp_path / "calibration.npz"
    cps.write_calibration(rebuilt)
    with np.load(cps.CALIBRATION_FILE) as shipped, np.load(rebuilt) as fresh:
        for row in ("front", "middle", "back"):
            assert np.array_equal(shipped[row], fresh[row]), row


def test_suggest_is_reachable_from_the_chinese_poker_module() -> None:
    from rules.games.chinese_poker import suggest as via_game

    cards = parse_cards("As Ad Ks Kd Qh Qc 7s 6h 5d 4c 3s 9h 2d")
    assert via_game(cards, top=2) == cps.suggest(cards, top=2)
