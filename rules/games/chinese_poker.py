"""Chinese Poker: arrangements, fouls, royalties, naturals and pairwise scoring (GAME_RULES.md §3).

Each player sets 13 cards as a three-card front, a five-card middle and a
five-card back (an ``Arrangement``); the back must not rank below the middle
and the middle not below the front, on one scale for three- and five-card
hands where the wheel (5-4-3-2-A) is the lowest straight. ``score`` settles a
round every player against every other into a ``ScoreSheet`` whose totals sum
to zero.

Rule choices where §3 is silent (practice, each documented where it is coded):

* A natural is claimed automatically: pass a bare ``Arrangement`` and its 13
  cards are looked at; pass ``(arrangement, False)`` to play the hand out
  instead, ``(arrangement, True)`` to insist on one (an error if there is none).
  A claimed natural ignores how the cards were set, so a fouled setting of a
  natural still collects the natural.
* A surrendered player pays the surrender points (the 0-2 line of the points
  system) to every player who did not surrender, whatever that player's hand,
  foul or not; a natural against a surrenderer collects the natural's points
  instead. Surrender carries no royalties either way.
* A fouled hand is recorded as lost 0-3 ("as if scooped") and pays the
  opponent's royalties; a natural or a surrender decides a pair before any foul.
* A swap (three players only) costs 2 points to each other player whatever
  else happens in the round, surrender and naturals included.

>>> p1 = Arrangement.parse("8s 8h 8d", "Kh Qh Jd Th 9h", "7s 7h 7d Ts Td")
>>> p2 = Arrangement.parse("Ks Js 4s", "Kc Qc 8c 7c 5c", "Ad Qd 9d 6d 2d")
>>> p3 = Arrangement.parse("Qs Tc 5h", "Ah Ac 2h 2c 4d", "3s 3h 3d 3c 6h")
>>> natural(p2.cards)
Natural(name='three flushes', points=3)
>>> royalties(p1), royalties(p3)
(3, 3)
>>> sheet = score({1: p1, 2: p2, 3: p3})
>>> sheet.totals
{1: -1, 2: 6, 3: -5}
>>> sheet.pair(1, 3).won, sheet.pair(1, 3).lost, sheet.pair(1, 3).system, sheet.pair(1, 3).net
(2, 1, 2, 2)
>>> is_foul(Arrangement.parse("Kh Kd As", "Ks Kc Qd 7h 3s", "9s 9h 9c 2d 2h"))   # KK-A over KK-Q-7-3
True
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Generic, Literal, TypeVar

from rules.games.cards import CARDS, SUIT_CHARS, Card, cards_text, check_distinct, check_jokerless, parse_cards
from rules.games.errors import InvalidHand
from rules.games.poker import Category, HandValue, front_hand, high_hand

Cards = tuple[Card, ...]
P = TypeVar("P", bound=Hashable)

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


# --- points systems -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PointsSystem:
    """What a pair's rows won and lost are worth to the winner (§3, option ``cp_scoring``).

    ``points`` maps (rows won, rows lost), the winner's count first, to points;
    equal counts score nothing. ``surrender`` is the 0-2 line: what a surrendered
    player pays each opponent.
    """

    name: str
    points: Mapping[tuple[int, int], int]
    by_score: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        signed = [0] * 16
        for (won, lost), pts in self.points.items():
            signed[won * 4 + lost] = pts
            signed[lost * 4 + won] = -pts
        object.__setattr__(self, "by_score", tuple(signed))

    @property
    def scoop(self) -> int:
        """Points for winning all three rows: what a fouled hand pays."""
        return self.points[3, 0]

    @property
    def surrender(self) -> int:
        """Points a surrendered player pays: the 0-2 line."""
        return self.points[2, 0]


POINTS_SYSTEMS: Final[Mapping[str, PointsSystem]] = {
    # seed: a point a row net, plus one for winning more rows than the opponent
    "2-4": PointsSystem("2-4", {(3, 0): 4, (2, 1): 2, (2, 0): 3, (1, 0): 2}),
    # seed: a point a row net, plus three for winning all three
    "1-6": PointsSystem("1-6", {(3, 0): 6, (2, 1): 1, (2, 0): 2, (1, 0): 1}),
    # practice: a point a row net, plus one for winning all three
    "1-4": PointsSystem("1-4", {(3, 0): 4, (2, 1): 1, (2, 0): 2, (1, 0): 1}),
}


def points_system(scoring: str | PointsSystem) -> PointsSystem:
    """The system named ``scoring`` (``"2-4"``, ``"1-6"``, ``"1-4"``), or the system itself."""
    if isinstance(scoring, PointsSystem):
        return scoring
    try:
        return POINTS_SYSTEMS[scoring]
    except KeyError:
        raise InvalidHand(f"no points system {scoring!r}: choose one of {', '.join(POINTS_SYSTEMS)}") from None


# --- the swap (three players) -------------------------------------------------------------------------

SWAP_POINTS: Final = 2  # paid to each other player (§3, "Swap")


def swap(
    hand13: Sequence[Card], undealt13: Sequence[Card], give: Iterable[Card], take: Iterable[Card]
) -> tuple[Cards, Cards]:
    """Exchange ``give`` (from the hand) for ``take`` (from the 13 undealt cards) (§3, "Swap").

    Three players only: 39 cards are dealt and 13 stay undealt. Returns the new
    hand and the new undealt cards, each still 13; the next player to swap
    swaps against the new undealt cards. Charge the 2 points a player with
    ``score(..., swapped={player})``.

    >>> hand = parse_cards("2s 3h 5d 7c 8s 9h Jd Qc Ks 4h 6d Tc Ah")
    >>> undealt = parse_cards("2h 3d 5c 7s 8h 9d Jc Qs Kh 4d 6c Ts Ad")
    >>> new_hand, new_undealt = swap(hand, undealt, parse_cards("2s 3h"), parse_cards("Ad Kh"))
    >>> cards_text(new_hand)
    '5d 7c 8s 9h Jd Qc Ks 4h 6d Tc Ah Ad Kh'
    >>> swap(hand, undealt, parse_cards("2s"), parse_cards("As"))
    Traceback (most recent call last):
    ...
    rules.games.errors.InvalidHand: A♠ is not among the undealt cards
    """
    hand = _check_row(hand13, "hand", 13)
    undealt = _check_row(undealt13, "undealt cards", 13)
    check_distinct(hand + undealt)
    given, taken = tuple(give), tuple(take)
    _check_row(given, "cards given", len(given))
    _check_row(taken, "cards taken", len(taken))
    check_distinct(given)
    check_distinct(taken)
    for card in given:
        if card not in hand:
            raise InvalidHand(f"{card.symbol} is not in the hand")
    for card in taken:
        if card not in undealt:
            raise InvalidHand(f"{card.symbol} is not among the undealt cards")
    if len(given) != len(taken):
        raise InvalidHand(f"{len(given)} cards given but {len(taken)} taken: a swap is card for card")
    new_hand = tuple(c for c in hand if c not in given) + taken
    new_undealt = tuple(c for c in undealt if c not in taken) + given
    return new_hand, new_undealt


# --- scoring ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PairScore(Generic[P]):
    """What ``player`` won from ``opponent`` in a round, item by item; ``net`` is the sum (§3).

    ``won``, ``lost`` and ``ties`` count rows. They are 0-3 for a fouled hand
    (lost "as if scooped"), 0-2 for a surrender and 0-0 when a natural or two
    fouls decided the pair. Points are signed, positive to ``player``.
    """

    player: P
    opponent: P
    won: int
    lost: int
    ties: int
    system: int
    royalties: int
    natural: int
    surrender: int
    swap: int
    fouled: bool
    opponent_fouled: bool
    net: int


# (won, lost, ties, system, royalties, natural, surrender, swap, fouled, opponent fouled, net), player's side
_Raw = tuple[int, int, int, int, int, int, int, int, bool, bool, int]


@dataclass(frozen=True, slots=True)
class ScoreSheet(Generic[P]):
    """A round's scores: each ordered pair's ``PairScore``, each player's ``totals`` (zero-sum)
    and, when stakes were agreed, ``totals_cents``."""

    players: tuple[P, ...]
    totals: dict[P, int]
    totals_cents: dict[P, int] | None
    raw: Mapping[tuple[P, P], _Raw] = field(repr=False)

    def pair(self, player: P, opponent: P) -> PairScore[P]:
        """``player``'s score against ``opponent``."""
        try:
            raw = self.raw[player, opponent]
        except KeyError:
            raise KeyError(f"no pair {player!r} against {opponent!r} in this round") from None
        return PairScore(player, opponent, *raw)

    @property
    def pairs(self) -> dict[tuple[P, P], PairScore[P]]:
        """Every ordered pair of players to its ``PairScore``."""
        return {(a, b): PairScore(a, b, *raw) for (a, b), raw in self.raw.items()}


