"""Dealer performance and game protection: per dealer and game in a shift, the pace, the voids and corrections, and
the hold of the rounds they dealt beside what the house edge expects of it, with the same z-score the floor runs on
players and on a table's last rounds (``players.figures``), turned on dealers.

A round counts for the dealer it records (``Round.dealer``: the table's dealer when it opened; rounds opened before
dealers were recorded and by someone who was not a Dealer have none, and count under "no dealer recorded", so the
lines add up to the tables'). A round belongs to the shift it was opened in, as in every shift report.

* rounds: the rounds settled and voided (unfinished rounds are not counted yet); rounds an hour: the settled rounds
  over the time on the box, which is from the open of the dealer's first round of the game in the shift to the end
  (the settle or the void) of the last. Breaks inside that span count as time on the box: the figure is the pace of
  the stint as the floor saw it, and a dealer's breaks are the rotation's business, not the pace's.
* voids and corrections per 100 rounds: over the rounds dealt (settled and voided); a correction is an approved
  correction request on a round they dealt.
* handle, house win, expected win and variance: the sums of the rounds' hold figures (``players.models.HoldRound``:
  the settlement in force, a correction's figures replacing the corrected one's), so the hold and its expectation
  are the table hold drift's; hold = house win / handle, expected = theo / handle.
* z: (house win − expected) / √variance (``players.rating.z_score``); the alert when |z| ≥ ``ALERT_Z`` (3): far above
  (a dealer paying too little: a miscount, a short pay) or far below (paying too much: collusion, dealer error).
  The variance is the hold window's upper bound (the seats play against one bank hand), so a 3σ line here is one
  the cards cannot explain.

Four queries a shift, however many rounds: the rounds by dealer, game and state; the hold figures; the corrections;
the dealers' names.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, Max, Min, Sum
from django.db.models.functions import Coalesce

from casino.models import Shift
from players.models import HoldRound
from players.rating import z_score
from rounds.models import Adjustment, Round
from rounds.states import RoundState

# The dealer's hold this many standard deviations from its expectation, either way, raises the alert.
ALERT_Z = 3.0


def _half_up(value: float) -> int:
    """Rounded half away from zero (as money is on every report)."""
    return int(value + 0.5) if value >= 0 else -int(-value + 0.5)


@dataclass(frozen=True)
class DealerFigures:
    """One dealer's figures at one game in one shift (``dealer_id`` None: the rounds with no dealer recorded)."""

    dealer_id: int | None
    dealer: str
    game: str
    rounds_settled: int
    rounds_voided: int
    corrections: int
    first_at: dt.datetime | None
    last_at: dt.datetime | None
    handle_cents: int
    house_win_cents: int
    theo_millicents: int
    variance_cents2: float

    @property
    def rounds_dealt(self) -> int:
        return self.rounds_settled + self.rounds_voided

    @property
    def seconds_on_box(self) -> int:
        if self.first_at is None or self.last_at is None:
            return 0
        return max(0, int((self.last_at - self.first_at).total_seconds()))

    @property
    def rounds_per_hour(self) -> float | None:
        seconds = self.seconds_on_box
        return self.rounds_settled * 3600 / seconds if seconds > 0 else None

    @property
    def voids_per_100(self) -> float | None:
        return self.rounds_voided * 100 / self.rounds_dealt if self.rounds_dealt else None

    @property
    def corrections_per_100(self) -> float | None:
        return self.corrections * 100 / self.rounds_dealt if self.rounds_dealt else None

    @property
    def theo_cents(self) -> int:
        return _half_up(self.theo_millicents / 1000)

    @property
    def hold_percent(self) -> float | None:
        return self.house_win_cents * 100 / self.handle_cents if self.handle_cents else None

    @property
    def expected_hold_percent(self) -> float | None:
        return self.theo_millicents / 10 / self.handle_cents if self.handle_cents else None

    @property
    def z(self) -> float | None:
        return z_score(self.house_win_cents, self.theo_millicents / 1000, self.variance_cents2)

    @property
    def alert(self) -> bool:
        z = self.z
        return z is not None and abs(z) >= ALERT_Z


