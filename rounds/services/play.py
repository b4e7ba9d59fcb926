"""Playing a round: wagers, closing the betting, the deal, the hands (DESIGN.md, "One round, end to end").

Each service checks who acts (``tables.permissions``), locks the round, checks its state, and
writes what it records with the round's move and its audit event in one transaction; bad input
is refused before anything is written. A wager in a banked game moves money (a ``wager``
posting from the player to the layout); the points games post nothing until they settle.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from casino.idempotency import write_transaction
from casino.money import money_text as _money
from casino.roles import TABLE_STAFF, require_role
from ledger.lines import Line
from ledger.models import Account, Kind, Posting
from ledger.services import post, posting_record
from rounds import ofc_turns
from rounds.models import Round, Wager
from rounds.services.house_wager import house_wager_cents
from rounds.services.transitions import round_check, round_transition
from rounds.sql import RoundStanding, round_lock, wager_kept, wagers_of_locked
from rounds.states import RoundState, check_move
from rules import hands as round_hands
from rules import options as rule_options
from rules import surrender_swap
from rules.games import banking, dealing, ofc_table, registry
from rules.games.cards import cards_text
from rules.games.errors import InvalidHand
from tables.live import table_changed
from tables.models import Seat
from tables.permissions import require_act_at_table


def round_seat_ids(round_: Round) -> dict[int, int]:
    """The ids of the round's table's seats, by seat number (what a posting's lines name)."""
    return dict(Seat.objects.filter(table_id=round_.table_id).values_list("number", "pk"))


def round_wagers(round_: Round) -> dict[int, int]:
    """The round's wagers by seat number, in cents (``wagers_of_locked``: read once for the write that locked it)."""
    return {wager.seat.number: wager.amount_cents for wager in wagers_of_locked(round_)}


# --- wagers ---------------------------------------------------------------------------------------


def wager_place(*, actor: User | None, round: Round, seat: int, amount_cents: int) -> Wager:
    """Take a seat's wager on an open round, inside the table's limits and what a player bank can cover.

    In the banked games the chips go from the player to the layout (a ``wager`` posting);
    in the points games the wager is the value of a point and no money moves until the
    round settles. One wager a seat a round; the banker's seat does not wager.
    """
    for name, value in (("seat", seat), ("amount_cents", amount_cents)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ApplicationError(
                _("The %(field)s is a whole number, not %(value)s.")
                % {"field": name.replace("_", " "), "value": repr(value)},
                extra={"field": name},
            )
    require_role(actor, *TABLE_STAFF, action="take a wager")
    with write_transaction():
        locked, standing = round_lock(round)
        require_act_at_table(actor, locked.table, action="take a wager")
        round_check(locked, standing, hold=gettext_noop("no wagers"))
        table = locked.table
        if locked.state != RoundState.OPEN:
            raise WrongState(
                _("Betting is closed on round %(round)s: it is %(state)s.")
                % {"round": locked.number, "state": locked.state}
            )
        if not 1 <= seat <= table.seat_count:
            raise ApplicationError(
                _("Table %(table)s has seats 1 to %(seats)s, not %(seat)s.")
                % {"table": table.name, "seats": table.seat_count, "seat": seat},
                extra={"field": "seat"},
            )
        if locked.bank_seat is not None and locked.bank_seat.number == seat:
            raise ApplicationError(
                _("Seat %(seat)s holds the bank this round: the banker does not wager.") % {"seat": seat},
                extra={"field": "seat"},
            )
        low, high = table.min_wager_cents, table.max_wager_cents
        if not low <= amount_cents <= high:
            raise ApplicationError(
                _("A wager at table %(table)s is %(min)s to %(max)s, not %(amount)s.")
                % {"table": table.name, "min": _money(low), "max": _money(high), "amount": _money(amount_cents)},
                extra={"field": "amount_cents", "min_cents": low, "max_cents": high},
            )
        if locked.bank_cents is not None:
            co_banking = locked.rule_set_snapshot["banking_mode"] == rule_options.CO_BANKING
            covers = banking.bank_covers(locked.bank_cents, co_banking=co_banking)
            if amount_cents > covers:
                raise ApplicationError(
                    _("The bank (seat %(seat)s) covers %(covers)s: a wager of %(amount)s is more than it can cover.")
                    % {
                        "seat": locked.bank_seat.number,  # type: ignore[union-attr]
                        "covers": _money(covers),
                        "amount": _money(amount_cents),
                    },
                    extra={"field": "amount_cents", "covers_cents": covers},
                )
        seat_row = Seat.objects.get(table=table, number=seat)
        taken = next((placed for placed in wagers_of_locked(locked) if placed.seat_id == seat_row.pk), None)
        if taken is not None:
            raise WrongState(
                _("Seat %(seat)s already has a wager of %(amount)s on round %(round)s.")
                % {"seat": seat, "amount": _money(taken.amount_cents), "round": locked.number},
                extra={"field": "seat"},
            )
        if round_hands.round_is_peer(locked):
            _peer_wager_check(locked, amount_cents)
        wager = Wager.objects.create(round=locked, seat=seat_row, amount_cents=amount_cents, placed_by=actor)
        wager_kept(locked, wager)
        postings = []
        if round_hands.round_is_banked(locked):
            postings.append(
                post(
                    round_id=locked.pk,
                    kind=Posting.Kind.WAGER,
                    lines=[
                        Line(Account.PLAYER.value, seat, -amount_cents, Kind.WAGER.value),
                        Line(Account.WAGERS.value, None, amount_cents, Kind.WAGER.value),
                    ],
                    actor=actor,
                    seat_ids={seat: seat_row.pk},
                )
            )
        table_changed(table.pk)
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.WAGER_PLACED,
            subject=wager,
            after={
                "table": table.name,
                "round": locked.pk,
                "round_number": locked.number,
                "seat": seat,
                "amount_cents": amount_cents,
                "postings": [posting_record(p) for p in postings],
            },
        )
    return wager


def _peer_wager_check(locked: Round, amount_cents: int) -> None:
    """The tiles' peer variant (GAME_RULES.md §1): two to four players at equal stakes, the first wager setting it."""
    placed = wagers_of_locked(locked)
    first = min(placed, key=lambda wager: wager.pk, default=None)
    if first is not None and amount_cents != first.amount_cents:
        raise ApplicationError(
            _(
                "The peer variant is played at equal stakes: seat %(seat)s wagers "
                "%(stake)s, so every player wagers %(stake)s, "
                "not %(amount)s."
            )
            % {"seat": first.seat.number, "stake": _money(first.amount_cents), "amount": _money(amount_cents)},
            extra={"field": "amount_cents", "stake_cents": first.amount_cents},
        )
    most = round_hands.PEER_PLAYERS[1]
    if len(placed) >= most:
        raise WrongState(
            _("The peer variant is played by two to four players: round %(round)s has %(most)s already.")
            % {"round": locked.number, "most": most},
            extra={"field": "seat"},
        )


def round_close_betting(*, actor: User | None, round: Round) -> Round:
    """Close the betting: a banked round needs a wager, a points round two players with a value a point."""
    require_role(actor, *TABLE_STAFF, action="close the betting")
    with write_transaction():
        locked, standing = round_lock(round)
        require_act_at_table(actor, locked.table, action="close the betting")
        round_check(locked, standing)
        check_move(locked.state, RoundState.BETTING_CLOSED, round_number=locked.number, round_id=locked.pk)
        count = len(wagers_of_locked(locked))
        needed = 1 if round_hands.round_is_banked(locked) else 2
        if count < needed:
            what = _("a wager") if needed == 1 else _("two players with a wager")
            raise WrongState(
                _("Round %(round)s needs %(what)s before the betting closes; it has %(count)s.")
                % {"round": locked.number, "what": what, "count": count}
            )
        return round_transition(standing=standing, actor=actor, round=locked, target=RoundState.BETTING_CLOSED)


# --- the deal -------------------------------------------------------------------------------------


def round_deal(
    *,
    actor: User | None,
    round: Round,
    dice: Sequence[int] | None = None,
    auto: bool = False,
    rng: random.Random | None = None,
) -> Round:
    """Record the three dice and the action order they give, or (``auto``) let the system roll, shuffle and deal.

    The system's deal (training and simulation mode) uses a cryptographically secure
    RNG unless ``rng`` is given, and is kept on the round so the hands entered must be
    the ones dealt.
    """
    if (dice is None) == (not auto):
        raise ApplicationError(
            _("Give the three dice the banker rolled, or ask the system to deal (auto), not both."),
            extra={"field": "dice"},
        )
    given: tuple[int, int, int] | None = None
    if dice is not None:
        if not isinstance(dice, list | tuple):
            raise ApplicationError(
                _("The dice are three numbers, 1 to 6, not %(dice)s.") % {"dice": repr(dice)}, extra={"field": "dice"}
            )
        try:
            given = dealing.check_dice(dice)
        except InvalidHand as exc:
            raise ApplicationError(_("Dice: %(problem)s.") % {"problem": exc}, extra={"field": "dice"}) from None
    require_role(actor, *TABLE_STAFF, action="deal")
    with write_transaction():
        locked, standing = round_lock(round)
        require_act_at_table(actor, locked.table, action="deal")
        round_check(locked, standing)
        check_move(locked.state, RoundState.DEALT, round_number=locked.number, round_id=locked.pk)
        bank = locked.bank_seat.number if locked.bank_seat is not None else None
        positions, banker = registry.deal_positions(seat_count=locked.table.seat_count, bank_seat=bank)
        dealt: dict[str, str] | None = None
        if registry.game(locked.table.game).placed_by_street:
            return _ofc_deal(actor, locked, standing, dice=given, auto=auto, rng=rng)
        rolled = given
        if auto:
            source = rng or dealing.secure_rng()
            rolled = dealing.check_dice(dealing.roll_dice(source))
            in_play = sorted(round_wagers(locked))
            dealt = registry.system_deal(
                locked.table.game, source, dice=rolled, positions=positions, banker=banker, in_play=in_play
            )
        if rolled is None:  # neither given nor rolled: refused above
            raise ApplicationError(_("Give the three dice the banker rolled."), extra={"field": "dice"})
        order = dealing.action_order(rolled, positions=positions, banker=banker)
        changes: dict[str, Any] = {
            "deal_mode": "auto" if auto else "dice",
            "dice": list(rolled),
            "action_order": list(order),
        }
        if dealt is not None:
            changes["dealt"] = dealt
        return round_transition(standing=standing, actor=actor, round=locked, target=RoundState.DEALT, changes=changes)


def _ofc_deal(
    actor: User | None,
    locked: Round,
    standing: RoundStanding,
    *,
    dice: Sequence[int] | None,
    auto: bool,
    rng: random.Random | None,
) -> Round:
    """Open-Face's deal: the button moved on from the table's previous round, the seats in play in turn order (left
    of the button first, the button last) as the round's action order; the system deals in that order, 14 cards at
    once to a seat in Fantasyland (``rounds.ofc_turns``, ``rules.games.ofc_table``)."""
    in_play = sorted(round_wagers(locked))
    button = ofc_turns.button_next(locked, in_play)
    order = ofc_table.turn_order(button=button, seats_in_play=in_play)
    changes: dict[str, Any] = {"deal_mode": "auto" if auto else "dice", "action_order": list(order)}
    if auto:
        source = rng or dealing.secure_rng()
        dice = dealing.check_dice(dealing.roll_dice(source))
        fantasyland = ofc_turns.fantasyland_seats(locked, in_play)
        dealt = ofc_table.deal(source, order=order, fantasyland=fantasyland)
        changes["dealt"] = {str(seat): cards_text(cards) for seat, cards in dealt.items()}
    changes["dice"] = list(dice or ())
    return round_transition(standing=standing, actor=actor, round=locked, target=RoundState.DEALT, changes=changes)


# --- the hands ------------------------------------------------------------------------------------


def read_hands(
    locked: Round, payload: Mapping[str, Any], *, wagers: Mapping[int, int], complete_boards: bool = False
) -> round_hands.RoundHands:
    """The hands ``payload`` gives for the locked round, checked by ``rules.hands`` against its rules, its
    seats in play (``wagers``), its bank and its deal; ``complete_boards`` reads Open-Face's finished boards."""
    seats_in_play = sorted(wagers)
    snapshot = locked.rule_set_snapshot
    if complete_boards and registry.game(locked.table.game).placed_by_street:
        boards = round_hands.boards_read(game=locked.table.game, payload=payload, seats_in_play=seats_in_play)
        round_hands.ofc_history_check(payload=payload, order=locked.action_order, seats_in_play=seats_in_play)
        return boards
    # Chinese Poker's swaps happened before the hands were set (recorded on the dealt round), and its surrender
    # is entered with them: the hands are checked against the deal as the swaps left it.
    payload = surrender_swap.with_recorded_swaps(payload, round_hands.stored_hands(locked.hands))
    dealt = surrender_swap.dealt_after_swaps(
        payload, snapshot=snapshot, seats_in_play=seats_in_play, dealt=locked.dealt
    )
    read = round_hands.round_hands_read(
        game=locked.table.game,
        snapshot=snapshot,
        payload=payload,
        seats_in_play=seats_in_play,
        bank_seat=locked.bank_seat.number if locked.bank_seat is not None else None,
        dealt=dealt,
        house_plays=house_wager_cents(locked) is not None,
    )
    return surrender_swap.extras_read(
        read, snapshot=snapshot, payload=payload, seats_in_play=seats_in_play, dealt=locked.dealt
    )


def round_hands_record(*, actor: User | None, round: Round, hands: Mapping[str, Any]) -> Round:
    """Record the revealed hands (checked by ``rules.hands``); the round becomes ``revealed``.

    Until it settles, the dealer may enter them again (a typo): the new hands replace
    the old, and the audit log keeps both.
    """
    require_role(actor, *TABLE_STAFF, action="enter the hands")
    with write_transaction():
        locked, standing = round_lock(round)
        require_act_at_table(actor, locked.table, action="enter the hands")
        round_check(locked, standing)
        if locked.state not in (RoundState.DEALT, RoundState.REVEALED):
            check_move(locked.state, RoundState.REVEALED, round_number=locked.number, round_id=locked.pk)
        # Present at all (null included), the swaps must be the ones recorded: the hands never change them.
        named = isinstance(hands, Mapping) and surrender_swap.SWAPS in hands
        if named and hands[surrender_swap.SWAPS] != surrender_swap.recorded_swaps(
            round_hands.stored_hands(locked.hands)
        ):
            raise ApplicationError(
                _(
                    "The swaps are recorded one at a time as they are announced, before the hands: "
                    "leave them out of the hands."
                ),
                extra={"field": surrender_swap.SWAPS},
            )
        read = read_hands(locked, hands, wagers=round_wagers(locked))
        if locked.state == RoundState.REVEALED:
            return round_transition(
                standing=standing,
                actor=actor,
                round=locked,
                target=None,
                changes={"hands": read.stored},
                event=AuditEventType.ROUND_HANDS_REPLACED,
            )
        return round_transition(
            standing=standing,
            actor=actor,
            round=locked,
            target=RoundState.REVEALED,
            changes={"hands": read.stored},
        )


def round_placements_record(*, actor: User | None, round: Round, placements: Mapping[str, Any]) -> Round:
    """Place one OFC street for the seats named; when every board is complete the round is ``revealed``."""
    require_role(actor, *TABLE_STAFF, action="place cards")
    spec = registry.game(round.table.game)
    if not spec.placed_by_street:
        raise ApplicationError(
            _("Placements street by street are for Open-Face Chinese Poker: enter this game's hands at once."),
            extra={"field": "seats"},
        )
    with write_transaction():
        locked, standing = round_lock(round)
        require_act_at_table(actor, locked.table, action="place cards")
        round_check(locked, standing)
        if locked.state != RoundState.DEALT:
            raise WrongState(
                _("Round %(round)s is %(state)s: cards are placed after the deal, before settling.")
                % {"round": locked.number, "state": locked.state}
            )
        seats_in_play = sorted(round_wagers(locked))
        # Placed in turn from the button (``rounds.ofc_turns``); a round dealt before the button has no order.
        order = ofc_turns.turn_order(locked)
        fantasyland = ofc_turns.fantasyland_seats(locked, seats_in_play) if order else frozenset()
        boards = round_hands.ofc_place(
            boards=locked.placements or {},
            payload=placements,
            seats_in_play=seats_in_play,
            dealt=locked.dealt,
            order=order,
            fantasyland=fantasyland,
        )
        finished = all(
            str(seat) in boards
            and sum(len(boards[str(seat)][row].split()) for row in spec.part_names) == spec.hand_size
            for seat in seats_in_play
        )
        if finished:
            read = round_hands.ofc_hands(boards=boards, seats_in_play=seats_in_play, fantasyland=fantasyland)
            return round_transition(
                standing=standing,
                actor=actor,
                round=locked,
                target=RoundState.REVEALED,
                changes={"placements": boards, "hands": read.stored},
            )
        return round_transition(
            standing=standing,
            actor=actor,
            round=locked,
            target=None,
            changes={"placements": boards},
            event=AuditEventType.ROUND_PLACED,
        )
