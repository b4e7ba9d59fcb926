"""Writes on players and their rating sessions. Each in one transaction with its audit event, which names
the player by id and tier only (a player may be anonymised later: the trail must not hold their name).

* ``player_create``: the table's staff enrol a player (card number, name, tier) or an anonymous one (a tier only).
* ``player_anonymise``: a supervisor blanks a player's name and card number on their request; sessions, ledger and
  audit trail stay as they are.
* ``session_start`` / ``session_pause`` / ``session_resume`` / ``session_move`` / ``session_end``: a player seated for
  a rating session, a break (the clock stops), a move to another table (one session continues), and the end, with
  what they walked with.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit_event_record
from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.events import AuditEventType
from casino.roles import SUPERVISORS, TABLE_STAFF, require_role
from players.models import Player, RatingPause, RatingSeat, RatingSession
from rounds.models import Wager
from rounds.states import FINAL_STATES
from tables.live import table_changed
from tables.models import Table
from tables.permissions import require_act_at_table

MOST_NAME = 120
MOST_CARD = 32


def _person(actor: User | None, what: str) -> User:
    if actor is None:
        raise NotAllowed(_("%(what)s is done by a person.") % {"what": what})
    return actor


def _tier(tier: object) -> str:
    tiers = settings.TABLESIDE_PLAYER_TIERS
    if not isinstance(tier, str) or tier not in tiers:
        raise ApplicationError(
            _("The tiers are %(tiers)s, not %(tier)s.") % {"tiers": ", ".join(tiers), "tier": repr(tier)},
            extra={"field": "tier"},
        )
    return tier


def _text(value: object, *, field: str, what: str, most: int) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ApplicationError(
            _("%(what)s is text, not %(value)s.") % {"what": what, "value": repr(value)}, extra={"field": field}
        )
    text = " ".join(value.split())
    if len(text) > most:
        raise ApplicationError(
            _("%(what)s is at most %(most)s characters.") % {"what": what, "most": most}, extra={"field": field}
        )
    return text


MOST_CENTS = 10**12  # ten billion in money: beyond it, a key was held down


def _cents_from_zero(value: object, *, field: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MOST_CENTS:
        raise ApplicationError(
            _("%(what)s is a whole number of cents from 0 to %(most)s, not %(value)s.")
            % {"what": what, "most": MOST_CENTS, "value": repr(value)},
            extra={"field": field},
        )
    return value


def _player_record(player: Player) -> dict[str, Any]:
    """The player as the audit trail records them: never their name or card number."""
    return {"player": player.pk, "tier": player.tier, "anonymous": player.anonymous}


def player_create(
    *, actor: User | None, tier: str, name: str = "", card_number: str = "", anonymous: bool = False
) -> Player:
    """Enrol a player: a name and a card number (optional), or anonymous (a tier only)."""
    person = _person(actor, _("Enrolling a player"))
    require_role(person, *TABLE_STAFF, action="enrol a player")
    tier = _tier(tier)
    name = _text(name, field="name", what=_("The name"), most=MOST_NAME)
    card = _text(card_number, field="card_number", what=_("The card number"), most=MOST_CARD)
    if anonymous and (name or card):
        raise ApplicationError(_("An anonymous player has no name and no card number."), extra={"field": "anonymous"})
    if not anonymous and not name:
        raise ApplicationError(_("Say the player's name, or enrol them as anonymous."), extra={"field": "name"})
    try:
        with transaction.atomic():
            player = Player.objects.create(
                tier=tier, name=name, card_number=card or None, anonymous=anonymous, created_by=person
            )
            audit_event_record(
                actor=person,
                event_type=AuditEventType.PLAYER_CREATED,
                subject=player,
                after=_player_record(player),
                rows=[player],
            )
    except IntegrityError as exc:
        raise WrongState(
            _("Card number %(card)s belongs to another player.") % {"card": card}, extra={"field": "card_number"}
        ) from exc
    return player


def player_anonymise(*, actor: User | None, player: Player) -> Player:
    """A supervisor anonymises a player on their request: the name and card number are blanked; the sessions, the
    ledger and the audit trail (which never held them) stay as they are."""
    person = _person(actor, _("Anonymising a player"))
    require_role(person, *SUPERVISORS, action="anonymise a player")
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if locked.anonymised_at is not None:
            raise WrongState(_("This player is anonymised already."))
        locked.name, locked.card_number, locked.anonymous = "", None, True
        locked.anonymised_at = timezone.now()
        locked.save(update_fields=["name", "card_number", "anonymous", "anonymised_at"])
        audit_event_record(
            actor=person,
            event_type=AuditEventType.PLAYER_ANONYMISED,
            subject=locked,
            after=_player_record(locked),
            rows=[locked],
        )
    return locked


def _seat_free(table: Table, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= table.seat_count:
        raise ApplicationError(
            _("Table %(table)s has seats 1 to %(seats)s, not %(seat)s.")
            % {"table": table.name, "seats": table.seat_count, "seat": repr(seat)},
            extra={"field": "seat"},
        )
    taken = RatingSeat.objects.filter(table=table, seat_number=seat, ended_at__isnull=True).first()
    if taken is not None:
        raise WrongState(
            _("Seat %(seat)s at table %(table)s is rated for another player already.")
            % {"seat": seat, "table": table.name}
        )
    return seat


def _no_wager_in_play(table: Table, seat: int) -> None:
    """Refuse a rated seat's change while the seat has a wager in a round not settled yet: the round is credited to
    whoever is rated there when it settles, so a player does not sit down, leave, move or take a break mid-round."""
    playing = (
        Wager.objects.filter(round__table_id=table.pk, seat__number=seat)
        .exclude(round__state__in=FINAL_STATES)
        .values_list("round__number", flat=True)
        .first()
    )
    if playing is not None:
        raise WrongState(
            _("Seat %(seat)s of table %(table)s has a wager in round %(round)s: wait until it is settled or voided.")
            % {"seat": seat, "table": table.name, "round": playing},
            extra={"field": "seat"},
        )


def _locked(session: RatingSession) -> RatingSession:
    return RatingSession.objects.select_for_update().select_related("player").get(pk=session.pk)


def _seat_now(session: RatingSession) -> RatingSeat:
    return RatingSeat.objects.select_related("table").get(session=session, ended_at__isnull=True)


def _session_record(session: RatingSession, seat: RatingSeat | None, **extra: Any) -> dict[str, Any]:
    record = {**_player_record(session.player), "session": session.pk, "status": session.status}
    if seat is not None:
        record.update({"table": seat.table.name, "seat": seat.seat_number})
    record["seconds_played"] = session.seconds_played
    return {**record, **extra}


def _run_clock(session: RatingSession, now: dt.datetime) -> None:
    """Add the time since the clock last started to what was played, and stop it."""
    if session.running_since is not None:
        session.seconds_played += max(0, int((now - session.running_since).total_seconds()))
        session.running_since = None


def _pauses_end(session: RatingSession, now: dt.datetime) -> list[RatingPause]:
    """End the session's break that is running (if any): the rows changed."""
    ended = list(RatingPause.objects.filter(session=session, ended_at__isnull=True))
    for pause in ended:
        pause.ended_at = now
        pause.save(update_fields=["ended_at"])
    return ended


