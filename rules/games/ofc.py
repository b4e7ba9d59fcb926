"""Open-Face Chinese Poker under the Mainz rules: boards, fouls, royalties and scoring (GAME_RULES.md §4).

Each player builds a ``Board`` in the open: a first street of five cards, then
one card a street, until the front holds 3 cards and the middle and back 5 each
(13 cards, nine streets). A placed card never moves, so a ``Board`` is
immutable and ``place`` returns the next one; a placement the rules forbid
raises ``InvalidHand`` in a dealer's words.

A finished board fouls when its rows do not ascend: the back must not rank below
the middle, nor the middle below the front, on the one scale of
``rules.games.poker`` with the wheel the lowest straight (seed; equal is allowed,
practice, as in Chinese Poker). Royalties come from a table (``ROYALTY_TABLES``:
``mainz``, the seed's, by default, and ``standard``, the modern common one);
a fouled board earns none.

``score`` settles every player against every other (seed): one point a row, a
tied row nothing, three more for winning all three rows (so 3-0 is +6, 2-1 +1,
1-2 -1, 0-3 -6), then the difference of the two players' royalties. A fouled
board loses 6 to each opponent plus that opponent's royalties; two fouled boards
score nothing against each other. With ``fantasyland=True`` the sheet also names
the players who qualify: QQ or better in front without fouling (practice).

>>> board = Board.empty().place({"front": "Qs Qd", "middle": "9c 9h", "back": "Ac"})
>>> board.street, board.next_street_size
(1, 1)
>>> board = board.place("Ad", "back")
>>> board.place("Kh", "front").front
(Card('Qs'), Card('Qd'), Card('Kh'))
>>> board.place("7h", "front").place("2c", "front")
Traceback (most recent call last):
...
rules.games.errors.InvalidHand: the front is full: it holds 3 cards
>>> me = Board.from_rows("Qs Qd 4c", "9c 9h 7d 7s 2h", "Ac Ad Ah 3s 3d")
>>> royalties(me), royalties(me, table="standard")
(13, 13)
>>> other = Board.from_rows("Ks Kd 5c", "Jc Th 8d 7c 2d", "As 6d 6c 6h 4s")
>>> is_foul(other)
True
>>> sheet = score({"ann": me, "bob": other})
>>> sheet.totals
{'ann': 19, 'bob': -19}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

from rules.games.cards import (
    CARD_BITS,
    CARDS,
    SUIT_BITS,
    Card,
    cards_text,
    check_distinct,
    check_jokerless,
    parse_cards,
)
from rules.games.errors import InvalidHand
from rules.games.poker import Category, HandValue, front_hand, high_hand

Row = Literal["front", "middle", "back"]
Cards = tuple[Card, ...]
CardsLike = Iterable[Card] | Card | str

ROWS: Final[tuple[Row, Row, Row]] = ("front", "middle", "back")
ROW_SIZES: Final[Mapping[str, int]] = {"front": 3, "middle": 5, "back": 5}
BOARD_SIZE: Final = 13
FIRST_STREET: Final = 5  # cards placed on the first street; one on each street after it (seed)
STREETS: Final = 1 + BOARD_SIZE - FIRST_STREET
SCOOP_BONUS: Final = 3  # "all three rows better +6" on top of a point a row
FOUL_PENALTY: Final = 6  # a fouled board pays as if scooped
PLAYERS: Final = (2, 4)  # two to four players (seed)

_RANK_SHIFT: Final = CARD_BITS + SUIT_BITS
_CATEGORY_SHIFT: Final = 20  # a HandValue's category sits above five 4-bit rank fields


def _as_cards(cards: CardsLike, where: str) -> Cards:
    """Cards from card objects or notation; anything else is refused naming ``where``."""
    if isinstance(cards, str):
        result = parse_cards(cards)
    elif isinstance(cards, Card):
        result = (cards,)
    else:
        result = tuple(cards)
    return check_jokerless(result, where=where, game="Open-Face Chinese Poker")


def _check_row(row: object) -> Row:
    if row not in ROW_SIZES:
        raise InvalidHand(f"no such row: {row!r} (rows are front, middle and back)")
    return row  # type: ignore[return-value]


# --- the board, street by street (GAME_RULES.md §4, first paragraph) --------------------------


@dataclass(frozen=True, slots=True)
class Board:
    """One player's three rows as placed so far, each in the order its cards were placed (§4).

    ``street`` is the number of streets played: 0 for an empty board, 1 after the
    first five cards, 9 when all 13 are placed. Build one with ``Board.empty()``
    and ``place``, or a finished one with ``Board.from_rows``.

    >>> Board.empty().place({"front": "As", "middle": "Kd Kc"})
    Traceback (most recent call last):
    ...
    rules.games.errors.InvalidHand: the first street places 5 cards, got 3
    """

    front: Cards = ()
    middle: Cards = ()
    back: Cards = ()
    _bits: int = field(default=0, repr=False, compare=False)
    # A finished board's row values and foul, worked out once when its last card is placed.
    _values: RowValues | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        bits = 0
        for row in ROWS:
            cards = _as_cards(getattr(self, row), row)
            if len(cards) > ROW_SIZES[row]:
                raise InvalidHand(f"the {row} holds {ROW_SIZES[row]} cards, got {len(cards)}")
            object.__setattr__(self, row, cards)
            for card in cards:
                if bits >> card.index & 1:
                    raise InvalidHand(f"{card.symbol} appears twice")
                bits |= 1 << card.index
        count = bits.bit_count()
        if 0 < count < FIRST_STREET:
            raise InvalidHand(f"the first street places {FIRST_STREET} cards, got {count}")
        object.__setattr__(self, "_bits", bits)
        if count == BOARD_SIZE:
            object.__setattr__(self, "_values", _row_values_of(self))

    @classmethod
    def empty(cls) -> Board:
        """A board before the first street."""
        return cls()

    @classmethod
    def from_rows(cls, front: CardsLike, middle: CardsLike, back: CardsLike) -> Board:
        """A finished board: 3, 5 and 5 cards, as notation or cards.

        >>> Board.from_rows("As Ad", "Kd Kc 2c 3c 4c", "Qs Qh Qd 9c 8h")
        Traceback (most recent call last):
        ...
        rules.games.errors.InvalidHand: a finished front holds 3 cards, got 2
        """
        rows = {
            "front": _as_cards(front, "front"),
            "middle": _as_cards(middle, "middle"),
            "back": _as_cards(back, "back"),
        }
        for row, cards in rows.items():
            if len(cards) != ROW_SIZES[row]:
                raise InvalidHand(f"a finished {row} holds {ROW_SIZES[row]} cards, got {len(cards)}")
        return cls(rows["front"], rows["middle"], rows["back"])

    @property
    def cards(self) -> Cards:
        """Every placed card, front, then middle, then back."""
        return self.front + self.middle + self.back

    @property
    def card_count(self) -> int:
        return self._bits.bit_count()

    @property
    def street(self) -> int:
        """Streets played: 0 empty, 1 after the first five cards, one more for each card after them, 9 complete."""
        count = self._bits.bit_count()
        return 0 if count == 0 else 1 + count - FIRST_STREET

    @property
    def next_street_size(self) -> int:
        """Cards the next street places: 5 on an empty board, 1 after it, 0 when the board is complete."""
        count = self._bits.bit_count()
        return FIRST_STREET if count == 0 else (0 if count == BOARD_SIZE else 1)

    @property
    def complete(self) -> bool:
        return self._bits.bit_count() == BOARD_SIZE

    def row(self, name: str) -> Cards:
        """The cards of row ``name`` (``front``, ``middle`` or ``back``)."""
        cards: Cards = getattr(self, _check_row(name))
        return cards

    def holds(self, card: Card) -> bool:
        return bool(self._bits >> card.index & 1)

    def place(self, cards: Mapping[str, CardsLike] | Card | str, row: str | None = None) -> Board:
        """The board after one street: ``place({"front": [...], "back": [...]})`` or ``place(card, "middle")``.

        The street must place exactly its number of cards (5 first, then 1), none
        already on this board, into rows with room for them; cards never move.

        >>> board = Board.from_rows("As Ad 2c", "Kd Kc 3c 4c 5c", "Qs Qh Qd 9c 8h")
        >>> board.place("7h", "front")
        Traceback (most recent call last):
        ...
        rules.games.errors.InvalidHand: the board is complete: all 13 cards are placed
        """
        if isinstance(cards, Mapping):
            if row is not None:
                raise InvalidHand("name the rows in the placement, or place one card into one row, not both")
            placement = {_check_row(name): _as_cards(value, name) for name, value in cards.items()}
        else:
            if row is None:
                raise InvalidHand("name the row the card goes to: front, middle or back")
            placement = {_check_row(row): _as_cards(cards, row)}
        wanted = self.next_street_size
        if wanted == 0:
            raise InvalidHand(f"the board is complete: all {BOARD_SIZE} cards are placed")
        placed = [card for new in placement.values() for card in new]
        if len(placed) != wanted:
            if self.street == 0:
                raise InvalidHand(f"the first street places {FIRST_STREET} cards, got {len(placed)}")
            raise InvalidHand(f"street {self.street + 1} places 1 card, got {len(placed)}")
        check_distinct(placed)
        for card in placed:
            if self.holds(card):
                raise InvalidHand(f"{card.symbol} is already on this board")
        rows = {name: self.row(name) for name in ROWS}
        for name, new in placement.items():
            if len(rows[name]) + len(new) > ROW_SIZES[name]:
                if len(rows[name]) == ROW_SIZES[name]:
                    raise InvalidHand(f"the {name} is full: it holds {ROW_SIZES[name]} cards")
                room = ROW_SIZES[name] - len(rows[name])
                raise InvalidHand(f"the {name} has room for {room} more, got {len(new)}")
            rows[name] = rows[name] + new
        return Board(rows["front"], rows["middle"], rows["back"])

    def __str__(self) -> str:
        return " / ".join(f"{row}: {cards_text(self.row(row))}" for row in ROWS)


def is_complete(board: Board) -> bool:
    """Whether all 13 cards are placed."""
    return board.complete


# --- values, fouls and royalties (GAME_RULES.md §4, "Royalties", "Fouls") ----------------------


@dataclass(frozen=True, slots=True)
class RowValues:
    """A finished board's three row values on the one scale (wheel lowest) and whether the rows fail to ascend."""

    front: HandValue
    middle: HandValue
    back: HandValue
    foul: bool


