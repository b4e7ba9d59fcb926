"""The Pai Gow Poker house way for many hands at once, with NumPy (GAME_RULES.md §2).

``house_way_many(rows, way)`` takes an ``(N, 7)`` array of card indices
(``Card.index``: 0-51 rank-major, ``2s 2h 2d 2c 3s ... Ac``, and 52 for the
joker) and returns the bank's setting of every row as two arrays of card
indices, ``high`` ``(N, 5)`` and ``low`` ``(N, 2)``, each row in the order of
``Setting`` (joker, aces ... twos; within a rank ``s h d c``): row by row exactly
the cards of ``paigow_poker.house_way``.

Why a table can do it. ``house_way`` sorts the hand (joker, aces ... twos, suits
in ``s h d c`` order within a rank) and names the low hand by two positions in
the sorted hand. When no suit holds five cards (counting the joker) no flush or
straight flush can be made, and then every step of the interpreter reads only
the ranks of the sorted hand: the shape's rule, the straights, the values of the
high hands it weighs, and its tie-breaks (the first of equal choices, by
position). So the two positions depend only on the hand's rank multiset (the
joker a rank of its own). One hand of each of the 67,600 multisets is set once
by ``house_way`` (a second or so per way, cached), and the positions are stored
in a table indexed by the multiset's key: the sum of ``poker_batch.RANK_KEYS``
of its cards, which differs between any two multisets of seven.

Per batch, vectorised: sort each row's cards into the ``Setting`` order (a
sorting network on the seven columns), sum the rank keys, look the low positions
up and take the cards there. Rows where a suit holds five (about 4 per cent):

* exactly five of the suit, counting the joker, and no straight among the ranks
  (most of them): ``flush_rule_table`` says per multiset whether the flush is kept
  (the two other cards go low) or the way's two-pair exceptions send the hand to
  the pair rules (the rank table's positions stand);
* the rest (under 1 per cent of random hands: straights beside the flush, six or
  seven suited): a memo by rank multiset and the positions in the flush suit,
  which decide the setting there; a row not in it is set by ``house_way`` and
  added. The memo lives as long as the process (at most some 600,000 entries).

>>> import numpy as np
>>> from rules.games.cards import parse_cards
>>> from rules.games.paigow_poker import house_way
>>> hand = parse_cards("As Ad Kh Kc 7s 4d 2c")
>>> high, low = house_way_many(np.array([[c.index for c in hand]]))
>>> [str(ALL_CARDS[i]) for i in low[0]], [str(c) for c in house_way(hand).low]
(['Kh', 'Kc'], ['Kh', 'Kc'])
"""

from __future__ import annotations

import fcntl
import hashlib
import itertools
import os
import tempfile
import threading
import zipfile
from collections.abc import Iterable, Sequence
from functools import cache
from operator import ne
from pathlib import Path

import numpy as np
import numpy.typing as npt

from rules.games.cards import ALL_CARDS
from rules.games.errors import InvalidHand
from rules.games.paigow_poker import _SHAPES, _WINDOW, ACE, HouseWay, _pairs_over_straight, house_way
from rules.games.paigow_poker_hands import _ORDER, _PICKS
from rules.games.paigow_poker_ways import _house_way
from rules.games.poker_batch import RANK_KEYS

_JOKER_INDEX = 52
_CHUNK = 65536  # rows per step: the temporaries stay in cache

