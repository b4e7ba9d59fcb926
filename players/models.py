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
