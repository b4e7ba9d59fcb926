"""Errors the engines raise, with messages a dealer can read."""

from __future__ import annotations


class InvalidHand(ValueError):
    """A hand, card, tile or arrangement that breaks the rules.

    The message names the problem in the dealer's words, for example
    "7 cards expected, got 6" or "A♠ appears twice".
    """
