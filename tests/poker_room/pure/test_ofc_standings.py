"""The pure part of Open-Face points tournaments (``poker_room.pure.ofc_standings``): a hand scored by the engine, the
standings and their tie-break, the tables of a round. No Django, no database."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from poker_room.pure.ofc_standings import (
    HandResult,
    OfcStandingsError,
    fits,
    hand_result,
    lots_draw,
    round_draw,
    standings,
    table_sizes,
    ties,
)
from rules.games.errors import InvalidHand
from rules.games.ofc import Board, score

ANN = ("Qs Qd 4c", "9c 9h 7d 7s 2h", "Ac Ad Ah 3s 3d")  # QQ in front (7), a full house behind (6): 13 royalties
BOB = ("Ks Kd 5c", "Jc Th 8d 7c 2d", "As 6d 6c 6h 4s")  # KK in front above a jack-high middle: fouled
CEM = ("2s 3h 4d", "5s 5h 8h 9s Ts", "Kc Kh Jd Js 2c")  # a plain legal board


def result(
    points: dict[int, int], *, round: int, scoops: dict[int, int] | None = None, fouls: frozenset[int] = frozenset()
) -> HandResult:
    return HandResult(
        points=points,
        royalties=dict.fromkeys(points, 0),
        scoops=scoops or dict.fromkeys(points, 0),
        rows=dict.fromkeys(points, 0),
        fouls=frozenset(fouls),
        round=round,
    )


# --- a hand --------------------------------------------------------------------------------------------------------


def test_a_hand_is_scored_by_the_engine_with_the_mainz_royalties() -> None:
    scored = hand_result({1: ANN, 2: BOB, 3: CEM})
    sheet = score({"1": Board.from_rows(*ANN), "2": Board.from_rows(*BOB), "3": Board.from_rows(*CEM)})
    assert scored.points == {int(p): v for p, v in sheet.totals.items()}
    assert sum(scored.points.values()) == 0
    assert scored.royalties[1] == 13 and scored.royalties[2] == 0
    assert scored.fouls == {2}


def test_scoops_count_the_opponents_beaten_in_all_three_rows() -> None:
    scored = hand_result({1: ANN, 3: CEM})
    # Ann: QQ > 432, 99 77 > 55, full house > two pair: a scoop; Cem none.
    assert scored.scoops == {1: 1, 3: 0}
    assert scored.rows == {1: 3, 3: -3}
    assert scored.points == {1: 6 + 13, 3: -(6 + 13)}


@pytest.mark.parametrize(
    ("boards", "said"),
    [
        ({1: ANN, 2: ("Qs Kd 5c", BOB[1], BOB[2])}, "Q♠ is on two boards"),
        ({1: ANN}, "two to four players expected, got 1"),
        ({1: ("Qs Qd", ANN[1], ANN[2]), 2: CEM}, "a finished front holds 3 cards, got 2"),
    ],
)
def test_the_engine_refuses_a_hand_in_the_dealers_words(boards: dict, said: str) -> None:
    with pytest.raises(InvalidHand) as caught:
        hand_result(boards)
    assert str(caught.value) == said


# --- the standings ---------------------------------------------------------------------------------------------------


def test_the_standings_rank_by_total_then_last_round_then_scoops_then_fouls() -> None:
    hands = [
        result({1: 5, 2: -5}, round=1),
        result({3: 2, 4: -2}, round=1),
        result({1: -5, 2: 5}, round=2),  # 1 and 2 end on 0; 2 did better in the last round
        result({3: -2, 4: 2}, round=2, scoops={3: 0, 4: 0}),  # 3 and 4 on 0 too, with 2 in the last round like 2
    ]
    lines = standings([1, 2, 3, 4], hands, rounds=2)
    assert [(line.entry, line.rank) for line in lines] == [(2, 1), (4, 2), (3, 3), (1, 4)]
    assert lines[0].by_round == (-5, 5) and lines[0].last_round == 5


def test_scoops_then_fouls_break_what_the_points_leave_level() -> None:
    hands = [
        result({1: 0, 2: 0, 3: 0}, round=1, scoops={1: 1, 2: 2, 3: 1}, fouls={3}),
    ]
    lines = standings([1, 2, 3], hands, rounds=1)
    assert [line.entry for line in lines] == [2, 1, 3]
    assert [line.rank for line in lines] == [1, 2, 3]
    assert lines[2].fouls == 1


def test_players_level_on_everything_share_a_rank_until_the_lot() -> None:
    hands = [result({1: 3, 2: 3, 3: -6}, round=1)]
    lines = standings([1, 2, 3], hands, rounds=1)
    assert [(line.entry, line.rank, line.tied) for line in lines] == [(1, 1, True), (2, 1, True), (3, 3, False)]
    assert ties(lines) == [[1, 2]]
    lots = lots_draw(lines, random.Random(4))
    assert sorted(lots) == [1, 2] and sorted(lots.values()) == [1, 2]
    drawn = standings([1, 2, 3], hands, rounds=1, lots=lots)
    first = min(lots, key=lots.__getitem__)
    assert [(line.entry, line.rank, line.tied) for line in drawn][0] == (first, 1, False)
    assert drawn[1].rank == 2


def test_an_entry_without_hands_stands_on_zero() -> None:
    lines = standings([1, 2, 3], [result({1: 4, 2: -4}, round=1)], rounds=3)
    assert [(line.entry, line.total, line.hands) for line in lines] == [(1, 4, 1), (3, 0, 0), (2, -4, 1)]


def test_a_hand_of_a_round_beyond_the_tournament_is_refused() -> None:
    with pytest.raises(OfcStandingsError, match="round 4 in a tournament of 3 rounds"):
        standings([1, 2], [result({1: 1, 2: -1}, round=4)], rounds=3)


# --- the tables ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "most", "sizes"),
    [
        (8, 4, (4, 4)),
        (9, 4, (3, 3, 3)),
        (10, 4, (4, 3, 3)),
        (5, 4, (3, 2)),
        (2, 4, (2,)),
        (4, 4, (4,)),
        (7, 3, (3, 2, 2)),
        (6, 2, (2, 2, 2)),
        (13, 4, (4, 3, 3, 3)),
    ],
)
def test_tables_are_as_few_and_as_even_as_the_seats_allow(players: int, most: int, sizes: tuple[int, ...]) -> None:
    assert table_sizes(players, most) == sizes


@pytest.mark.parametrize(
    ("players", "most", "said"),
    [
        (1, 4, "An Open-Face round needs at least 2 players, not 1."),
        (7, 2, "7 players do not make tables of 2: one would play alone."),
        (8, 5, "An Open-Face table seats 2 to 4 players, not 5."),
    ],
)
def test_a_draw_the_rules_do_not_allow_is_refused(players: int, most: int, said: str) -> None:
    with pytest.raises(OfcStandingsError) as caught:
        table_sizes(players, most)
    assert str(caught.value) == said


@given(st.integers(min_value=2, max_value=60), st.sampled_from([3, 4]), st.integers(min_value=0, max_value=10**6))
def test_a_round_draw_seats_everyone_once_never_alone(players: int, most: int, seed: int) -> None:
    draw = round_draw(list(range(1, players + 1)), most=most, rng=random.Random(seed))
    assert sorted(draw) == list(range(1, players + 1))
    assert len(set(draw.values())) == players
    counts: dict[int, int] = {}
    for table, seat in draw.values():
        counts[table] = counts.get(table, 0) + 1
        assert 1 <= seat <= most
    assert min(counts.values()) >= 2 and max(counts.values()) - min(counts.values()) <= 1
    assert fits(draw, most=most)


def test_a_seating_of_nine_at_one_table_is_no_open_face_layout() -> None:
    assert not fits({n: (1, n) for n in range(1, 10)}, most=4)
    assert fits({1: (1, 1), 2: (1, 2), 3: (2, 1), 4: (2, 5), 5: (1, 4)}, most=4)


@given(
    st.lists(
        st.tuples(st.integers(min_value=1, max_value=3), st.lists(st.integers(-30, 30), min_size=3, max_size=3)),
        max_size=20,
    )
)
def test_standings_are_zero_sum_and_ordered_by_points(hands: list[tuple[int, list[int]]]) -> None:
    results = []
    for round_number, (a, b, _c) in hands:
        points = {1: a, 2: b, 3: -a - b}  # zero-sum, as the engine's
        results.append(result(points, round=round_number))
    lines = standings([1, 2, 3, 4], results, rounds=3)
    assert sum(line.total for line in lines) == 0
    assert [line.total for line in lines] == sorted((line.total for line in lines), reverse=True)
    assert [line.rank for line in lines] == sorted(line.rank for line in lines)
    assert lines[0].rank == 1 and all(1 <= line.rank <= 4 for line in lines)
