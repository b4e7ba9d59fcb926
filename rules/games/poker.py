"""Poker hand values on one scale for 2-, 3- and 5-card hands (GAME_RULES.md §2, §3).

A ``HandValue`` is an ``int``: stronger hands are greater, equal values are
equal hands (suits never break ties). The number packs the ``Category`` above
five 4-bit rank fields, highest-significance first, with 0 for "no card":

* high card, flush: the five ranks, high to low;
* one pair: the pair's rank, then the kickers; two pair: high pair, low pair, kicker;
* three of a kind: trips, then kickers; full house: trips, pair; four of a kind: quads, kicker;
* straights and straight flushes: their five ranks from the top card down, so
  A-K-Q-J-T is (14, 13, 12, 11, 10); the wheel is (14, 5, 4, 3, 2) when it is the
  second-highest straight (Pai Gow Poker, ``wheel_second_highest=True``) and
  (5, 4, 3, 2, 1) when it is the lowest (Chinese Poker, OFC);
* five aces: (14).

Two- and three-card hands use the same fields with the missing ones 0, which
is exactly GAME_RULES.md's cross-size rule: "compare by category, then rank by
rank over the smaller hand's cards; if those are equal the bigger hand is
higher". So a low hand fouls when ``low_hand(two) > high_hand(five)``.

The joker counts as an ace, or completes a straight, a flush or a straight
flush (seed). Completing a flush it is the highest rank missing from the flush
(``joker_flush_as_ace=True``: always an ace). In a two- or three-card hand it
is an ace.

Speed: values come from lookup tables keyed by a sum of per-card keys naming the ranks
and suit counts (see ``Card.key``), built once per rule option from the
readable reference evaluator ``_reference_value``; ``high_hand`` is five
additions and one dict lookup.

>>> from rules.games.cards import parse_cards
>>> v = high_hand(parse_cards("As Ks Qs Js Ts"))
>>> v.category.name
'ROYAL_FLUSH'
>>> high_hand(parse_cards("Ah 2c 3d 4s 5h")) > high_hand(parse_cards("Kh Qc Jd Ts 9h"))
True
>>> high_hand(parse_cards("Ah 2c 3d 4s 5h"), wheel_second_highest=False).describe()
'five-high straight'
>>> low_hand(parse_cards("Kh Kd")) > high_hand(parse_cards("Qs Qh 9c 7d 2s"))
True
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from enum import IntEnum
from functools import cache

from rules.games.cards import CARD_BITS, JOKER_RANK, RANK_KEYS, RANK_NAMES, SUIT_BITS, Card, check_distinct
from rules.games.errors import InvalidHand


class Category(IntEnum):
    """Hand categories, weakest first (GAME_RULES.md §2)."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9
    FIVE_ACES = 10


_CATEGORY_SHIFT = 20
_PLURALS = {6: "sixes"}


def _plural(rank: int) -> str:
    return _PLURALS.get(rank, RANK_NAMES[rank] + "s")


def _name(rank: int) -> str:
    return RANK_NAMES[14 if rank == 1 else rank]


