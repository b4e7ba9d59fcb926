"""The shift's reports as accounting and audit sign them."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.models import Shift


class ShiftReport(models.Model):
    """A closed shift's report as accounting and audit sign it: the figures, their CSV, HTML and PDF.

    One per shift and kind. Built by ``pit.services.shift_report_build`` from the ledger and the audit
    log only; ``building`` while a build is under way (a crash leaves it so, and the next run finishes it),
    ``ready`` once the figures and the three renderings are written together. ``content_hash`` is the SHA-256 of
    the canonical JSON of ``data``: the same shift always gives the same hash.
    """

    class Kind(models.TextChoices):
        SHIFT = "shift", _("end-of-shift report")
        COMMISSION = "commission", _("commission report")
        AUDIT = "audit", _("audit report")
        MASTER_GAME = "master_game", _("Master Game Report")
        # Rated play: each rated session's play in the shift (``pit.rating_report``).
        RATINGS = "ratings", _("rating report")
        # Each dealer's pace, voids and corrections, and hold against its expectation (``pit.dealer_performance``).
        DEALERS = "dealers", _("dealer report")

    class Status(models.TextChoices):
        BUILDING = "building", _("being built")
        READY = "ready", _("ready")

    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="reports", verbose_name=_("shift"))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.BUILDING)
    data = models.JSONField(_("figures"), null=True, blank=True)
    csv = models.TextField(_("CSV"), blank=True)
    html = models.TextField(_("HTML"), blank=True)
    pdf = models.BinaryField(_("PDF"), blank=True, default=b"")
    content_hash = models.CharField(_("content hash (SHA-256)"), max_length=64, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["shift_id", "kind"]
        verbose_name = _("shift report")
        verbose_name_plural = _("shift reports")
        constraints = [models.UniqueConstraint(fields=["shift", "kind"], name="one_report_per_shift_and_kind")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}, {self.shift} ({self.get_status_display()})"
