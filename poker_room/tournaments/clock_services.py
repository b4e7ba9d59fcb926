"""The tournament clock's writes and reads (DESIGN.md "The poker room").

The clock lives on the tournament's row as ``poker_room.pure.clock`` keeps it: the instant the level ends while it runs
(``clock_ends_at``), what is left while it is paused (``clock_remaining_ms``), the level (``clock_level``, the index
of the structure's row, breaks included) and the hands played in a hands-counted level. Every write here:

1. locks the tournament's row, and refuses a finished tournament;
2. reads the clock from the row and settles it at ``now`` (``clock_settle``): a level that time has ended is rolled
   over first, so the state stored after the change names the level every screen showed when the director acted;
3. applies the pure change (``clock_start`` / ``pause`` / ``resume`` / ``skip`` / ``adjust`` / ``hand``), whose
   refusals come back as ``WrongState`` in the director's words;
4. stores the result, writes a ``TOURNAMENT_CLOCK`` audit event (the action, and the clock before and after at that
   instant) and raises the tournament's version (``poker_room.display.live``): every open display redraws within a
   second.

Who: the tournament director and the floor's supervisors (``casino.roles.TOURNAMENT_RUNNERS``). ``now`` is for the
tests (a frozen instant); the services read the clock themselves otherwise.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any, TypedDict

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from casino.roles import TOURNAMENT_RUNNERS, require_role
from poker_room.display import live
from poker_room.pure import clock
from poker_room.pure.clock import ClockError, ClockState, ClockStatus, ClockView, LevelSpan
from poker_room.pure.structure import Level, StructureError, structure_from_dicts
from poker_room.tournaments.models import Tournament

MOST_SECONDS = 24 * 3600  # an adjustment of more than a day is a typing mistake (the clock caps a level anyway)

# The clock's fixed refusals (``poker_room.pure.clock``, in English there): listed for the translators, and looked up by
# their English text when the clock raises one. Its refusals that carry numbers are phrased here (``_refusal``).
_CLOCK_REFUSALS = (
    gettext_noop("The clock is already running."),
    gettext_noop("The clock has started and is paused: resume it."),
    gettext_noop("The clock has not started yet."),
    gettext_noop("The clock is already paused."),
    gettext_noop("The clock has not started yet: start it."),
    gettext_noop("There is no level before the first."),
    gettext_noop("There is no level after the last."),
    gettext_noop("This level counts hands, not time: there is no time to add or remove."),
    gettext_noop("The clock has not started: no hand counts yet."),
    gettext_noop("This level runs on time: its hands are not counted."),
)


# --- reading the clock from a tournament ------------------------------------------------------------------------


def tournament_levels(tournament: Tournament) -> tuple[Level, ...]:
    """The tournament's structure as ``Level`` values (``Tournament.levels`` is their JSON)."""
    try:
        return structure_from_dicts(tournament.levels)
    except StructureError as error:
        raise ApplicationError(
            _("The structure of %(name)s cannot be read: %(reason)s") % {"name": tournament.name, "reason": error},
            extra={"field": "levels"},
        ) from None


def clock_problem(tournament: Tournament, levels: Sequence[Level]) -> str:
    """What makes the row's clock unreadable against its structure, in the director's words ("" when it reads): a
    value outside its domain written past the application (a status it does not know, a level past the last, a
    running clock with no end). The board shows it in the clock's place; the rest of every page stays up."""
    problem = ""
    if tournament.clock_status not in ClockStatus.__members__.values():
        problem = _("its status is %(status)r") % {"status": tournament.clock_status}
    elif levels and not 0 <= tournament.clock_level < len(levels):
        problem = _("level %(level)s of %(levels)s") % {"level": tournament.clock_level + 1, "levels": len(levels)}
    elif (
        tournament.clock_status == ClockStatus.RUNNING
        and levels
        and levels[tournament.clock_level].minutes is not None
        and tournament.clock_ends_at is None
    ):
        problem = _("it runs with no end")
    if not problem:
        return ""
    return _("The clock of %(name)s cannot be read: %(problem)s; the director can reset it.") % {
        "name": tournament.name,
        "problem": problem,
    }


def level_spans(levels: Sequence[Level]) -> list[LevelSpan]:
    """How long each row of a structure lasts, as the clock counts it: minutes × 60 seconds, or a number of hands."""
    try:
        return [
            LevelSpan(
                seconds=None if level.minutes is None else level.minutes * 60,
                hands=level.hands,
                is_break=level.is_break,
            )
            for level in levels
        ]
    except ClockError as error:
        raise ApplicationError(_(str(error)), extra={"field": "levels"}) from None


