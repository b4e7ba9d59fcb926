"""Tournament structures: what the director's check refuses, what the generator builds, and the chip race."""

from __future__ import annotations

import doctest
import random
import re
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker_room.pure import chip_race as chip_race_module
from poker_room.pure.chip_race import card_strength, chip_race
from poker_room.pure.structure import (
    DEFAULT_CHIPS,
    AnteKind,
    Level,
    LevelKind,
    StructureError,
    structure_as_dicts,
    structure_check,
    structure_from_dicts,
    structure_generate,
)

BB, CL, NO = AnteKind.BIG_BLIND, AnteKind.CLASSIC, AnteKind.NONE


def lv(
    small: int,
    big: int,
    ante: int = 0,
    kind: AnteKind = NO,
    *,
    minutes: int | None = 20,
    hands: int | None = None,
    game: str = "nlhe",
    colour_up: int | None = None,
) -> Level:
    return Level(LevelKind.LEVEL, minutes, hands, small, big, ante, kind, game, colour_up)


def brk(minutes: int | None = 15, *, colour_up: int | None = None, hands: int | None = None) -> Level:
    return Level(LevelKind.BREAK, minutes, hands, colour_up=colour_up)


# --- structure_check ------------------------------------------------------------------------------------------

REFUSALS = [
    ("no levels", [], DEFAULT_CHIPS, "A structure needs at least one level"),
    ("a break first", [brk(), lv(25, 50)], DEFAULT_CHIPS, "A structure starts with a level, not a break"),
    ("two breaks", [lv(25, 50), brk(), brk()], DEFAULT_CHIPS, "Two breaks in a row after level 1"),
    ("no length", [lv(25, 50, minutes=None)], DEFAULT_CHIPS, "Level 1 needs a length: minutes or hands"),
    ("both lengths", [lv(25, 50, hands=7)], DEFAULT_CHIPS, "Level 1 has both minutes and hands: choose one"),
    ("zero minutes", [lv(25, 50, minutes=0)], DEFAULT_CHIPS, "Level 1 lasts 0 minutes: 1 to 1440 (24 hours)"),
    ("a day and more", [lv(25, 50), lv(50, 100, minutes=1441)], DEFAULT_CHIPS, "Level 2 lasts 1441 minutes"),
    ("zero hands", [lv(25, 50, minutes=None, hands=0)], DEFAULT_CHIPS, "Level 1 lasts 0 hands: 1 to 1000"),
    ("absurd hands", [lv(25, 50, minutes=None, hands=1001)], DEFAULT_CHIPS, "Level 1 lasts 1001 hands"),
    ("break in hands", [lv(25, 50), brk(None, hands=7)], DEFAULT_CHIPS, "The break after level 1 lasts minutes"),
    ("break of no length", [lv(25, 50), brk(None)], DEFAULT_CHIPS, "The break after level 1 needs its length"),
    ("no big blind", [lv(0, 0)], DEFAULT_CHIPS, "Level 1 has a big blind of 0: at least 1"),
    ("negative ante", [lv(25, 50, -25, CL)], DEFAULT_CHIPS, "Level 1 has a negative blind or ante"),
    (
        "small above big",
        [lv(25, 50), lv(100, 50)],
        DEFAULT_CHIPS,
        "Level 2 has a small blind of 100 above its big blind of 50",
    ),
    (
        "small blind below the last",
        [lv(100, 200), lv(50, 100)],
        DEFAULT_CHIPS,
        "Level 2 is below level 1: its small blind of 50 is lower than level 1's 100",
    ),
    (
        "big blind below the last",
        [lv(100, 200), lv(100, 150)],
        DEFAULT_CHIPS,
        "Level 2 is below level 1: its big blind of 150 is lower than level 1's 200",
    ),
    (
        "ante below the last, across a break",
        [lv(100, 200, 200, BB), lv(150, 300, 300, BB), brk(), lv(200, 400, 200, BB)],
        DEFAULT_CHIPS,
        "Level 3 is below level 2: its ante of 200 is lower than level 2's 300",
    ),
    (
        "a break with blinds",
        [lv(25, 50), Level(LevelKind.BREAK, 15, None, 25, 50)],
        DEFAULT_CHIPS,
        "The break after level 1 has blinds or an ante: a break has none",
    ),
    (
        "a colour-up of no house chip",
        [lv(25, 50), brk(colour_up=50), lv(100, 200)],
        DEFAULT_CHIPS,
        "The break after level 1 colours up a 50 chip, which is not one of the house's chips "
        "(25, 100, 500, 1000, 5000, 25000)",
    ),
    (
        "a colour-up of a middle chip",
        [lv(25, 50), brk(colour_up=100), lv(500, 1000)],
        DEFAULT_CHIPS,
        "The break after level 1 colours up the 100 chip while the 25 chip is still in play",
    ),
    (
        "a colour-up twice",
        [lv(100, 200), brk(colour_up=25), lv(200, 400), brk(colour_up=25), lv(500, 1000)],
        DEFAULT_CHIPS,
        "The break after level 2 colours up the 25 chip, which is already out of play",
    ),
    (
        "a colour-up of a chip still needed",
        [lv(100, 200), lv(150, 300), brk(colour_up=25), lv(200, 400), lv(300, 600, 75, CL)],
        DEFAULT_CHIPS,
        "The break after level 2 colours up the 25 chip, but level 4's ante of 75 still needs it",
    ),
    (
        "a colour-up of the last chip",
        [lv(100, 200), brk(colour_up=100), lv(200, 400)],
        (100,),
        "The break after level 1 colours up the 100 chip, the last chip in play",
    ),
    (
        "a blind no chip can pay",
        [lv(25, 50), lv(40, 80)],
        DEFAULT_CHIPS,
        "Level 2's small blind of 40 cannot be paid with the chips in play (the smallest is 25)",
    ),
    (
        "an ante no chip in play can pay after a colour-up",
        [lv(100, 200), brk(colour_up=25), lv(200, 400, 30, CL)],
        DEFAULT_CHIPS,
        "Level 2's ante of 30 cannot be paid with the chips in play (the smallest is 100)",
    ),
    (
        "an unknown game",
        [lv(25, 50), lv(50, 100, game="stud")],
        DEFAULT_CHIPS,
        "Level 2 plays 'stud', which is not a game of the room",
    ),
    (
        "an ante without a kind",
        [lv(25, 50, 25, NO)],
        DEFAULT_CHIPS,
        "Level 1 has an ante of 25 but no ante kind: classic or big blind",
    ),
    (
        "a kind without an ante",
        [lv(25, 50, 0, BB)],
        DEFAULT_CHIPS,
        "Level 1 has a big-blind ante of 0: set the ante or make the kind none",
    ),
    ("a level colouring up", [lv(25, 50, colour_up=25)], DEFAULT_CHIPS, "Level 1 colours up a chip: only a break"),
    ("no chips", [lv(25, 50)], (), "The house's chips are positive whole numbers"),
    ("a chip of nothing", [lv(25, 50)], (0, 25), "The house's chips are positive whole numbers"),
]