class HandValue(int):
    """A hand's value: an ``int``, totally ordered, stronger is greater.

    >>> from rules.games.cards import parse_cards
    >>> v = high_hand(parse_cards("Kh Kd 9s 9c Ah"))
    >>> (v.category.name, v.ranks)
    ('TWO_PAIR', (13, 9, 14))
    """

    __slots__ = ()

    @classmethod
    def of(cls, category: Category, ranks: Sequence[int]) -> HandValue:
        """The value of ``category`` with tie-break ``ranks`` (at most five, high significance first)."""
        if len(ranks) > 5:
            raise ValueError("at most five rank fields")
        value = int(category)
        for i in range(5):
            value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
        return cls(value)

    @property
    def category(self) -> Category:
        return Category(self >> _CATEGORY_SHIFT)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The tie-break ranks, without the empty fields."""
        fields = [(self >> (4 * (4 - i))) & 0xF for i in range(5)]
        return tuple(r for r in fields if r)

    def describe(self) -> str:
        """The hand in a dealer's words: "two pair, kings and nines", "ace-high flush"."""
        cat, r = self.category, self.ranks
        if cat is Category.FIVE_ACES:
            return "five aces"
        if cat is Category.ROYAL_FLUSH:
            return "royal flush"
        if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
            top = 5 if r[0] == 14 and r[1] == 5 else r[0]
            kind = "straight" if cat is Category.STRAIGHT else "straight flush"
            return f"{_name(top)}-high {kind}"
        if cat is Category.FOUR_OF_A_KIND:
            return f"four {_plural(r[0])}"
        if cat is Category.FULL_HOUSE:
            return f"full house, {_plural(r[0])} over {_plural(r[1])}"
        if cat is Category.FLUSH:
            return f"{_name(r[0])}-high flush"
        if cat is Category.THREE_OF_A_KIND:
            return f"three {_plural(r[0])}"
        if cat is Category.TWO_PAIR:
            return f"two pair, {_plural(r[0])} and {_plural(r[1])}"
        if cat is Category.ONE_PAIR:
            return f"pair of {_plural(r[0])}"
        return f"{_name(r[0])}-{_name(r[1])}" if len(r) == 2 else f"{_name(r[0])} high"

    def __repr__(self) -> str:
        return f"HandValue({self.category.name}, {self.ranks})"


# --- the reference evaluator: readable, used to build the tables ------------------


def _straight_windows(wheel_second_highest: bool) -> list[tuple[int, ...]]:
    """Every straight as its ranks from the top down, strongest first."""
    windows = [tuple(range(top, top - 5, -1)) for top in range(14, 5, -1)]
    wheel = (14, 5, 4, 3, 2) if wheel_second_highest else (5, 4, 3, 2, 1)
    windows.insert(1 if wheel_second_highest else len(windows), wheel)
    return windows


def _best_straight(naturals: list[int], jokers: int, wheel_second_highest: bool) -> tuple[int, ...] | None:
    """The strongest straight the natural ranks make, the jokers filling gaps."""
    if len(set(naturals)) != len(naturals):
        return None
    present = set(naturals)
    for window in _straight_windows(wheel_second_highest):
        members = {14 if r == 1 else r for r in window}
        if present <= members and len(members - present) <= jokers:
            return window
    return None


