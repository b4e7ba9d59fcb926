"""A settlement's result: what the settle answered for a round, kept in its posting (``Posting.result``) and read by
the tablet, the ratings (``players``), the replay and the verifiers, the API and the reports (in SQL,
``pit.reports``).

``settlement.compute`` builds it; ``settlement_post`` writes it into the settlement's posting beside the hands it
settled, and ``posting_result`` reads it back, typed (``posting_hands`` the hands; ``settled_hands`` the hands a
round stands on). Amounts are integer cents.

* The banked games (``BankedResult``): a line a seat (``BankedSeatLine``, in action order), the player bank's
  (``BankLine``, None when the house banks), the house's totals (``HouseLine``) and, when the house wagers against a
  player bank, the house's own wager as a seat (``house_wager``).
* The points games and the tiles' peer variant (``PointsResult``): a line a seat (``PointsSeatLine``), every pair
  of seats (``PairLine``), no bank, and the house's rake (``HouseLine``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, NotRequired, TypeAlias, TypedDict, cast, final

from django.contrib.auth.models import User

from ledger.lines import Line
from ledger.models import Posting
from ledger.services import post
from rounds.models import Round
from rules.hands import StoredHands, stored_hands

if TYPE_CHECKING:
    from typing_extensions import TypeIs


@final
class BankedSeatLine(TypedDict):
    """A seat's wager settled against the bank: its place in the action order, the outcome (``win``, ``loss``,
    ``push``, or ``no_action`` for a wager the bank could not cover), what it won (negative: lost), the commission
    it paid and its net."""

    seat: int
    action_place: int
    wager_cents: int
    outcome: str
    won_cents: int
    commission_cents: int
    net_cents: int
    fouled: bool


class SeatMarks(TypedDict, total=False):
    """Chinese Poker's marks on a seat, written only when set: it surrendered, it swapped."""

    surrendered: bool
    swapped: bool


@final
class PointsSeatLine(TypedDict):
    """A seat of a points round: its value a point (``stake_cents``), its points and royalties, what it won
    (negative: lost) against every other seat, the rake it paid and its net."""

    seat: int
    stake_cents: int
    points: int
    royalties: int
    fouled: bool
    surrendered: NotRequired[bool]
    swapped: NotRequired[bool]
    won_cents: int
    rake_cents: int
    net_cents: int


SeatLine: TypeAlias = BankedSeatLine | PointsSeatLine


class PairScore(TypedDict):
    """Two seats of a points round scored against each other, the lower seat first: ``points`` is what ``seat``
    won from ``opponent`` (negative: lost). Chinese Poker adds the rows each won, its natural and the fouls (and its
    surrender and swap points, when any); Open-Face each row's points (``rows``: front, middle, back); the tiles'
    peer variant the outcome (``win``, ``loss``, ``push``)."""

    seat: int
    opponent: int
    points: int
    rows_won: NotRequired[int]
    rows_lost: NotRequired[int]
    natural: NotRequired[int]
    fouled: NotRequired[bool]
    opponent_fouled: NotRequired[bool]
    surrender: NotRequired[int]
    swap: NotRequired[int]
    rows: NotRequired[list[int]]
    outcome: NotRequired[str]


class PairLine(PairScore):
    """A pair as settled: at the smaller of the two seats' values (``stake_cents``) a point, ``cents`` to ``seat``."""

    stake_cents: int
    cents: int


class BankLine(TypedDict):
    """The player bank of a banked round: what it put up and covered, what it won (negative: lost), the commission
    it paid on a net win, and its net."""

    seat: int
    bank_cents: int | None
    covers_cents: int | None
    co_banking: bool
    won_cents: int
    commission_cents: int
    net_cents: int


class HouseLine(TypedDict):
    """What the house took: its bank's result, the commission and the rake; with its own wager against a player
    bank, what that wager won (``wager_won_cents``, counted in ``total_cents``)."""

    bank_won_cents: int
    commission_cents: int
    rake_cents: int
    total_cents: int
    wager_won_cents: NotRequired[int]


class BankedResult(TypedDict):
    seats: list[BankedSeatLine]
    bank: BankLine | None
    house: HouseLine
    house_wager: NotRequired[BankedSeatLine]


class PointsResult(TypedDict):
    seats: list[PointsSeatLine]
    pairs: list[PairLine]
    bank: None
    house: HouseLine


SettlementResult: TypeAlias = BankedResult | PointsResult


def is_points(result: BankedResult | PointsResult) -> TypeIs[PointsResult]:
    """Whether a result is a points round's (its pairs scored), not a banked round's."""
    return "pairs" in result


def settlement_post(
    *,
    round_id: int,
    lines: Iterable[Line],
    actor: User | None,
    seat_ids: Mapping[int, int],
    key: str,
    hands: StoredHands,
    result: SettlementResult,
    corrects: Posting | None = None,
    reason: str = "",
) -> Posting:
    """Write a round's settlement: its balanced ``lines`` as one posting keyed ``key``, holding the ``hands`` it
    settled and its ``result`` (the one place a result is written; ``corrects``: the settlement a correction
    replaces)."""
    return post(
        round_id=round_id,
        kind=Posting.Kind.SETTLEMENT,
        lines=lines,
        actor=actor,
        seat_ids=seat_ids,
        idempotency_key=key,
        hands=hands,
        result=result,
        corrects=corrects,
        reason=reason,
    )


def posting_result(posting: Posting) -> SettlementResult | None:
    """The result a settlement posting holds, as ``settlement_post`` wrote it; None for a posting that holds none (a
    wager, a void, a reversal) or a value that is not one (a row no service writes)."""
    return stored_result(posting.result)


def stored_result(value: object) -> SettlementResult | None:
    """A result as read from the posting's JSON column (``Posting.result``, or a ``values()`` row of it)."""
    if (
        not isinstance(value, dict)
        or not isinstance(value.get("seats"), list)
        or not isinstance(value.get("house"), dict)
    ):
        return None
    return cast(SettlementResult, value)  # written by ``settlement_post`` alone


def posting_hands(posting: Posting) -> StoredHands | None:
    """The hands a settlement posting was settled with, as ``settlement_post`` wrote them; None for a posting that
    holds none."""
    return stored_hands(posting.hands)


def settled_hands(round_: Round, settlement: Posting | None) -> StoredHands | None:
    """The hands a round stands on: those its settlement in force was settled with (a correction's, when
    corrected), else the hands revealed so far (``Round.hands``); None when there are none."""
    settled = posting_hands(settlement) if settlement is not None else None
    return settled if settled is not None else stored_hands(round_.hands)
