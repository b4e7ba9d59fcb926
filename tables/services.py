"""Writes on tables and their rounds. Each records its audit event in the same transaction.

Rounds: the Dealer assigned to a table (``table_assign_dealer``) opens its rounds
and plays them; a Floor supervisor or Pit boss may do whatever a Dealer may, at
any table. Voiding a round needs a supervisor and a reason. The steps that record
something (wagers, the deal, the hands, the settlement) are in ``settlement.services``;
every change of a round goes through ``round_transition``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from casino.audit import audit_event_record
from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.models import Pit, Shift
from casino.money import money_text as _money
from casino.roles import SUPERVISORS, Role, require_role, user_has_role
from casino.rows import columns_sql, concrete_names, instance_from_row, statements_in_one_trip, update_statement
from rules import options as rule_options
from rules.models import SEAT_LIMITS, Game, RuleSet
from rules.services import rule_set_default
from tables.models import BankTurn, Round, Seat, Table
from tables.states import UNFINISHED_STATES, RoundState, check_move


def _snapshot(table: Table) -> dict[str, object]:
    return {
        "name": table.name,
        "pit": table.pit.name,
        "game": table.game,
        "min_wager_cents": table.min_wager_cents,
        "max_wager_cents": table.max_wager_cents,
        "seat_count": table.seat_count,
        "status": table.status,
        "rule_set": table.rule_set.name,
        "rule_set_version": table.rule_set.snapshot()["version"],
    }


def _check_rule_set_game(*, table_name: str, game: str, rule_set: RuleSet) -> None:
    if rule_set.game != game:
        raise ApplicationError(
            f"Table {table_name} deals {Game(game).label}; rule set {rule_set.name!r} is for "
            f"{Game(rule_set.game).label}: choose a {Game(game).label} rule set.",
            extra={"field": "rule_set"},
        )


def table_create(
    *,
    actor: AbstractBaseUser | None,
    pit: Pit,
    name: str,
    game: str,
    min_wager_cents: int,
    max_wager_cents: int,
    seat_count: int,
    rule_set: RuleSet | None = None,
) -> Table:
    """Create a closed table in a pit, after checking its game, limits, seats and rule set.

    A table always plays by a rule set of its game; without one it gets the game's
    default house rules (``rules.services.rule_set_default``).
    """
    require_role(actor, *SUPERVISORS, action="create a table")
    name = name.strip()
    if not name:
        raise ApplicationError("A table needs a name.")
    if game not in Game.values:
        raise ApplicationError(f"Unknown game {game!r}: choose one of {', '.join(Game.values)}.")
    if min_wager_cents <= 0:
        raise ApplicationError("The minimum wager must be more than zero.")
    if max_wager_cents < min_wager_cents:
        raise ApplicationError(
            f"The maximum wager ({_money(max_wager_cents)}) is below the minimum ({_money(min_wager_cents)})."
        )
    low, high = SEAT_LIMITS[game]
    if not low <= seat_count <= high:
        raise ApplicationError(f"A {Game(game).label} table has {low} to {high} player seats, not {seat_count}.")
    if rule_set is not None:
        _check_rule_set_game(table_name=name, game=game, rule_set=rule_set)
    with transaction.atomic():
        if Table.objects.filter(name__iexact=name).exists():
            raise ApplicationError(f"There is already a table called {name!r}.")
        if rule_set is None:
            rule_set = rule_set_default(game=game)
        table = Table.objects.create(
            pit=pit,
            name=name,
            game=game,
            min_wager_cents=min_wager_cents,
            max_wager_cents=max_wager_cents,
            seat_count=seat_count,
            rule_set=rule_set,
        )
        audit_event_record(actor=actor, event_type="table.created", subject=table, after=_snapshot(table))
    return table


def _table_set_status(*, actor: AbstractBaseUser | None, table: Table, status: str, verb: str) -> Table:
    require_role(actor, *SUPERVISORS, action=f"{verb} a table")
    with transaction.atomic():
        locked = Table.objects.select_for_update(of=("self",)).select_related("pit", "rule_set").get(pk=table.pk)
        if locked.status == status:
            raise WrongState(f"Table {locked.name} is already {Table.Status(status).label}.")
        before = _snapshot(locked)
        locked.status = status
        locked.save(update_fields=["status"])
        audit_event_record(
            actor=actor, event_type=f"table.{status}", subject=locked, before=before, after=_snapshot(locked)
        )
    return locked


def table_open(*, actor: AbstractBaseUser | None, table: Table) -> Table:
    """Open a closed table for play."""
    return _table_set_status(actor=actor, table=table, status=Table.Status.OPEN, verb="open")


def table_close(*, actor: AbstractBaseUser | None, table: Table) -> Table:
    """Close an open table; a table with a round still in play is refused (settle or void it first)."""
    unfinished = table.rounds.filter(state__in=UNFINISHED_STATES).first()
    if unfinished is not None:
        raise WrongState(
            f"Round {unfinished.number} at table {table.name} is still {unfinished.state}: "
            "settle or void it before closing the table."
        )
    return _table_set_status(actor=actor, table=table, status=Table.Status.CLOSED, verb="close")


def table_assign_dealer(*, actor: AbstractBaseUser | None, table: Table, dealer: AbstractBaseUser | None) -> Table:
    """Put ``dealer`` (a user with the Dealer role) on ``table``, or take the dealer off with ``None``.

    Only the table's dealer (and any supervisor) may play its rounds.
    """
    require_role(actor, *SUPERVISORS, action="assign a dealer to a table")
    if dealer is not None and not user_has_role(dealer, Role.DEALER):
        raise ApplicationError(f"{dealer.get_username()} is not a Dealer.", extra={"field": "dealer"})
    with transaction.atomic():
        locked = Table.objects.select_for_update(of=("self",)).select_related("pit", "rule_set").get(pk=table.pk)
        before = {"dealer": locked.dealer.get_username() if locked.dealer is not None else None}
        locked.dealer = dealer  # type: ignore[assignment]
        locked.save(update_fields=["dealer"])
        audit_event_record(
            actor=actor,
            event_type="table.dealer_assigned",
            subject=locked,
            before=before,
            after={"dealer": dealer.get_username() if dealer is not None else None},
        )
    return locked


def table_set_big_win(*, actor: AbstractBaseUser | None, table: Table, big_win_cents: int | None) -> Table:
    """Set the win above which the pit-boss dashboard raises an alert at ``table`` (``None``: no alert)."""
    require_role(actor, *SUPERVISORS, action="set a table's big-win alert")
    if big_win_cents is not None and (
        isinstance(big_win_cents, bool) or not isinstance(big_win_cents, int) or big_win_cents <= 0
    ):
        raise ApplicationError(
            f"The big-win alert is an amount in cents above zero, not {big_win_cents!r}.",
            extra={"field": "big_win_cents"},
        )
    with transaction.atomic():
        locked = Table.objects.select_for_update(of=("self",)).get(pk=table.pk)
        before = {"big_win_cents": locked.big_win_cents}
        locked.big_win_cents = big_win_cents
        locked.save(update_fields=["big_win_cents"])
        audit_event_record(
            actor=actor,
            event_type="table.big_win_set",
            subject=locked,
            before=before,
            after={"big_win_cents": big_win_cents},
        )
    return locked


def require_table_staff(actor: AbstractBaseUser | None, table: Table, *, action: str) -> None:
    """Let ``actor`` ``action`` at ``table`` only as its dealer or as a Floor supervisor or Pit boss."""
    require_role(actor, *ROUND_ROLES, action=action)
    if actor is None or getattr(actor, "is_superuser", False) or user_has_role(actor, *SUPERVISORS):
        return
    if table.dealer_id != actor.pk:
        raise NotAllowed(
            f"Table {table.name} is not your table: only its dealer or a supervisor may {action}.",
            extra={"table": table.name},
        )


def table_assign_rule_set(*, actor: AbstractBaseUser | None, table: Table, rule_set: RuleSet) -> Table:
    """Make ``table`` play by ``rule_set``, which must be a rule set of the table's game.

    Rounds already opened keep the snapshot they took; the new rules apply from the next round.
    """
    require_role(actor, *SUPERVISORS, action="change a table's rule set")
    with transaction.atomic():
        locked = Table.objects.select_for_update(of=("self",)).select_related("pit", "rule_set").get(pk=table.pk)
        _check_rule_set_game(table_name=locked.name, game=locked.game, rule_set=rule_set)
        if locked.rule_set_id == rule_set.pk:
            raise WrongState(f"Table {locked.name} already plays by {rule_set.name!r}.")
        before = _snapshot(locked)
        locked.rule_set = rule_set
        locked.save(update_fields=["rule_set"])
        audit_event_record(
            actor=actor,
            event_type="table.rule_set_assigned",
            subject=locked,
            before=before,
            after=_snapshot(locked),
        )
    return locked


# Who may open and move rounds (voiding excepted).
ROUND_ROLES: tuple[Role, ...] = (Role.DEALER, *SUPERVISORS)

# GAME_RULES.md §1 "Banking rotation": a player may hold the bank this many rounds in a row.
MAX_BANK_IN_A_ROW = 2


def _round_snapshot(round_: Round) -> dict[str, object]:
    return {
        "table": round_.table.name,
        "number": round_.number,
        "state": round_.state,
        "bank_seat": round_.bank_seat.number if round_.bank_seat is not None else None,
        "bank_cents": round_.bank_cents,
        "rule_set_version": round_.rule_set_snapshot["version"],
        "void_reason": round_.void_reason,
        "dice": round_.dice,
        "action_order": round_.action_order,
        "hands": round_.hands,
        "placements": round_.placements,
    }


def seat_on_the_right(*, seat_number: int, seat_count: int) -> int:
    """The seat on the right of ``seat_number``: the next lower number, seat 1's being the highest.

    Seats are numbered clockwise from the dealer's left (``tables.models.Seat``), so
    the bank passing "to the banker's right" (GAME_RULES.md §1) goes counter-clockwise.
    """
    return seat_number - 1 if seat_number > 1 else seat_count


def seats_ensure(*, table: Table) -> list[Seat]:
    """The table's seats 1 to ``seat_count``, making any that are missing."""
    existing = {seat.number: seat for seat in table.seats.all()}
    for number in range(1, table.seat_count + 1):
        if number not in existing:
            existing[number] = Seat.objects.create(table=table, number=number)
    return [existing[number] for number in range(1, table.seat_count + 1)]


