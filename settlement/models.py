"""Wagers, postings and the double-entry ledger (DESIGN.md, "Money and numbers", "Ledger and audit").

Money is integer cents. Every movement of money is a ``Posting`` (a wager taken, a
round settled, a round voided, a settlement reversed for a correction) made of
``LedgerEntry`` rows whose amounts sum to zero. An entry's amount is what its
account receives: a player's wager is ``player −2500, wagers +2500``. Both tables
are append-only: a correction is a reversing posting, never an edit.

The accounts:

* ``player``: the player on a seat (``seat`` set); the sum of their entries is their result.
* ``wagers``: the chips on the layout for a round, taken with each wager and
  released by the settlement or the void; it is back to zero when the round ends.
* ``house``: the house as banker (the table's own win or loss).
* ``banker``: a player banking the round (``seat`` set).
* ``commission``: the house's commission income; ``rake``: its rake in the points games.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.append_only import AppendOnlyModel, append_only_triggers, guarded_triggers
from casino.models import Shift
from tables.models import Round, Seat


class Wager(AppendOnlyModel):
    """A seat's wager on a round: the stake in the banked games; the value of a point in the points games
    (Chinese Poker, OFC and the tiles' peer variant), where each pair of players plays at the smaller of
    their two values. Written by ``settlement.services.wager_place`` only."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="wagers", verbose_name=_("round"))
    seat = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="wagers", verbose_name=_("seat"))
    amount_cents = models.PositiveBigIntegerField(_("amount (cents)"))
    placed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+", verbose_name=_("placed by")
    )
    placed_at = models.DateTimeField(_("placed at"), auto_now_add=True)

    class Meta:
        ordering = ["round_id", "seat_id"]
        verbose_name = _("wager")
        verbose_name_plural = _("wagers")
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="one_wager_per_seat_per_round"),
            models.CheckConstraint(condition=models.Q(amount_cents__gt=0), name="wager_positive"),
        ]
        triggers = append_only_triggers()

    def __str__(self) -> str:
        return f"{self.round}: seat {self.seat.number} {self.amount_cents} cents"


class HouseWager(AppendOnlyModel):
    """The house's wager against a player bank in Pai Gow Poker (GAME_RULES.md §2, issue 20): the dealer's own
    position (0) plays a hand set by the house way, wagering the banking player's last bet as a player.

    Taken when the round opens (``settlement.services.house_wager``) from ``last_wager``, the banker's most
    recent wager on a settled round at the table in the same shift; its chips go from the house to the layout
    (a ``wager`` posting) and it settles against the bank like a seat's wager (``settlement.compute``).
    """

    round = models.OneToOneField(Round, on_delete=models.PROTECT, related_name="house_wager", verbose_name=_("round"))
    amount_cents = models.PositiveBigIntegerField(_("amount (cents)"))
    last_wager = models.ForeignKey(
        Wager, on_delete=models.PROTECT, related_name="+", verbose_name=_("the banker's last bet")
    )
    placed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+", verbose_name=_("placed by")
    )
    placed_at = models.DateTimeField(_("placed at"), auto_now_add=True)

    class Meta:
        ordering = ["round_id"]
        verbose_name = _("house wager")
        verbose_name_plural = _("house wagers")
        constraints = [
            models.CheckConstraint(condition=models.Q(amount_cents__gt=0), name="house_wager_positive"),
        ]
        triggers = append_only_triggers()

    def __str__(self) -> str:
        return f"{self.round}: the house {self.amount_cents} cents"


class Adjustment(models.Model):
    """A dealer's request to void a round or correct its settlement, waiting for a supervisor's decision.

    The decision is taken by ``settlement.services.adjustment_approve`` (which voids or
    corrects the round through the services) or ``adjustment_reject``; both are audited.
    A decided request is never decided again.
    """

    class Kind(models.TextChoices):
        VOID = "void", _("void")
        CORRECTION = "correction", _("correction")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for approval")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="adjustments", verbose_name=_("round"))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    reason = models.TextField(_("reason"))
    hands = models.JSONField(_("corrected hands"), null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+", verbose_name=_("requested by")
    )
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decision_note = models.TextField(_("decision note"), blank=True)
    posting = models.ForeignKey(
        "ledger.Posting", on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("posting")
    )

    class Meta:
        ordering = ["-requested_at"]
        verbose_name = _("void or correction request")
        verbose_name_plural = _("void and correction requests")
        constraints = [
            models.UniqueConstraint(
                fields=["round"], condition=models.Q(status="pending"), name="one_pending_adjustment_per_round"
            ),
        ]
        # What was asked, and by whom, never changes; a decided request is never decided again, nor its decision
        # changed (four eyes are checked against ``requested_by``, and the approval corrects with ``hands``).
        triggers = guarded_triggers(
            "settlement_adjustment",
            frozen=("round_id", "kind", "reason", "hands", "requested_by_id", "requested_at"),
            state="status",
            final_states=("approved", "rejected"),
            frozen_from=(("decided_by_id", "decided_at", "decision_note", "posting_id"), ("approved", "rejected")),
        )

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.round} ({self.get_status_display()})"


class ShiftReport(models.Model):
    """A closed shift's report as accounting and audit sign it (issue 8): the figures, their CSV, HTML and PDF.

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
        # Rated play (issue 17): each rated session's play in the shift (``pit.rating_report``).
        RATINGS = "ratings", _("rating report")

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
