"""Reads of the table's money for the cage (DESIGN.md "The table's money"): the slips the cage has to issue and to
see signed (the count room's reads are ``pit.count_selectors``).

Each read is a fixed number of queries, whatever the number of slips or tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from casino.models import GamingDay
from tables.models import Counted, Slip


@dataclass(frozen=True)
class ChipLine:
    """One denomination of a slip: its value, the number of chips, and what they make, in cents."""

    value_cents: int
    number: int
    amount_cents: int


def slip_chip_lines(slip: Slip) -> list[ChipLine]:
    """A slip's chips by denomination, the highest value first (as the cage racks them), none of zero."""
    chips = Counted.read(slip.chips).numbers
    lines = [ChipLine(value, number, value * number) for value, number in chips.items() if number]
    return sorted(lines, key=lambda line: -line.value_cents)


@dataclass(frozen=True)
class CageSlip:
    slip: Slip
    chips: list[ChipLine]


@dataclass(frozen=True)
class CageQueue:
    """What the cage sees: ``waiting`` to be issued (oldest request first), ``issued`` and waiting for the table's
    two signatures (oldest issue first), and ``done``: received or voided in ``gaming_day`` (the newest: the open
    one, else the last closed), by kind and number."""

    waiting: list[CageSlip]
    issued: list[CageSlip]
    done: list[CageSlip]
    gaming_day: GamingDay | None


_SLIP_PEOPLE = ("requested_by", "issued_by", "dealer_signed_by", "supervisor_signed_by", "voided_by")


def cage_queue() -> CageQueue:
    """The cage's queue (two queries): every slip still open, whatever its shift, and the day's finished ones."""
    day = GamingDay.objects.order_by("-business_date").first()  # the open one is the newest
    finished = Q(status__in=(Slip.Status.RECEIVED, Slip.Status.VOIDED), shift__gaming_day=day)
    slips = (
        Slip.objects.filter(Q(status__in=(Slip.Status.REQUESTED, Slip.Status.ISSUED)) | finished)
        .select_related("table__pit", "shift__gaming_day", *_SLIP_PEOPLE)
        .order_by("requested_at", "pk")
    )
    lines = [CageSlip(slip, slip_chip_lines(slip)) for slip in slips]
    return CageQueue(
        waiting=[line for line in lines if line.slip.status == Slip.Status.REQUESTED],
        issued=sorted(
            (line for line in lines if line.slip.status == Slip.Status.ISSUED),
            key=lambda line: (line.slip.issued_at, line.slip.pk),
        ),
        done=sorted(
            (line for line in lines if line.slip.status in (Slip.Status.RECEIVED, Slip.Status.VOIDED)),
            key=lambda line: (line.slip.kind, line.slip.number),
        ),
        gaming_day=day,
    )