def _check_banker(*, table: Table, banking_mode: str, seat_number: int | None) -> int:
    """Check who may bank the next round at ``table``; return how many rounds in a row they will have banked.

    The house banks when the banking mode is ``house``; nobody banks when it is ``none``.
    Otherwise a player may take the bank (GAME_RULES.md §1 and §2): at most two rounds
    in a row, after which the bank passes to the player on the banker's right; a banker
    may pass after one round, again to the player on the right. When no player takes
    the bank the house banks that round, and any seat may take the bank after it.
    Voided rounds never happened and do not count.
    """
    if banking_mode == rule_options.NO_BANK:
        if seat_number is not None:
            raise ApplicationError(
                f"{Game(table.game).label} at table {table.name} has no bank: no seat can bank.",
                extra={"field": "banker_seat"},
            )
        return 0
    if banking_mode == rule_options.HOUSE and seat_number is not None:
        raise ApplicationError(
            f"The house banks every round at table {table.name}: seat {seat_number} cannot take the bank.",
            extra={"field": "banker_seat"},
        )
    if seat_number is not None and not 1 <= seat_number <= table.seat_count:
        raise ApplicationError(
            f"Table {table.name} has seats 1 to {table.seat_count}, not {seat_number}.",
            extra={"field": "banker_seat"},
        )
    last = (
        BankTurn.objects.filter(round__table=table)
        .exclude(round__state=RoundState.VOIDED)
        .select_related("seat")
        .order_by("-round__number")
        .first()
    )
    last_seat = last.seat.number if last is not None and last.seat is not None else None
    if last is None or last_seat != seat_number:
        if last_seat is not None and seat_number is not None:
            right = seat_on_the_right(seat_number=last_seat, seat_count=table.seat_count)
            if seat_number != right:
                raise WrongState(
                    f"The bank passes from seat {last_seat} to seat {right}, on the banker's right, "
                    f"not to seat {seat_number}.",
                    extra={"field": "banker_seat", "next_banker_seat": right},
                )
        return 1
    if seat_number is not None and last.consecutive >= MAX_BANK_IN_A_ROW:
        right = seat_on_the_right(seat_number=seat_number, seat_count=table.seat_count)
        raise WrongState(
            f"Seat {seat_number} has banked {MAX_BANK_IN_A_ROW} rounds in a row: the bank passes to "
            f"seat {right}, on the banker's right.",
            extra={"field": "banker_seat", "next_banker_seat": right},
        )
    return last.consecutive + 1


