"""Seating a tournament: the draw, late entries, blinds and worst positions, balancing, breaking, the final table."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker_room.pure.seating import (
    Move,
    MoveReason,
    SeatingError,
    TableSeats,
    apply_moves,
    next_big_blind,
    next_small_blind,
    rebalance,
    seat_late_entry,
    seats_draw,
    worst_position,
)


def table(number: int, size: int, seats: list[int] | range, button: int | None = None) -> TableSeats[str]:
    """A table with a player on each of ``seats``, named after where they sit ("t2s5")."""
    return TableSeats(number, size, {seat: f"t{number}s{seat}" for seat in seats}, button)


def counts(tables: list[TableSeats[str]]) -> dict[int, int]:
    return {t.number: t.count for t in tables}


def everyone(tables: list[TableSeats[str]]) -> Counter[str]:
    return Counter(player for t in tables for player in t.occupied.values())


# --- the draw -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "tables", "expected"),
    [
        (20, [(1, 10), (2, 10)], {1: 10, 2: 10}),
        (21, [(1, 10), (2, 10), (3, 10)], {1: 7, 2: 7, 3: 7}),
        (20, [(1, 9), (2, 9), (3, 9)], {1: 7, 2: 7, 3: 6}),  # the odd player short at the table listed last
        (8, [(1, 2), (2, 10)], {1: 2, 2: 6}),  # a small table fills up, the rest go where there is room
        (0, [(1, 9)], {1: 0}),
    ],
)
def test_the_draw_spreads_players_as_evenly_as_the_tables_allow(
    players: int, tables: list[tuple[int, int]], expected: dict[int, int]
) -> None:
    names = [f"p{i}" for i in range(players)]
    moves = seats_draw(names, tables=tables, rng=random.Random(players))
    assert [m.player for m in moves] == names
    assert all(m.reason is MoveReason.DRAW and m.from_table is None and m.from_seat is None for m in moves)
    seated = apply_moves([TableSeats(n, size, {}, None) for n, size in tables], moves)
    assert counts(seated) == expected
    assert everyone(seated) == Counter(names)


def test_the_draw_is_random_but_repeats_with_the_same_rng() -> None:
    names = [f"p{i}" for i in range(18)]
    draw = [(m.to_table, m.to_seat) for m in seats_draw(names, tables=[(1, 9), (2, 9)], rng=random.Random(1))]
    again = [(m.to_table, m.to_seat) for m in seats_draw(names, tables=[(1, 9), (2, 9)], rng=random.Random(1))]
    other = [(m.to_table, m.to_seat) for m in seats_draw(names, tables=[(1, 9), (2, 9)], rng=random.Random(2))]
    assert draw == again
    assert draw != other
    assert len(set(draw)) == 18


@pytest.mark.parametrize(
    ("players", "tables", "message"),
    [
        (["a"] * 2, [(1, 9)], "a appears twice in the draw"),
        (list("abcd"), [(1, 3)], "4 players do not fit in 3 seats"),
        (list("ab"), [(1, 9), (1, 9)], "A table number appears twice"),
        (list("ab"), [(1, 0)], "Table 1 needs at least one seat"),
    ],
)
def test_an_impossible_draw_is_refused(players: list[str], tables: list[tuple[int, int]], message: str) -> None:
    with pytest.raises(SeatingError, match=message):
        seats_draw(players, tables=tables, rng=random.Random(0))


# --- late entries ---------------------------------------------------------------------------------------------


def test_a_late_entry_sits_at_the_shortest_table_in_an_empty_seat() -> None:
    tables = [table(1, 9, range(1, 10)), table(2, 9, [1, 2, 3, 5, 6, 7, 8]), table(3, 9, range(1, 9))]
    for seed in range(20):
        move = seat_late_entry(tables, "late", random.Random(seed))
        assert (move.to_table, move.reason, move.from_table) == (2, MoveReason.DRAW, None)
        assert move.to_seat in (4, 9)


def test_a_late_entry_draws_among_all_tables_tied_for_fewest() -> None:
    tables = [table(1, 9, range(1, 8)), table(2, 9, range(1, 8)), table(3, 9, range(1, 9))]
    drawn = {seat_late_entry(tables, "late", random.Random(seed)).to_table for seed in range(40)}
    assert drawn == {1, 2}


def test_a_late_entry_opens_an_empty_table_only_when_the_tables_in_play_are_full() -> None:
    tables = [table(1, 2, [1, 2]), table(2, 9, [])]
    assert seat_late_entry(tables, "late", random.Random(0)).to_table == 2
    tables = [table(1, 9, [1]), table(2, 9, [])]
    assert seat_late_entry(tables, "late", random.Random(0)).to_table == 1


@pytest.mark.parametrize(
    ("tables", "player", "message"),
    [
        ([table(1, 2, [1, 2])], "late", "Every seat is taken"),
        ([table(1, 9, [1, 2])], "t1s2", "t1s2 already has a seat"),
    ],
)
def test_a_late_entry_without_a_free_seat_or_already_seated_is_refused(
    tables: list[TableSeats[str]], player: str, message: str
) -> None:
    with pytest.raises(SeatingError, match=message):
        seat_late_entry(tables, player, random.Random(0))


# --- the blinds and the worst position ------------------------------------------------------------------------

# (what the dealer sees, seats of a 9-seat table taken, button of the hand just played,
#  next hand's small blind, next hand's big blind, the worst position for a player moved in)
POSITIONS = [
    ("full ring but seat 9, button on 1: next hand 2 button, 3 SB, 4 BB", range(1, 9), 1, 3, 4, 9),
    ("a gap between next small blind (3) and big blind (5): seat 4 takes the BB", [1, 2, 3, 5, 6, 8], 1, 3, 5, 4),
    ("dead button on empty seat 4: next hand 5 button, 7 SB, 2 BB", [2, 3, 5, 7], 4, 7, 2, 8),
    ("the button on 7 wraps round: next hand 1 button, 4 SB, 7 BB", [1, 4, 7], 7, 4, 7, 5),
    ("no button yet: taken as on the lowest seat 3, so 5 button, 8 SB, 3 BB", [3, 5, 8], None, 8, 3, 9),
    ("no empty seat after the small blind until the wrap: seat 1", [2, 3, 4, 5, 6, 7, 8, 9], 2, 4, 5, 1),
    (
        "only seat 3, before next hand's button (4), is free: the worst, dealt in once the button passes",
        [1, 2, 4, 5, 6, 7, 8, 9],
        2,
        5,
        6,
        3,
    ),
    ("three-handed with the button on 9: 2 button, 5 SB, 9 BB", [2, 5, 9], 9, 5, 9, 6),
    ("heads-up, button on 2: next hand 6 is button and SB, 2 BB; seat 7 after 6 takes the BB", [2, 6], 2, 6, 2, 7),
    ("heads-up, dead button on 4: next hand 6 button and SB, 2 BB", [2, 6], 4, 6, 2, 7),
    ("one player left: no blinds; the first empty seat after them", [5], 5, 5, None, 6),
    ("an empty table: no blinds; the first seat after the button", [], 3, None, None, 4),
]


@pytest.mark.parametrize(
    ("seats", "button", "small_blind", "big_blind", "worst"),
    [case[1:] for case in POSITIONS],
    ids=[case[0] for case in POSITIONS],
)
def test_the_next_blinds_and_the_worst_position_as_a_dealer_sees_them(
    seats: list[int], button: int | None, small_blind: int | None, big_blind: int | None, worst: int
) -> None:
    t = table(1, 9, seats, button)
    assert next_small_blind(t) == small_blind
    assert next_big_blind(t) == big_blind
    assert worst_position(t) == worst


def test_the_worst_position_of_a_full_table_is_refused() -> None:
    with pytest.raises(SeatingError, match="Table 4 is full"):
        worst_position(table(4, 9, range(1, 10), 1))


# --- balancing, breaking, the final table ---------------------------------------------------------------------


def test_from_nine_and_seven_the_long_tables_next_big_blind_moves_to_the_short_tables_worst_position() -> None:
    long = table(1, 9, range(1, 10), button=4)  # next hand: 5 button, 6 SB, 7 BB
    short = table(2, 9, [1, 2, 3, 5, 6, 8, 9], button=1)  # next hand: 2 button, 3 SB, 5 BB; seat 4 is empty
    moves = rebalance([long, short], break_order=[2], final_table=1, rng=random.Random(0))
    assert moves == [Move("t1s7", 1, 7, 2, 4, MoveReason.BALANCE)]
    after = apply_moves([long, short], moves)
    assert counts(after) == {1: 8, 2: 8}
    assert next_big_blind(after[1]) == 4  # the player moved in posts the big blind next hand
    assert next_big_blind(after[0]) == 8  # and the long table's big blind moves on to the next player


def test_tables_within_one_player_need_no_move() -> None:
    tables = [table(1, 9, range(1, 10), 1), table(2, 9, range(1, 9), 1), table(3, 9, range(1, 9), 1)]
    assert rebalance(tables, break_order=[3, 2], final_table=1, rng=random.Random(0)) == []


def test_balancing_moves_one_player_at_a_time_from_the_longest_to_the_shortest() -> None:
    tables = [table(1, 9, range(1, 10), 1), table(2, 9, range(1, 10), 1), table(3, 9, range(1, 6), 1)]
    moves = rebalance(tables, break_order=[3, 2], final_table=1, rng=random.Random(0))
    assert [(m.from_table, m.to_table, m.reason) for m in moves] == [
        (1, 3, MoveReason.BALANCE),  # 9/9/5: tables 1 and 2 tie for the longest, the lower number gives
        (2, 3, MoveReason.BALANCE),  # 8/9/6: now table 2 is the longest; 8/8/7 is within one
    ]
    assert counts(apply_moves(tables, moves)) == {1: 8, 2: 8, 3: 7}


@pytest.mark.parametrize(
    ("break_order", "broken"),
    [([3, 2], 3), ([2, 3], 2), ([4, 2, 3], 2)],  # table 4 broke earlier and is gone: the next in order breaks
)
def test_a_table_breaks_in_the_break_order_once_the_players_fit_at_one_table_fewer(
    break_order: list[int], broken: int
) -> None:
    tables = [table(1, 9, range(1, 7), 1), table(2, 9, range(1, 7), 1), table(3, 9, range(1, 7), 1)]
    moves = rebalance(tables, break_order=break_order, final_table=1, rng=random.Random(3))
    assert len(moves) == 6
    assert all(m.reason is MoveReason.TABLE_BREAK and m.from_table == broken for m in moves)
    after = apply_moves(tables, moves)
    assert counts(after) == {1: 9, 2: 9, 3: 9} | {broken: 0}
    assert everyone(after) == everyone(tables)


def test_a_broken_tables_players_go_to_the_shortest_tables_first() -> None:
    tables = [table(1, 9, range(1, 9), 1), table(2, 9, range(1, 7), 1), table(3, 9, range(1, 5), 1)]
    moves = rebalance(tables, break_order=[3, 2], final_table=1, rng=random.Random(5))
    to_tables = [m.to_table for m in moves]
    assert to_tables[:2] == [2, 2]  # 8/6 → 8/7 → 8/8, then one to each
    assert sorted(to_tables[2:]) == [1, 2]
    assert counts(apply_moves(tables, moves)) == {1: 9, 2: 9, 3: 0}


def test_the_final_table_is_redrawn_once_everyone_fits_at_it() -> None:
    tables = [table(1, 9, [1, 3, 5, 7, 9], 3), table(2, 9, [2, 4, 6, 8], 6)]
    moves = rebalance(tables, break_order=[2], final_table=1, rng=random.Random(11))
    assert len(moves) == 9
    assert {m.reason for m in moves} == {MoveReason.FINAL_TABLE}
    assert {m.to_table for m in moves} == {1}
    assert sorted(m.to_seat for m in moves) == list(range(1, 10))
    after = apply_moves(tables, moves)
    assert counts(after) == {1: 9, 2: 0}
    assert after[0].button is None  # the button is placed anew at the final table
    assert everyone(after) == everyone(tables)
    assert rebalance(after, break_order=[2], final_table=1, rng=random.Random(11)) == []


def test_the_final_table_redraw_comes_before_any_break() -> None:
    tables = [table(1, 10, range(1, 4), 1), table(2, 10, range(1, 4), 1), table(3, 10, range(1, 5), 1)]
    moves = rebalance(tables, break_order=[3, 2], final_table=1, rng=random.Random(0))
    assert {m.reason for m in moves} == {MoveReason.FINAL_TABLE}
    assert counts(apply_moves(tables, moves)) == {1: 10, 2: 0, 3: 0}


@pytest.mark.parametrize(
    ("tables", "break_order", "final_table", "message"),
    [
        ([table(1, 9, [1]), table(2, 9, [2])], [2], 3, "The final table 3 is not among the tables"),
        ([table(1, 9, [1]), table(2, 9, [2])], [2, 1], 1, "The final table 1 never breaks"),
        ([table(1, 9, [1]), table(2, 9, [2])], [], 1, "Table 2 has no place in the break order"),
        ([table(1, 9, [1]), table(2, 9, [2])], [2, 2], 1, "A table appears twice in the break order"),
        ([table(1, 9, [1]), TableSeats(2, 9, {4: "t1s1"})], [2], 1, "t1s1 sits at table 1 and at table 2"),
    ],
)
def test_an_impossible_rebalance_is_refused(
    tables: list[TableSeats[str]], break_order: list[int], final_table: int, message: str
) -> None:
    with pytest.raises(SeatingError, match=message):
        rebalance(tables, break_order=break_order, final_table=final_table, rng=random.Random(0))


@pytest.mark.parametrize(
    ("move", "message"),
    [
        (Move("t1s1", 1, 1, 2, 2, MoveReason.BALANCE), "Table 2, seat 2 is taken"),
        (Move("t1s1", 1, 3, 2, 5, MoveReason.BALANCE), "t1s1 is not at table 1, seat 3"),
        (Move("t1s1", 1, 1, 7, 5, MoveReason.BALANCE), "There is no table 7"),
        (Move("t1s1", 1, 1, 2, 10, MoveReason.BALANCE), "Table 2 has seats 1 to 9: no seat 10"),
        (Move("t1s1", None, None, 2, 5, MoveReason.DRAW), "t1s1 already has a seat"),
    ],
)
def test_a_move_the_floor_cannot_make_is_refused(move: Move[str], message: str) -> None:
    with pytest.raises(SeatingError, match=message):
        apply_moves([table(1, 9, [1]), table(2, 9, [2])], [move])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"size": 9, "occupied": {10: "a"}}, "Table 1 has seats 1 to 9: there is no seat 10"),
        ({"size": 9, "occupied": {1: "a", 2: "a"}}, "A player sits twice at table 1"),
        ({"size": 9, "occupied": {}, "button": 0}, "the button cannot be on seat 0"),
    ],
)
def test_a_table_that_cannot_exist_is_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SeatingError, match=message):
        TableSeats(1, **kwargs)  # type: ignore[arg-type]


@st.composite
def layouts(draw: st.DrawFn) -> tuple[list[TableSeats[str]], list[int], int]:
    size = draw(st.sampled_from([6, 8, 9, 10]))
    numbers = list(range(1, draw(st.integers(1, 8)) + 1))
    tables = []
    room = 60
    for number in numbers:
        seats = draw(st.lists(st.integers(1, size), unique=True, max_size=min(size, room)))
        room -= len(seats)
        button = draw(st.none() | st.integers(1, size))
        tables.append(table(number, size, seats, button))
    final_table = draw(st.sampled_from(numbers))
    break_order = draw(st.permutations([n for n in numbers if n != final_table]))
    return tables, list(break_order), final_table


@settings(max_examples=300, deadline=None)
@given(layouts(), st.integers(0, 2**32))
def test_after_rebalance_any_layout_is_within_one_player_and_nobody_is_lost_or_doubled(
    layout: tuple[list[TableSeats[str]], list[int], int], seed: int
) -> None:
    tables, break_order, final_table = layout
    moves = rebalance(tables, break_order=break_order, final_table=final_table, rng=random.Random(seed))
    after = apply_moves(tables, moves)
    assert everyone(after) == everyone(tables)
    assert max(everyone(after).values(), default=1) == 1
    in_play = [t.count for t in after if t.count]
    assert not in_play or max(in_play) - min(in_play) <= 1
    size = tables[0].size
    if 0 < sum(in_play) <= size:
        assert [t.number for t in after if t.count] == [final_table]
    elif in_play:
        assert sum(in_play) > size * (len(in_play) - 1)  # no table left that could break
    assert rebalance(after, break_order=break_order, final_table=final_table, rng=random.Random(seed)) == []
