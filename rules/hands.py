"""Reading the revealed hands of a round: parse, check and write them out in one canonical form.

What a dealer enters (``POST /api/rounds/{id}/hands/``) is checked here before anything
is stored, and what is stored is read back here when the round settles:

* Pai Gow Poker and Pai Gow tiles: ``{"banker": {...}, "seats": {"3": {"high": ..., "low": ...}}}``.
  The banker's hand is a setting (``high`` and ``low``) or, when the house banks, the
  unset ``cards`` (``tiles``) for the house way to set; when the system dealt the
  round, a hand left out is set by the house way from the cards it was dealt
  (training and simulation mode). When the house wagers against a player bank (Pai Gow
  Poker, issue 20), ``"house": {"cards": ...}`` is the dealer's own seven cards, which the
  house way sets.
* Chinese Poker: ``{"seats": {"1": {"front": ..., "middle": ..., "back": ...}}}``.
* The tiles' peer variant: ``{"seats": {"1": {"high": ..., "low": ...}}}``, no banker.

Every problem is refused with the position it is in ("Seat 3, high hand: 5 cards
expected, got 4"); a card or tile used more often than the deck or set holds is
named with every position holding it. Nothing here touches the database.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from casino.errors import ApplicationError, WrongState
from rules import engines
from rules import options as rule_options
from rules.games import ofc, ofc_table, registry
from rules.games.cards import Card, cards_text, parse_cards
from rules.games.errors import InvalidHand

DEALER = 0  # the dealer's own position in the action order
BANK = "bank"


def position_name(position: int | str) -> str:
    """ "Seat 3", or "The bank"."""
    return "The bank" if position in (BANK, DEALER) else f"Seat {position}"


@dataclass(frozen=True)
class RoundHands:
    """A round's checked hands: ``stored`` (canonical JSON), and the engine objects settlement reads.

    ``bank`` is the banker's setting (None when nobody banks); ``seats`` maps seat
    numbers to a ``Setting`` (banked games, peer tiles), an ``Arrangement`` (Chinese
    Poker) or a ``Board`` (OFC); ``fouled`` names the seats whose hand is mis-set.
    Chinese Poker's ``surrendered`` and ``swapped`` seats (``rules.surrender_swap``).
    """

    stored: dict[str, Any]
    bank: Any
    seats: dict[int, Any]
    fouled: frozenset[int]
    house: Any = None  # the house's setting when it wagers against a player bank (position 0)
    surrendered: frozenset[int] = frozenset()
    swapped: frozenset[int] = frozenset()


def _refuse(where: str, message: str, field: str) -> ApplicationError:
    return ApplicationError(f"{where}: {message}", extra={"field": field})


def _text(value: object, where: str, field: str) -> str:
    if not isinstance(value, str):
        raise _refuse(where, f"write the {'tiles' if 'tiles' in field else 'cards'} as text, not {value!r}", field)
    return value


def _parse(parse: Callable[[str], tuple[Any, ...]], value: object, where: str, field: str) -> tuple[Any, ...]:
    try:
        return parse(_text(value, where, field))
    except InvalidHand as exc:
        raise _refuse(where, str(exc), field) from None


def _count(items: Sequence[Any], size: int, noun: str, where: str, field: str) -> None:
    if len(items) != size:
        raise _refuse(where, f"{size} {noun} expected, got {len(items)}", field)


def _seat_number(key: object, seats_in_play: Sequence[int], field: str) -> int:
    text = str(key).strip()
    if not (text.isascii() and text.isdigit()):  # int() would also read "１" or "+1"
        raise ApplicationError(f"{key!r} is not a seat number.", extra={"field": field})
    number = int(text)
    if number not in seats_in_play:
        in_play = ", ".join(map(str, seats_in_play)) or "none"
        raise ApplicationError(
            f"Seat {number} has no wager in this round (seats in play: {in_play}).", extra={"field": field}
        )
    return number


def _check_once(used: Mapping[str, Sequence[Any]], *, tiles: bool) -> None:
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
            holds = f"the set has {allowed}" if tiles else "the deck has one"
            raise ApplicationError(
                f"{label} is used {len(names)} times ({places}); {holds}.",
                extra={"field": "hands", "item": str(item)},
            )


def _check_dealt(name: str, field: str, items: Sequence[Any], dealt: str | None, *, spec: registry.Game) -> None:
    if dealt is None:
        return
    expected = spec.parse(dealt)
    if Counter(items) != Counter(expected):
        raise ApplicationError(
            f"{name} was dealt {dealt}; the hand entered holds {spec.text(items)}.",
            extra={"field": field},
        )


# --- the banked games ---------------------------------------------------------------------------


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
        raise _refuse(where, "give the hand as high and low", field)
    unset_key = game.noun
    keys = set(entry)
    if unset_key in keys and unset_allowed and keys <= {unset_key}:
        items = _parse(game.parse, entry[unset_key], where, f"{field}.{unset_key}")
        _count(items, sum(game.hand_size), game.noun, where, f"{field}.{unset_key}")
        return items
    unknown = sorted(keys - {"high", "low"})
    if unknown:
        if unset_key in keys:
            message = f"only the house's hand is set by the house way: give the {game.noun} as high and low"
            raise _refuse(where, message, field)
        raise _refuse(where, f"unknown part {unknown[0]!r}: a hand is high and low", field)
    hands = []
    for part, size in zip(("high", "low"), game.hand_size, strict=True):
        if part not in entry:
            raise _refuse(where, f"the {part} hand is missing", f"{field}.{part}")
        items = _parse(game.parse, entry[part], f"{where}, {part} hand", f"{field}.{part}")
        _count(items, size, game.noun, f"{where}, {part} hand", f"{field}.{part}")
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
        raise ApplicationError("Give the seats' hands by seat number.", extra={"field": "seats"})
    bank_position = str(bank_seat if bank_seat is not None else DEALER)
    stored_seats: dict[str, dict[str, Any]] = {}
    settings: dict[int, Any] = {}
    used: dict[str, Sequence[Any]] = {}
    for key, entry in seats_payload.items():
        number = _seat_number(key, seats_in_play, f"seats.{key}")
        where = position_name(number)
        high, low = _read_setting(rules, entry, where, f"seats.{key}", unset_allowed=False)  # type: ignore[misc]
        _check_dealt(where, f"seats.{key}", (*high, *low), (dealt or {}).get(str(number)), spec=rules.spec)
        used[where] = (*high, *low)
        settings[number] = (high, low)
        stored_seats[str(number)] = {"high": rules.text(high), "low": rules.text(low), "set_by": "player"}
    for number in seats_in_play:
        if number in settings:
            continue
        if dealt is None:
            raise ApplicationError(f"Seat {number}'s hand is missing.", extra={"field": f"seats.{number}"})
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
            whose = "the house's" if house_banks else f"the banker's (seat {bank_seat})"
            message = f"The bank's hand is missing: give {whose} {rules.noun}"
            raise ApplicationError(
                message + (f" (or all {sum(rules.hand_size)} unset for the house way)." if house_banks else "."),
                extra={"field": "banker"},
            )
        banker = {rules.noun: dealt[bank_position]}
    read = _read_setting(rules, banker, "The bank", "banker", unset_allowed=house_banks or dealt is not None)
    if len(read) == 2 and isinstance(read[0], tuple):
        high, low = read  # type: ignore[misc]
        bank_items = (*high, *low)
        set_by, why = "dealer", ""
    else:
        bank_items = read
        setting, why = _house_way(rules, bank_items, engine)
        high, low, set_by = setting.high, setting.low, "house_way"
    _check_dealt("The bank", "banker", bank_items, (dealt or {}).get(bank_position), spec=rules.spec)
    used["the bank"] = bank_items
    house = _house_hand(rules, payload, engine, house_plays=house_plays, dealt=dealt)
    if house is not None:
        used["the house"] = (*house.high, *house.low)
    _check_once(used, tiles=rules.tiles)
    try:
        bank_setting = rules.setting(high, low)
        seat_settings = {number: rules.setting(*hands) for number, hands in settings.items()}
    except InvalidHand as exc:  # the checks above leave nothing for this to find; kept as a guard
        raise ApplicationError(str(exc), extra={"field": "hands"}) from None
    fouled = frozenset(n for n, s in seat_settings.items() if _is_foul(rules, s, engine))
    for number in fouled:
        stored_seats[str(number)]["fouled"] = True
    bank_entry: dict[str, Any] = {"high": rules.text(high), "low": rules.text(low), "set_by": set_by}
    if why:
        bank_entry["rule"] = why
    if _is_foul(rules, bank_setting, engine):
        bank_entry["fouled"] = True  # the engine re-sets a fouled bank hand by the house way
    stored = {"banker": bank_entry, "seats": dict(sorted(stored_seats.items(), key=lambda kv: int(kv[0])))}
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
                "The house has no wager against the bank this round: leave the house's hand out.",
                extra={"field": "house"},
            )
        return None
    if entry is None:
        if dealt is None:
            raise ApplicationError(
                f"The house's hand is missing: it wagers against the bank, give its {sum(rules.hand_size)} "
                f"{rules.noun} for the house way.",
                extra={"field": "house"},
            )
        entry = {rules.noun: dealt[str(DEALER)]}
    where, field = "The house", "house"
    if not isinstance(entry, Mapping) or set(entry) != {rules.noun}:
        raise _refuse(
            where, f"the house way sets the house's hand: give all {sum(rules.hand_size)} {rules.noun} unset", field
        )
    items = _parse(rules.parse, entry[rules.noun], where, f"{field}.{rules.noun}")
    _count(items, sum(rules.hand_size), rules.noun, where, f"{field}.{rules.noun}")
    _check_dealt(where, field, items, (dealt or {}).get(str(DEALER)), spec=rules.spec)
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
        raise ApplicationError("The peer variant has no banker: give the seats' hands only.", extra={"field": "banker"})
    if len(seats_in_play) < 2:
        raise ApplicationError("The peer variant needs two to four players with a wager.", extra={"field": "seats"})
    rules = _Banked.of(game)
    return _rows_hands(
        payload=payload,
        seats_in_play=seats_in_play,
        dealt=dealt,
        spec=rules.spec,
        build=lambda rows: rules.setting(*rows),
        fouled=lambda s: _is_foul(rules, s, engine),
    )


def arranged_hands(
    *, game: str, payload: Mapping[str, Any], seats_in_play: Sequence[int], dealt: Mapping[str, str] | None
) -> RoundHands:
    """Check the arrangements of a game set in rows at once (Chinese Poker: front 3, middle 5, back 5) for
    every seat in play."""
    spec = registry.game(game)
    if payload.get("banker") is not None:
        raise ApplicationError(f"{spec.name} has no banker: give the seats' hands only.", extra={"field": "banker"})
    engine = engines.arranged(game)
    return _rows_hands(
        payload=payload, seats_in_play=seats_in_play, dealt=dealt, spec=spec, build=engine.build, fouled=engine.is_foul
    )


def _jokerless(text: str) -> tuple[Card, ...]:
    cards = parse_cards(text)
    if any(card.is_joker for card in cards):
        raise InvalidHand("this game is played without the joker")
    return cards


def _reader(spec: registry.Game) -> Callable[[str], tuple[Any, ...]]:
    """How a hand of the game is read: its notation, refusing the joker where its deck has none."""
    return spec.parse if spec.tiles or spec.joker else _jokerless


def _rows_hands(
    *,
    payload: Mapping[str, Any],
    seats_in_play: Sequence[int],
    dealt: Mapping[str, str] | None,
    spec: registry.Game,
    build: Callable[[list[tuple[Any, ...]]], Any],
    fouled: Callable[[Any], bool],
) -> RoundHands:
    rows, parse, text, noun, tiles = spec.parts, _reader(spec), spec.text, spec.noun, spec.tiles
    seats_payload = payload.get("seats") or {}
    if not isinstance(seats_payload, Mapping):
        raise ApplicationError("Give the seats' hands by seat number.", extra={"field": "seats"})
    names = [name for name, _ in rows]
    stored: dict[str, dict[str, Any]] = {}
    parsed: dict[int, list[tuple[Any, ...]]] = {}
    used: dict[str, Sequence[Any]] = {}
    for key, entry in seats_payload.items():
        number = _seat_number(key, seats_in_play, f"seats.{key}")
        where = position_name(number)
        if not isinstance(entry, Mapping):
            raise _refuse(where, f"give the hand as {', '.join(names)}", f"seats.{key}")
        unknown = sorted(set(entry) - set(names))
        if unknown:
            raise _refuse(where, f"unknown row {unknown[0]!r}: the rows are {', '.join(names)}", f"seats.{key}")
        hand = []
        for name, size in rows:
            field = f"seats.{key}.{name}"
            if name not in entry:
                raise _refuse(where, f"the {name} is missing", field)
            items = _parse(parse, entry[name], f"{where}, {name}", field)
            _count(items, size, noun, f"{where}, {name}", field)
            hand.append(items)
        everything = tuple(item for row in hand for item in row)
        _check_dealt(where, f"seats.{key}", everything, (dealt or {}).get(str(number)), spec=spec)
        used[where] = everything
        parsed[number] = hand
        stored[str(number)] = {name: text(items) for name, items in zip(names, hand, strict=True)}
    missing = [n for n in seats_in_play if n not in parsed]
    if missing:
        raise ApplicationError(f"Seat {missing[0]}'s hand is missing.", extra={"field": f"seats.{missing[0]}"})
    _check_once(used, tiles=tiles)
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


# --- Open-Face Chinese Poker, street by street --------------------------------------------------


def ofc_place(
    *,
    boards: Mapping[str, Any],
    payload: Mapping[str, Any],
    seats_in_play: Sequence[int],
    dealt: Mapping[str, str] | None,
    order: Sequence[int] | None = None,
    fantasyland: Collection[int] = frozenset(),
) -> dict[str, Any]:
    """Place one street for each seat named in ``payload["seats"]`` on the stored ``boards``; return them all.

    A seat's first street places five cards, each street after it one (GAME_RULES.md §4);
    cards never move, and no card may be on two boards. When the system dealt, a seat
    places the cards it was dealt, in the order dealt.

    With a turn order (``order``: left of the button first, the button last) the seats place in
    turn (``rules.games.ofc_table``): a seat named before its turn is refused, nothing placed, and
    the placements made are kept, in order, under ``turns`` (``[seat, cards]`` each). A seat in
    ``fantasyland`` sets 13 cards at once on its turn of the first street and names the card it
    discards (``discard``, kept on its board) when it received 14.
    """
    seats_payload = payload.get("seats")
    if not isinstance(seats_payload, Mapping) or not seats_payload:
        raise ApplicationError(
            'Name the seats placing this street: {"seats": {"1": {"front": "...", "middle": "...", "back": "..."}}}.',
            extra={"field": "seats"},
        )
    current = {seat: _board(rows) for seat, rows in boards.items() if seat.isdigit()}
    discards = {seat: rows["discard"] for seat, rows in boards.items() if seat.isdigit() and rows.get("discard")}
    turns = [(int(seat), int(cards)) for seat, cards in boards.get("turns", [])]
    keys = list(seats_payload)
    if order is not None:
        _ofc_history_check(turns, order, fantasyland, {int(s): b.card_count for s, b in current.items()})
        keys = _in_turn(seats_payload, order, fantasyland, len(turns), seats_in_play)
    for key in keys:
        entry = seats_payload[key]
        number = _seat_number(key, seats_in_play, f"seats.{key}")
        where = position_name(number)
        if not isinstance(entry, Mapping):
            raise _refuse(where, "give the street as front, middle and back", f"seats.{key}")
        board = current.get(str(number), ofc.Board.empty())
        placement: dict[str, tuple[Card, ...]] = {}
        discard: tuple[Card, ...] = ()
        for row, value in entry.items():
            if row == "discard" and number in fantasyland:
                discard = _parse(_jokerless, value, f"{where}, discard", f"seats.{key}.discard")
                continue
            if row not in ofc.ROWS:
                raise _refuse(where, f"unknown row {row!r}: the rows are front, middle and back", f"seats.{key}")
            cards = _parse(_jokerless, value, f"{where}, {row}", f"seats.{key}.{row}")
            if cards:
                placement[row] = cards
        if number in fantasyland:
            current[str(number)] = _fantasyland_set(number, placement, discard, dealt, players=len(seats_in_play))
            if discard:
                discards[str(number)] = cards_text(discard)
            turns.append((number, ofc.BOARD_SIZE))
            continue
        street = board.street + 1
        if board.complete:
            raise _refuse(
                f"{where}, street {street}",
                f"the board is complete: all {ofc.BOARD_SIZE} cards are placed",
                f"seats.{key}",
            )
        if dealt is not None:
            hand = parse_cards(dealt[str(number)])
            start = board.card_count
            expected = hand[start : start + board.next_street_size]
            placed = [card for cards in placement.values() for card in cards]
            if Counter(placed) != Counter(expected):
                raise ApplicationError(
                    f"{where}, street {street}: the cards dealt are {cards_text(expected)}.",
                    extra={"field": f"seats.{key}"},
                )
        try:
            current[str(number)] = board.place(placement)
        except InvalidHand as exc:
            raise _refuse(f"{where}, street {street}", str(exc), f"seats.{key}") from None
        turns.append((number, current[str(number)].card_count - board.card_count))
    used: dict[str, Sequence[Any]] = {position_name(seat): board.cards for seat, board in current.items()}
    used.update({f"{position_name(seat)}, discard": parse_cards(text) for seat, text in discards.items()})
    _check_once(used, tiles=False)
    result: dict[str, Any] = {
        seat: {row: cards_text(board.row(row)) for row in ofc.ROWS}
        | ({"discard": discards[seat]} if seat in discards else {})
        for seat, board in sorted(current.items(), key=lambda kv: int(kv[0]))
    }
    if order is not None:
        result["turns"] = [[seat, cards] for seat, cards in turns]
    return result


def _in_turn(
    seats_payload: Mapping[str, Any],
    order: Sequence[int],
    fantasyland: Collection[int],
    placed: int,
    seats_in_play: Sequence[int],
) -> list[str]:
    """The seats named, in the order they act from placement ``placed`` on; a seat named out of its turn is
    refused (a double tap, a form sent again or an old page: the seat has placed, or another seat acts first)."""
    waiting = {_seat_number(key, seats_in_play, f"seats.{key}"): key for key in seats_payload}
    sequence = ofc_table.turn_sequence(order, fantasyland=fantasyland)
    keys: list[str] = []
    while waiting:
        turn = sequence[placed] if placed < len(sequence) else None
        if turn is not None and turn.seat in waiting:
            keys.append(waiting.pop(turn.seat))
            placed += 1
            continue
        seat = min(waiting, key=lambda s: order.index(s) if s in order else len(order))
        field = f"seats.{waiting[seat]}"
        if turn is None:
            raise WrongState(f"Seat {seat}: every board is complete.", extra={"field": field})
        own = next((t for t in sequence[placed:] if t.seat == seat), None)
        if own is None:
            message = f"Seat {seat}'s board is complete: it is seat {turn.seat}'s turn (street {turn.street})."
        elif own.street > turn.street:
            message = f"Seat {seat} has placed street {turn.street}: it is seat {turn.seat}'s turn."
        else:
            message = f"It is seat {turn.seat}'s turn (street {turn.street}): seat {seat} places after them."
        raise WrongState(message + " Nothing was placed.", extra={"field": field, "turn": turn.seat})
    return keys


def _fantasyland_set(
    number: int,
    placement: Mapping[str, tuple[Card, ...]],
    discard: tuple[Card, ...],
    dealt: Mapping[str, str] | None,
    *,
    players: int,
) -> ofc.Board:
    """A Fantasyland seat's 13 cards set at once, its discard checked against what it received."""
    where = f"{position_name(number)}, Fantasyland"
    placed = tuple(card for cards in placement.values() for card in cards)
    received = parse_cards(dealt[str(number)]) if dealt is not None else placed + discard
    size = ofc_table.fantasyland_cards(players)
    if len(received) != size or len(placed) != ofc.BOARD_SIZE:
        sets = f"sets {ofc.BOARD_SIZE} of its {size} cards at once"
        sets += " and discards 1" if size > ofc.BOARD_SIZE else ""
        raise _refuse(where, f"the seat {sets}; got {len(placed)} set and {len(discard)} discarded", f"seats.{number}")
    try:
        return ofc_table.set_fantasyland(received, placement, discard)
    except InvalidHand as exc:
        raise _refuse(where, str(exc), f"seats.{number}") from None


