"""Chinese Poker: royalties and naturals, what a hand earns by itself (GAME_RULES.md §3).

Royalties are bonus points a row's category earns from each opponent, by a
``RoyaltyTable`` (``ROYALTY_TABLES``: the seed's, or none); a fouled hand earns
none (``royalties``). A natural is 13 cards that win its points from every
opponent without a showdown (``natural``); ``natural_arrangement`` sets one to
show it. ``rules.games.chinese_poker.score`` counts both in a round's scores.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from rules.games.cards import SUIT_CHARS, Card, check_distinct
from rules.games.chinese_poker_arrangement import (
    _CARD_MASK,
    _KEY_OF,
    _ONE_OF_EACH_RANK,
    _PAIR_BIT,
    _QUADS_BIT,
    _RANK_MASK,
    _RANK_SHIFT,
    _SUIT_SHIFT,
    Arrangement,
    Cards,
    _check_row,
    _rank_field,
    is_foul,
)
from rules.games.errors import InvalidHand
from rules.games.poker import Category, high_hand

# --- royalties ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoyaltyTable:
    """Bonus points a row's category earns from each opponent, by row (§3, option ``cp_royalties``)."""

    name: str
    front: Mapping[Category, int]
    middle: Mapping[Category, int]
    back: Mapping[Category, int]
    by_category: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rows = tuple(tuple(row.get(c, 0) for c in Category) for row in (self.front, self.middle, self.back))
        object.__setattr__(self, "by_category", rows)

    def of(self, arrangement: Arrangement) -> int:
        """The royalties the rows earn, fouled or not (``royalties`` applies the foul)."""
        front, middle, back = self.by_category
        f, m, b = arrangement.values
        return front[f >> _CATEGORY_SHIFT] + middle[m >> _CATEGORY_SHIFT] + back[b >> _CATEGORY_SHIFT]


_CATEGORY_SHIFT: Final = 20  # a HandValue's category sits above five 4-bit rank fields
_BIG_HANDS: Final = {Category.FOUR_OF_A_KIND: 3, Category.STRAIGHT_FLUSH: 4, Category.ROYAL_FLUSH: 5}

ROYALTY_TABLES: Final[Mapping[str, RoyaltyTable]] = {
    # The seed's table: trips in front 3; full house in the middle 1; four of a kind, straight
    # flush, royal flush in the middle or back 3, 4, 5.
    "seed": RoyaltyTable(
        "seed",
        front={Category.THREE_OF_A_KIND: 3},
        middle={Category.FULL_HOUSE: 1, **_BIG_HANDS},
        back=dict(_BIG_HANDS),
    ),
    "none": RoyaltyTable("none", front={}, middle={}, back={}),
}

RoyaltiesOption = str | RoyaltyTable | None


def royalty_table(table: RoyaltiesOption) -> RoyaltyTable:
    """The table named ``table`` (``None`` is ``"none"``), or the table itself."""
    if isinstance(table, RoyaltyTable):
        return table
    try:
        return ROYALTY_TABLES["none" if table is None else table]
    except KeyError:
        raise InvalidHand(f"no royalty table {table!r}: choose one of {', '.join(ROYALTY_TABLES)}") from None


def royalties(arrangement: Arrangement, table: RoyaltiesOption = "seed") -> int:
    """The royalties an arrangement earns from each opponent (§3); a fouled hand earns none.

    >>> royalties(Arrangement.parse("5s 5h 5d", "Kh Kd Kc 2s 2d", "As Ks Qs Js Ts"))
    9
    >>> royalties(Arrangement.parse("5s 5h 5d", "Kh Kd Kc 2s 2d", "As Ks Qs Js Ts"), None)
    0
    """
    if is_foul(arrangement):
        return 0
    return royalty_table(table).of(arrangement)


# --- naturals -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Natural:
    """A natural: 13 cards that win ``points`` from every opponent without a showdown (§3)."""

    name: str
    points: int


THIRTEEN_CARD_ROYAL_FLUSH: Final = Natural("13-card royal flush", 50)
THIRTEEN_CARD_STRAIGHT: Final = Natural("13-card straight", 13)
SIX_PAIRS: Final = Natural("six pairs", 6)
THREE_FLUSHES: Final = Natural("three flushes", 3)
THREE_STRAIGHTS: Final = Natural("three straights", 3)
NATURALS: Final = (THIRTEEN_CARD_ROYAL_FLUSH, THIRTEEN_CARD_STRAIGHT, SIX_PAIRS, THREE_FLUSHES, THREE_STRAIGHTS)


def _windows(size: int) -> list[tuple[int, ...]]:
    """Every straight of ``size`` cards as its ranks (the ace 14, low or high): A-2-3 ... Q-K-A."""
    return [tuple(14 if r == 1 else r for r in range(low, low + size)) for low in range(1, 16 - size)]


_FRONT_STRAIGHTS: Final = _windows(3)  # A-2-3 and Q-K-A count here alone (§3, naturals)
_STRAIGHTS: Final = _windows(5)


def _rank_key(ranks: Iterable[int]) -> int:
    return sum(map(_rank_field, ranks))


# Rank counts of every 13 cards that split into three straights, and the windows that split them.
_THREE_STRAIGHT_SPLITS: Final = {
    _rank_key(front + middle + back): (front, middle, back)
    for front in _FRONT_STRAIGHTS
    for middle, back in itertools.combinations_with_replacement(_STRAIGHTS, 2)
}
# Suit counts (4 bits a suit) of every 13 cards that split into three flushes: one suit for all 13,
# two suits of 10 and 3 or 8 and 5, or three of 5, 5 and 3.
_THREE_FLUSH_SUITS: Final = frozenset(
    sum(count << (4 * suit) for suit, count in enumerate(counts))
    for shape in ((13, 0, 0, 0), (10, 3, 0, 0), (8, 5, 0, 0), (5, 5, 3, 0))
    for counts in itertools.permutations(shape)
)