# A card index's place in the Setting order (0 the joker, then As Ah Ad Ac Ks ... 2c), and back.
INDEX_OF_ORDER: npt.NDArray[np.uint8] = np.array(
    [c.index for c in sorted(ALL_CARDS, key=_ORDER.__getitem__)], dtype=np.uint8
)
ORDER_OF_INDEX: npt.NDArray[np.uint8] = np.argsort(INDEX_OF_ORDER).astype(np.uint8)
# By place in the Setting order: the card's rank key (the joker the fourteenth "rank") and suit bits
# (one per suit in a byte each; the joker counts in every suit).
_RANK_KEY_OF_ORDER = np.array(
    [RANK_KEYS[13] if i == _JOKER_INDEX else RANK_KEYS[i // 4] for i in INDEX_OF_ORDER.tolist()], dtype=np.int32
)
_SUIT_OF_ORDER = np.array(
    [0x01010101 if i == _JOKER_INDEX else 1 << (8 * (i % 4)) for i in INDEX_OF_ORDER.tolist()], dtype=np.int32
)
_FIVE_BIAS = 0x03030303  # plus 3 per suit byte: bit 3 is set when the suit holds five (at most 7 + 3)
_FIVE_BITS = 0x08080808

_PICK_LOW = np.array(_PICKS, dtype=np.intp)  # (21, 2): positions in the sorted hand
_PICK_HIGH = np.array([[k for k in range(7) if k not in pick] for pick in _PICKS], dtype=np.intp)
_PICK_ID = {pick: n for n, pick in enumerate(_PICKS)}
_BIT_COUNT = np.array([bin(m).count("1") for m in range(128)], dtype=np.uint8)
# By a 7-bit mask of the sorted positions in the flush suit, five of them: the pick of the other two.
_PICK_OF_OTHERS = np.zeros(128, dtype=np.uint8)
for _pick, _n in _PICK_ID.items():
    _PICK_OF_OTHERS[127 ^ (1 << _pick[0]) ^ (1 << _pick[1])] = _n
_NO_ENTRY = 255
# The engine's modules whose code decides a setting: a stored memo is read only while they are unchanged.
# Every engine module (the house ways, the hands' values, the card indices, the rank keys the memo is keyed by): a
# change to any of them sets the memo again rather than read one another version of the code set.
_ENGINE_SOURCES = tuple(sorted(str(path) for path in Path(__file__).resolve().parent.glob("*.py")))

Ints = npt.NDArray[np.integer]


def rank_multisets() -> list[tuple[int, ...]]:
    """Every multiset of seven ranks, as rank indices 0-12 (deuce to ace) and 13 (the joker), ascending:
    each natural rank at most four times, the joker at most once (67,600 of them)."""
    out = []
    for jokers in (0, 1):
        for ranks in itertools.combinations_with_replacement(range(13), 7 - jokers):
            if max(ranks.count(r) for r in set(ranks)) <= 4:
                out.append(ranks + (13,) * jokers)
    return out


def _representative(ranks: tuple[int, ...]) -> list[int]:
    """Card indices with these ranks and suits dealt round-robin: no suit holds more than two."""
    return [_JOKER_INDEX if r == 13 else r * 4 + n % 4 for n, r in enumerate(ranks)]


@cache
def low_position_table(
    way: str | HouseWay, wheel_second_highest: bool, joker_flush_as_ace: bool
) -> npt.NDArray[np.uint8]:
    """By rank-multiset key: the pick (an index into ``_PICKS``) of the two positions in the sorted hand
    that ``house_way`` puts low for hands of that multiset that cannot make a flush; 255 elsewhere."""
    rules = _house_way(way)
    size = 4 * RANK_KEYS[12] + 2 * RANK_KEYS[11] + RANK_KEYS[13] + 1  # above every key of seven
    table = np.full(size, _NO_ENTRY, dtype=np.uint8)
    for ranks in rank_multisets():
        cards = [ALL_CARDS[i] for i in _representative(ranks)]
        setting = house_way(
            cards, rules, wheel_second_highest=wheel_second_highest, joker_flush_as_ace=joker_flush_as_ace
        )
        hand = sorted(cards, key=_ORDER.__getitem__)
        i, j = sorted(hand.index(card) for card in setting.low)
        key = sum(RANK_KEYS[r] for r in ranks)
        assert table[key] == _NO_ENTRY, "rank keys must differ between multisets of seven"
        table[key] = _PICK_ID[i, j]
    return table


FLUSH_UNKNOWN, FLUSH_KEPT, FLUSH_GIVEN_UP = 0, 1, 2


@cache
def flush_rule_table(way: str | HouseWay) -> npt.NDArray[np.uint8]:
    """By rank-multiset key, for hands of that multiset with exactly five cards of one suit, counting the
    joker: ``FLUSH_KEPT`` when the flush is kept high and the two other cards go low (no straight among the
    ranks, the joker filling a gap, and the way's two-pair exceptions do not apply), ``FLUSH_GIVEN_UP`` when
    those exceptions send two pairs or three pairs to the pair rules (whose low hand is named by position,
    as in ``low_position_table``), ``FLUSH_UNKNOWN`` otherwise (the hand is set one by one).

    Five suited cards leave two others, so the natural cards hold less than a full house, the only
    setting that keeps the flush puts the other two low, and without a straight no straight flush.
    """
    rules = _house_way(way)
    size = 4 * RANK_KEYS[12] + 2 * RANK_KEYS[11] + RANK_KEYS[13] + 1
    codes = np.full(size, FLUSH_UNKNOWN, dtype=np.uint8)
    for ranks in rank_multisets():
        joker = 13 in ranks
        present = {r + 2 for r in ranks if r != 13}
        if len(present) < 5 - joker or any(len(present.intersection(w)) >= 5 - joker for w in _WINDOW.values()):
            continue
        r = [ACE if rank == 13 else rank + 2 for rank in sorted(ranks, reverse=True)]
        runs = _SHAPES[tuple(map(ne, r, r[1:]))][0]
        shape = tuple(size for _, size in runs)
        given_up = len(runs) <= 5 and _pairs_over_straight(rules, r, runs, joker) is not None
        if given_up and shape not in ((2, 2, 1, 1, 1), (2, 2, 2, 1)):
            continue  # a rule that weighs high hands, which the flush may change: one by one
        codes[sum(RANK_KEYS[k] for k in ranks)] = FLUSH_GIVEN_UP if given_up else FLUSH_KEPT
    return codes


def _checked(rows: npt.ArrayLike, *, ranges: bool = True) -> Ints:
    """The rows as an integer array ``(N, 7)``; with ``ranges``, every index checked to be 0-52 (else the
    caller checks them chunk by chunk with ``_check_range``)."""
    array = np.asarray(rows)
    if array.ndim != 2 or array.shape[1] != 7:
        raise InvalidHand(f"an (N, 7) array of card indices expected, got shape {array.shape}")
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise InvalidHand(f"card indices are integers 0-52, got {array.dtype}")
    if ranges:
        _check_range(array)
    return array


def _check_range(array: Ints) -> None:
    if array.size and (array.min() < 0 or array.max() > _JOKER_INDEX):
        raise InvalidHand("card indices are 0-52 (52 the joker)")


# A sorting network for seven (16 compare-exchanges, in six rounds); the tests check it on every 0/1 input.
SORT7: tuple[tuple[int, int], ...] = (
    (0, 6), (2, 3), (4, 5), (0, 2), (1, 4), (3, 6), (0, 1), (2, 5), (3, 4), (1, 2), (4, 6), (2, 3), (4, 5),
    (1, 2), (3, 4), (5, 6),
)  # fmt: skip


def _sorted_places(chunk: Ints) -> npt.NDArray[np.uint8]:
    """Each row's places in the Setting order, ascending, as seven columns ``(7, n)``."""
    cols = ORDER_OF_INDEX[chunk.T]
    for i, j in SORT7:
        low = np.minimum(cols[i], cols[j])
        np.maximum(cols[i], cols[j], out=cols[j])
        cols[i] = low
    return cols


class _FlushMemo:
    """The low positions ``house_way`` chose for hands that can make a flush, by (rank-multiset key, the
    sorted positions in the flush suit): those two decide the setting as the ranks alone do otherwise.
    Grows as hands are set (at most about 600,000 entries); kept sorted for ``searchsorted``. ``complete``
    once it holds every such hand of the deck (``flush_memo_prepare``): nothing is set one by one any more.

    Shared by the threads of a process (a request's advice, the background warm-up): its keys and picks are one
    tuple, replaced whole and read once per call, and additions are made under a lock, so no reader pairs one
    addition's keys with another's picks and no addition is lost."""

    def __init__(self) -> None:
        self.state: tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]] = (
            np.empty(0, dtype=np.int64),
            np.empty(0, dtype=np.uint8),
        )
        self.complete = False
        self.lock = threading.Lock()

    @property
    def keys(self) -> npt.NDArray[np.int64]:
        return self.state[0]

    def find(self, keys: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]]:
        known, picks = self.state
        if not len(known):
            return np.zeros(len(keys), dtype=np.uint8), np.zeros(len(keys), dtype=bool)
        at = np.searchsorted(known, keys)
        at[at == len(known)] = 0
        return picks[at], known[at] == keys

    def add(self, keys: npt.NDArray[np.int64], picks: npt.NDArray[np.uint8]) -> None:
        with self.lock:
            known, kept = self.state
            both = np.concatenate([known, keys])
            order = np.argsort(both, kind="stable")
            self.state = (both[order], np.concatenate([kept, picks])[order])

    def publish(self, state: tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]) -> None:
        """A complete memo set or read elsewhere, put in place whole."""
        with self.lock:
            self.state = state
            self.complete = True


