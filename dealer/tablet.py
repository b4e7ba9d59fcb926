"""What the dealer tablet shows: a table, its round, the hands being tapped in, read from the selectors and engines.

Presentation only: nothing here writes. The views (``dealer.views``) pass what the
dealer taps to the services, which check it again; this module turns the round and
the rules into what the templates draw (the table bar, the seat ring, the chip pads,
the card or tile grid with its targets) and reads the tablet's form fields back into
the shapes the services take. The hands' values, the settlement preview and the score
sheet are ``dealer.tablet_values``.

Form fields of the hand entry: ``hand-<position>-<part>``, ``position`` a seat number,
``bank``, or ``house`` (the house's own hand against a player bank), ``part`` one of
``high``, ``low``, ``cards``/``tiles`` (the house's unset hand), ``front``, ``middle``,
``back``; each holds cards or tiles in notation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino.errors import ApplicationError
from rounds import ofc_turns
from rounds.models import Adjustment, Round
from rounds.selectors import round_next_actions, round_queryset
from rounds.services.house_wager import house_wager_applies, house_wager_cents, round_house_wager
from rounds.states import FINAL_STATES, RoundState
from rules import options as rule_options
from rules import surrender_swap
from rules.faces import PART_LABELS, CardFace, TileFace, card_face, tile_face
from rules.games import registry
from rules.games.cards import JOKER, Card
from rules.games.tiles import TILE_FACES
from rules.hands import (
    HandsEntered,
    StoredHands,
    dealt_bank_position,
    dealt_hands_set,
    entry_fields,
    round_is_banked,
    stored_hands,
)
from tables.models import Table

BANK = "bank"
HOUSE = "house"  # the house's own hand when it wagers against a player bank (Pai Gow Poker)
DEALER = 0
# Chip denominations on the pads, in units (the pads work in cents).
CHIP_UNITS = (1, 5, 25, 100, 500)
# Reasons a dealer taps when asking for a void (a text field takes anything else).
VOID_REASONS = (
    gettext_lazy("Misdeal"),
    gettext_lazy("Wrong wager entered"),
    gettext_lazy("Dice off the table"),
    gettext_lazy("Card or tile exposed"),
    gettext_lazy("Player dispute"),
)
STATE_LABELS = {
    RoundState.OPEN: gettext_lazy("Betting open"),
    RoundState.BETTING_CLOSED: gettext_lazy("Betting closed"),
    RoundState.DEALT: gettext_lazy("Dealt"),
    RoundState.REVEALED: gettext_lazy("Hands revealed"),
    RoundState.SETTLED: gettext_lazy("Settled"),
    RoundState.VOIDED: gettext_lazy("Voided"),
}
# The rows as a sentence names them.
ROW_WORDS = {"front": gettext_lazy("front"), "middle": gettext_lazy("middle"), "back": gettext_lazy("back")}
# What a game's hands are made of (the registry's ``noun``), as the tablet says it.
NOUNS = {"tiles": gettext_lazy("tiles"), "cards": gettext_lazy("cards")}


# --- who sees and who acts ------------------------------------------------------------------------


def round_latest(table: Table) -> Round | None:
    """The table's newest round (in play, or the last one finished) with its wagers and postings."""
    return round_queryset().filter(table=table).order_by("-number").first()


# --- cards and tiles as the templates draw them ---------------------------------------------------


class Picker(TypedDict):
    """The tap grid: the tile faces (``items``) when ``tiles``, else the cards by suit (``rows``) and the joker."""

    tiles: bool
    items: NotRequired[list[TileFace]]
    rows: NotRequired[list[list[CardFace]]]
    joker: NotRequired[CardFace | None]


def picker(game: str) -> Picker:
    """The tap grid: 52 cards by suit (and the joker in Pai Gow Poker), or the 21 tile faces in ranking order."""
    spec = registry.game(game)
    if spec.tiles:
        return {"tiles": True, "items": [tile_face(tile) for tile in TILE_FACES]}
    rows = [[card_face(Card(rank, suit)) for rank in range(14, 1, -1)] for suit in "shdc"]
    joker = card_face(JOKER) if spec.joker else None
    return {"tiles": False, "rows": rows, "joker": joker}


# --- the seat ring --------------------------------------------------------------------------------