@pytest.mark.parametrize(("levels", "chips", "message"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_the_check_refuses_in_the_directors_words(levels: list[Level], chips: tuple[int, ...], message: str) -> None:
    with pytest.raises(StructureError, match="^" + re.escape(message)):
        structure_check(levels, chips=chips)


@pytest.mark.parametrize(
    ("levels", "chips"),
    [
        # Ante-Up: the blinds stay, the ante rises (the seed's own example, with a house that has a 5 chip)
        ([lv(25, 50, 5, CL), lv(25, 50, 10, CL), lv(25, 50, 15, CL)], (5, 25, 100)),
        # a level may repeat the last; a break colours up the 25 once nothing after it needs one
        ([lv(100, 200), lv(100, 200), brk(colour_up=25), lv(200, 400, 400, BB), lv(300, 600, 600, BB)], DEFAULT_CHIPS),
        # hands-counted levels, a mixed event, a small blind of none
        ([lv(0, 50, minutes=None, hands=7, game="nlo"), lv(25, 50, minutes=None, hands=7, game="")], DEFAULT_CHIPS),
    ],
)
def test_the_check_accepts_what_a_room_can_run(levels: list[Level], chips: tuple[int, ...]) -> None:
    structure_check(levels, chips=chips)


# --- Level as JSON --------------------------------------------------------------------------------------------


def test_a_generated_structure_survives_the_round_trip_through_json() -> None:
    structure = structure_generate(
        starting_stack=15_000,
        level_minutes=20,
        target_minutes=360,
        chips=DEFAULT_CHIPS,
        players=40,
        games=("nlhe", "nlo"),
        ante_kind=CL,
    )
    assert structure_from_dicts(structure_as_dicts(structure)) == structure
    assert all(Level.from_dict(level.as_dict()) == level for level in structure)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "A level is a JSON object, got list"),
        ({"kind": "level", "minutes": 20, "bigblind": 50}, "Unknown field in a level: 'bigblind'"),
        ({"minutes": 20, "big_blind": 50}, "A level needs its kind: 'level' or 'break'"),
        ({"kind": "pause", "minutes": 15}, "A level's kind is one of level, break; got 'pause'"),
        ({"kind": "level", "minutes": "20"}, "A level's minutes is a whole number or null, got '20'"),
        ({"kind": "level", "minutes": 20, "big_blind": True}, "A level's big blind is a whole number, got True"),
        ({"kind": "level", "minutes": 20, "small_blind": None}, "A level's small blind is a whole number, got None"),
        ({"kind": "level", "minutes": 20, "ante_kind": "bb"}, "A level's ante kind is one of none, classic, big_blind"),
        ({"kind": "level", "minutes": 20, "game": 5}, "A level's game is a game code, got 5"),
        ({"kind": "break", "minutes": 15, "colour_up": 2.5}, "A level's colour-up is a whole number or null"),
        ({"kind": ["level"]}, "A level's kind is one of level, break; got ['level']"),
    ],
)
def test_from_dict_refuses_malformed_input_with_a_structure_error(data: object, message: str) -> None:
    with pytest.raises(StructureError, match="^" + re.escape(message)):
        Level.from_dict(data)


