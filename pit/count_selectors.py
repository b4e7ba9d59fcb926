"""The count room's reads (DESIGN.md, "The table's money"): which closed shifts' drop boxes the count team counts,
and what gives a table a drop box in a shift, the one rule the count room and the Master Game Report share.

Each read is a fixed number of queries, whatever the number of tables or counts.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from casino.models import Shift
from rounds.models import Round
from tables.drop import DropBox, drop_final
from tables.models import BuyIn, DropCount, Slip, Table, TrayCount


def drop_box_sources() -> tuple[QuerySet[Any], ...]:
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
