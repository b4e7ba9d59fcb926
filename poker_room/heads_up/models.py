"""A heads-up event's matches: the knock-out's, each naming where its winner goes, and the groups' round robins."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.append_only import guarded_triggers
from casino.records import audited
from poker_room.tournaments.models import Entry, Tournament


@audited()
class Match(models.Model):
    """A heads-up match: two entries (one may not be known yet), the hands dealt, the winner.

    A knock-out's matches are all drawn at once and each names where its winner goes (``next_match``/``next_side``);
    a group's are its round robin. ``hands`` counts the hands dealt: the blinds rise with it."""

    class Stage(models.TextChoices):
        GROUP = "group", _("group stage")
        KNOCKOUT = "knockout", _("knock-out")

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        READY = "ready", _("ready")
        DECIDED = "decided", _("decided")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="matches", verbose_name=_("tournament")
    )
    stage = models.CharField(_("stage"), max_length=10, choices=Stage.choices)
    round = models.PositiveSmallIntegerField(_("round"))
    number = models.PositiveSmallIntegerField(_("match"))
    group = models.PositiveSmallIntegerField(_("group"), null=True, blank=True)
    entry_a = models.ForeignKey(Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    entry_b = models.ForeignKey(Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    next_match = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="fed_by", verbose_name=_("winner to")
    )
    next_side = models.CharField(_("winner plays as"), max_length=1, blank=True)
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    hands = models.PositiveIntegerField(_("hands dealt"), default=0)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.WAITING)
    winner = models.ForeignKey(Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("drawn at"), auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "stage", "round", "number"]
        verbose_name = _("heads-up match")
        verbose_name_plural = _("heads-up matches")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "stage", "round", "number"], name="one_match_a_slot"),
        ]
        triggers = guarded_triggers(
            "poker_room_match",
            frozen=("tournament_id", "stage", "round", "number", "group", "next_match_id", "next_side", "created_at"),
        )

    def __str__(self) -> str:
        return f"{self.tournament}: {self.stage} round {self.round} match {self.number}"
