"""Reads of a round's settlement: the one in force, and what each account holds on the round."""

from __future__ import annotations

from typing import TypedDict

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


class RoundBalances(TypedDict):
    """Each account's net on a round, in cents: the players' and the banker's by seat number (as text)."""

    players: dict[str, int]
    banker: dict[str, int]
    house: int
    commission: int
    rake: int
    wagers: int


def round_balances(round_: Round) -> RoundBalances:
    """Each account's net on the round, from its entries: players and banker by seat."""
    players: dict[str, int] = {}
    banker: dict[str, int] = {}
    accounts = dict.fromkeys(("house", "commission", "rake", "wagers"), 0)
    for posting in round_postings(round_):
        for entry in posting.entries_read:
            if entry.account in ("player", "banker"):
                bucket = players if entry.account == "player" else banker
                bucket[str(entry.seat_number)] = bucket.get(str(entry.seat_number), 0) + entry.amount_cents
            else:
                accounts[entry.account] += entry.amount_cents
    return {
        "players": players,
        "banker": banker,
        "house": accounts["house"],
        "commission": accounts["commission"],
        "rake": accounts["rake"],
        "wagers": accounts["wagers"],
    }
