"""Proving the ratings (``manage.py verify_ratings``): every figure a session keeps is the sum of what its rows say,
and every row is what its settlement says.

* a session's rounds, action, win/loss, theo and variance, by position, equal the sums of its ``RatedRound`` rows,
  and its cash and markers bought in the sums of its ``RatedBuyIn`` rows;
* every rated round credited by a settlement (``rounds`` +1) is what that settlement's result gives the position
  by the round's frozen rule set, and a settlement that was corrected has had its rows undone once;
* every settled round has its ``HoldRound``, and it holds the house win and expectation of the settlement in force
  (from the first round that has one: rounds settled before the ratings were installed have none).

The rows themselves are append-only in the database (``RatedRound``, ``RatedBuyIn``); the kept figures are not,
so this is what finds a figure changed behind the application's back.
"""

from __future__ import annotations

import math
from collections import defaultdict

from django.db.models import Sum

from ledger.models import Posting
from players.models import SESSION_SUMS, HoldRound, RatedBuyIn, RatedRound, RatingSession
from players.rating import KeptFigures, house_figures, position_figures
from rounds.models import Round
from rounds.results import posting_result
from rounds.states import RoundState
from rules.edges import rule_set_edges
from tables.models import BuyIn


def _same(name: str, kept: float, summed: float) -> bool:
    """Whether a kept figure is its rows' sum: exactly for counts and money; for the variance (a float, summed in
    another order) to a part in a billion."""
    if name == "variance_cents2":
        return math.isclose(kept, summed, rel_tol=1e-9, abs_tol=1e-6)
    return kept == summed


def sessions_kept_check() -> list[str]:
    """Every rating session's kept figures are the sums of its rated rounds and buy-ins: one line for each session that
    differs."""
    problems: list[str] = []
    kept: dict[int, KeptFigures] = defaultdict(KeptFigures)
    rows = RatedRound.objects.values("session_id", "position").annotate(
        n=Sum("rounds"),
        action=Sum("action_cents"),
        win=Sum("win_loss_cents"),
        theo=Sum("theo_millicents"),
        variance=Sum("variance_cents2"),
    )
    for row in rows.order_by():
        kept[row["session_id"]] = kept[row["session_id"]].plus(
            position=row["position"],
            rounds=row["n"],
            action_cents=row["action"],
            win_loss_cents=row["win"],
            theo_millicents=row["theo"],
            variance_cents2=row["variance"],
        )
    sums = {session_id: figures.by_name() for session_id, figures in kept.items()}
    bought: dict[int, dict[str, int]] = defaultdict(lambda: {"cash_in_cents": 0, "markers_in_cents": 0})
    for paid in RatedBuyIn.objects.values("session_id", "buy_in__medium").annotate(total=Sum("buy_in__amount_cents")):
        name = "markers_in_cents" if paid["buy_in__medium"] == BuyIn.Medium.MARKER else "cash_in_cents"
        bought[paid["session_id"]][name] += paid["total"]
    fields = SESSION_SUMS
    for session in RatingSession.objects.values("pk", *fields).order_by("pk"):
        expected = {**dict.fromkeys(fields, 0), **sums.get(session["pk"], {}), **bought.get(session["pk"], {})}
        wrong = [name for name in fields if not _same(name, session[name], expected[name])]
        if wrong:
            problems.append(
                f"Rating session {session['pk']}: "
                + ", ".join(f"{name} is {session[name]} but its rows sum to {expected[name]}" for name in wrong)
                + "."
            )
    return problems


def _rows_check() -> list[str]:
    problems: list[str] = []
    credited = RatedRound.objects.filter(rounds__gte=0).select_related("posting", "round").order_by("pk")
    undone = {(r.session_id, r.round_id, r.position, r.posting_id) for r in RatedRound.objects.filter(rounds=-1)}
    corrected_by = dict(
        Posting.objects.filter(kind=Posting.Kind.SETTLEMENT, corrects__isnull=False).values_list("corrects_id", "pk")
    )
    for row in credited:
        figures = {
            (f.seat, f.position): f
            for f in position_figures(posting_result(row.posting), rule_set_edges(row.round.rule_set_snapshot))
        }
        want = figures.get((row.seat_number, row.position))
        got = (row.rounds, row.action_cents, row.win_loss_cents, row.theo_millicents)
        if (
            want is None
            or got != (want.rounds, want.action_cents, want.win_loss_cents, want.theo_millicents)
            or not _same("variance_cents2", row.variance_cents2, want.variance_cents2)
        ):
            problems.append(
                f"Rated round {row.pk} (round id {row.round_id}, seat {row.seat_number}, {row.position}) is not what "
                f"settlement {row.posting_id} gives that position."
            )
        correction = corrected_by.get(row.posting_id)
        if (
            row.rounds == 1
            and correction is not None
            and (row.session_id, row.round_id, row.position, correction) not in undone
        ):
            problems.append(
                f"Rated round {row.pk} was credited by settlement {row.posting_id}, which was corrected by "
                f"{correction}, and was never undone."
            )
    return problems


def _holds_check() -> list[str]:
    problems: list[str] = []
    holds = {h.round_id: h for h in HoldRound.objects.all()}
    # Rounds settled before the ratings were installed have no hold row: from the first round that has one on.
    first = min(holds, default=None)
    settled = Round.objects.filter(state=RoundState.SETTLED, pk__gte=first or 0)
    in_force = Posting.objects.filter(
        kind=Posting.Kind.SETTLEMENT,
        reversed_by__isnull=True,
        round_id__in=settled.values("pk"),
    )
    if first is None:
        in_force = in_force.none()
    in_force_rows = list(in_force.order_by("pk"))
    rounds = {r.pk: r for r in settled.filter(pk__in={posting.round_id for posting in in_force_rows})}
    for posting in in_force_rows:
        assert posting.round_id is not None  # read by round
        round_: Round = rounds[posting.round_id]
        hold = holds.get(round_.pk)
        if hold is None:
            problems.append(f"Settled round id {round_.pk} has no hold row.")
            continue
        edges = rule_set_edges(round_.rule_set_snapshot)
        result = posting_result(posting)
        want = house_figures(result, edges, position_figures(result, edges))
        got = (hold.posting_id, hold.action_cents, hold.house_win_cents, hold.theo_millicents)
        if got != (posting.pk, want.action_cents, want.house_win_cents, want.theo_millicents) or not _same(
            "variance_cents2", hold.variance_cents2, want.variance_cents2
        ):
            problems.append(f"The hold row of round id {round_.pk} is not what its settlement {posting.pk} says.")
    return problems


def ratings_verify() -> list[str]:
    """What does not hold (empty: the ratings are sound)."""
    return [*sessions_kept_check(), *_rows_check(), *_holds_check()]