NaturalVsNatural = Literal["higher", "push"]
Stakes = int | Mapping[frozenset[P], int] | None


def score(
    hands_by_player: Mapping[P, Arrangement | tuple[Arrangement, bool]],
    *,
    scoring: str | PointsSystem = "2-4",
    royalties: RoyaltiesOption = "seed",
    surrender: Collection[P] = frozenset(),
    swapped: Collection[P] = frozenset(),
    stakes: Stakes[P] = None,
    natural_vs_natural: NaturalVsNatural = "higher",
    naturals: bool = True,
) -> ScoreSheet[P]:
    """Score a round of Chinese Poker, every player against every other (§3).

    ``hands_by_player`` maps each player (two to four) to an ``Arrangement``,
    whose natural is claimed automatically, or to ``(arrangement, claims)``:
    ``False`` plays a natural out as an ordinary hand, ``True`` insists on a
    natural. ``naturals=False`` turns naturals off for the table.

    A pair is decided by the first that applies:

    1. surrender: two surrendered players score nothing; a surrenderer pays the
       0-2 line to anyone else, or that player's natural when it has one;
    2. naturals: a natural wins its points; two naturals: the higher wins its
       value and equal values push (``natural_vs_natural="higher"``), or two
       naturals always push (``"push"``);
    3. fouls: a fouled hand pays the scoop and the opponent's royalties; two
       fouled hands score nothing;
    4. the showdown: rows compared front, middle, back under ``scoring``, plus
       the difference of the royalties.

    A player in ``swapped`` (three players only) also pays 2 points to each
    other player. ``stakes``, cents a point, either one number for every pair
    or one per pair keyed ``frozenset({a, b})``, gives ``totals_cents``.

    >>> ann = Arrangement.parse("2s 3h 4d", "Ks Kh Kd 8c 8d", "9s 9h 9d 9c 5c")
    >>> bob = Arrangement.parse("As Kc 7d", "Qs Qh Jc Js 2c", "8s 7h 6d 5s 4c")
    >>> sheet = score({"ann": ann, "bob": bob}, stakes=25)
    >>> bob_vs_ann = sheet.pair("bob", "ann")
    >>> bob_vs_ann.won, bob_vs_ann.lost, bob_vs_ann.system, bob_vs_ann.royalties, bob_vs_ann.net
    (1, 2, -2, -4, -6)
    >>> sheet.totals, sheet.totals_cents
    ({'ann': 6, 'bob': -6}, {'ann': 150, 'bob': -150})
    """
    system = points_system(scoring)
    table = royalty_table(royalties)
    by_score = system.by_score
    front_roy, middle_roy, back_roy = table.by_category
    shift = _CATEGORY_SHIFT
    if natural_vs_natural not in ("higher", "push"):
        raise InvalidHand(f"natural_vs_natural must be 'higher' or 'push', not {natural_vs_natural!r}")

    players = tuple(hands_by_player)
    if not 2 <= len(players) <= 4:
        raise InvalidHand(f"two to four players, got {len(players)}")
    for who, what in (("surrendered", surrender), ("swapped", swapped)):
        for player in what:
            if player not in hands_by_player:
                raise InvalidHand(f"{player!r} {who} but has no hand at the table")
    if swapped and len(players) != 3:
        raise InvalidHand(f"the swap is played with three players only, not {len(players)}")

    # One pass a player: row values, foul, royalties, natural.
    seats = []
    all_cards = 0
    for player in players:
        entry = hands_by_player[player]
        claims: bool | None = None
        if isinstance(entry, Arrangement):
            arrangement = entry
        else:
            arrangement, claims = entry
            if not isinstance(arrangement, Arrangement):
                raise InvalidHand(f"{player!r}: an arrangement expected, got {arrangement!r}")
        all_cards += arrangement.key & _CARD_MASK
        f, m, b = arrangement.values
        fouled = f > m or m > b
        roy = 0 if fouled else front_roy[f >> shift] + middle_roy[m >> shift] + back_roy[b >> shift]
        nat = 0
        if player in surrender:
            pass  # a surrendered hand is never shown: no natural, no royalties
        elif claims is None:
            found = _natural_of_key(arrangement.key) if naturals else None
            nat = found.points if found is not None else 0
        elif claims:
            found = _natural_of_key(arrangement.key)
            if not naturals or found is None:
                raise InvalidHand(f"{player!r} claims a natural but {'holds none' if naturals else 'naturals are off'}")
            nat = found.points
        seats.append((player, f, m, b, fouled, roy, nat, player in surrender, player in swapped))
    if all_cards.bit_count() != 13 * len(players):
        check_distinct(c for player in players for c in _arrangement(hands_by_player[player]).cards)

    surrender_points = system.surrender
    scoop = system.scoop
    raw: dict[tuple[P, P], _Raw] = {}
    totals = dict.fromkeys(players, 0)
    for i, (pa, fa, ma, ba, foul_a, roy_a, nat_a, sur_a, swp_a) in enumerate(seats):
        for pb, fb, mb, bb, foul_b, roy_b, nat_b, sur_b, swp_b in seats[i + 1 :]:
            won = lost = ties = pts = roy = nat = sur = 0
            if sur_a or sur_b:
                if sur_a and sur_b:
                    pass
                elif sur_b:
                    if nat_a:
                        nat = nat_a
                    else:
                        won, lost, sur = 2, 0, surrender_points
                elif nat_b:
                    nat = -nat_b
                else:
                    won, lost, sur = 0, 2, -surrender_points
            elif nat_a or nat_b:
                if not (nat_a and nat_b):
                    nat = nat_a - nat_b
                elif natural_vs_natural == "higher":
                    nat = nat_a if nat_a > nat_b else -nat_b if nat_b > nat_a else 0
            elif foul_a or foul_b:
                if not foul_b:
                    won, lost, pts, roy = 0, 3, -scoop, -roy_b
                elif not foul_a:
                    won, lost, pts, roy = 3, 0, scoop, roy_a
            else:
                won = (fa > fb) + (ma > mb) + (ba > bb)
                lost = (fa < fb) + (ma < mb) + (ba < bb)
                ties = 3 - won - lost
                pts = by_score[won * 4 + lost]
                roy = roy_a - roy_b
            swp = (SWAP_POINTS if swp_b else 0) - (SWAP_POINTS if swp_a else 0)
            net = pts + roy + nat + sur + swp
            raw[pa, pb] = (won, lost, ties, pts, roy, nat, sur, swp, foul_a, foul_b, net)
            raw[pb, pa] = (lost, won, ties, -pts, -roy, -nat, -sur, -swp, foul_b, foul_a, -net)
            totals[pa] += net
            totals[pb] -= net

    return ScoreSheet(players, totals, _cents(players, raw, stakes), raw)


