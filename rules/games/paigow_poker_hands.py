"""Pai Gow Poker: settings and fouls (GAME_RULES.md §2, "Setting and fouls").

Seven cards from the 53-card deck are set as a five-card high hand and a
two-card low hand (a ``Setting``); ``settings`` lists all 21, and a setting
whose low hand outranks its high hand is fouled (``is_foul``). Here too are the
per-card keys and the two-card low values the house way
(``rules.games.paigow_poker``) reads its hands with.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Final

from rules.games.cards import JOKER, Card, cards_text, check_distinct, deck, parse_cards
from rules.games.errors import InvalidHand
from rules.games.poker import HandValue, high_hand, low_hand

Cards = tuple[Card, ...]

# Per-card lookups, from the public fields of Card only.
_SUITS: Final = "shdc"
_DECK: Final = deck(joker=True)
_ORDER: Final = {c: (15 - c.rank) * 4 + (0 if c.is_joker else _SUITS.index(c.suit)) for c in _DECK}  # joker, A..2
_SUIT_INDEX: Final = {c: -1 if c.is_joker else _SUITS.index(c.suit) for c in _DECK}
# One additive key a card, so that one sum over a hand gives: the set of its cards (53 bits: seven
# bits set exactly when the seven cards are distinct, as a repeated card carries), the count of each
# suit (4 bits each) and the count of each natural rank (3 bits each, at 3 * rank).
_SUIT_SHIFT: Final = 53
_RANK_SHIFT: Final = _SUIT_SHIFT + 16
_CARD_BITS: Final = (1 << _SUIT_SHIFT) - 1
_KEY: Final = {
    c: (1 << n) | (0 if c.is_joker else 1 << (_SUIT_SHIFT + 4 * _SUITS.index(c.suit)) | 1 << (_RANK_SHIFT + 3 * c.rank))
    for n, c in enumerate(_DECK)
}


# --- settings and fouls (GAME_RULES.md §2, "Setting and fouls") ----------------------------------


def _check_cards(cards: Iterable[object], where: str) -> None:
    for card in cards:
        if not isinstance(card, Card):
            raise InvalidHand(f"{where}: cards expected, got {card!r}")


@dataclass(frozen=True, slots=True)
class Setting:
    """A seven-card hand set as a five-card ``high`` hand and a two-card ``low`` hand (§2, "Setting").

    The cards of each hand are kept in one order (joker, aces ... twos; s h d c),
    so two settings of the same cards are equal however they were written.

    >>> Setting.parse("7s 4d 2c Ad As", "Kh Kc") == Setting.parse("As Ad 7s 4d 2c", "Kc Kh")
    True
    >>> Setting.parse("As Ad 7s 4d", "Kh Kc 2c")
    Traceback (most recent call last):
    ...
    rules.games.errors.InvalidHand: high hand: 5 cards expected, got 4
    """

    high: Cards
    low: Cards

    def __post_init__(self) -> None:
        high, low = tuple(self.high), tuple(self.low)
        for name, cards, size in (("high hand", high, 5), ("low hand", low, 2)):
            _check_cards(cards, name)
            if len(cards) != size:
                raise InvalidHand(f"{name}: {size} cards expected, got {len(cards)}")
        check_distinct(high + low)
        object.__setattr__(self, "high", tuple(sorted(high, key=_ORDER.__getitem__)))
        object.__setattr__(self, "low", tuple(sorted(low, key=_ORDER.__getitem__)))

    @classmethod
    def parse(cls, high: str, low: str) -> Setting:
        """A setting from card notation: ``Setting.parse("As Ad 7s 4d 2c", "Kh Kc")``."""
        return cls(parse_cards(high), parse_cards(low))

    @property
    def cards(self) -> Cards:
        """All seven cards, high hand first."""
        return self.high + self.low

    def __str__(self) -> str:
        return f"high: {cards_text(self.high)}, low: {cards_text(self.low)}"


# The slots' own setters, past the frozen __setattr__ (the fields are already checked and in order).
_SET_HIGH: Final[Callable[[Setting, Cards], None]] = vars(Setting)["high"].__set__
_SET_LOW: Final[Callable[[Setting, Cards], None]] = vars(Setting)["low"].__set__


def _setting(high: Cards, low: Cards) -> Setting:
    """A setting from cards already checked and in order (the house way's fast path)."""
    setting = object.__new__(Setting)
    _SET_HIGH(setting, high)
    _SET_LOW(setting, low)
    return setting


def _prepare(cards7: Sequence[Card]) -> tuple[list[Card], int]:
    """Seven distinct cards in canonical order and their summed ``_KEY``, or ``InvalidHand`` in a dealer's words."""
    try:
        key = sum(map(_KEY.__getitem__, cards7))
    except (KeyError, TypeError):
        _check_cards(list(cards7), "hand")
        raise
    if len(cards7) != 7:
        raise InvalidHand(f"7 cards expected, got {len(cards7)}")
    if (key & _CARD_BITS).bit_count() != 7:
        check_distinct(cards7)
    return sorted(cards7, key=_ORDER.__getitem__), key


Pick = tuple[int, int]  # a low hand as two positions in a hand of seven in canonical order
Split = tuple[Callable[[Sequence[Card]], Cards], Callable[[Sequence[Card]], Cards]]  # (low of, high of)

_PICKS: Final = tuple(itertools.combinations(range(7), 2))  # the 21 settings
_SPLIT_AT: Final[dict[Pick, Split]] = {}
for _i, _j in _PICKS:
    _SPLIT_AT[_i, _j] = _SPLIT_AT[_j, _i] = (
        itemgetter(_i, _j),
        itemgetter(*(k for k in range(7) if k not in (_i, _j))),
    )
_PICK_OF_HIGH: Final = {tuple(k for k in range(7) if k not in pick): pick for pick in _PICKS}


def _low_values() -> dict[int, HandValue]:
    """``low_hand`` of every two ranks (the joker's 15 too), keyed ``rank_a * 16 + rank_b``.

    A low hand's value depends on its ranks only (§2, two-card ranking), so the
    house way looks it up instead of checking each two-card hand again.
    """
    ranks = range(2, 16)
    sample = {r: (JOKER, JOKER) if r == 15 else (Card(r, "s"), Card(r, "h")) for r in ranks}
    return {
        a * 16 + b: low_hand((sample[a][0], sample[b][1] if a == b else sample[b][0]))
        for a in ranks
        for b in ranks
        if not a == b == 15
    }


_LOW: Final = _low_values()


def settings(cards7: Sequence[Card]) -> tuple[Setting, ...]:
    """All 21 settings of seven cards: every way to pick the two-card low hand (§2, "Setting").

    >>> from rules.games.cards import parse_cards
    >>> len(settings(parse_cards("As Kd Qh Jc 9s 5d 2c")))
    21
    """
    hand, _ = _prepare(cards7)
    return tuple(_setting(high_of(hand), low_of(hand)) for low_of, high_of in map(_SPLIT_AT.__getitem__, _PICKS))


def is_foul(setting: Setting, *, wheel_second_highest: bool = True, joker_flush_as_ace: bool = False) -> bool:
    """Whether the low hand outranks the high hand (§2, "Setting and fouls"); the joker is an ace low.

    >>> is_foul(Setting.parse("Qs Qh 9c 7d 2s", "Jk Kd"))
    False
    >>> is_foul(Setting.parse("Qs Jh 9c 7d 2s", "Jk Kd"))
    True
    """
    high = high_hand(setting.high, wheel_second_highest=wheel_second_highest, joker_flush_as_ace=joker_flush_as_ace)
    return low_hand(setting.low) > high
