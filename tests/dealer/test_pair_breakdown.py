"""Who pays whom, itemised to the last point: the items of a pair add up to what the pair pays."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from dealer.tablet_values import pair_items


def _sum(items: list[str]) -> int:
    return sum(int(number) for item in items for number in re.findall(r"[+-]\d+", item))


@pytest.mark.parametrize(
    ("pair", "said"),
    [
        # Open-Face, 18 points: three rows, the scoop, and 12 of royalties (only the rows were shown: 3 of 18).
        (
            {"seat": 1, "opponent": 2, "points": 18, "rows": [1, 1, 1]},
            ["front +1", "middle +1", "back +1", "scoop +3", "royalties and fouls +12"],
        ),
        ({"seat": 1, "opponent": 3, "points": -1, "rows": [1, -1, -1]}, ["front +1", "middle -1", "back -1"]),
        (
            {"seat": 2, "opponent": 3, "points": -6, "rows": [0, 0, 0]},
            ["front +0", "middle +0", "back +0", "royalties and fouls -6"],
        ),
        # Chinese Poker: seat 1 beats seat 3 on two rows of three and pays 3 of royalties: -1 in all.
        (
            {"seat": 1, "opponent": 3, "points": -1, "rows_won": 2, "rows_lost": 1, "natural": 0},
            ["rows won 2, lost 1: +1", "royalties and scoop bonus -2"],
        ),
        ({"seat": 1, "opponent": 2, "points": -3, "rows_won": 0, "rows_lost": 0, "natural": -3}, ["natural -3"]),
        (
            {"seat": 1, "opponent": 3, "points": 3, "rows_won": 0, "rows_lost": 2, "natural": 0, "surrender": 3},
            ["rows won 0, lost 2: -2", "surrender +3", "royalties and scoop bonus +2"],
        ),
    ],
)
def test_each_pair_is_itemised_to_its_total(pair: dict[str, object], said: list[str]) -> None:
    with translation.override("en"):
        items = pair_items(pair)
    assert items == said
    assert _sum(items) == pair["points"]
