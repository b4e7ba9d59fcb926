"""Writes on the card room's cash games and their waitlists, each in one transaction with its audit event, under the
lock of the cash game's row (every write to a list takes it first, so two desks never call one name twice).

* **Lists** (``cash_game_open``, ``cash_game_close``): a points game at stakes (a point's value in cents); one open
  list per game and stakes. The desk (the tournament director, a Floor supervisor or a Pit boss) opens and closes
  them; a list closes once nobody on it is waiting, called or seated.
* **Tables** (``cash_table_add``, ``cash_table_remove``): a pit table of the same game deals the list's main game,
  or is a must-move table feeding it.
* **Names** (``waitlist_put_down``, ``waitlist_kiosk_put_down``): a guest's name or a rated player put down at the
  desk, or a guest's name from the room display's kiosk (no sign-in: the system writes it). A list holds at most
  ``TABLESIDE_WAITLIST_KIOSK_WAITING`` kiosk names waiting; a kiosk name on the list already is refused without
  saying so (the desk is told which name).
* **Call, seat, move** (``waitlist_call``, ``waitlist_seat``, ``waitlist_move``): the first name waiting is called
  to the table ``poker_room.pure.waitlist.call_to`` picks, a seat held there for them; seated, a rated player's
  rating session starts at the table (``players.services.session_start``, whose rules apply: a supervisor or the
  table's dealer rates a player). A seat open at the main game goes first to the player seated longest at a
  must-move table (``first_to_move``); their rating session moves with them.
* **Gone** (``waitlist_no_show``, ``waitlist_no_shows``, ``waitlist_leave``, ``waitlist_remove``): a called player
  not seated within ``TABLESIDE_WAITLIST_NO_SHOW_MINUTES`` is a no-show and the next name is called (the desk, or
  the beat task every minute); a seated player leaves (their rating session ends); a name is taken off the list.

The audit trail names entries by id and player id, never by name (a public list's names are the guests' own).
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from players.models import Player, RatingSession
from players.services import session_end, session_move, session_start
from poker_room.floor import Requester, person, require_runner, whole
from poker_room.pure.waitlist import TableSeats, call_to, first_to_move, no_show
from poker_room.waitlist.models import CashGame, CashTable, WaitlistEntry
from tables.models import Table

MOST_NAME = 40
MOST_POINT_CENTS = 10**7  # a hundred thousand a point: beyond it, a key was held down
NO_SHOW_MINUTES = 10
STILL_ON = (WaitlistEntry.Status.WAITING, WaitlistEntry.Status.CALLED, WaitlistEntry.Status.SEATED)
HOLDING = (WaitlistEntry.Status.CALLED, WaitlistEntry.Status.SEATED)


def no_show_minutes() -> int:
    """How long a called player has to sit down (``TABLESIDE_WAITLIST_NO_SHOW_MINUTES``, 10 by default)."""
    return int(getattr(settings, "TABLESIDE_WAITLIST_NO_SHOW_MINUTES", NO_SHOW_MINUTES))


# --- records for the audit trail (no names) ---------------------------------------------------------------------


def _game_record(game: CashGame) -> dict[str, Any]:
    return {"cash_game": game.pk, "game": game.game, "points_cents": game.points_cents, "closed": bool(game.closed_at)}


def _table_record(table: CashTable) -> dict[str, Any]:
    return {"cash_game": table.cash_game_id, "table": table.table.name, "must_move": table.must_move}


def _entry_record(entry: WaitlistEntry, **extra: Any) -> dict[str, Any]:
    record = {
        "entry": entry.pk,
        "cash_game": entry.cash_game_id,
        "player": entry.player_id,
        "source": entry.source,
        "status": entry.status,
        "table": entry.table.table.name if entry.table_id is not None and entry.table is not None else None,
        "seat": entry.seat_number,
        "session": entry.session_id,
    }
    return {**record, **extra}


# --- input ----------------------------------------------------------------------------------------------------------


def _name_character(ch: str) -> bool:
    """A letter (with its accents), a space, or a name's punctuation: "O'Neill", "Anne-Marie", "J. Lee"."""
    return ch.isalpha() or unicodedata.category(ch).startswith("M") or ch in " .'-’"


