"""The card room's cash games and their waitlists.

* ``CashGame``: a points game (Chinese Poker, Open-Face) at stakes (the value of a point, in cents): one list of
  names, open until the desk closes it. One open list per game and stakes.
* ``CashTable``: a pit table (``tables.Table``) dealing the cash game: its main game, or a must-move table that
  feeds the main game.
* ``WaitlistEntry``: a name on the list (a guest's, or a rated player's), from put down to called, seated, moved,
  and gone (no-show, left the game, taken off the list). Its table is where a seat is held for it (called) or where
  it sits (seated).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.records import audited
from players.models import Player, RatingSession
from rules.models import Game
from tables.models import Table

# The games a cash game of the card room may be: the points games (each player against each).
POINTS_GAMES = [(Game.CHINESE_POKER.value, Game.CHINESE_POKER.label), (Game.OFC.value, Game.OFC.label)]


@audited()
class CashGame(models.Model):
    game = models.CharField(_("game"), max_length=20, choices=POINTS_GAMES)
    points_cents = models.PositiveIntegerField(_("a point (cents)"))
    opened_at = models.DateTimeField(_("opened at"))
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        ordering = ["game", "points_cents", "pk"]
        verbose_name = _("cash game")
        verbose_name_plural = _("cash games")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "points_cents"], condition=models.Q(closed_at__isnull=True), name="one_open_cash_list"
            ),
            models.CheckConstraint(condition=models.Q(points_cents__gt=0), name="cash_game_point_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} {self.points_cents}"


@audited()
class CashTable(models.Model):
    cash_game = models.ForeignKey(CashGame, on_delete=models.PROTECT, related_name="tables")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+", verbose_name=_("table"))
    must_move = models.BooleanField(_("must-move"), default=False)
    added_at = models.DateTimeField(_("added at"))
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    removed_at = models.DateTimeField(_("taken off at"), null=True, blank=True)

    class Meta:
        ordering = ["cash_game_id", "must_move", "pk"]
        verbose_name = _("cash game table")
        verbose_name_plural = _("cash game tables")
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(removed_at__isnull=True), name="a_table_deals_one_cash_game"
            ),
            models.UniqueConstraint(
                fields=["cash_game"],
                condition=models.Q(removed_at__isnull=True, must_move=False),
                name="one_main_table_a_cash_game",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table.name}{' (must-move)' if self.must_move else ''}"


@audited()
class WaitlistEntry(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        CALLED = "called", _("called")
        SEATED = "seated", _("seated")
        NO_SHOW = "no_show", _("no-show")
        LEFT = "left", _("left the game")
        REMOVED = "removed", _("taken off the list")

    class Source(models.TextChoices):
        DESK = "desk", _("the desk")
        KIOSK = "kiosk", _("the kiosk")

    cash_game = models.ForeignKey(CashGame, on_delete=models.PROTECT, related_name="entries")
    name = models.CharField(_("name"), max_length=60)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    source = models.CharField(_("put down at"), max_length=8, choices=Source.choices)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.WAITING)
    put_down_at = models.DateTimeField(_("put down at"))
    put_down_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    called_at = models.DateTimeField(_("called at"), null=True, blank=True)
    table = models.ForeignKey(CashTable, on_delete=models.PROTECT, null=True, blank=True, related_name="entries")
    seat_number = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    seated_at = models.DateTimeField(_("seated at"), null=True, blank=True)
    table_since = models.DateTimeField(_("at this table since"), null=True, blank=True)
    session = models.ForeignKey(RatingSession, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    ended_at = models.DateTimeField(_("gone at"), null=True, blank=True)

    class Meta:
        ordering = ["cash_game_id", "put_down_at", "pk"]
        verbose_name = _("waitlist entry")
        verbose_name_plural = _("waitlist entries")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seat_number"],
                condition=models.Q(status="seated"),
                name="one_player_a_cash_seat",
            ),
            models.CheckConstraint(
                condition=models.Q(status="waiting", table__isnull=True)
                | models.Q(status="called", table__isnull=False, called_at__isnull=False)
                | models.Q(status="seated", table__isnull=False, seat_number__isnull=False, seated_at__isnull=False)
                | models.Q(status__in=["no_show", "left", "removed"], ended_at__isnull=False),
                name="waitlist_entry_fits_its_status",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_status_display()})"
