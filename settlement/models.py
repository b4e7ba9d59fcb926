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
from tables.models import Round, Seat, Table

# The poker room's postings and accounts (issue 18): on no round and no table, always keyed.
TOURNAMENT_POSTING_KINDS = ["t_entry", "t_prize", "t_bounty", "t_overlay", "t_reversal"]
TOURNAMENT_ACCOUNTS = ["entrants", "prize_pool", "t_fees", "bounties", "overlay"]


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


class Posting(AppendOnlyModel):
    """One balanced movement of money: its entries sum to zero.

    On a round, ``kind``: ``wager`` (a wager taken), ``settlement`` (the round settled, ``result``
    holding what the settle call answered), ``void`` (the wagers returned), ``reversal``
    (a settlement undone for a correction; ``reverses`` names it). A correcting
    settlement names the settlement it replaces in ``corrects``.

    The table's money (issue 16), on a table and a shift with no round: ``fill`` (chips from the cage to the
    tray), ``credit`` (chips from the tray back to the cage), ``buy_in`` (cash or a marker into the drop box,
    chips out of the tray) and ``drop`` (a counted box's cash and markers to the cage). Its ``idempotency_key``
    names what it posts (``slip:fill:17``, ``buy-in:42``, ``drop:3:9``), so nothing posts twice.
    """

    class Kind(models.TextChoices):
        WAGER = "wager", _("wager")
        SETTLEMENT = "settlement", _("settlement")
        VOID = "void", _("void")
        REVERSAL = "reversal", _("reversal")
        FILL = "fill", _("fill")
        CREDIT = "credit", _("credit")
        BUY_IN = "buy_in", _("buy-in")
        DROP = "drop", _("drop")
        # The poker room (issue 18): an entrant's payment (entry, re-entry, rebuy, add-on), a prize, a bounty, the
        # house's overlay to a guarantee, and the reversal of a prize or bounty when a bust is undone.
        T_ENTRY = "t_entry", _("tournament payment")
        T_PRIZE = "t_prize", _("tournament prize")
        T_BOUNTY = "t_bounty", _("tournament bounty")
        T_OVERLAY = "t_overlay", _("tournament overlay")
        T_REVERSAL = "t_reversal", _("tournament reversal")

    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, null=True, blank=True, related_name="postings", verbose_name=_("round")
    )
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, null=True, blank=True, related_name="money_postings", verbose_name=_("table")
    )
    shift = models.ForeignKey(
        Shift, on_delete=models.PROTECT, null=True, blank=True, related_name="money_postings", verbose_name=_("shift")
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    idempotency_key = models.CharField(_("idempotency key"), max_length=200, null=True, blank=True, unique=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+", verbose_name=_("actor")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    reason = models.TextField(_("reason"), blank=True)
    hands = models.JSONField(_("hands settled"), null=True, blank=True)
    result = models.JSONField(_("result"), null=True, blank=True)
    reverses = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by", verbose_name=_("reverses")
    )
    corrects = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="corrected_by",
        verbose_name=_("corrects"),
    )

    class Meta:
        ordering = ["round_id", "pk"]
        verbose_name = _("posting")
        verbose_name_plural = _("postings")
        indexes = [
            models.Index(fields=["round", "kind"], name="posting_round_kind"),
            models.Index(fields=["shift", "table"], name="posting_shift_table"),
        ]
        constraints = [
            # A round's money, or the table's money on a shift: one or the other, never neither.
            models.CheckConstraint(
                condition=models.Q(round__isnull=False, kind__in=["wager", "settlement", "void", "reversal"])
                | models.Q(
                    round__isnull=True,
                    table__isnull=False,
                    shift__isnull=False,
                    kind__in=["fill", "credit", "buy_in", "drop"],
                    idempotency_key__isnull=False,
                )
                | models.Q(
                    round__isnull=True,
                    table__isnull=True,
                    kind__in=TOURNAMENT_POSTING_KINDS,
                    idempotency_key__isnull=False,
                ),
                name="posting_round_or_table_money",
            ),
        ]
        triggers = append_only_triggers()

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.pk} on {self.round}"


class LedgerEntry(AppendOnlyModel):
    """One line of a posting: ``amount_cents`` into ``account`` (negative: out of it)."""

    class Account(models.TextChoices):
        PLAYER = "player", _("player")
        WAGERS = "wagers", _("wagers on the layout")
        HOUSE = "house", _("house bank")
        BANKER = "banker", _("player bank")
        COMMISSION = "commission", _("house commission")
        RAKE = "rake", _("house rake")
        CAGE = "cage", _("cage")
        TRAY = "tray", _("table tray")
        DROP = "drop", _("drop box")
        # The poker room (issue 18): the entrants (what they paid in, what they were paid), the prize pool, the
        # house's entry fees, the bounties on players' heads, and the overlay the house pays to a guarantee.
        ENTRANTS = "entrants", _("tournament entrants")
        PRIZE_POOL = "prize_pool", _("prize pool")
        TOURNAMENT_FEES = "t_fees", _("tournament fees")
        BOUNTIES = "bounties", _("bounties")
        OVERLAY = "overlay", _("guarantee overlay")

    class Kind(models.TextChoices):
        WAGER = "wager", _("wager")
        PAYOUT = "payout", _("payout")
        COMMISSION = "commission", _("commission")
        BANK = "bank", _("bank")
        RAKE = "rake", _("rake")
        REVERSAL = "reversal", _("reversal")
        FILL = "fill", _("fill")
        CREDIT = "credit", _("credit")
        BUY_IN = "buy_in", _("buy-in")
        DROP = "drop", _("drop")
        T_ENTRY = "t_entry", _("tournament payment")
        T_PRIZE = "t_prize", _("tournament prize")
        T_BOUNTY = "t_bounty", _("tournament bounty")
        T_OVERLAY = "t_overlay", _("tournament overlay")
        T_REVERSAL = "t_reversal", _("tournament reversal")

    posting = models.ForeignKey(Posting, on_delete=models.PROTECT, related_name="entries", verbose_name=_("posting"))
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, null=True, blank=True, related_name="ledger_entries", verbose_name=_("round")
    )
    account = models.CharField(_("account"), max_length=12, choices=Account.choices)
    seat = models.ForeignKey(
        Seat, on_delete=models.PROTECT, null=True, blank=True, related_name="ledger_entries", verbose_name=_("seat")
    )
    amount_cents = models.BigIntegerField(_("amount (cents)"))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+", verbose_name=_("actor")
    )
    created_at = models.DateTimeField(_("created at"))
    idempotency_key = models.CharField(_("idempotency key"), max_length=200, blank=True)

    class Meta:
        ordering = ["posting_id", "pk"]
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        indexes = [models.Index(fields=["round", "account"], name="ledger_round_account")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(account__in=["player", "banker"], seat__isnull=False)
                | models.Q(
                    account__in=["wagers", "house", "commission", "rake", "cage", "tray", "drop", *TOURNAMENT_ACCOUNTS],
                    seat__isnull=True,
                ),
                name="ledger_seat_matches_account",
            ),
        ]
        triggers = append_only_triggers()

    def __str__(self) -> str:
        who = f" seat {self.seat.number}" if self.seat_id else ""
        return f"{self.account}{who} {self.amount_cents:+d} ({self.kind})"


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
        Posting, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("posting")
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
