"""The deals, Open-Face hands and heads-up matches held to the audit trail and to the rules, for ``verify_ledger``
(``poker_room.tournaments.verify``).

The guard triggers refuse any change to a deal, an Open-Face hand or a decided match as the application; an attacker
who gets past them (the database's owner, triggers switched off) still leaves the audit trail as it was written (its
hash chain is checked by ``verify_audit``). Here every such row is compared with the event that recorded it, and
what the rules say of it is worked out again:

* a deal: its method, stacks, prizes, reserve and amounts are those of its ``tournament.deal`` event; its amounts add
  up to the prizes left less the reserve; every player of the deal placed since was paid their amount (and the
  winner the reserve on top);
* an Open-Face hand: its boards, points, royalties and fouls are those of its ``tournament.ofc_hand`` event, and the
  engine (``rules.games.ofc.score``) scores its boards to exactly those points; a voided hand has its void event;
* a decided match: its winner is one of its two players, and its ``tournament.match`` event names that winner.

Each problem is one line in the dealer's or auditor's words, naming the row.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from casino.events import AuditEventType
from casino.models import AuditEvent
from casino.records import subject_type
from poker_room.deals.models import Deal
from poker_room.heads_up.models import Match
from poker_room.ofc_events.models import OfcHand
from poker_room.tournaments.models import Elimination, Tournament
from rules.games.errors import InvalidHand
from rules.games.ofc import Board, score

_SUBJECT = subject_type(Tournament)


def _events(event_type: AuditEventType, key: str, *, side: str = "after") -> dict[int, dict[str, Any]]:
    """The ``after`` (or ``before``) of every event of ``event_type`` by the row id it names under ``key``."""
    found: dict[int, dict[str, Any]] = {}
    for after in AuditEvent.objects.filter(event_type=event_type.value, subject_type=_SUBJECT).values_list(
        side, flat=True
    ):
        if isinstance(after, dict) and isinstance(after.get(key), int):
            found[after[key]] = after
    return found


def _as_numbers(mapping: object) -> dict[str, int] | None:
    if not isinstance(mapping, dict):
        return None
    try:
        return {str(key): int(value) for key, value in mapping.items()}
    except (TypeError, ValueError):
        return None


def _deals_check(problems: list[str]) -> None:
    events = _events(AuditEventType.TOURNAMENT_DEAL, "deal")
    for deal in Deal.objects.order_by("pk"):
        name = f"The deal of tournament {deal.tournament_id} (deal {deal.pk})"
        recorded = events.get(deal.pk)
        if recorded is None:
            problems.append(f"{name} has no audit event.")
            continue
        amounts = _as_numbers(deal.amounts)
        as_recorded = {
            "method": recorded.get("method") == deal.method,
            "stacks": _as_numbers(recorded.get("stacks")) == _as_numbers(deal.stacks),
            "prizes left": recorded.get("prizes_left_cents") == list(deal.prizes_left),
            "reserve": recorded.get("reserve_cents") == deal.reserve_cents,
            "amounts": _as_numbers(recorded.get("amounts_cents")) == amounts,
        }
        changed = [what for what, same in as_recorded.items() if not same]
        if changed:
            problems.append(f"{name}: its {', '.join(changed)} differ from its audit event.")
        if amounts is None:
            problems.append(f"{name}: its amounts cannot be read.")
            continue
        try:
            left = sum(int(cents) for cents in deal.prizes_left)
        except (TypeError, ValueError):
            problems.append(f"{name}: its prizes left cannot be read.")
            continue
        if sum(amounts.values()) != left - deal.reserve_cents:
            problems.append(
                f"{name}: its amounts add up to {sum(amounts.values())} cents, not the {left} cents left less the "
                f"reserve of {deal.reserve_cents}."
            )
        for elimination in Elimination.objects.filter(
            tournament_id=deal.tournament_id, status=Elimination.Status.IN_FORCE, created_at__gte=deal.created_at
        ).select_related("entry"):
            amount = amounts.get(str(elimination.entry.number))
            if amount is None:
                continue
            owed = amount + (deal.reserve_cents if elimination.place == 1 else 0)
            if elimination.prize_cents != owed:
                problems.append(
                    f"{name}: entry #{elimination.entry.number} placed {elimination.place} was paid "
                    f"{elimination.prize_cents} cents; the deal pays {owed}."
                )


def _rescored(hand: OfcHand) -> dict[str, int] | None:
    """The engine's points for the hand's boards, or None if they cannot be read or scored."""
    try:
        boards = {str(number): Board.from_rows(*rows) for number, rows in hand.boards.items()}
        tournament = Tournament.objects.only("ofc_royalties").get(pk=hand.tournament_id)
        return {
            player: int(points) for player, points in score(boards, royalties=tournament.ofc_royalties).totals.items()
        }
    except (InvalidHand, AttributeError, TypeError, ValueError):
        return None


def _ofc_hands_check(problems: list[str]) -> None:
    recorded = _events(AuditEventType.TOURNAMENT_OFC_HAND, "hand")
    voided = _events(AuditEventType.TOURNAMENT_OFC_HAND_VOIDED, "hand", side="before")
    for hand in OfcHand.objects.select_related("tournament").order_by("pk"):
        name = (
            f"Open-Face hand {hand.pk} (tournament {hand.tournament_id}, round {hand.round}, table "
            f"{hand.table_number}, hand {hand.hand})"
        )
        event = recorded.get(hand.pk)
        if event is None:
            problems.append(f"{name} has no audit event.")
        else:
            changed = [
                what for what in ("boards", "points", "royalties", "fouls") if event.get(what) != getattr(hand, what)
            ]
            if changed:
                problems.append(f"{name}: its {', '.join(changed)} differ from its audit event.")
        points = _rescored(hand)
        if points is None:
            problems.append(f"{name}: its boards cannot be scored.")
        elif points != _as_numbers(hand.points):
            problems.append(f"{name}: the engine scores its boards {points}, not the {hand.points} recorded.")
        if hand.status == OfcHand.Status.VOIDED and hand.pk not in voided:
            problems.append(f"{name} is voided with no audit event.")


def _matches_check(problems: list[str]) -> None:
    decisions: dict[int, list[Any]] = defaultdict(list)
    for after in AuditEvent.objects.filter(
        event_type=AuditEventType.TOURNAMENT_MATCH.value, subject_type=_SUBJECT
    ).values_list("after", flat=True):
        if isinstance(after, dict) and isinstance(after.get("match"), int):
            decisions[after["match"]].append(after.get("winner"))
    for match in Match.objects.filter(status=Match.Status.DECIDED).select_related("winner").order_by("pk"):
        name = f"Match {match.pk} (tournament {match.tournament_id}, round {match.round}, match {match.number})"
        winner = match.winner
        if winner is None or winner.pk not in (match.entry_a_id, match.entry_b_id):
            problems.append(f"{name} is decided for someone who did not play it.")
            continue
        if winner.number not in decisions.get(match.pk, []):
            problems.append(f"{name}: no audit event decided it for entry #{winner.number}.")


def tournament_records_check() -> list[str]:
    """The deals, Open-Face hands and decided matches held to their audit events and to the rules (the module's
    docstring)."""
    problems: list[str] = []
    _deals_check(problems)
    _ofc_hands_check(problems)
    _matches_check(problems)
    return problems