# GAME_RULES.md §2: a co-banking player banks up to their last wager plus 10%.
CO_BANK_MARKUP_BP = 1_000


def _check_bank_cents(*, table: Table, banking_mode: str, seat: Seat | None, bank_cents: int | None) -> int | None:
    """What a player banker puts up: at least the table minimum; when co-banking, at most their last wager + 10%."""
    if seat is None:
        if bank_cents is not None:
            raise ApplicationError(
                "Only a player bank puts up a bank: leave the bank out when the house banks.",
                extra={"field": "bank_cents"},
            )
        return None
    if bank_cents is None:
        raise ApplicationError(
            f"Seat {seat.number} takes the bank: say how much the bank puts up to cover the wagers.",
            extra={"field": "bank_cents"},
        )
    if isinstance(bank_cents, bool) or not isinstance(bank_cents, int) or bank_cents < table.min_wager_cents:
        raise ApplicationError(
            f"A bank puts up at least the table minimum, {_money(table.min_wager_cents)}, not {bank_cents!r} cents.",
            extra={"field": "bank_cents"},
        )
    if banking_mode == rule_options.CO_BANKING:
        last = seat.wagers.exclude(round__state=RoundState.VOIDED).order_by("-round__number").first()
        if last is None:
            raise WrongState(
                f"Seat {seat.number} has not wagered at table {table.name} yet: a co-banker banks up to "
                "their last wager plus 10%.",
                extra={"field": "bank_cents"},
            )
        most = last.amount_cents + last.amount_cents * CO_BANK_MARKUP_BP // 10_000
        if bank_cents > most:
            raise ApplicationError(
                f"Seat {seat.number}'s last wager was {_money(last.amount_cents)}: co-banking, the bank is at most "
                f"{_money(most)} (the last wager plus 10%), not {_money(bank_cents)}.",
                extra={"field": "bank_cents", "most_cents": most},
            )
    return bank_cents


