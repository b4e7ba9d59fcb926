"""Pai Gow Poker: the house ways as data (GAME_RULES.md §2, "House way" and "Other house ways").

A casino's house way is a ``HouseWay`` value: its two-pairs table, the two pairs
that give up a straight or flush, its full house and four-of-a-kind rules and the
ranks for which a straight flush or royal flush is broken. The seed's way is
``GOLDEN_NUGGET``; ``TRUMP_PLAZA`` (with ``TRUMP_PLAZA_LITERAL``, the text read
literally, beside it) and ``FOXWOODS`` say what they change of it;
``HOUSE_WAYS`` names them all. The values hold no code that plays them: one
interpreter, ``rules.games.paigow_poker.house_way_explained``, plays them all.
Ranks are numbers, two to ace (2-14).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Final

TWO, SIX, SEVEN, TEN, JACK, KING, ACE = 2, 6, 7, 10, 11, 13, 14
ANY_CARD: Final = TWO  # "a card of rank two or better can go low": always true
ANY_RANK: Final = (TWO, ACE)

RankRange = tuple[int, int]


# --- house ways as data (GAME_RULES.md §2, "House way" and "Other house ways") ------------------


# What may go low, in the dealer's words: (with its article, without).
_SINGLE_WORDS: Final = {ACE: ("an ace", "ace"), KING: ("a king or better", "king or better")}
_PAIR_WORDS: Final = {
    ANY_CARD: ("a pair", "pair"),
    TEN: ("a pair of tens or better", "pair of tens or better"),
    SEVEN: ("a pair of sevens or better", "pair of sevens or better"),
}


def _words(single: int | None, pair: int | None) -> tuple[str, str]:
    """("an ace or a pair", "ace or pair"): the cards whose going low keeps a hand together."""
    parts = [_SINGLE_WORDS[single]] if single is not None else []
    parts += [_PAIR_WORDS[pair]] if pair is not None else []
    return " or ".join(p[0] for p in parts), " or ".join(p[1] for p in parts)


@dataclass(frozen=True)
class TwoPairRule:
    """One row of a way's two-pairs table: the first row whose ranges hold the two pairs decides.

    The pairs split (higher pair high, lower pair low) unless a single of rank
    ``keep_with`` or better can go low; then both stay high with the two highest
    singles low. ``keep_with=None``: always split; ``ANY_CARD``: never split.
    """

    higher: RankRange
    lower: RankRange
    keep_with: int | None
    name: str
    split_reason: str = field(init=False, compare=False, repr=False)
    keep_reason: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.keep_with in _SINGLE_WORDS:
            card, bare = _words(self.keep_with, None)
            split, keep = f", no {bare} to go low", f", {card} goes low"
        else:
            split = keep = ""
        split = f"two pairs, split: {self.name}{split}"
        keep = f"two pairs, kept together: {self.name}{keep}"
        object.__setattr__(self, "split_reason", split)
        object.__setattr__(self, "keep_reason", keep)


@dataclass(frozen=True)
class QuadsRule:
    """Four of a kind in ``ranks`` stays high when a single of ``keep_with_single`` or better,
    or a pair (or three of a kind) of ``keep_with_pair`` or better, can go low; otherwise it
    splits into two pairs, one of them low. ``None``: that never keeps it; ``ANY_CARD``: always."""

    ranks: RankRange
    keep_with_single: int | None
    keep_with_pair: int | None
    name: str
    split_reason: str = field(init=False, compare=False, repr=False)
    keep_reason: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.keep_with_single == ANY_CARD:
            split, keep = "", f"{self.name}: never split"
        elif self.keep_with_single is None and self.keep_with_pair is None:
            split, keep = f"{self.name}: always split", ""
        else:
            what, bare = _words(self.keep_with_single, self.keep_with_pair)
            split, keep = f"{self.name}: split, no {bare} to go low", f"{self.name}: kept, {what} goes low"
        object.__setattr__(self, "split_reason", split)
        object.__setattr__(self, "keep_reason", keep)


@dataclass(frozen=True)
class PairsOverStraight:
    """A straight or flush gives way to the pair rules when two pairs are in these ranges
    and a single of ``with_single`` or better is held (``None``: no single needed)."""

    higher: RankRange
    lower: RankRange
    with_single: int | None
    name: str


@dataclass(frozen=True)
class FullHouseKeep:
    """Three of a kind and a pair of ``pair``: keep the full house when singles of ``low`` can go low."""

    pair: int
    low: tuple[int, int]
    reason: str


class FullHouseLow(Enum):
    """Which pair of a full house goes low."""

    PAIR = "pair"  # the pair; with two pairs, the higher one (Golden Nugget)
    HIGHEST_PERMISSIBLE = "highest_permissible"  # the highest pair, two of the trips too, that does not foul


@dataclass(frozen=True)
class HouseWay:
    """One casino's house way as data (§2); one interpreter, ``house_way_explained``, plays them all."""

    name: str
    two_pairs: tuple[TwoPairRule, ...]
    pairs_over_straight: tuple[PairsOverStraight, ...]
    full_house_low: FullHouseLow
    full_house_keeps: tuple[FullHouseKeep, ...]
    quads: tuple[QuadsRule, ...]
    five_aces_keep_with_pair: int = KING
    break_straight_flush_for: int = JACK
    break_royal_flush_for: int = KING
    # The Trump Plaza way as the Wizard of Odds' figures play it (docs/game-math.md, "The bank's low hand,
    # exactly"); the defaults are the Golden Nugget's reading.
    # The joker beside a natural ace is a pair of aces in the two-pairs-beside-a-straight test, even where it
    # completes the straight or flush (False: that test reads the natural cards only).
    joker_pairs_ace_beside_straight: bool = False
    # A straight flush or royal flush with two pairs goes to the pair rules too (False: it is always kept).
    pairs_over_straight_flush: bool = False
    # True: a straight flush (royal flush) is kept unless breaking it puts ``break_straight_flush_for``
    # (``break_royal_flush_for``) or better low. False: no preference for it, among every setting that keeps
    # a straight, flush, straight flush or royal flush the highest low hand is played (the break ranks unused).
    straight_flush_preferred: bool = True
    # Choosing among those settings, the low hands are compared card by card, top card first, each by rank
    # and then by suit, spades, hearts, diamonds, clubs (the joker above every ace): the top card's suit
    # decides before the second card's rank. False: by the low hands' ranks, ties to the higher high hand.
    low_by_rank_then_suit: bool = False


