"""Playing cards: the 52-card deck and the joker ("the bug") of Pai Gow Poker.

Notation (DESIGN.md): a rank ``2-9 T J Q K A`` and a suit ``s h d c``, upper or
lower case, separated by any whitespace or commas; ``Jk`` is the joker. ``10``
is accepted for a ten. Every card is one interned object, so ``parse_cards``
and ``deck`` hand out the same objects and comparisons are identity-fast.

>>> parse_cards("As Td, 9c 2h Jk")
(Card('As'), Card('Td'), Card('9c'), Card('2h'), Card('Jk'))
>>> str(parse_cards("as")[0])
'As'
>>> len(deck(joker=True))
53
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rules.games.errors import InvalidHand

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "shdc"
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RANK_NAMES = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}  # fmt: skip
JOKER_RANK = 15  # the joker's own rank: above every card, never a natural ace


class Card:
    """One card: ``rank`` 2-14 (ace high) and ``suit`` one of ``s h d c``, or the joker.

    Immutable and interned: there is exactly one object per card. ``index`` is
    0-51 in rank-major order (2s 2h 2d 2c 3s ... Ac) and 52 for the joker.
    """

    __slots__ = ("rank", "suit", "index", "is_joker", "_text", "suit_bit", "rank_bit", "bit", "key")

    rank: int
    suit: str
    index: int
    is_joker: bool
    _text: str
    suit_bit: int
    rank_bit: int
    bit: int
    key: int

    def __new__(cls, rank: int | str, suit: str | None = None) -> Card:
        """``Card("As")``, ``Card(14, "s")`` or ``Card("Jk")``: the one interned card."""
        if isinstance(rank, str) and suit is None:
            return _parse_one(rank)
        if isinstance(rank, int) and 2 <= rank <= 14 and suit and suit in SUIT_CHARS:
            return CARDS[(rank - 2) * 4 + SUIT_CHARS.index(suit)]
        raise InvalidHand(f"no such card: rank {rank!r}, suit {suit!r}")

    @classmethod
    def _make(cls, rank: int, suit: str, index: int) -> Card:
        card = object.__new__(cls)
        is_joker = rank == JOKER_RANK
        text = "Jk" if is_joker else RANK_CHARS[rank - 2] + suit
        values = {
            "rank": rank,
            "suit": suit,
            "index": index,
            "is_joker": is_joker,
            "_text": text,
            # Lookup keys used by the evaluators in rules.games.poker.
            "suit_bit": 0b1111 if is_joker else 1 << SUIT_CHARS.index(suit),  # the joker fits any suit
            "rank_bit": 1 << rank,
            "bit": 1 << index,
            # One additive key: the sum over a hand's cards packs the set of cards
            # (53 bits), the count of each suit (4 bits each; the joker counts in
            # every suit, so a suit reaching five makes a flush) and a key that names
            # the multiset of ranks (RANK_KEYS: unique sums among hands of one size).
            "key": (RANK_KEYS[rank] << (CARD_BITS + SUIT_BITS))
            | ((0x1111 if is_joker else 1 << (4 * SUIT_CHARS.index(suit))) << CARD_BITS)
            | (1 << index),
        }
        for name, value in values.items():
            object.__setattr__(card, name, value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return (Card, (self._text,))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    @property
    def symbol(self) -> str:
        """The card as a dealer reads it on screen: ``A♠``, ``T♦``, ``Joker``."""
        return "Joker" if self.is_joker else RANK_CHARS[self.rank - 2] + SUIT_SYMBOLS[self.suit]


# Additive rank keys: among multisets of one size, five to seven ranks (each at
# most four times), the sums are unique (a test proves it; the deuce's key is 0,
# so sizes must not be mixed); the joker's key is above any sum of seven others.
RANK_KEYS = {
    **dict(zip(range(2, 15), (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181), strict=True)),
    JOKER_RANK: 7825760,
}
CARD_BITS = 53
SUIT_BITS = 16

CARDS: tuple[Card, ...] = tuple(
    Card._make(rank, suit, (rank - 2) * 4 + s) for rank in range(2, 15) for s, suit in enumerate(SUIT_CHARS)
)
JOKER: Card = Card._make(JOKER_RANK, "", 52)
ALL_CARDS: tuple[Card, ...] = (*CARDS, JOKER)
_BY_TEXT: dict[str, Card] = {}
for _card in CARDS:
    for _rank in (_card._text[0], _card._text[0].lower()):
        for _suit in (_card.suit, _card.suit.upper()):
            _BY_TEXT[_rank + _suit] = _card
    if _card.rank == 10:
        _BY_TEXT["10" + _card.suit] = _BY_TEXT["10" + _card.suit.upper()] = _card
for _text in ("Jk", "JK", "jk", "jK"):
    _BY_TEXT[_text] = JOKER

_SEPARATORS = re.compile(r"[\s,]+")


def _parse_one(token: str) -> Card:
    card = _BY_TEXT.get(token)
    if card is None:
        raise InvalidHand(f"{token!r} is not a card: write a rank (2-9, T, J, Q, K, A) and a suit (s, h, d, c), or Jk")
    return card


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse card notation; unknown tokens and duplicates raise ``InvalidHand`` naming them.

    >>> parse_cards("Kh kh")
    Traceback (most recent call last):
    ...
    rules.games.errors.InvalidHand: K♥ appears twice
    """
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    cards = tuple(_parse_one(t) for t in tokens)
    check_distinct(cards)
    return cards


def check_distinct(cards: Iterable[Card]) -> None:
    """Raise ``InvalidHand`` if any card (or the joker) appears more than once."""
    seen: set[int] = set()
    for card in cards:
        if card.index in seen:
            raise InvalidHand(f"{card.symbol} appears twice")
        seen.add(card.index)


def check_count(cards: tuple[Card, ...], expected: int) -> None:
    """Raise ``InvalidHand`` unless there are exactly ``expected`` cards."""
    if len(cards) != expected:
        raise InvalidHand(f"{expected} cards expected, got {len(cards)}")


def deck(joker: bool) -> tuple[Card, ...]:
    """A fresh, ordered deck: 52 cards, and the joker last when ``joker`` is true."""
    return ALL_CARDS if joker else CARDS


def cards_text(cards: Iterable[Card]) -> str:
    """Cards in notation, space-separated: the inverse of ``parse_cards``."""
    return " ".join(str(c) for c in cards)


def check_jokerless(items: Iterable[object], *, where: str, game: str) -> tuple[Card, ...]:
    """The items as cards of the 52-card deck, or ``InvalidHand`` naming ``where`` and the game.

    For the games played without the joker (Chinese Poker, Open-Face Chinese Poker).
    """
    cards = tuple(items)
    for card in cards:
        if not isinstance(card, Card):
            raise InvalidHand(f"{where}: cards expected, got {card!r}")
        if card.is_joker:
            raise InvalidHand(f"{where}: {game} is played without the joker")
    return cards  # type: ignore[return-value]