def session_start(
    *, actor: User | None, player: Player, table: Table, seat: int, chips_cents: int = 0
) -> RatingSession:
    """Seat ``player`` at ``seat`` of ``table`` for a rating session: the clock starts. ``chips_cents``: chips they
    brought from elsewhere (cash and markers they buy in with at the seat are counted as they are recorded)."""
    person = _person(actor, _("Seating a player"))
    chips_cents = _cents_from_zero(chips_cents, field="chips_cents", what=_("The chips a player brings"))
    require_act_at_table(person, table, action="seat a rated player")
    if table.status != Table.Status.OPEN:
        raise WrongState(_("Table %(table)s is closed: a player is seated at an open table.") % {"table": table.name})
    seat = _seat_free(table, seat)
    _no_wager_in_play(table, seat)
    now = timezone.now()
    try:
        with transaction.atomic():
            session = RatingSession.objects.create(
                player=player, started_at=now, started_by=person, running_since=now, chips_in_cents=chips_cents
            )
            placed = RatingSeat.objects.create(session=session, table=table, seat_number=seat, started_at=now)
            audit_event_record(
                actor=person,
                event_type=AuditEventType.RATING_STARTED,
                subject=session,
                after=_session_record(session, placed, chips_in_cents=chips_cents),
                rows=[session, placed],
            )
            table_changed(table.pk)
    except IntegrityError as exc:  # the player's session or the seat was taken at the same moment
        raise WrongState(
            _("This player is in a rating session already, or the seat was taken at the same moment: reload.")
        ) from exc
    return session


def session_pause(*, actor: User | None, session: RatingSession) -> RatingSession:
    """The player takes a break: the clock stops; the seat stays theirs."""
    person = _person(actor, _("A break"))
    with transaction.atomic():
        locked = _locked(session)
        seat = _seat_now(locked) if locked.status != RatingSession.Status.ENDED else None
        if seat is not None:
            require_act_at_table(person, seat.table, action="rate a player")
        if locked.status != RatingSession.Status.PLAYING:
            raise WrongState(
                _("This session is %(status)s: only a session playing takes a break.")
                % {"status": locked.get_status_display()}
            )
        assert seat is not None
        _no_wager_in_play(seat.table, seat.seat_number)
        now = timezone.now()
        _run_clock(locked, now)
        locked.status = RatingSession.Status.PAUSED
        locked.save(update_fields=["status", "seconds_played", "running_since"])
        pause = RatingPause.objects.create(session=locked, started_at=now)
        audit_event_record(
            actor=person,
            event_type=AuditEventType.RATING_PAUSED,
            subject=locked,
            after=_session_record(locked, seat),
            rows=[locked, pause],
        )
        table_changed(seat.table_id)
    return locked


