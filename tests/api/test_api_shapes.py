"""The schema's shapes of a round's hands and a settlement's money lines are the dicts the server answers: each
described field is a key of its TypedDict and the other way round, required exactly where the key always is. A key
added to a result line without its line in the schema fails here, before a generated client meets it."""

from __future__ import annotations

from typing import Any, NotRequired, get_origin, get_type_hints

import pytest
from rest_framework import serializers

from rounds.results import BankedSeatLine, BankLine, HouseLine, PairLine, PointsSeatLine
from rules.hands import StoredHand, StoredHands
from rules.hands.reading import Swap
from settlement.api_shapes import (
    BankedSeatLineSerializer,
    BankLineSerializer,
    HouseLineSerializer,
    PairLineSerializer,
    PointsSeatLineSerializer,
    RoundBalancesSerializer,
    SettlementOutputSerializer,
    StoredHandSerializer,
    StoredHandsSerializer,
    SwapSerializer,
)
from settlement.selectors import RoundBalances
from settlement.services.settle import BankedAnswer, PointsAnswer


def _required_keys(typed: Any) -> set[str]:
    """The keys always there: those not marked NotRequired in a total TypedDict or any of its bases (read from the
    hints: under postponed annotations ``__required_keys__`` takes a NotRequired key for a required one)."""
    required = set()
    for base in reversed(typed.__mro__):
        if base is dict or not hasattr(base, "__annotations__") or base is object:
            continue
        hints = get_type_hints(base, include_extras=True)
        for name in base.__dict__.get("__annotations__", {}):
            if get_origin(hints[name]) is not NotRequired and base.__total__:
                required.add(name)
            else:
                required.discard(name)
    return required


@pytest.mark.parametrize(
    ("typed", "serializer"),
    [
        (BankedSeatLine, BankedSeatLineSerializer),
        (PointsSeatLine, PointsSeatLineSerializer),
        (PairLine, PairLineSerializer),
        (BankLine, BankLineSerializer),
        (HouseLine, HouseLineSerializer),
        (StoredHand, StoredHandSerializer),
        (StoredHands, StoredHandsSerializer),
        (Swap, SwapSerializer),
        (RoundBalances, RoundBalancesSerializer),
    ],
)
def test_each_shape_has_the_keys_its_dict_has_required_where_always_there(
    typed: Any, serializer: type[serializers.Serializer[Any]]
) -> None:
    fields = serializer().fields
    assert set(fields) == set(get_type_hints(typed)), typed.__name__
    assert {name for name, field in fields.items() if field.required} == _required_keys(typed), typed.__name__


def test_a_settlement_describes_every_key_a_banked_or_a_points_settlement_answers() -> None:
    fields = SettlementOutputSerializer().fields
    answered = set(get_type_hints(BankedAnswer)) | set(get_type_hints(PointsAnswer))
    assert set(fields) == answered
    # Required: what both answer always; pairs (points) and house_wager (a house's wager) only where they are.
    always = _required_keys(BankedAnswer) & _required_keys(PointsAnswer)
    assert {name for name, field in fields.items() if field.required} == always