def _arrangement(entry: Arrangement | tuple[Arrangement, bool]) -> Arrangement:
    return entry if isinstance(entry, Arrangement) else entry[0]


def _cents(players: tuple[P, ...], raw: Mapping[tuple[P, P], _Raw], stakes: Stakes[P]) -> dict[P, int] | None:
    """Each player's total in cents at each pair's own value a point (§3, "Money")."""
    if stakes is None:
        return None
    cents = dict.fromkeys(players, 0)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if isinstance(stakes, int):
                stake = stakes
            else:
                try:
                    stake = stakes[frozenset((a, b))]
                except KeyError:
                    raise InvalidHand(f"no value a point agreed between {a!r} and {b!r}") from None
            if stake < 0:
                raise InvalidHand(f"the value a point between {a!r} and {b!r} is negative: {stake}")
            amount = raw[a, b][-1] * stake
            cents[a] += amount
            cents[b] -= amount
    return cents


def suggest(cards13: Sequence[Card], *, top: int = 3, **rules: Any) -> tuple[Any, ...]:
    """The ``top`` best legal arrangements of 13 cards: ``rules.games.chinese_poker_suggest.suggest``.

    Kept in its own module (it brings NumPy and its tables); imported on first use.
    """
    from rules.games.chinese_poker_suggest import suggest as _suggest

    return _suggest(cards13, top=top, **rules)