class RingSeat(TypedDict):
    """A seat on the ring: where it is drawn (percentages), its wager, bank, place in the action order, result."""

    number: int
    left: float
    top: float
    wager_cents: int | None
    bank: bool
    place: int | None
    outcome: Mapping[str, Any] | None  # its line of the score sheet once settled
    tone: str
    button: bool
    to_act: bool


class SeatRing(TypedDict):
    seats: list[RingSeat]
    dealer_place: int | None


def seat_ring(
    *,
    table: Table,
    round_: Round | None,
    wagers: Mapping[int, int],
    outcomes: Mapping[int, Mapping[str, Any]],
    to_act: int | None = None,
) -> SeatRing:
    """Seats 1..n around the top of a half-oval, clockwise from the dealer's left; the dealer at the flat edge.

    Each seat carries its wager, the bank, its place in the action order and, once
    settled, its outcome and net; ``left``/``top`` are percentages of the ring. In
    Open-Face the seat with the dealer button is marked, and ``to_act``, whose turn it is.
    """
    order = list(round_.action_order or []) if round_ is not None else []
    button = ofc_turns.button(round_) if round_ is not None else None
    bank_seat = round_.bank_seat.number if round_ is not None and round_.bank_seat is not None else None
    count = table.seat_count
    seats: list[RingSeat] = []
    for number in range(1, count + 1):
        angle = math.pi - (number - 0.5) * math.pi / count
        seats.append(
            {
                "number": number,
                "left": round(50 + 40 * math.cos(angle), 2),
                "top": round(82 - 64 * math.sin(angle), 2),
                "wager_cents": wagers.get(number),
                "bank": number == bank_seat,
                "place": order.index(number) + 1 if number in order else None,
                "outcome": outcomes.get(number),
                "tone": _tone(outcomes.get(number)),
                "button": number == button,
                "to_act": number == to_act,
            }
        )
    return {"seats": seats, "dealer_place": order.index(DEALER) + 1 if DEALER in order else None}


def _tone(line: Mapping[str, Any] | None) -> str:
    """How a seat's result colours the ring: by its outcome in the banked games, by its net in the points games."""
    if not line:
        return ""
    if line.get("outcome"):
        return str(line["outcome"])
    net = line.get("net_cents", 0)
    return "win" if net > 0 else ("loss" if net < 0 else "push")


# --- hand entry -----------------------------------------------------------------------------------


class ValueLine(TypedDict):
    """A line under a position as the dealer taps: what a hand or row is worth, a foul, royalties (``bad``: a
    problem, drawn in red)."""

    label: str
    value: str
    bad: bool


@dataclass
class Target:
    """One row of a position to fill: its form field, label, size, what is in it, and cards already placed."""

    name: str
    label: str
    size: int
    value: str = ""
    locked: str = ""
    # What the tablet says while the row is short, one item or ``{n}`` items (the submit waits until none is).
    need_one: str = ""
    need_many: str = ""


@dataclass
class Position:
    key: str  # a seat number, or "bank"
    title: str
    targets: list[Target]
    wager_cents: int | None = None
    place: int | None = None
    quota: int | None = None  # OFC: the cards this street places
    hint: str = ""
    advice: bool = False
    need_one: str = ""  # Open-Face: the street's cards still to place, as ``Target.need_one``
    need_many: str = ""
    lines: list[ValueLine] = field(default_factory=list)
    turn: str = ""  # Open-Face in turn: "acting", "waiting" or "done" (``rounds.ofc_turns``)
    fantasyland: bool = False  # Open-Face: the seat sets 13 of its cards at once this round
    surrender: bool = False  # Chinese Poker where the rules allow it: the seat may surrender (§3)
    surrendered: bool = False


def _in_action_order(round_: Round, seats: Sequence[int]) -> list[int]:
    order = [p for p in (round_.action_order or []) if p in seats]
    return order + sorted(s for s in seats if s not in order)


def _prefill(round_: Round, recorded: StoredHands | None) -> dict[str, str]:
    """What the entry starts with: the hands entered so far, or the system's deal set as the house sets it (in
    Chinese Poker, the deal as the swaps recorded so far left it)."""
    unset = registry.game(round_.table.game).noun
    if recorded is not None and recorded["seats"]:
        return entry_fields(recorded, noun=unset, house_banks=round_.bank_seat is None)
    if not round_.dealt:
        return {}
    dealt_set = dealt_hands_set(
        game=round_.table.game,
        snapshot=round_.rule_set_snapshot,
        dealt=surrender_swap.dealt_now(round_.dealt, stored=recorded, snapshot=round_.rule_set_snapshot),
        bank_position=dealt_bank_position(round_),
    )
    return entry_fields(dealt_set, noun=unset, house_banks=round_.bank_seat is None)


