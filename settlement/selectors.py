"""Reads of a round's settlement: the one in force, and what each account holds on the round."""

from __future__ import annotations

from typing import Any

from ledger.models import Posting
from rounds.models import Round
from rounds.selectors import round_postings


def settlement_in_force(round_: Round) -> Posting | None:
    """The round's settlement that has not been reversed."""
    postings = round_postings(round_)
    reversed_ids = {p.reverses_id for p in postings if p.reverses_id}
    for posting in reversed(postings):
        if posting.kind == Posting.Kind.SETTLEMENT and posting.pk not in reversed_ids:
            return posting
    return None


def round_balances(round_: Round) -> dict[str, Any]:
    """Each account's net on the round, from its entries: players and banker by seat."""
    totals: dict[str, Any] = {"players": {}, "banker": {}, "house": 0, "commission": 0, "rake": 0, "wagers": 0}
    for posting in round_postings(round_):
        for entry in posting.entries_read:  # type: ignore[attr-defined]
            if entry.account in ("player", "banker"):
                bucket = totals["players" if entry.account == "player" else "banker"]
                bucket[str(entry.seat_number)] = bucket.get(str(entry.seat_number), 0) + entry.amount_cents
            else:
                totals[entry.account] += entry.amount_cents
    return totals