@cache
def _flush_memo(way: str | HouseWay, wheel_second_highest: bool, joker_flush_as_ace: bool) -> _FlushMemo:
    return _FlushMemo()


def flush_memo_complete(
    way: str | HouseWay = "golden_nugget", *, wheel_second_highest: bool = True, joker_flush_as_ace: bool = False
) -> bool:
    """Whether ``flush_memo_prepare`` has made this way's memo complete in this process."""
    return _flush_memo(way, wheel_second_highest, joker_flush_as_ace).complete


def flush_memo_size(
    way: str | HouseWay = "golden_nugget", *, wheel_second_highest: bool = True, joker_flush_as_ace: bool = False
) -> int:
    """How many hands ``house_way_many`` has set one by one (and memoised) for this way and options."""
    return len(_flush_memo(way, wheel_second_highest, joker_flush_as_ace).keys)


_POSITION_BITS = (1 << np.arange(7, dtype=np.int64))[:, None]


def _choose(items: Sequence[int], k: int) -> npt.NDArray[np.uint8]:
    """Every choice of ``k`` of ``items`` as rows ``(C(n, k), k)``."""
    rows = np.array(list(itertools.combinations(items, k)), dtype=np.uint8)
    return rows.reshape(len(rows), k)


def _joined(*parts: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Every row of the first part with every row of the next, and so on: the product, as one array."""
    out = parts[0]
    for part in parts[1:]:
        out = np.concatenate([np.repeat(out, len(part), axis=0), np.tile(part, (len(out), 1))], axis=1)
    return out


def flush_hands(rest: Iterable[int] | npt.NDArray[np.integer]) -> npt.NDArray[np.uint8]:
    """Every seven cards of ``rest`` (card indices, 52 the joker) in which a suit holds five, counting the joker:
    the hands ``house_way_many`` cannot set by their ranks alone, each once (two suits cannot both hold five in
    seven cards), as rows ``(N, 7)``. Of the whole deck: 6,416,124."""
    cards = sorted({int(c) for c in rest})
    joker = _JOKER_INDEX in cards
    blocks = []
    for suit in range(4):
        suited = [c for c in cards if c != _JOKER_INDEX and c % 4 == suit]
        others = [c for c in cards if c != _JOKER_INDEX and c % 4 != suit]
        for t in range(5, 8):
            blocks.append(_joined(_choose(suited, t), _choose(others, 7 - t)))
        if joker:
            for t in range(4, 7):
                blocks.append(_joined(_choose(suited, t), np.array([[_JOKER_INDEX]], np.uint8), _choose(others, 6 - t)))
    return np.concatenate([b for b in blocks if b.size] or [np.empty((0, 7), np.uint8)])


def _memo_fingerprint(way: str | HouseWay, options: tuple[bool, bool]) -> str:
    """What a stored memo was set by: the way, the options and the engine's own source (any change to how a hand
    is set makes a stored memo stale)."""
    digest = hashlib.sha256(repr((way if isinstance(way, str) else repr(way), options)).encode())
    for module in _ENGINE_SOURCES:
        digest.update(Path(module).read_bytes())
    return digest.hexdigest()[:16]


def flush_memo_file(directory: Path, way: str | HouseWay, options: tuple[bool, bool]) -> Path:
    """Where ``flush_memo_prepare`` keeps the complete memo of ``way`` and the options."""
    name = way if isinstance(way, str) else "custom"
    return directory / f"flush-memo-{name}-{_memo_fingerprint(way, options)}.npz"


def _memo_read(path: Path) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]] | None:
    """A stored memo, or None when the file is not one this engine wrote whole (it is then set again)."""
    try:
        with np.load(path) as stored:
            keys, picks = stored["keys"], stored["picks"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    if keys.dtype != np.int64 or picks.dtype != np.uint8 or keys.shape != picks.shape or keys.ndim != 1:
        return None
    if len(keys) > 1 and not bool((keys[1:] > keys[:-1]).all()):
        return None
    return keys, picks


def flush_memo_prepare(
    way: str | HouseWay = "golden_nugget",
    *,
    wheel_second_highest: bool = True,
    joker_flush_as_ace: bool = False,
    directory: Path | None = None,
) -> bool:
    """Make the memo of ``way`` complete: read from ``directory`` when a file set by this engine is there, else
    every flush hand of the deck set (about 100,000 of them one by one: seconds) and, with a ``directory``,
    written there. Afterwards ``house_way_many`` sets every row by its tables. Answers whether it was read.

    The memo is set aside and put in place whole once complete. Several processes starting at once (gunicorn's
    workers, a lab's chunks) take turns on a lock file: one sets and writes the memo, the others read it; the file
    is written under a name of its own and renamed, so no reader finds half of one. A file that cannot be read
    (cut short, not this engine's) is set again and replaced."""
    options = (wheel_second_highest, joker_flush_as_ace)
    memo = _flush_memo(way, *options)
    if memo.complete:
        return True
    if directory is None:
        memo.publish(_memo_set(way, options))
        return False
    path = flush_memo_file(directory, way, options)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also if this process dies
        stored = _memo_read(path) if path.exists() else None
        if stored is not None:
            memo.publish(stored)
            return True
        state = _memo_set(way, options)
        handle, partial = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".partial.npz")
        try:
            with os.fdopen(handle, "wb") as out:
                np.savez(out, keys=state[0], picks=state[1])
                out.flush()
                os.fsync(out.fileno())
            os.replace(partial, path)
        finally:
            if os.path.exists(partial):
                os.unlink(partial)
    memo.publish(state)
    return False


def _memo_set(way: str | HouseWay, options: tuple[bool, bool]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
    """Every flush hand of the deck set, into a memo of its own: the complete memo's keys and picks."""
    private = _FlushMemo()
    everything = flush_hands(range(53))
    for start in range(0, len(everything), 1_000_000):
        _house_way_many(everything[start : start + 1_000_000], way, options, private)
    return private.state


def _flush_keys(places: npt.NDArray[np.uint8], rank_keys: npt.NDArray[np.int64], suits: Ints) -> npt.NDArray[np.int64]:
    """For rows that can make a flush (``places`` as columns ``(7, n)``): the rank key times 128 plus a bit
    for each sorted position whose card is in the flush suit or is the joker (only one suit can hold five).

    That is enough for a way that compares low hands by suit (``HouseWay.low_by_rank_then_suit``): suits
    are compared only between cards of one rank, and within a rank the sorted positions run spades,
    hearts, diamonds, clubs, so which card of a rank is the higher suit is which comes first; with the
    bits saying which of them is the flush suit's, two hands of one key are set alike."""
    counts = np.stack([(suits >> (8 * s)) & 0xFF for s in range(4)])
    flush_suit = counts.argmax(axis=0)
    index = INDEX_OF_ORDER[places]
    inside = (index == _JOKER_INDEX) | (index % 4 == flush_suit)
    keys: npt.NDArray[np.int64] = rank_keys * 128 + (inside * _POSITION_BITS).sum(axis=0)
    return keys


def house_way_many(
    rows: npt.ArrayLike,
    way: str | HouseWay = "golden_nugget",
    *,
    wheel_second_highest: bool = True,
    joker_flush_as_ace: bool = False,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """The bank's setting of every row by the house way ``way``: ``(high, low)`` card indices, ``(N, 5)``
    and ``(N, 2)``, each row in the ``Setting`` order, equal to ``house_way`` row by row.

    Rows that can make a flush are looked up in a memo of hands set before (by ranks and which positions
    are in the flush suit); the ones not in it are set by ``house_way`` and added to it.

    Raises ``InvalidHand`` on a row that repeats a card or an index outside 0-52.
    """
    options = (wheel_second_highest, joker_flush_as_ace)
    return _house_way_many(rows, way, options, _flush_memo(way, *options))


def _house_way_many(
    rows: npt.ArrayLike, way: str | HouseWay, options: tuple[bool, bool], memo: _FlushMemo
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    hands = _checked(rows, ranges=False)
    table = low_position_table(way, *options)
    flush_rules = flush_rule_table(way)
    n = len(hands)
    high = np.empty((n, 5), dtype=np.uint8)
    low = np.empty((n, 2), dtype=np.uint8)
    for start in range(0, n, _CHUNK):
        chunk = hands[start : start + _CHUNK]
        _check_range(chunk)
        cols = _sorted_places(chunk)
        repeated = np.zeros(len(chunk), dtype=bool)
        for k in range(6):
            repeated |= cols[k] == cols[k + 1]
        if repeated.any():
            row = int(np.flatnonzero(repeated)[0])
            raise InvalidHand(f"row {start + row}: a card appears twice")
        rank_keys = _RANK_KEY_OF_ORDER[cols].sum(axis=0, dtype=np.int64)
        suits = _SUIT_OF_ORDER[cols].sum(axis=0)
        picks = table[rank_keys]
        flushable = np.flatnonzero((suits + _FIVE_BIAS) & _FIVE_BITS)
        if len(flushable):
            fkeys = _flush_keys(cols[:, flushable], rank_keys[flushable], suits[flushable])
            masks = (fkeys & 127).astype(np.intp)
            five = _BIT_COUNT[masks] == 5  # five of the suit, counting the joker
            rule = np.where(five, flush_rules[rank_keys[flushable]], FLUSH_UNKNOWN)
            kept = rule == FLUSH_KEPT
            picks[flushable[kept]] = _PICK_OF_OTHERS[masks[kept]]
            # FLUSH_GIVEN_UP: the table's pick stands.
            hard = np.flatnonzero(rule == FLUSH_UNKNOWN)
            if len(hard):
                fkeys, rows_hard = fkeys[hard], flushable[hard]
                found_picks, found = memo.find(fkeys)
                missing = np.flatnonzero(~found)
                if len(missing) and memo.complete:  # made complete while this batch ran: look again
                    found_picks, found = memo.find(fkeys)
                    missing = np.flatnonzero(~found)
                    if len(missing):
                        raise AssertionError("a complete memo misses a flush hand")  # flush_hands lists them all
                if len(missing):
                    new_keys, first = np.unique(fkeys[missing], return_index=True)
                    new_picks = np.array(
                        [_pick_of(chunk[rows_hard[missing[m]]], way, options) for m in first.tolist()], dtype=np.uint8
                    )
                    memo.add(new_keys, new_picks)
                    found_picks, found = memo.find(fkeys)
                picks[rows_hard] = found_picks
        places = cols.T
        high[start : start + len(chunk)] = INDEX_OF_ORDER[np.take_along_axis(places, _PICK_HIGH[picks], axis=1)]
        low[start : start + len(chunk)] = INDEX_OF_ORDER[np.take_along_axis(places, _PICK_LOW[picks], axis=1)]
    return high, low


def _pick_of(row: Ints, way: str | HouseWay, options: tuple[bool, bool]) -> int:
    """``house_way`` on one row: the pick (an index into ``_PICKS``) of its low positions in the sorted hand."""
    cards = [ALL_CARDS[i] for i in row.tolist()]
    setting = house_way(cards, way, wheel_second_highest=options[0], joker_flush_as_ace=options[1])
    hand = sorted(cards, key=_ORDER.__getitem__)
    i, j = sorted(hand.index(card) for card in setting.low)
    return _PICK_ID[i, j]


def flush_possible(rows: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Whether each row has a suit holding five cards, the joker counting in every suit: the rows that
    ``house_way_many`` looks up in its memo (or sets one by one) instead of its table of rank multisets."""
    places = ORDER_OF_INDEX[_checked(rows)]
    possible: npt.NDArray[np.bool_] = (_SUIT_OF_ORDER[places].sum(axis=1) + _FIVE_BIAS) & _FIVE_BITS != 0
    return possible


_TWO_CARD_CODES = 15 * 16  # low hands by (higher rank, lower rank), the joker rank 15


def low_hand_distribution(low: npt.ArrayLike) -> dict[tuple[int, int], int]:
    """How many low hands of each rank pair: ``(higher, lower)`` ranks 2-14 (a pair is ``(r, r)``), the
    joker counted as rank 15 (it plays as an ace in the low hand)."""
    cards = np.asarray(low)
    ranks = np.where(cards == _JOKER_INDEX, 15, cards // 4 + 2)
    hi, lo = ranks.max(axis=1), ranks.min(axis=1)
    counts = np.bincount(hi * 16 + lo, minlength=_TWO_CARD_CODES + 16)
    return {(int(c) // 16, int(c) % 16): int(counts[c]) for c in np.flatnonzero(counts)}