# The seed's way (GAME_RULES.md §2, "House way").
GOLDEN_NUGGET: Final = HouseWay(
    name="golden_nugget",
    two_pairs=(
        TwoPairRule((ACE, ACE), ANY_RANK, None, "aces with any pair"),
        TwoPairRule((JACK, KING), (SIX, KING), None, "jacks or better with sixes or better"),
        TwoPairRule((SEVEN, KING), ANY_RANK, ACE, "a pair of sevens or better"),
        TwoPairRule(ANY_RANK, ANY_RANK, ANY_CARD, "both below sevens"),
    ),
    pairs_over_straight=(
        PairsOverStraight(ANY_RANK, ANY_RANK, ACE, "two pairs and a single ace"),
        PairsOverStraight((JACK, JACK), (SIX, SIX), None, "jacks and sixes"),
        PairsOverStraight((ACE, ACE), ANY_RANK, None, "aces and any pair"),
    ),
    full_house_low=FullHouseLow.PAIR,
    full_house_keeps=(FullHouseKeep(TWO, (ACE, KING), "full house kept: twos, and an ace and a king go low"),),
    quads=(
        QuadsRule((TWO, SIX), ANY_CARD, ANY_CARD, "four of a kind, twos to sixes"),
        QuadsRule((SEVEN, TEN), ACE, ANY_CARD, "four of a kind, sevens to tens"),
        QuadsRule((JACK, KING), None, TEN, "four of a kind, jacks to kings"),
        QuadsRule((ACE, ACE), None, SEVEN, "four aces"),
    ),
)

