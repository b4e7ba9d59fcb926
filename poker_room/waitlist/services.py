"""Writes on the card room's waitlists once names are on them: calls, seats, moves and the names gone, each in one
transaction with its audit event, under the lock of the cash game's row (``lists.locked_game``: every write to a list
takes it first, so two desks never call one name twice).

* **Call, seat, move** (``waitlist_call``, ``waitlist_seat``, ``waitlist_move``): the first name waiting is called
  to the table ``poker_room.pure.waitlist.call_to`` picks, a seat held there for them; seated, a rated player's
  rating session starts at the table (``players.services.session_start``, whose rules apply: a supervisor or the
  table's dealer rates a player). A seat open at the main game goes first to the player seated longest at a
  must-move table (``first_to_move``); their rating session moves with them.
* **Gone** (``waitlist_no_show``, ``waitlist_no_shows``, ``waitlist_leave``, ``waitlist_remove``): a called player
  not seated within ``TABLESIDE_WAITLIST_NO_SHOW_MINUTES`` is a no-show and the next name is called (the desk, or
  the beat task every minute); a seated player leaves (their rating session ends); a name is taken off the list.

The lists themselves, their tables and the names put down (``cash_game_open``, ``cash_game_close``,
``cash_table_add``, ``cash_table_remove``, ``waitlist_put_down``, ``waitlist_kiosk_put_down``) are
``poker_room.waitlist.lists``; they are named here too, so callers find every write of a waitlist in one place. The
audit trail names entries by id and player id, never by name (a public list's names are the guests' own).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from players.models import RatingSession
from players.services import session_end, session_move, session_start
from poker_room.floor import Requester, person, require_runner, whole
from poker_room.pure.waitlist import TableSeats, call_to, first_to_move, no_show
from poker_room.waitlist.lists import (
    HOLDING,
    MOST_NAME,
    MOST_POINT_CENTS,
    STILL_ON,
    cash_game_close,
    cash_game_open,
    cash_table_add,
    cash_table_remove,
    entry_audited,
    guest_name,
    kiosk_names,
    kiosk_waiting,
    locked_game,
    locked_open_game,
    waitlist_kiosk_put_down,
    waitlist_put_down,
)
from poker_room.waitlist.models import CashGame, CashTable, WaitlistEntry
from tables.models import Table

__all__ = [
    "HOLDING",
    "MOST_NAME",
    "MOST_POINT_CENTS",
    "NO_SHOW_MINUTES",
    "STILL_ON",
    "cash_game_close",
    "cash_game_open",
    "cash_table_add",
    "cash_table_remove",
    "guest_name",
    "kiosk_names",
    "kiosk_waiting",
    "no_show_minutes",
    "waitlist_call",
    "waitlist_kiosk_put_down",
    "waitlist_leave",
    "waitlist_move",
    "waitlist_no_show",
    "waitlist_no_shows",
    "waitlist_put_down",
    "waitlist_remove",
    "waitlist_seat",
]

NO_SHOW_MINUTES = 10


def no_show_minutes() -> int:
    """How long a called player has to sit down (``TABLESIDE_WAITLIST_NO_SHOW_MINUTES``, 10 by default)."""
    return int(getattr(settings, "TABLESIDE_WAITLIST_NO_SHOW_MINUTES", NO_SHOW_MINUTES))


# --- the list's tables and seats ----------------------------------------------------------------------------------


def _entry_locked(entry: WaitlistEntry | int, *, only: Collection[str], refusal: str) -> WaitlistEntry:
    """The entry (locked, with its list locked first) in one of the statuses ``only``, or a refusal: there is no such
    name, or it is in another status (``refusal``: the desk's words, with the entry's name and status)."""
    pk = entry if isinstance(entry, int) else entry.pk
    found = WaitlistEntry.objects.filter(pk=pk).values_list("cash_game_id", flat=True).first()
    if found is None:
        raise ApplicationError(_("There is no such name on a list."), extra={"field": "entry"})
    CashGame.objects.select_for_update().get(pk=found)
    locked = (
        WaitlistEntry.objects.select_for_update(of=("self",))
        .select_related("cash_game", "table__table", "player")
        .get(pk=pk)
    )
    if locked.status not in only:
        raise WrongState(refusal % {"name": locked.name, "status": locked.get_status_display()})
    return locked


def _session_open(found: WaitlistEntry) -> RatingSession | None:
    """The rated player's rating session at the table, unless there is none or it has ended."""
    if found.session_id is None:
        return None
    session = RatingSession.objects.get(pk=found.session_id)
    return session if session.status != RatingSession.Status.ENDED else None


def _open_tables(game: CashGame) -> list[CashTable]:
    return list(
        CashTable.objects.filter(cash_game=game, removed_at__isnull=True, table__status=Table.Status.OPEN)
        .select_related("table")
        .order_by("must_move", "pk")
    )


