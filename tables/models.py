"""Gaming tables."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino import numbers
from casino.append_only import AppendOnlyModel, append_only_triggers, guarded_triggers
from casino.models import Pit, Shift
from casino.records import audited
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
    # The dealer working the table: the one Dealer who may play its rounds (supervisors may too).
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="dealt_tables",
        verbose_name=_("dealer"),
    )
    # Since when the dealer has been on the box (dealing here): set with the dealer (``tables.services``).
    dealer_since = models.DateTimeField(_("dealer since"), null=True, blank=True)
    # The pit-boss dashboard raises an alert for a single win above this (empty: no alert).
    big_win_cents = models.PositiveBigIntegerField(_("big-win alert above (cents)"), null=True, blank=True)
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


class Seat(models.Model):
    """A player position at a table.

    Seats are numbered 1 to ``seat_count`` clockwise (seen from above) from the
    dealer's left ("first base"), so the player on a seat's right sits at the next
    lower number, and the player on seat 1's right at the highest seat
    (GAME_RULES.md §1: play and the bank move counter-clockwise, to the right).
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seats", verbose_name=_("table"))
    number = models.PositiveSmallIntegerField(_("number"))
    player_name = models.CharField(_("player"), max_length=80, blank=True)

    class Meta:
        ordering = ["table_id", "number"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique_at_table"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="seat_number_positive"),
        ]
        # A seat's table and number never change: the ledger names players by seat.
        triggers = guarded_triggers("tables_seat", frozen=("table_id", "number"))

    def __str__(self) -> str:
        return f"{self.table.name} seat {self.number}"


# --- the table's money: the chips and the tray -----------------------------------------------------


@dataclass(frozen=True)
class Counted:
    """Chips or notes counted by denomination (a tray count's chips, a slip's, a drop count's notes): how many of
    each value in cents, as checked, in the order counted.

    Stored as JSON (``TrayCount.counts``, ``Slip.chips``, ``DropCount.cash``), each value as text (JSON's keys):
    ``stored`` writes it, ``read`` reads it back.

    >>> Counted({2500: 20, 10000: 3}).stored(), Counted({2500: 20, 10000: 3}).total_cents
    ({'2500': 20, '10000': 3}, 80000)
    >>> Counted.read({"2500": 20}).numbers
    {2500: 20}
    """

    numbers: Mapping[int, int]

    @property
    def total_cents(self) -> int:
        return sum(value * number for value, number in self.numbers.items())

    def stored(self) -> dict[str, int]:
        return {str(value): number for value, number in self.numbers.items()}

    @classmethod
    def read(cls, stored: Mapping[str, int]) -> Counted:
        return cls({int(value): number for value, number in stored.items()})


class ChipDenomination(models.Model):
    """A chip the house uses, by its value. The house's set is data (a data migration seeds 1, 5, 25, 100, 500,
    1,000 and 5,000 units); a chip taken out of play stays, ``in_use`` off, so older counts still name it."""

    value_cents = models.PositiveBigIntegerField(_("value (cents)"), unique=True)
    colour = models.CharField(_("colour"), max_length=30, blank=True)
    in_use = models.BooleanField(_("in use"), default=True)

    class Meta:
        ordering = ["value_cents"]
        verbose_name = _("chip denomination")
        verbose_name_plural = _("chip denominations")
        constraints = [models.CheckConstraint(condition=models.Q(value_cents__gt=0), name="chip_value_positive")]

    def __str__(self) -> str:
        return numbers.amount(self.value_cents)


