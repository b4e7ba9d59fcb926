"""The card room's lists: a cash game's list opened and closed, its tables, and the names put down on it, each write
in one transaction with its audit event, under the lock of the cash game's row (``locked_game``: every write to a
list takes it first, so two desks never call one name twice).

* **Lists** (``cash_game_open``, ``cash_game_close``): a points game at stakes (a point's value in cents); one open
  list per game and stakes. The desk (the tournament director, a Floor supervisor or a Pit boss) opens and closes
  them; a list closes once nobody on it is waiting, called or seated.
* **Tables** (``cash_table_add``, ``cash_table_remove``): a pit table of the same game deals the list's main game,
  or is a must-move table feeding it.
* **Names** (``waitlist_put_down``, ``waitlist_kiosk_put_down``): a guest's name or a rated player put down at the
  desk, or a guest's name from the room display's kiosk (no sign-in: the system writes it). A list holds at most
  ``TABLESIDE_WAITLIST_KIOSK_WAITING`` kiosk names waiting; a kiosk name on the list already is refused without
  saying so (the desk is told which name).

Calling the names, seating, moving and the names gone are ``poker_room.waitlist.services``, which names these
writes too. The audit trail names entries by id and player id, never by name (a public list's names are the guests'
own).
"""

from __future__ import annotations

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
from players.models import Player
from poker_room.floor import Requester, person, require_runner, whole
from poker_room.waitlist.models import CashGame, CashTable, WaitlistEntry
from tables.models import Table

MOST_NAME = 40
MOST_POINT_CENTS = 10**7  # a hundred thousand a point: beyond it, a key was held down
STILL_ON = (WaitlistEntry.Status.WAITING, WaitlistEntry.Status.CALLED, WaitlistEntry.Status.SEATED)
HOLDING = (WaitlistEntry.Status.CALLED, WaitlistEntry.Status.SEATED)


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


def entry_audited(entry: WaitlistEntry, *, actor: User | None, event: AuditEventType, **extra: Any) -> None:
    """A name's change in the audit trail, in the caller's transaction: the entry's record after it (``extra``
    added to it)."""
    audit_event_record(actor=actor, event_type=event, subject=entry, after=_entry_record(entry, **extra), rows=[entry])


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


# --- the list's lock ------------------------------------------------------------------------------------------------


def locked_game(game: CashGame) -> CashGame:
    """The cash game's row, locked: every write to a list takes it first."""
    return CashGame.objects.select_for_update().get(pk=game.pk)


def locked_open_game(game: CashGame) -> CashGame:
    """The cash game's row, locked, or a refusal if its list is closed."""
    locked = locked_game(game)
    if locked.closed_at is not None:
        raise WrongState(_("This list is closed: open a list for the game and stakes again."))
    return locked


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
        game = locked_open_game(cash_game)
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
            game = locked_open_game(cash_game)
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
        locked_game(cash_table.cash_game)
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
        game = locked_open_game(cash_game)
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
        entry_audited(entry, actor=actor, event=AuditEventType.WAITLIST_PUT_DOWN)
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


def kiosk_names() -> int:
    """How many names the room display's kiosk takes from one address in ten minutes
    (``TABLESIDE_WAITLIST_KIOSK_NAMES``, 3 by default)."""
    return int(getattr(settings, "TABLESIDE_WAITLIST_KIOSK_NAMES", 3))


def kiosk_waiting() -> int:
    """How many names put down at the kiosk one list holds waiting at once (``TABLESIDE_WAITLIST_KIOSK_WAITING``,
    20 by default); the desk puts down beyond it."""
    return int(getattr(settings, "TABLESIDE_WAITLIST_KIOSK_WAITING", 20))
