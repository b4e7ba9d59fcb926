"""A rating session's figures as the floor reads them, from the figures it keeps (``players.rating``):
nothing here reads a wager.

* time played: breaks excluded; a session playing now counts up to ``now``;
* average bet: what the player wagered as a player over the rounds they played as one; the bank's action apart;
* theo: the exact theoretical win (the sum of every wager x the house edge of its position), beside the classic
  estimate the industry uses when nobody counts: average bet x hours x decisions an hour x house edge (the edge being
  the session's own, theo over action, so the two differ by pace and by how the bets were spread);
* comps: the tier's reinvestment share of theo; points: one for every ``TABLESIDE_RATING_CENTS_PER_POINT`` of theo;
* the alert: the player's win more than ``TABLESIDE_RATING_ALERT_SIGMA`` standard deviations above their expectation
  (minus their theo), the standard deviation from the same game math.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone

from players.models import RatingSession, TableHold
from players.rating import z_score


def _half_up(value: float) -> int:
    """Rounded half away from zero (as money is on every report)."""
    return int(value + 0.5) if value >= 0 else -int(-value + 0.5)


@dataclass(frozen=True)
class SessionFigures:
    rounds: int
    banker_rounds: int
    seconds_played: int
    wagered_cents: int
    banker_wagered_cents: int
    average_bet_cents: int | None
    win_loss_cents: int
    theo_cents: int
    classic_theo_cents: int | None
    decisions_per_hour: int
    rounds_per_hour: float | None
    edge_percent: float | None
    comp_cents: int
    reinvestment_bp: int
    points: int
    buy_in_cents: int
    walk_with_cents: int | None
    z: float | None
    alert: bool

    @property
    def hours(self) -> float:
        return self.seconds_played / 3600


def seconds_played(session: RatingSession, now: dt.datetime | None = None) -> int:
    """Time at the table, breaks excluded; a session playing now counts up to ``now``."""
    seconds = session.seconds_played
    if session.running_since is not None:
        seconds += max(0, int(((now or timezone.now()) - session.running_since).total_seconds()))
    return seconds


@dataclass(frozen=True)
class RatingSettings:
    """The settings a session's figures depend on, read once for many sessions (a page of them, the dashboard's
    rated seats): read one by one, they cost the dashboard 7 ms at 600 seats."""

    tiers: dict[str, int]
    decisions_per_hour: int
    cents_per_point: int
    alert_sigma: float


def rating_settings() -> RatingSettings:
    return RatingSettings(
        tiers=dict(settings.TABLESIDE_PLAYER_TIERS),
        decisions_per_hour=settings.TABLESIDE_RATING_DECISIONS_PER_HOUR,
        cents_per_point=settings.TABLESIDE_RATING_CENTS_PER_POINT,
        alert_sigma=settings.TABLESIDE_RATING_ALERT_SIGMA,
    )


def session_figures(
    session: RatingSession, *, tier: str, now: dt.datetime | None = None, rules: RatingSettings | None = None
) -> SessionFigures:
    """The session's figures (``tier``: the player's, for the reinvestment share; ``rules``: the settings, read
    here when not given)."""
    rules = rules or rating_settings()
    seconds = seconds_played(session, now)
    action = session.wagered_cents + session.banker_wagered_cents
    theo_cents = _half_up(session.theo_millicents / 1000)
    average = _half_up(session.wagered_cents / session.rounds) if session.rounds > 0 else None
    edge = session.theo_millicents / 1000 / action if action > 0 else None
    pace = rules.decisions_per_hour
    classic = None
    if average is not None and edge is not None:
        classic = _half_up(average * seconds / 3600 * pace * edge)
    reinvestment = rules.tiers.get(tier, 0)
    all_rounds = session.rounds + session.banker_rounds
    z = z_score(session.win_loss_cents, -session.theo_millicents / 1000, session.variance_cents2)
    return SessionFigures(
        rounds=session.rounds,
        banker_rounds=session.banker_rounds,
        seconds_played=seconds,
        wagered_cents=session.wagered_cents,
        banker_wagered_cents=session.banker_wagered_cents,
        average_bet_cents=average,
        win_loss_cents=session.win_loss_cents,
        theo_cents=theo_cents,
        classic_theo_cents=classic,
        decisions_per_hour=pace,
        rounds_per_hour=all_rounds * 3600 / seconds if seconds > 0 else None,
        edge_percent=edge * 100 if edge is not None else None,
        comp_cents=_half_up(max(theo_cents, 0) * reinvestment / 10_000),
        reinvestment_bp=reinvestment,
        points=max(theo_cents, 0) // rules.cents_per_point,
        buy_in_cents=session.chips_in_cents + session.cash_in_cents + session.markers_in_cents,
        walk_with_cents=session.walk_with_cents,
        z=z,
        alert=z is not None and z > rules.alert_sigma,
    )


@dataclass(frozen=True)
class HoldDrift:
    """A table's hold over its last rounds beside its expectation: ``z`` standard deviations away."""

    rounds: int
    action_cents: int
    house_win_cents: int
    theo_cents: int
    hold_percent: float | None
    expected_percent: float | None
    z: float | None
    alert: bool


def hold_drift(window: TableHold | None) -> HoldDrift | None:
    """The hold window's drift (None for a table with no settled round)."""
    if window is None or window.rounds == 0:
        return None
    z = z_score(window.house_win_cents, window.theo_millicents / 1000, window.variance_cents2)
    action = window.action_cents
    return HoldDrift(
        rounds=window.rounds,
        action_cents=action,
        house_win_cents=window.house_win_cents,
        theo_cents=_half_up(window.theo_millicents / 1000),
        hold_percent=window.house_win_cents * 100 / action if action else None,
        expected_percent=window.theo_millicents / 10 / action if action else None,
        z=z,
        alert=z is not None
        and window.rounds >= settings.TABLESIDE_HOLD_ALERT_MIN_ROUNDS
        and abs(z) > settings.TABLESIDE_HOLD_ALERT_Z,
    )
