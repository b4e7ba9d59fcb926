"""Commission in integer cents under each rounding policy a house can pick."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.games.commission import Rounding, commission_cents


@pytest.mark.parametrize(
    ("win", "rate", "rounding", "expected"),
    [
        (10_000, 500, "cent_down", 500),  # 5% of 100.00
        (1_250, 500, "cent_down", 62),  # 62.5 cents, down
        (1_250, 500, "cent_up", 63),  # 62.5 cents, up
        (1_000, 500, "cent_up", 50),  # exact stays exact
        (2_700, 500, "quarter_down", 125),  # 1.35 → 1.25
        (2_700, 500, "quarter_up", 150),  # 1.35 → 1.50
        (3_000, 500, "quarter_down", 150),  # 1.50 exactly
        (3_000, 500, "whole_unit", 200),  # 1.50 → 2.00 (halves up)
        (2_500, 500, "whole_unit", 100),  # 1.25 → 1.00
        (500, 500, "quarter_up", 25),  # 5% of a 5.00 win is 25 cents
        (100, 500, "whole_unit", 0),  # 5 cents rounds to no unit
        (1, 500, "quarter_up", 1),  # never more than the win itself
        (0, 500, "cent_up", 0),
        (10_000, 0, "cent_up", 0),
        (10_000, 250, "cent_down", 250),  # a 2.5% house
    ],
)
def test_commission_follows_the_house_rounding(win: int, rate: int, rounding: str, expected: int) -> None:
    assert commission_cents(win, rate_bp=rate, rounding=rounding) == expected


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"win_cents": -100}, "not on a loss"),
        ({"win_cents": 10.5}, "whole number of cents"),
        ({"win_cents": 100, "rate_bp": 10_001}, "0 to 10000 basis points"),
        ({"win_cents": 100, "rounding": "nearest"}, "unknown commission rounding 'nearest'"),
    ],
)
def test_bad_commission_input_is_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        commission_cents(**kwargs)  # type: ignore[arg-type]


@given(st.integers(0, 10**9), st.integers(0, 10_000), st.sampled_from(list(Rounding)))
def test_commission_is_within_a_rounding_step_of_exact_and_never_above_the_win(
    win: int, rate: int, rule: Rounding
) -> None:
    got = commission_cents(win, rate_bp=rate, rounding=rule)
    exact = win * rate / 10_000
    step = {"cent_down": 1, "cent_up": 1, "quarter_down": 25, "quarter_up": 25, "whole_unit": 100}[rule.value]
    assert 0 <= got <= win
    assert abs(got - exact) <= step
    if rule.value.endswith("_down"):
        assert got <= exact
    if rule.value.endswith("_up") and got < win:
        assert got >= exact