# How a short row is named in "Seat 3: low hand needs 1 more card".
NEED_PARTS = {
    "high": gettext_lazy("high hand"),
    "low": gettext_lazy("low hand"),
    "front": gettext_lazy("front row"),
    "middle": gettext_lazy("middle row"),
    "back": gettext_lazy("back row"),
}


def _needs(who: str, part: str | None, *, tiles: bool, street: bool = False) -> tuple[str, str]:
    """What a short row (or an Open-Face street, ``street``) says: one item missing, and ``{n}`` items missing."""
    if street:
        one = _("%(who)s needs 1 more card this street") % {"who": who}
        many = _("%(who)s needs {n} more cards this street") % {"who": who}
    elif part is None:
        one = (_("%(who)s needs 1 more tile") if tiles else _("%(who)s needs 1 more card")) % {"who": who}
        many = (_("%(who)s needs {n} more tiles") if tiles else _("%(who)s needs {n} more cards")) % {"who": who}
    else:
        words = {"who": who, "part": NEED_PARTS[part]}
        one = (_("%(who)s: %(part)s needs 1 more tile") if tiles else _("%(who)s: %(part)s needs 1 more card")) % words
        many = (
            _("%(who)s: %(part)s needs {n} more tiles") if tiles else _("%(who)s: %(part)s needs {n} more cards")
        ) % words
    return one, many


def entry(
    round_: Round,
    *,
    wagers: Mapping[int, int],
    posted: Mapping[str, str] | None = None,
    correcting: bool = False,
) -> list[Position]:
    """The positions whose hands the dealer taps in, the bank first, then the seats in action order.

    ``correcting``: the hands of a settled round entered again for a correction request, every row open
    (Open-Face's finished boards too, not street by street).
    """
    spec = registry.game(round_.table.game)
    by_street = spec.placed_by_street and not correcting
    order = list(round_.action_order or [])
    # A QueryDict read key by key (``dict()`` of one would copy its lists of values).
    recorded = stored_hands(round_.hands)
    surrendered = (recorded.get(surrender_swap.SURRENDERED) if recorded is not None else None) or []
    values = {key: str(posted.get(key, "")) for key in posted} if posted is not None else _prefill(round_, recorded)
    positions: list[Position] = []
    if spec.bankable and round_is_banked(round_):
        bank_place = order.index(round_.bank_seat.number if round_.bank_seat else DEALER) + 1 if order else None
        if round_.bank_seat is None:
            size = spec.hand_size
            name = f"hand-bank-{spec.noun}"
            label = _("%(count)s %(noun)s, set by the house way") % {"count": size, "noun": NOUNS[spec.noun]}
            title = _("The house")
            targets = [Target(name, label, size, values.get(name, ""), "", *_needs(title, None, tiles=spec.tiles))]
        else:
            title = _("Bank · seat %(seat)s") % {"seat": round_.bank_seat.number}
            targets = [
                Target(
                    f"hand-bank-{part}",
                    str(PART_LABELS[part]),
                    size,
                    values.get(f"hand-bank-{part}", ""),
                    "",
                    *_needs(title, part, tiles=spec.tiles),
                )
                for part, size in spec.parts
            ]
        positions.append(Position(BANK, title, targets, place=bank_place))
        house = house_wager_cents(round_)
        if house is not None:  # the house's wager against the player bank: its hand set by the house way
            name = f"hand-{HOUSE}-{spec.noun}"
            words = {"count": spec.hand_size, "noun": NOUNS[spec.noun]}
            label = _("%(count)s %(noun)s, set by the house way") % words
            title = _("The house · wager")
            needs = _needs(title, None, tiles=spec.tiles)
            target = Target(name, label, spec.hand_size, values.get(name, ""), "", *needs)
            place = order.index(DEALER) + 1 if DEALER in order else None
            positions.append(Position(HOUSE, title, [target], wager_cents=house, place=place))
    boards = round_.placements or {}
    turn = ofc_turns.next_turn(round_, sorted(wagers)) if by_street else None
    in_turn = by_street and ofc_turns.turn_order(round_) is not None
    for seat in _in_action_order(round_, sorted(wagers)):
        title = _("Seat %(seat)s") % {"seat": seat}
        place = order.index(seat) + 1 if seat in order else None
        position = Position(str(seat), title, [], wager_cents=wagers[seat], place=place)
        # Placed street by street (Open-Face): the cards placed before stay, locked, in their rows.
        board = boards.get(str(seat), {}) if by_street else {}
        for part, size in spec.parts:
            name = f"hand-{seat}-{part}"
            needs = _needs(title, part, tiles=spec.tiles)
            position.targets.append(
                Target(name, str(PART_LABELS[part]), size, values.get(name, ""), board.get(part, ""), *needs)
            )
        if by_street:
            position.need_one, position.need_many = _needs(title, None, tiles=False, street=True)
            placed = sum(len(board.get(row, "").split()) for row in spec.part_names)
            position.quota = 5 if placed == 0 else (0 if placed == spec.hand_size else 1)
            if in_turn:
                _in_turn(position, seat, placed, turn, values, total=spec.hand_size)
            if round_.dealt and position.quota:
                dealt = round_.dealt[str(seat)].split()
                position.hint = " ".join(dealt[placed : placed + position.quota])
        position.advice = spec.advice and round_is_banked(round_) and round_.bank_seat is None
        if round_.rule_set_snapshot["options"].get("surrender_allowed") and not by_street:
            position.surrender = True
            if posted is not None:
                position.surrendered = posted.get(f"surrender-{seat}") == "1"
            else:
                position.surrendered = seat in surrendered
        positions.append(position)
    return positions