def guest_name(value: object) -> str:
    """A name as a guest gives it: 1 to 40 letters, spaces and a name's punctuation, its spaces made single."""
    if not isinstance(value, str):
        raise ApplicationError(_("The name is text."), extra={"field": "name"})
    name = " ".join(value.split())
    if not name:
        raise ApplicationError(_("Say the name to put down."), extra={"field": "name"})
    if len(name) > MOST_NAME:
        raise ApplicationError(
            _("A name is at most %(most)s characters.") % {"most": MOST_NAME}, extra={"field": "name"}
        )
    if not any(ch.isalpha() for ch in name) or not all(_name_character(ch) for ch in name):
        raise ApplicationError(_("A name is written in letters."), extra={"field": "name"})
    return name


def _locked_game(game: CashGame) -> CashGame:
    return CashGame.objects.select_for_update().get(pk=game.pk)


def _refuse_closed(game: CashGame) -> None:
    if game.closed_at is not None:
        raise WrongState(_("This list is closed: open a list for the game and stakes again."))


def _entry_locked(entry: WaitlistEntry | int) -> WaitlistEntry:
    """The entry (locked, with its list locked first), or a refusal if there is none."""
    pk = entry if isinstance(entry, int) else entry.pk
    found = WaitlistEntry.objects.filter(pk=pk).values_list("cash_game_id", flat=True).first()
    if found is None:
        raise ApplicationError(_("There is no such name on a list."), extra={"field": "entry"})
    CashGame.objects.select_for_update().get(pk=found)
    return (
        WaitlistEntry.objects.select_for_update(of=("self",))
        .select_related("cash_game", "table__table", "player")
        .get(pk=pk)
    )


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


# --- lists and tables ---------------------------------------------------------------------------------------------


def cash_game_open(*, actor: Requester, game: object, points_cents: object) -> CashGame:
    """Open a list for a points game at stakes (a point's value in cents)."""
    desk = person(actor, what=_("Opening a list"))
    require_runner(desk, action="open a cash game's list")
    if not isinstance(game, str) or game not in dict(CashGame._meta.get_field("game").choices or []):
        raise ApplicationError(
            _("A cash game of the card room is Chinese Poker or Open-Face Chinese Poker."), extra={"field": "game"}
        )
    points = whole(
        points_cents, field="points_cents", what=_("A point's value in cents"), least=1, most=MOST_POINT_CENTS
    )
    try:
        with transaction.atomic():
            opened = CashGame.objects.create(game=game, points_cents=points, opened_at=timezone.now(), opened_by=desk)
            audit_event_record(
                actor=desk,
                event_type=AuditEventType.CASH_GAME_OPENED,
                subject=opened,
                after=_game_record(opened),
                rows=[opened],
            )
    except IntegrityError as exc:
        raise WrongState(_("A list for this game and stakes is open already.")) from exc
    return opened


def cash_game_close(*, actor: Requester, cash_game: CashGame) -> CashGame:
    """Close a list once nobody on it is waiting, called or seated; its tables are taken off with it."""
    desk = person(actor, what=_("Closing a list"))
    require_runner(desk, action="close a cash game's list")
    with transaction.atomic():
        game = _locked_game(cash_game)
        _refuse_closed(game)
        on = WaitlistEntry.objects.filter(cash_game=game, status__in=STILL_ON).count()
        if on:
            raise WrongState(
                _("%(count)s names are still on this list (waiting, called or seated): the list closes empty.")
                % {"count": on}
            )
        now = timezone.now()
        tables = list(CashTable.objects.filter(cash_game=game, removed_at__isnull=True))
        for table in tables:
            table.removed_at = now
            table.save(update_fields=["removed_at"])
        game.closed_at = now
        game.save(update_fields=["closed_at"])
        audit_event_record(
            actor=desk,
            event_type=AuditEventType.CASH_GAME_CLOSED,
            subject=game,
            after=_game_record(game),
            rows=[game, *tables],
        )
    return game