@audited()
class TrayCount(models.Model):
    """A count of a table's chip tray by denomination: the opener when the table opens, the closer when it closes
    (DESIGN.md, "The table's money"). Counted by one person (the dealer, or a supervisor), confirmed by a second,
    a supervisor (``tables.tray``).

    ``counts`` maps each denomination's value in cents (as text, JSON's keys) to the chips counted; ``total_cents``
    is their sum. An opener also keeps ``expected_cents``, the table's last confirmed closer (None for a first
    opening): the difference is the discrepancy the pit sees. What was counted, and by whom, never changes; a
    confirmed count stays confirmed, in the database too.
    """

    class Kind(models.TextChoices):
        OPENER = "opener", _("opener")
        CLOSER = "closer", _("closer")

    class Status(models.TextChoices):
        COUNTED = "counted", _("counted, to confirm")
        CONFIRMED = "confirmed", _("confirmed")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="tray_counts", verbose_name=_("table"))
    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="tray_counts", verbose_name=_("shift"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    counts = models.JSONField(_("chips by denomination"))
    total_cents = models.PositiveBigIntegerField(_("total (cents)"))
    expected_cents = models.PositiveBigIntegerField(_("expected (cents)"), null=True, blank=True)
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("counted by")
    )
    counted_at = models.DateTimeField(_("counted at"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.COUNTED)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)

    class Meta:
        ordering = ["-counted_at", "-pk"]
        verbose_name = _("tray count")
        verbose_name_plural = _("tray counts")
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(status="counted"), name="one_count_to_confirm_per_table"
            ),
            # Confirmed by a second person, in the database too.
            models.CheckConstraint(
                condition=~models.Q(status="confirmed")
                | (
                    models.Q(confirmed_by__isnull=False, confirmed_at__isnull=False)
                    & ~models.Q(confirmed_by=models.F("counted_by"))
                ),
                name="tray_count_confirmed_by_another",
            ),
        ]
        triggers = guarded_triggers(
            "tables_traycount",
            frozen=(
                "table_id",
                "shift_id",
                "kind",
                "counts",
                "total_cents",
                "expected_cents",
                "counted_by_id",
                "counted_at",
            ),
            state="status",
            final_states=("confirmed",),
            frozen_from=(("confirmed_by_id", "confirmed_at"), ("confirmed",)),
        )

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.table.name} ({self.get_status_display()})"


@audited()
class SlipSequence(models.Model):
    """The last number given to a slip of one kind: the next slip's number is taken under this row's lock, in the
    slip's own transaction, so numbers run without gaps (a request that fails gives its number back)."""

    kind = models.CharField(_("kind"), max_length=10, unique=True)
    last_number = models.PositiveIntegerField(_("last number"), default=0)

    class Meta:
        verbose_name = _("slip sequence")
        verbose_name_plural = _("slip sequences")

    def __str__(self) -> str:
        return f"{self.kind} slips: {self.last_number}"


@audited()
class Slip(models.Model):
    """A fill (chips from the cage to the table) or a credit (chips from the table back to the cage), serially
    numbered without gaps per kind (DESIGN.md, "The table's money"; ``tables.slips``).

    Requested at the table, issued by a cage cashier (never whoever requested it), then signed at the table by
    two people, the dealer and a supervisor (never a cage cashier): received. A slip voided before it is received
    keeps its number, with who voided it and why. What was asked, and its number, never change; a received or
    voided slip never moves again, in the database too.
    """

    class Kind(models.TextChoices):
        FILL = "fill", _("fill")
        CREDIT = "credit", _("credit")

    class Status(models.TextChoices):
        REQUESTED = "requested", _("requested")
        ISSUED = "issued", _("issued by the cage")
        RECEIVED = "received", _("received and signed")
        VOIDED = "voided", _("voided")

    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    number = models.PositiveIntegerField(_("number"))
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="slips", verbose_name=_("table"))
    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="slips", verbose_name=_("shift"))
    chips = models.JSONField(_("chips by denomination"))
    total_cents = models.PositiveBigIntegerField(_("total (cents)"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.REQUESTED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("requested by")
    )
    requested_at = models.DateTimeField(_("requested at"))
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("issued by"),
    )
    issued_at = models.DateTimeField(_("issued at"), null=True, blank=True)
    dealer_signed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("signed by the dealer"),
    )
    supervisor_signed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("signed by the supervisor"),
    )
    received_at = models.DateTimeField(_("received at"), null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("voided by"),
    )
    void_reason = models.TextField(_("void reason"), blank=True)

    class Meta:
        ordering = ["kind", "number"]
        verbose_name = _("slip")
        verbose_name_plural = _("slips")
        constraints = [
            models.UniqueConstraint(fields=["kind", "number"], name="slip_number_unique_per_kind"),
            # The states a slip can only reach through ``tables.slips``, held in the database too: issued by the
            # cage and never by whoever asked; received with two different signatures; voided by someone, saying
            # why.
            models.CheckConstraint(
                condition=models.Q(issued_by__isnull=True) | ~models.Q(issued_by=models.F("requested_by")),
                name="slip_issued_by_another",
            ),
            models.CheckConstraint(
                condition=~models.Q(status__in=["issued", "received"]) | models.Q(issued_by__isnull=False),
                name="slip_issued_has_its_cashier",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="received")
                | models.Q(
                    dealer_signed_by__isnull=False, supervisor_signed_by__isnull=False, received_at__isnull=False
                ),
                name="slip_received_has_two_signatures",
            ),
            models.CheckConstraint(
                condition=models.Q(dealer_signed_by__isnull=True)
                | models.Q(supervisor_signed_by__isnull=True)
                | ~models.Q(dealer_signed_by=models.F("supervisor_signed_by")),
                name="slip_signed_by_two_people",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="voided") | (models.Q(voided_by__isnull=False) & ~models.Q(void_reason="")),
                name="slip_voided_by_someone_saying_why",
            ),
        ]
        triggers = guarded_triggers(
            "tables_slip",
            frozen=(
                "kind",
                "number",
                "table_id",
                "shift_id",
                "chips",
                "total_cents",
                "requested_by_id",
                "requested_at",
            ),
            state="status",
            final_states=("received", "voided"),
            frozen_from=(("issued_by_id", "issued_at"), ("issued", "received", "voided")),
            # A received or voided slip is finished: its signatures, its receipt and its void never change.
            final_frozen=(
                "dealer_signed_by_id",
                "supervisor_signed_by_id",
                "received_at",
                "voided_by_id",
                "void_reason",
            ),
        )

    def __str__(self) -> str:
        return f"{self.get_kind_display()} slip {self.number} ({self.table.name}, {self.get_status_display()})"


