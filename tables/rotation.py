"""Dealer rotation's writes: dealers clocked in and out, strings of tables made and started, and the push.

The rotation itself is ``tables.rotation_plan`` (pure: times in, assignments out); these services keep its records
and change a table's dealer through the one audited path (``tables.services.table_dealer_put``). A push never
happens mid-round: asked while a round is in play at the table (``push_now_vetoes``, which the rounds app answers),
it waits, and the round's last move (settled or voided, ``rounds.services.transitions.round_transition``) makes it
(``rotation_round_ended``). The round services sit above this app, so they call down into it; this app never asks
them anything but through the veto it owns.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit_event_record
from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.events import AuditEventType
from casino.roles import SUPERVISORS, TABLE_STAFF, Role, require_role, user_has_role
from casino.rows import statements_in_one_trip
from tables.live import table_changed
from tables.models import DealerClockIn, DealerPush, DealerString, StringDealer, StringTable, Table
from tables.rotation_plan import Pattern, Rotation, RotationError, rotation_at
from tables.services import push_now_vetoes, table_dealer_put

# ``push_now_vetoes`` (``tables.services``, where the set-up asks it too): who may refuse a push made at once (a round
# in play at the table: ``rounds.apps`` registers it). A refusal does not refuse the push: it makes it wait for the
# round's end.

# How long before their push a dealer may tap in at their next table.
TAP_IN_EARLY = dt.timedelta(minutes=10)


def _name(user: User | None) -> str | None:
    return user.get_username() if user is not None else None


def _require_dealer(dealer: User) -> None:
    if not user_has_role(dealer, Role.DEALER):
        raise ApplicationError(
            _("%(user)s is not a Dealer.") % {"user": dealer.get_username()}, extra={"field": "dealer"}
        )


# --- clocking in and out ----------------------------------------------------------------------------------------


def dealer_clock_in(*, actor: User | None, dealer: User) -> DealerClockIn:
    """A Floor supervisor or Pit boss clocks a dealer in for the shift (once at a time)."""
    require_role(actor, *SUPERVISORS, action=_("clock a dealer in"))
    _require_dealer(dealer)
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=dealer.pk).first()  # one clock-in at a time per dealer
        if DealerClockIn.objects.filter(dealer=dealer, clocked_out_at__isnull=True).exists():
            raise WrongState(
                _("%(dealer)s is already clocked in.") % {"dealer": dealer.get_username()}, extra={"field": "dealer"}
            )
        clock = DealerClockIn.objects.create(dealer=dealer, clocked_in_at=timezone.now(), clocked_in_by=actor or dealer)
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.DEALER_CLOCKED_IN,
            subject=clock,
            after={"dealer": dealer.get_username(), "at": clock.clocked_in_at},
            rows=[clock],
        )
    return clock


def dealer_clock_out(*, actor: User | None, dealer: User) -> DealerClockIn:
    """A Floor supervisor or Pit boss clocks a dealer out; refused while the dealer is dealing a table (push them
    off it first)."""
    require_role(actor, *SUPERVISORS, action=_("clock a dealer out"))
    with transaction.atomic():
        clock = DealerClockIn.objects.select_for_update().filter(dealer=dealer, clocked_out_at__isnull=True).first()
        if clock is None:
            raise WrongState(
                _("%(dealer)s is not clocked in.") % {"dealer": dealer.get_username()}, extra={"field": "dealer"}
            )
        dealing = Table.objects.filter(dealer=dealer).order_by("name").first() or next(
            (push.table for push in DealerPush.objects.filter(dealer_in=dealer, done_at__isnull=True)), None
        )
        if dealing is not None:
            raise WrongState(
                _("%(dealer)s is dealing table %(table)s: push them off it before clocking them out.")
                % {"dealer": dealer.get_username(), "table": dealing.name},
                extra={"table": dealing.name},
            )
        clock.clocked_out_at = timezone.now()
        clock.clocked_out_by = actor or dealer
        clock.save(update_fields=["clocked_out_at", "clocked_out_by"])
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.DEALER_CLOCKED_OUT,
            subject=clock,
            after={"dealer": dealer.get_username(), "at": clock.clocked_out_at},
            rows=[clock],
        )
    return clock


# --- strings ----------------------------------------------------------------------------------------------------


def string_pattern(string: DealerString) -> Pattern:
    return Pattern(on_minutes=string.on_minutes, off_minutes=string.off_minutes)


def _checked_pattern(*, on_minutes: object, off_minutes: object, tables: int) -> Pattern:
    for value, field in ((on_minutes, "on_minutes"), (off_minutes, "off_minutes")):
        if value is None and field == "off_minutes":
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 600:
            raise ApplicationError(
                _("Minutes on and off are whole minutes from 1 to 600, not %(value)s.") % {"value": repr(value)},
                extra={"field": field},
            )
    pattern = Pattern(on_minutes=on_minutes, off_minutes=off_minutes)  # type: ignore[arg-type]  # checked above
    try:
        pattern.check(tables)
    except RotationError as exc:  # said again in the floor's language
        assert off_minutes is not None
        if on_minutes % tables:  # type: ignore[operator]
            message = _("%(on)s minutes on do not split over %(tables)s tables in whole minutes.")
        else:
            message = _(
                "%(on)s minutes on over %(tables)s tables is a push every %(push)s minutes; %(off)s minutes off is "
                "not a whole number of pushes."
            )
        values = {"on": on_minutes, "off": off_minutes, "tables": tables, "push": on_minutes // tables}  # type: ignore[operator]
        raise ApplicationError(message % values, extra={"field": "on_minutes"}) from exc
    return pattern


def string_create(
    *, actor: User | None, name: str, tables: Sequence[Table], on_minutes: int, off_minutes: int | None
) -> DealerString:
    """A Floor supervisor or Pit boss makes a string: its tables in the push's order and its break pattern (minutes
    on and off, or a round robin: ``off_minutes`` None). A table is in one string at most."""
    require_role(actor, *SUPERVISORS, action=_("make a dealer string"))
    name = (name or "").strip()
    if not name or len(name) > 40:
        raise ApplicationError(_("A string needs a name of 1 to 40 characters."), extra={"field": "name"})
    if not tables:
        raise ApplicationError(_("A string needs at least one table."), extra={"field": "tables"})
    if len({table.pk for table in tables}) != len(tables):
        raise ApplicationError(_("A table appears twice in the string."), extra={"field": "tables"})
    pattern = _checked_pattern(on_minutes=on_minutes, off_minutes=off_minutes, tables=len(tables))
    with transaction.atomic():
        if DealerString.objects.filter(name__iexact=name).exists():
            raise ApplicationError(
                _("There is already a string called %(name)s.") % {"name": repr(name)}, extra={"field": "name"}
            )
        taken = StringTable.objects.filter(table__in=tables).select_related("table", "string").first()
        if taken is not None:
            raise WrongState(
                _("Table %(table)s is already in string %(string)s.")
                % {"table": taken.table.name, "string": taken.string.name},
                extra={"field": "tables"},
            )
        string = DealerString.objects.create(
            name=name, on_minutes=pattern.on_minutes, off_minutes=pattern.off_minutes, created_at=timezone.now()
        )
        places = [
            StringTable.objects.create(string=string, table=table, position=i) for i, table in enumerate(tables, 1)
        ]
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.DEALER_STRING_CREATED,
            subject=string,
            after={
                "name": name,
                "tables": [table.name for table in tables],
                "on_minutes": pattern.on_minutes,
                "off_minutes": pattern.off_minutes,
            },
            rows=[string, *places],
        )
    return string


def _free_dealers(string: DealerString, tables: list[Table]) -> list[User]:
    """The dealers clocked in and in no other started string, in the order the string takes them: the tables' own
    dealers first (each stays where they are), then by the time they clocked in."""
    others = StringDealer.objects.filter(string__started_at__isnull=False, generation=F("string__generation")).exclude(
        string=string
    )
    busy = set(others.values_list("dealer_id", flat=True))
    clocked = [
        clock.dealer
        for clock in DealerClockIn.objects.filter(clocked_out_at__isnull=True)
        .select_related("dealer")
        .order_by("clocked_in_at", "pk")
        if clock.dealer_id not in busy
    ]
    by_id = {dealer.pk: dealer for dealer in clocked}
    first = [by_id.pop(table.dealer_id) for table in tables if table.dealer_id in by_id]
    return first + list(by_id.values())


def string_start(*, actor: User | None, string: DealerString) -> DealerString:
    """A Floor supervisor or Pit boss starts a string (again): its dealers chosen from who is clocked in (as many
    as the pattern needs: its tables and the breaks), the rotation counted from now, and each table pushed to the
    dealer the rotation puts there (at once, or at its round's end)."""
    require_role(actor, *SUPERVISORS, action=_("start a dealer string"))
    with transaction.atomic():
        locked = DealerString.objects.select_for_update().get(pk=string.pk)
        tables = [place.table for place in locked.string_tables.select_related("table").order_by("position")]
        pattern = string_pattern(locked)
        needed = pattern.dealers(len(tables))
        free = _free_dealers(locked, tables)
        if len(free) < needed:
            raise WrongState(
                _(
                    "String %(string)s needs %(needed)s dealers (%(tables)s tables and %(breaks)s on break); "
                    "%(free)s are clocked in and free: clock in more."
                )
                % {
                    "string": locked.name,
                    "needed": needed,
                    "tables": len(tables),
                    "breaks": needed - len(tables),
                    "free": len(free),
                },
            )
        waiting = DealerPush.objects.filter(table__in=tables, done_at__isnull=True).select_related("table").first()
        if waiting is not None:
            raise WrongState(
                _("A push waits at table %(table)s for its round's end: start the string again once it is made.")
                % {"table": waiting.table.name},
                extra={"table": waiting.table.name},
            )
        before = {"started_at": locked.started_at, "generation": locked.generation}
        dealers = free[:needed]
        locked.generation += 1
        locked.started_at = timezone.now()
        locked.save(update_fields=["generation", "started_at"])
        rows = [
            StringDealer.objects.create(string=locked, generation=locked.generation, dealer=dealer, position=i)
            for i, dealer in enumerate(dealers, 1)
        ]
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.DEALER_STRING_STARTED,
            subject=locked,
            before=before,
            after={
                "started_at": locked.started_at,
                "generation": locked.generation,
                "dealers": [dealer.get_username() for dealer in dealers],
                "tables": [table.name for table in tables],
            },
            rows=[locked, *rows],
        )
        for table, dealer in zip(tables, dealers, strict=False):
            if table.dealer_id != dealer.pk:
                _push(actor=actor, table=table, dealer=dealer, string=locked)
            table_changed(table.pk)  # its tablet shows the relief
    return locked


