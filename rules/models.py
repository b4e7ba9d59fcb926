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

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.append_only import AppendOnlyModel, append_only_triggers, guarded_triggers
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


class LabRun(models.Model):
    """One run of the game-math lab: a rule set's house edges, simulated or counted exactly by a task.

    ``snapshot`` is the frozen rules the run played (``rules.options.snapshot_build``): the rule set's own, or an
    edited copy of them (``edited``); ``outcome_key`` the options that change a coup's outcome
    (``rules.edges.options_key``), as canonical JSON, by which ``rules.edges.rule_set_edges`` finds a run.
    ``wins``/``pushes``/``losses`` are the player's counts over ``hands_done`` coups, ``series`` the running counts
    after each step (``[hands, wins, pushes, losses]``), from which the page draws how the estimate converged.
    ``high_hand_ranks`` is the analysis comparison of Pai Gow Poker's high hands (``rules.games.lab``: the category
    and the first N ranks only; null, every rank, as the rules say): it is part of ``outcome_key``, so a run of it is
    never read as a rule set's edge.
    Written by ``rules.services`` and the task only. A finished or failed run never changes again (triggers).
    """

    class Method(models.TextChoices):
        SIMULATED = "simulated", _("simulated")
        EXACT = "exact", _("exact enumeration")

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for a worker")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        FAILED = "failed", _("failed")

    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, related_name="lab_runs", verbose_name=_("rule set"))
    edited = models.BooleanField(_("an edited copy of the rule set"), default=False)
    game = models.CharField(_("game"), max_length=20, choices=Game.choices)
    snapshot = models.JSONField(_("rules played"))
    outcome_key = models.CharField(_("outcome options"), max_length=400, db_index=True)
    method = models.CharField(_("method"), max_length=10, choices=Method.choices)
    hands_requested = models.PositiveBigIntegerField(_("hands requested"))
    seed = models.BigIntegerField(_("seed"), null=True, blank=True)
    high_hand_ranks = models.PositiveSmallIntegerField(
        _("high hands compared by their first ranks"), null=True, blank=True
    )
    request_key = models.CharField(_("form key"), max_length=32, unique=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    hands_done = models.PositiveBigIntegerField(_("hands done"), default=0)
    wins = models.PositiveBigIntegerField(_("player wins"), default=0)
    pushes = models.PositiveBigIntegerField(_("pushes"), default=0)
    losses = models.PositiveBigIntegerField(_("player losses"), default=0)
    series = models.JSONField(_("convergence series"), default=list, blank=True)
    error = models.TextField(_("why it failed"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+", verbose_name=_("started by")
    )
    created_at = models.DateTimeField(_("asked for at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    heartbeat_at = models.DateTimeField(_("last progress at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("lab run")
        verbose_name_plural = _("lab runs")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(hands_done__lte=models.F("hands_requested")), name="labrun_done_within_requested"
            ),
        ]
        # What was asked, by whom, never changes; a finished or failed run is never changed again (its counts are
        # what ratings may read, ``rules.edges``).
        triggers = guarded_triggers(
            "rules_labrun",
            frozen=(
                "rule_set_id",
                "edited",
                "game",
                "snapshot",
                "outcome_key",
                "method",
                "hands_requested",
                "seed",
                "high_hand_ranks",
                "request_key",
                "created_by_id",
                "created_at",
            ),
            state="status",
            final_states=("finished", "failed"),
            final_frozen=(
                "hands_done",
                "wins",
                "pushes",
                "losses",
                "series",
                "error",
                "started_at",
                "heartbeat_at",
                "finished_at",
            ),
        )

    def __str__(self) -> str:
        return f"lab run {self.pk}: {self.rule_set} ({self.get_status_display()})"


class LabChunk(AppendOnlyModel):
    """One part of a lab run, played by whichever worker took it: hands ``[first, first + hands)`` of a simulation
    (drawn from the run's seed and the chunk's index alone, so a seed gives the same counts however many workers
    play it) or a slice of the tiles' player hands. Written once, when the chunk is played; a chunk delivered twice
    finds its row and plays nothing. The run's counts are the sum of its chunks (``rules.lab_services``)."""

    run = models.ForeignKey(LabRun, on_delete=models.PROTECT, related_name="chunks", verbose_name=_("lab run"))
    index = models.PositiveIntegerField(_("chunk"))
    hands = models.PositiveBigIntegerField(_("hands"))
    wins = models.PositiveBigIntegerField(_("player wins"))
    pushes = models.PositiveBigIntegerField(_("pushes"))
    losses = models.PositiveBigIntegerField(_("player losses"))
    played_at = models.DateTimeField(_("played at"))
    worker = models.CharField(_("played by"), max_length=200, blank=True)

    class Meta:
        ordering = ["run", "index"]
        verbose_name = _("lab run chunk")
        verbose_name_plural = _("lab run chunks")
        constraints = [
            models.UniqueConstraint(fields=["run", "index"], name="labchunk_once_a_run"),
            models.CheckConstraint(
                condition=models.Q(hands=models.F("wins") + models.F("pushes") + models.F("losses")),
                name="labchunk_counts_add_up",
            ),
        ]
        triggers = append_only_triggers()

    def __str__(self) -> str:
        return f"lab run {self.run_id}, chunk {self.index}"
