"""What the tablet shows of the hands: their values and fouls as they are tapped in, the preview, the score sheet.

Presentation only, nothing is written: the engines value each complete row
(``rules.games``) and ``settlement.services.settlement_preview`` answers what settling
would pay; ``result_rows`` turns that answer, or a settlement's, into the rows the
templates draw (per seat, the bank, the house; in the points games who pays whom).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino.errors import ApplicationError
from dealer.tablet import BANK, HOUSE, ROW_WORDS, Position, ValueLine, hands_payload, ofc_boards
from rounds.models import Round
from rounds.results import BankLine, HouseLine, SettlementResult, is_points, posting_hands, posting_result
from rules import engines
from rules import options as rule_options
from rules.faces import PART_LABELS, ROWS, PartFaces, hand_faces
from rules.games import chinese_poker, ofc, poker, registry
from rules.games.cards import Card, parse_cards
from rules.games.errors import InvalidHand
from rules.hand_words import hand_words
from rules.hands import HandsEntered, StoredHand, StoredHands, round_is_banked
from settlement.selectors import settlement_in_force
from settlement.services import settlement_preview

# --- what a setting is worth, as the dealer taps it in --------------------------------------------


class HouseWay(TypedDict):
    """The house way's setting of the house's hand: its high and low hands and the rule that chose them."""

    high: str
    low: str
    rule: str


def _line(label: str, value: str, *, bad: bool = False) -> ValueLine:
    return {"label": label, "value": value, "bad": bad}


def _banked_lines(
    game: str, engine: Mapping[str, Any], high_text: str, low_text: str, *, bank: bool
) -> list[ValueLine]:
    spec, play = registry.game(game), engines.banked(game)
    lines: list[ValueLine] = []
    try:
        high = spec.parse(high_text)
        low = spec.parse(low_text)
    except InvalidHand as exc:
        return [_line(_("Check"), str(exc), bad=True)]
    values: list[Any] = []  # each part's value, None while it is short
    for (part, size), items in zip(spec.parts, (high, low), strict=True):
        label = str(PART_LABELS[part])
        if len(items) != size:
            values.append(None)
            continue
        try:
            value = play.value(part, items, **engine["hand"])
        except InvalidHand as exc:
            return [_line(label, str(exc), bad=True)]
        values.append(value)
        lines.append(_line(label, hand_words(value.describe())))
    if None not in values:
        try:
            setting = play.setting(high, low)
            fouled = play.is_foul(setting, **engine["hand"])
        except InvalidHand as exc:
            return [*lines, _line(_("Check"), str(exc), bad=True)]
        if fouled:
            if bank:
                why = _("the low hand outranks the high hand: the house way re-sets the bank's hand")
            elif engine["outcome"]["foul_policy"] == "forfeit":
                why = _("the low hand outranks the high hand: the wager loses (house rule: forfeit)")
            else:
                why = _("the low hand outranks the high hand: the dealer re-sets it by the house way")
            lines.append(_line(_("Foul"), why, bad=True))
    return lines


def _house_way_lines(game: str, engine: Mapping[str, Any], text: str) -> tuple[list[ValueLine], HouseWay | None]:
    spec = registry.game(game)
    try:
        items = spec.parse(text)
        if len(items) != spec.hand_size:
            return [], None
        setting, rule = engines.banked(game).house_way(items, **engine["house_way"])
    except InvalidHand as exc:
        return [_line(_("Check"), str(exc), bad=True)], None
    lines = _banked_lines(game, engine, spec.text(setting.high), spec.text(setting.low), bank=True)
    way: HouseWay = {"high": spec.text(setting.high), "low": spec.text(setting.low), "rule": rule}
    return lines, way


def _ofc_lines(rows: Sequence[tuple[Card, ...]], engine: Mapping[str, Any], lines: list[ValueLine]) -> None:
    board = ofc.Board.from_rows(*rows)
    if ofc.is_foul(board):
        lines.append(_line(_("Foul"), _("the rows do not ascend: loses 6 to each opponent"), bad=True))
    else:
        royalties = ofc.royalties(board, engine["royalties"]["table"])
        if royalties:
            lines.append(_line(_("Royalties"), str(royalties)))


def _chinese_poker_lines(rows: Sequence[tuple[Card, ...]], engine: Mapping[str, Any], lines: list[ValueLine]) -> None:
    arrangement = chinese_poker.Arrangement(*rows)
    natural = chinese_poker.natural(arrangement.cards) if engine["score"]["naturals"] else None
    if natural is not None:
        lines.append(_line(_("Natural"), f"{natural.name} ({natural.points})"))
    if chinese_poker.is_foul(arrangement):
        lines.append(_line(_("Foul"), _("the rows do not ascend: pays every opponent"), bad=True))
    else:
        royalties = chinese_poker.royalties(arrangement, engine["royalties"]["table"])
        if royalties:
            lines.append(_line(_("Royalties"), str(royalties)))


# What a complete arrangement of each game set in rows is worth beyond its rows (fouls, royalties,
# naturals), by game: each asks its own engine.
_ARRANGEMENT_LINES: Mapping[str, Callable[[Sequence[tuple[Card, ...]], Mapping[str, Any], list[ValueLine]], None]] = {
    registry.CHINESE_POKER: _chinese_poker_lines,
    registry.OFC: _ofc_lines,
}


def _rows_lines(game: str, engine: Mapping[str, Any], rows: Mapping[str, str]) -> list[ValueLine]:
    parts = registry.game(game).parts
    lines: list[ValueLine] = []
    parsed: dict[str, tuple[Card, ...]] = {}
    try:
        for row, _size in parts:
            parsed[row] = parse_cards(rows.get(row, ""))
    except InvalidHand as exc:
        return [_line(_("Check"), str(exc), bad=True)]
    for row, size in parts:
        cards = parsed[row]
        if len(cards) != size:
            continue
        try:
            value = poker.front_hand(cards) if row == "front" else poker.high_hand(cards, wheel_second_highest=False)
        except InvalidHand as exc:
            return [_line(str(PART_LABELS[row]), str(exc), bad=True)]
        lines.append(_line(str(PART_LABELS[row]), hand_words(value.describe())))
    if all(len(parsed[row]) == size for row, size in parts):
        try:
            _ARRANGEMENT_LINES[game]([parsed[row] for row, _size in parts], engine, lines)
        except InvalidHand as exc:
            lines.append(_line(_("Check"), str(exc), bad=True))
    return lines


def live_values(
    round_: Round, post: Mapping[str, str], *, wagers: Mapping[int, int], correcting: bool = False
) -> tuple[dict[str, list[ValueLine]], HouseWay | None]:
    """Each position's hand values and foul warning from what is tapped in so far; the house way's setting.

    ``correcting``: a settled round's hands entered again whole (Open-Face's boards too, not on top of its
    placements)."""
    game = round_.table.game
    spec = registry.game(game)
    engine = rule_options.engine_options(round_.rule_set_snapshot)
    lines: dict[str, list[ValueLine]] = {}
    house_way = None
    if spec.placed_by_street and not correcting:
        for position, rows in ofc_boards(round_, post, wagers=wagers).items():
            lines[position] = _rows_lines(game, engine, rows)
        return lines, None
    payload = hands_payload(round_, post, wagers=wagers)
    for seat in sorted(wagers):
        hand = payload["seats"].get(str(seat), {})
        if not spec.bankable:
            lines[str(seat)] = _rows_lines(game, engine, hand)
        else:
            lines[str(seat)] = _banked_lines(game, engine, hand.get("high", ""), hand.get("low", ""), bank=False)
    banker = payload.get("banker") or {}
    if spec.bankable and round_is_banked(round_):
        if round_.bank_seat is None:
            unset = banker.get(spec.noun, "")
            lines[BANK], house_way = _house_way_lines(game, engine, unset)
        else:
            lines[BANK] = _banked_lines(game, engine, banker.get("high", ""), banker.get("low", ""), bank=True)
    if "house" in payload:  # the house's own hand against a player bank, set by the house way
        lines[HOUSE], way = _house_way_lines(game, engine, payload["house"].get(spec.noun, ""))
        if way is not None:
            lines[HOUSE].append(_line(_("House way"), f"{way['high']} / {way['low']} — {way['rule']}"))
    return lines, house_way


def complete(positions: Sequence[Position]) -> bool:
    """Whether every row of every position is full (an OFC board counting the cards placed before)."""
    for position in positions:
        for target in position.targets:
            if len(f"{target.locked} {target.value}".split()) != target.size:
                return False
    return True


class Preview(TypedDict, total=False):
    """What settling the hands tapped in would pay (``result``), or why it cannot be shown (``error``)."""

    result: ResultRows
    error: str


def preview(round_: Round, post: Mapping[str, str], *, wagers: Mapping[int, int], correcting: bool = False) -> Preview:
    """``settlement_preview`` of the hands tapped in (nothing is written), or the reason it cannot be shown."""
    if registry.game(round_.table.game).placed_by_street and not correcting:
        hands: HandsEntered = {"seats": ofc_boards(round_, post, wagers=wagers)}
    else:
        hands = hands_payload(round_, post, wagers=wagers)
    try:
        answer = settlement_preview(round=round_, hands=hands)
        return {"result": result_rows(round_, answer, hands=answer["hands"])}
    except ApplicationError as exc:
        return {"error": exc.message}


# --- the preview and the score sheet --------------------------------------------------------------


OUTCOME_LABELS = {
    "win": gettext_lazy("Win"),
    "loss": gettext_lazy("Loss"),
    "push": gettext_lazy("Push"),
    "no_action": gettext_lazy("No action"),
}


class ResultRows(TypedDict):
    """A settle (or preview) answer as the score sheet draws it. The seats, pairs and the house's wager are the
    answer's own lines (``settlement``'s) with what the sheet adds to each: labels, faces, words."""

    house_wager: dict[str, Any] | None
    seats: list[dict[str, Any]]
    bank: BankLine | None
    bank_hand: list[PartFaces] | None
    bank_rule: str
    bank_set_by_house_way: bool
    bank_fouled: bool
    house: HouseLine
    pairs: list[dict[str, Any]]
    points_game: bool


def result_rows(round_: Round, result: SettlementResult, *, hands: StoredHands | None) -> ResultRows:
    """A settle (or preview) answer as the tables the tablet shows: per seat, the bank, the house; the pairs. The
    seats' and the bank's hands drawn are ``hands``, as stored."""
    tiles = registry.game(round_.table.game).tiles
    # Naturals are a house rule of the games that have them (Chinese Poker's ``naturals`` option).
    naturals = bool(round_.rule_set_snapshot["options"].get("naturals", False))
    stored: StoredHands = hands or {"seats": {}}
    seats = []
    for row in result["seats"]:
        hand: StoredHand = stored["seats"].get(str(row["seat"]), {})
        seats.append(
            {
                **row,
                "outcome_label": OUTCOME_LABELS.get(str(row.get("outcome", "")), ""),
                "hand": hand_faces(hand, tiles),
                "set_by_house_way": hand.get("set_by") == "house_way",
                "rule": hand.get("rule", ""),
                "natural": _natural_name(hand) if naturals else "",
                # Open-Face: the seat played this round in Fantasyland (its discard, "" when none).
                "fantasyland": (stored.get("fantasyland") or {}).get(str(row["seat"])),
            }
        )
    banker = stored.get("banker")
    bank_hand = hand_faces(banker, tiles) if banker else None
    pairs = []
    for pair in result["pairs"] if is_points(result) else []:
        a, b, points = pair["seat"], pair["opponent"], pair["points"]
        payer, payee = (b, a) if points > 0 else (a, b)
        natural = pair.get("natural") or 0
        pairs.append(
            {
                **pair,
                "payer": payer,
                "payee": payee,
                "abs_points": abs(points),
                "abs_cents": abs(pair.get("cents", 0)),
                "even": points == 0,
                "natural_points": abs(natural),
                "natural_seat": a if natural > 0 else b,
                "breakdown": pair_items(pair),
            }
        )
    points_game = is_points(result)
    wagered = result.get("house_wager") if not is_points(result) else None
    house_wager: dict[str, Any] | None = None
    if wagered is not None:  # the house's wager against a player bank, drawn as a row of the sheet
        hand = stored.get("house") or {}
        house_wager = {
            **wagered,
            "outcome_label": OUTCOME_LABELS.get(wagered.get("outcome", ""), ""),
            "hand": hand_faces(hand, tiles),
            "rule": hand.get("rule", ""),
        }
    return {
        "house_wager": house_wager,
        "seats": seats,
        "bank": result.get("bank"),
        "bank_hand": bank_hand,
        "bank_rule": (banker or {}).get("rule", ""),
        "bank_set_by_house_way": (banker or {}).get("set_by") == "house_way",
        "bank_fouled": bool((banker or {}).get("fouled")),
        "house": result["house"],
        "pairs": pairs,
        "points_game": points_game,
    }


def pair_items(pair: Mapping[str, Any]) -> list[str]:
    """Every point between two seats, from the first seat's side, in words that add up to the pair's total:
    Open-Face "front +1 · middle +1 · back +1 · scoop +3 · royalties and fouls +12"; Chinese Poker "rows won 2,
    lost 1: +1 · royalties and scoop bonus -3". What the stored sheet does not itemise (royalties, a scoop's or a
    foul's points) is the rest of the total, named for what it can be."""
    points = int(pair["points"])
    items: list[str] = []
    counted = 0
    rows = pair.get("rows")
    if rows:  # Open-Face: each row ±1, and the scoop's 3 when one seat wins all three
        items += [f"{ROW_WORDS[name]} {value:+d}" for name, value in zip(ROWS, rows, strict=True)]
        counted = sum(rows)
        if abs(counted) == 3:
            scoop = 3 if counted > 0 else -3
            items.append(_("scoop %(points)s") % {"points": f"{scoop:+d}"})
            counted += scoop
        rest_label = _("royalties and fouls %(points)s")
    elif pair.get("rows_won") is not None:  # Chinese Poker: the rows, a natural, a surrender, a swap
        won, lost = int(pair["rows_won"]), int(pair.get("rows_lost") or 0)
        if won or lost:
            items.append(
                _("rows won %(won)s, lost %(lost)s: %(points)s")
                % {"won": won, "lost": lost, "points": f"{won - lost:+d}"}
            )
            counted = won - lost
        for key, label in (
            ("natural", _("natural %(points)s")),
            ("surrender", _("surrender %(points)s")),
            ("swap", _("swap %(points)s")),
        ):
            value = int(pair.get(key) or 0)
            if value:
                items.append(label % {"points": f"{value:+d}"})
                counted += value
        rest_label = _("royalties and scoop bonus %(points)s")
    else:
        return items
    rest = points - counted
    if rest:
        items.append(rest_label % {"points": f"{rest:+d}"})
    return items


def _natural_name(hand: Mapping[str, Any]) -> str:
    try:
        natural = chinese_poker.natural(parse_cards(" ".join(hand.get(row, "") for row in ROWS)))
    except InvalidHand:
        return ""
    return natural.name if natural is not None else ""


def settled_result(round_: Round) -> ResultRows | None:
    """The settlement in force on a settled round, as ``result_rows``."""
    posting = settlement_in_force(round_)
    result = posting_result(posting) if posting is not None else None
    if posting is None or result is None:
        return None
    return result_rows(round_, result, hands=posting_hands(posting))


def outcomes_by_seat(result: ResultRows | None) -> dict[int, dict[str, Any]]:
    if not result:
        return {}
    return {row["seat"]: row for row in result["seats"]}