def tournament_spans(tournament: Tournament) -> list[LevelSpan]:
    """The clock's spans of the tournament's structure, breaks included; refused if it has no level."""
    spans = level_spans(tournament_levels(tournament))
    if not spans:
        raise WrongState(_("%(name)s has no structure yet: set its levels first.") % {"name": tournament.name})
    return spans


def tournament_clock_state(tournament: Tournament, spans: Sequence[LevelSpan] | None = None) -> ClockState:
    """The clock as the row stores it.

    Before the start the row keeps no time unless the director changed it: the level then has its full length
    (or, counted in hands, no time at all), so a structure edited before the start needs no clock fix.
    """
    problem = clock_problem(tournament, tournament_levels(tournament))
    if problem:  # a row written past the application: refused in words, never a server error
        raise WrongState(problem, extra={"field": "clock"})
    status = ClockStatus(tournament.clock_status)
    remaining = tournament.clock_remaining_ms
    if status is ClockStatus.NOT_STARTED:
        spans = tournament_spans(tournament) if spans is None else spans
        level = min(tournament.clock_level, len(spans) - 1)
        length = spans[level].length_ms
        if length is None:  # a hands-counted level has no time
            remaining = None
        elif remaining is None:
            remaining = length
        return ClockState(status, level, None, remaining, tournament.clock_hands)
    return ClockState(status, tournament.clock_level, tournament.clock_ends_at, remaining, tournament.clock_hands)


def clock_now(tournament: Tournament, now: dt.datetime) -> ClockView:
    """The clock as every screen shows it at ``now`` (``poker_room.pure.clock.clock_at``)."""
    spans = tournament_spans(tournament)
    return clock.clock_at(tournament_clock_state(tournament, spans), spans, now)


def level_number(levels: Sequence[Level], index: int) -> int:
    """The director's number of the level at row ``index``: blind levels counted, breaks not. A break counts as
    the level before it ("the break after level 4" is 4): what late registration and rebuys compare with, so a
    period "until the end of level 4" includes the break after it, as card rooms run it."""
    return sum(1 for level in levels[: index + 1] if not level.is_break)


def current_level_number(tournament: Tournament, now: dt.datetime) -> int:
    """The level the tournament is in at ``now``, as the director counts (``level_number``); 1 before the start."""
    levels = tournament_levels(tournament)
    spans = level_spans(levels)
    if not spans:
        return 1
    view = clock.clock_at(tournament_clock_state(tournament, spans), spans, now)
    return max(1, level_number(levels, view.level))


# --- the director's changes --------------------------------------------------------------------------------------


def _refusal(error: ClockError, *, action: str, by: int = 0, seconds: int = 0) -> WrongState:
    """The clock's refusal in the director's words (translated)."""
    message = str(error)
    if message in _CLOCK_REFUSALS:
        return WrongState(_(message), extra={"action": action})
    if message.startswith("There are not "):  # a skip beyond the first or the last level
        text = (
            _("There are not %(count)s levels after this one to skip forward.")
            if by > 0
            else _("There are not %(count)s levels before this one to skip back.")
        )
        return WrongState(text % {"count": abs(by)}, extra={"action": action, "by": by})
    if message.startswith(("Removing ", "A level of ")):  # an adjustment beyond the clock's limits
        text = (
            _("Removing %(seconds)s seconds leaves less than a second of this level: skip to the next level instead.")
            if seconds < 0
            else _("Adding %(seconds)s seconds makes this level more than an hour longer than its length.")
        )
        return WrongState(text % {"seconds": abs(seconds)}, extra={"action": action, "seconds": seconds})
    return WrongState(_(message), extra={"action": action})


class ClockRecord(TypedDict):
    """The clock at an instant as the audit trail keeps it: the row of the structure (1 first) and the director's
    level number, the instant the level ends (running; ISO-8601, UTC) and the time left at that instant, the hands
    played."""

    status: str
    row: int
    level: int
    is_break: bool
    ends_at: str | None
    remaining_ms: int | None
    hands_played: int


def _record(state: ClockState, spans: Sequence[LevelSpan], levels: Sequence[Level], now: dt.datetime) -> ClockRecord:
    view = clock.clock_at(state, spans, now)
    return {
        "status": str(state.status),
        "row": state.level + 1,
        "level": level_number(levels, state.level),
        "is_break": spans[state.level].is_break,
        "ends_at": state.ends_at.astimezone(dt.UTC).isoformat(timespec="milliseconds") if state.ends_at else None,
        "remaining_ms": view.remaining_ms,
        "hands_played": state.hands_played,
    }


_CLOCK_FIELDS = ("clock_status", "clock_level", "clock_ends_at", "clock_remaining_ms", "clock_hands")


def _store(tournament: Tournament, state: ClockState) -> None:
    tournament.clock_status = str(state.status)
    tournament.clock_level = state.level
    tournament.clock_ends_at = state.ends_at
    tournament.clock_remaining_ms = state.remaining_ms
    tournament.clock_hands = state.hands_played
    tournament.save(update_fields=list(_CLOCK_FIELDS))


