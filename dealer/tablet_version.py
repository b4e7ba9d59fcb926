"""How the tablet learns that another device changed its table: a short marker of what it shows, polled every few
seconds (``dealer.views.tablet_version_view``)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db.models import Count, Max, OuterRef, Q, Subquery, Sum

from players.models import RatingSeat
from rounds.models import Adjustment, Round, Wager
from tables.models import Table


def _per_round(model: Any, value: Any) -> Subquery:
    """``value`` aggregated over ``model``'s rows of the outer round (a subquery, so one read answers all)."""
    rows = model.objects.filter(round=OuterRef("pk")).order_by().values("round").annotate(v=value).values("v")
    return Subquery(rows[:1])


def tablet_version(table: Table) -> str:
    """A short marker of what the tablet shows of ``table``: its set-up (status, limits, rule set, dealer), its
    newest round's state, wagers, dice, hands and placements, and its requests and their decisions. Another
    device's change (a wager, a settle, a void approved from the pit, new limits) changes it; the tablet polls it
    and draws itself again (``dealer.views.tablet_version_view``). Two reads: the round's, and the rated seats' (a
    player seated, moved, on a break or gone, from another device, redraws the strip of rated seats)."""
    row = (
        Round.objects.filter(table=table)
        .order_by("-number")
        .annotate(
            wager_count=_per_round(Wager, Count("pk")),
            wager_cents=_per_round(Wager, Sum("amount_cents")),
            asked=_per_round(Adjustment, Count("pk")),
            waiting=_per_round(Adjustment, Count("pk", filter=Q(status=Adjustment.Status.PENDING))),
            decided=_per_round(Adjustment, Max("decided_at")),
        )
        .values_list(
            "pk", "state", "state_changed_at", "dice", "hands", "placements",
            "wager_count", "wager_cents", "asked", "waiting", "decided",
        )
        .first()
    )  # fmt: skip
    # The table's own set-up too: new limits, rules, dealer or status from the pit redraw the tablet.
    setup = (table.status, table.min_wager_cents, table.max_wager_cents, table.rule_set_id, table.dealer_id)
    rated = RatingSeat.objects.filter(table=table).aggregate(
        last=Max("pk"),
        seated=Count("pk", filter=Q(ended_at__isnull=True)),
        breaks=Max("session__pauses__pk"),
        on_break=Count("session__pauses", filter=Q(ended_at__isnull=True, session__pauses__ended_at__isnull=True)),
    )
    text = json.dumps([row, setup, rated], default=str, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
