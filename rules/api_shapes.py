"""The shape of a rule set as a round or a lab run keeps it (``rules.options.snapshot_build``), for the API's
schema: one component a game (``oneOf`` by ``game``), each game's house rules built from ``rules.options
.GAME_OPTIONS``, so a generated client reads every option typed."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from rules.games import registry
from rules.games.commission import Rounding
from rules.options import BANKING_MODES, GAME_OPTIONS, Option


def _option_field(option: Option) -> serializers.Field[Any, Any, Any, Any]:
    words = f"{option.label} (default {option.default!r}); absent from a round opened before the option existed"
    if option.choices:
        return serializers.ChoiceField(choices=list(option.choices), required=False, help_text=words)
    if option.kind is bool:
        return serializers.BooleanField(required=False, help_text=words)
    return serializers.IntegerField(min_value=0, max_value=option.maximum or None, required=False, help_text=words)


def _camel(game: str) -> str:
    return "".join(part.capitalize() for part in game.split("_"))


def _rule_set_serializer(game: str) -> type[serializers.Serializer[Any]]:
    options = type(
        f"{_camel(game)}OptionsSerializer",
        (serializers.Serializer,),
        {option.key: _option_field(option) for option in GAME_OPTIONS[game]},
    )
    fields: dict[str, Any] = {
        "schema": serializers.IntegerField(help_text="The snapshot's own format."),
        "rule_set_id": serializers.IntegerField(allow_null=True, help_text="The rule set it was taken from."),
        "name": serializers.CharField(),
        "game": serializers.ChoiceField(choices=[game]),
        "commission_rate_bp": serializers.IntegerField(help_text="Commission in basis points (500: 5%)."),
        "commission_rounding": serializers.ChoiceField(choices=[rounding.value for rounding in Rounding]),
        "commission_on_player_wins": serializers.BooleanField(),
        "banking_mode": serializers.ChoiceField(choices=list(BANKING_MODES)),
        "options": options(help_text="The game's house rules."),
        "version": serializers.CharField(
            help_text="SHA-256 over the rules (not the name): equal versions, equal play."
        ),
    }
    return type(f"RuleSet{_camel(game)}Serializer", (serializers.Serializer,), fields)


RULE_SET = PolymorphicProxySerializer(
    component_name="RuleSetSnapshot",
    serializers={game: _rule_set_serializer(game) for game in registry.GAMES},
    resource_type_field_name="game",
    many=False,
)


@extend_schema_field(RULE_SET)
class RuleSetField(serializers.JSONField):
    """The rules a round was opened with, frozen: one shape a game."""