def _natural_of_key(key: int) -> Natural | None:
    """The highest natural of 13 distinct cards whose summed ``_KEYS`` is ``key``.

    Cheap first: counting pairs, looking up the suit counts and the rank counts
    in the precomputed sets decides every hand without a search.
    """
    ranks = (key >> _RANK_SHIFT) & _RANK_MASK
    suits = key >> _SUIT_SHIFT
    if ranks == _ONE_OF_EACH_RANK:
        return THIRTEEN_CARD_ROYAL_FLUSH if suits in _ONE_SUIT else THIRTEEN_CARD_STRAIGHT
    if (ranks & _PAIR_BIT).bit_count() + 2 * (ranks & _QUADS_BIT).bit_count() >= 6:
        return SIX_PAIRS
    if suits in _THREE_FLUSH_SUITS:
        return THREE_FLUSHES
    if ranks in _THREE_STRAIGHT_SPLITS:
        return THREE_STRAIGHTS
    return None


_ONE_SUIT: Final = frozenset(13 << (4 * suit) for suit in range(4))


def _key13(cards13: Sequence[Card]) -> int:
    """The summed key of 13 distinct cards, or ``InvalidHand`` in a dealer's words."""
    cards = _check_row(cards13, "hand", 13)
    key = sum(map(_KEY_OF.__getitem__, cards))
    if (key & _CARD_MASK).bit_count() != 13:
        check_distinct(cards)
    return key


def natural(cards13: Sequence[Card]) -> Natural | None:
    """The highest-valued natural in 13 cards, or ``None`` (§3, "Naturals").

    Six pairs 6 (four of a kind counts as two pairs); three flushes 3 and three
    straights 3, when the 13 cards can be set 3/5/5 that way (here alone the
    front counts as a three-card flush or straight; A-2-3 and Q-K-A are
    straights); a 13-card straight 13; all 13 of one suit, the 13-card royal
    flush, 50.

    >>> from rules.games.cards import parse_cards
    >>> natural(parse_cards("2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As"))
    Natural(name='six pairs', points=6)
    >>> natural(parse_cards("As 2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks")).name
    '13-card straight'
    >>> natural(parse_cards("As 2h 3d 9c Ts Jh Qd Kc 4s 5h 6d 7c 8s")).name
    '13-card straight'
    >>> natural(parse_cards("Qs Kh Ad 2c 3s 4h 5d 6c 7s 8h 9d Tc Ts")) is None
    True
    """
    return _natural_of_key(_key13(cards13))


def natural_arrangement(cards13: Sequence[Card]) -> Arrangement | None:
    """A setting that shows the natural of 13 cards, for naturals that are made of rows.

    Three flushes: each row one suit; three straights and the 13-card hands: each
    row a straight (the front a three-card one). ``None`` when the cards hold no
    such natural (six pairs needs no setting). The rows are legal: back not
    below middle, middle not below front.

    >>> from rules.games.cards import parse_cards
    >>> print(natural_arrangement(parse_cards("Ks Js 4s Kc Qc 8c 7c 5c Ad Qd 9d 6d 2d")))
    front: Ks Js 4s, middle: Kc Qc 8c 7c 5c, back: Ad Qd 9d 6d 2d
    """
    key = _key13(cards13)
    cards = tuple(cards13)
    ranks, suits = (key >> _RANK_SHIFT) & _RANK_MASK, key >> _SUIT_SHIFT
    windows = _THREE_STRAIGHT_SPLITS.get(ranks)
    if windows is not None and (ranks == _ONE_OF_EACH_RANK or suits not in _THREE_FLUSH_SUITS):
        front, middle, back = _straight_rows(cards, windows)
    elif suits in _THREE_FLUSH_SUITS:
        front, middle, back = _flush_rows(cards)
    else:
        return None
    if high_hand(middle, wheel_second_highest=False) > high_hand(back, wheel_second_highest=False):
        middle, back = back, middle
    return Arrangement(front, middle, back)


def _flush_rows(cards: Cards) -> tuple[Cards, Cards, Cards]:
    """Rows of one suit each: the three-card row from the suit whose count leaves fives."""
    by_suit = sorted(([c for c in cards if c.suit == s] for s in SUIT_CHARS), key=len)
    by_suit = [s for s in by_suit if s]
    sizes = [len(s) for s in by_suit]
    if sizes == [3, 5, 5]:
        return tuple(by_suit[0]), tuple(by_suit[1]), tuple(by_suit[2])
    if sizes == [5, 8]:
        return tuple(by_suit[1][:3]), tuple(by_suit[0]), tuple(by_suit[1][3:])
    if sizes == [3, 10]:
        return tuple(by_suit[0]), tuple(by_suit[1][:5]), tuple(by_suit[1][5:])
    return tuple(by_suit[0][:3]), tuple(by_suit[0][3:8]), tuple(by_suit[0][8:])  # all 13 of one suit


def _straight_rows(cards: Cards, windows: tuple[tuple[int, ...], ...]) -> tuple[Cards, Cards, Cards]:
    pool = list(cards)
    rows = []
    for window in windows:
        row = []
        for rank in window:
            card = next(c for c in pool if c.rank == rank)
            pool.remove(card)
            row.append(card)
        rows.append(tuple(row))
    return rows[0], rows[1], rows[2]