# --- the rotation of a started string ---------------------------------------------------------------------------


def string_rotation(
    string: DealerString, *, dealers: Sequence[User], tables: Sequence[Table], at: dt.datetime
) -> Rotation[Table, User]:
    """The rotation of a started string at ``at`` (its dealers of its latest start, in order)."""
    assert string.started_at is not None
    return rotation_at(
        tables=tables,
        dealers=dealers,
        started_at=string.started_at,
        push_every=string_pattern(string).push_every(len(tables)),
        at=at,
    )


def _rotation_of_table(table: Table, at: dt.datetime) -> tuple[DealerString, Rotation[Table, User]] | None:
    place = StringTable.objects.filter(table=table).select_related("string").first()
    if place is None or place.string.started_at is None:
        return None
    string = place.string
    tables = [p.table for p in string.string_tables.select_related("table").order_by("position")]
    dealers = [
        d.dealer
        for d in string.string_dealers.filter(generation=string.generation)
        .select_related("dealer")
        .order_by("position")
    ]
    return string, string_rotation(string, dealers=dealers, tables=tables, at=at)


# --- the push ---------------------------------------------------------------------------------------------------


def rotation_push(*, actor: User | None, table: Table, dealer: User | None = None) -> DealerPush:
    """A dealer taps in at ``table`` (taking over from its dealer, who moves on down the string or to a break), or a
    Floor supervisor or Pit boss pushes ``dealer`` (by default the one the rotation puts there next) onto it.

    A dealer taps in only where their string's rotation puts them now or next (up to ``TAP_IN_EARLY`` before),
    and only once they deal no other table: a table is never left without a dealer. Made at once when no round is
    in play at the table; else it waits, and is made when that round is settled or voided. Tapping in again while
    it waits changes nothing.
    """
    require_role(actor, *TABLE_STAFF, action=_("push a dealer"))
    supervisor = actor is None or getattr(actor, "is_superuser", False) or user_has_role(actor, *SUPERVISORS)
    now = timezone.now()
    with transaction.atomic():
        locked = Table.objects.select_for_update(of=("self",)).select_related("dealer").get(pk=table.pk)
        found = _rotation_of_table(locked, now)
        if found is None:
            raise WrongState(
                _("Table %(table)s is in no started string: assign its dealer in its set-up.") % {"table": locked.name}
            )
        string, rotation = found
        if not supervisor:
            assert actor is not None
            if dealer is not None and dealer.pk != actor.pk:
                raise NotAllowed(_("A dealer taps in themselves; a supervisor pushes another dealer."))
            dealer = actor
            _check_tap_in(rotation, table=locked, dealer=actor, now=now)
        elif dealer is None:
            due = rotation.at_table(locked).dealer
            dealer = due if due.pk != locked.dealer_id else rotation.next_at_table(locked).dealer
        if dealer.pk not in {d.pk for d in rotation.dealers}:
            raise ApplicationError(
                _("%(dealer)s is not a dealer of string %(string)s.")
                % {"dealer": dealer.get_username(), "string": string.name},
                extra={"field": "dealer"},
            )
        waiting = DealerPush.objects.filter(table=locked, done_at__isnull=True).first()
        if waiting is not None:
            if waiting.dealer_in_id == dealer.pk:
                return waiting  # tapped twice: it waits for the round's end once
            raise WrongState(
                _("A push of %(dealer)s already waits at table %(table)s for its round's end.")
                % {"dealer": waiting.dealer_in.get_username(), "table": locked.name}
            )
        if locked.dealer_id == dealer.pk:
            raise WrongState(
                _("%(dealer)s already deals table %(table)s.") % {"dealer": dealer.get_username(), "table": locked.name}
            )
        elsewhere = Table.objects.filter(dealer=dealer).exclude(pk=locked.pk).order_by("name").first()
        if elsewhere is not None:
            raise WrongState(
                _("%(dealer)s still deals table %(other)s: tap in at %(table)s once relieved there.")
                % {"dealer": dealer.get_username(), "other": elsewhere.name, "table": locked.name},
                extra={"table": elsewhere.name},
            )
        if not DealerClockIn.objects.filter(dealer=dealer, clocked_out_at__isnull=True).exists():
            raise WrongState(_("%(dealer)s is not clocked in.") % {"dealer": dealer.get_username()})
        if DealerPush.objects.filter(dealer_in=dealer, done_at__isnull=True).exists():
            raise WrongState(
                _("%(dealer)s already waits to take over another table at its round's end.")
                % {"dealer": dealer.get_username()}
            )
        return _push(actor=actor, table=locked, dealer=dealer, string=string, locked=True)


