"""What the poker room's packages share: who may act and who may read, the tournament under its lock, how an
entry and a place are named, and the checks of what is typed.

* **Who acts**: the tournament director and the floor's supervisors run a tournament
  (``casino.roles.TOURNAMENT_RUNNERS``); the Dealer assigned to a tournament table (``TournamentTable.dealer``) may
  also record a bust and move the button at that table (the dealer's tablet), nowhere else; an Auditor reads and never
  acts. ``None`` is the system.
* **Who reads** (the REST API): whoever may look at the director's console reads everything
  (``casino.roles.TOURNAMENT_VIEWERS``); the Dealer of one of the tournament's tables reads what concerns their own
  tables (``reader_tables``).

The seat moves the seating engine decides are carried out by ``poker_room.tournaments.seats``.
"""

from __future__ import annotations

import random
from typing import TypeAlias, TypedDict

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext as _

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.roles import TOURNAMENT_RUNNERS, TOURNAMENT_VIEWERS, Role, require_role, user_has_role
from poker_room.tournaments.models import Entry, Tournament, TournamentTable

# Whoever a request or a task acts as: a signed-in user, the anonymous visitor, or the system itself (None).
Requester: TypeAlias = User | AnonymousUser | None

MOST_CENTS = 10**12  # ten billion in money: beyond it, a key was held down
MOST_CHIPS = 10**9  # a billion chips: the stack and chip columns hold up to 2**31 - 1
MOST_TEXT = 120


def system_rng() -> random.Random:
    """The seat draws' and the chip races' randomness: the operating system's (a test passes its own)."""
    return random.SystemRandom()


# --- who may act ------------------------------------------------------------------------------------------------


def require_runner(actor: Requester, *, action: str) -> None:
    """Refuse ``action`` (``NotAllowed``) unless the actor runs tournaments: the director or a supervisor."""
    require_role(actor, *TOURNAMENT_RUNNERS, action=action)


def is_runner(actor: Requester) -> bool:
    return actor is None or bool(getattr(actor, "is_superuser", False)) or user_has_role(actor, *TOURNAMENT_RUNNERS)


def can_act_at_tournament_table(actor: Requester, table: TournamentTable | None) -> bool:
    """Whether ``actor`` may record what happens at ``table``: whoever runs the tournament, or the table's dealer."""
    if is_runner(actor):
        return True
    return (
        table is not None
        and actor is not None
        and user_has_role(actor, Role.DEALER)
        and table.dealer_id is not None
        and table.dealer_id == actor.pk
    )


def require_runner_or_table_dealer(actor: Requester, table: TournamentTable | None, *, action: str) -> None:
    """Refuse ``action`` at ``table`` unless ``can_act_at_tournament_table``: a dealer at another table (or at none)
    is told whose table it is, anyone else which roles may."""
    if can_act_at_tournament_table(actor, table):
        return
    if actor is not None and user_has_role(actor, Role.DEALER):
        if table is None:
            raise NotAllowed(
                _("Only the tournament director, a supervisor or the dealer of the player's table may %(action)s.")
                % {"action": action}
            )
        raise NotAllowed(
            _("Table %(table)s is not your table: only its dealer or the tournament director may %(action)s.")
            % {"table": table.number, "action": action},
            extra={"table": table.number},
        )
    require_role(actor, *TOURNAMENT_RUNNERS, Role.DEALER, action=action)


# --- the tournament under its lock --------------------------------------------------------------------------------


def locked_tournament(tournament: Tournament) -> Tournament:
    """The tournament's row, locked for the rest of the transaction (every write to a tournament takes it first)."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def refuse_finished(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise WrongState(_("%(name)s has finished: its results are final.") % {"name": tournament.name})


def refuse_pool_final(tournament: Tournament) -> None:
    """Nothing that changes the prize pool once it is final (the first paid bust)."""
    if tournament.pool_locked_at is not None:
        raise WrongState(_("The prize pool is final; the money has started."))


def entry_of(tournament: Tournament, entry: Entry | int, *, lock: bool = True) -> Entry:
    """The tournament's entry (by row or id), locked; refused if it belongs to another tournament."""
    pk = entry if isinstance(entry, int) else entry.pk
    rows = Entry.objects.select_for_update() if lock else Entry.objects.all()
    found = rows.filter(pk=pk, tournament_id=tournament.pk).first()
    if found is None:
        raise ApplicationError(
            _("That entry is not in %(name)s.") % {"name": tournament.name}, extra={"field": "entry"}
        )
    return found


