"""Players and their rating sessions (DESIGN.md "Players and ratings").

A ``Player`` is found by card number or name; an anonymous player has neither. A ``RatingSession`` follows one player
from seat to seat (``RatingSeat``: a table and a seat, from when to when) with its breaks (``RatingPause``), from the
moment they sit until they leave. Its figures are kept as it goes (never recomputed from every wager on a page).

Privacy: a player's name and card number live here only. The audit trail records a player by id and tier, never by
name, so a player anonymised on request (``anonymised_at``; the name and card number blanked) leaves the ledger and
the audit chain untouched.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.append_only import AppendOnlyModel, append_only_triggers
from casino.records import audited
from rounds.models import Round
from tables.models import BuyIn, Table


@audited()
class Player(models.Model):
    card_number = models.CharField(_("card number"), max_length=32, null=True, blank=True, unique=True)
    name = models.CharField(_("name"), max_length=120, blank=True)
    tier = models.CharField(_("tier"), max_length=40)
    anonymous = models.BooleanField(_("anonymous"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("created by")
    )
    anonymised_at = models.DateTimeField(_("anonymised at"), null=True, blank=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            # A named player has a name; an anonymous one (or one anonymised on request) has no name and no card.
            models.CheckConstraint(
                condition=(models.Q(anonymous=False) & ~models.Q(name=""))
                | models.Q(anonymous=True, name="", card_number__isnull=True),
                name="player_named_or_anonymous",
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"anonymous player {self.pk}"


# A session's figures kept as the sums of its rated rounds and buy-ins (``players.verify`` holds them to their rows).
SESSION_SUMS = (
    "rounds",
    "banker_rounds",
    "wagered_cents",
    "banker_wagered_cents",
    "win_loss_cents",
    "theo_millicents",
    "variance_cents2",
    "cash_in_cents",
    "markers_in_cents",
)


@audited(kept=SESSION_SUMS)
class RatingSession(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        PAUSED = "paused", _("on a break")
        ENDED = "ended", _("ended")

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="sessions", verbose_name=_("player"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PLAYING)
    started_at = models.DateTimeField(_("started at"))
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("started by")
    )
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    # The clock: seconds played before ``running_since`` (breaks excluded), and since when it runs (None on a break
    # or once ended).
    seconds_played = models.PositiveIntegerField(_("seconds played"), default=0)
    running_since = models.DateTimeField(_("running since"), null=True, blank=True)
    walk_with_cents = models.BigIntegerField(_("walked with (cents)"), null=True, blank=True)
    # What the player brought: chips from elsewhere when seated; cash and markers bought in at their seats
    # (``tables.BuyIn`` rows, counted as they are recorded or voided: ``RatedBuyIn``).
    chips_in_cents = models.BigIntegerField(_("chips brought (cents)"), default=0)
    cash_in_cents = models.BigIntegerField(_("cash bought in (cents)"), default=0)
    markers_in_cents = models.BigIntegerField(_("markers bought in (cents)"), default=0)
    # Kept as the session goes, never recomputed from every wager on each page: the sums of the
    # session's ``RatedRound`` rows, added in each settle's transaction (``players.rating``).
    rounds = models.IntegerField(_("rounds played"), default=0)
    banker_rounds = models.IntegerField(_("rounds as the banker"), default=0)
    wagered_cents = models.BigIntegerField(_("wagered as a player (cents)"), default=0)
    banker_wagered_cents = models.BigIntegerField(_("wagered as the banker (cents)"), default=0)
    win_loss_cents = models.BigIntegerField(_("actual win/loss (cents)"), default=0)
    theo_millicents = models.BigIntegerField(_("theoretical win (thousandths of a cent)"), default=0)
    # A statistic, not money: a float (square cents of wagers up to the table's maximum overflow a bigint).
    variance_cents2 = models.FloatField(_("variance of the result (square cents)"), default=0)

    class Meta:
        ordering = ["-started_at", "-pk"]
        verbose_name = _("rating session")
        verbose_name_plural = _("rating sessions")
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=~models.Q(status="ended"), name="one_session_at_a_time_per_player"
            ),
            models.CheckConstraint(
                condition=models.Q(status="ended", ended_at__isnull=False, running_since__isnull=True)
                | models.Q(status="paused", ended_at__isnull=True, running_since__isnull=True)
                | models.Q(status="playing", ended_at__isnull=True, running_since__isnull=False),
                name="rating_session_clock_matches_status",
            ),
        ]

    def __str__(self) -> str:
        return f"session {self.pk} of player {self.player_id} ({self.get_status_display()})"


@audited()
class RatingSeat(models.Model):
    """Where a session sat: a table and a seat, from ``started_at`` until ``ended_at`` (None: sitting there now)."""

    session = models.ForeignKey(RatingSession, on_delete=models.PROTECT, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rating_seats")
    seat_number = models.PositiveSmallIntegerField(_("seat"))
    started_at = models.DateTimeField(_("sat down at"))
    ended_at = models.DateTimeField(_("left at"), null=True, blank=True)

    class Meta:
        ordering = ["started_at", "pk"]
        verbose_name = _("rated seat")
        verbose_name_plural = _("rated seats")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seat_number"],
                condition=models.Q(ended_at__isnull=True),
                name="one_rated_player_a_seat",
            ),
            models.UniqueConstraint(
                fields=["session"], condition=models.Q(ended_at__isnull=True), name="one_seat_at_a_time_per_session"
            ),
        ]

    def __str__(self) -> str:
        return f"session {self.session_id} at table {self.table_id} seat {self.seat_number}"


@audited()
class RatingPause(models.Model):
    """A break: the session's clock stops from ``started_at`` until ``ended_at``."""

    session = models.ForeignKey(RatingSession, on_delete=models.PROTECT, related_name="pauses")
    started_at = models.DateTimeField(_("break from"))
    ended_at = models.DateTimeField(_("break until"), null=True, blank=True)

    class Meta:
        ordering = ["started_at", "pk"]
        verbose_name = _("break")
        verbose_name_plural = _("breaks")

    def __str__(self) -> str:
        return f"break of session {self.session_id} from {self.started_at:%H:%M}"