def test_a_malformed_row_is_named_by_its_position() -> None:
    with pytest.raises(StructureError, match=r"^Row 2: A level's big blind is a whole number, got '100'"):
        structure_from_dicts([lv(25, 50).as_dict(), {"kind": "level", "minutes": 20, "big_blind": "100"}])
    with pytest.raises(StructureError, match="^A structure is a list of levels, got dict"):
        structure_from_dicts({"kind": "level"})


def test_missing_optional_fields_take_their_defaults() -> None:
    assert Level.from_dict({"kind": "break", "minutes": 15}) == brk()


# --- structure_generate ---------------------------------------------------------------------------------------

CASES = [
    # stack, minutes, hands, target, players, chips, games, ante kind
    (10_000, 20, None, 300, 50, DEFAULT_CHIPS, ("nlhe",), BB),
    (50_000, 15, None, 480, 50, DEFAULT_CHIPS, ("nlhe",), BB),
    (3_000, 10, None, 180, 50, DEFAULT_CHIPS, ("nlhe",), BB),
    (15_000, 20, None, 360, 80, DEFAULT_CHIPS, ("nlhe", "nlo"), CL),
    (20_000, 18, None, 480, 120, DEFAULT_CHIPS, ("nlhe",), CL),
    (10_000, 15, None, 300, 30, (5, 25, 100, 500, 1000), ("draw5",), NO),
    (1_500, 12, None, 240, 20, (1, 5, 25, 100), ("nlhe",), CL),
    (3_000, None, 7, 60, 2, DEFAULT_CHIPS, ("nlhe",), NO),
]


def _generate(case: tuple) -> tuple[Level, ...]:  # type: ignore[type-arg]
    stack, minutes, hands, target, players, chips, games, kind = case
    return structure_generate(
        starting_stack=stack,
        level_minutes=minutes,
        level_hands=hands,
        target_minutes=target,
        chips=chips,
        players=players,
        games=games,
        ante_kind=kind,
        break_every=0 if hands else 4,
    )


def _blinds(structure: Sequence[Level]) -> list[Level]:
    return [level for level in structure if not level.is_break]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-stack-{c[1] or str(c[2]) + 'h'}-{c[4]}p")
def test_the_generator_rounds_every_blind_and_ante_to_the_chips_in_play(case: tuple) -> None:  # type: ignore[type-arg]
    structure, chips = _generate(case), sorted(case[5])
    in_play = list(chips)
    for level in structure:
        if level.is_break:
            if level.colour_up is not None:
                assert level.colour_up == in_play.pop(0)
            continue
        assert level.small_blind * 2 == level.big_blind
        for amount in (level.small_blind, level.big_blind, level.ante):
            assert amount % in_play[0] == 0


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-stack-{c[4]}p")
def test_the_generator_raises_the_big_blind_every_level_from_100_to_10_big_blinds_at_heads_up(
    case: tuple,  # type: ignore[type-arg]
) -> None:
    stack, players = case[0], case[4]
    levels = _blinds(_generate(case))
    big_blinds = [level.big_blind for level in levels]
    assert all(a < b for a, b in zip(big_blinds, big_blinds[1:], strict=False))
    # about 100 big blinds (deeper when the levels need more room; never below two of the smallest chip)
    assert 1 / 3 <= big_blinds[0] / max(stack / 100, 2 * min(case[5])) <= 1.5
    assert 0.6 <= big_blinds[-1] / (players * stack / 20) <= 1.7


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-stack-{c[3]}min")
def test_the_generator_comes_near_the_target_duration(case: tuple) -> None:  # type: ignore[type-arg]
    structure, target = _generate(case), case[3]
    minutes = sum(level.minutes if level.minutes is not None else (level.hands or 0) * 60 / 40 for level in structure)
    length = case[1] or case[2] * 60 / 40
    assert abs(minutes - target) <= length + 15