Change = Callable[[ClockState, Sequence[LevelSpan], dt.datetime], ClockState]


def _clock_change(
    *,
    actor: User | None,
    tournament: Tournament,
    action: str,
    change: Change,
    now: dt.datetime | None,
    detail: dict[str, Any] | None = None,
) -> Tournament:
    """Lock, settle, change, store, audit and publish (the module's docstring); the tournament as stored."""
    require_role(actor, *TOURNAMENT_RUNNERS, action="run a tournament's clock")
    now = timezone.now() if now is None else now
    detail = detail or {}
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status == Tournament.Status.FINISHED:
            raise WrongState(_("%(name)s has finished: its clock is stopped for good.") % {"name": locked.name})
        levels = tournament_levels(locked)
        spans = level_spans(levels)
        if not spans:
            raise WrongState(_("%(name)s has no structure yet: set its levels first.") % {"name": locked.name})
        try:
            settled = clock.clock_settle(tournament_clock_state(locked, spans), spans, now)
            after = change(settled, spans, now)
        except ClockError as error:
            raise _refusal(error, action=action, **detail) from None
        before_record = _record(settled, spans, levels, now)
        _store(locked, after)
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.TOURNAMENT_CLOCK,
            subject=locked,
            before=before_record,
            after={"action": action, **detail, **_record(after, spans, levels, now)},
            rows=[locked],
        )
        live.tournament_changed(locked)
    # The caller's instance too: a service that goes on to save it (the tournament's start) must not write the
    # clock it read before back over the one stored here.
    for field in (*_CLOCK_FIELDS, "version"):
        setattr(tournament, field, getattr(locked, field))
    return locked


def clock_start(*, actor: User | None, tournament: Tournament, now: dt.datetime | None = None) -> Tournament:
    """Start the clock: the first level (or the level and time the director set before the start) begins now."""
    return _clock_change(
        actor=actor,
        tournament=tournament,
        action="start",
        now=now,
        change=lambda s, sp, n: clock.clock_start(sp, n, state=s),
    )


def clock_pause(*, actor: User | None, tournament: Tournament, now: dt.datetime | None = None) -> Tournament:
    """Pause the clock: what is left of the level at ``now`` is kept."""
    return _clock_change(actor=actor, tournament=tournament, action="pause", now=now, change=clock.clock_pause)


def clock_resume(*, actor: User | None, tournament: Tournament, now: dt.datetime | None = None) -> Tournament:
    """Resume the clock: the level ends what was left of it after ``now``."""
    return _clock_change(actor=actor, tournament=tournament, action="resume", now=now, change=clock.clock_resume)


def _whole(value: object, *, field: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value == 0:
        raise ApplicationError(
            _("%(what)s is a whole number other than 0, not %(value)s.") % {"what": what, "value": repr(value)},
            extra={"field": field},
        )
    return value


def clock_skip(*, actor: User | None, tournament: Tournament, by: int, now: dt.datetime | None = None) -> Tournament:
    """Skip ``by`` rows of the structure forward (positive) or back (negative), breaks included; the new level
    starts with its full length, and the clock keeps running or stays paused."""
    by = _whole(by, field="by", what=_("The number of levels to skip"))
    return _clock_change(
        actor=actor,
        tournament=tournament,
        action="skip",
        now=now,
        detail={"by": by},
        change=lambda s, sp, n: clock.clock_skip(s, sp, n, by),
    )


def clock_adjust(
    *, actor: User | None, tournament: Tournament, seconds: int, now: dt.datetime | None = None
) -> Tournament:
    """Add ``seconds`` to the level (positive) or take them away (negative); the clock keeps at least a second and
    at most the level's length plus an hour (``poker_room.pure.clock.clock_adjust``)."""
    seconds = _whole(seconds, field="seconds", what=_("The seconds to add or remove"))
    if abs(seconds) > MOST_SECONDS:
        raise ApplicationError(
            _("Add or remove at most %(most)s seconds (a day), not %(seconds)s.")
            % {"most": MOST_SECONDS, "seconds": seconds},
            extra={"field": "seconds"},
        )
    return _clock_change(
        actor=actor,
        tournament=tournament,
        action="adjust",
        now=now,
        detail={"seconds": seconds},
        change=lambda s, sp, n: clock.clock_adjust(s, sp, n, seconds * 1000),
    )


def clock_hand(*, actor: User | None, tournament: Tournament, now: dt.datetime | None = None) -> Tournament:
    """A hand finished in a hands-counted level (MSOP Heads Up: the blinds go up every 7th hand)."""
    return _clock_change(actor=actor, tournament=tournament, action="hand", now=now, change=clock.clock_hand)