def _check_tap_in(rotation: Rotation[Table, User], *, table: Table, dealer: User, now: dt.datetime) -> None:
    if dealer.pk not in {d.pk for d in rotation.dealers}:
        raise NotAllowed(_("You are not a dealer of this table's string."))
    now_here = rotation.at_table(table)
    next_here = rotation.next_at_table(table)
    if now_here.dealer.pk == dealer.pk:
        return
    if next_here.dealer.pk == dealer.pk and now >= next_here.since - TAP_IN_EARLY:
        return
    post = rotation.post_of(next(d for d in rotation.dealers if d.pk == dealer.pk))
    if post.table is None:
        raise NotAllowed(
            _("You are on break until %(time)s: tap in at table %(table)s then.")
            % {
                "time": timezone.localtime(post.until).strftime("%H:%M"),
                "table": rotation.tables[0].name,
            }
        )
    raise NotAllowed(_("Your table now is %(yours)s, not %(table)s.") % {"yours": post.table.name, "table": table.name})


def _push(
    *, actor: User | None, table: Table, dealer: User, string: DealerString | None, locked: bool = False
) -> DealerPush:
    """Record a push at ``table`` and make it now, or leave it waiting while a round is in play there."""
    if not locked:
        table = Table.objects.select_for_update(of=("self",)).select_related("dealer").get(pk=table.pk)
    now = timezone.now()
    push = DealerPush.objects.create(
        string=string, table=table, dealer_in=dealer, asked_at=now, asked_by=actor or dealer
    )
    try:
        push_now_vetoes.check(table)
    except WrongState as waiting:
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.DEALER_PUSH_ASKED,
            subject=push,
            after={"table": table.name, "dealer_in": dealer.get_username(), "waits_for": waiting.message},
            rows=[push],
        )
        return push
    _push_make(actor=actor, table=table, push=push)
    return push


