"""Pai Gow Poker: settings, fouls, the house way and settling (GAME_RULES.md §2).

Seven cards from the 53-card deck split into a five-card high hand and a
two-card low hand (a ``Setting``); the high hand must rank above the low hand or
the setting is fouled. The bank's hand is set by a house way: the Golden Nugget
way of the seed (the default) or another way of ``HOUSE_WAYS``, each a
``HouseWay`` value whose tables (two pairs, four of a kind, ...) one shared
interpreter reads. A player's wager is settled against the bank by ``outcome``.

This module holds the interpreter and settling; settings and fouls are in
``rules.games.paigow_poker_hands`` and the house ways as data in
``rules.games.paigow_poker_ways``, and every name of theirs is offered here too.

>>> from rules.games.cards import parse_cards
>>> setting, why = house_way_explained(parse_cards("As Ad Kh Kc 7s 4d 2c"))
>>> str(setting), why
('high: As Ad 7s 4d 2c, low: Kh Kc', 'two pairs, split: aces with any pair')
>>> str(house_way(parse_cards("Ks 9h 7d 5c 4s 3h 2d")))
'high: Ks 5c 4s 3h 2d, low: 9h 7d'
>>> outcome(Setting.parse("Qs Qh 9c 7d 2s", "Ah Kd"), Setting.parse("Js Jh 9d 7c 3s", "As Kc")).name  # a copy low
'PUSH'
>>> outcome(Setting.parse("Js Jh 9d 7c 3s", "Ah Kd"), Setting.parse("Qs Qh 9c 7d 2s", "As Kc")).name
'LOSS'
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from enum import Enum
from operator import ne
from typing import Final

from rules.games.cards import JOKER, Card, check_distinct
from rules.games.paigow_poker_hands import (
    _CARD_BITS,
    _KEY,
    _LOW,
    _ORDER,
    _PICK_OF_HIGH,
    _PICKS,
    _RANK_SHIFT,
    _SPLIT_AT,
    _SUIT_INDEX,
    _SUIT_SHIFT,
    _prepare,
    _setting,
)
from rules.games.paigow_poker_hands import Cards as Cards
from rules.games.paigow_poker_hands import Pick as Pick
from rules.games.paigow_poker_hands import Setting as Setting
from rules.games.paigow_poker_hands import Split as Split
from rules.games.paigow_poker_hands import is_foul as is_foul
from rules.games.paigow_poker_hands import settings as settings
from rules.games.paigow_poker_ways import ACE as ACE
from rules.games.paigow_poker_ways import ANY_CARD as ANY_CARD
from rules.games.paigow_poker_ways import ANY_RANK as ANY_RANK
from rules.games.paigow_poker_ways import FOXWOODS as FOXWOODS
from rules.games.paigow_poker_ways import GOLDEN_NUGGET as GOLDEN_NUGGET
from rules.games.paigow_poker_ways import HOUSE_WAYS as HOUSE_WAYS
from rules.games.paigow_poker_ways import JACK as JACK
from rules.games.paigow_poker_ways import KING as KING
from rules.games.paigow_poker_ways import SEVEN as SEVEN
from rules.games.paigow_poker_ways import SIX as SIX
from rules.games.paigow_poker_ways import TEN as TEN
from rules.games.paigow_poker_ways import TRUMP_PLAZA as TRUMP_PLAZA
from rules.games.paigow_poker_ways import TWO as TWO
from rules.games.paigow_poker_ways import FullHouseKeep as FullHouseKeep
from rules.games.paigow_poker_ways import FullHouseLow as FullHouseLow
from rules.games.paigow_poker_ways import HouseWay as HouseWay
from rules.games.paigow_poker_ways import PairsOverStraight as PairsOverStraight
from rules.games.paigow_poker_ways import QuadsRule as QuadsRule
from rules.games.paigow_poker_ways import RankRange as RankRange
from rules.games.paigow_poker_ways import TwoPairRule as TwoPairRule
from rules.games.paigow_poker_ways import _house_way, _within
from rules.games.poker import HandValue, high_hand, low_hand

# --- the interpreter --------------------------------------------------------------------------
#
# The hand is sorted once (joker, aces ... twos) and cut into runs of one rank, the joker with
# the aces; the run sizes, largest first, are its shape: (2, 2, 1, 1, 1) is two pairs. A shape's
# rule names the low hand by positions in the sorted hand, or, where suits or the joker leave a
# choice, lists every way to put that low hand low. A rule that names one setting cannot foul:
# the high hand keeps the higher pair, the trips, the quads or the highest card, and its value
# is at least that with the joker as an ace (§2). So hand values are computed only to choose.

Span = tuple[int, int]  # (start, size): the cards hand[start:start + size], of one rank
# The rule's low hand: one pick, or the picks for each low hand in order of preference (the
# first that does not foul; within one low hand, the highest high hand); and the rule's words.
Choice = tuple[Pick | list[list[Pick]], str]
Rule = Callable[["HouseWay", list[int], tuple[Span, ...]], Choice]


_PAIRS_IN: Final = {(a, n): list(itertools.combinations(range(a, a + n), 2)) for a in range(7) for n in range(2, 6)}


def _best_two(r: list[int], runs: Sequence[Span]) -> list[Pick]:
    """The highest low hand from the cards of ``runs``: every two of them that make it."""
    picks = list(itertools.combinations([k for a, n in runs for k in range(a, a + n)], 2))
    top = max(_LOW[r[i] * 16 + r[j]] for i, j in picks)
    return [(i, j) for i, j in picks if _LOW[r[i] * 16 + r[j]] == top]


def _five_aces(way: HouseWay, r: list[int], g: tuple[Span, ...]) -> Choice:
    if g[1][1] == 2 and r[g[1][0]] >= way.five_aces_keep_with_pair:
        return (g[1][0], g[1][0] + 1), "five aces, kept: a pair of kings goes low"
    return [_PAIRS_IN[g[0]]], "five aces, split: a pair of aces low"


def _quads(way: HouseWay, r: list[int], g: tuple[Span, ...]) -> Choice:
    rank = r[g[0][0]]
    other_pair = r[g[1][0]] if g[1][1] >= 2 else 0
    top_other = max(r[a] for a, _ in g[1:])
    for row in way.quads:
        if _within(rank, row.ranks):
            if (row.keep_with_pair is not None and other_pair >= row.keep_with_pair) or (
                row.keep_with_single is not None and top_other >= row.keep_with_single
            ):
                return [_best_two(r, g[1:])], row.keep_reason
            return [_PAIRS_IN[g[0]]], row.split_reason
    return [_best_two(r, g[1:])], "four of a kind: kept together"


def _two_trips(way: HouseWay, r: list[int], g: tuple[Span, ...]) -> Choice:
    return [_PAIRS_IN[g[0]]], "two three of a kinds: a pair from the higher low"


def _full_house(way: HouseWay, r: list[int], g: tuple[Span, ...]) -> Choice:
    if len(g) == 4:  # three of a kind, a pair and two singles
        for keep in way.full_house_keeps:
            if r[g[1][0]] == keep.pair and (r[g[2][0]], r[g[3][0]]) == keep.low:
                return (g[2][0], g[3][0]), keep.reason
    if way.full_house_low is FullHouseLow.HIGHEST_PERMISSIBLE:
        pairs = sorted(span for span in g if span[1] > 1)  # by position: highest rank first
        return [_PAIRS_IN[span] for span in pairs], "full house: the highest pair that does not foul goes low"
    if len(g) == 3:
        return (g[1][0], g[1][0] + 1), "three of a kind and two pairs: the higher pair low, the full house high"
    return (g[1][0], g[1][0] + 1), "full house: the pair low, three of a kind high"


def _trips(way: HouseWay, r: list[int], g: tuple[Span, ...]) -> Choice:
    if r[g[0][0]] == ACE:
        return [[(a, g[1][0]) for a in range(g[0][0], g[0][0] + 3)]], "three aces: an ace and the next highest card low"
    return (g[1][0], g[2][0]), "three of a kind: high, the two highest singles low"


def _three_pairs(way: HouseWay, r: list[int], g: tuple[Span, ...]) -> Choice:
    return (g[0][0], g[0][0] + 1), "three pairs: the highest pair low"


def _two_pairs(way: HouseWay, r: list[int], g: tuple[Span, ...]) -> Choice:
    higher, lower = r[g[0][0]], r[g[1][0]]
    for row in way.two_pairs:
        if _within(higher, row.higher) and _within(lower, row.lower):
            if row.keep_with is not None and r[g[2][0]] >= row.keep_with:
                return (g[2][0], g[3][0]), row.keep_reason
            return (g[1][0], g[1][0] + 1), row.split_reason
    return (g[2][0], g[3][0]), "two pairs, kept together"


def _one_pair(way: HouseWay, r: list[int], g: tuple[Span, ...]) -> Choice:
    return (g[1][0], g[2][0]), "one pair: the pair high, the two highest singles low"


def _no_pair(way: HouseWay, r: list[int], g: tuple[Span, ...]) -> Choice:
    return (g[1][0], g[2][0]), "no pair: the highest card high, the next two low"


_RULES: Final[dict[tuple[int, ...], Rule]] = {
    (5, 2): _five_aces,
    (5, 1, 1): _five_aces,
    (4, 3): _quads,
    (4, 2, 1): _quads,
    (4, 1, 1, 1): _quads,
    (3, 3, 1): _two_trips,
    (3, 2, 2): _full_house,
    (3, 2, 1, 1): _full_house,
    (3, 1, 1, 1, 1): _trips,
    (2, 2, 2, 1): _three_pairs,
    (2, 2, 1, 1, 1): _two_pairs,
    (2, 1, 1, 1, 1, 1): _one_pair,
    (1, 1, 1, 1, 1, 1, 1): _no_pair,
}
# Below a full house, a straight or flush among the seven cards is weighed first (§2).
_STRAIGHT_SHAPES: Final = frozenset(((3, 1, 1, 1, 1), (2, 2, 2, 1), (2, 2, 1, 1, 1), (2, 1, 1, 1, 1, 1), (1,) * 7))


def _shapes() -> dict[tuple[bool, ...], tuple[tuple[Span, ...], Rule, bool]]:
    """For each pattern of rank changes between neighbours in a sorted hand: its runs (largest first),
    the rule for its shape, and whether a straight or flush is weighed first."""
    table = {}
    for pattern in itertools.product((False, True), repeat=6):
        starts = [0] + [k + 1 for k, changes in enumerate(pattern) if changes]
        sizes = [end - start for start, end in zip(starts, [*starts[1:], 7], strict=True)]
        runs = tuple(sorted(zip(starts, sizes, strict=True), key=lambda run: -run[1]))
        shape = tuple(size for _, size in runs)
        if shape in _RULES:  # five of a rank, other than five aces, cannot be dealt
            table[pattern] = (runs, _RULES[shape], shape in _STRAIGHT_SHAPES)
    return table


_SHAPES: Final = _shapes()

_LOW_TOPPED_BY: Final = {rank: _LOW[rank * 16 + TWO] for rank in range(3, 15)}  # the lowest low hand with that top
# The ranks of the straight whose lowest card is ``low`` (1: the wheel, its ace playing low).
_WINDOW: Final = {low: (14, 5, 4, 3, 2) if low == 1 else tuple(range(low + 4, low - 1, -1)) for low in range(1, 11)}
_RANK_FIELDS: Final = sum(1 << 3 * rank for rank in range(2, 15))  # the low bit of each rank's count
_LOWS: Final = sum(1 << 3 * low for low in _WINDOW)  # where a straight can start: the wheel's ace up to the ten


def _straight_lows(present: int, joker: bool) -> int:
    """The straights among the ranks ``present`` (bits at ``3 * rank``), the joker filling one gap:
    a bit at ``3 * low`` for the lowest rank ``low`` of each (1: the wheel)."""
    a = present | (1 << 3 if present & 1 << 3 * ACE else 0)  # the ace also plays low, in the wheel
    b, c, d, e = a >> 3, a >> 6, a >> 9, a >> 12
    if joker:  # four of five ranks in a row will do
        return ((b & c & d & e) | (a & c & d & e) | (a & b & d & e) | (a & b & c & e) | (a & b & c & d)) & _LOWS
    return a & b & c & d & e


def _straight_table() -> dict[int, tuple[int, int]]:
    """``_straight_lows`` of every set of ranks, without and with the joker."""
    present = [0] * (1 << 13)
    for mask in range(1, 1 << 13):
        lowest = mask & -mask
        present[mask] = present[mask ^ lowest] | 1 << 3 * (lowest.bit_length() + 1)
    return {p: (_straight_lows(p, False), _straight_lows(p, True)) for p in present}


_STRAIGHTS: Final = _straight_table()


def _flush_suits(suits: int, joker: bool) -> list[int]:
    return [s for s in range(4) if ((suits >> 4 * s) & 0xF) + joker >= 5]


def _straight_or_flush_picks(
    hand: list[Card], r: list[int], g: tuple[Span, ...], joker: bool, flushes: list[int], straights: int
) -> dict[Pick, str]:
    """Every setting whose high hand is a straight or flush, by its low hand: "flush", "straight",
    "straight flush" or "royal flush" (the joker, if any, is hand[0])."""
    kinds: dict[Pick, str] = {}
    for s in flushes:
        out = [k for k, card in enumerate(hand) if _SUIT_INDEX[card] not in (s, -1)]
        inside = [k for k in range(7) if k not in out]
        for extra in itertools.combinations(inside, 2 - len(out)):
            i, j = sorted((*out, *extra))
            kinds[i, j] = "flush"
    if straights:
        where = {r[start]: range(start, start + size) for start, size in g}
        if joker:
            where[ACE] = range(1, where[ACE].stop)  # natural aces only
    while straights:
        bit = straights & -straights
        straights ^= bit
        window = _WINDOW[bit.bit_length() // 3]
        options = [where.get(rank, ()) for rank in window]
        missing = [n for n, o in enumerate(options) if not o]
        highs: list[tuple[int, ...]] = [] if missing else list(itertools.product(*options))
        for stand_in in (missing or range(5)) if joker else ():  # the joker in place of one rank
            highs += itertools.product(*([0] if n == stand_in else o for n, o in enumerate(options)))
        suited = "royal flush" if window[0] == ACE and window[1] == KING else "straight flush"
        for high in highs:  # in hand order, but where the joker stands in
            pick = _PICK_OF_HIGH[tuple(sorted(high)) if joker else high]
            kind = kinds.get(pick, "straight")
            kinds[pick] = kind if kind in ("straight", "royal flush") else suited
    return kinds


def _high_value(hand: list[Card], pick: Pick, wheel: bool, joker_ace: bool) -> HandValue:
    """The value of the high hand left when ``pick`` goes low."""
    return high_hand(_SPLIT_AT[pick][1](hand), wheel_second_highest=wheel, joker_flush_as_ace=joker_ace)


def _natural_below_full_house(g: tuple[Span, ...]) -> bool:
    """With the joker (the first card) set aside, whether the cards hold less than a full house."""
    sizes = sorted((size - 1 if start == 0 else size for start, size in g), reverse=True)
    return sizes[0] < 4 and not (sizes[0] == 3 and sizes[1] >= 2)


def _pairs_over_straight(way: HouseWay, r: list[int], g: tuple[Span, ...], joker: bool) -> str | None:
    """The way's exception that sends a straight or flush to the pair rules (§2), if one applies.

    Read on the natural cards: here the joker completes the straight or flush, so
    it neither pairs an ace nor is the single ace; unless the way counts the joker
    with the aces there (``joker_pairs_ace_beside_straight``), when the joker and a
    natural ace are a pair of aces.
    """
    with_joker = joker and way.joker_pairs_ace_beside_straight
    counts = [(r[start], size - 1 if joker and start == 0 and not with_joker else size) for start, size in g]
    pairs = [rank for rank, count in counts if count == 2]
    if len(pairs) < 2:
        return None
    top_single = max((rank for rank, count in counts if count == 1), default=0)
    for rule in way.pairs_over_straight:
        if rule.with_single is not None and top_single < rule.with_single:
            continue
        if any(_within(hi, rule.higher) and _within(lo, rule.lower) for hi, lo in itertools.combinations(pairs, 2)):
            return rule.name + (", the joker pairing the ace" if with_joker and g[0] == (0, 2) else "")
    return None


def _best(hand: list[Card], r: list[int], picks: list[Pick], wheel: bool, joker_ace: bool) -> tuple[HandValue, Pick]:
    """The highest low hand among ``picks``, then the highest high hand (§2: the tie-break)."""
    lows = [_LOW[r[i] * 16 + r[j]] for i, j in picks]
    top = max(lows)
    tied = [pick for pick, low in zip(picks, lows, strict=True) if low == top]
    if len(tied) > 1:
        return top, max(tied, key=lambda pick: _high_value(hand, pick, wheel, joker_ace))
    return top, tied[0]


_HIGHEST_LOW: Final = ", the highest low that keeps it"
_SUIT_DECIDES: Final = "equal top cards in the low: the higher suit goes low (spades, hearts, diamonds, clubs)"
_SUITED: Final = ("straight flush", "royal flush")


def _keep_straight_or_flush(
    way: HouseWay, hand: list[Card], r: list[int], kinds: dict[Pick, str], wheel: bool, joker_ace: bool
) -> tuple[Pick, str]:
    """Straight, flush, straight flush, royal flush: keep it high, with the highest low hand that keeps it (§2).

    ``kinds`` names every setting that keeps one, by its low hand. A straight flush
    is broken into a straight or flush when that puts at least a jack low, a royal
    flush when that puts at least a king low (the way's ranks).
    """
    if not way.straight_flush_preferred:
        return _highest_low_keeping_it(way, hand, r, kinds, wheel, joker_ace)
    plain = [pick for pick, kind in kinds.items() if kind not in _SUITED]
    suited = [pick for pick, kind in kinds.items() if kind in _SUITED]
    more = len({_LOW[r[i] * 16 + r[j]] for i, j in plain or suited}) > 1
    best_plain = _best(hand, r, plain, wheel, joker_ace) if plain else None
    if not suited:
        assert best_plain is not None
        return best_plain[1], f"{kinds[best_plain[1]]} kept high" + _HIGHEST_LOW * more
    low, pick = _best(hand, r, suited, wheel, joker_ace)
    name = kinds[pick]
    at_least = way.break_royal_flush_for if name == "royal flush" else way.break_straight_flush_for
    if best_plain is not None and best_plain[0] >= _LOW_TOPPED_BY[at_least] and best_plain[0] > low:
        card = {KING: "a king", JACK: "a jack"}.get(at_least, f"rank {at_least}")
        return best_plain[1], f"{name} broken into a {kinds[best_plain[1]]}: {card} or better goes low"
    return pick, f"{name} kept high" + _HIGHEST_LOW * more


def _low_by_rank_then_suit(r: list[int], pick: Pick) -> tuple[bool, int, int, int, int]:
    """The low hand ``pick`` as compared card by card, top card first, by rank then suit: a pair above
    no pair, then the top card, then the second. Within a rank the sorted hand runs joker (with the aces),
    spades, hearts, diamonds, clubs, so the earlier position is the higher suit."""
    i, j = pick
    return r[i] == r[j], r[i], -i, r[j], -j


def _highest_low_keeping_it(
    way: HouseWay, hand: list[Card], r: list[int], kinds: dict[Pick, str], wheel: bool, joker_ace: bool
) -> tuple[Pick, str]:
    """No preference for the straight flush (``straight_flush_preferred`` off): of every setting that keeps
    a straight, flush, straight flush or royal flush, the highest low hand; by the way's comparison of low
    hands (``low_by_rank_then_suit``), else by rank; ties to the higher high hand.

    By suit, the low hand that wins names the ranks that go low; where those ranks can go low
    more ways than one (other suits), the one with the highest high hand is played, as on every
    other hand (§2): the suits decide which ranks, never a lower high hand for the same low.
    """
    picks = list(kinds)
    if way.low_by_rank_then_suit:
        first = max(picks, key=lambda p: _low_by_rank_then_suit(r, p))
        low = _LOW[r[first[0]] * 16 + r[first[1]]]
        same = [p for p in picks if _LOW[r[p[0]] * 16 + r[p[1]]] == low]
        if len(same) > 1:
            first = max(same, key=lambda p: (_high_value(hand, p, wheel, joker_ace), _low_by_rank_then_suit(r, p)))
        pick = first
    else:
        pick = _best(hand, r, picks, wheel, joker_ace)[1]
    name = kinds[pick]
    suited = [kind for kind in kinds.values() if kind in _SUITED]
    if suited and name not in _SUITED:
        broken = "royal flush" if "royal flush" in suited else "straight flush"
        why = f"{broken} broken into a {name}: the highest low that keeps a straight or flush"
    else:
        why = f"{name} kept high" + _HIGHEST_LOW * (len({_LOW[r[i] * 16 + r[j]] for i, j in picks}) > 1)
    if way.low_by_rank_then_suit:
        pair, top, _, second, _ = _low_by_rank_then_suit(r, pick)
        # The suit decided when a low hand topped by the same rank would have won on ranks alone.
        rivals = [_low_by_rank_then_suit(r, other) for other in picks]
        if any(o[:2] == (pair, top) and o[3] > second for o in rivals):
            why += f"; {_SUIT_DECIDES}"
    return pick, why


def house_way_explained(
    cards7: Sequence[Card],
    way: str | HouseWay = "golden_nugget",
    *,
    wheel_second_highest: bool = True,
    joker_flush_as_ace: bool = False,
) -> tuple[Setting, str]:
    """The bank's setting by the house way, and the rule that chose it (§2, "House way").

    ``way`` is a name in ``HOUSE_WAYS`` or a ``HouseWay``. The hand is grouped once
    by rank, the joker as an ace. A straight or flush among the seven cards (the
    joker may fill it) is weighed first when the natural cards hold less than a full
    house: it is kept high with the highest low hand that keeps it, unless the way's
    two-pair exceptions send the hand to the pair rules (with a straight flush only
    where the way says so) or a straight flush is broken for a jack low (a royal
    flush for a king; or, where the way prefers no straight flush, whenever that
    gives a higher low, low hands then compared by rank and suit if the way says
    so). Every other hand is read off the way's tables. Where a rule leaves a choice (which
    suits, where the joker goes) the highest low hand, then the highest high hand,
    is taken. A fouled setting is never returned: the best one that does not foul
    replaces it.

    >>> from rules.games.cards import parse_cards
    >>> house_way_explained(parse_cards("9s 9h 9d 2c 2d Ah Kc"))[1]
    'full house kept: twos, and an ace and a king go low'
    >>> house_way_explained(parse_cards("9s 9h 9d 2c 2d Ah Kc"), "foxwoods")[1]
    'full house: the highest pair that does not foul goes low'
    """
    rules = way if isinstance(way, HouseWay) else _house_way(way)
    return _decide(cards7, rules, wheel_second_highest, joker_flush_as_ace)


def _decide(cards7: Sequence[Card], way: HouseWay, wheel: bool, joker_ace: bool) -> tuple[Setting, str]:
    """``house_way_explained`` with the way looked up and the options positional (the hot path)."""
    try:
        key = sum(map(_KEY.__getitem__, cards7))
    except (KeyError, TypeError):
        key = 0
    if len(cards7) != 7 or (key & _CARD_BITS).bit_count() != 7:
        _prepare(cards7)  # raises the dealer's words
    hand = sorted(cards7, key=_ORDER.__getitem__)
    r = [card.rank for card in hand]
    joker = hand[0] is JOKER
    if joker:
        r[0] = ACE  # the joker groups with the aces
    g, rule, straights_first = _SHAPES[tuple(map(ne, r, r[1:]))]
    prefix = ""
    # The joker plays as an ace unless it completes a straight or flush that the rules keep (§2), so
    # straights and flushes come first whenever the natural cards hold less than a full house.
    if straights_first or (joker and _natural_below_full_house(g)):
        suits = (key >> _SUIT_SHIFT) & 0xFFFF
        counts = key >> _RANK_SHIFT
        straights = _STRAIGHTS[(counts | counts >> 1 | counts >> 2) & _RANK_FIELDS][joker]
        flushes = _flush_suits(suits, joker) if (suits + (0x4444 if joker else 0x3333)) & 0x8888 else []
        if straights or flushes:
            kinds = _straight_or_flush_picks(hand, r, g, joker, flushes, straights)
            # The two-pair exceptions are the straight's and the flush's, not a straight flush's (unless the
            # way sends a straight flush with two pairs to the pair rules too).
            held = "royal flush" if "royal flush" in kinds.values() else "straight flush"
            held_straight_flush = held in kinds.values() and not way.pairs_over_straight_flush
            why = None if held_straight_flush or len(g) > 5 else _pairs_over_straight(way, r, g, joker)
            if why is None:
                if len(kinds) == 1:  # one setting keeps it: nothing to weigh
                    ((pick, why),) = kinds.items()
                    why += " kept high"
                else:
                    pick, why = _keep_straight_or_flush(way, hand, r, kinds, wheel, joker_ace)
                low_of, high_of = _SPLIT_AT[pick]
                return _setting(high_of(hand), low_of(hand)), why
            given_up = held if held in kinds.values() else "straight or flush"
            prefix = f"{given_up} given up for the pair rules ({why}); "
    preferences, reason = rule(way, r, g)
    if isinstance(preferences, tuple):  # one setting, and it cannot foul (see above)
        pick = preferences
    else:
        for lows in preferences:
            low, pick = _best(hand, r, lows, wheel, joker_ace)
            if low <= _high_value(hand, pick, wheel, joker_ace):
                break
        else:  # every preferred setting fouls (no way above does this): the best setting that does not
            fair = [p for p in _PICKS if _LOW[r[p[0]] * 16 + r[p[1]]] <= _high_value(hand, p, wheel, joker_ace)]
            pick = _best(hand, r, fair, wheel, joker_ace)[1]
            reason += "; that fouls, so the best setting that does not"
    low_of, high_of = _SPLIT_AT[pick]
    return _setting(high_of(hand), low_of(hand)), prefix + reason


def house_way(
    cards7: Sequence[Card],
    way: str | HouseWay = "golden_nugget",
    *,
    wheel_second_highest: bool = True,
    joker_flush_as_ace: bool = False,
) -> Setting:
    """The bank's setting by the house way (§2, "House way"); ``house_way_explained`` also says why.

    >>> from rules.games.cards import parse_cards
    >>> str(house_way(parse_cards("Kh Kc Qs Qd 9h 5c 3d")))
    'high: Kh Kc 9h 5c 3d, low: Qs Qd'
    """
    rules = HOUSE_WAYS.get(way) if type(way) is str else None
    return _decide(cards7, rules or _house_way(way), wheel_second_highest, joker_flush_as_ace)[0]


# --- settling (GAME_RULES.md §2, "Settling against the banker") --------------------------------


class Outcome(Enum):
    """A wager's result, from the player's side."""

    WIN = "win"
    PUSH = "push"
    LOSS = "loss"


FOUL_POLICIES: Final = ("forfeit", "house_way")


def outcome(
    player: Setting,
    banker: Setting,
    *,
    foul_policy: str = "forfeit",
    way: str | HouseWay = "golden_nugget",
    wheel_second_highest: bool = True,
    joker_flush_as_ace: bool = False,
) -> Outcome:
    """Settle a player's setting against the banker's (§2, "Settling against the banker", "Setting and fouls").

    The player wins when both hands beat the banker's; the banker wins when both
    player hands are lower or copies (copies go to the banker); otherwise push.
    A fouled bank hand is re-set by the house way ``way``. A fouled player hand
    loses (``foul_policy="forfeit"``) or is re-set by the house way
    (``foul_policy="house_way"``).

    >>> outcome(Setting.parse("As Ad 7s 4d 2c", "Kh Kc"), Setting.parse("Qs Qd 8s 5d 3c", "Jh Jc")).name
    'WIN'
    """
    if foul_policy not in FOUL_POLICIES:
        raise ValueError(f"unknown foul policy {foul_policy!r}: choose one of {', '.join(FOUL_POLICIES)}")
    rules = _house_way(way)
    check_distinct(player.cards + banker.cards)
    options = {"wheel_second_highest": wheel_second_highest, "joker_flush_as_ace": joker_flush_as_ace}
    player_high, player_low = high_hand(player.high, **options), low_hand(player.low)
    if player_low > player_high:
        if foul_policy == "forfeit":
            return Outcome.LOSS
        player = house_way(player.cards, rules, **options)
        player_high, player_low = high_hand(player.high, **options), low_hand(player.low)
    banker_high, banker_low = high_hand(banker.high, **options), low_hand(banker.low)
    if banker_low > banker_high:
        banker = house_way(banker.cards, rules, **options)
        banker_high, banker_low = high_hand(banker.high, **options), low_hand(banker.low)
    if player_high > banker_high and player_low > banker_low:
        return Outcome.WIN
    if player_high <= banker_high and player_low <= banker_low:
        return Outcome.LOSS
    return Outcome.PUSH
