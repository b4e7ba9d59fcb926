"""Hands named in the dealer's language: the engine's English read back by its grammar and said through the
catalogue; English stays exactly the engine's words."""

from __future__ import annotations

import pytest
from django.utils import translation

from rules.games.cards import parse_cards
from rules.games.paigow_tiles_hands import hand_value as tiles_value
from rules.games.poker import high_hand, low_hand
from rules.games.tiles import parse_tiles
from rules.hand_words import hand_words, tile_name

GERMAN = [
    ("king-high flush", "Flush mit König hoch"),
    ("pair of threes", "Paar Dreien"),
    ("jack-seven", "Bube-Sieben"),
    ("two pair, kings and nines", "zwei Paare, Könige und Neunen"),
    ("full house, sixes over aces", "Full House, Sechsen über Asse"),
    ("five-high straight", "Straße bis Fünf"),
    ("ace-high straight flush", "Straight Flush bis Ass"),
    ("royal flush", "Royal Flush"),
    ("five aces", "fünf Asse"),
    ("four queens", "vier Damen"),
    ("three sevens", "drei Siebenen"),
    ("ace high", "Ass hoch"),
    ("pair of Teens", "Paar Teen"),
    ("Teen wong", "Teen-Wong"),
    ("Day gong", "Day-Gong"),
    ("9 points, high tile Tit", "9 Punkte, höchster Stein Tit"),
    ("1 point, high tile mixed nine", "1 Punkt, höchster Stein gemischte Neun"),
    ("0 points", "0 Punkte"),
    ("Gee Joon", "Gee Joon"),
]


@pytest.mark.parametrize(("english", "german"), GERMAN)
def test_a_german_tablet_names_the_hand_in_german(english: str, german: str) -> None:
    with translation.override("de"):
        assert hand_words(english) == german
    with translation.override("en"):
        assert hand_words(english) == english


def test_every_hand_the_engines_name_is_said_in_german_and_unchanged_in_english() -> None:
    fives = ["As Ad 7s 4d 2c", "Qs Js 9s 6s 2s", "Ts Th 9c 6d 2h", "Ah Kh Qh Jh Th", "As Ac Ad Ah Jk", "9s 8d 7c 6h 5s"]
    twos = ["Kh Kc", "9h 8d", "Jd 7c"]
    tiles = ["6-6 6-6", "6-6 4-2", "5-4 3-3", "2-1 4-2", "6-4 5-3", "4-1 6-3"]
    named = [high_hand(parse_cards(text)).describe() for text in fives]
    named += [low_hand(parse_cards(text)).describe() for text in twos]
    named += [tiles_value(parse_tiles(text)).describe() for text in tiles]
    for text in named:
        with translation.override("en"):
            assert hand_words(text) == text
        with translation.override("de"):
            said = hand_words(text)
        assert said != text or text == "Gee Joon", text  # every shape the engines write is known


def test_a_text_of_no_known_shape_comes_back_as_it_was() -> None:
    with translation.override("de"):
        assert hand_words("a hand we have no words for") == "a hand we have no words for"
        assert tile_name("Teen") == "Teen" and tile_name("mixed nine") == "gemischte Neun"


def test_the_default_rule_sets_names_are_in_the_catalogue_and_read_in_german() -> None:
    from rules.options import DEFAULT_RULE_SET_NAMES
    from rules.templatetags.rule_sets import _DEFAULT_NAMES, rule_set_name

    assert set(_DEFAULT_NAMES) == set(DEFAULT_RULE_SET_NAMES.values())
    with translation.override("de"):
        for name in DEFAULT_RULE_SET_NAMES.values():
            assert rule_set_name(name) != name and "house rules" not in rule_set_name(name)
        assert rule_set_name("Our own rules") == "Our own rules"  # a house's own name, as typed
