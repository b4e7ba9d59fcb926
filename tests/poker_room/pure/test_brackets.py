"""The heads-up bracket, groups and blinds by hands (``poker_room.pure.brackets``): pure, no database."""

from __future__ import annotations

import itertools
import random

import pytest

from poker_room.pure.brackets import (
    BracketError,
    blinds_at,
    bracket_size,
    group_sizes,
    group_table,
    groups,
    knockout,
    knockout_tiers,
    round_name,
    round_robin,
    seeding_order,
)
from poker_room.pure.structure import Level, LevelKind


def _entrants_in(bracket) -> list:
    """Every entrant named in a side of a match, counted with repeats."""
    return [side.entrant for match in bracket.matches for side in (match.a, match.b) if side.entrant is not None]


@pytest.mark.parametrize("drawn", [False, True], ids=["seeded", "drawn"])
def test_every_field_from_2_to_200_makes_a_bracket_every_player_in_once(drawn: bool) -> None:
    for n in range(2, 201):
        bracket = knockout(list(range(100, 100 + n)), drawn=drawn, rng=random.Random(n))
        size = 1 << (n.bit_length() - 1)
        play_ins = n - size
        assert bracket.size == size <= n < 2 * size
        assert bracket.play_in == (play_ins > 0)
        assert len(bracket.byes) == (n - 2 * play_ins if play_ins else 0), n
        assert sorted(_entrants_in(bracket)) == list(range(100, 100 + n)), n
        assert len(bracket.rounds) == size.bit_length() - 1 + (1 if play_ins else 0), n
        if play_ins:
            assert len(bracket.rounds[0]) == play_ins
        # Each round after the first holds half the matches of the one before (the play-in aside).
        main = bracket.rounds[1:] if play_ins else bracket.rounds
        assert [len(matches) for matches in main] == [size >> k for k in range(1, size.bit_length())]
        # Every match but the final feeds exactly one side of one later match, and every fed side is fed once.
        fed: dict[tuple[int, int, str], tuple[int, int]] = {}
        for match in bracket.matches:
            if match.next is None:
                assert (match.round, match.number) == (len(bracket.rounds), 1)
                continue
            key = (*match.next, match.next_side)
            assert key not in fed, n
            fed[key] = (match.round, match.number)
            assert match.next[0] == match.round + 1
        for match in bracket.matches:
            for side_name, side in (("a", match.a), ("b", match.b)):
                if side.winner_of is not None:
                    assert fed[(match.round, match.number, side_name)] == side.winner_of
                else:
                    assert side.entrant is not None and (match.round, match.number, side_name) not in fed
        # Seeds 1 and 2 are in opposite halves of the bracket: they can meet only in the final.
        first_full = bracket.rounds[1] if play_ins else bracket.rounds[0]
        half = len(first_full) // 2 or 1
        play_in_top = {(1, m.number): min(m.a.seed, m.b.seed) for m in bracket.rounds[0]} if play_ins else {}
        where = {
            side.seed if side.seed else play_in_top[side.winner_of]: match.number
            for match in first_full
            for side in (match.a, match.b)
        }
        assert where[1] <= half < where[2] or n < 4 and where[1] == where[2] == 1
        # The top seeds get the byes: everyone in the play-in is seeded below everyone with a bye.
        if play_ins:
            play_in_seeds = {side.seed for match in bracket.rounds[0] for side in (match.a, match.b)}
            assert play_in_seeds == set(range(n - 2 * play_ins + 1, n + 1))
            assert [bracket.seeds[player] for player in bracket.byes] == list(range(1, n - 2 * play_ins + 1))


def test_89_players_make_a_bracket_of_64_with_50_in_the_first_round_and_39_byes() -> None:
    bracket = knockout(89)
    assert bracket.size == 64
    assert len(bracket.rounds[0]) == 25
    assert sum(1 for match in bracket.rounds[0] for _side in (match.a, match.b)) == 50
    assert len(bracket.byes) == 39
    assert [bracket.round_name(r) for r in range(1, 8)] == [
        "First round",
        "Round of 64",
        "Round of 32",
        "Round of 16",
        "Quarter-final",
        "Semi-final",
        "Final",
    ]
    # Seed 64 plays seed 65 for the slot of seed 64 (next to seed 1), seed 40 plays seed 89 for 40's slot.
    pairs = {(match.a.seed, match.b.seed): match for match in bracket.rounds[0]}
    assert (64, 65) in pairs and (40, 89) in pairs
    top = bracket.rounds[1][0]
    assert top.a.seed == 1 and top.b.winner_of == (1, pairs[(64, 65)].number)


