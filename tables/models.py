"""Gaming tables."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.models import Pit
from rules.models import Game, RuleSet


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    pit = models.ForeignKey(Pit, on_delete=models.PROTECT, related_name="tables", verbose_name=_("pit"))
    name = models.CharField(_("name"), max_length=40, unique=True)
    game = models.CharField(_("game"), max_length=20, choices=Game.choices)
    min_wager_cents = models.PositiveIntegerField(_("minimum wager (cents)"))
    max_wager_cents = models.PositiveIntegerField(_("maximum wager (cents)"))
    seat_count = models.PositiveSmallIntegerField(_("seats"))
    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, related_name="tables", verbose_name=_("rule set"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.CLOSED)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pit__name", "name"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.CheckConstraint(condition=models.Q(min_wager_cents__gt=0), name="table_min_wager_positive"),
            models.CheckConstraint(
                condition=models.Q(max_wager_cents__gte=models.F("min_wager_cents")), name="table_max_not_below_min"
            ),
            models.CheckConstraint(
                condition=models.Q(seat_count__gte=1, seat_count__lte=7), name="table_seat_count_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_game_display()})"
