"""The rotation of a string of tables, as a pure function: who deals where, who is on break, who is next."""

from __future__ import annotations

import datetime as dt
import doctest

import pytest

import tables.rotation_plan
from tables.rotation_plan import Pattern, RotationError, rotation_at

START = dt.datetime(2026, 3, 1, 14, 0, tzinfo=dt.UTC)
TABLES = ("T1", "T2", "T3")
DEALERS = ("Ann", "Bob", "Cy", "Dee")
TWENTY = dt.timedelta(minutes=20)


def _at(minutes: int) -> dt.datetime:
    return START + dt.timedelta(minutes=minutes)


def test_the_examples_in_the_module_hold() -> None:
    assert doctest.testmod(tables.rotation_plan).failed == 0


@pytest.mark.parametrize(
    ("minutes", "t1", "t2", "t3", "on_break"),
    [
        (0, "Ann", "Bob", "Cy", "Dee"),
        (19, "Ann", "Bob", "Cy", "Dee"),
        (20, "Dee", "Ann", "Bob", "Cy"),
        (40, "Cy", "Dee", "Ann", "Bob"),
        (60, "Bob", "Cy", "Dee", "Ann"),
        (80, "Ann", "Bob", "Cy", "Dee"),
    ],
)
def test_every_push_the_relief_taps_out_the_first_table_and_the_last_dealer_goes_on_break(
    minutes: int, t1: str, t2: str, t3: str, on_break: str
) -> None:
    plan = rotation_at(tables=TABLES, dealers=DEALERS, started_at=START, push_every=TWENTY, at=_at(minutes))
    assert [plan.at_table(t).dealer for t in TABLES] == [t1, t2, t3]
    assert [post.dealer for post in plan.on_break()] == [on_break]


def test_sixty_on_twenty_off_over_three_tables_is_a_push_every_twenty_minutes_with_one_relief() -> None:
    pattern = Pattern(on_minutes=60, off_minutes=20)
    assert pattern.push_every(3) == TWENTY
    assert (pattern.breaks(3), pattern.dealers(3)) == (1, 4)
    assert Pattern(40, 20).push_every(2) == TWENTY and Pattern(40, 20).dealers(2) == 3
    assert Pattern(60, 20).dealers(6) == 8  # two on break at once, a push every ten minutes


def test_a_round_robin_deals_each_table_once_then_rests_one_push() -> None:
    pattern = Pattern(on_minutes=15)
    assert pattern.round_robin and pattern.push_every(4) == dt.timedelta(minutes=15) and pattern.dealers(4) == 5


@pytest.mark.parametrize(
    ("pattern", "tables", "why"),
    [
        (Pattern(60, 20), 2, "not a whole number of pushes"),
        (Pattern(50, 20), 3, "do not split over 3 tables"),
        (Pattern(0, 20), 3, "above zero"),
        (Pattern(60, 20), 0, "at least one table"),
    ],
)
def test_a_pattern_the_string_cannot_keep_is_refused(pattern: Pattern, tables: int, why: str) -> None:
    with pytest.raises(RotationError, match=why):
        pattern.check(tables)


def test_a_string_without_a_relief_or_with_a_dealer_twice_is_refused() -> None:
    with pytest.raises(RotationError, match="at least 4 dealers"):
        rotation_at(tables=TABLES, dealers=DEALERS[:3], started_at=START, push_every=TWENTY, at=START)
    with pytest.raises(RotationError, match="twice"):
        rotation_at(tables=TABLES, dealers=("Ann", "Ann", "Cy", "Dee"), started_at=START, push_every=TWENTY, at=START)


def test_a_dealer_on_break_knows_since_when_and_until_when() -> None:
    plan = rotation_at(tables=TABLES, dealers=DEALERS, started_at=START, push_every=TWENTY, at=_at(45))
    bob = plan.post_of("Bob")
    assert (bob.table, bob.since, bob.until) == (None, _at(40), _at(60))
    assert plan.next_at_table("T1").dealer == "Bob" and plan.next_at_table("T1").since == _at(60)
    assert plan.post_of("Dee").table == "T2" and plan.next_post_of("Dee").table == "T3"


def test_over_a_shift_every_dealer_deals_sixty_minutes_and_rests_twenty_in_each_cycle() -> None:
    plan = rotation_at(tables=TABLES, dealers=DEALERS, started_at=START, push_every=TWENTY, at=START)
    pushes = list(plan.pushes(steps=12))  # four hours
    assert len(pushes) == 36
    assert pushes[0].due_at == _at(20) and (pushes[0].dealer_in, pushes[0].dealer_out) == ("Dee", "Ann")
    to_break = [push.dealer_out for push in pushes if push.table == "T3"]
    assert sorted(to_break) == sorted(DEALERS * 3)  # each dealer went on break three times
    resting = dict.fromkeys(DEALERS, 0)
    for minute in range(240):
        now = rotation_at(tables=TABLES, dealers=DEALERS, started_at=START, push_every=TWENTY, at=_at(minute))
        for post in now.on_break():
            resting[post.dealer] += 1
    assert resting == dict.fromkeys(DEALERS, 60)  # 20 minutes off in each hour-and-twenty cycle, three cycles