def _push_make(*, actor: User | None, table: Table, push: DealerPush) -> None:
    out = table.dealer
    push.dealer_out = out
    push.done_at = timezone.now()
    push.save(update_fields=["dealer_out", "done_at"])
    table_dealer_put(actor=actor, locked=table, dealer=push.dealer_in, reason="rotation push")
    audit_event_record(
        actor=actor,
        event_type=AuditEventType.DEALER_PUSH_DONE,
        subject=push,
        after={"table": table.name, "dealer_in": push.dealer_in.get_username(), "dealer_out": _name(out)},
        rows=[push],
    )


def rotation_round_ended(*, table_id: int) -> DealerPush | None:
    """Make the push waiting at a table whose round was just settled or voided, in the caller's transaction (the
    round's last move, ``rounds.services.transitions.round_transition``): the new dealer takes the next round."""
    with transaction.atomic(savepoint=False):
        waiting_id = _push_waiting_under_lock(table_id)
        if waiting_id is None:  # nearly every round: one round trip, no object made
            return None
        table = Table.objects.select_for_update(of=("self",)).select_related("dealer").get(pk=table_id)
        waiting = DealerPush.objects.select_related("dealer_in").get(pk=waiting_id)
        _push_make(actor=waiting.asked_by, table=table, push=waiting)
    return waiting


