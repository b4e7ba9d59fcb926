"""Shuffling, dice and the deal (GAME_RULES.md §1 "Dealing", §2 "Dealing").

Randomness is always passed in: the default is ``secure_rng()``, backed by the
operating system's CSPRNG through ``secrets``; tests inject a seeded
``random.Random``. Nothing here reads a global generator.

Positions go around the table counter-clockwise: ``positions`` lists them in
that order, the bank's position among them. Three dice are rolled; counting the
bank as 1 and going counter-clockwise, every position counted, occupied or not,
the position reached receives the first hand (stack), the next one
counter-clockwise the second, and so on round the table.

>>> action_order((3, 5, 6), positions=(1, 2, 3, 4, 5, 6, 7), banker=1)
(7, 1, 2, 3, 4, 5, 6)
>>> action_order((1, 1, 2), positions=(1, 2, 3, 4, 5, 6, 7), banker=1)
(4, 5, 6, 7, 1, 2, 3)
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from rules.games.cards import Card, deck
from rules.games.errors import InvalidHand

T = TypeVar("T")


def secure_rng() -> random.Random:
    """A ``random.Random`` drawing from the OS's cryptographically secure source."""
    return secrets.SystemRandom()


def shuffled(items: Sequence[T], rng: random.Random | None = None) -> tuple[T, ...]:
    """A shuffled copy of ``items`` (Fisher-Yates on ``rng``, secure by default)."""
    pool = list(items)
    (rng or secure_rng()).shuffle(pool)
    return tuple(pool)


def roll_dice(rng: random.Random | None = None, count: int = 3) -> tuple[int, ...]:
    """``count`` six-sided dice."""
    source = rng or secure_rng()
    return tuple(source.randint(1, 6) for _ in range(count))


def check_dice(dice: Sequence[int]) -> tuple[int, int, int]:
    """Three dice, each 1 to 6, or ``InvalidHand`` saying what is wrong."""
    if len(dice) != 3:
        raise InvalidHand(f"3 dice expected, got {len(dice)}")
    for die in dice:
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise InvalidHand(f"a die shows 1 to 6, not {die!r}")
    return (dice[0], dice[1], dice[2])


def action_order(dice: Sequence[int], *, positions: Sequence[int], banker: int) -> tuple[int, ...]:
    """Every position in the order it receives hands, from three dice (seed §1 "Dealing").

    Counting starts at the bank as 1 and goes counter-clockwise (the order of
    ``positions``) through every position, occupied or not.
    """
    total = sum(check_dice(dice))
    if len(set(positions)) != len(positions):
        raise InvalidHand("a position is listed twice")
    if banker not in positions:
        raise InvalidHand(f"the bank's position {banker} is not at the table")
    start = (list(positions).index(banker) + total - 1) % len(positions)
    return tuple(positions[(start + i) % len(positions)] for i in range(len(positions)))


@dataclass(frozen=True)
class PaiGowPokerDeal:
    """A Pai Gow Poker deal: the dice, the order, a 7-card hand per position, the 4 dropped cards."""

    dice: tuple[int, int, int]
    order: tuple[int, ...]
    hands: dict[int, tuple[Card, ...]]
    dropped: tuple[Card, ...]


PGP_POSITIONS = (1, 2, 3, 4, 5, 6, 7)


def deal_paigow_poker(
    rng: random.Random | None = None,
    *,
    positions: Sequence[int] = PGP_POSITIONS,
    banker: int = 1,
    dice: Sequence[int] | None = None,
) -> PaiGowPokerDeal:
    """Shuffle the 53 cards and deal seven 7-card hands; the four left over are dropped (seed §2).

    Hands go out in stacks of seven from the top of the shuffled deck, the
    first to the position the dice name, then counter-clockwise.
    """
    if len(positions) != 7:
        raise InvalidHand(f"7 positions expected (six players and the bank), got {len(positions)}")
    source = rng or secure_rng()
    rolled = check_dice(dice if dice is not None else roll_dice(source))
    cards = shuffled(deck(joker=True), source)
    order = action_order(rolled, positions=positions, banker=banker)
    hands = {position: cards[7 * i : 7 * i + 7] for i, position in enumerate(order)}
    return PaiGowPokerDeal(dice=rolled, order=order, hands=hands, dropped=cards[49:])
