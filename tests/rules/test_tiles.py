"""The 32-tile Chinese domino set and its notation (GAME_RULES.md §1, "The set", "Single-tile ranking")."""

from __future__ import annotations

import copy
import doctest
import pickle
from collections import Counter

import pytest

from rules.games import tiles as tiles_module
from rules.games.errors import InvalidHand
from rules.games.tiles import COPIES, TILE_FACES, TILE_SET, Tile, check_tile_counts, parse_tiles, tiles_text


def test_the_examples_in_the_module_docstrings_hold() -> None:
    assert doctest.testmod(tiles_module).failed == 0


# --- the set -------------------------------------------------------------------------------------


def test_the_set_holds_32_tiles_of_21_faces() -> None:
    assert len(TILE_FACES) == 21 == len(set(TILE_FACES))
    assert len(TILE_SET) == 32
    assert {(t.high, t.low) for t in TILE_FACES} == {(a, b) for a in range(1, 7) for b in range(1, a + 1)}


DOUBLED = "6-6 6-5 6-4 6-1 5-5 5-1 4-4 3-3 3-1 2-2 1-1"
SINGLE = "6-3 5-4 6-2 5-3 5-2 4-3 4-1 3-2 4-2 2-1"


@pytest.mark.parametrize("text", DOUBLED.split())
def test_eleven_faces_come_twice_in_the_set(text: str) -> None:
    tile = parse_tiles(text)[0]
    assert COPIES[tile] == tile.copies == Counter(TILE_SET)[tile] == 2


@pytest.mark.parametrize("text", SINGLE.split())
def test_ten_faces_come_once_in_the_set(text: str) -> None:
    tile = parse_tiles(text)[0]
    assert COPIES[tile] == tile.copies == Counter(TILE_SET)[tile] == 1


SINGLE_TILE_RANKING = [
    # tile, name, points: highest first (§1)
    ("6-6", "Teen", 2),
    ("1-1", "Day", 2),
    ("4-4", "Yun", 8),
    ("3-1", "Gor", 4),
    ("5-5", "Mooy", 0),
    ("3-3", "Chong", 6),
    ("2-2", "Bon", 4),
    ("6-5", "Foo", 1),
    ("6-4", "Ping", 0),
    ("6-1", "Tit", 7),
    ("5-1", "Look", 6),
    ("6-3", "mixed nine", 9),
    ("5-4", "mixed nine", 9),
    ("6-2", "mixed eight", 8),
    ("5-3", "mixed eight", 8),
    ("5-2", "mixed seven", 7),
    ("4-3", "mixed seven", 7),
    ("4-2", "Gee Joon", 6),
    ("4-1", "mixed five", 5),
    ("3-2", "mixed five", 5),
    ("2-1", "Gee Joon", 3),
]


@pytest.mark.parametrize(("text", "name", "points"), SINGLE_TILE_RANKING, ids=[r[0] for r in SINGLE_TILE_RANKING])
def test_each_tile_has_its_name_and_points(text: str, name: str, points: int) -> None:
    tile = parse_tiles(text)[0]
    assert (tile.name, tile.points, tile.pips % 10) == (name, points, points)
    assert str(tile) == text


def test_the_face_index_runs_in_single_tile_ranking_order() -> None:
    assert [str(t) for t in TILE_FACES] == [row[0] for row in SINGLE_TILE_RANKING]
    assert [t.index for t in TILE_FACES] == list(range(21))
    assert sorted(parse_tiles("2-1 6-6 5-4 1-1")) == list(parse_tiles("6-6 1-1 5-4 2-1"))


def test_a_tile_is_the_same_whichever_way_round_its_pips_are_written() -> None:
    assert Tile(6, 5) == Tile(5, 6)
    assert Tile(6, 5) is Tile(5, 6)
    assert (Tile(5, 6).high, Tile(5, 6).low, Tile(5, 6).pips) == (6, 5, 11)
    assert parse_tiles("2-4") == parse_tiles("4-2")


def test_tiles_are_immutable_and_survive_copying_and_pickling() -> None:
    tile = Tile(6, 6)
    with pytest.raises(AttributeError):
        tile.high = 5
    assert copy.deepcopy(tile) is tile
    assert pickle.loads(pickle.dumps(tile)) is tile


def test_the_summed_keys_of_four_tiles_name_the_faces_whatever_the_order() -> None:
    hands: dict[int, Counter[Tile]] = {}
    for a in range(21):
        for b in range(a, 21):
            counts = Counter((TILE_FACES[a], TILE_FACES[b]))
            key = sum(t.key for t in counts.elements())
            assert hands.setdefault(key, counts) == counts
    assert len(hands) == 21 * 22 // 2


# --- notation --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("6-6 4-2", "6-6 4-2"),
        ("  6-6,4-2 ", "6-6 4-2"),
        ("2-4, 1-3\t5-6\n1-1", "4-2 3-1 6-5 1-1"),
        ("[6–6] [5–4]", "6-6 5-4"),  # as the German seed writes them
        ("", ""),
    ],
)
def test_tiles_are_read_in_any_spacing_with_commas_and_either_pip_first(text: str, expected: str) -> None:
    assert tiles_text(parse_tiles(text)) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("6-6 7-1", "'7-1' is not a tile"),
        ("6-6 0-1", "'0-1' is not a tile"),
        ("6x6", "'6x6' is not a tile"),
        ("teen", "'teen' is not a tile"),
        ("6-6 6-6 6-6", "Teen 6-6 appears 3 times; the set has 2"),
        ("6-3 3-6", "mixed nine 6-3 appears 2 times; the set has 1"),
        ("4-2 2-4", "Gee Joon 4-2 appears 2 times; the set has 1"),
    ],
)
def test_bad_tile_notation_is_refused_naming_the_tile(text: str, message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        parse_tiles(text)


def test_two_of_a_doubled_face_are_allowed_in_one_hand() -> None:
    assert len(parse_tiles("6-6 6-6 1-1 1-1")) == 4


def test_the_count_check_refuses_what_is_not_a_tile() -> None:
    with pytest.raises(InvalidHand, match="tiles expected, got '6-6'"):
        check_tile_counts(["6-6"])  # type: ignore[list-item]
    check_tile_counts(TILE_SET)


def test_a_tile_that_does_not_exist_is_refused() -> None:
    with pytest.raises(InvalidHand, match="no such tile: 7-1"):
        Tile(7, 1)
