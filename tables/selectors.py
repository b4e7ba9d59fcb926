"""Reads on tables."""

from __future__ import annotations

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from casino.models import Shift
from tables.models import BuyIn, ChipDenomination, Slip, Table, TrayCount


def table_list() -> QuerySet[Table]:
    """Every table with its pit, in one query."""
    return Table.objects.select_related("pit").order_by("pit__name", "name")


def table_get(*, table_id: int) -> Table:
    """One table, or 404."""
    return get_object_or_404(table_list(), pk=table_id)


def table_get_for_action(*, table_id: int) -> Table:
    """One table with its id only (its other fields load if read), or 404: what a service needs before it locks the
    table and reads it whole."""
    return get_object_or_404(Table.objects.only("id"), pk=table_id)


# --- the table's money ----------------------------------------------------------------


def chip_list() -> QuerySet[ChipDenomination]:
    """The house's chips in use, lowest value first."""
    return ChipDenomination.objects.filter(in_use=True).order_by("value_cents")


def tray_count_list(*, table: Table) -> QuerySet[TrayCount]:
    """The table's tray counts, newest first, with who counted and confirmed them."""
    return (
        TrayCount.objects.filter(table=table)
        .select_related("table", "counted_by", "confirmed_by")
        .order_by("-counted_at", "-pk")
    )


def tray_count_get(*, tray_count_id: int) -> TrayCount:
    """One tray count with its table, or 404."""
    return get_object_or_404(TrayCount.objects.select_related("table", "counted_by", "confirmed_by"), pk=tray_count_id)


_SLIP_PEOPLE = ("requested_by", "issued_by", "dealer_signed_by", "supervisor_signed_by", "voided_by")


def slip_list(
    *,
    table: Table | None = None,
    tables: QuerySet[Table] | None = None,
    status: str | None = None,
    kind: str | None = None,
) -> QuerySet[Slip]:
    """Fills and credits, oldest first (the cage's queue is served in the order asked), with their table and
    people: at ``table``, or at ``tables`` (None: every table), optionally of one status and one kind."""
    rows = Slip.objects.select_related("table", *_SLIP_PEOPLE).order_by("requested_at", "pk")
    if table is not None:
        rows = rows.filter(table=table)
    if tables is not None:
        rows = rows.filter(table__in=tables)
    if status:
        rows = rows.filter(status=status)
    return rows.filter(kind=kind) if kind else rows


def slip_get(*, slip_id: int) -> Slip:
    """One slip with its table and people, or 404."""
    return get_object_or_404(slip_list(), pk=slip_id)


def buy_in_list(*, table: Table, shift: Shift | None) -> QuerySet[BuyIn]:
    """The table's buy-ins in ``shift`` (none without a shift), in the order recorded."""
    if shift is None:
        return BuyIn.objects.none()
    return BuyIn.objects.filter(table=table, shift=shift).select_related("recorded_by").order_by("recorded_at", "pk")


def drop_shift_get(*, shift_id: int) -> Shift:
    """The shift a drop box belongs to, or 404."""
    return get_object_or_404(Shift.objects.select_related("gaming_day"), pk=shift_id)
