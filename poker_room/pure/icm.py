"""Deals at the final table: the Independent Chip Model, the chip chop, and whole cents that add up.

**ICM (Malmuth-Harville).** A player's chance to finish 1st is their share of the chips; given who finished 1st to
``k``-th, each player left finishes next with their share of the chips still in play (D. Harville 1973, M. Malmuth
1987; Wikipedia "Independent Chip Model"). A player's equity is the sum over places of the chance to finish there
times the place's prize. Computed exactly (``fractions.Fraction``) over the sets of players already placed: the
chance that exactly the set ``S`` took the top ``|S|`` places does not depend on their order for what comes next,
so ``2**n`` sets of ``n`` steps each replace the ``n!`` finishing orders (10 players: 10,240 steps).

**The deal in cents.** Exact equities are rounded down to cents and the cents left over go one each to the largest
remainders (ties to the bigger stack, then to the player listed first), so the amounts add up to the money exactly.
A *reserve* (money left to play for, paid to the winner on top) comes out of 1st place's prize before the rest is
worked out, at most down to 2nd place's prize (the places left still pay in order).

**The chip chop.** Everyone gets the prize of the last place still to be paid; what is left is shared in proportion
to the chips (the second method in D. Palamourdas, PokerNews, "Weighing Different Deal-Making Methods at a Final
Table"), rounded the same way.

>>> icm_equities([50, 30, 20], [70, 30])
(Fraction(1265, 28), Fraction(129, 4), Fraction(158, 7))
>>> icm_deal_cents([5000, 3000, 1500, 500], [50000, 30000, 20000])
(37778, 31289, 22560, 8373)
>>> chip_chop_cents([100_000, 70_000, 50_000, 20_000], [20000, 12000, 8000, 5000])
(15417, 12292, 10208, 7083)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

MOST_PLAYERS = 12  # 2**12 sets of 12 steps with exact fractions: well under a second; a deal has at most 10


class IcmError(ValueError):
    """Stacks or prizes a deal cannot be worked out from."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _stacks_check(stacks: Sequence[int]) -> tuple[int, ...]:
    if len(stacks) < 2:
        raise IcmError("A deal needs at least two players.")
    if len(stacks) > MOST_PLAYERS:
        raise IcmError(f"ICM is worked out for at most {MOST_PLAYERS} players, not {len(stacks)}.")
    for stack in stacks:
        if not _is_int(stack):
            raise IcmError(f"A stack is a whole number of chips, not {stack!r}.")
        if stack <= 0:
            raise IcmError(f"Every player in the deal has chips: a stack of {stack} is not one.")
    return tuple(stacks)


def prizes_for(players: int, prizes: Sequence[int]) -> tuple[int, ...]:
    """The prizes of places 1 to ``players``: the places not paid pay 0. More prizes than players is refused (a
    place nobody can take: the prizes of the places already out were given by mistake)."""
    if len(prizes) > players:
        raise IcmError(f"{len(prizes)} prizes for {players} players: give the prizes of places 1 to {players}.")
    for prize in prizes:
        if not _is_int(prize):
            raise IcmError(f"A prize is a whole number of cents, not {prize!r}.")
        if prize < 0:
            raise IcmError(f"A prize cannot be negative ({prize}).")
    for place in range(1, len(prizes)):
        if prizes[place] > prizes[place - 1]:
            raise IcmError(f"Place {place + 1} cannot pay more than place {place}.")
    return (*prizes, *(0,) * (players - len(prizes)))


def finish_probabilities(stacks: Sequence[int]) -> tuple[tuple[Fraction, ...], ...]:
    """``[player][place - 1]``: each player's chance to finish in each place, exactly (Malmuth-Harville).

    >>> finish_probabilities([1, 1])
    ((Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 2), Fraction(1, 2)))
    """
    chips = _stacks_check(stacks)
    n = len(chips)
    total = sum(chips)
    chances = [[Fraction(0)] * n for _ in range(n)]
    # placed[mask]: the chance that exactly the players in ``mask`` took the top popcount(mask) places.
    placed: dict[int, Fraction] = {0: Fraction(1)}
    for size in range(n):
        following: dict[int, Fraction] = {}
        for mask, chance in placed.items():
            left = total - sum(chips[player] for player in range(n) if mask >> player & 1)
            for player in range(n):
                if mask >> player & 1:
                    continue
                step = chance * Fraction(chips[player], left)
                chances[player][size] += step
                bigger = mask | 1 << player
                following[bigger] = following.get(bigger, Fraction(0)) + step
        placed = following
    return tuple(tuple(row) for row in chances)