def _grouped_value(ranks: list[int]) -> HandValue:
    """The value of ranks by their groups (pairs, trips...), with no straight or flush."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [c for _, c in groups]
    order = [r for r, _ in groups]
    if shape[0] == 5:
        return HandValue.of(Category.FIVE_ACES, [14])
    if shape[0] == 4:
        return HandValue.of(Category.FOUR_OF_A_KIND, order)
    if shape[:2] == [3, 2]:
        return HandValue.of(Category.FULL_HOUSE, order)
    if shape[0] == 3:
        return HandValue.of(Category.THREE_OF_A_KIND, order)
    if shape[:2] == [2, 2]:
        return HandValue.of(Category.TWO_PAIR, order)
    if shape[0] == 2:
        return HandValue.of(Category.ONE_PAIR, order)
    return HandValue.of(Category.HIGH_CARD, order)


def _reference_value(
    ranks: Sequence[int], suited: bool, *, wheel_second_highest: bool, joker_flush_as_ace: bool
) -> HandValue:
    """The value of five ranks (``JOKER_RANK`` for the joker), all of one suit or not.

    This is the rule text of GAME_RULES.md §2 written plainly; the fast paths
    are tables built from it.
    """
    naturals = sorted((r for r in ranks if r != JOKER_RANK), reverse=True)
    jokers = len(ranks) - len(naturals)
    straight = _best_straight(naturals, jokers, wheel_second_highest)
    if suited:
        if straight is not None:
            if straight == (14, 13, 12, 11, 10):
                return HandValue.of(Category.ROYAL_FLUSH, straight)
            return HandValue.of(Category.STRAIGHT_FLUSH, straight)
        filled = list(naturals)
        for _ in range(jokers):
            missing = 14 if joker_flush_as_ace else max(r for r in range(14, 1, -1) if r not in filled)
            filled.append(missing)
        return HandValue.of(Category.FLUSH, sorted(filled, reverse=True))
    grouped = _grouped_value(naturals + [14] * jokers)
    if straight is not None:
        return max(grouped, HandValue.of(Category.STRAIGHT, straight))
    return grouped


# --- tables ------------------------------------------------------------------
# A hand's key is the sum of its cards' ``Card.key``: the low 53 bits are the
# set of cards (a duplicate shows as a carry: fewer bits than cards), the next
# 12 bits count each suit, and the rest is the sum of the rank keys, which names
# the multiset of ranks. Tables are keyed by the part above the card bits.

_RANK_SHIFT = SUIT_BITS
_CARD_MASK = (1 << CARD_BITS) - 1
# Adding 3 to each suit's 4-bit count (at most 7 + the joker) sets its 8-bit
# exactly when the suit holds five cards or more: the flush test is one AND.
_FLUSH_BIAS = 0x3333
_FLUSH_BITS = 0x8888
# The same, applied to a whole hand key without shifting it down first.
_KEY_FLUSH_BIAS = _FLUSH_BIAS << CARD_BITS
_KEY_FLUSH_BITS = _FLUSH_BITS << CARD_BITS
_KEY_RANK_SHIFT = CARD_BITS + SUIT_BITS
_SUIT_OF_FLUSH_BIT = {0x8: 0b0001, 0x80: 0b0010, 0x800: 0b0100, 0x8000: 0b1000}


def _rank_key(ranks: Iterable[int]) -> int:
    return sum(RANK_KEYS[r] for r in ranks)


def _rank_multisets(size: int, *, distinct: bool) -> Iterable[tuple[int, ...]]:
    """Every multiset of ``size`` ranks (2..A at most four times, the joker at most once)."""
    for jokers in (0, 1):
        pool = range(14, 1, -1)
        combos = (
            itertools.combinations(pool, size - jokers)
            if distinct
            else itertools.combinations_with_replacement(pool, size - jokers)
        )
        for combo in combos:
            # combos are sorted, so five of a rank would sit five places apart
            if distinct or not any(combo[i] == combo[i + 4] for i in range(len(combo) - 4)):
                yield combo + (JOKER_RANK,) * jokers


@cache
def _five_card_tables(wheel_second_highest: bool, joker_flush_as_ace: bool) -> tuple[dict[int, HandValue], ...]:
    """(non-flush, flush) values of every five-card rank multiset, keyed by rank key."""
    options = {"wheel_second_highest": wheel_second_highest, "joker_flush_as_ace": joker_flush_as_ace}
    nonflush = {_rank_key(m): _reference_value(m, False, **options) for m in _rank_multisets(5, distinct=False)}
    flush = {_rank_key(m): _reference_value(m, True, **options) for m in _rank_multisets(5, distinct=True)}
    return nonflush, flush


# (value, ranks to drop as a rank-bit mask or -1 when only some cards of a rank go, the five ranks)
Best = tuple[HandValue, int, tuple[int, ...]]


def _drop_mask(ranks: tuple[int, ...], five: tuple[int, ...]) -> int:
    dropped = list(ranks)
    for r in five:
        dropped.remove(r)
    if any(dropped.count(r) != ranks.count(r) for r in dropped):
        return -1
    mask = 0
    for r in dropped:
        mask |= 1 << r
    return mask


BestTables = dict[int, tuple[dict[int, Best], dict[int, Best]]]


@cache
def _best_tables(wheel_second_highest: bool, joker_flush_as_ace: bool) -> BestTables:
    """For 5, 6 and 7 cards: (non-flush, flush) best five of every rank multiset, keyed by rank key.

    Built upward: the best of n ranks is the best over dropping one rank from
    them (each distinct rank once), which is the max over all 5-card subsets.
    The flush table holds the ranks of one suit (distinct, the joker allowed).
    Rank keys are unique only among multisets of one size, hence a table per size.
    """
    by_size: dict[int, list[dict[int, Best]]] = {5: [], 6: [], 7: []}
    for suited in (False, True):
        smaller: dict[int, Best] = {}
        values5 = _five_card_tables(wheel_second_highest, joker_flush_as_ace)[1 if suited else 0]
        for m in _rank_multisets(5, distinct=suited):
            smaller[_rank_key(m)] = (values5[_rank_key(m)], 0, m)
        by_size[5].append(smaller)
        for size in (6, 7):
            best: dict[int, Best] = {}
            for m in _rank_multisets(size, distinct=suited):
                key = _rank_key(m)
                value, _, five = max([smaller[key - RANK_KEYS[r]] for r in set(m)])
                best[key] = (value, _drop_mask(m, five), five)
            by_size[size].append(best)
            smaller = best
    built = {size: (tables[0], tables[1]) for size, tables in by_size.items()}
    if wheel_second_highest and not joker_flush_as_ace:
        _BEST_DEFAULT.update(built)
    return built


_BEST_DEFAULT: BestTables = {}  # the default options' tables, filled on first use


_NF5, _FL5 = _five_card_tables(True, False)


def _raise_bad_hand(cards: Sequence[Card], expected: str) -> None:
    if any(not isinstance(c, Card) for c in cards):
        raise InvalidHand(f"cards expected, got {[c for c in cards if not isinstance(c, Card)][0]!r}")
    check_distinct(cards)
    raise InvalidHand(f"{expected} cards expected, got {len(cards)}")


def high_hand(
    cards: Sequence[Card], *, wheel_second_highest: bool = True, joker_flush_as_ace: bool = False
) -> HandValue:
    """The value of a five-card hand (GAME_RULES.md §2, five-card ranking).

    >>> from rules.games.cards import parse_cards
    >>> high_hand(parse_cards("As Ac Ad Ah Jk")).describe()
    'five aces'
    >>> high_hand(parse_cards("Ks 9s 7s 2s Jk")).ranks   # the joker is the missing ace
    (14, 13, 9, 7, 2)
    """
    try:
        a, b, c, d, e = cards
        key = a.key + b.key + c.key + d.key + e.key
    except (ValueError, AttributeError, TypeError):
        _raise_bad_hand(cards, "5")
        raise
    if (key & _CARD_MASK).bit_count() != 5:
        check_distinct(cards)
    if wheel_second_highest and not joker_flush_as_ace:
        nonflush, flush = _NF5, _FL5
    else:
        nonflush, flush = _five_card_tables(wheel_second_highest, joker_flush_as_ace)
    if (key + _KEY_FLUSH_BIAS) & _KEY_FLUSH_BITS:
        return flush[key >> _KEY_RANK_SHIFT]
    return nonflush[key >> _KEY_RANK_SHIFT]


def best_hand(
    cards: Sequence[Card], *, wheel_second_highest: bool = True, joker_flush_as_ace: bool = False
) -> tuple[HandValue, tuple[Card, ...]]:
    """The best five-card hand among 5 to 7 cards, and the five cards that make it.

    >>> from rules.games.cards import parse_cards, cards_text
    >>> value, five = best_hand(parse_cards("Kh Kd Ks 9c 9d 2s 3s"))
    >>> value.describe(), cards_text(five)
    ('full house, kings over nines', 'Kh Kd Ks 9c 9d')
    """
    n = len(cards)
    try:
        if n == 7:
            a, b, c, d, e, f, g = cards
            key = a.key + b.key + c.key + d.key + e.key + f.key + g.key
        elif n == 6:
            a, b, c, d, e, f = cards
            key = a.key + b.key + c.key + d.key + e.key + f.key
        elif n == 5:
            value = high_hand(cards, wheel_second_highest=wheel_second_highest, joker_flush_as_ace=joker_flush_as_ace)
            return value, tuple(cards)
        else:
            _raise_bad_hand(cards, "5 to 7")
    except (AttributeError, TypeError):
        _raise_bad_hand(cards, "5 to 7")
        raise
    if (key & _CARD_MASK).bit_count() != n:
        check_distinct(cards)
    if wheel_second_highest and not joker_flush_as_ace and _BEST_DEFAULT:
        tables = _BEST_DEFAULT
    else:
        tables = _best_tables(wheel_second_highest, joker_flush_as_ace)
    value, drop, ranks = tables[n][0][key >> _KEY_RANK_SHIFT]
    flush_bit = (key + _KEY_FLUSH_BIAS) & _KEY_FLUSH_BITS
    if flush_bit:  # one suit (at most one, in seven cards) holds five with the joker
        suit_bit = _SUIT_OF_FLUSH_BIT[flush_bit >> CARD_BITS]
        suited = [x for x in cards if x.suit_bit & suit_bit]
        flush_value, _, flush_ranks = tables[len(suited)][1][sum(x.key for x in suited) >> (CARD_BITS + SUIT_BITS)]
        if flush_value > value:
            return flush_value, _pick(suited, flush_ranks)
    if drop >= 0:
        return value, tuple([x for x in cards if not x.rank_bit & drop])
    return value, _pick(cards, ranks)


def _pick(cards: Sequence[Card], ranks: tuple[int, ...]) -> tuple[Card, ...]:
    """The cards of ``cards`` that carry ``ranks`` (a multiset), in their given order."""
    if len(cards) == 5:
        return tuple(cards)
    wanted = list(ranks)
    chosen = []
    for card in cards:
        if card.rank in wanted:
            wanted.remove(card.rank)
            chosen.append(card)
    return tuple(chosen)


@cache
def _small_hand_table(size: int) -> dict[int, HandValue]:
    """The value of every two- or three-card rank multiset, keyed by rank key.

    Only groups count (no straights, no flushes) and the joker is an ace.
    """
    table: dict[int, HandValue] = {}
    for jokers in (0, 1):
        for combo in itertools.combinations_with_replacement(range(14, 1, -1), size - jokers):
            ranks = combo + (JOKER_RANK,) * jokers
            table[_rank_key(ranks)] = _grouped_value([14 if r == JOKER_RANK else r for r in ranks])
    return table


_LOW2, _FRONT3 = _small_hand_table(2), _small_hand_table(3)


def low_hand(cards: Sequence[Card]) -> HandValue:
    """The value of a two-card (low) hand: a pair, or two ranks; the joker is an ace (§2).

    >>> from rules.games.cards import parse_cards
    >>> low_hand(parse_cards("Jk Ad")).describe()
    'pair of aces'
    """
    try:
        a, b = cards
        key = a.key + b.key
    except (ValueError, AttributeError, TypeError):
        _raise_bad_hand(cards, "2")
        raise
    if (key & _CARD_MASK).bit_count() != 2:
        check_distinct(cards)
    return _LOW2[key >> _KEY_RANK_SHIFT]


def front_hand(cards: Sequence[Card]) -> HandValue:
    """The value of a three-card front: three of a kind, a pair, or high cards only (§3).

    >>> from rules.games.cards import parse_cards
    >>> front_hand(parse_cards("Qs Qd 5c")).describe()
    'pair of queens'
    """
    try:
        a, b, c = cards
        key = a.key + b.key + c.key
    except (ValueError, AttributeError, TypeError):
        _raise_bad_hand(cards, "3")
        raise
    if (key & _CARD_MASK).bit_count() != 3:
        check_distinct(cards)
    return _FRONT3[key >> _KEY_RANK_SHIFT]