def round_open(
    *,
    actor: AbstractBaseUser | None,
    table: Table,
    banker_seat: int | None = None,
    bank_cents: int | None = None,
) -> Round:
    """Open the next round at an open table, in the open shift, with the table's rules frozen on it.

    ``banker_seat`` is the number of the seat that takes the bank, and ``bank_cents`` what
    that player puts up to cover the wagers; ``None`` lets the house bank (or nobody, in a
    game without a bank). A table has one unfinished round at a time.
    """
    require_role(actor, *ROUND_ROLES, action="open a round")
    with transaction.atomic():
        locked = Table.objects.select_for_update(of=("self",)).select_related("rule_set").get(pk=table.pk)
        require_table_staff(actor, locked, action="open a round")
        if locked.status != Table.Status.OPEN:
            raise WrongState(f"Table {locked.name} is closed: open it before opening a round.")
        shift = Shift.objects.filter(closed_at__isnull=True, gaming_day__closed_at__isnull=True).first()
        if shift is None:
            raise WrongState("No shift is open: a supervisor opens one before rounds can be played.")
        unfinished = locked.rounds.filter(state__in=UNFINISHED_STATES).first()
        if unfinished is not None:
            raise WrongState(
                f"Round {unfinished.number} at table {locked.name} is still {unfinished.state}: "
                "settle or void it before opening another."
            )
        snapshot = locked.rule_set.snapshot()
        in_a_row = _check_banker(table=locked, banking_mode=snapshot["banking_mode"], seat_number=banker_seat)
        seats = seats_ensure(table=locked)
        bank_seat = seats[banker_seat - 1] if banker_seat is not None else None
        bank_cents = _check_bank_cents(
            table=locked, banking_mode=snapshot["banking_mode"], seat=bank_seat, bank_cents=bank_cents
        )
        last = locked.rounds.order_by("-number").first()
        now = timezone.now()
        try:
            with transaction.atomic():
                round_ = Round.objects.create(
                    table=locked,
                    number=(last.number + 1) if last is not None else 1,
                    shift=shift,
                    state=RoundState.OPEN,
                    rule_set_snapshot=snapshot,
                    bank_seat=bank_seat,
                    bank_cents=bank_cents,
                    opened_by=actor,
                    opened_at=now,
                    state_changed_at=now,
                )
        except IntegrityError as exc:  # a concurrent open won the race
            raise WrongState(f"Another round was opened at table {locked.name} at the same moment.") from exc
        if in_a_row:
            BankTurn.objects.create(round=round_, seat=bank_seat, consecutive=in_a_row)
        audit_event_record(actor=actor, event_type="round.opened", subject=round_, after=_round_snapshot(round_))
    return round_


_ROUND_NAMES, _TABLE_NAMES, _SEAT_NAMES = concrete_names(Round), concrete_names(Table), concrete_names(Seat)


