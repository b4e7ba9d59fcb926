"""The chip race at a colour-up (GAME_RULES.md §5; TDA Rules, "Chip Race" and its Recommended Procedure).

When the smallest chip leaves play, each player's chips of it are exchanged for the next chip in whole
sets; the odd chips left over are raced:

* every odd chip is dealt one card face up from a shuffled 52-card deck, clockwise (one card a player a
  pass, in the order the players are given: seat order), as many passes as the most odd chips anyone holds;
* the number of new chips raced is the odd chips' total value divided by the new chip, plus one when the
  remainder is at least half a new chip;
* the highest card (by rank, then by suit: spades, hearts, diamonds, clubs) wins the first new chip, the
  next highest the second, and so on; a player wins at most one chip in the race;
* nobody is raced out of the tournament: a player left with no chips at all receives one new chip.

Worked example: four players colour up their 25 chips into 100s. Anna has 7 (one set of four, 3 odd), Ben
2, Cem 3 and Dora 2 odd chips. The 10 odd chips are worth 250: two new chips, and one more for the
remainder of 50 (half a 100 chip). Dora's Qd wins the first chip and Cem's Jd the second; Cem's Th is passed
over (one chip a player in the race), so Anna's 7s wins the third. Ben holds nothing else and lost the
race: he keeps one chip, as nobody is raced out.

>>> import random
>>> race = chip_race({"Anna": 7, "Ben": 2, "Cem": 3, "Dora": 2}, old_value=25, new_value=100,
...                  rng=random.Random(7), other_chips={"Anna": 5000, "Cem": 1200, "Dora": 300})
>>> race.exchanged
{'Anna': 1, 'Ben': 0, 'Cem': 0, 'Dora': 0}
>>> race.raced_chips
3
>>> race.cards
{'Anna': ('7c', '2s', '7s'), 'Ben': ('4d', '3c'), 'Cem': ('8d', 'Th', 'Jd'), 'Dora': ('Qd', '3h')}
>>> race.won
{'Anna': 1, 'Ben': 0, 'Cem': 1, 'Dora': 1}
>>> race.chips_after, race.saved
({'Anna': 2, 'Ben': 1, 'Cem': 1, 'Dora': 1}, ('Ben',))
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from poker_room.pure.structure import StructureError

K = TypeVar("K", bound=Hashable)

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # clubs lowest, spades highest: the chip race's suit order
DECK_SIZE = len(RANKS) * len(SUITS)


def card_strength(card: str) -> tuple[int, int]:
    """A card's place in the chip race: rank first, then suit (spades > hearts > diamonds > clubs)."""
    return RANKS.index(card[0]), SUITS.index(card[1])


@dataclass(frozen=True)
class ChipRace(Generic[K]):
    """The outcome of one chip race, every player of the race a key in each dict.

    ``exchanged``: new chips for whole sets; ``cards``: the cards dealt (one per odd chip, in dealing order);
    ``won``: 1 for a player who won a chip in the race, else 0; ``raced_chips``: the new chips raced;
    ``chips_after``: the new chips each player holds after the race (exchanged + won, or the one chip that
    keeps a player in); ``saved``: the players given that chip."""

    exchanged: dict[K, int]
    cards: dict[K, tuple[str, ...]]
    won: dict[K, int]
    raced_chips: int
    chips_after: dict[K, int]
    saved: tuple[K, ...]


def _count(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise StructureError(f"{what} is a whole number of chips, at least 0; got {value!r}")
    return value


def chip_race(
    leftovers: Mapping[K, int],
    *,
    old_value: int,
    new_value: int,
    rng: random.Random,
    other_chips: Mapping[K, int] | None = None,
) -> ChipRace[K]:
    """Colour up ``old_value`` chips into ``new_value`` chips and race the odd ones (see the module).

    ``leftovers``: how many ``old_value`` chips each player holds, in seat order. ``other_chips``: the value
    of the chips each player holds besides those; a player missing from it (every player, when it is None)
    is taken to hold nothing else, so the race never leaves them without a chip.
    """
    for value, what in ((old_value, "The old chip"), (new_value, "The new chip")):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise StructureError(f"{what} is worth a whole number of at least 1, got {value!r}")
    if new_value <= old_value or new_value % old_value:
        raise StructureError(
            f"A {new_value} chip is not a whole number of {old_value} chips: colour up into a larger multiple"
        )
    counts = {player: _count(n, f"{player!r}'s chips") for player, n in leftovers.items()}
    others = dict(other_chips or {})
    strangers = [player for player in others if player not in counts]
    if strangers:
        raise StructureError(f"Not in the race: {', '.join(map(repr, strangers))}")
    for player, value in others.items():
        _count(value, f"{player!r}'s other chips")
    per_set = new_value // old_value
    exchanged = {player: n // per_set for player, n in counts.items()}
    odd = {player: n % per_set for player, n in counts.items()}
    odd_value = sum(odd.values()) * old_value
    whole, remainder = divmod(odd_value, new_value)
    raced = whole + (1 if remainder and 2 * remainder >= new_value else 0)
    dealt = sum(odd.values())
    if dealt > DECK_SIZE:
        raise StructureError(f"The race needs {dealt} cards and a deck has {DECK_SIZE}: race one table at a time")
    deck = [rank + suit for rank in RANKS for suit in SUITS]
    rng.shuffle(deck)
    cards: dict[K, list[str]] = {player: [] for player in counts}
    for round_ in range(max(odd.values(), default=0)):
        for player, n in odd.items():
            if n > round_:
                cards[player].append(deck.pop())
    won = dict.fromkeys(counts, 0)
    ranked = sorted(
        ((card, player) for player, hand in cards.items() for card in hand),
        key=lambda pair: card_strength(pair[0]),
        reverse=True,
    )
    awarded = 0
    for _, player in ranked:
        if awarded == raced:
            break
        if not won[player]:
            won[player] = 1
            awarded += 1
    after = {player: exchanged[player] + won[player] for player in counts}
    saved = tuple(player for player in counts if counts[player] and not after[player] and not others.get(player, 0))
    for player in saved:
        after[player] = 1
    return ChipRace(
        exchanged=exchanged,
        cards={player: tuple(hand) for player, hand in cards.items()},
        won=won,
        raced_chips=raced,
        chips_after=after,
        saved=saved,
    )
