"""Dealer rotation's records: dealers clocked in, strings of tables with their dealers, and the pushes
(``tables.rotation`` writes them; ``tables.rotation_plan`` is the rotation itself). Imported by ``tables.models``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.records import audited


@audited()
class DealerClockIn(models.Model):
    """A dealer at work for the shift, from being clocked in (by a supervisor) until clocked out. A dealer is
    clocked in once at a time."""

    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="clock_ins", verbose_name=_("dealer")
    )
    clocked_in_at = models.DateTimeField(_("clocked in at"))
    clocked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("clocked in by")
    )
    clocked_out_at = models.DateTimeField(_("clocked out at"), null=True, blank=True)
    clocked_out_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("clocked out by"),
    )

    class Meta:
        ordering = ["clocked_in_at", "pk"]
        verbose_name = _("dealer clock-in")
        verbose_name_plural = _("dealer clock-ins")
        constraints = [
            models.UniqueConstraint(
                fields=["dealer"], condition=models.Q(clocked_out_at__isnull=True), name="dealer_clocked_in_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.dealer_id} in at {self.clocked_in_at:%H:%M}"


@audited()
class DealerString(models.Model):
    """A string: a few tables dealt in turn by one more dealer than tables (or more), with its break pattern:
    minutes on and off, or a round robin of ``on_minutes`` at each table (``off_minutes`` empty). Started (its
    dealers chosen from who is clocked in) at ``started_at``; each start is a new ``generation`` of its dealers."""

    name = models.CharField(_("name"), max_length=40, unique=True)
    on_minutes = models.PositiveSmallIntegerField(_("minutes on"))
    off_minutes = models.PositiveSmallIntegerField(_("minutes off"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    generation = models.PositiveIntegerField(_("generation"), default=0)
    created_at = models.DateTimeField(_("created at"))

    class Meta:
        ordering = ["name"]
        verbose_name = _("dealer string")
        verbose_name_plural = _("dealer strings")
        constraints = [
            models.CheckConstraint(condition=models.Q(on_minutes__gte=1), name="string_on_minutes_positive"),
        ]

    def __str__(self) -> str:
        return self.name


@audited()
class StringTable(models.Model):
    """A table of a string, at its place in the push's order (1: the first table the relief taps out). A table is
    in one string at most."""

    string = models.ForeignKey(
        DealerString, on_delete=models.PROTECT, related_name="string_tables", verbose_name=_("string")
    )
    table = models.OneToOneField(
        "tables.Table", on_delete=models.PROTECT, related_name="string_place", verbose_name=_("table")
    )
    position = models.PositiveSmallIntegerField(_("position"))

    class Meta:
        ordering = ["string_id", "position"]
        verbose_name = _("table of a string")
        verbose_name_plural = _("tables of strings")
        constraints = [
            models.UniqueConstraint(fields=["string", "position"], name="string_table_position_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.string_id}#{self.position}"


@audited()
class StringDealer(models.Model):
    """A dealer of a string's generation (one start), at their place in its order: the first ones on the tables
    in order, the last ones on break (the relief last)."""

    string = models.ForeignKey(
        DealerString, on_delete=models.PROTECT, related_name="string_dealers", verbose_name=_("string")
    )
    generation = models.PositiveIntegerField(_("generation"))
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("dealer")
    )
    position = models.PositiveSmallIntegerField(_("position"))

    class Meta:
        ordering = ["string_id", "generation", "position"]
        verbose_name = _("dealer of a string")
        verbose_name_plural = _("dealers of strings")
        constraints = [
            models.UniqueConstraint(fields=["string", "generation", "position"], name="string_dealer_position_unique"),
            models.UniqueConstraint(fields=["string", "generation", "dealer"], name="string_dealer_once"),
        ]

    def __str__(self) -> str:
        return f"{self.string_id}/{self.generation}#{self.position}"


@audited()
class DealerPush(models.Model):
    """A push: ``dealer_in`` taps out ``dealer_out`` at ``table``. Asked (by the dealer tapping in, or a
    supervisor) at ``asked_at``; made at ``done_at`` at once, or, asked while a round is in play there, when that
    round is settled or voided (never mid-round). One push waits at a table at most."""

    string = models.ForeignKey(
        DealerString, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("string")
    )
    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="dealer_pushes", verbose_name=_("table")
    )
    dealer_in = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("dealer in")
    )
    dealer_out = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("dealer out"),
    )
    asked_at = models.DateTimeField(_("asked at"))
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("asked by")
    )
    done_at = models.DateTimeField(_("done at"), null=True, blank=True)

    class Meta:
        ordering = ["asked_at", "pk"]
        verbose_name = _("dealer push")
        verbose_name_plural = _("dealer pushes")
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(done_at__isnull=True), name="dealer_push_one_waiting"
            ),
        ]
        indexes = [models.Index(fields=["dealer_out", "done_at"], name="dealer_push_out_idx")]

    def __str__(self) -> str:
        return f"push at {self.table_id}: {self.dealer_in_id} for {self.dealer_out_id}"
