"""Reading Open-Face Chinese Poker's hands: streets placed in turn on the stored boards, the placement history and
Fantasyland checked, and the finished boards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from casino.errors import ApplicationError, WrongState
from rules import engines
from rules.games import ofc, ofc_table, registry
from rules.games.cards import Card, cards_text, parse_cards
from rules.games.errors import InvalidHand
from rules.hands.reading import (
    RoundHands,
    StoredHand,
    StoredHands,
    check_once,
    parse_part,
    position_name,
    refuse,
    seat_number_read,
)
from rules.hands.rows import jokerless, rows_hands


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
            _(
                "Name the seats placing this street: "
                '{"seats": {"1": {"front": "...", "middle": "...", "back": "..."}}}.'
            ),
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
        number = seat_number_read(key, seats_in_play, f"seats.{key}")
        where = position_name(number)
        if not isinstance(entry, Mapping):
            raise refuse(where, _("give the street as front, middle and back"), f"seats.{key}")
        board = current.get(str(number), ofc.Board.empty())
        placement: dict[str, tuple[Card, ...]] = {}
        discard: tuple[Card, ...] = ()
        for row, value in entry.items():
            if row == "discard" and number in fantasyland:
                discard = parse_part(
                    jokerless, value, _("%(where)s, discard") % {"where": where}, f"seats.{key}.discard"
                )
                continue
            if row not in ofc.ROWS:
                raise refuse(
                    where,
                    _("unknown row %(row)s: the rows are front, middle and back") % {"row": repr(row)},
                    f"seats.{key}",
                )
            cards = parse_part(jokerless, value, f"{where}, {row}", f"seats.{key}.{row}")
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
            raise refuse(
                _("%(where)s, street %(street)s") % {"where": where, "street": street},
                _("the board is complete: all %(count)s cards are placed") % {"count": ofc.BOARD_SIZE},
                f"seats.{key}",
            )
        if dealt is not None:
            hand = parse_cards(dealt[str(number)])
            start = board.card_count
            expected = hand[start : start + board.next_street_size]
            placed = [card for cards in placement.values() for card in cards]
            if Counter(placed) != Counter(expected):
                raise ApplicationError(
                    _("%(where)s, street %(street)s: the cards dealt are %(expected)s.")
                    % {"where": where, "street": street, "expected": cards_text(expected)},
                    extra={"field": f"seats.{key}"},
                )
        try:
            current[str(number)] = board.place(placement)
        except InvalidHand as exc:
            raise refuse(
                _("%(where)s, street %(street)s") % {"where": where, "street": street}, str(exc), f"seats.{key}"
            ) from None
        turns.append((number, current[str(number)].card_count - board.card_count))
    used: dict[str, Sequence[Any]] = {position_name(seat): board.cards for seat, board in current.items()}
    used.update(
        {_("%(where)s, discard") % {"where": position_name(seat)}: parse_cards(text) for seat, text in discards.items()}
    )
    check_once(used, tiles=False)
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
    waiting = {seat_number_read(key, seats_in_play, f"seats.{key}"): key for key in seats_payload}
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
            raise WrongState(_("Seat %(seat)s: every board is complete.") % {"seat": seat}, extra={"field": field})
        own = next((t for t in sequence[placed:] if t.seat == seat), None)
        if own is None:
            message = _("Seat %(seat)s's board is complete: it is seat %(turn)s's turn (street %(street)s).")
        elif own.street > turn.street:
            message = _("Seat %(seat)s has placed street %(street)s: it is seat %(turn)s's turn.")
        else:
            message = _("It is seat %(turn)s's turn (street %(street)s): seat %(seat)s places after them.")
        message %= {"seat": seat, "turn": turn.seat, "street": turn.street}
        raise WrongState(message + " " + _("Nothing was placed."), extra={"field": field, "turn": turn.seat})
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
    where = _("%(where)s, Fantasyland") % {"where": position_name(number)}
    placed = tuple(card for cards in placement.values() for card in cards)
    received = parse_cards(dealt[str(number)]) if dealt is not None else placed + discard
    size = ofc_table.fantasyland_cards(players)
    if len(received) != size or len(placed) != ofc.BOARD_SIZE:
        if size > ofc.BOARD_SIZE:
            sets = _(
                "the seat sets %(board)s of its %(size)s cards at once and discards 1; "
                "got %(set)s set and %(discarded)s discarded"
            )
        else:
            sets = _(
                "the seat sets %(board)s of its %(size)s cards at once; got %(set)s set and %(discarded)s discarded"
            )
        counts = {"board": ofc.BOARD_SIZE, "size": size, "set": len(placed), "discarded": len(discard)}
        raise refuse(where, sets % counts, f"seats.{number}")
    try:
        return ofc_table.set_fantasyland(received, placement, discard)
    except InvalidHand as exc:
        raise refuse(where, str(exc), f"seats.{number}") from None


def _ofc_history_check(
    turns: Sequence[tuple[int, int]], order: Sequence[int], fantasyland: Collection[int], cards: Mapping[int, int]
) -> None:
    try:
        ofc_table.check_turns(turns, order, fantasyland=fantasyland, cards_on_boards=cards)
    except InvalidHand as exc:
        raise ApplicationError(
            _("The placements stored break the turn order: %(problem)s.") % {"problem": exc},
            extra={"field": "placements"},
        ) from None


def ofc_history_check(*, payload: Mapping[str, Any], order: Sequence[int] | None, seats_in_play: Sequence[int]) -> None:
    """Refuse finished boards whose placement history (``turns``, kept with the hands when the round was placed in
    turn) breaks the turn order or a Fantasyland seat's card count: 13 set at once, and one discarded when it
    received 14 (the settle and the replay read it; hands entered at once, a correction's, have none)."""
    if "turns" not in payload:
        return
    if not order:
        raise ApplicationError(
            _("The placements stored have no turn order to check them by."), extra={"field": "turns"}
        )
    fantasyland = {int(seat): str(discard) for seat, discard in (payload.get("fantasyland") or {}).items()}
    turns = [(int(seat), int(cards)) for seat, cards in payload["turns"]]
    _ofc_history_check(turns, order, fantasyland, dict.fromkeys(seats_in_play, ofc.BOARD_SIZE))
    expected = ofc_table.fantasyland_cards(len(seats_in_play)) - ofc.BOARD_SIZE
    for seat, discard in fantasyland.items():
        if len(discard.split()) != expected:
            raise ApplicationError(
                _("Seat %(seat)s played in Fantasyland: %(expected)s card(s) discarded expected, got %(discarded)s.")
                % {"seat": seat, "expected": expected, "discarded": discard or _("none")},
                extra={"field": "fantasyland"},
            )


def _board(rows: Mapping[str, str]) -> ofc.Board:
    return ofc.Board(
        front=parse_cards(rows["front"]), middle=parse_cards(rows["middle"]), back=parse_cards(rows["back"])
    )


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
                _("Seat %(seat)s has placed %(placed)s of %(size)s cards: finish the boards first.")
                % {"seat": number, "placed": board.card_count, "size": ofc.BOARD_SIZE},
                extra={"field": f"seats.{number}"},
            )
        built[number] = board
    fouls = frozenset(n for n, board in built.items() if ofc.is_foul(board))
    seats: dict[str, StoredHand] = {}
    for n, board in built.items():
        hand: StoredHand = {
            "front": cards_text(board.row("front")),
            "middle": cards_text(board.row("middle")),
            "back": cards_text(board.row("back")),
        }
        if n in fouls:
            hand["fouled"] = True
        seats[str(n)] = hand
    stored: StoredHands = {"seats": seats}
    if "turns" in boards:
        stored["turns"] = boards["turns"]
        stored["fantasyland"] = {str(n): boards[str(n)].get("discard", "") for n in sorted(fantasyland)}
    return RoundHands(stored=stored, bank=None, seats=built, fouled=fouls)


def boards_read(*, game: str, payload: Mapping[str, Any], seats_in_play: Sequence[int]) -> RoundHands:
    """Finished boards of a game placed street by street, entered at once (a supervisor's correction):
    front 3, middle 5, back 5 a seat in Open-Face."""
    engine = engines.arranged(game)
    return rows_hands(
        payload=payload,
        seats_in_play=seats_in_play,
        dealt=None,
        spec=registry.game(game),
        build=engine.build,
        fouled=engine.is_foul,
    )