def _ofc_history_check(
    turns: Sequence[tuple[int, int]], order: Sequence[int], fantasyland: Collection[int], cards: Mapping[int, int]
) -> None:
    try:
        ofc_table.check_turns(turns, order, fantasyland=fantasyland, cards_on_boards=cards)
    except InvalidHand as exc:
        raise ApplicationError(
            f"The placements stored break the turn order: {exc}.", extra={"field": "placements"}
        ) from None


def ofc_history_check(*, payload: Mapping[str, Any], order: Sequence[int] | None, seats_in_play: Sequence[int]) -> None:
    """Refuse finished boards whose placement history (``turns``, kept with the hands when the round was placed in
    turn) breaks the turn order or a Fantasyland seat's card count: 13 set at once, and one discarded when it
    received 14 (the settle and the replay read it; hands entered at once, a correction's, have none)."""
    if "turns" not in payload:
        return
    if not order:
        raise ApplicationError("The placements stored have no turn order to check them by.", extra={"field": "turns"})
    fantasyland = {int(seat): str(discard) for seat, discard in (payload.get("fantasyland") or {}).items()}
    turns = [(int(seat), int(cards)) for seat, cards in payload["turns"]]
    _ofc_history_check(turns, order, fantasyland, dict.fromkeys(seats_in_play, ofc.BOARD_SIZE))
    expected = ofc_table.fantasyland_cards(len(seats_in_play)) - ofc.BOARD_SIZE
    for seat, discard in fantasyland.items():
        if len(discard.split()) != expected:
            raise ApplicationError(
                f"Seat {seat} played in Fantasyland: {expected} card(s) discarded expected, got {discard or 'none'}.",
                extra={"field": "fantasyland"},
            )