@cache
def _round_lock_sql(vendor: str) -> str:
    lock = " FOR UPDATE OF r" if connection.features.has_select_for_update_of else ""
    q = connection.ops.quote_name
    return (
        f"SELECT {columns_sql(Round, _ROUND_NAMES, 'r')}, {columns_sql(Table, _TABLE_NAMES, 't')}, "
        f"{columns_sql(Seat, _SEAT_NAMES, 's')} FROM {q(Round._meta.db_table)} r "
        f"JOIN {q(Table._meta.db_table)} t ON t.{q('id')} = r.{q('table_id')} "
        f"LEFT JOIN {q(Seat._meta.db_table)} s ON s.{q('id')} = r.{q('bank_seat_id')} "
        f"WHERE r.{q('id')} = %s{lock}"
    )


def round_lock(round: Round) -> Round:
    """The round's row, locked until the transaction ends, with its table and bank seat.

    What ``Round.objects.select_for_update(of=("self",)).select_related("table", "bank_seat")
    .get(pk=...)`` reads, in one hand-written statement (every service that changes a round
    starts here: its SQL is built once, not on every call).
    """
    return round_lock_reading(round)[0]


def round_lock_reading(round: Round, *then: tuple[str, Sequence[Any]]) -> tuple[Round, tuple[Any, ...]]:
    """``round_lock``, then the values of ``then``, (SQL, params) scalar subqueries read once the lock is held.

    They are read by a second statement, so under PostgreSQL's READ COMMITTED they see what a
    transaction that held the lock before us committed (a statement's snapshot is taken when it
    starts, and the lock may be waited for); both go in one round trip where the driver allows.
    Returns the round and those values.
    """
    lock_sql = _round_lock_sql(connection.vendor)
    after = "SELECT " + ", ".join(f"({sql})" for sql, _ in then)
    after_params = [param for _, values in then for param in values]
    values: tuple[Any, ...] = ()
    with connection.cursor() as cursor:
        if then and statements_in_one_trip():
            cursor.execute(f"{lock_sql}; {after}", [round.pk, *after_params])
            row = cursor.fetchone()
            cursor.nextset()
            values = tuple(cursor.fetchone())
        else:
            cursor.execute(lock_sql, [round.pk])
            row = cursor.fetchone()
            if then and row is not None:
                cursor.execute(after, after_params)
                values = tuple(cursor.fetchone())
    if row is None:
        raise Round.DoesNotExist(f"Round id {round.pk} does not exist.")
    ends = list(itertools.accumulate(len(names) for names in (_ROUND_NAMES, _TABLE_NAMES)))
    locked = instance_from_row(Round, _ROUND_NAMES, row[: ends[0]])
    Round.table.field.set_cached_value(locked, instance_from_row(Table, _TABLE_NAMES, row[ends[0] : ends[1]]))
    seat = instance_from_row(Seat, _SEAT_NAMES, row[ends[1] :]) if locked.bank_seat_id is not None else None
    Round.bank_seat.field.set_cached_value(locked, seat)
    return locked, values


def round_transition(
    *,
    actor: AbstractBaseUser | None,
    round: Round,
    target: str | None,
    reason: str = "",
    changes: Mapping[str, Any] | None = None,
    event: str = "",
    already_locked: bool = False,
) -> Round:
    """The one service that changes a round: lock its row, check the move, save, audit, in one transaction.

    ``target`` is the next state (checked against ``tables.states``) or ``None`` to change
    ``changes`` (the hands, the placements) without moving. The step services call it with
    what their step records: ``settlement.services`` deals (``dealt``), takes the hands
    (``revealed``) and settles (``settled``); the audit event is ``round.<state>`` or ``event``.
    Callers have checked the actor's role and the table; this checks the state. A caller
    that already holds the row lock (``round_lock`` in its own transaction) passes that
    locked round with ``already_locked=True``.
    """
    with transaction.atomic(savepoint=False):
        if already_locked and not transaction.get_connection().in_atomic_block:
            raise RuntimeError("already_locked=True needs the caller's transaction that holds the round's lock")
        locked = round if already_locked else round_lock(round)
        before = _round_snapshot(locked)
        fields = list(changes or {})
        for name, value in (changes or {}).items():
            setattr(locked, name, value)
        if target is not None:
            state = check_move(locked.state, target, round_number=locked.number)
            locked.state = state
            locked.state_changed_at = timezone.now()
            fields += ["state", "state_changed_at"]
            if state == RoundState.VOIDED:
                locked.void_reason = reason
                fields.append("void_reason")
        audit_event_record(
            actor=actor,
            event_type=event or f"round.{locked.state}",
            subject=locked,
            before=before,
            after=_round_snapshot(locked),
            reason=reason,
            change=update_statement(locked, fields),  # the row is locked: the UPDATE finds it
        )
    return locked