@pytest.mark.parametrize("case", CASES[:6], ids=lambda c: f"{c[0]}-stack-{c[4]}p")
def test_breaks_come_every_fourth_level_and_colour_up_exactly_when_the_chip_is_no_longer_needed(
    case: tuple,  # type: ignore[type-arg]
) -> None:
    structure, chips = _generate(case), sorted(case[5])
    assert not structure[-1].is_break
    in_play = list(chips)
    count = 0
    for index, level in enumerate(structure):
        if not level.is_break:
            count += 1
            continue
        assert count % 4 == 0
        later = [a for lvl in structure[index + 1 :] for a in (lvl.small_blind, lvl.big_blind, lvl.ante)]
        payable_without = all(amount % in_play[1] == 0 for amount in later)
        assert (level.colour_up is not None) == payable_without, f"the break after level {count}"
        if level.colour_up is not None:
            in_play.pop(0)
    assert count == len(_blinds(structure))
    assert in_play != chips, "a structure this long colours up at least once"


def test_the_antes_start_at_level_three_big_blind_or_classic() -> None:
    big = _blinds(_generate(CASES[0]))
    assert [level.ante for level in big[:2]] == [0, 0]
    assert all(level.ante == level.big_blind and level.ante_kind == BB for level in big[2:])
    classic = _blinds(_generate(CASES[4]))
    antes = [level.ante for level in classic]
    assert antes == sorted(antes)
    for level in classic[2:]:
        if level.ante:
            assert level.ante_kind == CL
            assert 1 / 13 <= level.ante / level.big_blind <= 1 / 6


def test_ante_up_keeps_the_blinds_and_raises_the_ante_from_level_one_as_the_seed_says() -> None:
    structure = structure_generate(
        starting_stack=10_000,
        level_minutes=15,
        target_minutes=300,
        chips=(5, 25, 100, 500, 1000),
        players=50,
        ante_up=True,
    )
    levels = _blinds(structure)
    # the seed: "Level eins 25/50 Blinds und 5 Ante. Level zwei 25/50 und 10 Ante usw."
    assert [(lvl.small_blind, lvl.big_blind, lvl.ante) for lvl in levels[:2]] == [(25, 50, 5), (25, 50, 10)]
    assert {(lvl.small_blind, lvl.big_blind) for lvl in levels} == {(25, 50)}
    antes = [lvl.ante for lvl in levels]
    assert all(a < b for a, b in zip(antes, antes[1:], strict=False))
    assert all(lvl.ante_kind == CL for lvl in levels)
    # the 5 chip goes once the antes are whole 25s; the 25 pays the small blind to the end
    assert {lvl.colour_up for lvl in structure if lvl.is_break} <= {None, 5}


def test_ante_up_with_the_house_chips_starts_at_the_smallest_chip() -> None:
    levels = _blinds(
        structure_generate(
            starting_stack=10_000, level_minutes=15, target_minutes=300, chips=DEFAULT_CHIPS, players=50, ante_up=True
        )
    )
    assert (levels[0].small_blind, levels[0].big_blind, levels[0].ante) == (25, 50, 25)


