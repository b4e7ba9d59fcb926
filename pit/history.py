"""A table's round history on the dashboard: its rounds, newest first, with settlements and ledger entries."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TypedDict

from django.core.paginator import Page, Paginator
from django.db.models import Prefetch

from ledger.models import Posting
from rounds.models import Adjustment, Round
from rounds.results import SettlementResult, is_points, posting_hands, posting_result, settled_hands
from rounds.selectors import round_postings, round_queryset, rounds_postings_read
from rules.faces import PositionHand, positions_faces
from rules.games import registry
from settlement.selectors import settlement_in_force
from tables.models import Table

# --- a table's round history ----------------------------------------------------------------------

HISTORY_PAGE_SIZE = 20


class HistorySeatLine(TypedDict):
    """A seat's line in a round's history, the banked and the points games alike: ``wager_cents`` is the stake (a
    point's value in the points games), ``outcome`` None in the points games (``points`` says how the seat did),
    ``fee_cents`` the commission or the rake the seat paid."""

    seat: int
    wager_cents: int | None
    outcome: str | None
    points: int | None
    fouled: bool
    won_cents: int
    fee_cents: int
    net_cents: int


@dataclass(frozen=True)
class RoundHistory:
    """One round of a table's history: its settlement in force (if any) and every posting with its entries."""

    round: Round
    settlement: Posting | None
    postings: list[Posting]
    adjustments: list[Adjustment]

    @property
    def result(self) -> SettlementResult | None:
        """The settlement's result (``rounds.results.posting_result``); None before the round settles."""
        return posting_result(self.settlement) if self.settlement is not None else None

    @property
    def seat_lines(self) -> list[HistorySeatLine]:
        """The settlement's line for each seat, in seat order (read with care: a row written by an older version may
        lack a key)."""
        result = self.result
        if result is None:
            return []
        if is_points(result):
            return [
                {
                    "seat": line["seat"],
                    "wager_cents": line.get("stake_cents"),
                    "outcome": None,
                    "points": line.get("points"),
                    "fouled": line.get("fouled", False),
                    "won_cents": line["won_cents"],
                    "fee_cents": line.get("rake_cents", 0),
                    "net_cents": line["net_cents"],
                }
                for line in sorted(result["seats"], key=lambda line: line["seat"])
            ]
        return [
            {
                "seat": line["seat"],
                "wager_cents": line.get("wager_cents"),
                "outcome": line.get("outcome"),
                "points": None,
                "fouled": line.get("fouled", False),
                "won_cents": line["won_cents"],
                "fee_cents": line.get("commission_cents", 0),
                "net_cents": line["net_cents"],
            }
            for line in sorted(result["seats"], key=lambda line: line["seat"])
        ]

    @property
    def house_fee_cents(self) -> int:
        house = self.result["house"] if self.result is not None else None
        return house.get("commission_cents", 0) + house.get("rake_cents", 0) if house is not None else 0

    @property
    def pending(self) -> bool:
        """Whether a void or correction request of the round waits for a supervisor."""
        return any(request.status == Adjustment.Status.PENDING for request in self.adjustments)

    @property
    def tiles(self) -> bool:
        return registry.game(self.round.table.game).tiles

    @property
    def hands(self) -> list[PositionHand]:
        """The hands the round stands on, drawn: the settlement in force's (a correction's, when corrected), else
        the hands revealed so far."""
        return positions_faces(settled_hands(self.round, self.settlement), tiles=self.tiles)

    @property
    def first_hands(self) -> list[PositionHand]:
        """A corrected round's hands as it was first settled (what the dispute was about); empty otherwise."""
        if not self.corrected:
            return []
        first = next(p for p in self.postings if p.kind == Posting.Kind.SETTLEMENT)
        return positions_faces(posting_hands(first), tiles=self.tiles)

    @property
    def corrected(self) -> bool:
        return self.settlement is not None and self.settlement.corrects_id is not None

    @property
    def ledger_total_cents(self) -> int:
        return sum(entry.amount_cents for posting in self.postings for entry in posting.entries_read)

    def player_totals(self) -> dict[str, int]:
        """Each account's net on the round (players and bankers by seat number)."""
        totals: dict[str, int] = defaultdict(int)
        for posting in self.postings:
            for entry in posting.entries_read:
                key = f"{entry.account} {entry.seat_number}" if entry.seat_id else entry.account
                totals[key] += entry.amount_cents
        return dict(totals)


def table_round_history(*, table: Table, page: int | str | None = 1) -> tuple[Page[Round], list[RoundHistory]]:
    """A table's rounds, newest first, a page at a time, each with its settlement and ledger entries.

    A fixed number of queries a page: the count, the rounds, their wagers, postings, entries and requests.
    """
    rounds = (
        round_queryset()
        .select_related("shift")  # a closed shift's rounds are offered no correction
        .filter(table=table)
        .prefetch_related(
            Prefetch(
                "adjustments",
                queryset=Adjustment.objects.select_related("requested_by", "decided_by").order_by("requested_at"),
            )
        )
        .order_by("-number")
    )
    paginated = Paginator(rounds, HISTORY_PAGE_SIZE).get_page(page)
    rounds_postings_read(paginated.object_list)
    history = [
        RoundHistory(
            round=round_,
            settlement=settlement_in_force(round_),
            postings=round_postings(round_),
            adjustments=list(round_.adjustments.all()),
        )
        for round_ in paginated.object_list
    ]
    return paginated, history
