"""Commission on a win, in integer cents (GAME_RULES.md §1 and §2: the 5% the bank
or the player pays the house).

The rate is in basis points (500 = 5%). A house picks one rounding policy; each
starts from the exact amount ``win_cents * rate_bp / 10000`` and rounds it:

* ``cent_down`` (default): down to the cent. 5% of 12.50 (62.5 cents) is 62 cents.
* ``cent_up``: up to the cent. 5% of 12.50 is 63 cents.
* ``quarter_down``: down to a multiple of 25 cents, the chip the dealer can
  make change in. 5% of 30.00 (1.50) is 1.50; of 27.00 (1.35) is 1.25.
* ``quarter_up``: up to a multiple of 25 cents. 5% of 27.00 is 1.50.
* ``whole_unit``: to the nearest whole unit (100 cents), halves up, for
  tables that take no coin. 5% of 30.00 (1.50) is 2.00; of 25.00 (1.25) is 1.00.

No policy ever takes more than the win itself, and a win of zero pays nothing.

>>> commission_cents(10_000)
500
>>> commission_cents(1_250, rounding="cent_up")
63
>>> commission_cents(2_700, rounding="quarter_down"), commission_cents(2_700, rounding="quarter_up")
(125, 150)
>>> commission_cents(3_000, rounding="whole_unit")
200
"""

from __future__ import annotations

from enum import StrEnum


class Rounding(StrEnum):
    CENT_DOWN = "cent_down"
    CENT_UP = "cent_up"
    QUARTER_DOWN = "quarter_down"
    QUARTER_UP = "quarter_up"
    WHOLE_UNIT = "whole_unit"


_BP = 10_000


def _down(numerator: int, step: int) -> int:
    return numerator // (_BP * step) * step


def _up(numerator: int, step: int) -> int:
    return -(-numerator // (_BP * step)) * step


def commission_cents(win_cents: int, *, rate_bp: int = 500, rounding: str = Rounding.CENT_DOWN) -> int:
    """The commission on a win of ``win_cents`` at ``rate_bp`` basis points, rounded by policy."""
    if isinstance(win_cents, bool) or not isinstance(win_cents, int):
        raise ValueError(f"a win is a whole number of cents, got {win_cents!r}")
    if win_cents < 0:
        raise ValueError(f"commission is charged on a win, not on a loss ({win_cents} cents)")
    if isinstance(rate_bp, bool) or not isinstance(rate_bp, int) or not 0 <= rate_bp <= _BP:
        raise ValueError(f"the commission rate is 0 to 10000 basis points, got {rate_bp!r}")
    try:
        policy = Rounding(rounding)
    except ValueError:
        raise ValueError(
            f"unknown commission rounding {rounding!r}: choose one of {', '.join(r.value for r in Rounding)}"
        ) from None
    exact = win_cents * rate_bp  # in cent-basis-points: exact, no float anywhere
    if policy is Rounding.CENT_DOWN:
        amount = _down(exact, 1)
    elif policy is Rounding.CENT_UP:
        amount = _up(exact, 1)
    elif policy is Rounding.QUARTER_DOWN:
        amount = _down(exact, 25)
    elif policy is Rounding.QUARTER_UP:
        amount = _up(exact, 25)
    else:
        amount = (exact + _BP * 50) // (_BP * 100) * 100
    return min(amount, win_cents)
