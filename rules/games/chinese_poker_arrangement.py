"""Chinese Poker: arrangements and fouls (GAME_RULES.md §3).

Each player sets 13 cards as a three-card front, a five-card middle and a
five-card back (an ``Arrangement``); the back must not rank below the middle
and the middle not below the front (``is_foul``), on one scale for three- and
five-card hands where the wheel (5-4-3-2-A) is the lowest straight. Here too are
the per-card keys whose sums the naturals (``rules.games.chinese_poker_bonuses``)
and the scoring (``rules.games.chinese_poker``) read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from rules.games.cards import CARDS, SUIT_CHARS, Card, cards_text, check_distinct, check_jokerless, parse_cards
from rules.games.errors import InvalidHand
from rules.games.poker import HandValue, front_hand, high_hand

Cards = tuple[Card, ...]

# --- per-card keys ---------------------------------------------------------------------------------
# One additive key a card, so one sum over 13 cards gives: the set of cards (52 bits; a repeated card
# carries, leaving fewer than 13 bits set), the count of each rank (3 bits a rank) and of each suit
# (4 bits a suit). Naturals and the front's value are read off these sums.
_RANK_SHIFT: Final = 52
_SUIT_SHIFT: Final = _RANK_SHIFT + 3 * 13
_CARD_MASK: Final = (1 << _RANK_SHIFT) - 1
_RANK_MASK: Final = (1 << (3 * 13)) - 1
_SUIT_MASK: Final = (1 << 16) - 1


def _rank_field(rank: int) -> int:
    return 1 << (3 * (rank - 2))


_KEYS: Final = tuple(
    (1 << c.index) | (_rank_field(c.rank) << _RANK_SHIFT) | (1 << (_SUIT_SHIFT + 4 * SUIT_CHARS.index(c.suit)))
    for c in CARDS
)
_KEY_OF: Final = dict(zip(CARDS, _KEYS, strict=True))
_ONE_OF_EACH_RANK: Final = sum(_rank_field(r) for r in range(2, 15))
_PAIR_BIT: Final = 2 * _ONE_OF_EACH_RANK  # set in a rank's field for two or three of it
_QUADS_BIT: Final = 4 * _ONE_OF_EACH_RANK  # set for four of it, which counts as two pairs


# --- arrangements and fouls (GAME_RULES.md §3) --------------------------------------------------------


def _check_row(cards: Iterable[Card], name: str, size: int) -> Cards:
    row = check_jokerless(cards, where=name, game="Chinese Poker")
    if len(row) != size:
        raise InvalidHand(f"{name}: {size} cards expected, got {len(row)}")
    return row


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Thirteen cards set as a ``front`` of 3, a ``middle`` of 5 and a ``back`` of 5 (§3).

    The rows keep the order they were given in. The three row values (``values``)
    are computed once, here, on the one scale of ``rules.games.poker`` with the
    wheel lowest.

    >>> Arrangement.parse("As Kd", "Qh Jc 9s 5d 2c", "8s 7d 6h 4c 3s")
    Traceback (most recent call last):
    ...
    rules.games.errors.InvalidHand: front: 3 cards expected, got 2
    >>> Arrangement.parse("As Kd Qh", "Jc 9s 5d 2c As", "8s 7d 6h 4c 3s")
    Traceback (most recent call last):
    ...
    rules.games.errors.InvalidHand: A♠ appears twice
    """

    front: Cards
    middle: Cards
    back: Cards
    values: tuple[HandValue, HandValue, HandValue] = field(init=False, repr=False, compare=False)
    key: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        front, middle, back = tuple(self.front), tuple(self.middle), tuple(self.back)
        key_of = _KEY_OF.__getitem__
        try:
            if len(front) != 3 or len(middle) != 5 or len(back) != 5:
                raise KeyError
            front_key = sum(map(key_of, front))
            key = front_key + sum(map(key_of, middle)) + sum(map(key_of, back))
        except (KeyError, TypeError):  # not 3/5/5 cards, or not cards of the 52: say which
            _check_row(front, "front", 3)
            _check_row(middle, "middle", 5)
            _check_row(back, "back", 5)
            raise
        if (key & _CARD_MASK).bit_count() != 13:
            check_distinct(front + middle + back)
        values = (
            front_hand(front),
            high_hand(middle, wheel_second_highest=False),
            high_hand(back, wheel_second_highest=False),
        )
        object.__setattr__(self, "front", front)
        object.__setattr__(self, "middle", middle)
        object.__setattr__(self, "back", back)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "key", key)

    @classmethod
    def parse(cls, front: str, middle: str, back: str) -> Arrangement:
        """An arrangement from card notation: ``Arrangement.parse("Qs Tc 5h", "Ah Ac 2h 2c 4d", "3s 3h 3d 3c 6h")``."""
        return cls(parse_cards(front), parse_cards(middle), parse_cards(back))

    @property
    def cards(self) -> Cards:
        """All 13 cards: front, middle, back."""
        return self.front + self.middle + self.back

    def __str__(self) -> str:
        return f"front: {cards_text(self.front)}, middle: {cards_text(self.middle)}, back: {cards_text(self.back)}"


def is_foul(arrangement: Arrangement) -> bool:
    """Whether the rows are mis-set: the back ranks below the middle or the middle below the front (§3).

    Equal rows are allowed (practice). A three-card front and a five-card middle
    compare by category, then rank by rank over the front's three cards.

    >>> is_foul(Arrangement.parse("Qs Qd 5c", "Qh Qc 9s 7d 2c", "Ah Kh 8h 6h 3h"))
    False
    >>> is_foul(Arrangement.parse("Ah Kh 8h", "Qh Qc 9s 7d 2c", "Qs Qd 5c 4s 3d"))
    True
    """
    front, middle, back = arrangement.values
    return front > middle or middle > back
