"""Open-Face Chinese Poker at a table: the dealer button, the turn order and Fantasyland (GAME_RULES.md §4).

"Two to four players, 52 cards, a dealer button moving clockwise; the player left of the
button acts first" (seed). Seats are numbered clockwise from the dealer's left
(``tables.models.Seat``), so the seat on a player's left is the next higher number and
clockwise is up the numbers, from the highest seat round to seat 1.

* The first round at a table has its button on the highest seat in play, so the lowest
  seat in play ("first base") acts first (the seed does not say where the button starts:
  a choice, stated in the docs). After every hand the button moves clockwise to the next
  seat in play (``button_next``).
* Each street is placed in turn, left of the button first, the button last
  (``turn_order``); nobody places street 2 before everyone placed street 1.
* Fantasyland (practice, option ``fantasyland``): a player whose board qualified in the
  previous round receives 14 cards at once and sets 13 in one placement, the 14th
  discarded (https://pokio.pro/en/open_face_chinese.php), on their turn of the first street;
  the others play street by street. QQ or better in front without fouling qualifies
  (``ofc.qualifies_for_fantasyland``); a player in Fantasyland stays with trips or better
  in front, a full house or better in the middle, or four of a kind or better in the back,
  without fouling (``stays_in_fantasyland``; the
  usual rule, https://degen.club/ofc/). With four players the deck holds 13 cards each and
  no more, so a Fantasyland player then receives 13 and discards none (``fantasyland_cards``).

Every placement a round needs is in one sequence (``turn_sequence``); a round's placements
so far must be a prefix of it (``check_turns``).

>>> order = turn_order(button=3, seats_in_play=(1, 3, 5))
>>> order
(5, 1, 3)
>>> button_next(previous=5, seats_in_play=(1, 3, 4))
1
>>> [(t.seat, t.street, t.cards) for t in turn_sequence((5, 1, 3), fantasyland={1})[:4]]
[(5, 1, 5), (1, 1, 14), (3, 1, 5), (5, 2, 1)]
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from rules.games import ofc
from rules.games.cards import Card, deck
from rules.games.dealing import shuffled
from rules.games.errors import InvalidHand
from rules.games.poker import Category

DECK_SIZE: Final = 52
# What a Fantasyland player receives at once: 13 to keep and one to discard (practice).
FANTASYLAND_DEAL: Final = ofc.BOARD_SIZE + 1


def _seats(seats_in_play: Iterable[int]) -> tuple[int, ...]:
    seats = tuple(sorted(set(seats_in_play)))
    if not seats:
        raise InvalidHand("no seat is in play")
    return seats


def first_button(seats_in_play: Iterable[int]) -> int:
    """The button of a table's first round: the highest seat in play, so the lowest acts first.

    >>> first_button((4, 2, 6))
    6
    """
    return _seats(seats_in_play)[-1]


def button_next(*, previous: int | None, seats_in_play: Iterable[int]) -> int:
    """The button after ``previous``: the next seat in play clockwise (up the numbers, round to the lowest);
    a table's first button when there was none (``first_button``).

    >>> button_next(previous=2, seats_in_play=(1, 2, 4)), button_next(previous=4, seats_in_play=(1, 2, 4))
    (4, 1)
    >>> button_next(previous=3, seats_in_play=(1, 2, 4))   # seat 3 left: the button goes on to seat 4
    4
    >>> button_next(previous=None, seats_in_play=(1, 2, 4))
    4
    """
    seats = _seats(seats_in_play)
    if previous is None:
        return first_button(seats)
    later = [seat for seat in seats if seat > previous]
    return later[0] if later else seats[0]


def turn_order(*, button: int, seats_in_play: Iterable[int]) -> tuple[int, ...]:
    """The seats in play in the order they act: the player left of the button first, clockwise, the button last.

    >>> turn_order(button=1, seats_in_play=(1, 2, 4))
    (2, 4, 1)
    """
    seats = _seats(seats_in_play)
    if button not in seats:
        raise InvalidHand(f"the button (seat {button}) is not a seat in play")
    at = seats.index(button) + 1
    return seats[at:] + seats[:at]


def button_of(order: Sequence[int]) -> int:
    """The button of a turn order: the seat that acts last."""
    if not order:
        raise InvalidHand("a turn order names the seats in play")
    return order[-1]


# --- Fantasyland ---------------------------------------------------------------------------------------


def stays_in_fantasyland(board: ofc.Board) -> bool:
    """Whether a board played in Fantasyland earns another: trips or better in front, a full house or better in
    the middle, or four of a kind or better in the back, without fouling (practice, https://degen.club/ofc/).

    >>> stays_in_fantasyland(ofc.Board.from_rows("7s 7d 7c", "8c 8h 8d 2s 2h", "Ac Ad Ah 3s 3d"))
    True
    >>> stays_in_fantasyland(ofc.Board.from_rows("Qs Qd 2c", "Kc Kh 7d 7s 2h", "Ac Ad Ah 3s 3d"))  # QQ: not enough
    False
    """
    values = ofc.row_values(board)
    if values.foul:
        return False
    return (
        values.front.category >= Category.THREE_OF_A_KIND
        or values.middle.category >= Category.FULL_HOUSE
        or values.back.category >= Category.FOUR_OF_A_KIND
    )


def fantasyland_next(board: ofc.Board, *, in_fantasyland: bool) -> bool:
    """Whether the player of ``board`` is in Fantasyland next round: stays by ``stays_in_fantasyland`` when they
    played this one in Fantasyland, qualifies by QQ or better in front (``ofc.qualifies_for_fantasyland``) when not.
    """
    return stays_in_fantasyland(board) if in_fantasyland else ofc.qualifies_for_fantasyland(board)


def fantasyland_cards(players: int) -> int:
    """What a Fantasyland player receives: 14, or 13 when four play (4 × 13 is the whole deck).

    >>> fantasyland_cards(3), fantasyland_cards(4)
    (14, 13)
    """
    if not ofc.PLAYERS[0] <= players <= ofc.PLAYERS[1]:
        raise InvalidHand(f"two to four players expected, got {players}")
    return FANTASYLAND_DEAL if ofc.BOARD_SIZE * players < DECK_SIZE else ofc.BOARD_SIZE


# --- turns ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Turn:
    """One placement a round needs: the seat, the street (1 to 9), and the cards the seat receives for it."""

    seat: int
    street: int
    cards: int

    @property
    def places(self) -> int:
        """The cards it places on the board: 13 of a Fantasyland deal, else all it receives."""
        return min(self.cards, ofc.BOARD_SIZE)


def turn_sequence(order: Sequence[int], *, fantasyland: Collection[int] = ()) -> tuple[Turn, ...]:
    """Every placement of a round in the order they are made: street by street, each in ``order``; a
    Fantasyland seat places once, all its cards, on its turn of the first street.
    """
    unknown = sorted(set(fantasyland) - set(order))
    if unknown:
        raise InvalidHand(f"seat {unknown[0]} is in Fantasyland but not in play")
    deal = fantasyland_cards(len(order))
    turns: list[Turn] = []
    for street in range(1, ofc.STREETS + 1):
        for seat in order:
            if seat in fantasyland:
                if street == 1:
                    turns.append(Turn(seat, 1, deal))
            else:
                turns.append(Turn(seat, street, ofc.FIRST_STREET if street == 1 else 1))
    return tuple(turns)


def next_turn(order: Sequence[int], placed: int, *, fantasyland: Collection[int] = ()) -> Turn | None:
    """The placement after ``placed`` placements, or None when every board is complete."""
    turns = turn_sequence(order, fantasyland=fantasyland)
    return turns[placed] if placed < len(turns) else None


def check_turns(
    turns: Sequence[tuple[int, int]],
    order: Sequence[int],
    *,
    fantasyland: Collection[int] = (),
    cards_on_boards: Mapping[int, int] | None = None,
) -> None:
    """Refuse a placement history that breaks the turn order or a street's card count.

    ``turns`` is each placement made, ``(seat, cards placed)``; it must follow ``turn_sequence``.
    ``cards_on_boards``, when given, is each seat's cards on its board, which must be what the
    history placed.

    >>> check_turns([(2, 5), (1, 5)], (1, 2))
    Traceback (most recent call last):
    ...
    rules.games.errors.InvalidHand: placement 1 is seat 2's, but it is seat 1's turn (street 1)
    >>> check_turns([(1, 5), (2, 5), (1, 1)], (1, 2), fantasyland={2})
    Traceback (most recent call last):
    ...
    rules.games.errors.InvalidHand: placement 2: seat 2 is in Fantasyland and sets 13 cards at once, not 5
    """
    expected = turn_sequence(order, fantasyland=fantasyland)
    if len(turns) > len(expected):
        raise InvalidHand(f"{len(turns)} placements, but a round of {len(order)} players has {len(expected)}")
    placed: dict[int, int] = dict.fromkeys(order, 0)
    for number, ((seat, cards), turn) in enumerate(zip(turns, expected, strict=False), start=1):
        if seat != turn.seat:
            raise InvalidHand(
                f"placement {number} is seat {seat}'s, but it is seat {turn.seat}'s turn (street {turn.street})"
            )
        if cards != turn.places:
            if seat in fantasyland:
                what = f"seat {seat} is in Fantasyland and sets {turn.places} cards at once"
                raise InvalidHand(f"placement {number}: {what}, not {cards}")
            raise InvalidHand(f"placement {number}: street {turn.street} places {turn.places} cards, not {cards}")
        placed[seat] += cards
    if cards_on_boards is not None:
        for seat in order:
            if cards_on_boards.get(seat, 0) != placed[seat]:
                raise InvalidHand(
                    f"seat {seat}'s board holds {cards_on_boards.get(seat, 0)} cards, its placements {placed[seat]}"
                )


def set_fantasyland(dealt: Sequence[Card], rows: Mapping[str, Sequence[Card]], discard: Sequence[Card]) -> ofc.Board:
    """A Fantasyland board: 13 of the cards ``dealt`` set at once, the rest discarded.

    >>> from rules.games.cards import parse_cards
    >>> dealt = parse_cards("Qs Qd 2c Kc Kh 7d 7s 2h Ac Ad Ah 3s 3d 4c")
    >>> board = set_fantasyland(dealt, {"front": dealt[:3], "middle": dealt[3:8], "back": dealt[8:13]}, dealt[13:])
    >>> board.complete
    True
    >>> set_fantasyland(dealt, {"front": dealt[:3], "middle": dealt[3:8], "back": dealt[8:13]}, parse_cards("5h"))
    Traceback (most recent call last):
    ...
    rules.games.errors.InvalidHand: 5♥ was not dealt to this seat
    """
    board = ofc.Board.from_rows(rows.get("front", ()), rows.get("middle", ()), rows.get("back", ()))
    if len(discard) != len(dealt) - ofc.BOARD_SIZE:
        raise InvalidHand(
            f"{len(dealt)} cards dealt: set {ofc.BOARD_SIZE} and discard {len(dealt) - ofc.BOARD_SIZE}, "
            f"not {len(discard)}"
        )
    for card in discard:
        if board.holds(card):
            raise InvalidHand(f"{card.symbol} is set and discarded: discard the card not set")
    used = [*board.cards, *discard]
    if sorted(c.index for c in used) != sorted(c.index for c in dealt):
        strange = [c for c in used if c not in dealt]
        missing = [c for c in dealt if c not in used]
        if strange:
            raise InvalidHand(f"{strange[0].symbol} was not dealt to this seat")
        raise InvalidHand(f"{missing[0].symbol} was dealt to this seat: set it or discard it")
    return board


def deal(rng: random.Random, *, order: Sequence[int], fantasyland: Collection[int] = ()) -> dict[int, tuple[Card, ...]]:
    """The system's deal of a round (training and simulation mode): one shuffled deck, each seat in ``order``
    receiving its cards in turn (a Fantasyland seat ``fantasyland_cards``, the others 13, street by street).
    """
    cards = shuffled(deck(joker=False), rng)
    size = fantasyland_cards(len(order))
    hands: dict[int, tuple[Card, ...]] = {}
    at = 0
    for seat in order:
        count = size if seat in fantasyland else ofc.BOARD_SIZE
        hands[seat] = cards[at : at + count]
        at += count
    return hands
