"""Writes on the floor: pits, gaming days and shifts. Each write records its audit event."""

from __future__ import annotations

import datetime as dt

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit_checkpoint_make, audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from casino.models import GamingDay, Pit, Shift
from casino.roles import SUPERVISORS, require_role
from casino.signals import shift_closed
from casino.users import Actor
from casino.vetoes import Vetoes


def _shift_snapshot(shift: Shift) -> dict[str, object]:
    return {
        "gaming_day": shift.gaming_day.business_date,
        "number": shift.number,
        "name": shift.name,
        "opened_at": shift.opened_at,
        "closed_at": shift.closed_at,
    }


def pit_create(*, actor: Actor | None, name: str) -> Pit:
    """Create a pit."""
    require_role(actor, *SUPERVISORS, action="create a pit")
    name = name.strip()
    if not name:
        raise ApplicationError(_("A pit needs a name."))
    with transaction.atomic():
        if Pit.objects.filter(name__iexact=name).exists():
            raise ApplicationError(_("There is already a pit called %(name)s.") % {"name": repr(name)})
        pit = Pit.objects.create(name=name)
        audit_event_record(actor=actor, event_type=AuditEventType.PIT_CREATED, subject=pit, after={"name": pit.name})
    return pit


def gaming_day_open(*, actor: Actor, business_date: dt.date) -> GamingDay:
    """Open the gaming day for ``business_date``. Only one gaming day is open at a time."""
    require_role(actor, *SUPERVISORS, action="open a gaming day")
    with transaction.atomic():
        current = GamingDay.objects.select_for_update().filter(closed_at__isnull=True).first()
        if current is not None:
            raise WrongState(_("%(day)s is still open: close it before opening another.") % {"day": current})
        if GamingDay.objects.filter(business_date=business_date).exists():
            raise WrongState(
                _("The gaming day %(date)s was already opened and closed.") % {"date": business_date.isoformat()}
            )
        day = GamingDay.objects.create(business_date=business_date, opened_at=timezone.now(), opened_by=actor)
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.GAMING_DAY_OPENED,
            subject=day,
            after={"business_date": business_date},
            rows=[day],
        )
    return day


def gaming_day_close(*, actor: Actor | None, gaming_day: GamingDay) -> GamingDay:
    """Close a gaming day once its last shift is closed."""
    require_role(actor, *SUPERVISORS, action="close a gaming day")
    with transaction.atomic():
        day = GamingDay.objects.select_for_update().get(pk=gaming_day.pk)
        if day.closed_at is not None:
            raise WrongState(_("%(day)s is already closed.") % {"day": day})
        if day.shifts.filter(closed_at__isnull=True).exists():
            raise WrongState(_("%(day)s still has an open shift: close it first.") % {"day": day})
        day.closed_at = timezone.now()
        day.closed_by = actor
        day.save(update_fields=["closed_at", "closed_by"])
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.GAMING_DAY_CLOSED,
            subject=day,
            before={"closed_at": None},
            after={"closed_at": day.closed_at},
            rows=[day],
        )
    return day


def shift_open(*, actor: Actor, name: str) -> Shift:
    """Open the next shift of the open gaming day."""
    require_role(actor, *SUPERVISORS, action="open a shift")
    name = name.strip()
    if not name:
        raise ApplicationError(_("A shift needs a name (for example Day, Swing or Graveyard)."))
    most = Shift._meta.get_field("name").max_length
    if len(name) > most:  # type: ignore[operator]
        raise ApplicationError(
            _("A shift's name is at most %(most)s characters, not %(count)s.") % {"most": most, "count": len(name)},
            extra={"field": "name"},
        )
    with transaction.atomic():
        day = GamingDay.objects.select_for_update().filter(closed_at__isnull=True).first()
        if day is None:
            raise WrongState(_("No gaming day is open: open one before opening a shift."))
        open_shift = day.shifts.filter(closed_at__isnull=True).first()
        if open_shift is not None:
            raise WrongState(
                _("The %(shift)s shift is still open: close it before opening another.") % {"shift": open_shift.name}
            )
        number = day.shifts.count() + 1
        try:
            with transaction.atomic():
                shift = Shift.objects.create(
                    gaming_day=day, number=number, name=name, opened_at=timezone.now(), opened_by=actor
                )
        except IntegrityError as exc:  # a concurrent open won the race
            raise WrongState(_("Another shift was opened at the same moment; reload and try again.")) from exc
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.SHIFT_OPENED,
            subject=shift,
            after=_shift_snapshot(shift),
            rows=[shift],
        )
    return shift


# Who may refuse a shift's close (``shift_close_vetoes.names()``): the tables (their money half done) and the rounds
# (a round still being played, a request still waiting), each registered by its app.
shift_close_vetoes: Vetoes[Shift] = Vetoes("close a shift")


def shift_close(*, actor: Actor | None, shift: Shift) -> Shift:
    """Close a shift. A closed shift never reopens, and no round opens in it (``rounds.services.round_open``
    takes the open shift only, under its row lock). A round belongs to exactly one shift, and its report: the close
    is refused while an app above says it cannot close yet (``shift_close_vetoes``, asked under the lock: a round
    still being played, a request still waiting, a slip not received). In the same transaction
    ``casino.signals.shift_closed`` is sent: the pit enqueues the Celery task that builds the shift's reports.
    """
    require_role(actor, *SUPERVISORS, action="close a shift")
    with transaction.atomic():
        locked = Shift.objects.select_for_update().select_related("gaming_day").get(pk=shift.pk)
        if locked.closed_at is not None:
            raise WrongState(_("The %(shift)s shift is already closed.") % {"shift": locked.name})
        shift_close_vetoes.check(locked)
        before = _shift_snapshot(locked)
        locked.closed_at = timezone.now()
        locked.closed_by = actor
        locked.save(update_fields=["closed_at", "closed_by"])
        audit_event_record(
            actor=actor,
            event_type=AuditEventType.SHIFT_CLOSED,
            subject=locked,
            before=before,
            after=_shift_snapshot(locked),
            rows=[locked],
        )
        # The chain's head, signed, as the shift closes: its reports print it (they leave the building).
        audit_checkpoint_make(reason="shift closed", shift=locked)
        # In the close's own transaction: the pit queues the reports' task in its outbox with the close, so a crash
        # between the commit and the publishing loses nothing (casino.outbox publishes once this commits).
        shift_closed.send(sender=Shift, shift=locked)
    return locked
