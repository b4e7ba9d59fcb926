"""A round's life at a table: the round and its states, who banked it, its wagers, the house's wager against a
player bank, and the requests to void or correct it (DESIGN.md, "One round, end to end").

These models came from the tables and settlement apps: each keeps the database table it was made with (``db_table``)
and the name the audit log has always given its rows (``audit_subject``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.append_only import AppendOnlyModel, append_only_triggers, guarded_triggers
from casino.models import Shift
from rounds.states import UNFINISHED_STATES, RoundState
from tables.models import Seat, Table


class Round(models.Model):
    """One coup at a table, in the open shift. Changed only by ``rounds.services.round_transition``.

    ``rule_set_snapshot`` is the table's rules frozen when the round opened; the round
    settles from it, never from the live rule set. The banker is ``bank_seat``; when it
    is empty the house banks, unless the snapshot's banking mode is ``none`` (Chinese
    Poker, OFC, the tiles' peer variant), where nobody does.
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds", verbose_name=_("table"))
    number = models.PositiveIntegerField(_("number"))
    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="rounds", verbose_name=_("shift"))
    state = models.CharField(
        _("state"),
        max_length=20,
        choices=[(state.value, state.value.replace("_", " ")) for state in RoundState],
        default=RoundState.OPEN.value,
    )
    rule_set_snapshot = models.JSONField(_("rule set snapshot"))
    bank_seat = models.ForeignKey(
        Seat,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="banked_rounds",
        verbose_name=_("banker's seat"),
    )
    # Empty when the system opened the round (training and simulation mode).
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("opened by"),
    )
    opened_at = models.DateTimeField(_("opened at"))
    # The dealer on the box when the round opened: the table's dealer then (empty when the table had none, or for
    # rounds opened before dealers were recorded by someone who was not a Dealer). Never changed after the open: a
    # dealer pushed off the table mid-round still dealt this round.
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="dealt_rounds",
        verbose_name=_("dealer"),
    )
    state_changed_at = models.DateTimeField(_("state changed at"))
    void_reason = models.TextField(_("void reason"), blank=True)
    # What a player banker puts up to cover the round's wagers (GAME_RULES.md §1, §2); empty when
    # the house banks or nobody does. When co-banking the house covers as much again.
    bank_cents = models.PositiveBigIntegerField(_("bank (cents)"), null=True, blank=True)
    # The deal: three dice (empty when the system dealt without dice) and every position in the order
    # it was dealt to: seat numbers, 0 for the dealer's own position. ``dealt`` holds the cards or
    # tiles each position received when the system dealt them (training and simulation mode).
    deal_mode = models.CharField(
        _("deal"), max_length=10, choices=[("dice", _("dice")), ("auto", _("system deal"))], blank=True
    )
    dice = models.JSONField(_("dice"), null=True, blank=True)
    action_order = models.JSONField(_("action order"), null=True, blank=True)
    dealt = models.JSONField(_("dealt"), null=True, blank=True)
    # The revealed hands, checked and written out in canonical notation (``rules.hands``), and for
    # Open-Face Chinese Poker each seat's board as placed street by street.
    hands = models.JSONField(_("hands"), null=True, blank=True)
    placements = models.JSONField(_("placements"), null=True, blank=True)

    audit_subject = "tables.round"  # the audit log's name for it since its first event

    class Meta:
        db_table = "tables_round"  # the table it has had since it was made
        ordering = ["table_id", "-number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="round_number_unique_at_table"),
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(state__in=sorted(state.value for state in UNFINISHED_STATES)),
                name="one_unfinished_round_per_table",
            ),
        ]
        # What a round is opened with never changes, nor its deal once dealt, and a settled or voided round never
        # moves again, in the database too: the replay (``verify_ledger --replay``) recomputes its settlement
        # from them.
        triggers = guarded_triggers(
            "tables_round",
            frozen=(
                "table_id",
                "number",
                "rule_set_snapshot",
                "bank_seat_id",
                "bank_cents",
                "opened_by_id",
                "opened_at",
            ),
            state="state",
            final_states=("settled", "voided"),
            frozen_from=(("deal_mode", "dice", "action_order", "dealt"), ("dealt", "revealed", "settled", "voided")),
        )

    def __str__(self) -> str:
        return f"{self.table.name} round {self.number} ({self.state})"


class BankTurn(models.Model):
    """Who banked a round, and how many rounds in a row they have banked (GAME_RULES.md §1, §2).

    ``seat`` empty means the house banked. Rounds without a bank (banking mode ``none``)
    have no bank turn.
    """

    round = models.OneToOneField(Round, on_delete=models.PROTECT, related_name="bank_turn", verbose_name=_("round"))
    seat = models.ForeignKey(
        Seat, on_delete=models.PROTECT, null=True, blank=True, related_name="bank_turns", verbose_name=_("seat")
    )
    consecutive = models.PositiveSmallIntegerField(_("rounds in a row"))

    audit_subject = "tables.bankturn"  # the audit log's name for it since its first event

    class Meta:
        db_table = "tables_bankturn"  # the table it has had since it was made
        verbose_name = _("bank turn")
        verbose_name_plural = _("bank turns")
        constraints = [
            models.CheckConstraint(condition=models.Q(consecutive__gte=1), name="bank_turn_consecutive_positive"),
        ]

    def __str__(self) -> str:
        banker = f"seat {self.seat.number}" if self.seat is not None else "the house"
        return f"{self.round}: {banker} banks ({self.consecutive} in a row)"


class Wager(AppendOnlyModel):
    """A seat's wager on a round: the stake in the banked games; the value of a point in the points games
    (Chinese Poker, OFC and the tiles' peer variant), where each pair of players plays at the smaller of
    their two values. Written by ``rounds.services.wager_place`` only."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="wagers", verbose_name=_("round"))
    seat = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="wagers", verbose_name=_("seat"))
    amount_cents = models.PositiveBigIntegerField(_("amount (cents)"))
    placed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+", verbose_name=_("placed by")
    )
    placed_at = models.DateTimeField(_("placed at"), auto_now_add=True)

    audit_subject = "settlement.wager"  # the audit log's name for it since its first event

    class Meta:
        db_table = "settlement_wager"  # the table it has had since it was made
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
    """The house's wager against a player bank in Pai Gow Poker (GAME_RULES.md §2): the dealer's own
    position (0) plays a hand set by the house way, wagering the banking player's last bet as a player.

    Taken when the round opens (``rounds.services.house_wager``) from ``last_wager``, the banker's most
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

    audit_subject = "settlement.housewager"  # the audit log's name for it since its first event

    class Meta:
        db_table = "settlement_housewager"  # the table it has had since it was made
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

    audit_subject = "settlement.adjustment"  # the audit log's name for it since its first event

    class Meta:
        db_table = "settlement_adjustment"  # the table it has had since it was made
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
