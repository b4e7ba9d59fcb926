"""A round's life at the table: opening it (who banks, what the bank puts up), and the one service that moves it.

The Dealer assigned to a table (``tables.services.table_assign_dealer``) opens its rounds
and plays them; a Floor supervisor or Pit boss may do whatever a Dealer may, at any table
(``tables.permissions``). Every change of a round goes through ``round_transition``, under
the round's row lock (``rounds.sql.round_lock``), with its audit event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from casino.idempotency import write_transaction
from casino.models import Shift
from casino.money import money_text as _money
from casino.roles import TABLE_STAFF, require_role
from casino.rows import update_statement
from rounds.models import Adjustment, BankTurn, Round
from rounds.services.house_wager import house_wager_plan, house_wager_take
from rounds.snapshots import round_snapshot
from rounds.sql import RoundStanding, round_lock, round_standing
from rounds.states import FINAL_STATES, UNFINISHED_STATES, RoundState, check_move
from rules import options as rule_options
from rules.games import banking
from rules.models import Game
from tables.live import table_changed
from tables.models import Seat, Table
from tables.permissions import require_act_at_table
from tables.rotation import rotation_round_ended
from tables.services import seats_ensure


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
                _("%(game)s at table %(table)s has no bank: no seat can bank.")
                % {"game": Game(table.game).label, "table": table.name},
                extra={"field": "banker_seat"},
            )
        return 0
    if banking_mode == rule_options.HOUSE and seat_number is not None:
        raise ApplicationError(
            _("The house banks every round at table %(table)s: seat %(seat)s cannot take the bank.")
            % {"table": table.name, "seat": seat_number},
            extra={"field": "banker_seat"},
        )
    if seat_number is not None and not 1 <= seat_number <= table.seat_count:
        raise ApplicationError(
            _("Table %(table)s has seats 1 to %(seats)s, not %(seat)s.")
            % {"table": table.name, "seats": table.seat_count, "seat": seat_number},
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
            right = banking.seat_on_the_right(seat_number=last_seat, seat_count=table.seat_count)
            if seat_number != right:
                raise WrongState(
                    _(
                        "The bank passes from seat %(banker)s to seat %(next)s, on the banker's right, "
                        "not to seat %(seat)s."
                    )
                    % {"banker": last_seat, "next": right, "seat": seat_number},
                    extra={"field": "banker_seat", "next_banker_seat": right},
                )
        return 1
    if seat_number is not None and last.consecutive >= banking.MAX_BANK_IN_A_ROW:
        right = banking.seat_on_the_right(seat_number=seat_number, seat_count=table.seat_count)
        raise WrongState(
            _(
                "Seat %(seat)s has banked %(rounds)s rounds in a row: the bank passes to "
                "seat %(next)s, on the banker's right."
            )
            % {"seat": seat_number, "rounds": banking.MAX_BANK_IN_A_ROW, "next": right},
            extra={"field": "banker_seat", "next_banker_seat": right},
        )
    return last.consecutive + 1


BANK_CENTS_MOST = 10**15  # ten trillion units: far above any table, far below a 64-bit column's limit


def _check_bank_cents(*, table: Table, banking_mode: str, seat: Seat | None, bank_cents: int | None) -> int | None:
    """What a player banker puts up: at least the table minimum; when co-banking, at most their last wager + 10%."""
    if seat is None:
        if bank_cents is not None:
            raise ApplicationError(
                _("Only a player bank puts up a bank: leave the bank out when the house banks."),
                extra={"field": "bank_cents"},
            )
        return None
    if bank_cents is None:
        raise ApplicationError(
            _("Seat %(seat)s takes the bank: say how much the bank puts up to cover the wagers.")
            % {"seat": seat.number},
            extra={"field": "bank_cents"},
        )
    if isinstance(bank_cents, bool) or not isinstance(bank_cents, int) or bank_cents < table.min_wager_cents:
        raise ApplicationError(
            _("A bank puts up at least the table minimum, %(min)s, not %(cents)s cents.")
            % {"min": _money(table.min_wager_cents), "cents": repr(bank_cents)},
            extra={"field": "bank_cents"},
        )
    if bank_cents > BANK_CENTS_MOST:  # past what the database's integers hold: a typo, not a bank
        raise ApplicationError(
            _("A bank puts up at most %(most)s, not %(cents)s cents: check the amount.")
            % {"most": _money(BANK_CENTS_MOST), "cents": f"{bank_cents:,}"},
            extra={"field": "bank_cents"},
        )
    if banking_mode == rule_options.CO_BANKING:
        last = seat.wagers.exclude(round__state=RoundState.VOIDED).order_by("-round__number").first()
        if last is None:
            raise WrongState(
                _(
                    "Seat %(seat)s has not wagered at table %(table)s yet: a co-banker banks up to "
                    "their last wager plus 10%%."
                )
                % {"seat": seat.number, "table": table.name},
                extra={"field": "bank_cents"},
            )
        most = banking.co_bank_most(last.amount_cents)
        if bank_cents > most:
            raise ApplicationError(
                _(
                    "Seat %(seat)s's last wager was %(wager)s: co-banking, the bank is at most "
                    "%(most)s (the last wager plus 10%%), not %(amount)s."
                )
                % {
                    "seat": seat.number,
                    "wager": _money(last.amount_cents),
                    "most": _money(most),
                    "amount": _money(bank_cents),
                },
                extra={"field": "bank_cents", "most_cents": most},
            )
    return bank_cents


def round_open(
    *,
    actor: User | None,
    table: Table,
    banker_seat: int | None = None,
    bank_cents: int | None = None,
) -> Round:
    """Open the next round at an open table, in the open shift, with the table's rules frozen on it.

    ``banker_seat`` is the number of the seat that takes the bank, and ``bank_cents`` what
    that player puts up to cover the wagers; ``None`` lets the house bank (or nobody, in a
    game without a bank). A table has one unfinished round at a time. Against a player bank in
    Pai Gow Poker the house wagers the banker's last bet (``rounds.services.house_wager``).
    """
    require_role(actor, *TABLE_STAFF, action="open a round")
    with write_transaction():
        locked = Table.objects.select_for_update(of=("self",)).select_related("rule_set").get(pk=table.pk)
        require_act_at_table(actor, locked, action="open a round")
        if locked.status != Table.Status.OPEN:
            raise WrongState(_("Table %(table)s is closed: open it before opening a round.") % {"table": locked.name})
        # The open shift's row share-locked until the round is stored (``round_standing``): a shift close (which
        # locks it for update, then looks for rounds still being played) waits for this round, or this open waits
        # for the close and finds the shift closed; other tables' opens and writes share the lock.
        shift = Shift.objects.filter(closed_at__isnull=True, gaming_day__closed_at__isnull=True).first()
        if shift is None or round_standing(shift_id=shift.pk, round_id=None).shift_closed_at is not None:
            raise WrongState(_("No shift is open: a supervisor opens one before rounds can be played."))
        unfinished = locked.rounds.filter(state__in=UNFINISHED_STATES).first()
        if unfinished is not None:
            raise WrongState(
                _("Round %(round)s at table %(table)s is still %(state)s: settle or void it before opening another.")
                % {"round": unfinished.number, "table": locked.name, "state": unfinished.state},
                extra={"round_id": unfinished.pk, "round_number": unfinished.number, "state": unfinished.state},
            )
        snapshot = locked.rule_set.snapshot()
        in_a_row = _check_banker(table=locked, banking_mode=snapshot["banking_mode"], seat_number=banker_seat)
        seats = seats_ensure(table=locked)
        bank_seat = seats[banker_seat - 1] if banker_seat is not None else None
        bank_cents = _check_bank_cents(
            table=locked, banking_mode=snapshot["banking_mode"], seat=bank_seat, bank_cents=bank_cents
        )
        house_plan = house_wager_plan(
            table=locked, snapshot=snapshot, shift_id=shift.pk, bank_seat=bank_seat, bank_cents=bank_cents
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
                    dealer_id=locked.dealer_id,
                    state_changed_at=now,
                )
        except IntegrityError as exc:  # a concurrent open won the race
            winner = locked.rounds.filter(state__in=UNFINISHED_STATES).first()
            raise WrongState(
                _("Another round was opened at table %(table)s at the same moment.") % {"table": locked.name},
                extra={"round_id": winner.pk, "round_number": winner.number} if winner is not None else {},
            ) from exc
        if in_a_row:
            BankTurn.objects.create(round=round_, seat=bank_seat, consecutive=in_a_row)
        opened: dict[str, object] = {**round_snapshot(round_)}
        if house_plan.amount_cents is not None or house_plan.why_not:
            opened |= {"house_wager_cents": house_plan.amount_cents, "house_wager_why_not": house_plan.why_not}
        audit_event_record(actor=actor, event_type=AuditEventType.ROUND_OPENED, subject=round_, after=opened)
        table_changed(round_.table_id)
        house_wager_take(actor=actor, round=round_, plan=house_plan)
    return round_


# The event each move records: one for every state a round reaches (``rounds.states``).
_MOVE_EVENTS: Mapping[RoundState, AuditEventType] = {
    RoundState.OPEN: AuditEventType.ROUND_OPENED,
    RoundState.BETTING_CLOSED: AuditEventType.ROUND_BETTING_CLOSED,
    RoundState.DEALT: AuditEventType.ROUND_DEALT,
    RoundState.REVEALED: AuditEventType.ROUND_REVEALED,
    RoundState.SETTLED: AuditEventType.ROUND_SETTLED,
    RoundState.VOIDED: AuditEventType.ROUND_VOIDED,
}


def round_transition(
    *,
    actor: User | None,
    round: Round,
    target: str | None,
    reason: str = "",
    changes: Mapping[str, Any] | None = None,
    event: AuditEventType | None = None,
    standing: RoundStanding | None = None,
    money: Mapping[str, Any] | None = None,
) -> Round:
    """The one service that changes a round: lock its row, check the move, save, audit, in one transaction.

    ``target`` is the next state (checked against ``rounds.states``) or ``None`` to change
    ``changes`` (the hands, the placements) without moving. The step services call it with
    what their step records: ``settlement.services`` deals (``dealt``), takes the hands
    (``revealed``) and settles (``settled``); the audit event is the move's (``_MOVE_EVENTS``) or ``event``.
    ``money`` is what the move paid or returned (the postings it wrote, ``ledger.services.posting_record``,
    and for a settlement its amounts per seat, bank and house), kept in the event's ``after``.
    Callers have checked the actor's role and the table; this checks the state, and that the round's shift is
    still open and holds no void asked for (``round_check``: a closed shift's report is final). A caller
    that already holds the row lock (``round_lock`` in its own transaction) passes that
    locked round with the ``standing`` its lock read.
    """
    if standing is not None and not transaction.get_connection().in_atomic_block:  # asked before this one opens
        raise RuntimeError("a standing given needs the caller's transaction that holds the round's lock")
    with transaction.atomic(savepoint=False):
        if standing is None:
            locked, standing = round_lock(round)
        else:
            locked = round
        hold = None if target == RoundState.VOIDED else gettext_noop("nothing more is played")
        round_check(locked, standing, hold=hold)
        before = round_snapshot(locked)
        fields = list(changes or {})
        for name, value in (changes or {}).items():
            setattr(locked, name, value)
        if target is not None:
            state = check_move(locked.state, target, round_number=locked.number, round_id=locked.pk)
            locked.state = state
            locked.state_changed_at = timezone.now()
            fields += ["state", "state_changed_at"]
            if state == RoundState.VOIDED:
                locked.void_reason = reason
                fields.append("void_reason")
        audit_event_record(
            actor=actor,
            event_type=event or _MOVE_EVENTS[RoundState(locked.state)],
            subject=locked,
            before=before,
            after=round_snapshot(locked) if money is None else {**round_snapshot(locked), "money": money},
            reason=reason,
            change=update_statement(locked, fields),  # the row is locked: the UPDATE finds it
        )
        table_changed(locked.table_id)
        if target is not None and locked.state in FINAL_STATES:
            rotation_round_ended(table_id=locked.table_id)  # a dealer's push waiting for this round is made now
    return locked


# --- a round belongs to one shift ----------------------------------------------------------------


def round_check(
    locked: Round, standing: RoundStanding, *, hold: str | None = gettext_noop("nothing more is played")
) -> None:
    """Refuse a write to a round that can no longer take it, by where it stands (``rounds.sql.round_standing``,
    read with the round's lock):

    * its shift is closed: the shift's reports are built and final, so a wager, a move, new hands, a void or a
      correction of the round would be in no report. A close refuses while a round of its shift is
      unfinished (``shift_close_refuse``), so this refuses rounds left open by a close made before that rule, and
      corrections of a closed shift's settled rounds; the shift's row is share-locked, so a close waits for the
      write and a write during a close finds the shift closed.
    * a void of it waits for a supervisor (unless ``hold`` is None: the void itself, a request): a floor holds a
      round under a void request, no wagers, no closing the betting, no deal, no hands and no settling, or the
      supervisor would approve a void of a round that has moved on. ``hold`` says what is refused ("no wagers").

    Called under the round's lock by every write: ``round_transition`` (every move, the hands, a correction's
    ``round.corrected``), ``wager_place`` (which writes a wager without moving the round), the play services
    before they check what they were given, and ``adjustment_request``. The standing is the one the lock read,
    and holds while the lock is held: the shift is share-locked, and a void is asked for only under the round's
    lock (as the request's last step). A void asked for may be rejected meanwhile (``adjustment_reject`` locks the
    request, not the round): the write is then refused as it would have been a moment earlier, and may be made
    again.
    """
    if standing.shift_closed_at is not None:
        raise WrongState(
            _("The %(shift)s shift is closed: this round can no longer change.") % {"shift": standing.shift_name},
            extra={"round": locked.pk, "shift": locked.shift_id},
        )
    if hold is not None and standing.void_pending:
        raise WrongState(
            _("A void of round %(round)s is waiting for a supervisor: %(hold)s until it is decided.")
            % {"round": locked.number, "hold": _(hold)},
            extra={"round": locked.pk, "void_pending": True},
        )


# How a round still being played is said in a refusal and on the gaming-day page.
_PLAYING: Mapping[str, str] = {
    RoundState.OPEN: "betting open",
    RoundState.BETTING_CLOSED: "betting closed",
    RoundState.DEALT: "dealt",
    RoundState.REVEALED: "hands revealed",
}


@dataclass(frozen=True)
class UnfinishedRound:
    """A round of a shift neither settled nor voided: it keeps its shift from closing."""

    table_id: int
    table_name: str
    round_id: int
    round_number: int
    state: str
    wagered_cents: int

    @property
    def playing(self) -> str:
        """Where the round stands: "betting open", "betting closed", "dealt" or "hands revealed"."""
        return _PLAYING[self.state]

    @property
    def describe(self) -> str:
        """How a refusal names it: "Table PGP-1 round 12 is still being played (betting open, 100.00 wagered)"."""
        return (
            f"Table {self.table_name} round {self.round_number} is still being played "
            f"({self.playing}, {_money(self.wagered_cents)} wagered)"
        )

    def as_extra(self) -> dict[str, object]:
        return {
            "table": self.table_name,
            "table_id": self.table_id,
            "round": self.round_number,
            "round_id": self.round_id,
            "state": self.state,
            "wagered_cents": self.wagered_cents,
        }


def shift_rounds_unfinished(*, shift: Shift) -> list[UnfinishedRound]:
    """The shift's rounds still being played (not settled, not voided), by table name: one query."""
    rows = (
        Round.objects.filter(shift=shift, state__in=UNFINISHED_STATES)
        .annotate(wagered=Sum("wagers__amount_cents"))
        .values_list("table_id", "table__name", "pk", "number", "state", "wagered")
        .order_by("table__name", "number")
    )
    return [
        UnfinishedRound(
            table_id=table_id,
            table_name=table_name,
            round_id=pk,
            round_number=number,
            state=state,
            wagered_cents=wagered or 0,
        )
        for table_id, table_name, pk, number, state, wagered in rows
    ]


def shift_requests_waiting(*, shift: Shift) -> list[Adjustment]:
    """The void and correction requests on the shift's rounds still waiting for a supervisor."""
    return list(
        Adjustment.objects.filter(round__shift=shift, status=Adjustment.Status.PENDING)
        .select_related("round__table")
        .order_by("round__table__name", "round__number")
    )


def shift_close_refuse(shift: Shift) -> None:
    """Refuse to close ``shift`` while one of its rounds is still being played, or a request on one waits for a
    supervisor: settled after the close, it would fall outside every report (registered with
    ``casino.services.shift_close_vetoes`` by ``rounds.apps``; run under the shift's lock, which ``round_open`` takes
    too)."""
    unfinished = shift_rounds_unfinished(shift=shift)
    if unfinished:
        more = " " + _("(%(count)s more round(s) too)") % {"count": len(unfinished) - 1} if len(unfinished) > 1 else ""
        raise WrongState(
            _("%(round)s: settle or void it before closing the shift%(more)s.")
            % {"round": unfinished[0].describe, "more": more},
            extra={"unfinished_rounds": [line.as_extra() for line in unfinished]},
        )
    waiting = shift_requests_waiting(shift=shift)
    if waiting:
        first = waiting[0]
        raise WrongState(
            _(
                "Table %(table)s round %(round)s has a %(kind)s request waiting for a "
                "supervisor: approve or reject it before closing the shift."
            )
            % {"table": first.round.table.name, "round": first.round.number, "kind": first.kind},
            extra={
                "requests_waiting": [
                    {"id": a.pk, "kind": a.kind, "table": a.round.table.name, "round": a.round.number} for a in waiting
                ]
            },
        )


def table_close_refuse(table: Table) -> None:
    """Refuse to close ``table`` while a round is still in play there (settle or void it first); registered with
    ``tables.services.table_close_vetoes`` by ``rounds.apps``, asked under the table's lock."""
    unfinished = Round.objects.filter(table=table, state__in=UNFINISHED_STATES).first()
    if unfinished is not None:
        raise WrongState(
            _("Round %(round)s at table %(table)s is still %(state)s: settle or void it before closing the table.")
            % {"round": unfinished.number, "table": table.name, "state": unfinished.state}
        )


def table_push_wait(table: Table) -> None:
    """Make a dealer's push at ``table`` wait (``WrongState``) while a round is in play there: the dealer changes at
    the round's end, never mid-round; registered with ``tables.services.push_now_vetoes`` by ``rounds.apps``."""
    unfinished = Round.objects.filter(table=table, state__in=UNFINISHED_STATES).values_list("number", flat=True)
    number = unfinished.first()
    if number is not None:
        raise WrongState(_("Round %(round)s is in play: the push waits for its end.") % {"round": number})


# --- a round waiting for a void decision is on hold ------------------------------------------------