def _in_turn(position: Position, seat: int, placed: int, turn: Any, values: Mapping[str, str], *, total: int) -> None:
    """Open-Face placed in turn: only the seat whose turn it is takes cards; a Fantasyland seat takes all it
    received at once, 13 into its rows and the rest into its discard."""
    if turn is None or turn.seat != seat:
        position.quota = 0
        position.turn = "done" if placed == total else "waiting"
        return
    position.turn = "acting"
    position.quota = turn.cards
    if turn.cards > turn.places:
        position.fantasyland = True
        name = f"hand-{seat}-discard"
        needs = _needs(position.title, None, tiles=False)
        position.targets.append(Target(name, _("Discard"), turn.cards - turn.places, values.get(name, ""), "", *needs))
    elif turn.places == total:
        position.fantasyland = True


# --- reading the tablet's form back ---------------------------------------------------------------


def _text(post: Mapping[str, str], name: str) -> str:
    return " ".join(str(post.get(name, "")).split())


def hands_payload(round_: Round, post: Mapping[str, str], *, wagers: Mapping[int, int]) -> HandsEntered:
    """The hands as ``round_hands_record`` and ``settlement_preview`` take them; a position left empty is left out."""
    spec = registry.game(round_.table.game)
    seats: dict[str, dict[str, str]] = {}
    for seat in sorted(wagers):
        hand = {part: _text(post, f"hand-{seat}-{part}") for part in spec.part_names}
        if any(hand.values()):
            seats[str(seat)] = hand
    payload: HandsEntered = {"seats": seats}
    surrendered = [seat for seat in sorted(wagers) if post.get(f"surrender-{seat}") == "1"]
    if surrendered:
        payload[surrender_swap.SURRENDERED] = surrendered
    house = _text(post, f"hand-{HOUSE}-{spec.noun}")
    if house and house_wager_cents(round_) is not None:
        payload["house"] = {spec.noun: house}
    if spec.bankable and round_is_banked(round_):
        if round_.bank_seat is None:
            text = _text(post, f"hand-bank-{spec.noun}")
            if text:
                payload["banker"] = {spec.noun: text}
        else:
            bank = {part: _text(post, f"hand-bank-{part}") for part in spec.part_names}
            if any(bank.values()):
                payload["banker"] = bank
    return payload


class Placements(TypedDict):
    """One Open-Face street as ``round_placements_record`` takes it: each seat's new cards by row."""

    seats: dict[str, dict[str, str]]


