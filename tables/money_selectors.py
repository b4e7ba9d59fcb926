"""Reads of the table's money for the cage and the count room (issue 16, DESIGN.md "The table's money"): the slips
the cage has to issue and to see signed, and the closed shifts' drop boxes the count team counts.

Each read is a fixed number of queries, whatever the number of slips, tables or counts.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Q, QuerySet

from casino.models import GamingDay, Shift
from tables.drop import DropBox, drop_final
from tables.models import BuyIn, DropCount, Round, Slip, Table, TrayCount


def drop_box_sources() -> tuple[QuerySet, ...]:
    """What gives a table a drop box in a shift, each rows with ``table`` and ``shift``: a round, a confirmed tray
    count, a buy-in or a slip. The one rule the count room (which boxes to count) and the Master Game Report (which
    boxes it waits for, ``pit.report_selectors``) share."""
    return (
        Round.objects.all(),
        TrayCount.objects.filter(status=TrayCount.Status.CONFIRMED),
        BuyIn.objects.all(),
        Slip.objects.all(),
    )


# The closed shifts the count room shows, newest first: two gaming days of three shifts.
COUNT_SHIFTS_SHOWN = 6


@dataclass(frozen=True)
class ChipLine:
    """One denomination of a slip: its value, the number of chips, and what they make, in cents."""

    value_cents: int
    number: int
    amount_cents: int


def slip_chip_lines(slip: Slip) -> list[ChipLine]:
    """A slip's chips by denomination, the highest value first (as the cage racks them), none of zero."""
    lines = [ChipLine(int(value), number, int(value) * number) for value, number in slip.chips.items() if number]
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


@dataclass(frozen=True)
class ShiftBoxes:
    """A closed shift and its drop boxes, by pit and table."""

    shift: Shift
    boxes: list[DropBox]


def drop_boxes_to_count(*, shifts_shown: int = COUNT_SHIFTS_SHOWN) -> list[ShiftBoxes]:
    """The drop boxes of the last ``shifts_shown`` closed shifts, newest shift first (seven queries).

    A table has a box in a shift when it played or money moved there (``drop_box_sources``); a box that was counted
    is shown too, whatever moved. Each box comes with its counts, oldest first, and who made them."""
    shifts = list(
        Shift.objects.filter(closed_at__isnull=False)
        .select_related("gaming_day")
        .order_by("-closed_at", "-pk")[:shifts_shown]
    )
    shift_ids = [shift.pk for shift in shifts]
    keys: set[tuple[int, int]] = set()
    for rows in drop_box_sources():
        keys.update(rows.filter(shift_id__in=shift_ids).order_by().values_list("table_id", "shift_id").distinct())
    counts: dict[tuple[int, int], list[DropCount]] = defaultdict(list)
    for count in (
        DropCount.objects.filter(shift_id__in=shift_ids).select_related("counted_by").order_by("counted_at", "pk")
    ):
        counts[(count.table_id, count.shift_id)].append(count)
    keys.update(counts)
    tables = Table.objects.filter(pk__in={table_id for table_id, _ in keys}).select_related("pit")
    ordered = sorted(tables, key=lambda table: (table.pit.name, table.name, table.pk))
    result = []
    for shift in shifts:
        boxes = []
        for table in ordered:
            if (table.pk, shift.pk) in keys:
                box_counts = counts.get((table.pk, shift.pk), [])
                boxes.append(DropBox(table=table, shift=shift, counts=box_counts, final=drop_final(box_counts)))
        if boxes:
            result.append(ShiftBoxes(shift=shift, boxes=boxes))
    return result
