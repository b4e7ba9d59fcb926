"""Voids (a supervisor's act, with a reason), and the four eyes every void and correction is held to.

A void returns the wagers: every wager posting undone line for line by one ``void`` posting. Four eyes (DESIGN.md,
"Trust": whoever asked for or caused a void or correction cannot approve it): a supervisor voids a round directly
unless they are a party to it (``round_party``); then they ask, and another supervisor approves
(``settlement.services.corrections`` decides the requests). ``TABLESIDE_FOUR_EYES=0`` (a one-supervisor room) lifts
this; the shift and audit reports say so.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from casino.errors import ApplicationError, NotAllowed
from casino.events import AuditEventType
from casino.models import AuditEvent
from casino.records import subject_type
from casino.roles import SUPERVISORS, require_role
from ledger.lines import reversal_lines
from ledger.models import LedgerEntry, Posting
from ledger.services import post, posting_record
from rounds.models import Round, Wager
from rounds.services.play import round_seat_ids
from rounds.services.transitions import round_transition
from rounds.sql import round_lock
from rounds.states import RoundState, check_move

# --- four eyes ------------------------------------------------------------------------------------


def four_eyes_required() -> bool:
    """Whether a void or a correction needs a second person (``TABLESIDE_FOUR_EYES``, on unless a one-supervisor
    room turns it off): the one answer the services, the pit's page and the reports ask."""
    return bool(getattr(settings, "TABLESIDE_FOUR_EYES", True))


# A settlement in someone's name: the round's first settlement, or a correction (its reversal, its new settlement).
_SETTLING_POSTINGS = frozenset({Posting.Kind.SETTLEMENT.value, Posting.Kind.REVERSAL.value})
_SETTLING_EVENTS = frozenset({AuditEventType.ROUND_SETTLED.value, AuditEventType.ROUND_CORRECTED.value})


def round_party(*, user: User, round: Round) -> str | None:
    """What ``user`` did on ``round`` that makes them a party to it, or ``None`` (DESIGN.md, "Trust").

    ``"settled"``: a settlement or a correction is posted in their name, or they made the round's
    ``round.settled`` or ``round.corrected`` move. ``"dealt"``: they opened the round, took a wager on it, or
    made another of its moves (closed the betting, dealt, recorded the hands or the placements). Three reads:
    the round's postings, audit events and wagers in the user's name.
    """
    postings = set(Posting.objects.filter(round_id=round.pk, actor_id=user.pk).values_list("kind", flat=True))
    events = set(
        AuditEvent.objects.filter(
            subject_type=subject_type(Round), subject_id=str(round.pk), actor_id=user.pk
        ).values_list("event_type", flat=True)
    )
    if postings & _SETTLING_POSTINGS or events & _SETTLING_EVENTS:
        return "settled"
    if postings or events or round.opened_by_id == user.pk:
        return "dealt"
    return "dealt" if Wager.objects.filter(round=round, placed_by_id=user.pk).exists() else None


def require_second_person(
    *, actor: User | None, round: Round, kind: str, requested_by: User | None, asked: bool
) -> None:
    """Refuse ``actor`` carrying out a void or a correction (``kind``) of ``round`` they asked for
    (``requested_by``, when ``asked``: there is a request) or are a party to (``round_party``).

    Nothing is refused when four eyes are relaxed, or for the system itself (``actor`` ``None``).
    """
    if actor is None or not four_eyes_required():
        return
    if asked and requested_by is not None and requested_by.pk == actor.pk:
        raise NotAllowed(
            # Translators: kind is "void" or "correction" (English, as the API names it).
            _("You asked for this %(kind)s: another supervisor approves it.") % {"kind": kind},
            extra={"four_eyes": "asked"},
        )
    party = round_party(user=actor, round=round)
    if party is None:
        return
    then = (
        # Translators: kind is "void" or "correction" (English, as the API names it).
        _("another supervisor approves its %(kind)s") % {"kind": kind}
        if asked
        else _("ask for the %(kind)s; another supervisor approves it") % {"kind": kind}
    )
    raise NotAllowed(
        # Translators: party is "settled" or "dealt" (English, as the API's four_eyes names it).
        _("You %(party)s round %(round)s: %(then)s.") % {"party": party, "round": round.number, "then": then},
        extra={"four_eyes": party},
    )


# --- voids and corrections ------------------------------------------------------------------------


def void_round(*, actor: User | None, round: Round, reason: str, requested_by: User | None = None) -> Round:
    """Void a round not yet settled (a Floor supervisor's or Pit boss's act, with a reason); return its wagers.

    Every wager posting is undone line for line by one ``void`` posting. Four eyes: the supervisor is no
    party to the round (did not open it, take a wager on it or deal it); approving a request
    (``requested_by``, from ``adjustment_approve``), they are not who asked for it either.
    """
    require_role(actor, *SUPERVISORS, action="void a round")
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError(_("A round is voided only with a reason."), extra={"field": "reason"})
    with transaction.atomic():
        locked, standing = round_lock(round)
        check_move(locked.state, RoundState.VOIDED, round_number=locked.number, round_id=locked.pk)
        require_second_person(
            actor=actor, round=locked, kind="void", requested_by=requested_by, asked=requested_by is not None
        )
        entries = list(LedgerEntry.objects.filter(posting__round_id=locked.pk, posting__kind=Posting.Kind.WAGER))
        postings = []
        if entries:
            numbers = {pk: number for number, pk in round_seat_ids(locked).items()}
            postings.append(
                post(
                    round_id=locked.pk,
                    kind=Posting.Kind.VOID,
                    lines=reversal_lines(entries, numbers),
                    actor=actor,
                    seat_ids=round_seat_ids(locked),
                    reason=reason,
                )
            )
        return round_transition(
            standing=standing,
            actor=actor,
            round=locked,
            target=RoundState.VOIDED,
            reason=reason,
            money={"postings": [posting_record(p) for p in postings], "four_eyes": four_eyes_required()},
        )