def _board(rows: Mapping[str, str]) -> ofc.Board:
    return ofc.Board(*(parse_cards(rows[row]) for row in ofc.ROWS))


def ofc_hands(
    *, boards: Mapping[str, Any], seats_in_play: Sequence[int], fantasyland: Collection[int] = frozenset()
) -> RoundHands:
    """The finished boards of an OFC round, or a refusal naming the first seat still placing. Boards placed in
    turn keep their history with the hands: ``turns``, and ``fantasyland``, each such seat's discard."""
    built: dict[int, ofc.Board] = {}
    for number in seats_in_play:
        rows = boards.get(str(number))
        board = _board(rows) if rows is not None else ofc.Board.empty()
        if not board.complete:
            raise ApplicationError(
                f"Seat {number} has placed {board.card_count} of {ofc.BOARD_SIZE} cards: finish the boards first.",
                extra={"field": f"seats.{number}"},
            )
        built[number] = board
    fouls = frozenset(n for n, board in built.items() if ofc.is_foul(board))
    seats = {
        str(n): {**{row: cards_text(board.row(row)) for row in ofc.ROWS}, **({"fouled": True} if n in fouls else {})}
        for n, board in built.items()
    }
    stored: dict[str, Any] = {"seats": seats}
    if "turns" in boards:
        stored["turns"] = boards["turns"]
        stored["fantasyland"] = {str(n): boards[str(n)].get("discard", "") for n in sorted(fantasyland)}
    return RoundHands(stored=stored, bank=None, seats=built, fouled=fouls)


