"""Reading the revealed hands of a round: parse, check and write them out in one canonical form.

What a dealer enters (``POST /api/rounds/{id}/hands/``) is checked here before anything
is stored, and what is stored is read back here when the round settles:

* Pai Gow Poker and Pai Gow tiles: ``{"banker": {...}, "seats": {"3": {"high": ..., "low": ...}}}``.
  The banker's hand is a setting (``high`` and ``low``) or, when the house banks, the
  unset ``cards`` (``tiles``) for the house way to set; when the system dealt the
  round, a hand left out is set by the house way from the cards it was dealt
  (training and simulation mode).
* Chinese Poker: ``{"seats": {"1": {"front": ..., "middle": ..., "back": ...}}}``.
* The tiles' peer variant: ``{"seats": {"1": {"high": ..., "low": ...}}}``, no banker.

Every problem is refused with the position it is in ("Seat 3, high hand: 5 cards
expected, got 4"); a card or tile used more often than the deck or set holds is
named with every position holding it. Nothing here touches the database.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from casino.errors import ApplicationError
from rules import engines
from rules import options as rule_options
from rules.games import ofc, registry
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
    """

    stored: dict[str, Any]
    bank: Any
    seats: dict[int, Any]
    fouled: frozenset[int]


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
    try:
        number = int(str(key))
    except ValueError:
        raise ApplicationError(f"{key!r} is not a seat number.", extra={"field": field}) from None
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
) -> RoundHands:
    """Check the hands of a banked Pai Gow Poker or Pai Gow tiles round (see the module's docstring).

    ``seats_in_play`` are the seats with a wager; ``bank_seat`` the player banking (None: the
    house); ``dealt`` the system's deal by position ("0" the dealer), when it dealt.
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
    return RoundHands(stored=stored, bank=bank_setting, seats=seat_settings, fouled=fouled)


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
    boards: Mapping[str, Mapping[str, str]],
    payload: Mapping[str, Any],
    seats_in_play: Sequence[int],
    dealt: Mapping[str, str] | None,
) -> dict[str, dict[str, str]]:
    """Place one street for each seat named in ``payload["seats"]`` on the stored ``boards``; return them all.

    A seat's first street places five cards, each street after it one (GAME_RULES.md §4);
    cards never move, and no card may be on two boards. When the system dealt, a seat
    places the cards it was dealt, in the order dealt.
    """
    seats_payload = payload.get("seats")
    if not isinstance(seats_payload, Mapping) or not seats_payload:
        raise ApplicationError(
            'Name the seats placing this street: {"seats": {"1": {"front": "...", "middle": "...", "back": "..."}}}.',
            extra={"field": "seats"},
        )
    current = {seat: _board(rows) for seat, rows in boards.items()}
    for key, entry in seats_payload.items():
        number = _seat_number(key, seats_in_play, f"seats.{key}")
        where = position_name(number)
        if not isinstance(entry, Mapping):
            raise _refuse(where, "give the street as front, middle and back", f"seats.{key}")
        board = current.get(str(number), ofc.Board.empty())
        placement: dict[str, tuple[Card, ...]] = {}
        for row, value in entry.items():
            if row not in ofc.ROWS:
                raise _refuse(where, f"unknown row {row!r}: the rows are front, middle and back", f"seats.{key}")
            cards = _parse(_jokerless, value, f"{where}, {row}", f"seats.{key}.{row}")
            if cards:
                placement[row] = cards
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
    used = {position_name(seat): board.cards for seat, board in current.items()}
    _check_once(used, tiles=False)
    return {
        seat: {row: cards_text(board.row(row)) for row in ofc.ROWS}
        for seat, board in sorted(current.items(), key=lambda kv: int(kv[0]))
    }


def _board(rows: Mapping[str, str]) -> ofc.Board:
    return ofc.Board(*(parse_cards(rows[row]) for row in ofc.ROWS))


def ofc_hands(*, boards: Mapping[str, Mapping[str, str]], seats_in_play: Sequence[int]) -> RoundHands:
    """The finished boards of an OFC round, or a refusal naming the first seat still placing."""
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
    stored = {
        str(n): {**{row: cards_text(board.row(row)) for row in ofc.ROWS}, **({"fouled": True} if n in fouls else {})}
        for n, board in built.items()
    }
    return RoundHands(stored={"seats": stored}, bank=None, seats=built, fouled=fouls)


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
) -> RoundHands:
    """Check a round's hands for its game and rules (the one entry point; see the module's docstring)."""
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
    )


def round_is_banked(round_: Any) -> bool:
    """Whether somebody banks the round (the house or a player): not in the points games, nor the peer variant."""
    return bool(round_.rule_set_snapshot["banking_mode"] != rule_options.NO_BANK)


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
        if position == bank_position and position == str(DEALER):
            payload["banker"] = {spec.noun: hand}
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
    banker = stored.get("banker")
    if banker:
        if noun in banker:
            values[f"hand-bank-{noun}"] = banker[noun]
        elif house_banks and banker.get("set_by") == "house_way":
            values[f"hand-bank-{noun}"] = f"{banker['high']} {banker['low']}"
        else:
            values["hand-bank-high"], values["hand-bank-low"] = banker["high"], banker["low"]
    return values
