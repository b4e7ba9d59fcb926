"""A deal at the final table: what each player still in is paid when placed, recorded once."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.append_only import AppendOnlyModel, append_only_triggers
from casino.records import audited
from poker_room.tournaments.models import Tournament


@audited()
class Deal(AppendOnlyModel):
    """A deal at the final table: what each player still in is paid when placed, whatever the place.

    Worked out by ICM (Malmuth-Harville) or a chip chop from the stacks the director counted, or agreed amounts;
    ``reserve_cents`` is left to play for and goes to the winner on top. Once recorded it never changes, and the
    prizes posted at each bust follow it (``poker_room.tournaments.prizes.place_prize``)."""

    class Method(models.TextChoices):
        ICM = "icm", _("ICM")
        CHIP_CHOP = "chip_chop", _("chip chop")
        CUSTOM = "custom", _("agreed amounts")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="deals", verbose_name=_("tournament")
    )
    method = models.CharField(_("method"), max_length=10, choices=Method.choices)
    stacks = models.JSONField(_("chips by entry number"))
    prizes_left = models.JSONField(_("prizes of the places left (cents)"))
    reserve_cents = models.PositiveBigIntegerField(_("left to play for (cents)"), default=0)
    amounts = models.JSONField(_("paid by entry number (cents)"))
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "pk"]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        constraints = [models.UniqueConstraint(fields=["tournament"], name="one_deal_a_tournament")]
        triggers = append_only_triggers()

    def __str__(self) -> str:
        return f"{self.tournament}: {self.get_method_display()}"

    def amount_for(self, entry_number: int) -> int | None:
        """What the deal pays entry ``entry_number`` (the reserve not included), or None if it is not in it."""
        value = self.amounts.get(str(entry_number))
        return None if value is None else int(value)