def test_mixed_games_alternate_level_by_level() -> None:
    levels = _blinds(_generate(CASES[3]))
    assert [lvl.game for lvl in levels] == ["nlhe", "nlo"] * (len(levels) // 2) + ["nlhe"] * (len(levels) % 2)


def test_hands_counted_levels_have_hands_and_no_minutes() -> None:
    structure = _generate(CASES[-1])
    assert all(level.hands == 7 and level.minutes is None for level in structure)
    # 60 minutes at 40 hands an hour: about 40 hands, so about six levels of 7
    assert len(structure) == 6


def test_a_slower_heads_up_pace_gives_fewer_levels_for_the_same_hour() -> None:
    fast = structure_generate(
        starting_stack=3000,
        level_minutes=None,
        level_hands=7,
        target_minutes=60,
        chips=DEFAULT_CHIPS,
        players=2,
        break_every=0,
        hands_per_hour=60,
    )
    slow = structure_generate(
        starting_stack=3000,
        level_minutes=None,
        level_hands=7,
        target_minutes=60,
        chips=DEFAULT_CHIPS,
        players=2,
        break_every=0,
        hands_per_hour=21,
    )
    assert (len(fast), len(slow)) == (9, 3)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"level_minutes": None}, "A level lasts minutes or hands: give one of them"),
        ({"level_hands": 7}, "A level lasts minutes or hands: give one of them"),
        ({"players": 1}, "A tournament needs at least two players"),
        ({"starting_stack": 0}, "The starting stack is a whole number of at least 1, got 0"),
        ({"games": ("nlhe", "razz")}, "Unknown game in ('nlhe', 'razz')"),
        ({"ante_up": True, "ante_kind": NO}, "An Ante-Up event has an ante from level 1"),
        ({"break_every": -1}, "Breaks come every so many levels (0: none), got -1"),
        ({"chips": (25, 25, 100)}, "The house's chips list a value twice"),
        ({"starting_stack": 10**18}, "Blinds rising from about 10,000,000,000,000,000 outgrow any chip count"),
        ({"level_minutes": 1, "target_minutes": 10_000}, "A target of 10000 minutes needs more than 100 levels"),
    ],
)
def test_the_generator_refuses_what_it_cannot_build(overrides: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {
        "starting_stack": 10_000,
        "level_minutes": 20,
        "target_minutes": 300,
        "chips": DEFAULT_CHIPS,
        "players": 50,
    }
    arguments.update(overrides)
    with pytest.raises(StructureError, match="^" + re.escape(message)):
        structure_generate(**arguments)  # type: ignore[arg-type]


@settings(max_examples=80, deadline=None)
@given(
    stack=st.integers(min_value=500, max_value=2_000_000),
    minutes=st.integers(min_value=8, max_value=60),  # 100 levels at most: see the refusals
    target=st.integers(min_value=60, max_value=720),
    players=st.integers(min_value=2, max_value=2_000),
    chips=st.sampled_from([DEFAULT_CHIPS, (5, 25, 100, 500, 1000, 5000), (1, 5, 25, 100), (100, 500, 1000)]),
    kind=st.sampled_from(list(AnteKind)),
    ante_up=st.booleans(),
)
def test_whatever_the_generator_builds_passes_the_check_and_rises(
    stack: int, minutes: int, target: int, players: int, chips: tuple[int, ...], kind: AnteKind, ante_up: bool
) -> None:
    if ante_up and kind == NO:
        kind = CL
    structure = structure_generate(
        starting_stack=stack,
        level_minutes=minutes,
        target_minutes=target,
        chips=chips,
        players=players,
        ante_kind=kind,
        ante_up=ante_up,
    )
    structure_check(structure, chips=chips)
    levels = _blinds(structure)
    rising = [lvl.ante for lvl in levels] if ante_up else [lvl.big_blind for lvl in levels]
    assert all(a < b for a, b in zip(rising, rising[1:], strict=False))


# --- the chip race --------------------------------------------------------------------------------------------


def test_the_chip_race_docstrings_worked_example_holds() -> None:
    assert doctest.testmod(chip_race_module).failed == 0


def test_the_worked_example_passes_over_a_second_card_and_keeps_the_loser_in() -> None:
    race = chip_race(
        {"Anna": 7, "Ben": 2, "Cem": 3, "Dora": 2},
        old_value=25,
        new_value=100,
        rng=random.Random(7),
        other_chips={"Anna": 5000, "Cem": 1200, "Dora": 300},
    )
    assert race.raced_chips == 3
    assert race.won == {"Anna": 1, "Ben": 0, "Cem": 1, "Dora": 1}
    assert race.chips_after == {"Anna": 2, "Ben": 1, "Cem": 1, "Dora": 1}
    assert race.saved == ("Ben",)


@pytest.mark.parametrize(
    ("leftovers", "old", "new", "raced"),
    [
        ({1: 1}, 25, 100, 0),  # 25: less than half a 100
        ({1: 2}, 25, 100, 1),  # 50: exactly half counts as one
        ({1: 1, 2: 1, 3: 1}, 25, 100, 1),  # 75
        ({1: 3, 2: 3, 3: 2}, 25, 100, 2),  # 200: two whole chips, no remainder
        ({1: 3, 2: 3, 3: 3}, 25, 100, 2),  # 225: remainder 25 < 50
        ({1: 3, 2: 3}, 25, 100, 2),  # 150: one, plus one for 50
        ({1: 4, 2: 2}, 100, 500, 1),  # 600: one, remainder 100 < 250
        ({1: 4, 2: 3}, 100, 500, 1),  # 700: one, remainder 200 < 250
        ({1: 4, 2: 4}, 100, 500, 2),  # 800: one, plus one for 300 >= 250
        ({1: 8, 2: 0}, 25, 100, 0),  # whole sets only: nothing to race
    ],
)
def test_the_race_counts_the_remainder_of_at_least_half_a_chip_as_one(
    leftovers: dict[int, int], old: int, new: int, raced: int
) -> None:
    value = sum(leftovers.values()) * old
    odd = sum(n % (new // old) for n in leftovers.values()) * old
    assert raced == odd // new + (1 if odd % new and 2 * (odd % new) >= new else 0), "the table itself is right"
    race = chip_race(leftovers, old_value=old, new_value=new, rng=random.Random(1))
    assert race.raced_chips == raced
    assert sum(race.exchanged.values()) == (value - odd) // new


@settings(max_examples=150, deadline=None)
@given(
    leftovers=st.lists(st.integers(min_value=0, max_value=11), min_size=1, max_size=10),
    others=st.lists(st.booleans(), min_size=10, max_size=10),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_the_race_gives_one_chip_at_most_to_the_best_cards_and_raced_nobody_out(
    leftovers: list[int], others: list[bool], seed: int
) -> None:
    counts = {f"seat {n}": chips for n, chips in enumerate(leftovers, start=1)}
    other = {seat: 500 for seat, rich in zip(counts, others, strict=False) if rich}
    race = chip_race(counts, old_value=25, new_value=100, rng=random.Random(seed), other_chips=other)
    dealt = [card for hand in race.cards.values() for card in hand]
    assert len(dealt) == len(set(dealt)) == sum(n % 4 for n in leftovers)
    assert all(len(race.cards[seat]) == n % 4 for seat, n in counts.items())
    assert set(race.won.values()) <= {0, 1} and sum(race.won.values()) == race.raced_chips
    best = {seat: max(map(card_strength, hand)) for seat, hand in race.cards.items() if hand}
    ranked = sorted(best, key=best.__getitem__, reverse=True)
    assert {seat for seat, won in race.won.items() if won} == set(ranked[: race.raced_chips])
    for seat, n in counts.items():
        if n and seat not in other:
            assert race.chips_after[seat] >= 1, f"{seat} was raced out"
    before = sum(leftovers) * 25
    after = (sum(race.chips_after.values()) - len(race.saved)) * 100
    assert -50 < after - before <= 50, "conserved up to the race's rounding"


@pytest.mark.parametrize(
    ("leftovers", "old", "new", "extra", "message"),
    [
        ({1: 3}, 25, 60, {}, "A 60 chip is not a whole number of 25 chips"),
        ({1: 3}, 100, 25, {}, "A 25 chip is not a whole number of 100 chips"),
        ({1: -1}, 25, 100, {}, "1's chips is a whole number of chips, at least 0; got -1"),
        ({1: 3}, 25, 100, {2: 100}, "Not in the race: 2"),
        ({n: 9 for n in range(7)}, 100, 1000, {}, "The race needs 63 cards and a deck has 52"),
        ({1: 3}, 0, 100, {}, "The old chip is worth a whole number of at least 1, got 0"),
    ],
)
def test_the_race_refuses_what_cannot_be_raced(
    leftovers: dict[int, int], old: int, new: int, extra: dict[int, int], message: str
) -> None:
    with pytest.raises(StructureError, match="^" + re.escape(message)):
        chip_race(leftovers, old_value=old, new_value=new, rng=random.Random(0), other_chips=extra)


def test_a_race_is_the_same_for_the_same_seed() -> None:
    one = chip_race({1: 3, 2: 2, 3: 1}, old_value=25, new_value=100, rng=random.Random(42))
    two = chip_race({1: 3, 2: 2, 3: 1}, old_value=25, new_value=100, rng=random.Random(42))
    assert one == two
    assert sum(len(hand) for hand in one.cards.values()) == 6
