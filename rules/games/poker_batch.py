"""Best five-card hand values for many hands at once, with NumPy (GAME_RULES.md §2).

``evaluate_many(hands)`` takes an ``(N, k)`` array of card indices, ``k`` 5 to 7
(``Card.index``: 0-51 rank-major, ``2s 2h 2d 2c 3s ... Ac``, and 52 for the
joker) and returns, row by row, exactly ``poker.best_hand(cards)[0]``: the
Pai Gow Poker ranking with five aces on top, the joker an ace or the card that
completes a straight, flush or straight flush, and the two rule options of
``rules.games.poker``.

How, per row (all vectorised, in chunks that stay in the processor's cache):

1. The cards as a 53-bit set, the sum of ``1 << index``. Distinct powers of
   two add without a carry, so the sum has ``k`` bits set exactly when no card
   repeats: that is the duplicate check.
2. The set's key, looked up in four tables by 14-bit spans of the set: the sum
   of the cards' keys, each card's key being

   * a per-rank key ``RANK_KEYS[rank]`` in bits 0-23, the joker a fourteenth
     "rank". The keys make the sums over every multiset of exactly seven ranks
     (2..A at most four times each, the joker at most once) differ; then sums
     over six and over five ranks differ too (add the same card to two colliding
     smaller multisets to get colliding sevens). So a table per hand size,
     indexed by the sum, holds the best non-flush value of the ranks;
   * a 4-bit count per suit in bits 24-39; the joker adds one to every suit and
     a bias adds 3, so bit 3 of a suit's nibble is set exactly when that suit
     (with the joker) holds five cards: a flush is possible.
3. The rows that can make a flush (a few per cent) look up the value of their
   suit's ranks (a 13-bit rank mask, twice over for the joker) and keep the
   better of the two values.

The rank keys are the greedy minimal ones: each key, in turn from the deuce to
the ace and then the joker, is the smallest number that keeps the sums of
seven apart, counting only the multisets that the keys still to come can
complete. ``_greedy_rank_keys`` re-derives them (a minute for all fourteen);
``tests/rules/test_poker_counts.py`` proves the sums unique. For the thirteen
natural ranks they are SKPokerEval's well-known keys; the joker comes last
because every other place gives a bigger table.

>>> import numpy as np
>>> from rules.games.cards import parse_cards
>>> from rules.games.poker import HandValue
>>> rows = np.array([[c.index for c in parse_cards(text)] for text in ("As Ks Qs Js Jk 2c 3d", "Ah Ad Ac As Jk 2c 3d")])
>>> [HandValue(v).describe() for v in evaluate_many(rows)]
['royal flush', 'five aces']
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

import numpy as np
import numpy.typing as npt

from rules.games.cards import ALL_CARDS, JOKER_RANK
from rules.games.errors import InvalidHand
from rules.games.poker import Category, _reference_value

# Deuce .. ace, then the joker (see the module docstring for how they were found).
RANK_KEYS: tuple[int, ...] = (
    0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181, 3262558,
)  # fmt: skip
_RANK_BITS = 24
_RANK_MASK = (1 << _RANK_BITS) - 1
_SUIT_BIAS = 0x3333 << _RANK_BITS  # plus 3 per suit nibble: its bit 3 is set when the suit holds five
_FLUSH_BITS = 0x8888 << _RANK_BITS
_JOKER_INDEX = 52
_JOKER_FLAG = 1 << 13  # in a flush rank mask, beside the 13 rank bits
_SPAN = 14  # card bits per span in _KEYS_BY_SPAN
_SUIT_CARDS = sum(1 << (4 * r) for r in range(13))  # card bits 2s 3s ... As: one suit, shifted by the suit
_CHUNK = 32768  # rows per step: the temporaries stay in cache

Int64s = npt.NDArray[np.int64]
Values = npt.NDArray[np.int32]


def _card_key(index: int) -> int:
    """A card's rank key plus its suit count: one in its suit's nibble, the joker one in every nibble."""
    if index == _JOKER_INDEX:
        return RANK_KEYS[13] + (0x1111 << _RANK_BITS)
    return RANK_KEYS[index // 4] + (1 << (_RANK_BITS + 4 * (index % 4)))


def _keys_by_span() -> tuple[Int64s, ...]:
    """Card keys summed over every set of the cards 0-13, 14-27, 28-41 and 42-52, indexed by the set's bits.

    The first table carries the suit bias, so the four lookups of a hand add it once.
    """
    tables = []
    for first in range(0, 53, _SPAN):
        width = min(_SPAN, 53 - first)
        sets = np.arange(1 << width, dtype=np.int64)
        table = np.full(1 << width, _SUIT_BIAS if first == 0 else 0, np.int64)
        for bit in range(width):
            table += (sets >> bit & 1) * _card_key(first + bit)
        tables.append(table)
    return tuple(tables)


_KEYS_BY_SPAN = _keys_by_span()


def _rank_key(ranks: tuple[int, ...]) -> int:
    return sum(RANK_KEYS[r - 2] for r in ranks)


def _multisets(size: int) -> list[tuple[int, ...]]:
    """Every multiset of ``size`` ranks, ascending: 2..A at most four times each, the joker at most once."""
    found = []
    for jokers in (0, 1):
        for combo in itertools.combinations_with_replacement(range(2, 15), size - jokers):
            if max(Counter(combo).values(), default=0) <= 4:
                found.append(combo + (JOKER_RANK,) * jokers)
    return found


@cache
def _best_nonflush(wheel_second_highest: bool) -> dict[tuple[int, ...], int]:
    """The best non-flush value of every multiset of 5 to 7 ranks.

    Five ranks are valued by ``poker._reference_value``; a bigger multiset is
    the best over dropping one of its ranks, which is the best five-subset.
    """
    options = {"wheel_second_highest": wheel_second_highest, "joker_flush_as_ace": False}
    best: dict[tuple[int, ...], int] = {m: int(_reference_value(m, False, **options)) for m in _multisets(5)}
    for size in (6, 7):
        for m in _multisets(size):
            best[m] = max(best[m[:i] + m[i + 1 :]] for i in range(size) if i == 0 or m[i] != m[i - 1])
    return best


@cache
def _nonflush_table(size: int, wheel_second_highest: bool) -> tuple[npt.NDArray[np.uint16], Values]:
    """Best non-flush value of ``size`` cards by their rank-key sum: (sum -> value number, the values).

    The values are numbered (about 6,200 distinct) so that the big table holds
    two bytes an entry and fits in the processor's cache.
    """
    best = _best_nonflush(wheel_second_highest)
    multisets = _multisets(size)
    sums = np.array([_rank_key(m) for m in multisets], np.int64)
    values, numbers = np.unique(np.array([best[m] for m in multisets], np.int32), return_inverse=True)
    table = np.zeros(int(sums.max()) + 1, np.uint16)
    table[sums] = numbers
    table.flags.writeable = False
    values.flags.writeable = False
    return table, values


@cache
def _flush_table(wheel_second_highest: bool, joker_flush_as_ace: bool) -> Values:
    """Best value of one suit's cards, indexed by their rank mask (bit ``rank - 2``), plus 8192 with the joker.

    0 where the cards (with the joker) are fewer than five: no flush.
    """
    options = {"wheel_second_highest": wheel_second_highest, "joker_flush_as_ace": joker_flush_as_ace}
    table = np.zeros(2 * _JOKER_FLAG, np.int32)
    # Fewest cards first, so that every smaller hand is already valued.
    for mask in sorted(range(2 * _JOKER_FLAG), key=lambda m: m.bit_count()):
        ranks = tuple(r + 2 for r in range(13) if mask >> r & 1) + ((JOKER_RANK,) if mask & _JOKER_FLAG else ())
        if len(ranks) == 5:
            table[mask] = _reference_value(ranks, True, **options)
        elif len(ranks) > 5:
            table[mask] = max(table[mask & ~(1 << b)] for b in range(14) if mask >> b & 1)
    table.flags.writeable = False
    return table


def _check_shape(hands: npt.ArrayLike) -> npt.NDArray[np.integer]:
    array = np.asarray(hands)
    if array.ndim != 2:
        raise InvalidHand(f"a table of hands expected (one row of card indices a hand), got shape {array.shape}")
    if array.dtype.kind not in "iu":
        raise InvalidHand(f"card indices (integers 0-52) expected, got {array.dtype}")
    if not 5 <= array.shape[1] <= 7:
        raise InvalidHand(f"5 to 7 cards per hand expected, got {array.shape[1]}")
    return array


def _raise_out_of_range(chunk: npt.NDArray[np.integer], first_row: int) -> None:
    row, col = np.argwhere((chunk < 0) | (chunk > _JOKER_INDEX))[0]
    raise InvalidHand(f"hand {first_row + row}: {chunk[row, col]} is not a card index (0-51, or 52 for the joker)")


def _raise_duplicate(chunk: npt.NDArray[np.integer], bad: npt.NDArray[np.bool_], first_row: int) -> None:
    row = int(np.flatnonzero(bad)[0])
    counts = Counter(int(i) for i in chunk[row])
    card = ALL_CARDS[next(i for i, n in counts.items() if n > 1)]
    raise InvalidHand(f"hand {first_row + row}: {card.symbol} appears twice")


def _card_sets(chunk: npt.NDArray[np.integer]) -> Int64s:
    """Each row's cards as a 53-bit set: the sum of ``1 << index`` (indices already checked to be 0-52)."""
    total: Int64s = np.left_shift(1, chunk[:, 0], dtype=np.int64, casting="unsafe")
    for col in range(1, chunk.shape[1]):
        total += np.left_shift(1, chunk[:, col], dtype=np.int64, casting="unsafe")
    return total