@audited()
class RatedBuyIn(AppendOnlyModel):
    """A buy-in (or the row voiding one) recorded at a rated seat, counted by the session seated there."""

    session = models.ForeignKey(RatingSession, on_delete=models.PROTECT, related_name="buy_ins")
    buy_in = models.OneToOneField(BuyIn, on_delete=models.PROTECT, related_name="rated")

    class Meta:
        verbose_name = _("rated buy-in")
        verbose_name_plural = _("rated buy-ins")
        triggers = append_only_triggers()

    def __str__(self) -> str:
        return f"buy-in {self.buy_in_id} in session {self.session_id}"


@audited()
class RatedRound(AppendOnlyModel):
    """What one settlement added to a rated session, for one position (a seat's wager, or the bank): the session's
    kept figures are the sums of these rows. A wager the bank could not cover ("no action") is a row of zeros
    (``rounds`` 0): the session sat there, so a correction that gives the wager action credits it. A correction adds
    the rows that undo the corrected settlement's (``rounds`` −1, every figure negated) and the new settlement's rows.
    Append-only."""

    class Position(models.TextChoices):
        PLAYER = "player", _("player")
        BANKER = "banker", _("banker")

    session = models.ForeignKey(RatingSession, on_delete=models.PROTECT, related_name="rated_rounds")
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="+")
    posting = models.ForeignKey("ledger.Posting", on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    seat_number = models.PositiveSmallIntegerField(_("seat"))
    position = models.CharField(_("position"), max_length=10, choices=Position.choices)
    rounds = models.SmallIntegerField(_("rounds"))
    action_cents = models.BigIntegerField(_("action (cents)"))
    win_loss_cents = models.BigIntegerField(_("win/loss (cents)"))
    theo_millicents = models.BigIntegerField(_("theoretical win (thousandths of a cent)"))
    variance_cents2 = models.FloatField(_("variance (square cents)"))
    edge_ppm = models.IntegerField(_("house edge (millionths)"))
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("rated round")
        verbose_name_plural = _("rated rounds")
        constraints = [
            # A settlement credits a position once (+1) and, corrected, is undone once (-1).
            models.UniqueConstraint(fields=["posting", "session", "position", "rounds"], name="rated_once_a_posting"),
        ]
        triggers = append_only_triggers()

    def __str__(self) -> str:
        return f"round {self.round_id} in session {self.session_id} ({self.position})"


class HoldRound(models.Model):
    """A settled round's house win beside what the house expected of it, for the table's hold window: derived from
    the settlement in force (a correction rewrites it) and kept so the hold of the last rounds is one read."""

    round = models.OneToOneField(Round, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    posting = models.ForeignKey("ledger.Posting", on_delete=models.PROTECT, related_name="+")
    action_cents = models.BigIntegerField(_("action (cents)"))
    house_win_cents = models.BigIntegerField(_("house win (cents)"))
    theo_millicents = models.BigIntegerField(_("expected house win (thousandths of a cent)"))
    variance_cents2 = models.FloatField(_("variance (square cents)"))

    class Meta:
        ordering = ["pk"]
        indexes = [models.Index(fields=["table", "-id"], name="hold_round_table_latest")]

    def __str__(self) -> str:
        return f"round {self.round_id}: house {self.house_win_cents} cents"


class TableHold(models.Model):
    """The sums of a table's last ``TABLESIDE_HOLD_WINDOW_ROUNDS`` ``HoldRound`` rows, rewritten at each settle, so
    the dashboard reads every table's hold drift in one query."""

    table = models.OneToOneField(Table, on_delete=models.PROTECT, primary_key=True, related_name="hold_window")
    rounds = models.IntegerField(default=0)
    action_cents = models.BigIntegerField(default=0)
    house_win_cents = models.BigIntegerField(default=0)
    theo_millicents = models.BigIntegerField(default=0)
    variance_cents2 = models.FloatField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"hold window of table {self.table_id}"


# --- credit at the table: credit lines and markers ---------------------------------------------------------------


@audited()
class CreditLine(models.Model):
    """How much credit a player may draw at the tables in markers (``players.credit``): set by a Credit manager; a
    line raised above ``TABLESIDE_CREDIT_APPROVAL_ABOVE_CENTS`` waits for a second Credit manager
    (``CreditLineChange``)."""

    player = models.OneToOneField(
        Player, on_delete=models.PROTECT, related_name="credit_line", verbose_name=_("player")
    )
    limit_cents = models.BigIntegerField(_("credit line (cents)"), default=0)
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("set by")
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("approved by"),
    )
    set_at = models.DateTimeField(_("set at"))

    class Meta:
        verbose_name = _("credit line")
        verbose_name_plural = _("credit lines")
        constraints = [models.CheckConstraint(condition=models.Q(limit_cents__gte=0), name="credit_line_not_negative")]

    def __str__(self) -> str:
        return f"credit line of player {self.player_id}: {self.limit_cents} cents"


@audited()
class CreditLineChange(models.Model):
    """A credit line asked for above the approval threshold: pending until a second Credit manager (never the one who
    asked) approves it (the line changes) or refuses it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for approval")
        APPROVED = "approved", _("approved")
        REFUSED = "refused", _("refused")

    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="credit_changes", verbose_name=_("player")
    )
    limit_cents = models.BigIntegerField(_("credit line asked (cents)"))
    previous_cents = models.BigIntegerField(_("credit line before (cents)"))
    reason = models.CharField(_("reason"), max_length=500, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("asked by")
    )
    asked_at = models.DateTimeField(_("asked at"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        ordering = ["-asked_at", "-pk"]
        verbose_name = _("credit line change")
        verbose_name_plural = _("credit line changes")
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=models.Q(status="pending"), name="one_pending_credit_change_a_player"
            ),
        ]

    def __str__(self) -> str:
        return f"credit line of player {self.player_id} to {self.limit_cents} cents ({self.status})"


@audited()
class MarkerSequence(models.Model):
    """The last number given to a marker: the next is taken under this row's lock in the issuing transaction, so
    marker numbers run without gaps across the casino (a refused issue gives its number back)."""

    name = models.CharField(_("name"), max_length=20, unique=True)
    last_number = models.PositiveIntegerField(_("last number"), default=0)

    class Meta:
        verbose_name = _("marker sequence")
        verbose_name_plural = _("marker sequences")

    def __str__(self) -> str:
        return f"markers: {self.last_number}"


@audited()
class Marker(models.Model):
    """A player's signed promise to pay, for chips at a seat (``players.markers``): asked for by the dealer with the
    player's signature, issued by a supervisor (numbered, chips out of the tray as a ``tables.BuyIn`` paid with a
    marker), in the table's drop box until the box is counted, then outstanding at the cage until redeemed (cash,
    chips or a cheque; a returned cheque re-opens it). Voided with who and why, before its box is counted."""

    class Status(models.TextChoices):
        REQUESTED = "requested", _("waiting for a supervisor")
        IN_DROP = "in_drop", _("in the drop box")
        AT_CAGE = "at_cage", _("outstanding at the cage")
        REDEEMED = "redeemed", _("redeemed")
        VOIDED = "voided", _("voided")

    number = models.PositiveIntegerField(_("number"), null=True, blank=True, unique=True)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="markers", verbose_name=_("player"))
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+", verbose_name=_("table"))
    seat_number = models.PositiveSmallIntegerField(_("seat"))
    amount_cents = models.BigIntegerField(_("amount (cents)"))
    # The player's signature drawn on the tablet (a PNG as a data URL), or their name typed where nothing can draw.
    signature = models.TextField(_("signature"), blank=True)
    signed_name = models.CharField(_("signed as"), max_length=120, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.REQUESTED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("asked for by")
    )
    requested_at = models.DateTimeField(_("asked for at"))
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("approved by"),
    )
    issued_at = models.DateTimeField(_("issued at"), null=True, blank=True)
    buy_in = models.OneToOneField(
        BuyIn, on_delete=models.PROTECT, null=True, blank=True, related_name="marker", verbose_name=_("buy-in")
    )
    counted_at = models.DateTimeField(_("counted at"), null=True, blank=True)
    redeemed_at = models.DateTimeField(_("redeemed at"), null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("voided by"),
    )
    voided_at = models.DateTimeField(_("voided at"), null=True, blank=True)
    void_reason = models.CharField(_("why voided"), max_length=500, blank=True)

    class Meta:
        ordering = ["-requested_at", "-pk"]
        verbose_name = _("marker")
        verbose_name_plural = _("markers")
        constraints = [
            models.CheckConstraint(condition=models.Q(amount_cents__gt=0), name="marker_amount_positive"),
            models.CheckConstraint(condition=~models.Q(signature="", signed_name=""), name="marker_signed"),
            models.CheckConstraint(
                condition=models.Q(status="requested", number__isnull=True)
                | models.Q(status="voided")
                | models.Q(number__isnull=False, buy_in__isnull=False),
                name="marker_issued_numbered",
            ),
        ]

    def __str__(self) -> str:
        return f"marker {self.number or '-'} of player {self.player_id}: {self.amount_cents} cents"


@audited()
class MarkerPayment(AppendOnlyModel):
    """A marker's redemption at the cage (cash, chips or a cheque), or a cheque that came back unpaid (``returned``,
    naming the payment it undoes, of the opposite amount). Append-only."""

    class Method(models.TextChoices):
        CASH = "cash", _("cash")
        CHIPS = "chips", _("chips")
        CHEQUE = "cheque", _("cheque")
        RETURNED = "returned", _("cheque returned")

    marker = models.ForeignKey(Marker, on_delete=models.PROTECT, related_name="payments", verbose_name=_("marker"))
    method = models.CharField(_("paid with"), max_length=10, choices=Method.choices)
    amount_cents = models.BigIntegerField(_("amount (cents)"))
    reference = models.CharField(_("cheque number"), max_length=40, blank=True)
    returns = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="returned_by", verbose_name=_("returns")
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("recorded by")
    )
    recorded_at = models.DateTimeField(_("recorded at"))

    class Meta:
        ordering = ["recorded_at", "pk"]
        verbose_name = _("marker payment")
        verbose_name_plural = _("marker payments")
        triggers = append_only_triggers()

    def __str__(self) -> str:
        return f"marker {self.marker_id}: {self.amount_cents} cents ({self.method})"
