"""Reads on tables."""

from __future__ import annotations

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from tables.models import Table


def table_list() -> QuerySet[Table]:
    """Every table with its pit, in one query."""
    return Table.objects.select_related("pit").order_by("pit__name", "name")


def table_get(*, table_id: int) -> Table:
    """One table, or 404."""
    return get_object_or_404(table_list(), pk=table_id)
