"""The games Tableside knows, and what each needs from the code around the engines.

Code outside ``rules.games`` asks this registry what a game needs (tiles or cards, how a
hand is arranged, whether it can be banked, how the system deals it, how many seats a table
has) instead of branching on the game's name: a new game is one more entry here, its engine
module, and its line in ``rules.engines`` (which engine functions play it).

>>> game("paigow_poker").parts
(('high', 5), ('low', 2))
>>> game("ofc").placed_by_street, game("chinese_poker").placed_by_street
(True, False)
>>> [g.key for g in GAMES.values() if g.bankable]
['paigow_tiles', 'paigow_poker']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.games import dealing, tiles_dealing
from rules.games.cards import cards_text, deck, parse_cards
from rules.games.errors import InvalidHand
from rules.games.tiles import parse_tiles, tiles_text

PAIGOW_TILES = "paigow_tiles"
PAIGOW_POKER = "paigow_poker"
CHINESE_POKER = "chinese_poker"
OFC = "ofc"


@dataclass(frozen=True)
class Game:
    """One game: its key (stored on tables and rule sets), its name, and what its hands are."""

    key: str
    name: str
    tiles: bool  # played with Chinese dominoes (else cards)
    joker: bool  # the deck has the joker (53 cards)
    hand_size: int  # what a position receives: 4 tiles, 7 cards, 13 cards
    parts: tuple[tuple[str, int], ...]  # the arrangement a hand is set into, each part with its size
    bankable: bool  # players against a bank (the house or a player); else each player against each (points)
    deals_to_dealer: bool  # the dealer's position receives a hand when nobody sits there (the house's or a spare)
    placed_by_street: bool  # entered street by street as it is played (Open-Face), not at once
    seats: tuple[int, int]  # how many player seats a table of it may have: fewest, most
    advice: bool  # every setting's odds against the house way can be shown (paigow_tiles_advice, paigow_poker_advice)

    @property
    def noun(self) -> str:
        """What its hands are made of, as a dealer says it: "tiles" or "cards"."""
        return "tiles" if self.tiles else "cards"

    @property
    def part_names(self) -> tuple[str, ...]:
        """The parts a hand is set into, in order: ``("high", "low")`` or ``("front", "middle", "back")``."""
        return tuple(name for name, _ in self.parts)

    def parse(self, text: str) -> tuple[Any, ...]:
        """A hand of this game in notation: tiles (``6-6 4-2``) or cards (``As Td``); bad notation raises."""
        return parse_tiles(text) if self.tiles else parse_cards(text)

    def text(self, items: Iterable[Any]) -> str:
        """Tiles or cards in this game's notation: the inverse of ``parse``."""
        return tiles_text(items) if self.tiles else cards_text(items)


GAMES: Mapping[str, Game] = {
    PAIGOW_TILES: Game(
        key=PAIGOW_TILES,
        name="Pai Gow (tiles)",
        tiles=True,
        joker=False,
        hand_size=4,
        parts=(("high", 2), ("low", 2)),
        bankable=True,
        deals_to_dealer=True,
        placed_by_street=False,
        seats=(1, 7),  # up to eight positions with the banker
        advice=True,
    ),
    PAIGOW_POKER: Game(
        key=PAIGOW_POKER,
        name="Pai Gow Poker",
        tiles=False,
        joker=True,
        hand_size=7,
        parts=(("high", 5), ("low", 2)),
        bankable=True,
        deals_to_dealer=True,
        placed_by_street=False,
        seats=(1, 6),  # seven hands: six players and the bank
        advice=True,
    ),
    CHINESE_POKER: Game(
        key=CHINESE_POKER,
        name="Chinese Poker",
        tiles=False,
        joker=False,
        hand_size=13,
        parts=(("front", 3), ("middle", 5), ("back", 5)),
        bankable=False,
        deals_to_dealer=False,
        placed_by_street=False,
        seats=(2, 4),
        advice=False,
    ),
    OFC: Game(
        key=OFC,
        name="Open-Face Chinese Poker",
        tiles=False,
        joker=False,
        hand_size=13,
        parts=(("front", 3), ("middle", 5), ("back", 5)),
        bankable=False,
        deals_to_dealer=False,
        placed_by_street=True,
        seats=(2, 4),
        advice=False,
    ),
}


def game(key: str) -> Game:
    """The game stored as ``key``, or ``InvalidHand`` naming the games there are."""
    try:
        return GAMES[key]
    except KeyError:
        raise InvalidHand(f"there is no game {key!r}: one of {', '.join(GAMES)}") from None


def deal_positions(*, seat_count: int, bank_seat: int | None) -> tuple[tuple[int, ...], int]:
    """Every position at the table counter-clockwise from the dealer (0), and where the count starts.

    Seats are numbered clockwise from the dealer's left, so counter-clockwise from the
    dealer comes the highest seat first. The count starts at the bank: the player banking,
    or the dealer (GAME_RULES.md §1 "Dealing").

    >>> deal_positions(seat_count=6, bank_seat=None)
    ((0, 6, 5, 4, 3, 2, 1), 0)
    """
    return (0, *range(seat_count, 0, -1)), (bank_seat if bank_seat is not None else 0)


def system_deal(
    key: str,
    rng: random.Random,
    *,
    dice: Sequence[int],
    positions: Sequence[int],
    banker: int,
    in_play: Sequence[int],
) -> dict[str, str]:
    """The system's deal of a round (training and simulation mode), by position, in notation.

    Tiles: the wall built and one stack to every position from the one the dice name (§1).
    Pai Gow Poker: seven cards to every position in the dice's order, the four left over
    dropped (§2). Chinese Poker and Open-Face: 13 cards to each player in play, in order.
    """
    spec = game(key)
    order = dealing.action_order(dice, positions=positions, banker=banker)
    if spec.tiles:
        deal = tiles_dealing.deal_paigow_tiles(rng, positions=positions, banker=banker, dice=dice)
        return {str(p): tiles_text(hand) for p, hand in deal.hands.items()}
    cards = dealing.shuffled(deck(joker=spec.joker), rng)
    receiving = [p for p in order if spec.deals_to_dealer or p in in_play]
    size = spec.hand_size
    return {str(p): cards_text(cards[size * i : size * i + size]) for i, p in enumerate(receiving)}
