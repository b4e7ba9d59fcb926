"""The shapes of a round's rules, hands and settlement in the API's schema, named for an integrator's client.

The API answers these from what the round and its settlement posting keep (``rules.options.snapshot_build``,
``rules.hands.StoredHands``, ``rounds.results``); the serializers here describe those dicts, field by field, so a
generated client reads typed money lines rather than free-form objects. They are built from the same definitions:
the rules from ``rules.api_shapes`` (one component a game, ``oneOf`` by ``game``), the lines from the result's
TypedDicts (``tests/api/test_api_shapes.py`` holds them to each other).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from rules.games import registry

# --- hands ----------------------------------------------------------------------------------------------------------


class StoredHandSerializer(serializers.Serializer[Any]):
    """One position's hand: a setting (high, low) or Open-Face / Chinese Poker rows (front, middle, back), in
    notation; who set it, the house way's rule that set it, fouled or surrendered when it is."""

    cards = serializers.CharField(required=False, help_text="The house's cards as dealt, for the house way to set.")
    high = serializers.CharField(required=False)
    low = serializers.CharField(required=False)
    front = serializers.CharField(required=False)
    middle = serializers.CharField(required=False)
    back = serializers.CharField(required=False)
    set_by = serializers.ChoiceField(choices=["player", "dealer", "house_way"], required=False)
    rule = serializers.CharField(required=False, help_text="The house way's reason, when the house way set it.")
    fouled = serializers.BooleanField(required=False)
    surrendered = serializers.BooleanField(required=False)


class SwapSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    gave = serializers.CharField()
    took = serializers.CharField()


class StoredHandsSerializer(serializers.Serializer[Any]):
    """A round's hands: each seat's by seat number (as text), the bank's (``banker``) and the house's own against a
    player bank (``house``); Chinese Poker's surrendered seats and swaps; Open-Face's turns and Fantasyland."""

    seats = serializers.DictField(child=StoredHandSerializer(), help_text="By seat number, as text.")
    banker = StoredHandSerializer(required=False)
    house = StoredHandSerializer(required=False)
    surrendered = serializers.ListField(child=serializers.IntegerField(), required=False)
    swaps = SwapSerializer(many=True, required=False)
    turns = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        required=False,
        help_text="Open-Face: [seat, cards placed], in the order placed.",
    )
    fantasyland = serializers.DictField(
        child=serializers.CharField(), required=False, help_text="Open-Face: each Fantasyland seat's discard."
    )


@extend_schema_field(StoredHandsSerializer)
class StoredHandsField(serializers.JSONField):
    """A round's hands as stored; null until they are entered."""


@extend_schema_field(
    {
        "type": "object",
        "description": "Open-Face's boards as placed so far: each seat's rows by seat number (as text), and turns, "
        "[seat, cards placed] in the order placed.",
        "properties": {
            "turns": {
                "type": "array",
                "items": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
            }
        },
        "additionalProperties": {
            "type": "object",
            "description": "A seat's rows so far, in notation (a row not yet begun is empty).",
            "properties": {row: {"type": "string"} for row in ("front", "middle", "back")},
            "required": ["front", "middle", "back"],
        },
    }
)
class PlacementsField(serializers.JSONField):
    """Open-Face's placements; null in the other games and before the first street."""


# --- a settlement's money lines -------------------------------------------------------------------------------------


class BankedSeatLineSerializer(serializers.Serializer[Any]):
    """A seat's wager settled against the bank."""

    seat = serializers.IntegerField()
    action_place = serializers.IntegerField(help_text="Its place in the action order, from 1.")
    wager_cents = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=["win", "loss", "push", "no_action"])
    won_cents = serializers.IntegerField(help_text="Negative: lost.")
    commission_cents = serializers.IntegerField()
    net_cents = serializers.IntegerField()
    fouled = serializers.BooleanField()


class PointsSeatLineSerializer(serializers.Serializer[Any]):
    """A seat of a points round (Chinese Poker, Open-Face, the tiles' peer variant)."""

    seat = serializers.IntegerField()
    stake_cents = serializers.IntegerField(help_text="Its value a point.")
    points = serializers.IntegerField()
    royalties = serializers.IntegerField()
    fouled = serializers.BooleanField()
    surrendered = serializers.BooleanField(required=False)
    swapped = serializers.BooleanField(required=False)
    won_cents = serializers.IntegerField(help_text="Negative: lost.")
    rake_cents = serializers.IntegerField()
    net_cents = serializers.IntegerField()


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="SeatLine",
        serializers=[BankedSeatLineSerializer, PointsSeatLineSerializer],
        resource_type_field_name=None,
        many=True,
    )
)
class SeatLinesField(serializers.JSONField):
    """A line a seat: banked (against the bank, in action order) or points (Chinese Poker, Open-Face, the tiles'
    peer variant)."""