@dataclass
class _Counted:
    settled: int = 0
    voided: int = 0
    first: dt.datetime | None = None
    last: dt.datetime | None = None


def dealer_performance_rows(*, shift: Shift, dealer_id: int | None = None) -> list[DealerFigures]:
    """Every dealer's figures at each game they dealt in ``shift`` (only ``dealer_id``'s when given), ordered by the
    dealer's name then the game; the rounds with no dealer recorded last (see the module's docstring)."""
    rounds = Round.objects.filter(shift=shift, state__in=[RoundState.SETTLED, RoundState.VOIDED])
    holds = HoldRound.objects.filter(round__shift=shift)
    corrections = Adjustment.objects.filter(
        round__shift=shift, kind=Adjustment.Kind.CORRECTION, status=Adjustment.Status.APPROVED
    )
    if dealer_id is not None:
        rounds = rounds.filter(dealer_id=dealer_id)
        holds = holds.filter(round__dealer_id=dealer_id)
        corrections = corrections.filter(round__dealer_id=dealer_id)
    counted: dict[tuple[int | None, str], _Counted] = {}
    for row in (
        rounds.values("dealer_id", "table__game", "state")
        .annotate(count=Count("pk"), first=Min("opened_at"), last=Max("state_changed_at"))
        .order_by()
    ):
        into = counted.setdefault((row["dealer_id"], row["table__game"]), _Counted())
        if row["state"] == RoundState.SETTLED:
            into.settled = row["count"]
        else:
            into.voided = row["count"]
        into.first = row["first"] if into.first is None else min(into.first, row["first"])
        into.last = row["last"] if into.last is None else max(into.last, row["last"])
    money: dict[tuple[int | None, str], Mapping[str, Any]] = {
        (row["round__dealer_id"], row["round__table__game"]): row
        for row in holds.values("round__dealer_id", "round__table__game")
        .annotate(
            handle=Coalesce(Sum("action_cents"), 0),
            house_win=Coalesce(Sum("house_win_cents"), 0),
            theo=Coalesce(Sum("theo_millicents"), 0),
            variance=Coalesce(Sum("variance_cents2"), 0.0),
        )
        .order_by()
    }
    corrected: dict[tuple[int | None, str], int] = {
        (row["round__dealer_id"], row["round__table__game"]): row["count"]
        for row in corrections.values("round__dealer_id", "round__table__game").annotate(count=Count("pk")).order_by()
    }
    ids = {dealer for dealer, _ in counted if dealer is not None}
    names = dict(User.objects.filter(pk__in=ids).values_list("pk", "username"))
    lines = []
    for (dealer, game), into in counted.items():
        sums: Mapping[str, Any] = money.get((dealer, game), {})
        lines.append(
            DealerFigures(
                dealer_id=dealer,
                dealer=names.get(dealer, "") if dealer is not None else "",
                game=game,
                rounds_settled=into.settled,
                rounds_voided=into.voided,
                corrections=corrected.get((dealer, game), 0),
                first_at=into.first,
                last_at=into.last,
                handle_cents=int(sums.get("handle", 0)),
                house_win_cents=int(sums.get("house_win", 0)),
                theo_millicents=int(sums.get("theo", 0)),
                variance_cents2=float(sums.get("variance", 0.0)),
            )
        )
    lines.sort(key=lambda line: (line.dealer_id is None, line.dealer, line.game))
    return lines


def dealer_shifts(*, dealer_id: int, last: int = 10) -> list[Shift]:
    """The last ``last`` shifts in which the dealer dealt a round, newest first."""
    shift_ids = Round.objects.filter(dealer_id=dealer_id).values("shift_id").distinct()
    return list(
        Shift.objects.filter(pk__in=shift_ids)
        .select_related("gaming_day")
        .order_by("-gaming_day__business_date", "-number")[:last]
    )