def test_who_meets_whom_in_a_seeded_8_and_16() -> None:
    eight = knockout(8)
    assert [(m.a.seed, m.b.seed) for m in eight.rounds[0]] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert [(m.next, m.next_side) for m in eight.rounds[0]] == [
        ((2, 1), "a"),
        ((2, 1), "b"),
        ((2, 2), "a"),
        ((2, 2), "b"),
    ]
    sixteen = knockout(16)
    assert [(m.a.seed, m.b.seed) for m in sixteen.rounds[0]] == [
        (1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)
    ]  # fmt: skip
    # Seeds 1 to 4 each sit in a different quarter: they can meet from the semi-finals only.
    quarters = {side.seed: (m.number - 1) // 2 for m in sixteen.rounds[0] for side in (m.a, m.b)}
    assert sorted(quarters[seed] for seed in (1, 2, 3, 4)) == [0, 1, 2, 3]


def test_small_fields() -> None:
    two = knockout(["Ann", "Ben"])
    assert len(two.rounds) == 1 and (two.rounds[0][0].a.entrant, two.rounds[0][0].b.entrant) == ("Ann", "Ben")
    three = knockout(3)
    assert [(m.a.seed, m.b.seed) for m in three.rounds[0]] == [(2, 3)]
    assert three.rounds[1][0].a.seed == 1 and three.rounds[1][0].b.winner_of == (1, 1)
    assert three.byes == (1,)


def test_a_drawn_bracket_is_the_rngs_order_seeded() -> None:
    first = knockout(list("ABCDEFGHIJ"), drawn=True, rng=random.Random(7))
    again = knockout(list("ABCDEFGHIJ"), drawn=True, rng=random.Random(7))
    assert first == again
    order = list("ABCDEFGHIJ")
    random.Random(7).shuffle(order)
    assert first.seeds == {player: seed for seed, player in enumerate(order, start=1)}
    with pytest.raises(BracketError, match="random source"):
        knockout(10, drawn=True)


def test_refusals() -> None:
    with pytest.raises(BracketError, match="at least two"):
        knockout(1)
    with pytest.raises(BracketError, match="twice"):
        knockout(["A", "B", "A"])
    with pytest.raises(BracketError, match="power of two"):
        seeding_order(6)
    assert bracket_size(2) == 2 and bracket_size(200) == 128


def test_round_names_and_prize_tiers() -> None:
    assert [round_name(m) for m in (1, 2, 4, 8, 16)] == [
        "Final", "Semi-final", "Quarter-final", "Round of 16", "Round of 32"
    ]  # fmt: skip
    assert round_name(3, play_in=True) == "First round"
    assert knockout_tiers(2) == []
    assert knockout_tiers(8) == [[3, 4], [5, 8]]
    assert knockout_tiers(89) == [[3, 4], [5, 8], [9, 16], [17, 32], [33, 64], [65, 89]]
    assert knockout_tiers(5) == [[3, 4], [5, 5]]


# --- groups -------------------------------------------------------------------------------------------------------


def test_ten_players_in_groups_of_four_make_groups_of_4_3_3_seeds_snaking() -> None:
    assert group_sizes(10, 4) == [4, 3, 3]
    assert groups(range(1, 11), 4) == [[1, 6, 7, 10], [2, 5, 8], [3, 4, 9]]
    for n in range(2, 60):
        for size in (3, 4, 5, 6):
            placed = groups(range(n), size)
            sizes = [len(group) for group in placed]
            assert max(sizes) - min(sizes) <= 1 and max(sizes) <= size and min(sizes) >= 2
            assert sorted(itertools.chain.from_iterable(placed)) == list(range(n))
    with pytest.raises(BracketError, match="alone"):
        group_sizes(5, 2)


@pytest.mark.parametrize("size", range(2, 11))
def test_a_round_robin_has_every_pair_once_and_nobody_twice_in_a_round(size: int) -> None:
    players = [f"P{i}" for i in range(size)]
    rounds = round_robin(players)
    assert len(rounds) == (size if size % 2 else size - 1)
    pairs = [frozenset(pair) for robin in rounds for pair in robin.pairs]
    assert len(pairs) == len(set(pairs)) == size * (size - 1) // 2
    for robin in rounds:
        playing = [player for pair in robin.pairs for player in pair]
        assert len(playing) == len(set(playing))
        assert (robin.bye is None) == (size % 2 == 0)
        if robin.bye is not None:
            assert robin.bye not in playing
            assert len(playing) == size - 1
    if size % 2:
        assert sorted(robin.bye for robin in rounds) == sorted(players)  # each sits out once


def test_standings_wins_then_head_to_head_then_seed() -> None:
    players = ["A", "B", "C", "D"]
    # B and C both win twice; C beat B: C above B. A and D win once each; D beat A: D above A.
    results = [("B", "A"), ("C", "B"), ("C", "D"), ("D", "A"), ("A", "C"), ("B", "D")]
    table = group_table(players, results)
    assert [(line.player, line.wins, line.losses, line.place) for line in table] == [
        ("C", 2, 1, 1),
        ("B", 2, 1, 2),
        ("D", 1, 2, 3),
        ("A", 1, 2, 4),
    ]
    # A three-way tie on wins with a circle of head-to-heads falls back to the seed.
    circle = group_table(["A", "B", "C"], [("A", "B"), ("B", "C"), ("C", "A")])
    assert [line.player for line in circle] == ["A", "B", "C"]
    assert [line.played for line in group_table(players, [])] == [0, 0, 0, 0]
    with pytest.raises(BracketError, match="not in the group"):
        group_table(players, [("A", "Z")])


# --- blinds by hands ----------------------------------------------------------------------------------------------

LEVELS = [
    Level(LevelKind.LEVEL, None, 7, 25, 50),
    Level(LevelKind.LEVEL, None, 7, 50, 100),
    Level(LevelKind.BREAK, 10, None),
    Level(LevelKind.LEVEL, None, 7, 100, 200),
]


def test_blinds_rise_on_every_7th_hand() -> None:
    seen = [(b.level_number, b.level.big_blind, b.hand_in_level) for b in (blinds_at(LEVELS, h) for h in range(0, 23))]
    assert seen[:7] == [(1, 50, hand) for hand in range(1, 8)]
    assert seen[7] == (2, 100, 1)  # 7 hands counted: the 8th hand is level 2's first
    assert seen[13] == (2, 100, 7) and seen[14] == (3, 200, 1)  # the break is left out
    assert seen[22] == (3, 200, 9) and blinds_at(LEVELS, 22).last
    with pytest.raises(BracketError, match="minutes"):
        blinds_at([Level(LevelKind.LEVEL, 15, None, 25, 50)], 0)
    with pytest.raises(BracketError, match="whole number"):
        blinds_at(LEVELS, -1)


def test_the_modules_examples_hold() -> None:
    import doctest

    from poker_room.pure import brackets

    assert doctest.testmod(brackets).failed == 0
