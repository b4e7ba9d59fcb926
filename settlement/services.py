"""Playing a round: wagers, closing the betting, the deal, the hands, and settling it (DESIGN.md, "One round").

Each service checks who acts (the table's dealer, or a Floor supervisor or Pit boss
anywhere; voids and corrections need a supervisor), locks the round, checks its
state, and writes what it records, the ledger postings and the audit event in one
transaction; bad input is refused before anything is written.

Money moves as balanced postings (``settlement.ledger.post``): a wager in a banked
game goes from the player to the layout when it is taken; the settlement pays it
out from there (``settlement.compute``); a void returns it; a correction reverses
the settlement and settles again with the corrected hands.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.models import Shift
from casino.money import money_text as _money
from casino.roles import SUPERVISORS, require_role
from rules import options as rule_options
from rules.games import dealing, tiles_dealing
from rules.games.cards import cards_text, deck
from rules.games.errors import InvalidHand
from rules.games.tiles import tiles_text
from settlement import compute, report_pdf, reports
from settlement.ledger import post, reversal_lines
from settlement.models import Adjustment, LedgerEntry, Posting, ShiftReport, Wager
from tables import hands as round_hands
from tables.models import Round, Seat
from tables.services import ROUND_ROLES, require_table_staff, round_lock, round_lock_reading, round_transition
from tables.states import RoundState, check_move

MAX_KEY_LENGTH = 200


def _banked(round_: Round) -> bool:
    return bool(round_.rule_set_snapshot["banking_mode"] != rule_options.NO_BANK)


def _seat_ids(round_: Round) -> dict[int, int]:
    return dict(Seat.objects.filter(table_id=round_.table_id).values_list("number", "pk"))


def _stakes_sql(round_: Round) -> tuple[str, list[Any]]:
    """A scalar subquery: the round's wagers as JSON, [[seat number, seat id, cents], ...].

    The seat's number is a correlated look-up by primary key rather than a join: on PostgreSQL
    that plans in a fraction of the time for the six or seven rows a round has.
    """
    q = connection.ops.quote_name
    number = f"(SELECT s.{q('number')} FROM {q(Seat._meta.db_table)} s WHERE s.{q('id')} = w.{q('seat_id')})"
    row = f"{number}, w.{q('seat_id')}, w.{q('amount_cents')}"
    rows = (
        f"json_agg(json_build_array({row}))::text"
        if connection.vendor == "postgresql"
        else f"json_group_array(json_array({row}))"
    )
    return f"SELECT {rows} FROM {q(Wager._meta.db_table)} w WHERE w.{q('round_id')} = %s", [round_.pk]


def _key_used_sql(key: str) -> tuple[str, list[Any]]:
    """A scalar subquery: whether a posting already holds this idempotency key."""
    q = connection.ops.quote_name
    return f"SELECT COUNT(*) FROM {q(Posting._meta.db_table)} WHERE {q('idempotency_key')} = %s", [key]


def _stakes(round_: Round, stakes: str | None) -> tuple[dict[int, int], dict[int, int]]:
    """The round's wagers by seat number, and the seat ids of its players and banker, from ``_stakes_sql``."""
    wagers: dict[int, int] = {}
    seat_ids: dict[int, int] = {}
    for number, seat_id, amount in json.loads(stakes) if stakes else ():
        wagers[number] = amount
        seat_ids[number] = seat_id
    if round_.bank_seat is not None:
        seat_ids[round_.bank_seat.number] = round_.bank_seat.pk
    return wagers, seat_ids


def _used_key(key: str) -> Posting:
    """The posting a key was already used for."""
    return Posting.objects.select_related("round__table").get(idempotency_key=key)


def _wagers(round_: Round) -> dict[int, int]:
    """The round's wagers by seat number, in cents."""
    return dict(round_.wagers.values_list("seat__number", "amount_cents"))


# --- wagers ---------------------------------------------------------------------------------------


