"""A round's hands as stored, read back for what the pages and the services ask of them: whether somebody banks,
which position of the deal is the bank's, the system's deal set as the house sets it, and the fields a page enters
them in again (``entry_fields``); the hands as a page enters them (``HandsEntered``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict, cast

from rules import engines
from rules import options as rule_options
from rules.games import registry
from rules.hands.reading import DEALER, StoredHands, Swap


def stored_hands(value: object) -> StoredHands | None:
    """A round's hands as read from a JSON column (``Round.hands``, a settlement's ``Posting.hands``): None when there
    are none, or the value is not hands (a row no service writes)."""
    if not isinstance(value, dict) or not isinstance(value.get("seats"), dict):
        return None
    return cast(StoredHands, value)  # written from ``RoundHands.stored`` alone


def round_is_banked(round_: Any) -> bool:
    """Whether somebody banks the round (the house or a player): not in the points games, nor the peer variant."""
    return bool(round_.rule_set_snapshot["banking_mode"] != rule_options.NO_BANK)


# The tiles' peer variant (GAME_RULES.md §1, "Peer variant", Czech seed): two to four players, equal stakes.
PEER_PLAYERS = (2, 4)


def round_is_peer(round_: Any) -> bool:
    """Whether the round is a banked game played without a bank (the tiles' peer variant): each player against
    each, at equal stakes, two to four players."""
    return bool(registry.game(round_.rule_set_snapshot["game"]).bankable and not round_is_banked(round_))


def dealt_bank_position(round_: Any) -> str | None:
    """Which position of a round's deal holds the bank's hand: "0" (the dealer's) when the house banks, the
    banking seat's number when a player banks, None when nobody banks (the points games, the peer variant)."""
    if not round_is_banked(round_):
        return None
    return str(round_.bank_seat.number if round_.bank_seat is not None else DEALER)


def dealt_hands_set(
    *, game: str, snapshot: Mapping[str, Any], dealt: Mapping[str, str], bank_position: str | None
) -> HandsEntered:
    """The system's deal (training and simulation mode) as a dealer would enter it, every hand set as the house
    sets it: the house way for the banked games (the house's own hand left unset, for the house way to set when
    the round settles), the best arrangement for Chinese Poker. ``bank_position`` is the position dealt the
    bank's hand ("0" the dealer's, or the banking seat's number), None when nobody banks. Open-Face is placed
    street by street, so it has nothing to set at once.
    """
    payload: HandsEntered = {"seats": {}}
    spec = registry.game(game)
    if spec.placed_by_street:
        return payload
    engine = rule_options.engine_options(snapshot)
    for position, hand in dealt.items():
        if position == str(DEALER):
            # The dealer's cards: the house banks, or it wagers against a player bank; the house way sets both.
            if position == bank_position:
                payload["banker"] = {spec.noun: hand}
            else:
                payload["house"] = {spec.noun: hand}
            continue
        items = spec.parse(hand)
        if spec.bankable:
            setting, _rule = engines.banked(game).house_way(items, **engine["house_way"])
        else:
            best = engines.arranged(game).best
            assert best is not None, f"{spec.name} has no best arrangement to set a hand by"
            setting = best(items, **engine["score"])
        setting_text = {part: spec.text(getattr(setting, part)) for part in spec.part_names}
        if position == bank_position:
            payload["banker"] = setting_text
        else:
            payload["seats"][position] = setting_text
    return payload


class HandsEntered(TypedDict):
    """The hands as the dealer entered them, as ``round_hands_record`` and ``settlement_preview`` take them: each
    seat's parts in notation by seat number; the bank's (``banker``) and the house's own hand (``house``) as parts,
    or as one ``cards``/``tiles`` entry for the house way to set; Chinese Poker's surrendered seats and the swaps
    recorded; Open-Face's placement history (as ``StoredHands`` holds them)."""

    seats: dict[str, dict[str, str]]
    surrendered: NotRequired[list[int]]
    house: NotRequired[dict[str, str]]
    banker: NotRequired[dict[str, str]]
    swaps: NotRequired[list[Swap]]
    turns: NotRequired[list[list[int]]]
    fantasyland: NotRequired[dict[str, str]]


def entry_fields(stored: Mapping[str, Any], *, noun: str, house_banks: bool) -> dict[str, str]:
    """Stored hands as the fields a page enters them in again (``hand-<position>-<part>``, ``position`` a seat
    number or ``bank``): each seat's setting or rows as stored; the bank's as stored, except a house hand the house
    way set, which is given back unset (all its ``noun``, "cards" or "tiles") so the house way sets it again from
    what is entered. The tablet and the pit's correction form start from these.

    >>> entry_fields({"banker": {"high": "Qs Qd 8s 5d 3c", "low": "Jh Jc", "set_by": "house_way"},
    ...               "seats": {"1": {"high": "As Ad 7s 4d 2c", "low": "Kh Kc", "set_by": "player"}}},
    ...              noun="cards", house_banks=True)
    {'hand-1-high': 'As Ad 7s 4d 2c', 'hand-1-low': 'Kh Kc', 'hand-bank-cards': 'Qs Qd 8s 5d 3c Jh Jc'}
    """
    values: dict[str, str] = {}
    for seat, hand in (stored.get("seats") or {}).items():
        for part in ("high", "low", "front", "middle", "back"):
            if part in hand:
                values[f"hand-{seat}-{part}"] = hand[part]
    house = stored.get("house")
    if house:
        values[f"hand-house-{noun}"] = house[noun] if noun in house else f"{house['high']} {house['low']}"
    banker = stored.get("banker")
    if banker:
        if noun in banker:
            values[f"hand-bank-{noun}"] = banker[noun]
        elif house_banks and banker.get("set_by") == "house_way":
            values[f"hand-bank-{noun}"] = f"{banker['high']} {banker['low']}"
        else:
            values["hand-bank-high"], values["hand-bank-low"] = banker["high"], banker["low"]
    return values