def icm_equities(stacks: Sequence[int], prizes: Sequence[int]) -> tuple[Fraction, ...]:
    """Each player's ICM equity, exactly, in the prizes' unit: ``prizes`` are places 1, 2, ... (those not given pay
    nothing). The equities add up to the prizes."""
    ladder = prizes_for(len(stacks), prizes)
    return tuple(
        sum((chance * prize for chance, prize in zip(row, ladder, strict=True)), Fraction(0))
        for row in finish_probabilities(stacks)
    )


def whole_cents(shares: Sequence[Fraction], stacks: Sequence[int], total: int) -> tuple[int, ...]:
    """``shares`` (adding up to ``total``) as whole cents adding up to ``total``: each rounded down, the cents left
    over one each to the largest remainders, ties to the bigger stack, then to the one listed first."""
    if sum(shares) != total:
        raise IcmError(f"The shares add up to {sum(shares)}, not {total}.")
    floors = [share.numerator // share.denominator for share in shares]
    short = total - sum(floors)
    order = sorted(range(len(shares)), key=lambda i: (-(shares[i] - floors[i]), -stacks[i], i))
    for i in order[:short]:
        floors[i] += 1
    return tuple(floors)


def _reserve_check(reserve_cents: int, ladder: tuple[int, ...]) -> None:
    if not _is_int(reserve_cents) or reserve_cents < 0:
        raise IcmError(f"The money left to play for is a whole number of cents, at least 0, not {reserve_cents!r}.")
    most = ladder[0] - ladder[1]
    if reserve_cents > most:
        raise IcmError(
            f"The money left to play for ({reserve_cents}) comes out of what 1st place pays over 2nd ({most}): "
            "it cannot be more."
        )


def icm_deal_cents(stacks: Sequence[int], prizes_cents: Sequence[int], *, reserve_cents: int = 0) -> tuple[int, ...]:
    """What each player gets in an ICM deal, in whole cents adding up to the prizes less the reserve; the reserve
    is taken off 1st place's prize before the equities are worked out (the winner gets it on top), at most what 1st
    place pays over 2nd."""
    ladder = prizes_for(len(_stacks_check(stacks)), prizes_cents)
    _reserve_check(reserve_cents, ladder)
    played = (ladder[0] - reserve_cents, *ladder[1:])
    return whole_cents(icm_equities(stacks, played), stacks, sum(played))


def chip_chop_cents(stacks: Sequence[int], prizes_cents: Sequence[int], *, reserve_cents: int = 0) -> tuple[int, ...]:
    """The chip chop: each player gets the last place's prize, and the rest of the money (less the reserve) is
    shared in proportion to the chips; whole cents adding up exactly."""
    chips = _stacks_check(stacks)
    ladder = prizes_for(len(chips), prizes_cents)
    _reserve_check(reserve_cents, ladder)
    floor = ladder[-1]
    rest = sum(ladder) - reserve_cents - floor * len(chips)  # never negative: the reserve is at most 1st over 2nd
    total = sum(chips)
    shares = [Fraction(floor) + Fraction(rest * stack, total) for stack in chips]
    return whole_cents(shares, chips, sum(ladder) - reserve_cents)


def custom_check(amounts: Sequence[int], prizes_cents: Sequence[int], *, reserve_cents: int = 0) -> tuple[int, ...]:
    """Amounts the players agreed on: whole cents, none negative, adding up to the prizes less the reserve."""
    if len(amounts) < 2:
        raise IcmError("A deal needs at least two players.")
    ladder = prizes_for(len(amounts), prizes_cents)
    _reserve_check(reserve_cents, ladder)
    for amount in amounts:
        if not _is_int(amount) or amount < 0:
            raise IcmError(f"An amount is a whole number of cents, at least 0, not {amount!r}.")
    money = sum(ladder) - reserve_cents
    if sum(amounts) != money:
        raise IcmError(f"The amounts add up to {sum(amounts)}, not to the {money} in the deal.")
    return tuple(amounts)
