"""Template filters of the poker room's pages: chips grouped, the clock's time left, instants for the countdown."""

from __future__ import annotations

import datetime as dt

from django import template

from casino import numbers
from poker_room.display.selectors import iso_utc
from poker_room.pure_messages import rules_text
from poker_room.tournaments.forms import percent_text
from poker_room.tournaments.page_selectors import game_names

register = template.Library()


@register.filter
def rules_line(rules: str) -> str:
    """A tournament's rules line in the active language (``poker_room.pure_messages.rules_text``)."""
    return rules_text(rules)


@register.filter
def chips(value: int | str | None) -> str:
    """A number of chips, grouped by thousands with a thin space: 15 000 (no decimals: chips are whole)."""
    if value is None or value == "":
        return "—"
    return numbers.whole(int(value))


@register.filter
def clock_text(remaining_ms: int | None) -> str:
    """The time left as a clock shows it: 12:34, or 1:02:03 (seconds rounded up, as every screen counts)."""
    if remaining_ms is None:
        return ""
    seconds = -(-max(0, int(remaining_ms)) // 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


@register.filter
def iso_ms(moment: dt.datetime | None) -> str:
    """An instant as ISO-8601 UTC to the millisecond (what the page's script reads with ``Date.parse``)."""
    return iso_utc(moment) if moment is not None else ""


@register.filter
def percent_bp(bp: int) -> str:
    """A share in basis points as per cent: 2500 → 25, 1250 → 12.5 (12,5 in German)."""
    return percent_text(bp)


@register.filter
def minutes_text(ms: int | None) -> str:
    """A duration in whole minutes, rounded up: 14 min."""
    if ms is None:
        return ""
    return str(-(-int(ms) // 60_000))


@register.filter
def game_name(code: str) -> str:
    """A game's name from its code (translated): nlo → No-Limit Omaha."""
    return game_names([code]) if code else ""


_SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


@register.filter
def card_face(card: str) -> str:
    """A chip race's card as it is printed: "Ah" → "A♥", "Td" → "10♦"."""
    if len(card) != 2:
        return card
    rank = "10" if card[0] == "T" else card[0]
    return f"{rank}{_SUITS.get(card[1], card[1])}"