def cash_table_add(*, actor: Requester, cash_game: CashGame, table: Table, must_move: bool = False) -> CashTable:
    """A pit table of the list's game deals it: its main game, or a must-move table feeding the main game."""
    desk = person(actor, what=_("Adding a table"))
    require_runner(desk, action="add a table to a cash game")
    if not isinstance(must_move, bool):
        raise ApplicationError(_("Must-move is true or false."), extra={"field": "must_move"})
    try:
        with transaction.atomic():
            game = _locked_game(cash_game)
            _refuse_closed(game)
            if table.game != game.game:
                raise ApplicationError(
                    _("Table %(table)s deals %(its)s, not %(game)s.")
                    % {"table": table.name, "its": table.get_game_display(), "game": game.get_game_display()},
                    extra={"field": "table"},
                )
            if not must_move and CashTable.objects.filter(cash_game=game, removed_at__isnull=True, must_move=False):
                raise WrongState(
                    _("This list has its main game already: add the table as a must-move table."),
                    extra={"field": "must_move"},
                )
            added = CashTable.objects.create(
                cash_game=game, table=table, must_move=must_move, added_at=timezone.now(), added_by=desk
            )
            audit_event_record(
                actor=desk,
                event_type=AuditEventType.CASH_TABLE_ADDED,
                subject=added,
                after=_table_record(added),
                rows=[added],
            )
    except IntegrityError as exc:
        raise WrongState(
            _("Table %(table)s deals a cash game already.") % {"table": table.name}, extra={"field": "table"}
        ) from exc
    return added


def cash_table_remove(*, actor: Requester, cash_table: CashTable) -> CashTable:
    """Take a table off its list once nobody sits there or is called to it."""
    desk = person(actor, what=_("Taking a table off"))
    require_runner(desk, action="take a table off a cash game")
    with transaction.atomic():
        _locked_game(cash_table.cash_game)
        table = CashTable.objects.select_for_update(of=("self",)).select_related("table").get(pk=cash_table.pk)
        if table.removed_at is not None:
            raise WrongState(_("This table was taken off already."))
        if WaitlistEntry.objects.filter(table=table, status__in=HOLDING).exists():
            raise WrongState(
                _("Players sit at table %(table)s or are called to it: it is taken off empty.")
                % {"table": table.table.name}
            )
        table.removed_at = timezone.now()
        table.save(update_fields=["removed_at"])
        audit_event_record(
            actor=desk,
            event_type=AuditEventType.CASH_TABLE_REMOVED,
            subject=table,
            after=_table_record(table),
            rows=[table],
        )
    return table


# --- names ----------------------------------------------------------------------------------------------------------


def _put_down(
    *, actor: User | None, cash_game: CashGame, name: str, player: Player | None, source: str
) -> WaitlistEntry:
    with transaction.atomic():
        game = _locked_game(cash_game)
        _refuse_closed(game)
        on = WaitlistEntry.objects.filter(cash_game=game, status__in=STILL_ON)
        if player is not None and on.filter(player=player).exists():
            raise WrongState(_("This player is on this list already."), extra={"field": "player"})
        kiosk = source == WaitlistEntry.Source.KIOSK
        if kiosk and (
            WaitlistEntry.objects.filter(
                cash_game=game, source=WaitlistEntry.Source.KIOSK, status=WaitlistEntry.Status.WAITING
            ).count()
            >= kiosk_waiting()
        ):
            raise WrongState(
                _("This list has as many names from the kiosk as it takes for now: ask at the desk."),
                extra={"field": "cash_game"},
            )
        if player is None and on.filter(player__isnull=True, name__iexact=name).exists():
            if kiosk:  # a guest at a public screen learns nothing of who else is on the list
                raise WrongState(_("The kiosk cannot put this name down: ask at the desk."), extra={"field": "name"})
            raise WrongState(
                _("%(name)s is on this list already: add a letter to tell two guests apart.") % {"name": name},
                extra={"field": "name"},
            )
        entry = WaitlistEntry.objects.create(
            cash_game=game, name=name, player=player, source=source, put_down_at=timezone.now(), put_down_by=actor
        )
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.WAITLIST_PUT_DOWN,
            subject=entry,
            after=_entry_record(entry),
            rows=[entry],
        )
    return entry