def session_resume(*, actor: User | None, session: RatingSession) -> RatingSession:
    """Back from the break: the clock runs again."""
    person = _person(actor, _("A return from a break"))
    with transaction.atomic():
        locked = _locked(session)
        if locked.status != RatingSession.Status.PAUSED:
            raise WrongState(
                _("This session is %(status)s: only a session on a break resumes.")
                % {"status": locked.get_status_display()}
            )
        seat = _seat_now(locked)
        require_act_at_table(person, seat.table, action="rate a player")
        _no_wager_in_play(seat.table, seat.seat_number)  # a wager placed at the seat during the break is not theirs
        now = timezone.now()
        ended = _pauses_end(locked, now)
        locked.status, locked.running_since = RatingSession.Status.PLAYING, now
        locked.save(update_fields=["status", "running_since"])
        audit_event_record(
            actor=person,
            event_type=AuditEventType.RATING_RESUMED,
            subject=locked,
            after=_session_record(locked, seat),
            rows=[locked, *ended],
        )
        table_changed(seat.table_id)
    return locked


def session_move(*, actor: User | None, session: RatingSession, table: Table, seat: int) -> RatingSession:
    """The player moves to ``seat`` of ``table``: the same session continues there (its clock keeps running)."""
    person = _person(actor, _("Moving a player"))
    require_act_at_table(person, table, action="seat a rated player")
    if table.status != Table.Status.OPEN:
        raise WrongState(_("Table %(table)s is closed: a player is seated at an open table.") % {"table": table.name})
    with transaction.atomic():
        locked = _locked(session)
        if locked.status == RatingSession.Status.ENDED:
            raise WrongState(_("This session has ended: start a new one."))
        here = _seat_now(locked)
        require_act_at_table(person, here.table, action="move a rated player")  # the table they leave is yours too
        if (here.table_id, here.seat_number) == (table.pk, seat):
            raise WrongState(
                _("The player sits at seat %(seat)s of table %(table)s already.") % {"seat": seat, "table": table.name}
            )
        seat = _seat_free(table, seat)
        if locked.status == RatingSession.Status.PLAYING:
            _no_wager_in_play(here.table, here.seat_number)
        _no_wager_in_play(table, seat)
        now = timezone.now()
        here.ended_at = now
        here.save(update_fields=["ended_at"])
        try:
            with transaction.atomic():
                placed = RatingSeat.objects.create(session=locked, table=table, seat_number=seat, started_at=now)
        except IntegrityError as exc:  # the seat was taken at the same moment by another tablet
            raise WrongState(
                _("Seat %(seat)s at table %(table)s was rated for another player at the same moment: reload.")
                % {"seat": seat, "table": table.name}
            ) from exc
        audit_event_record(
            actor=person,
            event_type=AuditEventType.RATING_MOVED,
            subject=locked,
            after=_session_record(locked, placed, moved_from={"table": here.table.name, "seat": here.seat_number}),
            rows=[locked, here, placed],
        )
        table_changed(here.table_id)
        table_changed(table.pk)
    return locked


def session_end(*, actor: User | None, session: RatingSession, walk_with_cents: int | None = None) -> RatingSession:
    """The player leaves: the clock stops for good and the seat is free; what they walked with is recorded."""
    person = _person(actor, _("Ending a session"))
    if walk_with_cents is not None:
        walk_with_cents = _cents_from_zero(walk_with_cents, field="walk_with_cents", what=_("What a player walks with"))
    with transaction.atomic():
        locked = _locked(session)
        if locked.status == RatingSession.Status.ENDED:
            raise WrongState(_("This session has ended already."))
        seat = _seat_now(locked)
        require_act_at_table(person, seat.table, action="rate a player")
        if locked.status == RatingSession.Status.PLAYING:
            _no_wager_in_play(seat.table, seat.seat_number)
        now = timezone.now()
        _run_clock(locked, now)
        ended = _pauses_end(locked, now)
        seat.ended_at = now
        seat.save(update_fields=["ended_at"])
        locked.status, locked.ended_at, locked.walk_with_cents = RatingSession.Status.ENDED, now, walk_with_cents
        locked.save(update_fields=["status", "ended_at", "walk_with_cents", "seconds_played", "running_since"])
        audit_event_record(
            actor=person,
            event_type=AuditEventType.RATING_ENDED,
            subject=locked,
            after=_session_record(locked, seat, walk_with_cents=walk_with_cents),
            rows=[locked, seat, *ended],
        )
        table_changed(seat.table_id)
    return locked