def _seats(game: CashGame) -> list[TableSeats]:
    """The list's open tables as the pure rules see them: seats, seats held, players waiting to move."""
    tables = _open_tables(game)
    holding = list(
        WaitlistEntry.objects.filter(cash_game=game, status__in=HOLDING, table__in=tables).values_list(
            "table_id", "status"
        )
    )
    found = []
    for table in tables:
        held = [status for table_id, status in holding if table_id == table.pk]
        movers = sum(1 for status in held if status == WaitlistEntry.Status.SEATED) if table.must_move else 0
        found.append(
            TableSeats(
                table=table.pk, must_move=table.must_move, seats=table.table.seat_count, held=len(held), movers=movers
            )
        )
    # Must-move tables first, the main game last: ``call_to`` takes them in this order.
    return sorted(found, key=lambda seats: (not seats.must_move, seats.table))


def _free_seat(table: CashTable, seat: object) -> int:
    """``seat`` if it is free at ``table`` (None: the lowest free seat)."""
    taken = set(
        WaitlistEntry.objects.filter(table=table, status=WaitlistEntry.Status.SEATED).values_list(
            "seat_number", flat=True
        )
    )
    if seat is None:
        free = [number for number in range(1, table.table.seat_count + 1) if number not in taken]
        if not free:
            raise WrongState(_("Table %(table)s is full.") % {"table": table.table.name})
        return free[0]
    number = whole(seat, field="seat", what=_("The seat"), least=1, most=table.table.seat_count)
    if number in taken:
        raise WrongState(
            _("Seat %(seat)s at table %(table)s is taken.") % {"seat": number, "table": table.table.name},
            extra={"field": "seat"},
        )
    return number


def _call_next(game: CashGame, *, actor: User | None, now: dt.datetime, strict: bool) -> WaitlistEntry | None:
    """Call the first name waiting to the table the rules pick (the caller holds the list's lock). ``strict``:
    refuse when nobody can be called (the desk asked); else None."""
    first = (
        WaitlistEntry.objects.select_for_update()
        .filter(cash_game=game, status=WaitlistEntry.Status.WAITING)
        .order_by("put_down_at", "pk")
        .first()
    )
    if first is None:
        if strict:
            raise WrongState(_("Nobody is waiting on this list."))
        return None
    where = call_to(_seats(game))
    if where.table is None:
        if not strict:
            return None
        if where.move_first:
            raise WrongState(
                _("The main game's open seat goes to the must-move table first: move its player, then call.")
            )
        raise WrongState(_("No seat is open at this game's tables: call when one opens."))
    first.status, first.called_at = WaitlistEntry.Status.CALLED, now
    first.table = CashTable.objects.select_related("table").get(pk=where.table)
    first.save(update_fields=["status", "called_at", "table"])
    entry_audited(first, actor=actor, event=AuditEventType.WAITLIST_CALLED)
    return first


def waitlist_call(*, actor: Requester, cash_game: CashGame) -> WaitlistEntry:
    """Call the first name waiting: a seat is held for them at the table the rules pick."""
    desk = person(actor, what=_("Calling a name"))
    require_runner(desk, action="call a name from a waitlist")
    with transaction.atomic():
        game = locked_open_game(cash_game)
        called = _call_next(game, actor=desk, now=timezone.now(), strict=True)
        assert called is not None  # strict: refused otherwise
    return called


def waitlist_seat(*, actor: Requester, entry: WaitlistEntry | int, seat: object = None) -> WaitlistEntry:
    """Seat a called player at the table their seat is held at (``seat``: a number, or None for the lowest free);
    a rated player's rating session starts there."""
    desk = person(actor, what=_("Seating a player"))
    require_runner(desk, action="seat a player from a waitlist")
    with transaction.atomic():
        found = _entry_locked(
            entry,
            only=[WaitlistEntry.Status.CALLED],
            refusal=_("%(name)s is %(status)s: a player is seated once called."),
        )
        table = found.table
        assert table is not None  # a called entry holds a seat at a table (the check constraint)
        if table.removed_at is not None or table.table.status != Table.Status.OPEN:
            raise WrongState(
                _("Table %(table)s is not dealing now: take the name off or call again.") % {"table": table.table.name}
            )
        number = _free_seat(table, seat)
        if found.player is not None:
            found.session = session_start(actor=desk, player=found.player, table=table.table, seat=number)
        now = timezone.now()
        found.status, found.seat_number, found.seated_at, found.table_since = (
            WaitlistEntry.Status.SEATED,
            number,
            now,
            now,
        )
        found.save(update_fields=["status", "seat_number", "seated_at", "table_since", "session"])
        entry_audited(found, actor=desk, event=AuditEventType.WAITLIST_SEATED)
    return found


