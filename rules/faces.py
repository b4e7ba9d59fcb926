"""A round's hands as the pages draw them: cards and tiles as faces, each position's rows labelled.

Presentation values only, read from what a round stores (``rules.hands`` writes it): the dealer's
tablet draws its result from them and the pit draws a round's hands in the table's history and on a
correction request, so both pages show one hand the same way. Nothing here touches the database.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias, TypedDict

from django.utils.translation import gettext_lazy

from rules.games.cards import JOKER, RANK_CHARS, SUIT_SYMBOLS, Card, parse_cards
from rules.games.errors import InvalidHand
from rules.games.tiles import Tile, parse_tiles
from rules.hand_words import tile_name

ROWS = ("front", "middle", "back")
# The parts of a hand as the pages label them, in the order they are drawn.
PART_LABELS = {
    "high": gettext_lazy("High"),
    "low": gettext_lazy("Low"),
    "front": gettext_lazy("Front"),
    "middle": gettext_lazy("Middle"),
    "back": gettext_lazy("Back"),
}
__all__ = [
    "JOKER",
    "PART_LABELS",
    "ROWS",
    "CardFace",
    "Face",
    "PartFaces",
    "TileFace",
    "card_face",
    "faces",
    "hand_faces",
    "positions_faces",
    "tile_face",
]


class CardFace(TypedDict):
    """A card as drawn: its notation (``code``), rank and suit symbol as printed, red or black, the joker, and its
    name for a tooltip (``title``)."""

    code: str
    rank: str
    suit: str
    red: bool
    joker: bool
    title: str


class TileFace(TypedDict):
    """A domino as drawn: its notation (``code``) and name, each half's nine cells (pips where True) and whether
    they are red, how many copies the set holds, and its label for a tooltip (``title``)."""

    code: str
    name: str
    top: list[bool]
    bottom: list[bool]
    top_red: bool
    bottom_red: bool
    copies: int
    title: str


Face: TypeAlias = CardFace | TileFace


class PartFaces(TypedDict):
    """One part of a hand as drawn: its name (``high``, ``front`` …), its label, the notation and the faces."""

    part: str
    label: str
    text: str
    faces: list[Face]


def card_face(card: Card) -> CardFace:
    if card.is_joker:
        return {"code": "Jk", "rank": "JK", "suit": "★", "red": False, "joker": True, "title": "Joker"}
    rank = "10" if card.rank == 10 else RANK_CHARS[card.rank - 2]
    return {
        "code": str(card),
        "rank": rank,
        "suit": SUIT_SYMBOLS[card.suit],
        "red": card.suit in "hd",
        "joker": False,
        "title": card.symbol,
    }


_PIPS = {1: (4,), 2: (2, 6), 3: (2, 4, 6), 4: (0, 2, 6, 8), 5: (0, 2, 4, 6, 8), 6: (0, 2, 3, 5, 6, 8)}


def _half(pips: int) -> list[bool]:
    return [cell in _PIPS[pips] for cell in range(9)]


def tile_face(tile: Tile) -> TileFace:
    """A domino: two halves of nine cells, pips where the number has them (the 1s and 4s red, as on the set)."""
    return {
        "code": str(tile),
        "name": tile_name(tile.name),
        "top": _half(tile.high),
        "bottom": _half(tile.low),
        "top_red": tile.high in (1, 4),
        "bottom_red": tile.low in (1, 4),
        "copies": tile.copies,
        "title": tile.label,
    }


def faces(text: str, *, tiles: bool) -> list[Face]:
    """Cards or tiles in notation as faces to draw; text that does not parse draws nothing."""
    try:
        if tiles:
            return [tile_face(tile) for tile in parse_tiles(text)]
        return [card_face(card) for card in parse_cards(text)]
    except InvalidHand:
        return []


def hand_faces(hand: Mapping[str, Any], tiles: bool) -> list[PartFaces]:
    """The rows of a stored hand as labelled faces: high and low, or front, middle and back."""
    return [
        {"part": part, "label": str(PART_LABELS[part]), "text": hand[part], "faces": faces(hand[part], tiles=tiles)}
        for part in PART_LABELS
        if part in hand
    ]


@dataclass(frozen=True)
class PositionHand:
    """One position's stored hand, drawn: ``seat`` is None for the bank (a player banker or the house), 0 for the
    house's own hand when it wagers against a player bank."""

    seat: int | None
    rows: list[PartFaces]
    set_by_house_way: bool
    rule: str
    fouled: bool

    @property
    def key(self) -> str:
        """``bank``, ``house`` or the seat number, as a form field and a page name a position."""
        return "bank" if self.seat is None else "house" if self.seat == 0 else str(self.seat)

    @property
    def text(self) -> str:
        """The hand in notation, rows apart ("Ah Kd | 7c 7h 2s 3d 9s"), to compare two hands at a glance."""
        return " | ".join(row["text"] for row in self.rows)


def positions_faces(stored: Mapping[str, Any] | None, *, tiles: bool) -> list[PositionHand]:
    """A round's stored hands (``{"banker": ..., "seats": {...}}``) as drawn positions: the bank first, then the
    seats in order; nothing when no hands are stored."""
    if not stored:
        return []

    def position(seat: int | None, hand: Mapping[str, Any]) -> PositionHand:
        return PositionHand(
            seat=seat,
            rows=hand_faces(hand, tiles),
            set_by_house_way=hand.get("set_by") == "house_way",
            rule=str(hand.get("rule", "")),
            fouled=bool(hand.get("fouled")),
        )

    drawn = [position(None, stored["banker"])] if stored.get("banker") else []
    seats = stored.get("seats") or {}
    drawn.extend(position(int(seat), seats[seat]) for seat in sorted(seats, key=int))
    if stored.get("house") and "high" in stored["house"]:  # the house's hand against a player bank
        drawn.append(position(0, stored["house"]))
    return drawn
