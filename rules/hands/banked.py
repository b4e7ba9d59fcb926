"""Reading the hands of the banked games (Pai Gow Poker, Pai Gow tiles): each seat's setting, the bank's (or its
cards for the house way), the house's own hand against a player bank, and the tiles' peer variant without a bank."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from casino.errors import ApplicationError
from rules import engines
from rules.games import registry
from rules.games.errors import InvalidHand
from rules.hands.reading import (
    DEALER,
    RoundHands,
    StoredHand,
    StoredHands,
    check_dealt,
    check_once,
    check_size,
    parse_part,
    position_name,
    refuse,
    seat_number_read,
)
from rules.hands.rows import rows_hands


@dataclass(frozen=True)
class _Banked:
    """A banked game as its hands are read: what the registry says of it, and its engine (``rules.engines``)."""

    spec: registry.Game
    engine: engines.Banked

    @classmethod
    def of(cls, game: str) -> _Banked:
        return cls(registry.game(game), engines.banked(game))

    @property
    def tiles(self) -> bool:
        return self.spec.tiles

    @property
    def hand_size(self) -> tuple[int, ...]:  # high, low
        return tuple(size for _, size in self.spec.parts)

    @property
    def noun(self) -> str:
        return self.spec.noun

    def parse(self, text: str) -> tuple[Any, ...]:
        return self.spec.parse(text)

    def text(self, items: Sequence[Any]) -> str:
        return self.spec.text(items)

    def setting(self, high: Sequence[Any], low: Sequence[Any]) -> Any:
        return self.engine.setting(tuple(high), tuple(low))


def _house_way(game: _Banked, items: Sequence[Any], engine: Mapping[str, Any]) -> tuple[Any, str]:
    return game.engine.house_way(items, **engine["house_way"])


def _is_foul(game: _Banked, setting: Any, engine: Mapping[str, Any]) -> bool:
    return game.engine.is_foul(setting, **engine["hand"])


def _read_setting(
    game: _Banked, entry: object, where: str, field: str, *, unset_allowed: bool
) -> tuple[tuple[Any, ...], tuple[Any, ...]] | tuple[Any, ...]:
    """A (high, low) pair of parsed hands, or the unset hand (a flat tuple) for the house way."""
    if not isinstance(entry, Mapping):
        raise refuse(where, gettext("give the hand as high and low"), field)
    unset_key = game.noun
    keys = set(entry)
    if unset_key in keys and unset_allowed and keys <= {unset_key}:
        items = parse_part(game.parse, entry[unset_key], where, f"{field}.{unset_key}")
        check_size(items, sum(game.hand_size), game.noun, where, f"{field}.{unset_key}")
        return items
    unknown = sorted(keys - {"high", "low"})
    if unknown:
        if unset_key in keys:
            message = gettext("only the house's hand is set by the house way: give the %(noun)s as high and low") % {
                "noun": game.noun
            }
            raise refuse(where, message, field)
        raise refuse(
            where, gettext("unknown part %(part)s: a hand is high and low") % {"part": repr(unknown[0])}, field
        )
    hands = []
    for part, size in zip(("high", "low"), game.hand_size, strict=True):
        if part not in entry:
            raise refuse(where, gettext("the %(part)s hand is missing") % {"part": part}, f"{field}.{part}")
        part_where = gettext("%(where)s, %(part)s hand") % {"where": where, "part": part}
        items = parse_part(game.parse, entry[part], part_where, f"{field}.{part}")
        check_size(items, size, game.noun, part_where, f"{field}.{part}")
        hands.append(items)
    return hands[0], hands[1]


def banked_hands(
    *,
    game: str,
    engine: Mapping[str, Any],
    payload: Mapping[str, Any],
    seats_in_play: Sequence[int],
    bank_seat: int | None,
    house_banks: bool,
    dealt: Mapping[str, str] | None,
    house_plays: bool = False,
) -> RoundHands:
    """Check the hands of a banked Pai Gow Poker or Pai Gow tiles round (see the module's docstring).

    ``seats_in_play`` are the seats with a wager; ``bank_seat`` the player banking (None: the
    house); ``dealt`` the system's deal by position ("0" the dealer), when it dealt; ``house_plays``
    whether the house wagers against the player bank (its hand then ``"house"``).
    """
    rules = _Banked.of(game)
    seats_payload = payload.get("seats") or {}
    if not isinstance(seats_payload, Mapping):
        raise ApplicationError(gettext("Give the seats' hands by seat number."), extra={"field": "seats"})
    bank_position = str(bank_seat if bank_seat is not None else DEALER)
    stored_seats: dict[str, StoredHand] = {}
    settings: dict[int, Any] = {}
    used: dict[str, Sequence[Any]] = {}
    for key, entry in seats_payload.items():
        number = seat_number_read(key, seats_in_play, f"seats.{key}")
        where = position_name(number)
        high, low = _read_setting(rules, entry, where, f"seats.{key}", unset_allowed=False)
        check_dealt(where, f"seats.{key}", (*high, *low), (dealt or {}).get(str(number)), spec=rules.spec)
        used[where] = (*high, *low)
        settings[number] = (high, low)
        stored_seats[str(number)] = {"high": rules.text(high), "low": rules.text(low), "set_by": "player"}
    for number in seats_in_play:
        if number in settings:
            continue
        if dealt is None:
            raise ApplicationError(
                gettext("Seat %(seat)s's hand is missing.") % {"seat": number}, extra={"field": f"seats.{number}"}
            )
        items = rules.parse(dealt[str(number)])  # training: the house way sets a hand left out
        setting, why = _house_way(rules, items, engine)
        settings[number] = (setting.high, setting.low)
        used[position_name(number)] = items
        stored_seats[str(number)] = {
            "high": rules.text(setting.high),
            "low": rules.text(setting.low),
            "set_by": "house_way",
            "rule": why,
        }
    banker = payload.get("banker")
    if banker is None:
        if dealt is None:
            if house_banks:
                message = gettext(
                    "The bank's hand is missing: give the house's %(noun)s (or all %(count)s unset for the house way)."
                ) % {"noun": rules.noun, "count": sum(rules.hand_size)}
            else:
                message = gettext("The bank's hand is missing: give the banker's (seat %(seat)s) %(noun)s.") % {
                    "seat": bank_seat,
                    "noun": rules.noun,
                }
            raise ApplicationError(message, extra={"field": "banker"})
        banker = {rules.noun: dealt[bank_position]}
    read = _read_setting(rules, banker, "The bank", "banker", unset_allowed=house_banks or dealt is not None)
    if len(read) == 2 and isinstance(read[0], tuple):
        high, low = read
        bank_items = (*high, *low)
        set_by, why = "dealer", ""
    else:
        bank_items = read
        setting, why = _house_way(rules, bank_items, engine)
        high, low, set_by = setting.high, setting.low, "house_way"
    check_dealt("The bank", "banker", bank_items, (dealt or {}).get(bank_position), spec=rules.spec)
    used["the bank"] = bank_items
    house = _house_hand(rules, payload, engine, house_plays=house_plays, dealt=dealt)
    if house is not None:
        used["the house"] = (*house.high, *house.low)
    check_once(used, tiles=rules.tiles)
    try:
        bank_setting = rules.setting(high, low)
        seat_settings = {number: rules.setting(*hands) for number, hands in settings.items()}
    except InvalidHand as exc:  # the checks above leave nothing for this to find; kept as a guard
        raise ApplicationError(str(exc), extra={"field": "hands"}) from None
    fouled = frozenset(n for n, s in seat_settings.items() if _is_foul(rules, s, engine))
    for number in fouled:
        stored_seats[str(number)]["fouled"] = True
    bank_entry: StoredHand = {"high": rules.text(high), "low": rules.text(low), "set_by": set_by}
    if why:
        bank_entry["rule"] = why
    if _is_foul(rules, bank_setting, engine):
        bank_entry["fouled"] = True  # the engine re-sets a fouled bank hand by the house way
    stored: StoredHands = {
        "banker": bank_entry,
        "seats": dict(sorted(stored_seats.items(), key=lambda kv: int(kv[0]))),
    }
    if house is not None:
        stored["house"] = {"high": rules.text(house.high), "low": rules.text(house.low), "set_by": "house_way"}
        stored["house"]["rule"] = house.rule
    return RoundHands(
        stored=stored,
        bank=bank_setting,
        seats=seat_settings,
        fouled=fouled,
        house=None if house is None else rules.setting(house.high, house.low),
    )


@dataclass(frozen=True)
class _HouseHand:
    high: tuple[Any, ...]
    low: tuple[Any, ...]
    rule: str


def _house_hand(
    rules: _Banked, payload: Mapping[str, Any], engine: Mapping[str, Any], *, house_plays: bool, dealt: Any
) -> _HouseHand | None:
    """The house's own hand against a player bank: its cards as dealt or entered, set by the house way (GAME_RULES.md
    §2: the dealer's hand is always set by the house way). Refused when the house has no wager this round."""
    entry = payload.get("house")
    if not house_plays:
        if entry is not None:
            raise ApplicationError(
                gettext("The house has no wager against the bank this round: leave the house's hand out."),
                extra={"field": "house"},
            )
        return None
    if entry is None:
        if dealt is None:
            raise ApplicationError(
                gettext(
                    "The house's hand is missing: it wagers against the bank, give its %(count)s "
                    "%(noun)s for the house way."
                )
                % {"count": sum(rules.hand_size), "noun": rules.noun},
                extra={"field": "house"},
            )
        entry = {rules.noun: dealt[str(DEALER)]}
    where, field = gettext("The house"), "house"
    if not isinstance(entry, Mapping) or set(entry) != {rules.noun}:
        raise refuse(
            where,
            gettext("the house way sets the house's hand: give all %(count)s %(noun)s unset")
            % {"count": sum(rules.hand_size), "noun": rules.noun},
            field,
        )
    items = parse_part(rules.parse, entry[rules.noun], where, f"{field}.{rules.noun}")
    check_size(items, sum(rules.hand_size), rules.noun, where, f"{field}.{rules.noun}")
    check_dealt(where, field, items, (dealt or {}).get(str(DEALER)), spec=rules.spec)
    setting, why = _house_way(rules, items, engine)
    return _HouseHand(tuple(setting.high), tuple(setting.low), why)


def peer_hands(
    *,
    game: str,
    engine: Mapping[str, Any],
    payload: Mapping[str, Any],
    seats_in_play: Sequence[int],
    dealt: Mapping[str, str] | None,
) -> RoundHands:
    """Check the hands of a banked game played without a bank (the tiles' peer variant): every seat sets
    high and low; there is no banker."""
    if payload.get("banker") is not None:
        raise ApplicationError(
            gettext("The peer variant has no banker: give the seats' hands only."), extra={"field": "banker"}
        )
    if len(seats_in_play) < 2:
        raise ApplicationError(
            gettext("The peer variant needs two to four players with a wager."), extra={"field": "seats"}
        )
    rules = _Banked.of(game)
    return rows_hands(
        payload=payload,
        seats_in_play=seats_in_play,
        dealt=dealt,
        spec=rules.spec,
        build=lambda rows: rules.setting(*rows),
        fouled=lambda s: _is_foul(rules, s, engine),
    )
