"""The deals, Open-Face hands and heads-up matches held to the rules, for ``verify_ledger``
(``poker_room.tournaments.verify``).

Every such row is an audited record (``casino.records``): ``verify_audit`` holds it to the audit event that last
wrote it, field by field, and names one removed or inserted past the application. What is checked here is what the
rules say of it, worked out again:

* a deal: its amounts add up to the prizes left less the reserve; every player of the deal placed since was paid
  their amount (and the winner the reserve on top);
* an Open-Face hand: the engine (``rules.games.ofc.score``) scores its boards to exactly its points;
* a decided match: its winner is one of its two players.

Each problem is one line in the dealer's or auditor's words, naming the row.
"""

from __future__ import annotations

from casino.records import subject_type
from poker_room.deals.models import Deal
from poker_room.heads_up.models import Match
from poker_room.ofc_events.models import OfcHand
from poker_room.tournaments.models import Elimination, Tournament
from rules.games.errors import InvalidHand
from rules.games.ofc import Board, score

_SUBJECT = subject_type(Tournament)


def _as_numbers(mapping: object) -> dict[str, int] | None:
    if not isinstance(mapping, dict):
        return None
    try:
        return {str(key): int(value) for key, value in mapping.items()}
    except (TypeError, ValueError):
        return None


def _deals_check(problems: list[str]) -> None:
    for deal in Deal.objects.order_by("pk"):
        name = f"The deal of tournament {deal.tournament_id} (deal {deal.pk})"
        amounts = _as_numbers(deal.amounts)
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
    for hand in OfcHand.objects.select_related("tournament").order_by("pk"):
        name = (
            f"Open-Face hand {hand.pk} (tournament {hand.tournament_id}, round {hand.round}, table "
            f"{hand.table_number}, hand {hand.hand})"
        )
        points = _rescored(hand)
        if points is None:
            problems.append(f"{name}: its boards cannot be scored.")
        elif points != _as_numbers(hand.points):
            problems.append(f"{name}: the engine scores its boards {points}, not the {hand.points} recorded.")


def _matches_check(problems: list[str]) -> None:
    for match in Match.objects.filter(status=Match.Status.DECIDED).order_by("pk"):
        if match.winner_id is None or match.winner_id not in (match.entry_a_id, match.entry_b_id):
            name = f"Match {match.pk} (tournament {match.tournament_id}, round {match.round}, match {match.number})"
            problems.append(f"{name} is decided for someone who did not play it.")


def tournament_records_check() -> list[str]:
    """The deals, Open-Face hands and decided matches held to the rules (the module's docstring)."""
    problems: list[str] = []
    _deals_check(problems)
    _ofc_hands_check(problems)
    _matches_check(problems)
    return problems
