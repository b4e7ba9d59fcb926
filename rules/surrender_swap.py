"""Chinese Poker's surrender and the three-player swap at the table (GAME_RULES.md §3), read and checked.

Both are stored with the round's hands (``Round.hands``), so settling, a correction and the replay
(``verify_ledger --replay``) read them from the same record as the hands:

* ``"surrendered": [2]``: the seats that surrendered once every hand was set face down. A
  surrendered seat's 13 cards are recorded like any hand (the dealer collects them face down); the
  engine (``rules.games.chinese_poker.score``) scores it 0-2 against every other seat, two
  surrendered seats nothing, and neither its foul nor its royalties count.
* ``"swaps": [{"seat": 1, "gave": "2s 3h", "took": "Ad Kh"}, ...]``: each swap in the order the
  seats announced it, made after the deal and before the hands are set (``round_swap_record``
  writes them one at a time onto the dealt round, before any hand). A seat swaps once, card for
  card, with the 13 cards three players leave undealt; each later swap is against the undealt
  cards as the earlier swaps left them. A swap costs the seat 2 points to each other player.

When the system dealt (training and simulation mode) every card is known: the swaps are replayed on
``Round.dealt`` (``chinese_poker.swap``) and the hands entered must be the hands after them. With a live
deal only what the swaps moved is known: a card one seat took is in that seat's hand, a card given and
not taken again is undealt and in no hand; each swap and the hands are checked against that.

Pure: nothing here touches the database. Keys are written only when there is something to write, so a
round without a surrender or a swap stores its hands exactly as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from django.utils.translation import gettext as _

from casino.errors import ApplicationError
from rules.games import chinese_poker
from rules.games.cards import Card, cards_text, deck, parse_cards
from rules.games.errors import InvalidHand
from rules.hands import RoundHands, StoredHands, Swap, position_name

SURRENDERED: Final = "surrendered"
SWAPS: Final = "swaps"
SWAP_PLAYERS = 3  # the swap is played with three players only (§3): 39 cards dealt, 13 undealt
HAND = 13


def _allowed(snapshot: Mapping[str, Any], option: str) -> bool:
    return bool(snapshot["options"].get(option, False))


def _known(snapshot: Mapping[str, Any], option: str) -> bool:
    """Whether the rule set's game has the option at all (Chinese Poker's ``surrender_allowed``, ``swap_allowed``)."""
    return option in snapshot["options"]


def _cards(text: object, where: str, field: str) -> tuple[Card, ...]:
    if not isinstance(text, str):
        raise ApplicationError(
            _("%(where)s: write the cards as text, not %(value)s.") % {"where": where, "value": repr(text)},
            extra={"field": field},
        )
    try:
        cards = parse_cards(text)
    except InvalidHand as exc:
        raise ApplicationError(
            _("%(where)s: %(problem)s.") % {"where": where, "problem": exc}, extra={"field": field}
        ) from None
    if any(card.is_joker for card in cards):
        raise ApplicationError(
            _("%(where)s: Chinese Poker is played without the joker.") % {"where": where}, extra={"field": field}
        )
    return cards


def recorded_swaps(stored: StoredHands | None) -> list[Swap]:
    """The swaps recorded on a round (its ``hands``, read by ``rules.hands.stored_hands``), in announcement order."""
    return list(stored.get(SWAPS) or []) if stored is not None else []


def with_recorded_swaps(payload: Mapping[str, Any], stored: StoredHands | None) -> Mapping[str, Any]:
    """``payload`` with the round's recorded swaps, when it names none: the hands entered (and a correction's)
    are the hands after the swaps, which happened at the table before them."""
    swaps = recorded_swaps(stored)
    if not swaps or not isinstance(payload, Mapping) or payload.get(SWAPS):
        return payload
    return {**payload, SWAPS: swaps}  # absent or empty (null, []): the recorded swaps stand


def _undealt(dealt: Mapping[str, str]) -> tuple[Card, ...]:
    used = {card for hand in dealt.values() for card in parse_cards(hand)}
    return tuple(card for card in deck(joker=False) if card not in used)


def swaps_check(
    swaps: object,
    *,
    snapshot: Mapping[str, Any],
    seats_in_play: Sequence[int],
    dealt: Mapping[str, str] | None,
) -> tuple[list[Swap], dict[str, str] | None, dict[int, tuple[set[Card], set[Card]]], set[Card]]:
    """Check a round's swaps in announcement order; return them canonical, the deal after them (None for a live
    deal), what each swapping seat took and gave, and the cards left undealt that the swaps name.

    Refused, in the dealer's words: the swap not allowed, not three players, a seat not in play or swapping
    twice, no cards or a different number given and taken, a card not in the hand or not among the undealt cards.
    """
    if not isinstance(swaps, list):
        raise ApplicationError(_("List the swaps in the order they were announced."), extra={"field": SWAPS})
    if not swaps:
        return [], dict(dealt) if dealt is not None else None, {}, set()
    if not _allowed(snapshot, "swap_allowed"):
        raise ApplicationError(
            _("The rule set %(rule_set)s does not allow the swap.") % {"rule_set": repr(snapshot["name"])},
            extra={"field": SWAPS, "rule": "swap_allowed"},
        )
    if len(seats_in_play) != SWAP_PLAYERS:
        raise ApplicationError(
            _("The swap is played with exactly three players; this round has %(count)s.")
            % {"count": len(seats_in_play)},
            extra={"field": SWAPS},
        )
    current = dict(dealt) if dealt is not None else None
    undealt = _undealt(current) if current is not None else ()
    moved: dict[int, tuple[set[Card], set[Card]]] = {}  # seat: (cards taken, cards given)
    held: dict[Card, int] = {}  # live deal: a card a swap took, and the seat that holds it
    loose: set[Card] = set()  # live deal: a card given and not taken again, undealt
    canonical: list[Swap] = []
    for index, entry in enumerate(swaps):
        field = f"{SWAPS}.{index}"
        if not isinstance(entry, Mapping) or set(entry) - {"seat", "gave", "took"}:
            raise ApplicationError(
                _("A swap is a seat, the cards it gave and the cards it took."), extra={"field": field}
            )
        seat = entry.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ApplicationError(
                _("A swap's seat is a seat number, not %(value)s.") % {"value": repr(seat)}, extra={"field": field}
            )
        if seat not in seats_in_play:
            in_play = ", ".join(map(str, seats_in_play))
            raise ApplicationError(
                _("Seat %(seat)s has no wager in this round (seats in play: %(in_play)s).")
                % {"seat": seat, "in_play": in_play},
                extra={"field": field},
            )
        where = position_name(seat)
        if seat in moved:
            raise ApplicationError(
                _("%(where)s has already swapped this round: a player swaps once.") % {"where": where},
                extra={"field": field},
            )
        gave = _cards(entry.get("gave"), _("%(where)s, cards given") % {"where": where}, f"{field}.gave")
        took = _cards(entry.get("took"), _("%(where)s, cards taken") % {"where": where}, f"{field}.took")
        if not gave or not took:
            raise ApplicationError(
                _("%(where)s: a swap gives at least one card and takes as many from the undealt cards.")
                % {"where": where},
                extra={"field": field},
            )
        try:
            if current is not None:
                hand = parse_cards(current[str(seat)])
                new_hand, undealt = chinese_poker.swap(hand, undealt, gave, took)
                current[str(seat)] = cards_text(new_hand)
            else:
                _live_swap(gave, took, seat=seat, held=held, loose=loose)
        except InvalidHand as exc:
            raise ApplicationError(
                _("%(where)s: %(problem)s.") % {"where": where, "problem": exc}, extra={"field": field}
            ) from None
        moved[seat] = (set(took), set(gave))
        canonical.append({"seat": seat, "gave": cards_text(gave), "took": cards_text(took)})
    return canonical, current, moved, loose


def _live_swap(
    gave: tuple[Card, ...], took: tuple[Card, ...], *, seat: int, held: dict[Card, int], loose: set[Card]
) -> None:
    """A swap after a live deal: only what earlier swaps moved is known (see the module's docstring)."""
    for cards, what in ((gave, "cards given"), (took, "cards taken")):
        if len(set(cards)) != len(cards):
            twice = next(card for card in cards if cards.count(card) > 1)
            raise InvalidHand(f"{twice.symbol} appears twice among the {what}")
    if len(gave) != len(took):
        raise InvalidHand(f"{len(gave)} cards given but {len(took)} taken: a swap is card for card")
    if len(gave) > HAND:
        raise InvalidHand(f"a hand has {HAND} cards, not {len(gave)} to give")
    for card in gave:
        if card in took:
            raise InvalidHand(f"{card.symbol} is both given and taken")
        if card in loose:
            raise InvalidHand(f"{card.symbol} is not in the hand: an earlier swap left it among the undealt cards")
        if held.get(card, seat) != seat:
            raise InvalidHand(f"{card.symbol} is not in the hand: seat {held[card]} took it in a swap")
    for card in took:
        if card in held:
            raise InvalidHand(f"{card.symbol} is not among the undealt cards: seat {held[card]} took it in a swap")
    for card in gave:
        loose.add(card)
    for card in took:
        loose.discard(card)
        held[card] = seat


def dealt_after_swaps(payload: Mapping[str, Any], *, snapshot: Mapping[str, Any], seats_in_play: Sequence[int],
                      dealt: Mapping[str, str] | None) -> Mapping[str, str] | None:  # fmt: skip
    """The system's deal as the swaps in ``payload`` left it (what the hands entered must hold); a live deal: None."""
    if dealt is None or not isinstance(payload, Mapping) or not payload.get(SWAPS):
        return dealt
    return swaps_check(payload[SWAPS], snapshot=snapshot, seats_in_play=seats_in_play, dealt=dealt)[1]


def extras_read(
    read: RoundHands,
    *,
    snapshot: Mapping[str, Any],
    payload: Mapping[str, Any],
    seats_in_play: Sequence[int],
    dealt: Mapping[str, str] | None,
) -> RoundHands:
    """The checked hands with the round's surrender and swaps (``payload``'s ``surrendered`` and ``swaps``) read
    into them: checked, stored beside the hands, and handed to the settlement (``RoundHands.surrendered``,
    ``RoundHands.swapped``)."""
    for key, option in ((SURRENDERED, "surrender_allowed"), (SWAPS, "swap_allowed")):
        if payload.get(key) and not _known(snapshot, option):
            raise ApplicationError(
                _("%(rule_set)s has no %(rule)s.")
                % {"rule_set": repr(snapshot["name"]), "rule": key.replace("_", " ")},
                extra={"field": key},
            )
    stored = read.stored.copy()
    surrendered = _surrendered(payload.get(SURRENDERED), snapshot=snapshot, seats_in_play=seats_in_play)
    swaps, _after, moved, loose = swaps_check(
        payload.get(SWAPS) or [], snapshot=snapshot, seats_in_play=seats_in_play, dealt=dealt
    )
    if dealt is None and swaps:
        _live_hands_check(read, moved, loose)
    fouled = read.fouled - surrendered  # a surrendered hand is never shown: it is not a foul either
    if surrendered:
        seats = {key: hand.copy() for key, hand in stored["seats"].items()}
        for seat in surrendered:
            seats[str(seat)].pop("fouled", None)
            seats[str(seat)][SURRENDERED] = True
        stored["seats"] = seats
        stored[SURRENDERED] = sorted(surrendered)
    if swaps:
        stored[SWAPS] = swaps
    return replace(read, stored=stored, fouled=fouled, surrendered=surrendered, swapped=frozenset(moved))


def _surrendered(value: object, *, snapshot: Mapping[str, Any], seats_in_play: Sequence[int]) -> frozenset[int]:
    if value in (None, []):
        return frozenset()
    if not isinstance(value, list):
        raise ApplicationError(_("List the seats that surrendered by number."), extra={"field": SURRENDERED})
    if not _allowed(snapshot, "surrender_allowed"):
        raise ApplicationError(
            _("The rule set %(rule_set)s does not allow surrender.") % {"rule_set": repr(snapshot["name"])},
            extra={"field": SURRENDERED, "rule": "surrender_allowed"},
        )
    seats = set()
    for seat in value:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ApplicationError(
                _("%(value)s is not a seat number.") % {"value": repr(seat)}, extra={"field": SURRENDERED}
            )
        if seat not in seats_in_play:
            in_play = ", ".join(map(str, seats_in_play))
            raise ApplicationError(
                _("Seat %(seat)s has no wager in this round (seats in play: %(in_play)s): it cannot surrender.")
                % {"seat": seat, "in_play": in_play},
                extra={"field": SURRENDERED},
            )
        seats.add(seat)
    return frozenset(seats)


def _symbols(cards: Sequence[Card]) -> str:
    return " ".join(card.symbol for card in cards)


def _live_hands_check(read: RoundHands, moved: Mapping[int, tuple[set[Card], set[Card]]], loose: set[Card]) -> None:
    """After a live deal: each swapping seat holds what it took and not what it gave; undealt cards are in no hand."""
    holding = {seat: set(arrangement.cards) for seat, arrangement in read.seats.items()}
    for seat, (took, _gave) in sorted(moved.items()):
        where = position_name(seat)
        missing = sorted(took - holding[seat], key=lambda card: card.index)
        if missing:
            raise ApplicationError(
                _("%(where)s took %(cards)s in the swap; the hand entered does not hold it.")
                % {"where": where, "cards": _symbols(missing)},
                extra={"field": f"seats.{seat}"},
            )
    for seat, cards in sorted(holding.items()):
        back = sorted(cards & loose, key=lambda card: card.index)
        if back:
            giver = next((s for s, (_t, g) in moved.items() if back[0] in g), None)
            raise ApplicationError(
                _("%(where)s holds %(cards)s, which seat %(giver)s gave in the swap: it is among the undealt cards.")
                % {"where": position_name(seat), "cards": _symbols(back), "giver": giver},
                extra={"field": f"seats.{seat}"},
            )


def dealt_now(dealt: Mapping[str, str], *, stored: StoredHands | None, snapshot: Mapping[str, Any]) -> dict[str, str]:
    """The system's deal as the swaps recorded on the round (its ``stored`` hands) left it: what each seat holds
    now (the tablet's hand entry starts from it). The swaps were checked when recorded."""
    swaps = recorded_swaps(stored)
    if not swaps:
        return dict(dealt)
    seats = sorted(int(position) for position in dealt)  # Chinese Poker deals to the seats in play only
    after = swaps_check(swaps, snapshot=snapshot, seats_in_play=seats, dealt=dealt)[1]
    return after if after is not None else dict(dealt)


def undealt_now(dealt: Mapping[str, str], *, stored: StoredHands | None, snapshot: Mapping[str, Any]) -> str:
    """The cards left undealt by the system's deal and the swaps recorded so far, in the deck's order."""
    return cards_text(_undealt(dealt_now(dealt, stored=stored, snapshot=snapshot)))
