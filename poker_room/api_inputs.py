"""What the poker room's REST endpoints share: one input check (a body of named fields, each known: a field the
API does not take is refused, naming it), the money field, and the tournament an address names (404 if none)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from rest_framework import serializers

from casino.api_inputs import refuse_unknown_fields
from casino.api_inputs import valid_input as valid_input  # the APIs' one input check, where the poker room's look
from casino.fields import StrictIntegerField
from poker_room.floor import MOST_CENTS
from poker_room.tournaments.models import Tournament

MOST_NUMBER = 10**6  # an entry's number, a table's, a seat's: far beyond any card room


def tournament_or_404(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tournament_id)


class InputSerializer(serializers.Serializer[Any]):
    """A body of named fields, each known: a field this API does not take is refused, naming it."""

    def to_internal_value(self, data: Any) -> Any:
        refuse_unknown_fields(self, data)
        return super().to_internal_value(data)


def cents_field(**kwargs: Any) -> StrictIntegerField:
    return StrictIntegerField(min_value=0, max_value=MOST_CENTS, **kwargs)