def placements_payload(round_: Round, post: Mapping[str, str], *, wagers: Mapping[int, int]) -> Placements:
    """One OFC street: the new cards of each seat that placed any, by row (cards placed before stay as they are)."""
    rows = (*registry.game(round_.table.game).part_names, "discard")  # a Fantasyland seat's discard too
    seats: dict[str, dict[str, str]] = {}
    for seat in sorted(wagers):
        street = {row: _text(post, f"hand-{seat}-{row}") for row in rows}
        street = {row: cards for row, cards in street.items() if cards}
        if street:
            seats[str(seat)] = street
    if not seats:
        raise ApplicationError(_("Tap this street's cards into a seat's rows first."), extra={"field": "seats"})
    return {"seats": seats}


def ofc_boards(round_: Round, post: Mapping[str, str], *, wagers: Mapping[int, int]) -> dict[str, dict[str, str]]:
    """Each seat's board as placed plus the street being tapped in."""
    boards = round_.placements or {}
    rows = registry.game(round_.table.game).part_names
    result = {}
    for seat in sorted(wagers):
        board = boards.get(str(seat), {})
        result[str(seat)] = {
            row: " ".join(f"{board.get(row, '')} {_text(post, f'hand-{seat}-{row}')}".split()) for row in rows
        }
    return result


# --- the whole tablet -----------------------------------------------------------------------------


def next_actions(round_: Round | None) -> list[str]:
    """What the tablet offers: the round's next actions, or opening a round when there is none in play."""
    if round_ is None or RoundState(round_.state) in FINAL_STATES:
        return ["open"]
    return round_next_actions(round_)


def pending_adjustment(round_: Round | None) -> Adjustment | None:
    if round_ is None:
        return None
    return round_.adjustments.filter(status=Adjustment.Status.PENDING).select_related("requested_by").first()


def last_decided_adjustment(round_: Round | None) -> Adjustment | None:
    """The round's newest request once decided: a newer request (waiting) hides the decision on an older one."""
    if round_ is None:
        return None
    newest = round_.adjustments.select_related("decided_by").order_by("-requested_at", "-pk").first()
    return newest if newest is not None and newest.status != Adjustment.Status.PENDING else None


@dataclass(frozen=True)
class HouseWagerLine:
    """What the tablet says of the house's wager against a player bank: its amount and whose last bet
    it copies, or why the house does not wager this round."""

    cents: int | None
    bank_seat: int
    last_round: int | None = None
    why_not: str = ""


def house_wager_line(round_: Round | None) -> HouseWagerLine | None:
    """The house's wager on a player-banked round, or why it has none; None when the rules give it no wager."""
    if round_ is None or round_.bank_seat is None:
        return None
    seat = round_.bank_seat.number
    wager = round_house_wager(round_)
    if wager is not None:
        return HouseWagerLine(wager.amount_cents, seat, last_round=wager.last_wager.round.number)
    snapshot = round_.rule_set_snapshot
    if snapshot["options"].get("house_wager") and snapshot["banking_mode"] == rule_options.CO_BANKING:
        why = _("Co-banking: the house covers half of the bank, so it does not also wager against it.")
    elif house_wager_applies(snapshot):
        why = _(
            "Seat %(seat)s had no settled wager at this table this shift: the house has no last bet to copy "
            "and does not wager against the bank this round."
        ) % {"seat": seat}
    else:
        return None
    return HouseWagerLine(None, seat, why_not=why)


class WagerLimits(TypedDict):
    min_cents: int
    max_cents: int
    covers_cents: int | None  # what a player bank covers (twice its bank when co-banking); None: the house banks


def wager_limits(table: Table, round_: Round | None) -> WagerLimits:
    """The limits the chip pad enforces as the dealer taps: the table's, and what a player bank covers."""
    most = table.max_wager_cents
    covers = None
    if round_ is not None and round_.bank_cents is not None:
        co = round_.rule_set_snapshot["banking_mode"] == rule_options.CO_BANKING
        covers = round_.bank_cents * (2 if co else 1)
        most = min(most, covers)
    return {"min_cents": table.min_wager_cents, "max_cents": most, "covers_cents": covers}


class Chip(TypedDict):
    units: int
    cents: int


def chips(most_cents: int | None = None) -> list[Chip]:
    """The chip pad's chips: the house's values, none above the table's maximum (a 500 chip on a 1.00–100.00 table
    could only be refused)."""
    return [
        {"units": units, "cents": units * 100}
        for units in CHIP_UNITS
        if most_cents is None or most_cents <= 0 or units * 100 <= most_cents
    ]