@audited()
class BuyIn(AppendOnlyModel):
    """Cash or a marker exchanged for chips at a seat, recorded by the dealer (``tables.drop``): the cash and the
    marker go into the table's drop box for the shift. Append-only: a buy-in entered wrong is answered by a
    correcting one, never edited."""

    class Medium(models.TextChoices):
        CASH = "cash", _("cash")
        MARKER = "marker", _("marker")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="buy_ins", verbose_name=_("table"))
    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="buy_ins", verbose_name=_("shift"))
    seat_number = models.PositiveSmallIntegerField(_("seat"))
    medium = models.CharField(_("paid with"), max_length=10, choices=Medium.choices)
    amount_cents = models.BigIntegerField(_("amount (cents)"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("recorded by")
    )
    recorded_at = models.DateTimeField(_("recorded at"))
    corrects = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("corrects")
    )

    is_voided: bool  # not a column: whether a later buy-in voids it, as the dealer's money page reads it

    class Meta:
        ordering = ["recorded_at", "pk"]
        verbose_name = _("buy-in")
        verbose_name_plural = _("buy-ins")
        constraints = [
            # A buy-in is voided once, by one correcting row of the opposite amount.
            models.UniqueConstraint(fields=["corrects"], name="buy_in_voided_once"),
        ]
        triggers = append_only_triggers()

    def __str__(self) -> str:
        return f"{self.table.name} seat {self.seat_number}: {self.amount_cents} cents in {self.medium}"


@audited()
class DropCount(AppendOnlyModel):
    """One count of a table's drop box for a shift, by a member of the count team (``tables.drop``): the cash by
    note, the markers and the promotional chips. A box is final when two counts by two different people agree on
    every figure. Append-only."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="drop_counts", verbose_name=_("table"))
    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="drop_counts", verbose_name=_("shift"))
    cash = models.JSONField(_("notes by denomination"))
    cash_cents = models.PositiveBigIntegerField(_("cash (cents)"))
    markers_cents = models.PositiveBigIntegerField(_("markers (cents)"))
    promo_cents = models.PositiveBigIntegerField(_("promotional chips (cents)"))
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("counted by")
    )
    counted_at = models.DateTimeField(_("counted at"))

    class Meta:
        ordering = ["counted_at", "pk"]
        verbose_name = _("drop box count")
        verbose_name_plural = _("drop box counts")
        triggers = append_only_triggers()

    def __str__(self) -> str:
        return f"drop box of {self.table.name}, shift {self.shift_id}: {self.cash_cents} cents cash"

    @property
    def figures(self) -> tuple[object, int, int]:
        """What two counts must agree on: the notes, the markers and the promotional chips. Notes that cannot be read
        (not a mapping: a row written past the application) agree with no other count, so the box is not final and
        the verifier names it, while the count room still draws every box."""
        if not isinstance(self.cash, Mapping):
            return object(), self.markers_cents, self.promo_cents
        return tuple(sorted(self.cash.items())), self.markers_cents, self.promo_cents


# Dealer rotation's records live in their own module; imported here so Django finds them.
from tables.rotation_models import DealerClockIn as DealerClockIn  # noqa: E402
from tables.rotation_models import DealerPush as DealerPush  # noqa: E402
from tables.rotation_models import DealerString as DealerString  # noqa: E402
from tables.rotation_models import StringDealer as StringDealer  # noqa: E402
from tables.rotation_models import StringTable as StringTable  # noqa: E402