def entry_name(entry: Entry) -> str:
    """How the director names an entry: "#7 Anna"."""
    return f"#{entry.number} {entry.name}"


def said(error: ValueError) -> str:
    """A refusal of the pure rules (structure, payouts, seating, the clock, the chip race) in the user's language:
    the fixed ones are in the catalogue (``poker_room.pure_messages``); one built from figures stays as said."""
    return _(str(error))


def ordinal(number: int) -> str:
    """A place as the director says it: 1st, 2nd, 3rd, 11th, 12th, 21st (in German 1., 2., 3.: each form is
    translated)."""
    if 10 <= number % 100 <= 20:
        return _("%(number)sth") % {"number": number}
    forms = {1: _("%(number)sst"), 2: _("%(number)snd"), 3: _("%(number)srd")}
    return forms.get(number % 10, _("%(number)sth")) % {"number": number}


class EntryRecord(TypedDict):
    """An entry as the audit trail names it: its number and player id, never a name (the players' privacy)."""

    entry: int
    player: int | None


def entry_record(entry: Entry) -> EntryRecord:
    return {"entry": entry.number, "player": entry.player_id}


# --- input --------------------------------------------------------------------------------------------------------


def whole(value: object, *, field: str, what: str, least: int = 0, most: int = MOST_CENTS) -> int:
    """A whole number from ``least`` to ``most``, or a refusal naming the field."""
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise ApplicationError(
            _("%(what)s is a whole number from %(least)s to %(most)s, not %(value)s.")
            % {"what": what, "least": least, "most": most, "value": repr(value)},
            extra={"field": field},
        )
    return value


def text(value: object, *, field: str, what: str, most: int = MOST_TEXT, required: bool = False) -> str:
    """Text with its runs of white space made single, at most ``most`` characters (and not empty if required)."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ApplicationError(
            _("%(what)s is text, not %(value)s.") % {"what": what, "value": repr(value)}, extra={"field": field}
        )
    cleaned = " ".join(value.split())
    if len(cleaned) > most:
        raise ApplicationError(
            _("%(what)s is at most %(most)s characters.") % {"what": what, "most": most}, extra={"field": field}
        )
    if required and not cleaned:
        raise ApplicationError(_("%(what)s is required.") % {"what": what}, extra={"field": field})
    return cleaned


def undo_reason(value: object, *, missing: str) -> str:
    """Why something is undone or voided (at most 500 characters): ``missing`` is the refusal when it is not said."""
    why = text(value, field="reason", what=_("The reason"), most=500)
    if not why:
        raise ApplicationError(missing, extra={"field": "reason"})
    return why


# --- who acts, who reads -----------------------------------------------------------------------------------------


def person(actor: Requester, *, what: str) -> User:
    """The person acting: the rows of a tournament name who wrote them, so the system (``None``) cannot."""
    if actor is None or not actor.is_authenticated:
        raise NotAllowed(_("%(what)s is done by a person.") % {"what": what})
    return actor


def is_viewer(user: User | AnonymousUser) -> bool:
    return bool(getattr(user, "is_superuser", False)) or user_has_role(user, *TOURNAMENT_VIEWERS)


def _dealt_tables(user: User | AnonymousUser, tournament: Tournament) -> set[int]:
    """The numbers of the tournament's tables (not broken) that ``user`` deals."""
    if not user.is_authenticated or not user_has_role(user, Role.DEALER):
        return set()
    return set(
        TournamentTable.objects.filter(tournament=tournament, dealer_id=user.pk, broken_at__isnull=True).values_list(
            "number", flat=True
        )
    )


def reader_tables(user: User | AnonymousUser, tournament: Tournament, *, what: str) -> set[int] | None:
    """What ``user`` may read of ``tournament``: everything (None) for a viewer, the tables they deal for one of its
    dealers; anyone else is refused (403)."""
    if is_viewer(user):
        return None
    tables = _dealt_tables(user, tournament)
    if tables:
        return tables
    require_role(user, *TOURNAMENT_VIEWERS, action=what)  # refuses, naming the roles
    return None  # pragma: no cover - require_role refuses whoever gets here


def require_viewer(user: User | AnonymousUser, *, what: str) -> None:
    require_role(user, *TOURNAMENT_VIEWERS, action=what)
