"""A round's states and the moves allowed between them, as data (DESIGN.md, "One round, end to end").

A round goes ``open → betting_closed → dealt → revealed → settled``; it may be
``voided`` from any state before ``settled`` (a supervisor's act, with a reason).
``settled`` and ``voided`` are final: a settled round is corrected by reversing
its ledger entries, never by moving it again.

Nothing here touches the database; ``rounds.services.round_transition`` is the one
service that applies a move, under a row lock, with its audit event.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from casino.errors import ApplicationError, WrongState


class RoundState(StrEnum):
    OPEN = "open"
    BETTING_CLOSED = "betting_closed"
    DEALT = "dealt"
    REVEALED = "revealed"
    SETTLED = "settled"
    VOIDED = "voided"


# The one table of allowed moves: from each state, the states a round may go to next.
TRANSITIONS: Mapping[RoundState, frozenset[RoundState]] = {
    RoundState.OPEN: frozenset({RoundState.BETTING_CLOSED, RoundState.VOIDED}),
    RoundState.BETTING_CLOSED: frozenset({RoundState.DEALT, RoundState.VOIDED}),
    RoundState.DEALT: frozenset({RoundState.REVEALED, RoundState.VOIDED}),
    RoundState.REVEALED: frozenset({RoundState.SETTLED, RoundState.VOIDED}),
    RoundState.SETTLED: frozenset(),
    RoundState.VOIDED: frozenset(),
}

FINAL_STATES: frozenset[RoundState] = frozenset(state for state, nexts in TRANSITIONS.items() if not nexts)
UNFINISHED_STATES: frozenset[RoundState] = frozenset(RoundState) - FINAL_STATES

# What a round "cannot be" in a refusal: "Round 12 is settled: it cannot be voided".
_PARTICIPLE: Mapping[RoundState, str] = {
    RoundState.OPEN: gettext_noop("opened again"),
    RoundState.BETTING_CLOSED: gettext_noop("closed to betting"),
    RoundState.DEALT: gettext_noop("dealt"),
    RoundState.REVEALED: gettext_noop("revealed"),
    RoundState.SETTLED: gettext_noop("settled"),
    RoundState.VOIDED: gettext_noop("voided"),
}


def _state(value: str, *, field: str) -> RoundState:
    try:
        return RoundState(value)
    except ValueError:
        names = ", ".join(state.value for state in RoundState)
        message = _("Unknown round state %(value)s: choose one of %(states)s.") % {
            "value": repr(value),
            "states": names,
        }
        raise ApplicationError(message, extra={"field": field}) from None


def can_move(current: str, target: str) -> bool:
    """Whether the transition table allows ``current → target``.

    >>> can_move("betting_closed", "dealt"), can_move("betting_closed", "settled")
    (True, False)
    """
    return RoundState(target) in TRANSITIONS[RoundState(current)]


def check_move(
    current: str, target: str, *, round_number: int | None = None, round_id: int | None = None
) -> RoundState:
    """Refuse a move the transition table does not allow, in the dealer's words; return the target state.

    Raises ``WrongState`` (409) for a move out of a final state, a move to the same
    state, or a skipped or backward step, naming the round (``extra``: its id, number and state);
    ``ApplicationError`` for an unknown state.
    """
    now = _state(current, field="state")
    then = _state(target, field="target")
    if then in TRANSITIONS[now]:
        return then
    name = _("Round %(number)s") % {"number": round_number} if round_number is not None else _("The round")
    extra = {"round_id": round_id, "round_number": round_number, "state": now.value}
    if now == then:
        raise WrongState(_("%(round)s is already %(state)s.") % {"round": name, "state": now.value}, extra=extra)
    if now in FINAL_STATES:
        raise WrongState(
            _("%(round)s is %(state)s: it cannot be %(done)s.")
            % {"round": name, "state": now.value, "done": _(_PARTICIPLE[then])},
            extra=extra,
        )
    (forward,) = TRANSITIONS[now] - {RoundState.VOIDED}
    raise WrongState(
        _("A round goes from %(state)s to %(next)s, not to %(target)s.")
        % {"state": now.value, "next": forward.value, "target": then.value},
        extra=extra,
    )
