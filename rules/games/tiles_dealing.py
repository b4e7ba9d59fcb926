"""The wall and the deal of Pai Gow tiles (GAME_RULES.md §1 "Dealing").

The 32 tiles are shuffled and stacked into a wall of eight stacks of four. The
bank rolls three dice; counting the bank's position as 1 and going
counter-clockwise, every position counted whether anyone sits there or not,
the position reached takes the first stack, the next position counter-clockwise
the second, and so on round the table (seed). There are up to eight positions,
the bank's included (seed); with fewer, the stacks left over stay in the wall.

Randomness is passed in, as everywhere in the engine: the default is
``secure_rng()``; tests inject a seeded ``random.Random``.

>>> import random
>>> dealt = deal_paigow_tiles(random.Random(1), dice=(1, 2, 3))
>>> dealt.order  # 6: the bank is 1, so position 6 takes the first stack
(6, 7, 8, 1, 2, 3, 4, 5)
>>> dealt.stacks[6], dealt.stacks[5]
(1, 8)
>>> sum(len(hand) for hand in dealt.hands.values())
32
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rules.games.dealing import action_order, check_dice, roll_dice, secure_rng, shuffled
from rules.games.errors import InvalidHand
from rules.games.tiles import TILE_SET, Tile

STACKS: Final = 8
STACK_HEIGHT: Final = 4
TILE_POSITIONS: Final = (1, 2, 3, 4, 5, 6, 7, 8)

Stack = tuple[Tile, ...]


def build_wall(rng: random.Random | None = None) -> tuple[Stack, ...]:
    """The 32 tiles shuffled (on ``rng``, secure by default) and stacked into eight stacks of four (§1 "Dealing").

    The first stack is the first four tiles of the shuffle, and so on.
    """
    tiles = shuffled(TILE_SET, rng)
    return tuple(tiles[STACK_HEIGHT * i : STACK_HEIGHT * (i + 1)] for i in range(STACKS))


@dataclass(frozen=True)
class PaiGowTilesDeal:
    """A Pai Gow tiles deal.

    ``dice`` the three dice rolled; ``order`` every position in the order it takes
    a stack; ``wall`` the eight stacks as built; ``stacks`` the stack number (1 to
    8, the wall's order) each position took; ``hands`` the four tiles of each
    position; ``undealt`` the stacks left in the wall when fewer than eight
    positions are at the table.
    """

    dice: tuple[int, int, int]
    order: tuple[int, ...]
    wall: tuple[Stack, ...]
    stacks: dict[int, int]
    hands: dict[int, Stack]
    undealt: tuple[Stack, ...]


def deal_paigow_tiles(
    rng: random.Random | None = None,
    *,
    positions: Sequence[int] = TILE_POSITIONS,
    banker: int = 1,
    dice: Sequence[int] | None = None,
) -> PaiGowTilesDeal:
    """Roll the dice (unless given), build the wall and hand out one stack a position (§1 "Dealing").

    ``positions`` lists every position at the table counter-clockwise, the bank's
    among them, two to eight of them (seed: up to eight including the bank).
    """
    if not 2 <= len(positions) <= STACKS:
        raise InvalidHand(f"2 to 8 positions expected (the bank's included), got {len(positions)}")
    source = rng or secure_rng()
    rolled = check_dice(dice if dice is not None else roll_dice(source))
    order = action_order(rolled, positions=positions, banker=banker)
    wall = build_wall(source)
    return PaiGowTilesDeal(
        dice=rolled,
        order=order,
        wall=wall,
        stacks={position: i + 1 for i, position in enumerate(order)},
        hands={position: wall[i] for i, position in enumerate(order)},
        undealt=wall[len(order) :],
    )
