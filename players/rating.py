"""Rated play kept as it goes: what each settlement adds to the rating sessions seated at its table, and
the table's hold window. ``round_settled_rate`` is called by the settle and the correction
(``settlement.services``), ``buy_in_rate`` receives ``tables.signals.buy_in_recorded``, both inside the settle's (or
the buy-in's) own transaction: a round and what it added to a rating are written together or not at all.

A position's figures for one settlement (``position_figures``), from the posting's result and the round's frozen rule
set (``rules.edges``):

* a seat's wager that had action (a wager the bank could not cover is "no action": a row of zeros, so a correction
  that gives it action knows whose it is): its action is the wager, its win/loss the seat's net, its theo
  ``wager x the player's house edge``, its variance ``wager² x sd²``;
* a player bank: its action is the wagers it covered (half of them when co-banking), its win/loss the bank's net,
  theo and variance by the banker's edge and sd;
* the points games (and the tiles' peer mode): the action is the seat's value of a point, theo the rake the seat
  paid, no variance (the house has no edge against the player: nothing to alert on).

The table's hold window (``HoldRound``, ``TableHold``): a round's house win (bank, commission and rake) beside its
expectation, the sum of every position's theo. Its variance is an upper bound, ``(the house's share of the bank's
action)² x the player's sd²``: the seats play against one bank hand, so their results move together, and a bound
that counts them as one wager never raises an alarm the cards could explain.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count, F, Sum
from django.utils.translation import gettext

from casino.errors import WrongState
from casino.records import rows_pending
from ledger.models import Posting
from players.models import HoldRound, RatedBuyIn, RatedRound, RatingSeat, RatingSession, TableHold
from players.sql import hold_settled
from rounds.models import Round
from rounds.results import SettlementResult, is_points, posting_result
from rules.edges import PositionEdge, RuleSetEdges, rule_set_edges
from tables.models import BuyIn, Table

PLAYER, BANKER = RatedRound.Position.PLAYER, RatedRound.Position.BANKER


@dataclass(frozen=True)
class PositionFigures:
    """What one position (a seat's wager, or the bank at that seat) did in one settlement."""

    seat: int
    position: str
    action_cents: int
    win_loss_cents: int
    theo_millicents: int
    variance_cents2: float
    edge_ppm: int
    rounds: int = 1  # 0: a wager with no action (the bank could not cover it)


def _by_edge(seat: int, position: str, action: int, net: int, edge: PositionEdge) -> PositionFigures:
    return PositionFigures(
        seat=seat,
        position=position,
        action_cents=action,
        win_loss_cents=net,
        theo_millicents=round(action * edge.edge * 1000),
        variance_cents2=float(action) * action * edge.sd * edge.sd,
        edge_ppm=round(edge.edge * 1_000_000),
    )


def position_figures(result: SettlementResult | None, edges: RuleSetEdges) -> list[PositionFigures]:
    """Every position's figures in a settlement's ``result`` (see the module's docstring; none without one)."""
    if result is None:
        return []
    if is_points(result):  # a points game: theo is the rake the seat paid
        return [
            PositionFigures(
                seat=line["seat"],
                position=PLAYER,
                action_cents=line["stake_cents"],
                win_loss_cents=line["net_cents"],
                theo_millicents=line["rake_cents"] * 1000,
                variance_cents2=0.0,
                edge_ppm=0,
            )
            for line in result["seats"]
        ]
    player_edge, banker_edge = edges.player, edges.banker
    if player_edge is None or banker_edge is None:
        raise ValueError("a banked round's rule set gives no house edge for its players and its bank")
    figures = [
        _by_edge(line["seat"], PLAYER, line["wager_cents"], line["net_cents"], player_edge)
        if line["outcome"] != "no_action"
        else PositionFigures(line["seat"], PLAYER, 0, 0, 0, 0.0, round(player_edge.edge * 1_000_000), rounds=0)
        for line in result["seats"]
    ]
    bank = result["bank"]
    if bank is not None:
        covered = sum(f.action_cents for f in figures)
        action = covered // 2 if bank["co_banking"] else covered
        banker = _by_edge(bank["seat"], BANKER, action, bank["net_cents"], banker_edge)
        figures.append(banker if action else dataclasses.replace(banker, rounds=0))  # a bank that covered nothing
    return figures


def house_figures(
    result: SettlementResult | None, edges: RuleSetEdges, figures: Iterable[PositionFigures]
) -> HoldRound:
    """The round's house win beside its expectation (unsaved; see the module's docstring)."""
    figures = list(figures)
    players = [f for f in figures if f.position == PLAYER]
    action = sum(f.action_cents for f in players)
    variance = 0.0
    if edges.player is not None:
        bank = result["bank"] if result is not None else None
        share = 1.0 if bank is None else (0.5 if bank["co_banking"] else 0.0)
        variance = (share * action * edges.player.sd) ** 2
    return HoldRound(
        action_cents=action,
        house_win_cents=result["house"]["total_cents"] if result is not None else 0,
        theo_millicents=sum(f.theo_millicents for f in figures),
        variance_cents2=variance,
    )


def _rows(
    figures: Iterable[PositionFigures],
    sessions: Mapping[tuple[int, str], int],
    *,
    round: Round,
    posting: Any,
    sign: int,
) -> list[RatedRound]:
    return [
        RatedRound(
            session_id=sessions[(f.seat, f.position)],
            round=round,
            posting=posting,
            table_id=round.table_id,
            seat_number=f.seat,
            position=f.position,
            rounds=sign * f.rounds,
            action_cents=sign * f.action_cents,
            win_loss_cents=sign * f.win_loss_cents,
            theo_millicents=sign * f.theo_millicents,
            variance_cents2=sign * f.variance_cents2,
            edge_ppm=f.edge_ppm,
        )
        for f in figures
        if (f.seat, f.position) in sessions
    ]


@dataclass(frozen=True)
class KeptFigures:
    """What rated rounds add to a session's kept figures (``RatingSession``'s columns of these names): the rounds
    and the action as a player and as the banker, the win/loss, the theo and the variance."""

    rounds: int = 0
    banker_rounds: int = 0
    wagered_cents: int = 0
    banker_wagered_cents: int = 0
    win_loss_cents: int = 0
    theo_millicents: int = 0
    variance_cents2: float = 0.0

    def plus(
        self,
        *,
        position: str,
        rounds: int,
        action_cents: int,
        win_loss_cents: int,
        theo_millicents: int,
        variance_cents2: float,
    ) -> KeptFigures:
        """These figures with one position's added (a row, or the sum of a session's rows at one position)."""
        banker = position == BANKER
        return dataclasses.replace(
            self,
            rounds=self.rounds + (0 if banker else rounds),
            banker_rounds=self.banker_rounds + (rounds if banker else 0),
            wagered_cents=self.wagered_cents + (0 if banker else action_cents),
            banker_wagered_cents=self.banker_wagered_cents + (action_cents if banker else 0),
            win_loss_cents=self.win_loss_cents + win_loss_cents,
            theo_millicents=self.theo_millicents + theo_millicents,
            variance_cents2=self.variance_cents2 + variance_cents2,
        )

    def by_name(self) -> dict[str, float]:
        """Each figure by its column's name."""
        return dataclasses.asdict(self)


def _add_to_sessions(rows: list[RatedRound]) -> None:
    """Add each row to its session's kept figures (one UPDATE a session, with F expressions: no lost update)."""
    by_session: dict[int, KeptFigures] = {}
    for row in rows:
        by_session[row.session_id] = by_session.get(row.session_id, KeptFigures()).plus(
            position=row.position,
            rounds=row.rounds,
            action_cents=row.action_cents,
            win_loss_cents=row.win_loss_cents,
            theo_millicents=row.theo_millicents,
            variance_cents2=row.variance_cents2,
        )
    for session_id, kept in by_session.items():
        RatingSession.objects.filter(pk=session_id).update(
            **{name: F(name) + value for name, value in kept.by_name().items() if value}
        )


def hold_window_update(table_id: int) -> None:
    """Rewrite the table's hold window from its last ``TABLESIDE_HOLD_WINDOW_ROUNDS`` rounds."""
    last = (
        HoldRound.objects.filter(table_id=table_id)
        .order_by("-pk")
        .values("pk")[: settings.TABLESIDE_HOLD_WINDOW_ROUNDS]
    )
    sums = HoldRound.objects.filter(pk__in=last).aggregate(
        rounds=Count("pk"),
        action_cents=Sum("action_cents"),
        house_win_cents=Sum("house_win_cents"),
        theo_millicents=Sum("theo_millicents"),
        variance_cents2=Sum("variance_cents2"),
    )
    sums = {name: value or 0 for name, value in sums.items()}
    if not TableHold.objects.filter(table_id=table_id).update(**sums):
        TableHold.objects.create(table_id=table_id, **sums)


def sessions_playing_at(table_id: int) -> dict[int, int]:
    """Which rating session plays at which seat of the table now (``{seat number: session id}``); sessions on a
    break are not credited with a round played at their seat (the ORM twin of ``players.sql.hold_settled``'s read)."""
    seated = RatingSeat.objects.filter(
        table_id=table_id, ended_at__isnull=True, session__status=RatingSession.Status.PLAYING
    ).values_list("seat_number", "session_id")
    return dict(seated)


def round_settled_rate(*, round: Round, posting: Posting, corrects: Posting | None = None) -> None:
    """What a settlement of ``round`` (``posting``; a correction's, replacing ``corrects``) adds to the rated sessions
    seated there and to the table's hold window: called by the settle and the correction, in their transaction."""
    edges = rule_set_edges(round.rule_set_snapshot)
    result = posting_result(posting)
    figures = position_figures(result, edges)
    hold = house_figures(result, edges, figures)
    if corrects is None:
        hold.round, hold.table_id, hold.posting = round, round.table_id, posting
        at_seat = hold_settled(hold)  # the hold row and window written, the seats read (players.sql)
        bank = result["bank"] if result is not None else None
        sessions: dict[tuple[int, str], int] = {(seat, PLAYER): session for seat, session in at_seat.items()}
        if bank is not None and bank["seat"] in at_seat:
            sessions[(bank["seat"], BANKER)] = at_seat[bank["seat"]]
        rows = _rows(figures, sessions, round=round, posting=posting, sign=1)
    else:
        # A correction: undo what the corrected settlement added, for the same sessions (seated now or not, and those
        # whose wager had no action in it: its rows of zeros), and add what the new one adds to them.
        rated = list(RatedRound.objects.filter(posting=corrects, rounds__gte=0))
        sessions = {(row.seat_number, str(row.position)): row.session_id for row in rated}
        credited = [row for row in rated if row.rounds == 1]
        undone = [
            RatedRound(
                session_id=row.session_id,
                round=round,
                posting=posting,
                table_id=row.table_id,
                seat_number=row.seat_number,
                position=row.position,
                rounds=-1,
                action_cents=-row.action_cents,
                win_loss_cents=-row.win_loss_cents,
                theo_millicents=-row.theo_millicents,
                variance_cents2=-row.variance_cents2,
                edge_ppm=row.edge_ppm,
            )
            for row in credited
        ]
        rows = undone + _rows(figures, sessions, round=round, posting=posting, sign=1)
        written = dict(
            posting=posting,
            action_cents=hold.action_cents,
            house_win_cents=hold.house_win_cents,
            theo_millicents=hold.theo_millicents,
            variance_cents2=hold.variance_cents2,
        )
        if not HoldRound.objects.filter(round=round).update(**written):  # settled before the ratings were installed
            HoldRound.objects.create(round=round, table_id=round.table_id, **written)
        hold_window_update(round.table_id)
    if rows:
        rows_pending(*RatedRound.objects.bulk_create(rows))  # recorded by the settle's (the correction's) event
        _add_to_sessions(rows)


def buy_in_rate(sender: Any, *, buy_in: BuyIn, **kwargs: Any) -> None:
    """Receiver of ``buy_in_recorded``: a buy-in at a rated seat counts for the session seated there (a void counts
    for the session the buy-in it voids counted for)."""
    if buy_in.corrects_id is not None:
        session_id = (
            RatedBuyIn.objects.filter(buy_in_id=buy_in.corrects_id).values_list("session_id", flat=True).first()
        )
    else:
        session_id = (
            RatingSeat.objects.filter(table_id=buy_in.table_id, seat_number=buy_in.seat_number, ended_at__isnull=True)
            .values_list("session_id", flat=True)
            .first()
        )
    if session_id is None:
        return
    rows_pending(RatedBuyIn.objects.create(session_id=session_id, buy_in=buy_in))  # recorded by the buy-in's event
    field = "markers_in_cents" if buy_in.medium == BuyIn.Medium.MARKER else "cash_in_cents"
    RatingSession.objects.filter(pk=session_id).update(**{field: F(field) + buy_in.amount_cents})


def table_closing_refuse(table: Table) -> None:
    """A table with a rated player still seated does not close (end the session or move the player first: the clock
    of a player at a closed table would run on); registered with ``tables.services.table_close_vetoes`` by
    ``players.apps``."""
    seat = RatingSeat.objects.filter(table=table, ended_at__isnull=True).order_by("seat_number").first()
    if seat is not None:
        raise WrongState(
            gettext(
                "A rated player is still seated at seat %(seat)s of table %(table)s: end the session or move the "
                "player before closing the table."
            )
            % {"seat": seat.seat_number, "table": table.name},
            extra={"seat": seat.seat_number},
        )


def z_score(actual: float, expected: float, variance: float) -> float | None:
    """How many standard deviations ``actual`` is from ``expected`` (None without a variance)."""
    if variance <= 0:
        return None
    return (actual - expected) / math.sqrt(variance)