class PairLineSerializer(serializers.Serializer[Any]):
    """Two seats of a points round against each other, the lower seat first: ``points`` (and ``cents``) to
    ``seat`` from ``opponent``, negative when lost; the rest by game."""

    seat = serializers.IntegerField()
    opponent = serializers.IntegerField()
    points = serializers.IntegerField()
    rows_won = serializers.IntegerField(required=False)
    rows_lost = serializers.IntegerField(required=False)
    natural = serializers.IntegerField(required=False)
    fouled = serializers.BooleanField(required=False)
    opponent_fouled = serializers.BooleanField(required=False)
    surrender = serializers.IntegerField(required=False)
    swap = serializers.IntegerField(required=False)
    rows = serializers.ListField(child=serializers.IntegerField(), required=False, help_text="Front, middle, back.")
    outcome = serializers.ChoiceField(choices=["win", "loss", "push"], required=False)
    stake_cents = serializers.IntegerField()
    cents = serializers.IntegerField()


class BankLineSerializer(serializers.Serializer[Any]):
    """A player bank's result."""

    seat = serializers.IntegerField()
    bank_cents = serializers.IntegerField(allow_null=True)
    covers_cents = serializers.IntegerField(allow_null=True)
    co_banking = serializers.BooleanField()
    won_cents = serializers.IntegerField(help_text="Negative: lost.")
    commission_cents = serializers.IntegerField()
    net_cents = serializers.IntegerField()


class HouseLineSerializer(serializers.Serializer[Any]):
    """What the house took: its bank's result, the commission, the rake, and its own wager's result against a
    player bank (counted in ``total_cents``)."""

    bank_won_cents = serializers.IntegerField()
    commission_cents = serializers.IntegerField()
    rake_cents = serializers.IntegerField()
    total_cents = serializers.IntegerField()
    wager_won_cents = serializers.IntegerField(required=False)


class RoundBalancesSerializer(serializers.Serializer[Any]):
    """Each account's net on a round, in cents, from its ledger entries."""

    players = serializers.DictField(child=serializers.IntegerField(), help_text="By seat number, as text.")
    banker = serializers.DictField(child=serializers.IntegerField(), help_text="A player bank's, by seat number.")
    house = serializers.IntegerField()
    commission = serializers.IntegerField()
    rake = serializers.IntegerField()
    wagers = serializers.IntegerField(help_text="The wagers account's net on the round.")


class SettlementOutputSerializer(serializers.Serializer[Any]):
    """A settlement: which round and rules, when, the hands it settled, and its money lines in cents."""

    settlement_id = serializers.IntegerField()
    idempotency_key = serializers.CharField(allow_null=True)
    round = serializers.IntegerField()
    table = serializers.IntegerField(help_text="The table's id.")
    table_name = serializers.CharField()
    number = serializers.IntegerField()
    game = serializers.ChoiceField(choices=list(registry.GAMES))
    rule_set_version = serializers.CharField(
        help_text="The rules the round was played by: a SHA-256 over them (the rule set's snapshot's version)."
    )
    settled_at = serializers.DateTimeField()
    corrects = serializers.IntegerField(allow_null=True)
    bank_seat = serializers.IntegerField(allow_null=True)
    hands = StoredHandsField(allow_null=True)
    seats = SeatLinesField()
    pairs = PairLineSerializer(many=True, required=False, help_text="A points round's every pair of seats.")
    bank = BankLineSerializer(allow_null=True, help_text="A player bank's line; null when the house banks.")
    house = HouseLineSerializer()
    house_wager = BankedSeatLineSerializer(
        required=False, help_text="The house's own wager against a player bank, settled as a seat."
    )


# --- hands as a dealer enters them ----------------------------------------------------------------------------------


class EnteredHandSerializer(serializers.Serializer[Any]):
    """One position's hand as entered, in notation: a setting (``high``, ``low``), rows (``front``, ``middle``,
    ``back``), or the cards or tiles unset for the house way to set (``cards``, ``tiles``)."""

    cards = serializers.CharField(required=False, help_text="Seven cards for the house way to set (Pai Gow Poker).")
    tiles = serializers.CharField(required=False, help_text="Four tiles for the house way to set (Pai Gow tiles).")
    high = serializers.CharField(required=False)
    low = serializers.CharField(required=False)
    front = serializers.CharField(required=False)
    middle = serializers.CharField(required=False)
    back = serializers.CharField(required=False)


class SwapEnteredSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    gave = serializers.CharField()
    took = serializers.CharField()


class HandsInputSerializer(serializers.Serializer[Any]):
    """A round's revealed hands: each seat's by seat number (as text), the bank's and, against a player bank, the
    house's own; Chinese Poker's surrendered seats (where the rule set allows) and swaps already recorded."""

    seats = serializers.DictField(child=EnteredHandSerializer(), help_text="By seat number, as text.")
    banker = EnteredHandSerializer(required=False)
    house = EnteredHandSerializer(required=False)
    surrendered = serializers.ListField(child=serializers.IntegerField(), required=False)
    swaps = SwapEnteredSerializer(many=True, required=False)


class PlacedStreetSerializer(serializers.Serializer[Any]):
    """The cards one seat places this street, by row; a Fantasyland seat places all 13 and names its discard."""

    front = serializers.CharField(required=False)
    middle = serializers.CharField(required=False)
    back = serializers.CharField(required=False)
    discard = serializers.CharField(required=False)


class PlacementsInputSerializer(serializers.Serializer[Any]):
    seats = serializers.DictField(child=PlacedStreetSerializer(), help_text="By seat number, as text.")


@extend_schema_field(HandsInputSerializer)
class HandsInputField(serializers.DictField):
    """Hands as the hands endpoint takes them (``HandsInputSerializer``); the service reads and checks them."""