def _require_complete(board: Board) -> None:
    if not isinstance(board, Board):
        raise InvalidHand(f"a board expected, got {board!r}")
    if not board.complete:
        raise InvalidHand(f"the board is not finished: {board.card_count} of {BOARD_SIZE} cards placed")


def row_values(board: Board) -> RowValues:
    """The values of a finished board's rows, and its foul (§4, "Fouls").

    >>> row_values(Board.from_rows("Qs Qd 4c", "Jc Jh 7d 7s 2h", "5c 4d 3h 2s Ah")).middle.describe()
    'two pair, jacks and sevens'
    """
    _require_complete(board)
    assert board._values is not None  # set when the last card was placed
    return board._values


def _row_values_of(board: Board) -> RowValues:
    front = front_hand(board.front)
    middle = high_hand(board.middle, wheel_second_highest=False)
    back = high_hand(board.back, wheel_second_highest=False)
    return RowValues(front, middle, back, front > middle or middle > back)


def is_foul(board: Board) -> bool:
    """Whether a finished board's rows fail to ascend: front above middle, or middle above back (§4, "Fouls").

    >>> is_foul(Board.from_rows("Qs Qd 4c", "Jc Jh 7d 7s 2h", "5c 4d 3h 2s Ah"))   # the wheel is still a straight
    False
    >>> is_foul(Board.from_rows("Qs Qd 4c", "Jc Jh 7d 7s 2h", "5c 4d 3h 2s 9h"))
    True
    """
    return row_values(board).foul