def _push_waiting_under_lock(table_id: int) -> int | None:
    """The table's lock, then the id of the push waiting there (None: none), read by a second statement once the
    lock is held; both in one round trip where the driver allows (``casino.rows.statements_in_one_trip``).

    The lock first: a push asked at the same moment (``rotation_push``) holds it while it sees the round still in
    play and records itself waiting. Read in the lock's own statement, whose snapshot is taken before the lock is
    waited for, or before the lock, that push could be missed and wait a whole round more; read by a statement that
    starts once the lock is held, it is either already committed (and found here) or asked after this round's end
    is committed (and made at once, the round no longer in play)."""
    quote = connection.ops.quote_name
    pk, table_column = quote("id"), quote(str(DealerPush._meta.get_field("table").column))
    done = quote(str(DealerPush._meta.get_field("done_at").column))
    lock = f"SELECT {pk} FROM {quote(Table._meta.db_table)} WHERE {pk} = %s"
    if connection.features.has_select_for_update:
        lock += " FOR UPDATE"
    read = (
        f"SELECT {pk} FROM {quote(DealerPush._meta.db_table)} WHERE {table_column} = %s AND {done} IS NULL "
        f"ORDER BY {pk} LIMIT 1"
    )
    with connection.cursor() as cursor:
        if statements_in_one_trip():
            cursor.execute(f"{lock}; {read}", [table_id, table_id])
            cursor.nextset()
        else:
            cursor.execute(lock, [table_id])
            cursor.execute(read, [table_id])
        row = cursor.fetchone()
    return None if row is None else int(row[0])