# "Other house ways": what each changes of the Golden Nugget way.
# GAME_RULES.md's text of the Trump Plaza way, read literally: a straight or flush gives way to the pair rules
# only in the Golden Nugget's three cases (two pairs and a single ace, jacks and sixes, aces and any pair).
TRUMP_PLAZA_LITERAL: Final = replace(
    GOLDEN_NUGGET,
    name="trump_plaza_literal",
    two_pairs=(  # pairs by groups: low 2-6, medium 7-10, high J-K
        TwoPairRule((ACE, ACE), ANY_RANK, None, "aces with any pair"),
        TwoPairRule((JACK, KING), (SEVEN, KING), None, "medium or high with high"),
        TwoPairRule((JACK, KING), (TWO, SIX), ACE, "low with high"),
        TwoPairRule((SEVEN, TEN), (SEVEN, TEN), ACE, "medium with medium"),
        TwoPairRule(ANY_RANK, (TWO, SIX), KING, "low with low or medium"),
    ),
    quads=(  # with a pair, the pair goes low in every band
        QuadsRule((TWO, SIX), ANY_CARD, ANY_CARD, "four of a kind, twos to sixes"),
        QuadsRule((SEVEN, TEN), KING, ANY_CARD, "four of a kind, sevens to tens"),
        QuadsRule((JACK, KING), ACE, ANY_CARD, "four of a kind, jacks to kings"),
        QuadsRule((ACE, ACE), None, ANY_CARD, "four aces"),
    ),
)

# The Trump Plaza way as the Wizard of Odds' published figures play it (docs/game-math.md, "The bank's low
# hand, exactly"; https://wizardofodds.com/games/pai-gow-poker/appendix/1/): its exact low-hand counts over
# all 154,143,080 hands equal every published row. Beside the literal text's tables:
# 1. any two pairs beside a straight or flush are played by the two-pair rules;
# 2. the joker counts with the aces in that test (joker, ace and a pair are "aces and a pair");
# 3. a straight flush or royal flush with two pairs goes to the pair rules too;
# 4. no preference for the straight flush: among every setting that keeps a straight, flush, straight
#    flush or royal, the highest low (as Bally's Atlantic City way says,
#    https://wizardofodds.com/games/pai-gow-poker/house-way/ballys-atlantic-city/);
# 5. those low hands compared card by card, by rank then suit (s h d c), top card first.
# The default for the way.
TRUMP_PLAZA: Final = replace(
    TRUMP_PLAZA_LITERAL,
    name="trump_plaza",
    pairs_over_straight=(PairsOverStraight(ANY_RANK, ANY_RANK, None, "two pairs beside it"),),
    joker_pairs_ace_beside_straight=True,
    pairs_over_straight_flush=True,
    straight_flush_preferred=False,
    low_by_rank_then_suit=True,
)

FOXWOODS: Final = replace(
    GOLDEN_NUGGET,
    name="foxwoods",
    two_pairs=(
        TwoPairRule((JACK, ACE), ANY_RANK, None, "big pair jacks or better"),
        TwoPairRule((SEVEN, TEN), ANY_RANK, ACE, "big pair sevens to tens"),
        TwoPairRule(ANY_RANK, ANY_RANK, KING, "big pair sixes or lower"),
    ),
    full_house_low=FullHouseLow.HIGHEST_PERMISSIBLE,
    full_house_keeps=(),
    quads=(  # with a pair, the pair goes low in every band
        QuadsRule((TWO, SIX), ANY_CARD, ANY_CARD, "four of a kind, sixes or lower"),
        QuadsRule((SEVEN, TEN), KING, ANY_CARD, "four of a kind, sevens to tens"),
        QuadsRule((JACK, ACE), None, ANY_CARD, "four of a kind, jacks to aces"),
    ),
)

HOUSE_WAYS: Final[dict[str, HouseWay]] = {
    w.name: w for w in (GOLDEN_NUGGET, TRUMP_PLAZA, FOXWOODS, TRUMP_PLAZA_LITERAL)
}


def _house_way(way: str | HouseWay) -> HouseWay:
    if isinstance(way, HouseWay):
        return way
    found = HOUSE_WAYS.get(way)
    if found is None:
        raise ValueError(f"unknown house way {way!r}: choose one of {', '.join(HOUSE_WAYS)}")
    return found


def _within(rank: int, ranks: RankRange) -> bool:
    return ranks[0] <= rank <= ranks[1]