@dataclass(frozen=True, slots=True)
class RoyaltyTable:
    """Royalties a row earns, as data: by category in the middle and back, by rank for front pairs and trips."""

    name: str
    middle: Mapping[int, int]  # by Category (an int)
    back: Mapping[int, int]
    front_pairs: Mapping[int, int]
    front_trips: Mapping[int, int]


# Front (seed): 66 -> 1 ... AA -> 9, 222 -> 10 ... AAA -> 22; the seed's QQ row is blank, 7 follows the sequence.
_FRONT_PAIRS: Final = {rank: rank - 5 for rank in range(6, 15)}
_FRONT_TRIPS: Final = {rank: rank + 8 for rank in range(2, 15)}
S, F, FH, Q, SF, RF, T = (
    Category.STRAIGHT,
    Category.FLUSH,
    Category.FULL_HOUSE,
    Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
    Category.ROYAL_FLUSH,
    Category.THREE_OF_A_KIND,
)
ROYALTY_TABLES: Final[Mapping[str, RoyaltyTable]] = {
    # GAME_RULES.md §4, the seed's table (ofc_royalties = mainz).
    "mainz": RoyaltyTable(
        "mainz",
        middle={S: 4, F: 8, FH: 12, Q: 16, SF: 20, RF: 40},
        back={S: 2, F: 4, FH: 6, Q: 8, SF: 10, RF: 20},
        front_pairs=_FRONT_PAIRS,
        front_trips=_FRONT_TRIPS,
    ),
    # GAME_RULES.md §4, the modern common table (practice).
    "standard": RoyaltyTable(
        "standard",
        middle={T: 2, S: 4, F: 8, FH: 12, Q: 20, SF: 30, RF: 50},
        back={S: 2, F: 4, FH: 6, Q: 10, SF: 15, RF: 25},
        front_pairs=_FRONT_PAIRS,
        front_trips=_FRONT_TRIPS,
    ),
}
del S, F, FH, Q, SF, RF, T


