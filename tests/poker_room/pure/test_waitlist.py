"""The waitlist's pure rules: where the next name is called, who moves from a must-move table first, when a called
player is a no-show, and how a name shows on a public screen."""

from __future__ import annotations

import datetime as dt

import pytest

from poker_room.pure.waitlist import CallTo, TableSeats, call_to, first_to_move, initials, no_show

T0 = dt.datetime(2026, 11, 28, 19, 0, tzinfo=dt.UTC)


def main(held: int, seats: int = 4) -> TableSeats:
    return TableSeats(table=1, must_move=False, seats=seats, held=held)


def feeder(table: int, held: int, movers: int | None = None, seats: int = 4) -> TableSeats:
    return TableSeats(table=table, must_move=True, seats=seats, held=held, movers=held if movers is None else movers)


@pytest.mark.parametrize(
    ("tables", "expected"),
    [
        ((main(0),), CallTo(table=1, move_first=False)),  # an empty main game fills first
        ((main(3), feeder(2, 0)), CallTo(table=1, move_first=False)),  # nobody to move: the main game's seat
        ((main(3), feeder(2, 2)), CallTo(table=None, move_first=True)),  # its seat goes to the must-move players
        ((main(4), feeder(2, 2)), CallTo(table=2, move_first=False)),  # the main game full: the must-move table
        ((main(4), feeder(2, 4), feeder(3, 1)), CallTo(table=3, move_first=False)),  # the next must-move table
        ((main(4), feeder(2, 4)), CallTo(table=None, move_first=False)),  # every seat held
        ((main(3), feeder(2, 1, movers=0)), CallTo(table=1, move_first=False)),  # held only by a name called there
        ((), CallTo(table=None, move_first=False)),  # no table deals the game
    ],
)
def test_the_next_name_is_called_where_the_must_move_rule_says(tables, expected) -> None:  # type: ignore[no-untyped-def]
    assert call_to(tables) == expected


def test_the_player_seated_longest_moves_first_and_a_tie_goes_to_the_first_put_down() -> None:
    at = [T0 + dt.timedelta(minutes=m) for m in (5, 2, 2)]
    assert first_to_move([(7, at[0]), (9, at[1]), (8, at[2])]) == 8
    assert first_to_move([]) is None


@pytest.mark.parametrize(("minutes", "late"), [(0, False), (9.99, False), (10, True), (45, True)])
def test_a_called_player_is_a_no_show_once_the_minutes_have_passed(minutes, late) -> None:  # type: ignore[no-untyped-def]
    assert no_show(T0, T0 + dt.timedelta(minutes=minutes), 10) is late


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Jo Lee", "J. L."),
        ("Johanna van der Leeuwen", "J. L."),
        ("cher", "C."),
        ("Anne-Marie O'Neill", "A. O."),
        ("Émile Zola", "É. Z."),
        ("李 小龙", "李. 小."),
        ("J. Lee", "J. L."),
        ("...", "?"),
    ],
)
def test_a_public_screen_shows_the_initials_of_the_first_and_last_words_only(name, shown) -> None:  # type: ignore[no-untyped-def]
    assert initials(name) == shown
