"""A hand's value in the active language.

The engines (``rules.games``) import no Django and name a hand in English, as the API answers it: "king-high
flush", "pair of threes", "jack-seven", "pair of Teens", "9 points, high tile Tit". The pages show it in the
user's language: ``hand_words`` reads the engine's words by their grammar (the few shapes ``poker.HandValue
.describe`` and ``paigow_tiles_hands.HandValue.describe`` write) and says the same hand again through the catalogue.
A text of another shape is returned as it came.

>>> hand_words("pair of threes")  # no language active: English, unchanged
'pair of threes'
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

# The ranks and their plurals as the engines write them (``rules.games.cards.RANK_NAMES``, ``poker._plural``).
_RANK = {
    "two": pgettext_lazy("card rank", "two"),
    "three": pgettext_lazy("card rank", "three"),
    "four": pgettext_lazy("card rank", "four"),
    "five": pgettext_lazy("card rank", "five"),
    "six": pgettext_lazy("card rank", "six"),
    "seven": pgettext_lazy("card rank", "seven"),
    "eight": pgettext_lazy("card rank", "eight"),
    "nine": pgettext_lazy("card rank", "nine"),
    "ten": pgettext_lazy("card rank", "ten"),
    "jack": pgettext_lazy("card rank", "jack"),
    "queen": pgettext_lazy("card rank", "queen"),
    "king": pgettext_lazy("card rank", "king"),
    "ace": pgettext_lazy("card rank", "ace"),
}
_RANKS = {
    "twos": pgettext_lazy("card ranks", "twos"),
    "threes": pgettext_lazy("card ranks", "threes"),
    "fours": pgettext_lazy("card ranks", "fours"),
    "fives": pgettext_lazy("card ranks", "fives"),
    "sixes": pgettext_lazy("card ranks", "sixes"),
    "sevens": pgettext_lazy("card ranks", "sevens"),
    "eights": pgettext_lazy("card ranks", "eights"),
    "nines": pgettext_lazy("card ranks", "nines"),
    "tens": pgettext_lazy("card ranks", "tens"),
    "jacks": pgettext_lazy("card ranks", "jacks"),
    "queens": pgettext_lazy("card ranks", "queens"),
    "kings": pgettext_lazy("card ranks", "kings"),
    "aces": pgettext_lazy("card ranks", "aces"),
}
# The tiles' mixed names ("mixed nine"): the Chinese names (Teen, Day, Gee Joon) are the same in every language.
_MIXED = {
    "mixed nine": pgettext_lazy("tile", "mixed nine"),
    "mixed eight": pgettext_lazy("tile", "mixed eight"),
    "mixed seven": pgettext_lazy("tile", "mixed seven"),
    "mixed five": pgettext_lazy("tile", "mixed five"),
}


def _rank(word: str) -> str | None:
    said = _RANK.get(word)
    return None if said is None else str(said)


def _ranks(word: str) -> str | None:
    said = _RANKS.get(word)
    return None if said is None else str(said)


def tile_name(name: str) -> str:
    """A tile's name in the active language: "gemischte Neun" for "mixed nine"; the Chinese names as they are."""
    return str(_MIXED.get(name, name))


def _poker(match: re.Match[str], shape: str) -> str | None:
    words = match.groupdict()
    if shape == "five aces":
        return _("five aces")
    if shape == "royal flush":
        return _("royal flush")
    if "r" in words and "s" in words:  # a two-card low hand, "jack-seven"
        high, low = _rank(words["r"]), _rank(words["s"])
        return None if high is None or low is None else _("%(high)s-%(low)s") % {"high": high, "low": low}
    if "r" in words:
        rank = _rank(words["r"])
        if rank is None:
            return None
        return {
            "straight flush": lambda: _("%(rank)s-high straight flush") % {"rank": rank},
            "straight": lambda: _("%(rank)s-high straight") % {"rank": rank},
            "flush": lambda: _("%(rank)s-high flush") % {"rank": rank},
            "high": lambda: _("%(rank)s high") % {"rank": rank},
        }[shape]()
    first = _ranks(words["p"])
    if first is None:
        return None
    if "q" in words:
        second = _ranks(words["q"])
        if second is None:
            return None
        if shape == "full house":
            return _("full house, %(three)s over %(two)s") % {"three": first, "two": second}
        return _("two pair, %(high)s and %(low)s") % {"high": first, "low": second}
    return {
        "four": lambda: _("four %(ranks)s") % {"ranks": first},
        "three": lambda: _("three %(ranks)s") % {"ranks": first},
        "pair": lambda: _("pair of %(ranks)s") % {"ranks": first},
    }[shape]()


def _tiles(match: re.Match[str], shape: str) -> str | None:
    words = match.groupdict()
    if shape == "gee joon":
        return "Gee Joon"
    if shape == "pair":
        return _("pair of %(tile)ss") % {"tile": tile_name(words["t"])}
    if shape == "wong":
        return _("%(tile)s wong") % {"tile": tile_name(words["t"])}
    if shape == "gong":
        return _("%(tile)s gong") % {"tile": tile_name(words["t"])}
    points = int(words["n"])
    if words.get("t"):
        said = ngettext("%(points)s point, high tile %(tile)s", "%(points)s points, high tile %(tile)s", points)
        return said % {"points": points, "tile": tile_name(words["t"])}
    return ngettext("%(points)s point", "%(points)s points", points) % {"points": points}


_SHAPES: list[tuple[re.Pattern[str], str, Callable[[re.Match[str], str], str | None]]] = [
    (re.compile(r"five aces"), "five aces", _poker),
    (re.compile(r"royal flush"), "royal flush", _poker),
    (re.compile(r"(?P<r>[a-z]+)-high straight flush"), "straight flush", _poker),
    (re.compile(r"(?P<r>[a-z]+)-high straight"), "straight", _poker),
    (re.compile(r"(?P<r>[a-z]+)-high flush"), "flush", _poker),
    (re.compile(r"four (?P<p>[a-z]+)"), "four", _poker),
    (re.compile(r"full house, (?P<p>[a-z]+) over (?P<q>[a-z]+)"), "full house", _poker),
    (re.compile(r"three (?P<p>[a-z]+)"), "three", _poker),
    (re.compile(r"two pair, (?P<p>[a-z]+) and (?P<q>[a-z]+)"), "two pair", _poker),
    (re.compile(r"pair of (?P<p>[a-z]+)"), "pair", _poker),
    (re.compile(r"(?P<r>[a-z]+)-(?P<s>[a-z]+)"), "low", _poker),
    (re.compile(r"(?P<r>[a-z]+) high"), "high", _poker),
    (re.compile(r"Gee Joon"), "gee joon", _tiles),
    (re.compile(r"pair of (?P<t>[A-Z][A-Za-z ]*|mixed [a-z]+)s"), "pair", _tiles),
    (re.compile(r"(?P<t>[A-Za-z ]+) wong"), "wong", _tiles),
    (re.compile(r"(?P<t>[A-Za-z ]+) gong"), "gong", _tiles),
    (re.compile(r"(?P<n>\d+) points?(?:, high tile (?P<t>[A-Za-z ]+))?"), "points", _tiles),
]


def hand_words(text: str) -> str:
    """The engine's name of a hand (English) in the active language; a text of no known shape as it came."""
    for pattern, shape, say in _SHAPES:
        match = pattern.fullmatch(text)
        if match is not None:
            said = say(match, shape)
            if said is not None:
                return said
    return text
