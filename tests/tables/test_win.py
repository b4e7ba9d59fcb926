"""A table's win and hold: win = drop + closer + credits − opener − fills (9 NYCRR 5315.1(c)); hold =
win ÷ drop, in basis points. Each row is a shift a pit boss would recognise."""

from __future__ import annotations

import pytest

from tables.win import hold_bp, table_win_cents


@pytest.mark.parametrize(
    ("drop", "closer", "credits", "opener", "fills", "win", "hold"),
    [
        # Players bought 5,000.00 in chips from the tray (the cash in the drop) and lost those and 500.00 more of
        # their own chips back to it: the tray ends 500.00 above its opener; the table won 5,500.00, a 110% hold.
        (500_000, 1_050_000, 0, 1_000_000, 0, 550_000, 11_000),
        # A fill of 2,000.00 during the shift: the tray ends 1,000.00 below its opener plus the fill.
        (500_000, 1_000_000, 0, 1_000_000, 200_000, 300_000, 6_000),
        # A credit of 1,000.00 back to the cage counts for the table.
        (400_000, 900_000, 100_000, 1_000_000, 0, 400_000, 10_000),
        # A losing shift: the players took 3,000.00 more in chips than they dropped.
        (200_000, 700_000, 0, 1_000_000, 0, -100_000, -5_000),
        # Nothing dropped: no hold.
        (0, 1_000_000, 0, 1_000_000, 0, 0, None),
        # To the cent: 12.34 dropped, the tray unchanged: a 100% hold.
        (1_234, 1_000_000, 0, 1_000_000, 0, 1_234, 10_000),
    ],
)
def test_win_and_hold(drop, closer, credits, opener, fills, win, hold) -> None:  # type: ignore[no-untyped-def]
    got = table_win_cents(
        drop_cents=drop, closer_cents=closer, credits_cents=credits, opener_cents=opener, fills_cents=fills
    )
    assert got == win
    assert hold_bp(win_cents=got, drop_cents=drop) == hold


@pytest.mark.parametrize(
    ("win", "drop", "hold"), [(1, 3, 3_333), (2, 3, 6_667), (1, 20_000, 1), (1, 20_001, 0), (3, 40_000, 1)]
)
def test_hold_rounds_half_away_from_zero_in_basis_points(win, drop, hold) -> None:  # type: ignore[no-untyped-def]
    assert hold_bp(win_cents=win, drop_cents=drop) == hold
    assert hold_bp(win_cents=-win, drop_cents=drop) == -hold