def _keys_of(card_sets: Int64s) -> Int64s:
    """The summed card keys (plus the suit bias) of each set of distinct cards, four lookups a row."""
    t0, t1, t2, t3 = _KEYS_BY_SPAN
    span = (1 << _SPAN) - 1
    key: Int64s = t0.take(card_sets & span, mode="clip")
    key += t1.take(card_sets >> _SPAN & span, mode="clip")
    key += t2.take(card_sets >> 2 * _SPAN & span, mode="clip")
    key += t3.take(card_sets >> 3 * _SPAN, mode="clip")
    return key


def _flush_masks(card_sets: Int64s, flush_bits: Int64s) -> Int64s:
    """The flush table index of rows whose flush suit (one bit of ``_FLUSH_BITS`` each) holds five cards or more.

    The suit's cards sit four bits apart; multiplying by 0x249 (bits 0, 3, 6, 9)
    copies every card bit to four places, all different (4j + 3i never repeats
    for i < 4), and the copies of ranks 4q..4q+3 land side by side at bits
    16q + 9 .. 16q + 12, whence four masks collect the 13 rank bits.
    """
    suit = np.bitwise_count((flush_bits >> (_RANK_BITS + 3)) - 1).astype(np.int64) >> 2
    spaced = (card_sets >> suit) & _SUIT_CARDS
    packed = (spaced * 0x249) >> 9
    masks: Int64s = (packed & 0xF) | (packed >> 12 & 0xF0) | (packed >> 24 & 0xF00) | (packed >> 36 & 0x1000)
    return masks | (card_sets >> _JOKER_INDEX) * _JOKER_FLAG