def wager_place(*, actor: AbstractBaseUser | None, round: Round, seat: int, amount_cents: int) -> Wager:
    """Take a seat's wager on an open round, inside the table's limits and what a player bank can cover.

    In the banked games the chips go from the player to the layout (a ``wager`` posting);
    in the points games the wager is the value of a point and no money moves until the
    round settles. One wager a seat a round; the banker's seat does not wager.
    """
    for name, value in (("seat", seat), ("amount_cents", amount_cents)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ApplicationError(
                f"The {name.replace('_', ' ')} is a whole number, not {value!r}.", extra={"field": name}
            )
    require_role(actor, *ROUND_ROLES, action="take a wager")
    with transaction.atomic():
        locked = round_lock(round)
        require_table_staff(actor, locked.table, action="take a wager")
        table = locked.table
        if locked.state != RoundState.OPEN:
            raise WrongState(f"Betting is closed on round {locked.number}: it is {locked.state}.")
        if not 1 <= seat <= table.seat_count:
            raise ApplicationError(
                f"Table {table.name} has seats 1 to {table.seat_count}, not {seat}.", extra={"field": "seat"}
            )
        if locked.bank_seat is not None and locked.bank_seat.number == seat:
            raise ApplicationError(
                f"Seat {seat} holds the bank this round: the banker does not wager.", extra={"field": "seat"}
            )
        low, high = table.min_wager_cents, table.max_wager_cents
        if not low <= amount_cents <= high:
            raise ApplicationError(
                f"A wager at table {table.name} is {_money(low)} to {_money(high)}, not {_money(amount_cents)}.",
                extra={"field": "amount_cents", "min_cents": low, "max_cents": high},
            )
        if locked.bank_cents is not None:
            covers = locked.bank_cents * (
                2 if locked.rule_set_snapshot["banking_mode"] == rule_options.CO_BANKING else 1
            )
            if amount_cents > covers:
                raise ApplicationError(
                    f"The bank (seat {locked.bank_seat.number}) covers {_money(covers)}: "  # type: ignore[union-attr]
                    f"a wager of {_money(amount_cents)} is more than it can cover.",
                    extra={"field": "amount_cents", "covers_cents": covers},
                )
        seat_row = Seat.objects.get(table=table, number=seat)
        taken = locked.wagers.filter(seat=seat_row).first()
        if taken is not None:
            raise WrongState(
                f"Seat {seat} already has a wager of {_money(taken.amount_cents)} on round {locked.number}.",
                extra={"field": "seat"},
            )
        wager = Wager.objects.create(round=locked, seat=seat_row, amount_cents=amount_cents, placed_by=actor)
        if _banked(locked):
            post(
                round=locked,
                kind=Posting.Kind.WAGER,
                lines=[
                    compute.Line(compute.PLAYER, seat, -amount_cents, "wager"),
                    compute.Line(compute.WAGERS, None, amount_cents, "wager"),
                ],
                actor=actor,
                seat_ids={seat: seat_row.pk},
            )
    return wager


def round_close_betting(*, actor: AbstractBaseUser | None, round: Round) -> Round:
    """Close the betting: a banked round needs a wager, a points round two players with a value a point."""
    require_role(actor, *ROUND_ROLES, action="close the betting")
    with transaction.atomic():
        locked = round_lock(round)
        require_table_staff(actor, locked.table, action="close the betting")
        check_move(locked.state, RoundState.BETTING_CLOSED, round_number=locked.number)
        count = locked.wagers.count()
        needed = 1 if _banked(locked) else 2
        if count < needed:
            what = "a wager" if needed == 1 else "two players with a wager"
            raise WrongState(f"Round {locked.number} needs {what} before the betting closes; it has {count}.")
        return round_transition(already_locked=True, actor=actor, round=locked, target=RoundState.BETTING_CLOSED)


# --- the deal -------------------------------------------------------------------------------------


def deal_positions(*, seat_count: int, bank_seat: int | None) -> tuple[tuple[int, ...], int]:
    """Every position at the table counter-clockwise from the dealer (0), and where the count starts.

    Seats are numbered clockwise from the dealer's left, so counter-clockwise from the
    dealer comes the highest seat first (``tables.models.Seat``). The count starts at the
    bank: the player banking, or the dealer (GAME_RULES.md §1 "Dealing").

    >>> deal_positions(seat_count=6, bank_seat=None)
    ((0, 6, 5, 4, 3, 2, 1), 0)
    """
    return (0, *range(seat_count, 0, -1)), (bank_seat if bank_seat is not None else 0)


def _deal_cards(game: str, order: Sequence[int], in_play: Sequence[int], rng: random.Random) -> dict[str, str]:
    """The system's deal, by position: seven cards to every position (Pai Gow Poker), 13 to each player."""
    if game == rule_options.PAIGOW_POKER:
        cards = dealing.shuffled(deck(joker=True), rng)
        return {str(p): cards_text(cards[7 * i : 7 * i + 7]) for i, p in enumerate(order)}
    cards = dealing.shuffled(deck(joker=False), rng)
    players = [p for p in order if p in in_play]
    return {str(p): cards_text(cards[13 * i : 13 * i + 13]) for i, p in enumerate(players)}


def round_deal(
    *,
    actor: AbstractBaseUser | None,
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
            "Give the three dice the banker rolled, or ask the system to deal (auto), not both.",
            extra={"field": "dice"},
        )
    if dice is not None:
        if not isinstance(dice, list | tuple):
            raise ApplicationError(f"The dice are three numbers, 1 to 6, not {dice!r}.", extra={"field": "dice"})
        try:
            dice = dealing.check_dice(dice)
        except InvalidHand as exc:
            raise ApplicationError(f"Dice: {exc}.", extra={"field": "dice"}) from None
    require_role(actor, *ROUND_ROLES, action="deal")
    with transaction.atomic():
        locked = round_lock(round)
        require_table_staff(actor, locked.table, action="deal")
        check_move(locked.state, RoundState.DEALT, round_number=locked.number)
        game = locked.table.game
        bank = locked.bank_seat.number if locked.bank_seat is not None else None
        positions, banker = deal_positions(seat_count=locked.table.seat_count, bank_seat=bank)
        dealt: dict[str, str] | None = None
        if auto:
            source = rng or dealing.secure_rng()
            dice = dealing.check_dice(dealing.roll_dice(source))
            order = dealing.action_order(dice, positions=positions, banker=banker)
            if game == rule_options.PAIGOW_TILES:
                deal = tiles_dealing.deal_paigow_tiles(source, positions=positions, banker=banker, dice=dice)
                dealt = {str(p): tiles_text(hand) for p, hand in deal.hands.items()}
            else:
                dealt = _deal_cards(game, order, sorted(_wagers(locked)), source)
        else:
            order = dealing.action_order(dice, positions=positions, banker=banker)  # type: ignore[arg-type]
        changes = {"deal_mode": "auto" if auto else "dice", "dice": list(dice), "action_order": list(order)}
        if dealt is not None:
            changes["dealt"] = dealt
        return round_transition(
            already_locked=True, actor=actor, round=locked, target=RoundState.DEALT, changes=changes
        )


# --- the hands ------------------------------------------------------------------------------------


def _read_hands(
    locked: Round, payload: Mapping[str, Any], *, wagers: Mapping[int, int], complete_boards: bool = False
) -> round_hands.RoundHands:
    seats_in_play = sorted(wagers)
    snapshot = locked.rule_set_snapshot
    if complete_boards and locked.table.game == rule_options.OFC:
        return round_hands.ofc_boards_read(payload=payload, seats_in_play=seats_in_play)
    return round_hands.round_hands_read(
        game=locked.table.game,
        snapshot=snapshot,
        payload=payload,
        seats_in_play=seats_in_play,
        bank_seat=locked.bank_seat.number if locked.bank_seat is not None else None,
        dealt=locked.dealt,
    )


def round_hands_record(*, actor: AbstractBaseUser | None, round: Round, hands: Mapping[str, Any]) -> Round:
    """Record the revealed hands (checked by ``tables.hands``); the round becomes ``revealed``.

    Until it settles, the dealer may enter them again (a typo): the new hands replace
    the old, and the audit log keeps both.
    """
    require_role(actor, *ROUND_ROLES, action="enter the hands")
    with transaction.atomic():
        locked = round_lock(round)
        require_table_staff(actor, locked.table, action="enter the hands")
        if locked.state not in (RoundState.DEALT, RoundState.REVEALED):
            check_move(locked.state, RoundState.REVEALED, round_number=locked.number)
        read = _read_hands(locked, hands, wagers=_wagers(locked))
        if locked.state == RoundState.REVEALED:
            return round_transition(
                already_locked=True,
                actor=actor,
                round=locked,
                target=None,
                changes={"hands": read.stored},
                event="round.hands_replaced",
            )
        return round_transition(
            already_locked=True, actor=actor, round=locked, target=RoundState.REVEALED, changes={"hands": read.stored}
        )


def round_placements_record(*, actor: AbstractBaseUser | None, round: Round, placements: Mapping[str, Any]) -> Round:
    """Place one OFC street for the seats named; when every board is complete the round is ``revealed``."""
    require_role(actor, *ROUND_ROLES, action="place cards")
    if round.table.game != rule_options.OFC:
        raise ApplicationError(
            "Placements street by street are for Open-Face Chinese Poker: enter this game's hands at once.",
            extra={"field": "seats"},
        )
    with transaction.atomic():
        locked = round_lock(round)
        require_table_staff(actor, locked.table, action="place cards")
        if locked.state != RoundState.DEALT:
            raise WrongState(
                f"Round {locked.number} is {locked.state}: cards are placed after the deal, before settling."
            )
        seats_in_play = sorted(_wagers(locked))
        boards = round_hands.ofc_place(
            boards=locked.placements or {}, payload=placements, seats_in_play=seats_in_play, dealt=locked.dealt
        )
        finished = all(
            str(seat) in boards
            and sum(len(boards[str(seat)][row].split()) for row in ("front", "middle", "back")) == 13
            for seat in seats_in_play
        )
        if finished:
            read = round_hands.ofc_hands(boards=boards, seats_in_play=seats_in_play)
            return round_transition(
                already_locked=True,
                actor=actor,
                round=locked,
                target=RoundState.REVEALED,
                changes={"placements": boards, "hands": read.stored},
            )
        return round_transition(
            already_locked=True,
            actor=actor,
            round=locked,
            target=None,
            changes={"placements": boards},
            event="round.placed",
        )


# --- settling -------------------------------------------------------------------------------------


def _check_key(idempotency_key: str | None) -> str:
    key = (idempotency_key or "").strip()
    if not key:
        raise ApplicationError(
            "A settlement needs an idempotency key (the Idempotency-Key header): the same key never pays twice.",
            extra={"field": "idempotency_key"},
        )
    if len(key) > MAX_KEY_LENGTH:
        raise ApplicationError(
            f"An idempotency key is at most {MAX_KEY_LENGTH} characters.", extra={"field": "idempotency_key"}
        )
    return key


def settlement_body(posting: Posting) -> dict[str, Any]:
    """What a settle (or correction) call answers, rebuilt the same from the stored posting on every retry."""
    round_ = posting.round
    return {
        "settlement_id": posting.pk,
        "idempotency_key": posting.idempotency_key,
        "round": round_.pk,
        "table": round_.table.name,
        "number": round_.number,
        "game": round_.rule_set_snapshot["game"],
        "rule_set_version": round_.rule_set_snapshot["version"],
        "settled_at": posting.created_at.isoformat(),
        "corrects": posting.corrects_id,
        "bank_seat": round_.bank_seat.number if round_.bank_seat is not None else None,
        "hands": posting.hands,
        **(posting.result or {}),
    }


def _replay(existing: Posting, round_: Round, *, correction: bool) -> dict[str, Any]:
    """The stored answer for a retried key, if the key was used for this very act; otherwise refuse."""
    same_act = existing.kind == Posting.Kind.SETTLEMENT and (existing.corrects_id is not None) == correction
    if existing.round_id != round_.pk or not same_act:
        used_for = "a correction" if existing.corrects_id is not None else existing.get_kind_display()
        raise WrongState(
            f"This idempotency key was already used for {used_for} (posting {existing.pk}, "
            f"round {existing.round.number} at table {existing.round.table.name}): use a new key.",
            extra={"field": "idempotency_key"},
        )
    return settlement_body(existing)


def _compute(round_: Round, read: round_hands.RoundHands, wagers: Mapping[int, int]) -> compute.Computed:
    """What the round pays with these hands, by its frozen rules, its action order and its bank."""
    return compute.settle(
        snapshot=round_.rule_set_snapshot,
        hands=read,
        wagers=wagers,
        order=round_.action_order or [],
        bank_seat=round_.bank_seat.number if round_.bank_seat is not None else None,
        bank_cents=round_.bank_cents,
    )


def _settle_into(
    locked: Round,
    *,
    actor: AbstractBaseUser | None,
    key: str,
    read: round_hands.RoundHands,
    wagers: Mapping[int, int],
    seat_ids: Mapping[int, int],
    stored: Mapping[str, Any],
    corrects: Posting | None = None,
    reason: str = "",
) -> Posting:
    computed = _compute(locked, read, wagers)
    return post(
        round=locked,
        kind=Posting.Kind.SETTLEMENT,
        lines=computed.lines,
        actor=actor,
        seat_ids=seat_ids,
        idempotency_key=key,
        hands=stored,
        result=computed.result,
        corrects=corrects,
        reason=reason,
    )


@contextmanager
def _key_race() -> Iterator[None]:
    """A key taken at the same moment by a settlement of another round (the unique index decides)."""
    try:
        yield
    except IntegrityError as exc:
        raise WrongState(
            "This idempotency key was used at the same moment for another settlement: use a new key.",
            extra={"field": "idempotency_key"},
        ) from exc


def settle_round(*, round: Round, actor: AbstractBaseUser | None, idempotency_key: str) -> dict[str, Any]:
    """Settle a revealed round by its frozen rules and post its balanced ledger entries, once.

    Checks every hand again (``tables.hands``), asks the engine for each outcome or score
    sheet, computes commission and rake (``settlement.compute``), posts the entries and
    moves the round to ``settled``, all in one transaction. The same key returns the same
    answer, however often it is retried; another attempt on a settled round is refused.
    """
    key = _check_key(idempotency_key)
    require_role(actor, *ROUND_ROLES, action="settle a round")
    require_table_staff(actor, round.table, action="settle a round")
    with _key_race(), transaction.atomic():
        # The round locked, then whether the key was used and the wagers (one round trip on PostgreSQL).
        # The key is looked up under the round's lock: a retry waits for the first attempt to commit,
        # then finds its posting and answers the same.
        locked, (key_used, stakes) = round_lock_reading(round, _key_used_sql(key), _stakes_sql(round))
        require_table_staff(actor, locked.table, action="settle a round")
        if key_used:
            return _replay(_used_key(key), locked, correction=False)
        if locked.state == RoundState.SETTLED:
            raise WrongState(
                f"Round {locked.number} is already settled with another key: it is never paid twice. "
                "A supervisor corrects a settled round.",
                extra={"field": "idempotency_key"},
            )
        check_move(locked.state, RoundState.SETTLED, round_number=locked.number)
        if locked.hands is None:
            raise WrongState(f"Round {locked.number} has no hands entered.")
        wagers, seat_ids = _stakes(locked, stakes)
        read = _read_hands(locked, _entered(locked.hands), wagers=wagers, complete_boards=True)
        posting = _settle_into(
            locked, actor=actor, key=key, read=read, wagers=wagers, seat_ids=seat_ids, stored=locked.hands
        )
        round_transition(already_locked=True, actor=actor, round=locked, target=RoundState.SETTLED)
    return settlement_body(posting)


def _entered(stored: Mapping[str, Any]) -> dict[str, Any]:
    """Stored hands as they would be entered: each setting or arrangement, without the notes kept beside it."""
    parts = ("high", "low", "front", "middle", "back")
    payload: dict[str, Any] = {
        "seats": {seat: {k: v for k, v in hand.items() if k in parts} for seat, hand in stored["seats"].items()}
    }
    if stored.get("banker") is not None:
        payload["banker"] = {k: v for k, v in stored["banker"].items() if k in parts}
    return payload


def settlement_preview(*, round: Round, hands: Mapping[str, Any]) -> dict[str, Any]:
    """What settling ``round`` with ``hands`` would pay, without writing anything (the dealer's preview).

    The hands are checked as ``round_hands_record`` checks them; the answer has the
    settle call's shape (per seat outcome, won, commission, net; the bank's and the
    house's totals) plus ``hands``, the hands as they would be stored (the house way's
    setting and rule for a bank left unset, a foul marked on each fouled seat).
    """
    round_ = Round.objects.select_related("table", "bank_seat").get(pk=round.pk)
    wagers = _wagers(round_)
    read = _read_hands(round_, hands, wagers=wagers, complete_boards=True)
    computed = _compute(round_, read, wagers)
    return {"round": round_.pk, "preview": True, "hands": read.stored, **computed.result}


# --- voids and corrections ------------------------------------------------------------------------


def void_round(*, actor: AbstractBaseUser | None, round: Round, reason: str) -> Round:
    """Void a round not yet settled (a Floor supervisor's or Pit boss's act, with a reason); return its wagers.

    Every wager posting is undone line for line by one ``void`` posting.
    """
    require_role(actor, *SUPERVISORS, action="void a round")
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError("A round is voided only with a reason.", extra={"field": "reason"})
    with transaction.atomic():
        locked = round_lock(round)
        check_move(locked.state, RoundState.VOIDED, round_number=locked.number)
        entries = list(LedgerEntry.objects.filter(posting__round=locked, posting__kind=Posting.Kind.WAGER))
        if entries:
            numbers = {pk: number for number, pk in _seat_ids(locked).items()}
            post(
                round=locked,
                kind=Posting.Kind.VOID,
                lines=reversal_lines(entries, numbers),
                actor=actor,
                seat_ids=_seat_ids(locked),
                reason=reason,
            )
        return round_transition(already_locked=True, actor=actor, round=locked, target=RoundState.VOIDED, reason=reason)


def correct_round(
    *,
    actor: AbstractBaseUser | None,
    round: Round,
    hands: Mapping[str, Any],
    reason: str,
    idempotency_key: str,
) -> dict[str, Any]:
    """Correct a settled round: reverse its settlement and settle again with the corrected hands.

    A Floor supervisor's or Pit boss's act, with a reason. Two postings, linked: a
    ``reversal`` that undoes the settlement in force line for line, and a new
    ``settlement`` that names the one it corrects; one audit event holds both. For OFC
    the corrected hands are the finished boards (front, middle, back for each seat).
    The same key returns the same answer.
    """
    require_role(actor, *SUPERVISORS, action="correct a settled round")
    key = _check_key(idempotency_key)
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError("A correction needs a reason.", extra={"field": "reason"})
    with _key_race(), transaction.atomic():
        locked, (key_used, stakes) = round_lock_reading(round, _key_used_sql(key), _stakes_sql(round))
        if key_used:
            return _replay(_used_key(key), locked, correction=True)
        if locked.state != RoundState.SETTLED:
            raise WrongState(
                f"Round {locked.number} is {locked.state}: only a settled round is corrected "
                "(change the hands, or void it, before it settles)."
            )
        wagers, seat_ids = _stakes(locked, stakes)
        read = _read_hands(locked, hands, wagers=wagers, complete_boards=True)
        current = Posting.objects.get(round=locked, kind=Posting.Kind.SETTLEMENT, reversed_by__isnull=True)
        if _entered(read.stored) == _entered(current.hands or {"seats": {}}):
            raise ApplicationError(
                "The corrected hands are the hands already settled: nothing to correct.", extra={"field": "hands"}
            )
        seat_ids = _seat_ids(locked)
        numbers = {pk: number for number, pk in seat_ids.items()}
        post(
            round=locked,
            kind=Posting.Kind.REVERSAL,
            lines=reversal_lines(current.entries.all(), numbers),
            actor=actor,
            seat_ids=seat_ids,
            reverses=current,
            reason=reason,
        )
        posting = _settle_into(
            locked,
            actor=actor,
            key=key,
            read=read,
            wagers=wagers,
            seat_ids=seat_ids,
            stored=read.stored,
            corrects=current,
            reason=reason,
        )
        before_hands = locked.hands
        round_transition(
            already_locked=True,
            actor=actor,
            round=locked,
            target=None,
            changes={"hands": read.stored},
            event="round.corrected",
            reason=reason,
        )
        audit_event_record(
            actor=actor,
            event_type="settlement.corrected",
            subject=posting,
            before={"settlement": current.pk, "hands": before_hands, "house": (current.result or {}).get("house")},
            after={"settlement": posting.pk, "hands": read.stored, "house": (posting.result or {}).get("house")},
            reason=reason,
        )
    return settlement_body(posting)


# --- requests for voids and corrections, approved from the pit ------------------------------------


def _adjustment_snapshot(adjustment: Adjustment) -> dict[str, Any]:
    return {
        "round": adjustment.round_id,
        "kind": adjustment.kind,
        "status": adjustment.status,
        "reason": adjustment.reason,
        "requested_by": adjustment.requested_by.get_username() if adjustment.requested_by else None,
        "decided_by": adjustment.decided_by.get_username() if adjustment.decided_by else None,
        "decision_note": adjustment.decision_note,
    }


def adjustment_request(
    *,
    actor: AbstractBaseUser | None,
    round: Round,
    kind: str,
    reason: str,
    hands: Mapping[str, Any] | None = None,
) -> Adjustment:
    """The table's dealer asks a supervisor to void a round (before it settles) or correct it (after).

    The request is checked now (the round's state; for a correction, the corrected hands)
    so the supervisor approves something that can be done; one request per round waits
    at a time.
    """
    require_role(actor, *ROUND_ROLES, action="ask for a void or a correction")
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError("Say why: a void or a correction is asked for with a reason.", extra={"field": "reason"})
    if kind not in Adjustment.Kind.values:
        raise ApplicationError(f"Ask for a void or a correction, not {kind!r}.", extra={"field": "kind"})
    with transaction.atomic():
        locked = round_lock(round)
        require_table_staff(actor, locked.table, action="ask for a void or a correction")
        if kind == Adjustment.Kind.VOID:
            check_move(locked.state, RoundState.VOIDED, round_number=locked.number)
            hands = None
        else:
            if locked.state != RoundState.SETTLED:
                raise WrongState(f"Round {locked.number} is {locked.state}: only a settled round is corrected.")
            if not isinstance(hands, Mapping):
                raise ApplicationError("A correction needs the corrected hands.", extra={"field": "hands"})
            hands = _read_hands(locked, hands, wagers=_wagers(locked), complete_boards=True).stored
        if locked.adjustments.filter(status=Adjustment.Status.PENDING).exists():
            raise WrongState(f"Round {locked.number} already has a request waiting for a supervisor.")
        adjustment = Adjustment.objects.create(
            round=locked, kind=kind, reason=reason, hands=_entered(hands) if hands else None, requested_by=actor
        )
        audit_event_record(
            actor=actor,
            event_type=f"adjustment.{kind}_requested",
            subject=adjustment,
            after=_adjustment_snapshot(adjustment),
            reason=reason,
        )
    return adjustment


def _adjustment_decide(adjustment: Adjustment) -> Adjustment:
    locked = Adjustment.objects.select_for_update(of=("self",)).select_related("round").get(pk=adjustment.pk)
    if locked.status != Adjustment.Status.PENDING:
        raise WrongState(f"This request was already {locked.status}.")
    return locked


def adjustment_approve(*, actor: AbstractBaseUser | None, adjustment: Adjustment, note: str = "") -> Adjustment:
    """A Floor supervisor or Pit boss approves a request: the round is voided, or corrected, at once."""
    require_role(actor, *SUPERVISORS, action="approve a void or a correction")
    with transaction.atomic():
        locked = _adjustment_decide(adjustment)
        before = _adjustment_snapshot(locked)
        if locked.kind == Adjustment.Kind.VOID:
            void_round(actor=actor, round=locked.round, reason=locked.reason)
            posting = Posting.objects.filter(round=locked.round, kind=Posting.Kind.VOID).first()
        else:
            body = correct_round(
                actor=actor,
                round=locked.round,
                hands=locked.hands or {},
                reason=locked.reason,
                idempotency_key=f"adjustment-{locked.pk}",
            )
            posting = Posting.objects.get(pk=body["settlement_id"])
        locked.status = Adjustment.Status.APPROVED
        locked.decided_by = actor  # type: ignore[assignment]
        locked.decided_at = timezone.now()
        locked.decision_note = (note or "").strip()
        locked.posting = posting
        locked.save(update_fields=["status", "decided_by", "decided_at", "decision_note", "posting"])
        audit_event_record(
            actor=actor,
            event_type=f"adjustment.{locked.kind}_approved",
            subject=locked,
            before=before,
            after=_adjustment_snapshot(locked),
            reason=locked.decision_note,
        )
    return locked


def adjustment_reject(*, actor: AbstractBaseUser | None, adjustment: Adjustment, note: str) -> Adjustment:
    """A Floor supervisor or Pit boss turns a request down, saying why; the round stays as it is."""
    require_role(actor, *SUPERVISORS, action="reject a void or a correction")
    note = (note or "").strip()
    if not note:
        raise ApplicationError("Say why the request is rejected.", extra={"field": "note"})
    with transaction.atomic():
        locked = _adjustment_decide(adjustment)
        before = _adjustment_snapshot(locked)
        locked.status = Adjustment.Status.REJECTED
        locked.decided_by = actor  # type: ignore[assignment]
        locked.decided_at = timezone.now()
        locked.decision_note = note
        locked.save(update_fields=["status", "decided_by", "decided_at", "decision_note"])
        audit_event_record(
            actor=actor,
            event_type=f"adjustment.{locked.kind}_rejected",
            subject=locked,
            before=before,
            after=_adjustment_snapshot(locked),
            reason=note,
        )
    return locked


# --- end-of-shift reports -------------------------------------------------------------------------


def shift_report_build(*, shift: Shift, kind: str) -> ShiftReport:
    """Build a closed shift's report of one kind (issue 8): idempotent, and never half written.

    * Only a closed shift is reported on (``WrongState`` otherwise): its rounds can no longer change.
    * A ``ready`` report is returned as it is: building again changes nothing.
    * Otherwise a ``building`` row marks the work, the figures, CSV, HTML and PDF are built in memory from
      the ledger and the audit log (``settlement.reports``), and one transaction writes them and turns the
      row ``ready``, with its audit event: a crash before that leaves the ``building`` row, finished by the
      next run. The figures hold nothing of the build, so the same shift gives the same ``content_hash``.
    """
    if kind not in ShiftReport.Kind.values:
        raise ApplicationError(f"There is no {kind!r} report: ask for one of {', '.join(ShiftReport.Kind.values)}.")
    shift = Shift.objects.select_related("gaming_day").get(pk=shift.pk)
    if shift.closed_at is None:
        raise WrongState(f"The {shift.name} shift is still open: its reports are built once it is closed.")
    existing = ShiftReport.objects.filter(shift=shift, kind=kind).first()
    if existing is not None and existing.status == ShiftReport.Status.READY:
        return existing
    if existing is None:
        try:
            with transaction.atomic():
                ShiftReport.objects.create(shift=shift, kind=kind)
        except IntegrityError:  # another worker started the same report: its row is reused below
            pass
    data, csv_text, html, digest = reports.report_render(shift=shift, kind=kind)
    pdf = report_pdf.render_pdf(data, digest)
    with transaction.atomic():
        report = ShiftReport.objects.select_for_update().get(shift=shift, kind=kind)
        if report.status == ShiftReport.Status.READY:  # another worker finished it meanwhile
            return report
        report.data = data
        report.csv = csv_text
        report.html = html
        report.pdf = pdf
        report.content_hash = digest
        report.status = ShiftReport.Status.READY
        report.finished_at = timezone.now()
        report.save(update_fields=["data", "csv", "html", "pdf", "content_hash", "status", "finished_at"])
        audit_event_record(
            actor=None,
            event_type="shift_report.built",
            subject=report,
            after={"shift": shift.pk, "kind": kind, "content_hash": digest},
        )
    return report