def waitlist_move(*, actor: Requester, cash_game: CashGame, seat: object = None) -> WaitlistEntry:
    """The main game has an open seat: the player seated longest at a must-move table moves to it (``seat``, or the
    lowest free); a rated player's session moves with them."""
    desk = person(actor, what=_("Moving a player"))
    require_runner(desk, action="move a player to the main game")
    with transaction.atomic():
        game = locked_open_game(cash_game)
        tables = _open_tables(game)
        main = next((table for table in tables if not table.must_move), None)
        if main is None:
            raise WrongState(_("This list has no main game dealing: add its table first."))
        if any(seats.table == main.pk and not seats.free for seats in _seats(game)):
            raise WrongState(_("The main game is full: a player moves when a seat opens there."))
        seated = list(
            WaitlistEntry.objects.filter(
                cash_game=game, status=WaitlistEntry.Status.SEATED, table__in=[t for t in tables if t.must_move]
            ).values_list("pk", "table_since")
        )
        mover = first_to_move([(pk, since) for pk, since in seated if since is not None])
        if mover is None:
            raise WrongState(_("Nobody sits at a must-move table of this game."))
        found = (
            WaitlistEntry.objects.select_for_update(of=("self",)).select_related("table__table", "player").get(pk=mover)
        )
        number = _free_seat(main, seat)
        left = found.table
        session = _session_open(found)
        if session is not None:
            session_move(actor=desk, session=session, table=main.table, seat=number)
        found.table, found.seat_number, found.table_since = main, number, timezone.now()
        found.save(update_fields=["table", "seat_number", "table_since"])
        entry_audited(
            found,
            actor=desk,
            event=AuditEventType.WAITLIST_MOVED,
            moved_from=left.table.name if left is not None else None,
        )
    return found


# How a name leaves the list, and the event each writes.
_GONE_EVENTS = {
    WaitlistEntry.Status.NO_SHOW: AuditEventType.WAITLIST_NO_SHOW,
    WaitlistEntry.Status.LEFT: AuditEventType.WAITLIST_LEFT,
    WaitlistEntry.Status.REMOVED: AuditEventType.WAITLIST_REMOVED,
}


def _gone(found: WaitlistEntry, *, actor: User | None, status: WaitlistEntry.Status, now: dt.datetime) -> None:
    found.status, found.ended_at = status, now
    found.save(update_fields=["status", "ended_at"])
    entry_audited(found, actor=actor, event=_GONE_EVENTS[status])


def waitlist_no_show(*, actor: Requester, entry: WaitlistEntry | int) -> WaitlistEntry | None:
    """A called player not seated within the minutes allowed is a no-show; the next name is called if a seat is
    open. Returns the name called next (None: nobody)."""
    desk = person(actor, what=_("Marking a no-show"))
    require_runner(desk, action="mark a no-show")
    with transaction.atomic():
        found = _entry_locked(
            entry,
            only=[WaitlistEntry.Status.CALLED],
            refusal=_("%(name)s is %(status)s: only a called player is a no-show."),
        )
        now = timezone.now()
        minutes = no_show_minutes()
        assert found.called_at is not None
        if not no_show(found.called_at, now, minutes):
            raise WrongState(
                _("%(name)s was called less than %(minutes)s minutes ago: wait before marking a no-show.")
                % {"name": found.name, "minutes": minutes}
            )
        _gone(found, actor=desk, status=WaitlistEntry.Status.NO_SHOW, now=now)
        return _call_next(found.cash_game, actor=desk, now=now, strict=False)


def waitlist_no_shows() -> int:
    """Every called player not seated within the minutes allowed, on every open list, marked a no-show by the
    system, the next name called each time a seat is open (the beat task, every minute). Returns how many."""
    minutes = no_show_minutes()
    marked = 0
    for game in CashGame.objects.filter(closed_at__isnull=True).order_by("pk"):
        with transaction.atomic():
            locked = locked_game(game)
            now = timezone.now()
            late = WaitlistEntry.objects.select_for_update().filter(
                cash_game=locked,
                status=WaitlistEntry.Status.CALLED,
                called_at__lte=now - dt.timedelta(minutes=minutes),
            )
            for found in late.order_by("called_at", "pk"):
                _gone(found, actor=None, status=WaitlistEntry.Status.NO_SHOW, now=now)
                marked += 1
                _call_next(locked, actor=None, now=now, strict=False)
    return marked


def waitlist_leave(*, actor: Requester, entry: WaitlistEntry | int) -> WaitlistEntry:
    """A seated player leaves the game: the seat is open; a rated player's session ends."""
    desk = person(actor, what=_("A player leaving"))
    require_runner(desk, action="record a player leaving a cash game")
    with transaction.atomic():
        found = _entry_locked(
            entry, only=[WaitlistEntry.Status.SEATED], refusal=_("%(name)s is %(status)s: a seated player leaves.")
        )
        session = _session_open(found)
        if session is not None:
            session_end(actor=desk, session=session)
        _gone(found, actor=desk, status=WaitlistEntry.Status.LEFT, now=timezone.now())
    return found


def waitlist_remove(*, actor: Requester, entry: WaitlistEntry | int) -> WaitlistEntry:
    """Take a waiting or called name off the list (the guest gave up, or asked)."""
    desk = person(actor, what=_("Taking a name off"))
    require_runner(desk, action="take a name off a waitlist")
    with transaction.atomic():
        found = _entry_locked(
            entry,
            only=[WaitlistEntry.Status.WAITING, WaitlistEntry.Status.CALLED],
            refusal=_("%(name)s is %(status)s: a name waiting or called is taken off."),
        )
        _gone(found, actor=desk, status=WaitlistEntry.Status.REMOVED, now=timezone.now())
    return found