def royalty_table(table: str | RoyaltyTable) -> RoyaltyTable:
    """A royalty table by name (``mainz``, ``standard``), or the table itself."""
    if isinstance(table, RoyaltyTable):
        return table
    try:
        return ROYALTY_TABLES[table]
    except (KeyError, TypeError):
        raise ValueError(f"unknown royalty table {table!r}: choose one of {', '.join(ROYALTY_TABLES)}") from None


def _front_royalty(value: HandValue, table: RoyaltyTable) -> int:
    category, top = value >> _CATEGORY_SHIFT, value >> 16 & 0xF  # the first rank field: the pair's or trips' rank
    if category == Category.THREE_OF_A_KIND:
        return table.front_trips.get(top, 0)
    if category == Category.ONE_PAIR:
        return table.front_pairs.get(top, 0)
    return 0


def _royalties_of(values: RowValues, table: RoyaltyTable) -> tuple[int, int, int]:
    if values.foul:
        return (0, 0, 0)
    return (
        _front_royalty(values.front, table),
        # An IntEnum hashes as its int, so the category number finds its Category key.
        table.middle.get(values.middle >> _CATEGORY_SHIFT, 0),
        table.back.get(values.back >> _CATEGORY_SHIFT, 0),
    )


def royalties_by_row(board: Board, table: str | RoyaltyTable = "mainz") -> tuple[int, int, int]:
    """(front, middle, back) royalties of a finished board; all 0 when it fouls (§4, "Royalties").

    >>> royalties_by_row(Board.from_rows("Ks Kd 4c", "7h 7d 7s 2c 2h", "8c 9c Tc Jc Qc"))
    (8, 12, 10)
    """
    return _royalties_of(row_values(board), royalty_table(table))


def royalties(board: Board, table: str | RoyaltyTable = "mainz") -> int:
    """The royalties a finished board earns from each opponent; 0 when it fouls (§4, "Royalties")."""
    return sum(royalties_by_row(board, table))


def qualifies_for_fantasyland(board: Board) -> bool:
    """QQ or better in front without fouling (§4, Fantasyland, practice).

    >>> qualifies_for_fantasyland(Board.from_rows("Qs Qd 2c", "Kc Kh 7d 7s 2h", "Ac Ad Ah 3s 3d"))
    True
    """
    return _fantasyland(row_values(board))


_QUEENS: Final = HandValue.of(Category.ONE_PAIR, (12,))  # below every pair of queens, whatever its kicker


def _fantasyland(values: RowValues) -> bool:
    return not values.foul and values.front >= _QUEENS


# --- scoring, each against each (GAME_RULES.md §4, "Scoring", "Fouls") --------------------------


@dataclass(frozen=True, slots=True)
class PairScore:
    """What ``player`` scores against ``opponent``: the negation of the reverse pair.

    ``rows`` is +1, 0 or -1 for front, middle and back (all 0 when either fouls);
    ``row_points`` their sum, ``scoop`` +3, -3 or 0, ``foul`` the ±6 of a
    fouled board, ``royalties`` the player's royalties less the opponent's as
    paid between them, and ``total`` the sum.
    """

    player: str
    opponent: str
    rows: tuple[int, int, int]
    row_points: int
    scoop: int
    foul: int
    royalties: int
    total: int


