"""The tablet's strip of rated seats: who is rated at which seat of the table, read where it is drawn so
the tablet's own view stays as it is (``dealer.rating_views.rated_seats``: one query)."""

from __future__ import annotations

from django import template

from dealer.rating_views import RatedSeatRow, rated_seats
from tables.models import Table

register = template.Library()


@register.simple_tag
def rated_seats_of(table: Table) -> list[RatedSeatRow]:
    return rated_seats(table)
