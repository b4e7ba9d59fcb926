"""Card notation as a dealer writes it, and the deck."""

from __future__ import annotations

import pytest

from rules.games.cards import JOKER, Card, cards_text, deck, parse_cards
from rules.games.errors import InvalidHand


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As Td 9c 2h", "As Td 9c 2h"),
        ("as td 9C 2H", "As Td 9c 2h"),
        ("As,Td , 9c\n2h", "As Td 9c 2h"),
        ("10s 10h", "Ts Th"),
        ("Jk Ks", "Jk Ks"),
        ("JK", "Jk"),
        ("", ""),
    ],
)
def test_notation_is_read_in_any_case_with_any_separators(text: str, expected: str) -> None:
    assert cards_text(parse_cards(text)) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("As Kd As", "A♠ appears twice"),
        ("Jk 2c jk", "Joker appears twice"),
        ("As 1d", "'1d' is not a card"),
        ("As Kx", "'Kx' is not a card"),
        ("Joker", "'Joker' is not a card"),
    ],
)
def test_bad_notation_names_the_offending_card(text: str, message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        parse_cards(text)


def test_every_card_round_trips_through_its_text_and_is_one_object() -> None:
    for card in deck(joker=True):
        assert parse_cards(str(card)) == (card,)
        assert Card(str(card)) is card
    assert Card(14, "s") is parse_cards("As")[0]


def test_the_deck_has_52_cards_and_the_joker_makes_53() -> None:
    assert len(deck(joker=False)) == 52
    assert len(set(deck(joker=False))) == 52
    assert deck(joker=True) == (*deck(joker=False), JOKER)
    assert {c.suit for c in deck(joker=False)} == set("shdc")
    assert {c.rank for c in deck(joker=False)} == set(range(2, 15))


def test_cards_cannot_be_changed() -> None:
    card = parse_cards("As")[0]
    with pytest.raises(AttributeError):
        card.rank = 13  # type: ignore[misc]


def test_a_card_reads_with_its_suit_symbol_on_screen() -> None:
    assert [c.symbol for c in parse_cards("As Th Jk")] == ["A♠", "T♥", "Joker"]