def waitlist_put_down(
    *, actor: Requester, cash_game: CashGame, name: object = "", player: Player | None = None
) -> WaitlistEntry:
    """The desk puts a name down on the list: a guest's name, or a rated player (their name comes from their card)."""
    desk = person(actor, what=_("Putting a name down"))
    require_runner(desk, action="put a name down on a waitlist")
    if player is not None:
        if player.anonymous or not player.name:
            raise ApplicationError(
                _("This player is anonymous: put down the name they give."), extra={"field": "player"}
            )
        shown = " ".join(player.name.split())[:MOST_NAME]
    else:
        shown = guest_name(name)
    return _put_down(actor=desk, cash_game=cash_game, name=shown, player=player, source=WaitlistEntry.Source.DESK)


def waitlist_kiosk_put_down(*, cash_game: CashGame, name: object) -> WaitlistEntry:
    """A guest puts their own name down at the room display's kiosk: no sign-in, the system writes it."""
    return _put_down(
        actor=None, cash_game=cash_game, name=guest_name(name), player=None, source=WaitlistEntry.Source.KIOSK
    )


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
    audit_event_record(
        actor=actor,
        event_type=AuditEventType.WAITLIST_CALLED,
        subject=first,
        after=_entry_record(first),
        rows=[first],
    )
    return first


def waitlist_call(*, actor: Requester, cash_game: CashGame) -> WaitlistEntry:
    """Call the first name waiting: a seat is held for them at the table the rules pick."""
    desk = person(actor, what=_("Calling a name"))
    require_runner(desk, action="call a name from a waitlist")
    with transaction.atomic():
        game = _locked_game(cash_game)
        _refuse_closed(game)
        called = _call_next(game, actor=desk, now=timezone.now(), strict=True)
        assert called is not None  # strict: refused otherwise
    return called