def evaluate_many(
    hands: npt.ArrayLike, *, wheel_second_highest: bool = True, joker_flush_as_ace: bool = False
) -> Values:
    """``poker.best_hand(row)[0]`` for every row of card indices, as an ``int32`` array.

    ``hands`` is ``(N, k)``, ``k`` 5 to 7, of ``Card.index`` values (52 is the
    joker). A row with an index outside 0-52 or a card twice raises
    ``InvalidHand`` naming the row and the card.
    """
    array = _check_shape(hands)
    n, size = array.shape
    numbers, nonflush = _nonflush_table(size, wheel_second_highest)
    flush = _flush_table(wheel_second_highest, joker_flush_as_ace)
    unsigned = array.view(array.dtype.str.replace("i", "u"))  # a negative index reads as a huge one
    out = np.empty(n, np.int32)
    for start in range(0, n, _CHUNK):
        stop = min(start + _CHUNK, n)
        chunk = array[start:stop]
        if unsigned[start:stop].max() > _JOKER_INDEX:
            _raise_out_of_range(chunk, start)
        card_sets = _card_sets(chunk)
        # Distinct powers of two add without a carry: k bits set exactly when no card repeats.
        repeats = np.bitwise_count(card_sets) != size
        if repeats.any():
            _raise_duplicate(chunk, repeats, start)
        key = _keys_of(card_sets)
        values = nonflush.take(numbers.take(key & _RANK_MASK, mode="clip"), mode="clip", out=out[start:stop])
        flush_bits = key & _FLUSH_BITS
        rows = np.flatnonzero(flush_bits)
        if rows.size:
            values[rows] = np.maximum(values[rows], flush.take(_flush_masks(card_sets[rows], flush_bits[rows])))
    return out


