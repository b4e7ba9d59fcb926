"""What every game's hands share as they are read: a round's hands once checked (``RoundHands``), the refusals
that name the position a problem is in, and the checks of a part's notation and size, a seat's number, a card or tile
used too often and a hand against the deal. Nothing here touches the database.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from django.utils.translation import gettext as _

from casino.errors import ApplicationError
from rules.games import registry
from rules.games.errors import InvalidHand

DEALER = 0  # the dealer's own position in the action order


BANK = "bank"


def position_name(position: int | str) -> str:
    """ "Seat 3", or "The bank"."""
    return _("The bank") if position in (BANK, DEALER) else _("Seat %(seat)s") % {"seat": position}


class StoredHand(TypedDict, total=False):
    """One position's hand as stored: a setting (``high``, ``low``) or rows (``front``, ``middle``, ``back``), each
    in notation; who set it (``set_by``: ``player``, ``dealer`` or ``house_way``, with the house way's ``rule``);
    ``fouled`` or ``surrendered`` when it is; the house's hand against a player bank may be its cards as dealt
    (``cards``), for the house way to set."""

    cards: str
    high: str
    low: str
    front: str
    middle: str
    back: str
    set_by: str
    rule: str
    fouled: bool
    surrendered: bool


class Swap(TypedDict):
    """A Chinese Poker swap as recorded: the seat, the cards it gave and those it took (``rules.surrender_swap``)."""

    seat: int
    gave: str
    took: str


class StoredHands(TypedDict):
    """A round's hands as stored (``Round.hands``, a settlement's ``Posting.hands``): each seat's by seat number,
    the bank's (``banker``) and the house's own hand against a player bank (``house``) where there are any;
    Chinese Poker's ``surrendered`` seats and ``swaps``; Open-Face's placement history (``turns``: ``[seat,
    cards]`` each, and each Fantasyland seat's discard)."""

    seats: dict[str, StoredHand]
    banker: NotRequired[StoredHand]
    house: NotRequired[StoredHand]
    surrendered: NotRequired[list[int]]
    swaps: NotRequired[list[Swap]]
    turns: NotRequired[list[list[int]]]
    fantasyland: NotRequired[dict[str, str]]


@dataclass(frozen=True)
class RoundHands:
    """A round's checked hands: ``stored`` (canonical JSON), and the engine objects settlement reads.

    ``bank`` is the banker's setting (None when nobody banks); ``seats`` maps seat
    numbers to a ``Setting`` (banked games, peer tiles), an ``Arrangement`` (Chinese
    Poker) or a ``Board`` (OFC); ``fouled`` names the seats whose hand is mis-set.
    Chinese Poker's ``surrendered`` and ``swapped`` seats (``rules.surrender_swap``).
    """

    stored: StoredHands
    bank: Any
    seats: dict[int, Any]
    fouled: frozenset[int]
    house: Any = None  # the house's setting when it wagers against a player bank (position 0)
    surrendered: frozenset[int] = frozenset()
    swapped: frozenset[int] = frozenset()


def refuse(where: str, message: str, field: str) -> ApplicationError:
    return ApplicationError(_("%(where)s: %(message)s") % {"where": where, "message": message}, extra={"field": field})


def hand_text(value: object, where: str, field: str) -> str:
    if not isinstance(value, str):
        text = (
            _("write the tiles as text, not %(value)s")
            if "tiles" in field
            else _("write the cards as text, not %(value)s")
        )
        raise refuse(where, text % {"value": repr(value)}, field)
    return value


def parse_part(parse: Callable[[str], tuple[Any, ...]], value: object, where: str, field: str) -> tuple[Any, ...]:
    try:
        return parse(hand_text(value, where, field))
    except InvalidHand as exc:
        raise refuse(where, str(exc), field) from None


def check_size(items: Sequence[Any], size: int, noun: str, where: str, field: str) -> None:
    if len(items) != size:
        raise refuse(
            where,
            _("%(size)s %(noun)s expected, got %(count)s") % {"size": size, "noun": noun, "count": len(items)},
            field,
        )


def seat_number_read(key: object, seats_in_play: Sequence[int], field: str) -> int:
    text = str(key).strip()
    if not (text.isascii() and text.isdigit()):  # int() would also read "１" or "+1"
        raise ApplicationError(_("%(value)s is not a seat number.") % {"value": repr(key)}, extra={"field": field})
    number = int(text)
    if number not in seats_in_play:
        in_play = ", ".join(map(str, seats_in_play)) or _("none")
        raise ApplicationError(
            _("Seat %(seat)s has no wager in this round (seats in play: %(in_play)s).")
            % {"seat": number, "in_play": in_play},
            extra={"field": field},
        )
    return number


def check_once(used: Mapping[str, Sequence[Any]], *, tiles: bool) -> None:
    """Refuse a card used twice, or a tile more often than the set holds it, naming where each is."""
    where: dict[Any, list[str]] = {}
    for name, items in used.items():
        for item in items:
            where.setdefault(item, []).append(name)
    for item, names in where.items():
        allowed = item.copies if tiles else 1
        if len(names) > allowed:
            places = ", ".join(f"{n} ({c})" if c > 1 else n for n, c in Counter(names).items())
            label = item.label if tiles else item.symbol
            holds = _("the set has %(count)s") % {"count": allowed} if tiles else _("the deck has one")
            raise ApplicationError(
                _("%(item)s is used %(count)s times (%(places)s); %(holds)s.")
                % {"item": label, "count": len(names), "places": places, "holds": holds},
                extra={"field": "hands", "item": str(item)},
            )


def check_dealt(name: str, field: str, items: Sequence[Any], dealt: str | None, *, spec: registry.Game) -> None:
    if dealt is None:
        return
    # The deal is stored as the system wrote it, in notation: the hand's items, written out, are its words when they
    # are the cards or tiles dealt (a settle reads the hands once; the deal is parsed only to say what differs).
    if sorted(map(str, items)) == sorted(dealt.split()):
        return
    expected = spec.parse(dealt)
    if Counter(items) != Counter(expected):
        raise ApplicationError(
            _("%(where)s was dealt %(dealt)s; the hand entered holds %(entered)s.")
            % {"where": name, "dealt": dealt, "entered": spec.text(items)},
            extra={"field": field},
        )