def waitlist_seat(*, actor: Requester, entry: WaitlistEntry | int, seat: object = None) -> WaitlistEntry:
    """Seat a called player at the table their seat is held at (``seat``: a number, or None for the lowest free);
    a rated player's rating session starts there."""
    desk = person(actor, what=_("Seating a player"))
    require_runner(desk, action="seat a player from a waitlist")
    with transaction.atomic():
        found = _entry_locked(entry)
        if found.status != WaitlistEntry.Status.CALLED:
            raise WrongState(
                _("%(name)s is %(status)s: a player is seated once called.")
                % {"name": found.name, "status": found.get_status_display()}
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
        audit_event_record(
            actor=desk,
            event_type=AuditEventType.WAITLIST_SEATED,
            subject=found,
            after=_entry_record(found),
            rows=[found],
        )
    return found


def waitlist_move(*, actor: Requester, cash_game: CashGame, seat: object = None) -> WaitlistEntry:
    """The main game has an open seat: the player seated longest at a must-move table moves to it (``seat``, or the
    lowest free); a rated player's session moves with them."""
    desk = person(actor, what=_("Moving a player"))
    require_runner(desk, action="move a player to the main game")
    with transaction.atomic():
        game = _locked_game(cash_game)
        _refuse_closed(game)
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
        if found.session_id is not None:
            session = RatingSession.objects.get(pk=found.session_id)
            if session.status != RatingSession.Status.ENDED:
                session_move(actor=desk, session=session, table=main.table, seat=number)
        found.table, found.seat_number, found.table_since = main, number, timezone.now()
        found.save(update_fields=["table", "seat_number", "table_since"])
        audit_event_record(
            actor=desk,
            event_type=AuditEventType.WAITLIST_MOVED,
            subject=found,
            after=_entry_record(found, moved_from=left.table.name if left is not None else None),
            rows=[found],
        )
    return found


def _gone(found: WaitlistEntry, *, actor: User | None, status: str, event: AuditEventType, now: dt.datetime) -> None:
    found.status, found.ended_at = status, now
    found.save(update_fields=["status", "ended_at"])
    audit_event_record(actor=actor, event_type=event, subject=found, after=_entry_record(found), rows=[found])


def waitlist_no_show(*, actor: Requester, entry: WaitlistEntry | int) -> WaitlistEntry | None:
    """A called player not seated within the minutes allowed is a no-show; the next name is called if a seat is
    open. Returns the name called next (None: nobody)."""
    desk = person(actor, what=_("Marking a no-show"))
    require_runner(desk, action="mark a no-show")
    with transaction.atomic():
        found = _entry_locked(entry)
        if found.status != WaitlistEntry.Status.CALLED:
            raise WrongState(
                _("%(name)s is %(status)s: only a called player is a no-show.")
                % {"name": found.name, "status": found.get_status_display()}
            )
        now = timezone.now()
        minutes = no_show_minutes()
        assert found.called_at is not None
        if not no_show(found.called_at, now, minutes):
            raise WrongState(
                _("%(name)s was called less than %(minutes)s minutes ago: wait before marking a no-show.")
                % {"name": found.name, "minutes": minutes}
            )
        _gone(found, actor=desk, status=WaitlistEntry.Status.NO_SHOW, event=AuditEventType.WAITLIST_NO_SHOW, now=now)
        return _call_next(found.cash_game, actor=desk, now=now, strict=False)


def waitlist_no_shows() -> int:
    """Every called player not seated within the minutes allowed, on every open list, marked a no-show by the
    system, the next name called each time a seat is open (the beat task, every minute). Returns how many."""
    minutes = no_show_minutes()
    marked = 0
    for game in CashGame.objects.filter(closed_at__isnull=True).order_by("pk"):
        with transaction.atomic():
            locked = _locked_game(game)
            now = timezone.now()
            late = WaitlistEntry.objects.select_for_update().filter(
                cash_game=locked,
                status=WaitlistEntry.Status.CALLED,
                called_at__lte=now - dt.timedelta(minutes=minutes),
            )
            for found in late.order_by("called_at", "pk"):
                _gone(
                    found,
                    actor=None,
                    status=WaitlistEntry.Status.NO_SHOW,
                    event=AuditEventType.WAITLIST_NO_SHOW,
                    now=now,
                )
                marked += 1
                _call_next(locked, actor=None, now=now, strict=False)
    return marked


def waitlist_leave(*, actor: Requester, entry: WaitlistEntry | int) -> WaitlistEntry:
    """A seated player leaves the game: the seat is open; a rated player's session ends."""
    desk = person(actor, what=_("A player leaving"))
    require_runner(desk, action="record a player leaving a cash game")
    with transaction.atomic():
        found = _entry_locked(entry)
        if found.status != WaitlistEntry.Status.SEATED:
            raise WrongState(
                _("%(name)s is %(status)s: a seated player leaves.")
                % {"name": found.name, "status": found.get_status_display()}
            )
        if found.session_id is not None:
            session = RatingSession.objects.get(pk=found.session_id)
            if session.status != RatingSession.Status.ENDED:
                session_end(actor=desk, session=session)
        _gone(
            found, actor=desk, status=WaitlistEntry.Status.LEFT, event=AuditEventType.WAITLIST_LEFT, now=timezone.now()
        )
    return found


def waitlist_remove(*, actor: Requester, entry: WaitlistEntry | int) -> WaitlistEntry:
    """Take a waiting or called name off the list (the guest gave up, or asked)."""
    desk = person(actor, what=_("Taking a name off"))
    require_runner(desk, action="take a name off a waitlist")
    with transaction.atomic():
        found = _entry_locked(entry)
        if found.status not in (WaitlistEntry.Status.WAITING, WaitlistEntry.Status.CALLED):
            raise WrongState(
                _("%(name)s is %(status)s: a name waiting or called is taken off.")
                % {"name": found.name, "status": found.get_status_display()}
            )
        _gone(
            found,
            actor=desk,
            status=WaitlistEntry.Status.REMOVED,
            event=AuditEventType.WAITLIST_REMOVED,
            now=timezone.now(),
        )
    return found


def kiosk_names() -> int:
    """How many names the room display's kiosk takes from one address in ten minutes
    (``TABLESIDE_WAITLIST_KIOSK_NAMES``, 3 by default)."""
    return int(getattr(settings, "TABLESIDE_WAITLIST_KIOSK_NAMES", 3))


def kiosk_waiting() -> int:
    """How many names put down at the kiosk one list holds waiting at once (``TABLESIDE_WAITLIST_KIOSK_WAITING``,
    20 by default); the desk puts down beyond it."""
    return int(getattr(settings, "TABLESIDE_WAITLIST_KIOSK_WAITING", 20))
