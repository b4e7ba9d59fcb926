"""Reads of credit at the table: a player's credit (line, what is left, their markers), the markers outstanding, the
markers of a table in the open shift (docs/markers.md)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, QuerySet, Sum

from casino.roles import CREDIT_VIEWERS
from players.credit import OWING, credit_limit_cents, credit_owing_cents
from players.models import CreditLine, CreditLineChange, Marker, MarkerPayment, Player
from tables.models import Table

# Who reads credit lines and markers (``casino.roles``).
CREDIT_READERS = CREDIT_VIEWERS
# Markers outstanding: issued and not redeemed (in a drop box, or at the cage).
OUTSTANDING = (Marker.Status.IN_DROP, Marker.Status.AT_CAGE)
MOST_MARKERS = 200


def markers_read() -> QuerySet[Marker]:
    return Marker.objects.select_related("player", "table", "requested_by", "issued_by", "voided_by")


@dataclass(frozen=True)
class PlayerCredit:
    """A player's credit: their line, what their markers not redeemed or voided owe, what is left, a change waiting
    for approval, and their markers (newest first)."""

    player: Player
    line: CreditLine | None
    limit_cents: int
    owing_cents: int
    available_cents: int
    pending: CreditLineChange | None
    markers: list[Marker]


def player_credit(*, player: Player) -> PlayerCredit:
    limit, owing = credit_limit_cents(player), credit_owing_cents(player)
    return PlayerCredit(
        player=player,
        line=CreditLine.objects.select_related("set_by", "approved_by").filter(player=player).first(),
        limit_cents=limit,
        owing_cents=owing,
        available_cents=max(0, limit - owing),
        pending=CreditLineChange.objects.select_related("asked_by")
        .filter(player=player, status=CreditLineChange.Status.PENDING)
        .first(),
        markers=list(markers_read().filter(player=player)[:MOST_MARKERS]),
    )


@dataclass(frozen=True)
class Outstanding:
    """The markers outstanding, by number, and their total; those at the cage the cage may redeem."""

    markers: list[Marker]
    total_cents: int
    at_cage_cents: int


def markers_outstanding() -> Outstanding:
    markers = list(markers_read().filter(status__in=OUTSTANDING).order_by("number"))
    return Outstanding(
        markers=markers,
        total_cents=sum(m.amount_cents for m in markers),
        at_cage_cents=sum(m.amount_cents for m in markers if m.status == Marker.Status.AT_CAGE),
    )


def markers_redeemed_recently(*, most: int = 20) -> list[Marker]:
    """The last markers redeemed (the cage's page), newest first, each with ``by_cheque``: whether a cheque paid it
    (which may come back)."""
    cheque = MarkerPayment.objects.filter(
        marker=OuterRef("pk"), method=MarkerPayment.Method.CHEQUE, returned_by__isnull=True
    )
    redeemed = markers_read().filter(status=Marker.Status.REDEEMED).annotate(by_cheque=Exists(cheque))
    return list(redeemed.order_by("-redeemed_at", "-pk")[:most])


def markers_at_table(*, table: Table) -> list[Marker]:
    """The markers of ``table`` waiting for a supervisor, and those issued into its drop box not yet counted."""
    return list(
        markers_read()
        .filter(table=table, status__in=(Marker.Status.REQUESTED, Marker.Status.IN_DROP))
        .order_by("requested_at", "pk")
    )


def markers_owing_total() -> int:
    """What every marker not redeemed or voided adds up to."""
    return int(Marker.objects.filter(status__in=OWING).aggregate(total=Sum("amount_cents"))["total"] or 0)