def category_counts(values: npt.ArrayLike) -> dict[Category, int]:
    """How many of ``values`` (hand values as from ``evaluate_many``) fall in each category, weakest first."""
    counts = np.bincount(np.asarray(values, np.int64) >> 20, minlength=len(Category))
    return {category: int(counts[category]) for category in Category}


def _greedy_rank_keys(count: int = 14, caps: tuple[int, ...] = (4,) * 13 + (1,), size: int = 7) -> list[int]:
    """Re-derive the first ``count`` of ``RANK_KEYS``: each key the smallest that keeps sums over ``size`` cards apart.

    A symbol ``i`` may appear ``caps[i]`` times. When key ``i`` is chosen, only
    the multisets that the later symbols can still fill up to ``size`` must
    stay apart. Two multisets ``A + j x`` and ``B + j' x`` collide when
    ``(j - j') * key = sum(B) - sum(A)``, so the forbidden keys are the
    differences of sums of multisets ``d`` cards apart in size, divided by ``d``;
    FFT cross-correlation of the sums' indicator vectors finds every difference.
    """
    keys: list[int] = []
    for i, cap in enumerate(caps[:count]):
        sizes = np.zeros(1, np.int64)
        sums = np.zeros(1, np.int64)
        for key, c in zip(keys, caps, strict=False):
            grown = [(sizes[sizes + j <= size] + j, sums[sizes + j <= size] + j * key) for j in range(c + 1)]
            sizes = np.concatenate([g[0] for g in grown])
            sums = np.concatenate([g[1] for g in grown])
        top = int(sums.max()) + 1
        length = 1 << (2 * top).bit_length()
        spectra = {}
        for a in range(size + 1):
            indicator = np.zeros(length)
            np.add.at(indicator, sums[sizes == a], 1)
            spectra[a] = np.fft.rfft(indicator)
        forbidden = np.zeros(top + 1, bool)
        smallest = max(0, size - sum(caps[i + 1 :]) - cap)
        for d in range(1, cap + 1):
            corr = np.zeros(length)
            for a in range(smallest, size - d + 1):
                corr += np.fft.irfft(np.conj(spectra[a]) * spectra[a + d], length)
            gaps = np.flatnonzero(corr[:top] > 0.5)
            forbidden[gaps[gaps % d == 0] // d] = True
        keys.append(int(np.flatnonzero(~forbidden)[0]))
    return keys
