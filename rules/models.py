"""House rules. ``Game`` names the four games a table can deal; ``RuleSet`` is the house rules a table plays by.

Design: a rule set keeps the settings every game shares in typed columns (commission
rate in basis points, rounding policy, commission on player wins, banking mode), so
the admin, the API and reports can filter and show them directly, and the game's own
options (house way, foul policy, scoring, royalty table, variants) in one ``options``
JSON column. Options differ per game, so one column per option would leave most of
them empty and meaningless for three games in four. The JSON is never free-form:
``rules.options`` defines each game's options in code (names, types, the allowed values
read from the engines' registries, GAME_RULES.md's defaults) and every write goes
through ``rules.options.rule_set_validate`` (the services and the admin form both);
what is stored is the complete, validated set with every default filled in.

A round keeps ``RuleSet.snapshot()``, a frozen JSON copy with a version hash, and
settles from ``rules.options.engine_options(snapshot)``; editing a rule set later
never changes a past settlement.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from rules import options as rule_options
from rules.games import registry
from rules.games.commission import Rounding


class Game(models.TextChoices):
    """The registry's games (``rules.games.registry``) as model choices; the labels here are the translatable ones."""

    PAIGOW_TILES = registry.PAIGOW_TILES, _("Pai Gow (tiles)")
    PAIGOW_POKER = registry.PAIGOW_POKER, _("Pai Gow Poker")
    CHINESE_POKER = registry.CHINESE_POKER, _("Chinese Poker")
    OFC = registry.OFC, _("Open-Face Chinese Poker")


# How many player seats a table of each game may have (GAME_RULES.md): the registry's ``seats``.
SEAT_LIMITS: dict[str, tuple[int, int]] = {key: spec.seats for key, spec in registry.GAMES.items()}


class RuleSet(models.Model):
    """The house rules a table plays by. Write it through ``rules.services`` only."""

    class BankingMode(models.TextChoices):
        HOUSE = rule_options.HOUSE, _("the house banks")
        PLAYER_ROTATION = rule_options.PLAYER_ROTATION, _("players bank in rotation")
        CO_BANKING = rule_options.CO_BANKING, _("co-banking (house and player half each)")
        NONE = rule_options.NO_BANK, _("no bank (points game or peer variant)")

    name = models.CharField(_("name"), max_length=80, unique=True)
    game = models.CharField(_("game"), max_length=20, choices=Game.choices)
    commission_rate_bp = models.PositiveIntegerField(_("commission rate (basis points)"), default=500)
    commission_rounding = models.CharField(
        _("commission rounding"),
        max_length=20,
        choices=[(r.value, r.value.replace("_", " ")) for r in Rounding],
        default=Rounding.CENT_DOWN.value,
    )
    commission_on_player_wins = models.BooleanField(_("commission on player wins"), default=False)
    banking_mode = models.CharField(
        _("banking mode"), max_length=20, choices=BankingMode.choices, default=BankingMode.HOUSE
    )
    options = models.JSONField(_("game options"), default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "name"]
        verbose_name = _("rule set")
        verbose_name_plural = _("rule sets")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(commission_rate_bp__lte=rule_options.MAX_BP), name="ruleset_commission_rate_range"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def settings(self) -> dict[str, Any]:
        """The stored settings, checked and completed with defaults (``rules.options.rule_set_validate``)."""
        return rule_options.rule_set_validate(
            game=self.game,
            common={field: getattr(self, field) for field in rule_options.COMMON_FIELDS},
            options=self.options or {},
        )

    def snapshot(self) -> dict[str, Any]:
        """A complete, JSON-serialisable frozen copy of every rule, with a version hash."""
        return rule_options.snapshot_build(
            rule_set_id=self.pk, name=self.name, game=self.game, settings=self.settings()
        )

    def engine_options(self) -> dict[str, dict[str, Any]]:
        """The engine keyword arguments for these rules, by way of a snapshot."""
        return rule_options.engine_options(self.snapshot())
