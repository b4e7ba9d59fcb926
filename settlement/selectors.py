"""Reads on rounds, their wagers and their ledger postings."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404

from rules.games import registry
from settlement.models import Adjustment, LedgerEntry, Posting, Wager
from tables.models import Round
from tables.permissions import User, can_view_every_table, require_view_table, tables_visible_to
from tables.states import TRANSITIONS, RoundState


def round_queryset() -> QuerySet[Round]:
    """Rounds with their table, bank seat, wagers and postings (with entries) in a fixed number of queries."""
    return Round.objects.select_related(
        "table", "table__pit", "bank_seat", "opened_by", "house_wager__last_wager__round"
    ).prefetch_related(
        Prefetch("wagers", queryset=Wager.objects.select_related("seat").order_by("seat__number")),
        Prefetch(
            "postings",
            queryset=Posting.objects.select_related("actor")
            .prefetch_related(Prefetch("entries", queryset=LedgerEntry.objects.select_related("seat").order_by("pk")))
            .order_by("pk"),
        ),
    )


def round_get_for_action(*, round_id: int) -> Round:
    """One round with its table only, or 404: what a service needs before it locks and re-reads the round."""
    return get_object_or_404(Round.objects.select_related("table"), pk=round_id)


def round_get(*, round_id: int) -> Round:
    """One round, or 404."""
    return get_object_or_404(round_queryset(), pk=round_id)


def round_get_for_reader(*, round_id: int, user: User) -> Round:
    """One round for ``user`` to read: 404 when there is none, 403 when it is at a table the user may not see
    (``tables.permissions.can_view_table``, the tablet's rule: a dealer reads the rounds of their own table)."""
    round_ = round_get(round_id=round_id)
    require_view_table(user, round_.table)
    return round_


# What the dealer may do next in each state (the tablet shows only these).
_NEXT_ACTIONS: dict[RoundState, tuple[str, ...]] = {
    RoundState.OPEN: ("wager", "close_betting"),
    RoundState.BETTING_CLOSED: ("deal",),
    RoundState.DEALT: ("hands",),
    RoundState.REVEALED: ("hands", "settle"),
    RoundState.SETTLED: ("correct",),
    RoundState.VOIDED: (),
}


def round_next_actions(round_: Round) -> list[str]:
    """The actions the round's state allows next; ``void`` while it is not yet settled."""
    state = RoundState(round_.state)
    actions = list(_NEXT_ACTIONS[state])
    if state == RoundState.DEALT and registry.game(round_.table.game).placed_by_street:
        actions = ["placements"]
    if RoundState.VOIDED in TRANSITIONS[state]:
        actions.append("void")
    return actions


def settlement_in_force(round_: Round) -> Posting | None:
    """The round's settlement that has not been reversed (from the prefetched postings)."""
    postings = list(round_.postings.all())
    reversed_ids = {p.reverses_id for p in postings if p.reverses_id}
    for posting in reversed(postings):
        if posting.kind == Posting.Kind.SETTLEMENT and posting.pk not in reversed_ids:
            return posting
    return None


def round_balances(round_: Round) -> dict[str, Any]:
    """Each account's net on the round, from the prefetched entries: players and banker by seat."""
    totals: dict[str, Any] = {"players": {}, "banker": {}, "house": 0, "commission": 0, "rake": 0, "wagers": 0}
    for posting in round_.postings.all():
        for entry in posting.entries.all():
            if entry.account in ("player", "banker"):
                bucket = totals["players" if entry.account == "player" else "banker"]
                bucket[str(entry.seat.number)] = bucket.get(str(entry.seat.number), 0) + entry.amount_cents
            else:
                totals[entry.account] += entry.amount_cents
    return totals


def adjustment_list(*, status: str | None = None, user: User = None) -> QuerySet[Adjustment]:
    """Void and correction requests (optionally of one status), newest first, with their round and people: those
    at the tables ``user`` may see (``tables.permissions.tables_visible_to``; ``None``, the system, sees all)."""
    rows = Adjustment.objects.select_related("round__table", "requested_by", "decided_by").order_by("-requested_at")
    if not can_view_every_table(user):
        rows = rows.filter(round__table__in=tables_visible_to(user))
    return rows.filter(status=status) if status else rows


def adjustment_get(*, adjustment_id: int) -> Adjustment:
    """One request, or 404."""
    return get_object_or_404(adjustment_list(), pk=adjustment_id)
