"""A league (a season of the poker room's events, scored by the house's formula) and the tournaments counted in it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.append_only import guarded_triggers
from casino.records import audited
from poker_room.tournaments.models import Tournament


@audited()
class League(models.Model):
    """A season of the poker room's events: points per event by the house's formula, the best N counted,
    ties broken in a set order; its top players are invited to the Master Class, their points their stack."""

    class Formula(models.TextChoices):
        SQRT_PLACE = "sqrt_place", _("10 × √players ÷ √place")
        POKERSTARS = "pokerstars", _("PokerStars leader board")
        TABLE = "table", _("points by place")
        EXPRESSION = "expression", _("the house's own formula")

    class Rounding(models.TextChoices):
        NEAREST = "nearest", _("to the nearest chip")
        UP = "up", _("up")
        DOWN = "down", _("down")

    name = models.CharField(_("name"), max_length=120)
    season = models.CharField(_("season"), max_length=40)
    formula = models.CharField(_("formula"), max_length=12, choices=Formula.choices, default=Formula.SQRT_PLACE)
    expression = models.TextField(_("expression"), blank=True)
    points_table = models.JSONField(_("points by place"), default=list, blank=True)
    best_of = models.PositiveSmallIntegerField(_("best results counted (0: all)"), default=0)
    tie_breaks = models.JSONField(_("tie-breaks in order"), default=list, blank=True)
    master_class_size = models.PositiveSmallIntegerField(_("players invited to the Master Class"), default=10)
    chips_per_point = models.PositiveIntegerField(_("chips a point"), default=1)
    chip_rounding = models.CharField(_("rounding"), max_length=8, choices=Rounding.choices, default=Rounding.NEAREST)
    master_class = models.OneToOneField(
        Tournament,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="master_class_of",
        verbose_name=_("Master Class"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("created by")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-season", "name", "pk"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        triggers = guarded_triggers("poker_room_league", frozen=("created_by_id", "created_at"))

    def __str__(self) -> str:
        return f"{self.name} {self.season}"


@audited()
class LeagueEvent(models.Model):
    """A tournament counted in a league. Taken out by marking it (``removed_at``), never by deleting it."""

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="events", verbose_name=_("league"))
    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="league_events", verbose_name=_("tournament")
    )
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    added_at = models.DateTimeField(_("added at"), auto_now_add=True)
    removed_at = models.DateTimeField(_("taken out at"), null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["league_id", "pk"]
        verbose_name = _("league event")
        verbose_name_plural = _("league events")
        constraints = [
            models.UniqueConstraint(
                fields=["league", "tournament"],
                condition=models.Q(removed_at__isnull=True),
                name="one_league_event",
            ),
        ]
        triggers = guarded_triggers(
            "poker_room_leagueevent",
            frozen=("league_id", "tournament_id", "added_by_id", "added_at"),
        )

    def __str__(self) -> str:
        return f"{self.league}: {self.tournament}"