@dataclass(frozen=True, slots=True)
class OfcScoreSheet:
    """A round's scores: every ordered pair, each player's total (zero-sum) and the facts behind them."""

    pairs: Mapping[tuple[str, str], PairScore]
    totals: Mapping[str, int]
    royalties: Mapping[str, int]
    fouls: frozenset[str]
    fantasyland: frozenset[str]
    table: str

    def totals_cents(self, cents_per_point: int) -> dict[str, int]:
        """Each total in integer cents at one value per point."""
        return {player: points * cents_per_point for player, points in self.totals.items()}


def _sign(a: int, b: int) -> int:
    return (a > b) - (a < b)


def _pair(player: str, opponent: str, mine: RowValues, theirs: RowValues, rm: int, rt: int) -> PairScore:
    if mine.foul or theirs.foul:
        if mine.foul and theirs.foul:
            return PairScore(player, opponent, (0, 0, 0), 0, 0, 0, 0, 0)
        foul = -FOUL_PENALTY if mine.foul else FOUL_PENALTY
        paid = rm - rt  # a fouled board's own royalties are already 0
        return PairScore(player, opponent, (0, 0, 0), 0, 0, foul, paid, foul + paid)
    rows = (_sign(mine.front, theirs.front), _sign(mine.middle, theirs.middle), _sign(mine.back, theirs.back))
    points = rows[0] + rows[1] + rows[2]
    scoop = SCOOP_BONUS if points == 3 else (-SCOOP_BONUS if points == -3 else 0)
    return PairScore(player, opponent, rows, points, scoop, 0, rm - rt, points + scoop + rm - rt)


def score(
    boards_by_player: Mapping[str, Board], *, royalties: str | RoyaltyTable = "mainz", fantasyland: bool = False
) -> OfcScoreSheet:
    """Settle a round of finished boards, each player against each (§4).

    Boards must be complete and share no card; two to four players.

    >>> a = Board.from_rows("2s 3d 4c", "Tc Th 7d 7s 2h", "Ac Ad Ah 3s 3h")
    >>> b = Board.from_rows("5s 6d 8c", "9c 9h Jd Qs 2d", "Kc Kd Kh Js Jc")
    >>> sheet = score({"ann": a, "bob": b})
    >>> sheet.pairs["ann", "bob"].rows, sheet.pairs["ann", "bob"].total   # 2-1 is +1; full houses 6 each
    ((-1, 1, 1), 1)
    """
    table = royalty_table(royalties)
    players = list(boards_by_player)
    if not PLAYERS[0] <= len(players) <= PLAYERS[1]:
        raise InvalidHand(f"two to four players expected, got {len(players)}")
    values: dict[str, RowValues] = {}
    earned: dict[str, tuple[int, int, int]] = {}
    seen = 0
    for player in players:
        board = boards_by_player[player]
        values[player] = row_values(board)
        earned[player] = _royalties_of(values[player], table)
        if seen & board._bits:
            card = CARDS[((seen & board._bits) & -(seen & board._bits)).bit_length() - 1]
            raise InvalidHand(f"{card.symbol} is on two boards")
        seen |= board._bits
    totals_royalties = {p: sum(earned[p]) for p in players}
    pairs: dict[tuple[str, str], PairScore] = {}
    totals = dict.fromkeys(players, 0)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            ra, rb = totals_royalties[a], totals_royalties[b]
            forward = _pair(a, b, values[a], values[b], ra, rb)
            pairs[a, b] = forward
            pairs[b, a] = PairScore(
                b,
                a,
                (-forward.rows[0], -forward.rows[1], -forward.rows[2]),
                -forward.row_points,
                -forward.scoop,
                -forward.foul,
                -forward.royalties,
                -forward.total,
            )
            totals[a] += forward.total
            totals[b] -= forward.total
    return OfcScoreSheet(
        pairs=pairs,
        totals=totals,
        royalties=totals_royalties,
        fouls=frozenset(p for p in players if values[p].foul),
        fantasyland=frozenset(p for p in players if _fantasyland(values[p])) if fantasyland else frozenset(),
        table=table.name,
    )
