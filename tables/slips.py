"""Fills and credits (DESIGN.md "The table's money"): chips between the cage and a table, on slips
serially numbered without gaps per kind.

* ``slip_request``: the table's dealer or a supervisor asks for a fill (chips to the table) or a credit (chips back
  to the cage), chips by denomination, in the open shift. The slip takes the kind's next number under the
  sequence's row lock, in its own transaction: a request that fails gives its number back, so none is skipped.
* ``slip_issue``: a Cage cashier issues it; never whoever requested it (segregation of duties).
* ``slip_sign``: two signatures at the table, the dealer's (the table's dealer, or a supervisor) and a
  supervisor's, two different people and never a Cage cashier; with both the slip is received.
* ``slip_void``: a Floor supervisor or Pit boss voids a slip not yet received, saying why; it keeps its number.
* ``slip_numbers``: every number of a kind accounted for, each used or voided, and any gap (there should be none).

Each write records its audit event; refusals say what is wrong and write nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from casino.audit import audit_event_record
from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.events import AuditEventType
from casino.roles import SUPERVISORS, Role, require_role, user_has_role
from casino.selectors import shift_current_held
from tables.live import table_changed
from tables.models import Counted, Slip, SlipSequence, Table
from tables.money import chips_post
from tables.permissions import can_act_at_table, require_act_at_table
from tables.tray import ChipsCounted, tray_counts_read


def _snapshot(slip: Slip) -> dict[str, object]:
    def name(user: User | None) -> str | None:
        return user.get_username() if user is not None else None

    return {
        "kind": slip.kind,
        "number": slip.number,
        "table": slip.table.name,
        "chips": slip.chips,
        "total_cents": slip.total_cents,
        "status": slip.status,
        "requested_by": name(slip.requested_by),
        "issued_by": name(slip.issued_by),
        "dealer_signed_by": name(slip.dealer_signed_by),
        "supervisor_signed_by": name(slip.supervisor_signed_by),
        "voided_by": name(slip.voided_by),
        "void_reason": slip.void_reason,
    }


def _person(actor: User | None, action: str) -> User:
    if actor is None:
        refusals = {
            "requested": _("A slip is requested by a person, who signs it."),
            "issued": _("A slip is issued by a person, who signs it."),
            "signed": _("A slip is signed by a person, who signs it."),
            "voided": _("A slip is voided by a person, who signs it."),
        }
        raise NotAllowed(refusals[action])
    return actor


def _slip_name(slip: Slip) -> str:
    """The slip as a refusal names it mid-sentence: "fill slip 12", "credit slip 3" (``capfirst`` at the start)."""
    if slip.kind == Slip.Kind.FILL:
        return _("fill slip %(number)s") % {"number": slip.number}
    return _("credit slip %(number)s") % {"number": slip.number}


def slip_request(*, actor: User | None, table: Table, kind: str, chips: ChipsCounted) -> Slip:
    """Ask for a fill or a credit at ``table``, chips by denomination (as a tray is counted, none of them zero)."""
    if kind not in Slip.Kind.values:
        raise ApplicationError(
            _("A slip is a fill or a credit, not %(kind)s.") % {"kind": repr(kind)}, extra={"field": "kind"}
        )
    person = _person(actor, "requested")
    require_act_at_table(person, table, action=f"ask for a {kind}")
    counted = Counted({value: number for value, number in tray_counts_read(chips, field="chips").items() if number})
    fill = kind == Slip.Kind.FILL
    if not counted.numbers:
        raise ApplicationError(
            _("A fill moves at least one chip.") if fill else _("A credit moves at least one chip."),
            extra={"field": "chips"},
        )
    with transaction.atomic():
        # The table's row first, then the shift's (as a tray count takes them): a table closing, or the shift
        # closing, waits for the request under way, and a request during either waits and finds it closed.
        held = Table.objects.select_for_update(of=("self",)).get(pk=table.pk)
        if held.status != Table.Status.OPEN:
            raise WrongState(
                _("Table %(table)s is closed: open it before asking for a fill.") % {"table": held.name}
                if fill
                else _("Table %(table)s is closed: open it before asking for a credit.") % {"table": held.name}
            )
        shift = shift_current_held()
        if shift is None:
            raise WrongState(
                _("No shift is open: a supervisor opens one before a fill is asked for.")
                if fill
                else _("No shift is open: a supervisor opens one before a credit is asked for.")
            )
        SlipSequence.objects.get_or_create(kind=kind)
        sequence = SlipSequence.objects.select_for_update().get(kind=kind)
        sequence.last_number += 1
        sequence.save(update_fields=["last_number"])
        slip = Slip.objects.create(
            kind=kind,
            number=sequence.last_number,
            table=table,
            shift=shift,
            chips=counted.stored(),
            total_cents=counted.total_cents,
            requested_by=person,
            requested_at=timezone.now(),
        )
        audit_event_record(
            actor=person,
            event_type=AuditEventType.SLIP_REQUESTED,
            subject=slip,
            after=_snapshot(slip),
            rows=[sequence, slip],
        )
        table_changed(slip.table_id)
    return slip


def _locked(slip: Slip) -> Slip:
    return Slip.objects.select_for_update(of=("self",)).select_related("table").get(pk=slip.pk)


def _check_open(locked: Slip, action: str) -> None:
    if locked.status in (Slip.Status.RECEIVED, Slip.Status.VOIDED):
        refusals = {
            # Translators: %(slip)s is "Fill slip 12" or "Credit slip 3"; %(status)s "received and signed" or "voided".
            "issued": _("%(slip)s is %(status)s: it cannot be issued."),
            "signed": _("%(slip)s is %(status)s: it cannot be signed."),
            "voided": _("%(slip)s is %(status)s: it cannot be voided."),
        }
        raise WrongState(
            refusals[action] % {"slip": capfirst(_slip_name(locked)), "status": locked.get_status_display()}
        )


def slip_issue(*, actor: User | None, slip: Slip) -> Slip:
    """A Cage cashier issues a requested slip (the chips leave or reach the cage); never whoever requested it."""
    person = _person(actor, "issued")
    require_role(person, Role.CAGE_CASHIER, action="issue a fill or a credit")
    with transaction.atomic():
        locked = _locked(slip)
        _check_open(locked, "issued")
        if locked.status != Slip.Status.REQUESTED:
            raise WrongState(_("%(slip)s is already issued.") % {"slip": capfirst(_slip_name(locked))})
        if locked.requested_by_id == person.pk:
            raise NotAllowed(
                _("You asked for %(slip)s: another person issues it.") % {"slip": _slip_name(locked)},
                extra={"duties": "requested"},
            )
        before = _snapshot(locked)
        locked.status, locked.issued_by, locked.issued_at = Slip.Status.ISSUED, person, timezone.now()
        locked.save(update_fields=["status", "issued_by", "issued_at"])
        audit_event_record(
            actor=person,
            event_type=AuditEventType.SLIP_ISSUED,
            subject=locked,
            before=before,
            after=_snapshot(locked),
            rows=[locked],
        )
        table_changed(locked.table_id)
    return locked


def slip_sign(*, actor: User | None, slip: Slip) -> Slip:
    """Sign an issued slip at its table: first the dealer's signature (the table's dealer, or a supervisor standing
    in), then a supervisor's, two different people, never a Cage cashier. With both, the slip is received."""
    person = _person(actor, "signed")
    if user_has_role(person, Role.CAGE_CASHIER):
        raise NotAllowed(_("A Cage cashier does not sign at the table: the dealer and a supervisor sign the slip."))
    with transaction.atomic():
        locked = _locked(slip)
        _check_open(locked, "signed")
        if locked.status != Slip.Status.ISSUED:
            raise WrongState(
                _("%(slip)s is not issued yet: the cage issues it before it is signed at the table.")
                % {"slip": capfirst(_slip_name(locked))}
            )
        if not can_act_at_table(person, locked.table):
            raise NotAllowed(
                _("Table %(table)s is not your table: its dealer and a supervisor sign its slips.")
                % {"table": locked.table.name},
                extra={"table": locked.table.name},
            )
        if person.pk in (locked.dealer_signed_by_id, locked.supervisor_signed_by_id):
            raise WrongState(_("You already signed %(slip)s: a second person signs.") % {"slip": _slip_name(locked)})
        before = _snapshot(locked)
        if locked.dealer_signed_by_id is None:
            locked.dealer_signed_by = person
        elif user_has_role(person, *SUPERVISORS) or getattr(person, "is_superuser", False):
            locked.supervisor_signed_by = person
        else:
            raise NotAllowed(
                _("%(slip)s waits for a supervisor's signature.") % {"slip": capfirst(_slip_name(locked))},
                extra={"required_roles": [role.value for role in SUPERVISORS]},
            )
        fields = ["dealer_signed_by", "supervisor_signed_by"]
        after = {}
        if locked.dealer_signed_by_id is not None and locked.supervisor_signed_by_id is not None:
            locked.status, locked.received_at = Slip.Status.RECEIVED, timezone.now()
            fields += ["status", "received_at"]
            # Received: the chips moved between the cage and the tray, in the ledger with the slip.
            after["postings"] = [
                chips_post(
                    table=locked.table,
                    shift=locked.shift,
                    kind=locked.kind,
                    cents=locked.total_cents,
                    actor=person,
                    key=f"slip:{locked.kind}:{locked.number}",
                )
            ]
        locked.save(update_fields=fields)
        audit_event_record(
            actor=person,
            event_type=AuditEventType.SLIP_SIGNED,
            subject=locked,
            before=before,
            after={**_snapshot(locked), **after},
            rows=[locked],
        )
        table_changed(locked.table_id)
    return locked


