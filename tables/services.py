"""Writes on tables and their seats: creating, opening and closing a table, its dealer, its rule set, its
limits, its big-win threshold. Each records its audit event in the same transaction. A round's life (opening it
included) is ``rounds.services``'; who may act at a table is ``tables.permissions``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from casino.models import Pit
from casino.money import money_text as _money
from casino.roles import SUPERVISORS, Role, require_role, user_has_role
from casino.vetoes import Vetoes
from rules.models import SEAT_LIMITS, Game, RuleSet
from rules.services import rule_set_default, rule_set_peer
from tables.closing import slip_outstanding_text, slips_outstanding
from tables.live import table_changed, table_staff_changed
from tables.models import Seat, Table


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
            _(
                "Table %(table)s deals %(game)s; rule set %(rule_set)s is for "
                "%(rule_set_game)s: choose a %(game)s rule set."
            )
            % {
                "table": table_name,
                "game": Game(game).label,
                "rule_set": repr(rule_set.name),
                "rule_set_game": Game(rule_set.game).label,
            },
            extra={"field": "rule_set"},
        )


def table_create(
    *,
    actor: User | None,
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
    require_role(actor, *SUPERVISORS, action=_("create a table"))
    name = name.strip()
    if not name:
        raise ApplicationError(_("A table needs a name."))
    if game not in Game.values:
        raise ApplicationError(
            _("Unknown game %(game)s: choose one of %(games)s.") % {"game": repr(game), "games": ", ".join(Game.values)}
        )
    if min_wager_cents <= 0:
        raise ApplicationError(_("The minimum wager must be more than zero."))
    if max_wager_cents < min_wager_cents:
        raise ApplicationError(
            _("The maximum wager (%(max)s) is below the minimum (%(min)s).")
            % {"max": _money(max_wager_cents), "min": _money(min_wager_cents)}
        )
    low, high = SEAT_LIMITS[game]
    if not low <= seat_count <= high:
        raise ApplicationError(
            _("A %(game)s table has %(low)s to %(high)s player seats, not %(seats)s.")
            % {"game": Game(game).label, "low": low, "high": high, "seats": seat_count}
        )
    if rule_set is not None:
        _check_rule_set_game(table_name=name, game=game, rule_set=rule_set)
    with transaction.atomic():
        if Table.objects.filter(name__iexact=name).exists():
            raise ApplicationError(_("There is already a table called %(name)s.") % {"name": repr(name)})
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
        audit_event_record(actor=actor, event_type=AuditEventType.TABLE_CREATED, subject=table, after=_snapshot(table))
    return table


# The event each status a table is put in records.
_STATUS_EVENTS: dict[str, AuditEventType] = {
    Table.Status.OPEN: AuditEventType.TABLE_OPENED,
    Table.Status.CLOSED: AuditEventType.TABLE_CLOSED,
}


def _table_set_status(
    *,
    actor: User | None,
    table: Table,
    status: str,
    verb: str,
    check: Callable[[Table], None] | None = None,
) -> Table:
    require_role(actor, *SUPERVISORS, action=_("open a table") if verb == "open" else _("close a table"))
    with transaction.atomic():
        locked = Table.objects.select_for_update(of=("self",)).select_related("pit", "rule_set").get(pk=table.pk)
        if locked.status == status:
            raise WrongState(
                _("Table %(table)s is already %(status)s.")
                % {"table": locked.name, "status": Table.Status(status).label}
            )
        if check is not None:
            check(locked)  # under the table's lock, which the table's money takes too
        before = _snapshot(locked)
        locked.status = status
        locked.save(update_fields=["status"])
        audit_event_record(
            actor=actor, event_type=_STATUS_EVENTS[status], subject=locked, before=before, after=_snapshot(locked)
        )
        table_changed(locked.pk)
    return locked


def table_open(*, actor: User | None, table: Table) -> Table:
    """Open a closed table for play."""
    return _table_set_status(actor=actor, table=table, status=Table.Status.OPEN, verb="open")


# Who may refuse a table's close besides the table's own money (``table_close_vetoes.names()``): the rounds (a round
# still in play) and the players (a rated player still seated), each registered by its app.
table_close_vetoes: Vetoes[Table] = Vetoes("close a table")


def table_close(*, actor: User | None, table: Table) -> Table:
    """Close an open table, under its lock; refused while a round is still in play there, a rated player is still
    seated there (``table_close_vetoes``), or a fill or credit is not yet received or voided (settle or void the
    round; end the session; receive or void the slip)."""

    def nothing_left_open(locked: Table) -> None:
        table_close_vetoes.check(locked)
        outstanding = slips_outstanding(table=locked)
        if outstanding:
            raise WrongState(
                slip_outstanding_text(outstanding[0], closing=_("the table")) + ".",
                extra={"slip": outstanding[0].pk},
            )

    return _table_set_status(
        actor=actor, table=table, status=Table.Status.CLOSED, verb="close", check=nothing_left_open
    )


# Who may refuse a change of a table's dealer made at once (a round in play at the table: ``rounds.apps`` registers
# it). The rotation's push (``tables.rotation``) then waits for the round's end; the set-up is refused.
push_now_vetoes: Vetoes[Table] = Vetoes("push the dealer now")


def table_assign_dealer(*, actor: User | None, table: Table, dealer: User | None) -> Table:
    """Put ``dealer`` (a user with the Dealer role) on ``table``, or take the dealer off with ``None``.

    Only the table's dealer (and any supervisor) may play its rounds. Never mid-round: refused while a round is in
    play at the table (``push_now_vetoes``), as the rotation's push waits for it.
    """
    require_role(actor, *SUPERVISORS, action=_("assign a dealer to a table"))
    if dealer is not None and not user_has_role(dealer, Role.DEALER):
        raise ApplicationError(
            _("%(user)s is not a Dealer.") % {"user": dealer.get_username()}, extra={"field": "dealer"}
        )
    with transaction.atomic():
        locked = Table.objects.select_for_update(of=("self",)).select_related("pit", "rule_set").get(pk=table.pk)
        if locked.dealer_id != (dealer.pk if dealer is not None else None):
            try:
                push_now_vetoes.check(locked)
            except WrongState as in_play:
                raise WrongState(
                    _("A round is in play at table %(table)s: change its dealer once that round is settled or voided.")
                    % {"table": locked.name},
                    extra={"field": "dealer", "reason": in_play.message},
                ) from None
        table_dealer_put(actor=actor, locked=locked, dealer=dealer)
    return locked


def table_dealer_put(*, actor: User | None, locked: Table, dealer: User | None, reason: str = "") -> None:
    """Put ``dealer`` on ``locked`` (a table its caller holds locked, in its transaction) from now on, with its audit
    event: the one path that changes a table's dealer, for the set-up (``table_assign_dealer``) and the rotation's
    push (``tables.rotation``). Its callers check who may."""
    before = {"dealer": locked.dealer.get_username() if locked.dealer is not None else None}
    locked.dealer = dealer
    locked.dealer_since = timezone.now() if dealer is not None else None
    locked.save(update_fields=["dealer", "dealer_since"])
    audit_event_record(
        actor=actor,
        event_type=AuditEventType.TABLE_DEALER_ASSIGNED,
        subject=locked,
        before=before,
        after={"dealer": dealer.get_username() if dealer is not None else None},
        reason=reason,
    )
    table_changed(locked.pk)
    table_staff_changed(locked.pk)


def table_set_big_win(*, actor: User | None, table: Table, big_win_cents: int | None) -> Table:
    """Set the win above which the pit-boss dashboard raises an alert at ``table`` (``None``: no alert)."""
    require_role(actor, *SUPERVISORS, action=_("set a table's big-win alert"))
    if big_win_cents is not None and (
        isinstance(big_win_cents, bool) or not isinstance(big_win_cents, int) or big_win_cents <= 0
    ):
        raise ApplicationError(
            _("The big-win alert is an amount in cents above zero, not %(value)s.") % {"value": repr(big_win_cents)},
            extra={"field": "big_win_cents"},
        )
    with transaction.atomic():
        locked = Table.objects.select_for_update(of=("self",)).get(pk=table.pk)
        before = {"big_win_cents": locked.big_win_cents}
        locked.big_win_cents = big_win_cents
        locked.save(update_fields=["big_win_cents"])
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.TABLE_BIG_WIN_SET,
            subject=locked,
            before=before,
            after={"big_win_cents": big_win_cents},
        )
        table_changed(locked.pk)
    return locked


# The most a limit column holds (``PositiveIntegerField``): 21474836.47.
MOST_LIMIT_CENTS = 2_147_483_647


def _check_cents(value: object, *, field: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ApplicationError(
            _("The %(what)s is an amount in cents above zero, not %(value)s.") % {"what": what, "value": repr(value)},
            extra={"field": field},
        )
    if value > MOST_LIMIT_CENTS:
        raise ApplicationError(
            _("The %(what)s is at most %(most)s, not %(amount)s.")
            % {"what": what, "most": _money(MOST_LIMIT_CENTS), "amount": _money(value)},
            extra={"field": field},
        )
    return value


def table_set_limits(*, actor: User | None, table: Table, min_wager_cents: int, max_wager_cents: int) -> Table:
    """Set the table's wager limits: each above zero, the minimum not above the maximum.

    A wager is checked against the limits when it is taken (``rounds.services.wager_place``): wagers already on
    the layout stay as they were taken. Setting the limits the table already has is refused (nothing to change).
    """
    require_role(actor, *SUPERVISORS, action=_("set a table's limits"))
    low = _check_cents(min_wager_cents, field="min_wager_cents", what=_("minimum wager"))
    high = _check_cents(max_wager_cents, field="max_wager_cents", what=_("maximum wager"))
    if high < low:
        raise ApplicationError(
            _("The maximum wager (%(max)s) is below the minimum (%(min)s).")
            % {"max": _money(high), "min": _money(low)},
            extra={"field": "max_wager_cents"},
        )
    with transaction.atomic():
        locked = Table.objects.select_for_update(of=("self",)).get(pk=table.pk)
        before = {"min_wager_cents": locked.min_wager_cents, "max_wager_cents": locked.max_wager_cents}
        if (locked.min_wager_cents, locked.max_wager_cents) == (low, high):
            raise WrongState(
                _("Table %(table)s already takes wagers of %(min)s to %(max)s.")
                % {"table": locked.name, "min": _money(low), "max": _money(high)}
            )
        locked.min_wager_cents, locked.max_wager_cents = low, high
        locked.save(update_fields=["min_wager_cents", "max_wager_cents"])
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.TABLE_LIMITS_SET,
            subject=locked,
            before=before,
            after={"min_wager_cents": low, "max_wager_cents": high},
        )
        table_changed(locked.pk)
    return locked


def table_assign_rule_set(*, actor: User | None, table: Table, rule_set: RuleSet) -> Table:
    """Make ``table`` play by ``rule_set``, which must be a rule set of the table's game.

    Rounds already opened keep the snapshot they took; the new rules apply from the next round.
    """
    require_role(actor, *SUPERVISORS, action=_("change a table's rule set"))
    with transaction.atomic():
        locked = Table.objects.select_for_update(of=("self",)).select_related("pit", "rule_set").get(pk=table.pk)
        _check_rule_set_game(table_name=locked.name, game=locked.game, rule_set=rule_set)
        if locked.rule_set_id == rule_set.pk:
            raise WrongState(
                _("Table %(table)s already plays by %(rule_set)s.")
                % {"table": locked.name, "rule_set": repr(rule_set.name)}
            )
        before = _snapshot(locked)
        locked.rule_set = rule_set
        locked.save(update_fields=["rule_set"])
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.TABLE_RULE_SET_ASSIGNED,
            subject=locked,
            before=before,
            after=_snapshot(locked),
        )
        table_changed(locked.pk)
    return locked


def table_play_peer(*, actor: User | None, table: Table) -> Table:
    """Turn a Pai Gow tiles table to the peer variant (GAME_RULES.md §1): its peer rule set (``rules.services.
    rule_set_peer``, made if missing), from the next round; rounds already opened keep their rules."""
    require_role(actor, *SUPERVISORS, action=_("change a table's rule set"))
    with transaction.atomic():
        locked = Table.objects.select_for_update(of=("self",)).get(pk=table.pk)
        return table_assign_rule_set(actor=actor, table=locked, rule_set=rule_set_peer(actor=actor, game=locked.game))


# A setting left out of ``table_configure``: distinct from ``None``, which takes the dealer or the alert off.
UNCHANGED: Any = object()


def table_configure(
    *,
    actor: User | None,
    table: Table,
    min_wager_cents: int | None = None,
    max_wager_cents: int | None = None,
    rule_set: RuleSet | None = None,
    dealer: User | None = UNCHANGED,
    big_win_cents: int | None = UNCHANGED,
) -> Table:
    """A table's set-up from the pit: its limits (both, or neither), rule set, dealer and big-win alert,
    in one transaction. Each setting given that differs from the table's goes through its own service and records its
    own audit event; one refused refuses them all, and nothing is written.
    """
    require_role(actor, *SUPERVISORS, action=_("set up a table"))
    if (min_wager_cents is None) != (max_wager_cents is None):
        raise ApplicationError(
            _("Give both limits, the minimum and the maximum wager."),
            extra={"field": "max_wager_cents" if max_wager_cents is None else "min_wager_cents"},
        )
    with transaction.atomic():
        current = Table.objects.select_for_update(of=("self",)).get(pk=table.pk)
        if min_wager_cents is not None and (min_wager_cents, max_wager_cents) != (
            current.min_wager_cents,
            current.max_wager_cents,
        ):
            current = table_set_limits(
                actor=actor,
                table=current,
                min_wager_cents=min_wager_cents,
                max_wager_cents=max_wager_cents,  # type: ignore[arg-type]
            )
        if rule_set is not None and rule_set.pk != current.rule_set_id:
            current = table_assign_rule_set(actor=actor, table=current, rule_set=rule_set)
        if dealer is not UNCHANGED and (dealer.pk if dealer is not None else None) != current.dealer_id:
            current = table_assign_dealer(actor=actor, table=current, dealer=dealer)
        if big_win_cents is not UNCHANGED and big_win_cents != current.big_win_cents:
            current = table_set_big_win(actor=actor, table=current, big_win_cents=big_win_cents)
    return current


def seats_ensure(*, table: Table) -> list[Seat]:
    """The table's seats 1 to ``seat_count``, making any that are missing."""
    existing = {seat.number: seat for seat in table.seats.all()}
    for number in range(1, table.seat_count + 1):
        if number not in existing:
            existing[number] = Seat.objects.create(table=table, number=number)
    return [existing[number] for number in range(1, table.seat_count + 1)]