def boards_read(*, game: str, payload: Mapping[str, Any], seats_in_play: Sequence[int]) -> RoundHands:
    """Finished boards of a game placed street by street, entered at once (a supervisor's correction):
    front 3, middle 5, back 5 a seat in Open-Face."""
    engine = engines.arranged(game)
    return _rows_hands(
        payload=payload,
        seats_in_play=seats_in_play,
        dealt=None,
        spec=registry.game(game),
        build=engine.build,
        fouled=engine.is_foul,
    )


def round_hands_read(
    *,
    game: str,
    snapshot: Mapping[str, Any],
    payload: Mapping[str, Any],
    seats_in_play: Sequence[int],
    bank_seat: int | None,
    dealt: Mapping[str, str] | None,
    house_plays: bool = False,
) -> RoundHands:
    """Check a round's hands for its game and rules (the one entry point; see the module's docstring).
    ``house_plays``: the house wagers against the player bank (issue 20)."""
    if not isinstance(payload, Mapping):
        raise ApplicationError("Give the hands as an object with the seats' hands.", extra={"field": "hands"})
    engine = rule_options.engine_options(snapshot)
    banking = snapshot["banking_mode"]
    spec = registry.game(game)
    if spec.placed_by_street:
        raise ApplicationError(
            f"{spec.name} is placed street by street: post each street to the round's placements.",
            extra={"field": "hands"},
        )
    if not spec.bankable:
        return arranged_hands(game=game, payload=payload, seats_in_play=seats_in_play, dealt=dealt)
    if banking == rule_options.NO_BANK:
        return peer_hands(game=game, engine=engine, payload=payload, seats_in_play=seats_in_play, dealt=dealt)
    return banked_hands(
        game=game,
        engine=engine,
        payload=payload,
        seats_in_play=seats_in_play,
        bank_seat=bank_seat,
        house_banks=bank_seat is None,
        dealt=dealt,
        house_plays=house_plays,
    )


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
) -> dict[str, Any]:
    """The system's deal (training and simulation mode) as a dealer would enter it, every hand set as the house
    sets it: the house way for the banked games (the house's own hand left unset, for the house way to set when
    the round settles), the best arrangement for Chinese Poker. ``bank_position`` is the position dealt the
    bank's hand ("0" the dealer's, or the banking seat's number), None when nobody banks. Open-Face is placed
    street by street, so it has nothing to set at once.
    """
    payload: dict[str, Any] = {"seats": {}}
    spec = registry.game(game)
    if spec.placed_by_street:
        return payload
    engine = rule_options.engine_options(snapshot)
    for position, hand in dealt.items():
        if position == str(DEALER):
            # The dealer's cards: the house banks, or it wagers against a player bank; the house way sets both.
            payload["banker" if position == bank_position else "house"] = {spec.noun: hand}
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
