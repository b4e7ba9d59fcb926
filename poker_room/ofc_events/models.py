"""An Open-Face points tournament's hands: the boards entered at a table, scored once by the engine; a hand voided
stays in the record."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.append_only import guarded_triggers
from casino.records import audited
from poker_room.tournaments.models import Tournament


@audited()
class OfcHand(models.Model):
    """One hand of an Open-Face points tournament at one table: the boards as entered, scored once by
    ``rules.games.ofc``. Voided once (a hand entered wrongly), by the director, and it stays in the record."""

    class Status(models.TextChoices):
        IN_FORCE = "in_force", _("in force")
        VOIDED = "voided", _("voided")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="ofc_hands", verbose_name=_("tournament")
    )
    round = models.PositiveSmallIntegerField(_("round"))
    hand = models.PositiveSmallIntegerField(_("hand"))
    table_number = models.PositiveSmallIntegerField(_("table"))
    boards = models.JSONField(_("boards by entry number"))
    points = models.JSONField(_("points by entry number"))
    royalties = models.JSONField(_("royalties by entry number"))
    fouls = models.JSONField(_("fouled boards (entry numbers)"), default=list)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.IN_FORCE)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("at"), auto_now_add=True)
    voided_at = models.DateTimeField(_("voided at"), null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    void_reason = models.TextField(_("why voided"), blank=True)

    class Meta:
        ordering = ["tournament_id", "round", "table_number", "hand", "pk"]
        verbose_name = _("Open-Face hand")
        verbose_name_plural = _("Open-Face hands")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "hand", "table_number"],
                condition=models.Q(status="in_force"),
                name="one_ofc_hand_a_table",
            ),
        ]
        triggers = guarded_triggers(
            "poker_room_ofchand",
            frozen=(
                "tournament_id",
                "round",
                "hand",
                "table_number",
                "boards",
                "points",
                "royalties",
                "fouls",
                "actor_id",
                "created_at",
            ),
            state="status",
            final_states=("voided",),
            final_frozen=("voided_at", "voided_by_id", "void_reason"),
        )

    def __str__(self) -> str:
        return f"{self.tournament}: round {self.round} hand {self.hand} table {self.table_number}"
