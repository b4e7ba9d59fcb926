"""A table's win and hold (DESIGN.md "The table's money"), as the regulators define them.

Table win = drop + closer + credits − opener − fills (the definition of New York's 9 NYCRR 5315.1(c), followed
here); hold = win ÷ drop. Money in integer cents; hold in basis points (hundredths of a percent), rounded half
away from zero, none when nothing was dropped. Pure: the figures come from the tray counts, the slips and the
drop box (``tables.tray``, ``tables.slips``, ``tables.drop``).
"""

from __future__ import annotations


def table_win_cents(
    *, drop_cents: int, closer_cents: int, credits_cents: int, opener_cents: int, fills_cents: int
) -> int:
    """What the table won: what it took in (the drop), what it ends with (the closer) and what it sent back to the
    cage (credits), less what it started with (the opener) and what the cage sent it (fills).

    >>> table_win_cents(drop_cents=500_000, closer_cents=1_050_000, credits_cents=0, opener_cents=1_000_000,
    ...                 fills_cents=200_000)
    350000
    """
    return drop_cents + closer_cents + credits_cents - opener_cents - fills_cents


def hold_bp(*, win_cents: int, drop_cents: int) -> int | None:
    """The hold, win ÷ drop, in basis points rounded half away from zero; None with no drop.

    >>> hold_bp(win_cents=350_000, drop_cents=500_000), hold_bp(win_cents=2, drop_cents=3)
    (7000, 6667)
    >>> hold_bp(win_cents=-1, drop_cents=20_000), hold_bp(win_cents=5, drop_cents=0)  # half a point, away from 0
    (-1, None)
    """
    if drop_cents <= 0:
        return None
    scaled = abs(win_cents) * 10_000
    whole, rest = divmod(scaled, drop_cents)
    rounded = whole + (1 if rest * 2 >= drop_cents else 0)
    return rounded if win_cents >= 0 else -rounded
