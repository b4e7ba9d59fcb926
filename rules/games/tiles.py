"""Chinese dominoes: the 32-tile Pai Gow set (GAME_RULES.md §1, "The set", "Single-tile ranking").

A tile is two pip counts, 1 to 6, in no order: ``Tile(6, 5) == Tile(5, 6)``. There
are 21 faces; eleven come twice in the set, so the set holds 32 tiles. Every face
is one interned object, so ``parse_tiles`` and ``TILE_SET`` hand out the same
objects and comparisons are identity-fast.

Notation: the two pip counts joined by a hyphen, ``6-5`` or ``5-6``, separated by
any whitespace or commas. A hand may hold a face at most as often as the set does.

``Tile.index`` numbers the 21 faces 0..20 in single-tile ranking order (Teen 0,
Day 1, ... Look 10, then 6-3, 5-4, 6-2, 5-3, 5-2, 4-3, 4-2, 4-1, 3-2, 2-1), so a
lower index never ranks below a higher one in the seed's single-tile ranking.

>>> parse_tiles("6-6 4-2, 2-4")
Traceback (most recent call last):
...
rules.games.errors.InvalidHand: Gee Joon 4-2 appears 2 times; the set has 1
>>> hand = parse_tiles("6-6 2-4 1-3")
>>> [str(t) for t in hand], [t.name for t in hand]
(['6-6', '4-2', '3-1'], ['Teen', 'Gee Joon', 'Gor'])
>>> Tile(5, 6) == Tile(6, 5), Tile(6, 5).pips, Tile(6, 5).points
(True, 11, 1)
>>> len(TILE_FACES), len(TILE_SET), sum(COPIES.values())
(21, 32, 32)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Final

from rules.games.errors import InvalidHand

# The faces in single-tile ranking order, highest first (GAME_RULES.md §1), with their names and
# how many the set holds. Mixed groups (nines, eights, sevens, fives) rank equal within the group.
_FACES: Final = (
    ((6, 6), "Teen", 2),
    ((1, 1), "Day", 2),
    ((4, 4), "Yun", 2),
    ((3, 1), "Gor", 2),
    ((5, 5), "Mooy", 2),
    ((3, 3), "Chong", 2),
    ((2, 2), "Bon", 2),
    ((6, 5), "Foo", 2),
    ((6, 4), "Ping", 2),
    ((6, 1), "Tit", 2),
    ((5, 1), "Look", 2),
    ((6, 3), "mixed nine", 1),
    ((5, 4), "mixed nine", 1),
    ((6, 2), "mixed eight", 1),
    ((5, 3), "mixed eight", 1),
    ((5, 2), "mixed seven", 1),
    ((4, 3), "mixed seven", 1),
    ((4, 2), "Gee Joon", 1),
    ((4, 1), "mixed five", 1),
    ((3, 2), "mixed five", 1),
    ((2, 1), "Gee Joon", 1),
)


class Tile:
    """One face of a Chinese domino: ``high`` and ``low`` pips (high >= low), interned, immutable.

    ``pips`` is the total, ``points`` the total mod 10, ``name`` the dealer's name
    ("Teen", "mixed nine", "Gee Joon"), ``index`` 0..20 in single-tile ranking order,
    ``copies`` how many the set holds (1 or 2), ``key`` an additive key: a hand's summed
    keys name its multiset of faces (``KEY_BITS`` bits a face, holding its count).

    >>> Tile(1, 3), Tile(3, 1).name, Tile(3, 1).index
    (Tile('3-1'), 'Gor', 3)
    >>> Tile(7, 1)
    Traceback (most recent call last):
    ...
    rules.games.errors.InvalidHand: no such tile: 7-1 (pips run from 1 to 6)
    """

    __slots__ = ("high", "low", "pips", "points", "name", "index", "copies", "is_gee_joon", "key", "_text")

    high: int
    low: int
    pips: int
    points: int
    name: str
    index: int
    copies: int
    is_gee_joon: bool
    key: int
    _text: str

    def __new__(cls, a: int, b: int) -> Tile:
        """``Tile(6, 5)`` or ``Tile(5, 6)``: the one interned tile with those pips."""
        whole = all(isinstance(n, int) and not isinstance(n, bool) for n in (a, b))
        tile = _BY_PIPS.get((a, b)) if whole else None
        if tile is None:
            raise InvalidHand(f"no such tile: {a}-{b} (pips run from 1 to 6)")
        return tile

    @classmethod
    def _make(cls, high: int, low: int, name: str, index: int, copies: int) -> Tile:
        tile = object.__new__(cls)
        values = {
            "high": high,
            "low": low,
            "pips": high + low,
            "points": (high + low) % 10,
            "name": name,
            "index": index,
            "copies": copies,
            "is_gee_joon": name == "Gee Joon",
            # One additive key: the sum over a hand's tiles counts each face in its own 3-bit field,
            # so it names the multiset of faces whatever the order (at most 7 of a face: no carry).
            "key": 1 << (3 * index),
            "_text": f"{high}-{low}",
        }
        for key, value in values.items():
            object.__setattr__(tile, key, value)
        return tile

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("tiles are immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.high, self.low))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Tile({self._text!r})"

    def __lt__(self, other: Tile) -> bool:
        """Order by ``index``: the order of the single-tile ranking list, so sorting puts
        the highest-ranked tile first (Teen before Day before ... 2-1). This is a listing
        order; strength lives in hand values, where stronger is greater."""
        return self.index < other.index

    def __le__(self, other: Tile) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Tile) -> bool:
        return self.index > other.index

    def __ge__(self, other: Tile) -> bool:
        return self.index >= other.index

    @property
    def label(self) -> str:
        """The tile as a dealer says it: "Teen 6-6", "mixed nine 6-3"."""
        return f"{self.name} {self._text}"


TILE_FACES: Final[tuple[Tile, ...]] = tuple(
    Tile._make(pips[0], pips[1], name, index, copies) for index, (pips, name, copies) in enumerate(_FACES)
)
_BY_PIPS: Final[dict[tuple[int, int], Tile]] = {}
for _tile in TILE_FACES:
    _BY_PIPS[_tile.high, _tile.low] = _BY_PIPS[_tile.low, _tile.high] = _tile

KEY_BITS: Final = 3
COPIES: Final[dict[Tile, int]] = {tile: tile.copies for tile in TILE_FACES}
TILE_SET: Final[tuple[Tile, ...]] = tuple(tile for tile in TILE_FACES for _ in range(tile.copies))

_SEPARATORS: Final = re.compile(r"[\s,]+")
_TOKEN: Final = re.compile(r"\[?([1-6])\s*[-–]\s*([1-6])\]?")


def _parse_one(token: str) -> Tile:
    match = _TOKEN.fullmatch(token)
    if match is None:
        raise InvalidHand(f"{token!r} is not a tile: write its two pip counts, 1 to 6, joined by a hyphen, like 6-5")
    return _BY_PIPS[int(match[1]), int(match[2])]


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Parse tile notation; unknown tokens, and a face more often than the set holds it, raise ``InvalidHand``.

    Pips may be written either way round (``2-4`` is ``4-2``); the tiles come back
    in the order written.

    >>> [str(t) for t in parse_tiles("1-1,3-5  6-4")]
    ['1-1', '5-3', '6-4']
    >>> parse_tiles("6-6 6-6 6-6")
    Traceback (most recent call last):
    ...
    rules.games.errors.InvalidHand: Teen 6-6 appears 3 times; the set has 2
    >>> parse_tiles("6-6 7-7")
    Traceback (most recent call last):
    ...
    rules.games.errors.InvalidHand: '7-7' is not a tile: write its two pip counts, 1 to 6, joined by a hyphen, like 6-5
    """
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    tiles = tuple(_parse_one(t) for t in tokens)
    check_tile_counts(tiles)
    return tiles


def check_tile_counts(tiles: Iterable[Tile]) -> None:
    """Raise ``InvalidHand`` if a face appears more often than the 32-tile set holds it.

    >>> check_tile_counts([Tile(6, 3), Tile(3, 6)])
    Traceback (most recent call last):
    ...
    rules.games.errors.InvalidHand: mixed nine 6-3 appears 2 times; the set has 1
    """
    tiles = list(tiles)
    for tile in tiles:
        if not isinstance(tile, Tile):
            raise InvalidHand(f"tiles expected, got {tile!r}")
    for tile, count in Counter(tiles).items():
        if count > tile.copies:
            raise InvalidHand(f"{tile.label} appears {count} times; the set has {tile.copies}")


def check_tile_count(tiles: tuple[Tile, ...] | list[Tile], expected: int) -> None:
    """Raise ``InvalidHand`` unless there are exactly ``expected`` tiles."""
    if len(tiles) != expected:
        raise InvalidHand(f"{expected} tiles expected, got {len(tiles)}")


def tiles_text(tiles: Iterable[Tile]) -> str:
    """Tiles in notation, space-separated: the inverse of ``parse_tiles``."""
    return " ".join(str(t) for t in tiles)