def slip_void(*, actor: User | None, slip: Slip, reason: str) -> Slip:
    """Void a slip not yet received, saying why; it keeps its number. A requested slip is voided by a Floor
    supervisor or Pit boss; an issued one by a Cage cashier, once its chips are back at the cage (the chips left the
    cage with it: a void the cage did not see would leave them unaccounted for)."""
    person = _person(actor, "voided")
    require_role(person, *SUPERVISORS, Role.CAGE_CASHIER, action="void a slip")
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError(_("Say why the slip is voided."), extra={"field": "reason"})
    with transaction.atomic():
        locked = _locked(slip)
        _check_open(locked, "voided")
        if locked.status == Slip.Status.ISSUED and not (
            user_has_role(person, Role.CAGE_CASHIER) or getattr(person, "is_superuser", False)
        ):
            raise NotAllowed(
                _("%(slip)s is issued: the cage voids it once its chips are back at the cage.")
                % {"slip": capfirst(_slip_name(locked))},
                extra={"required_roles": [Role.CAGE_CASHIER.value]},
            )
        if locked.status == Slip.Status.REQUESTED and not (
            user_has_role(person, *SUPERVISORS) or getattr(person, "is_superuser", False)
        ):
            raise NotAllowed(
                _("%(slip)s is not issued yet: a Floor supervisor or Pit boss voids it.")
                % {"slip": capfirst(_slip_name(locked))},
                extra={"required_roles": [role.value for role in SUPERVISORS]},
            )
        before = _snapshot(locked)
        locked.status, locked.voided_by, locked.void_reason = Slip.Status.VOIDED, person, reason
        locked.save(update_fields=["status", "voided_by", "void_reason"])
        audit_event_record(
            actor=person,
            event_type=AuditEventType.SLIP_VOIDED,
            subject=locked,
            before=before,
            after=_snapshot(locked),
            reason=reason,
            rows=[locked],
        )
        table_changed(locked.table_id)
    return locked


@dataclass(frozen=True)
class SlipNumbers:
    """Every number of a kind, accounted for: ``used`` (not voided), ``voided``, and ``missing`` (a gap)."""

    kind: str
    used: list[int]
    voided: list[int]
    missing: list[int]


def slip_numbers(*, kind: str) -> SlipNumbers:
    """Every slip number of ``kind`` from 1 to the last given, each used or voided; any other is missing."""
    rows = dict(Slip.objects.filter(kind=kind).values_list("number", "status"))
    last = SlipSequence.objects.filter(kind=kind).values_list("last_number", flat=True).first() or 0
    return SlipNumbers(
        kind=kind,
        used=sorted(n for n, status in rows.items() if status != Slip.Status.VOIDED),
        voided=sorted(n for n, status in rows.items() if status == Slip.Status.VOIDED),
        missing=[n for n in range(1, last + 1) if n not in rows],
    )
