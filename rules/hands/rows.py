"""Reading hands set in rows: Chinese Poker's front, middle and back for every seat at once, and the same reading for
the tiles' peer variant (high and low, no bank) and Open-Face's finished boards entered at once."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from django.utils.translation import gettext

from casino.errors import ApplicationError
from rules import engines
from rules.games import registry
from rules.games.cards import Card, parse_cards
from rules.games.errors import InvalidHand
from rules.hands.reading import (
    RoundHands,
    StoredHand,
    check_dealt,
    check_once,
    check_size,
    parse_part,
    position_name,
    refuse,
    seat_number_read,
)


def arranged_hands(
    *, game: str, payload: Mapping[str, Any], seats_in_play: Sequence[int], dealt: Mapping[str, str] | None
) -> RoundHands:
    """Check the arrangements of a game set in rows at once (Chinese Poker: front 3, middle 5, back 5) for
    every seat in play."""
    spec = registry.game(game)
    if payload.get("banker") is not None:
        raise ApplicationError(
            gettext("%(game)s has no banker: give the seats' hands only.") % {"game": spec.name},
            extra={"field": "banker"},
        )
    engine = engines.arranged(game)
    return rows_hands(
        payload=payload, seats_in_play=seats_in_play, dealt=dealt, spec=spec, build=engine.build, fouled=engine.is_foul
    )


def jokerless(text: str) -> tuple[Card, ...]:
    cards = parse_cards(text)
    if any(card.is_joker for card in cards):
        raise InvalidHand("this game is played without the joker")
    return cards


def hand_reader(spec: registry.Game) -> Callable[[str], tuple[Any, ...]]:
    """How a hand of the game is read: its notation, refusing the joker where its deck has none."""
    return spec.parse if spec.tiles or spec.joker else jokerless


def rows_hands(
    *,
    payload: Mapping[str, Any],
    seats_in_play: Sequence[int],
    dealt: Mapping[str, str] | None,
    spec: registry.Game,
    build: Callable[[list[tuple[Any, ...]]], Any],
    fouled: Callable[[Any], bool],
) -> RoundHands:
    rows, parse, text, noun, tiles = spec.parts, hand_reader(spec), spec.text, spec.noun, spec.tiles
    seats_payload = payload.get("seats") or {}
    if not isinstance(seats_payload, Mapping):
        raise ApplicationError(gettext("Give the seats' hands by seat number."), extra={"field": "seats"})
    names = [name for name, _ in rows]
    stored: dict[str, StoredHand] = {}
    parsed: dict[int, list[tuple[Any, ...]]] = {}
    used: dict[str, Sequence[Any]] = {}
    for key, entry in seats_payload.items():
        number = seat_number_read(key, seats_in_play, f"seats.{key}")
        where = position_name(number)
        if not isinstance(entry, Mapping):
            raise refuse(where, gettext("give the hand as %(rows)s") % {"rows": ", ".join(names)}, f"seats.{key}")
        unknown = sorted(set(entry) - set(names))
        if unknown:
            raise refuse(
                where,
                gettext("unknown row %(row)s: the rows are %(rows)s")
                % {"row": repr(unknown[0]), "rows": ", ".join(names)},
                f"seats.{key}",
            )
        hand = []
        for name, size in rows:
            field = f"seats.{key}.{name}"
            if name not in entry:
                raise refuse(where, gettext("the %(row)s is missing") % {"row": name}, field)
            items = parse_part(parse, entry[name], f"{where}, {name}", field)
            check_size(items, size, noun, f"{where}, {name}", field)
            hand.append(items)
        everything = tuple(item for row in hand for item in row)
        check_dealt(where, f"seats.{key}", everything, (dealt or {}).get(str(number)), spec=spec)
        used[where] = everything
        parsed[number] = hand
        stored[str(number)] = cast(StoredHand, {name: text(items) for name, items in zip(names, hand, strict=True)})
    missing = [n for n in seats_in_play if n not in parsed]
    if missing:
        raise ApplicationError(
            gettext("Seat %(seat)s's hand is missing.") % {"seat": missing[0]}, extra={"field": f"seats.{missing[0]}"}
        )
    check_once(used, tiles=tiles)
    built = {number: build(hand) for number, hand in parsed.items()}
    fouls = frozenset(n for n, hand in built.items() if fouled(hand))
    for number in fouls:
        stored[str(number)]["fouled"] = True
    return RoundHands(
        stored={"seats": dict(sorted(stored.items(), key=lambda kv: int(kv[0])))},
        bank=None,
        seats=dict(sorted(built.items())),
        fouled=fouls,
    )
