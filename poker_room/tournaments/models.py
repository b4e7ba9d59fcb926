"""The poker room's tournaments (DESIGN.md "The poker room", GAME_RULES.md §5).

A ``Tournament`` holds its structure (``levels``: the director's data, ``poker_room.pure.structure.Level`` as JSON), its
money rules (buy-in to the prize pool, the house fee, bounties, rebuys, add-ons, guarantee, payouts) and its clock,
stored as the instant the level ends (``clock_ends_at``) or, paused, what is left of it: every screen computes the
time left from the same instant, so nothing drifts and a restart changes nothing (``poker_room.pure.clock``).

Money moves only as ledger postings (``ledger.models.Posting``, kinds ``t_*``): each ``Purchase`` (an entry, a
re-entry, a rebuy, an add-on) posts what the entrant paid to the prize pool, the house's fees and the bounties; each
``Elimination`` in the money posts its prize, and a knock-out its bounty; an undone elimination reverses them. Both
are append-only; an elimination is undone once, by a new posting, and stays in the record (its ``undone_at``).
``SeatMove`` keeps every seat change (the draw, balancing, a table broken, the final table) for the dealer's tablet.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.append_only import AppendOnlyModel, append_only_triggers, guarded_triggers
from casino.records import audited
from ledger.models import Posting
from players.models import Player


@audited(exclude=("version",))
class Tournament(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class BountyKind(models.TextChoices):
        NONE = "none", _("no bounty")
        FIXED = "fixed", _("fixed bounty")
        PROGRESSIVE = "progressive", _("progressive bounty")

    class Format(models.TextChoices):
        CHIPS = "chips", _("chip tournament")
        HEADS_UP = "heads_up", _("heads-up")
        OFC_POINTS = "ofc_points", _("Open-Face points")

    class HeadsUpMode(models.TextChoices):
        BY_FIELD = "by_field", _("groups or knock-out by field size")
        KNOCKOUT = "knockout", _("knock-out")
        GROUPS = "groups", _("groups, then knock-out")

    class Seeding(models.TextChoices):
        DRAWN = "drawn", _("drawn")
        SEEDED = "seeded", _("seeded by entry number")

    class ClockStatus(models.TextChoices):
        NOT_STARTED = "not_started", _("not started")
        RUNNING = "running", _("running")
        PAUSED = "paused", _("paused")

    name = models.CharField(_("name"), max_length=120)
    template_key = models.CharField(_("template"), max_length=40, blank=True)
    games = models.JSONField(_("games"), default=list)
    rules = models.TextField(_("rules line"), blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PLANNED)
    format = models.CharField(_("format"), max_length=12, choices=Format.choices, default=Format.CHIPS)
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)

    # The money: what one entry pays (to the pool, to the house, to the bounties) and the chips it gets.
    starting_stack = models.PositiveIntegerField(_("starting stack"))
    buy_in_cents = models.PositiveBigIntegerField(_("buy-in to the prize pool (cents)"))
    fee_cents = models.PositiveBigIntegerField(_("house fee (cents)"), default=0)
    bounty_kind = models.CharField(_("bounty"), max_length=12, choices=BountyKind.choices, default=BountyKind.NONE)
    bounty_cents = models.PositiveBigIntegerField(_("bounty (cents)"), default=0)
    late_registration_level = models.PositiveSmallIntegerField(_("late registration until the end of level"), default=0)
    reentries_max = models.PositiveSmallIntegerField(_("re-entries allowed per player"), default=0)
    rebuys_max = models.PositiveSmallIntegerField(_("rebuys allowed per entry"), default=0)
    rebuy_until_level = models.PositiveSmallIntegerField(_("rebuys until the end of level"), default=0)
    rebuy_cents = models.PositiveBigIntegerField(_("rebuy to the prize pool (cents)"), default=0)
    rebuy_fee_cents = models.PositiveBigIntegerField(_("rebuy house fee (cents)"), default=0)
    rebuy_chips = models.PositiveIntegerField(_("rebuy chips"), default=0)
    addon_cents = models.PositiveBigIntegerField(_("add-on to the prize pool (cents)"), default=0)
    addon_fee_cents = models.PositiveBigIntegerField(_("add-on house fee (cents)"), default=0)
    addon_chips = models.PositiveIntegerField(_("add-on chips"), default=0)
    guarantee_cents = models.PositiveBigIntegerField(_("guaranteed prize pool (cents)"), default=0)
    payout_unit_cents = models.PositiveIntegerField(_("prizes rounded to (cents)"), default=100)
    min_cash_cents = models.PositiveBigIntegerField(_("minimum cash (cents)"), default=0)
    payouts = models.JSONField(_("payout table"), null=True, blank=True)  # None: the house's (payouts.HOUSE_PAYOUTS)

    # The structure and the house's chips.
    levels = models.JSONField(_("structure"), default=list)
    chips = models.JSONField(_("chip values"), default=list)
    table_size = models.PositiveSmallIntegerField(_("seats a table"), default=9)

    # The clock (poker_room.pure.clock.ClockState): the instant the level ends while running, what is left while paused.
    clock_status = models.CharField(
        _("clock"), max_length=12, choices=ClockStatus.choices, default=ClockStatus.NOT_STARTED
    )
    clock_level = models.PositiveSmallIntegerField(_("clock level (index)"), default=0)
    clock_ends_at = models.DateTimeField(_("level ends at"), null=True, blank=True)
    clock_remaining_ms = models.BigIntegerField(_("time left when paused (ms)"), null=True, blank=True)
    clock_hands = models.PositiveIntegerField(_("hands played in the level"), default=0)
    # Raised by every change a screen shows: the room display asks whether it moved (poker_room.display.live).
    version = models.PositiveBigIntegerField(_("version"), default=1)

    # Heads-up events (poker_room.heads_up.services): groups or a knock-out by field size, how the bracket is
    # drawn, and the ranges of places whose prizes are shared equally (the losers of one round), set when a stage is
    # drawn.
    heads_up_mode = models.CharField(
        _("heads-up mode"), max_length=10, choices=HeadsUpMode.choices, default=HeadsUpMode.BY_FIELD
    )
    groups_up_to = models.PositiveSmallIntegerField(_("groups for a field of at most"), default=16)
    group_size = models.PositiveSmallIntegerField(_("players a group"), default=4)
    seeding = models.CharField(_("seeding"), max_length=8, choices=Seeding.choices, default=Seeding.DRAWN)
    prize_tiers = models.JSONField(_("places sharing a prize"), default=list, blank=True)
    # Open-Face points events (poker_room.ofc_events.services): rounds of a fixed number of hands, tables
    # redrawn between rounds, scored by rules.games.ofc with these royalties.
    ofc_rounds = models.PositiveSmallIntegerField(_("rounds"), default=3)
    ofc_hands_per_round = models.PositiveSmallIntegerField(_("hands a round"), default=15)
    ofc_royalties = models.CharField(_("royalties"), max_length=20, default="mainz")
    ofc_round = models.PositiveSmallIntegerField(_("round being played"), default=0)

    pool_locked_at = models.DateTimeField(_("prize pool final at"), null=True, blank=True)
    overlay_cents = models.PositiveBigIntegerField(_("overlay paid by the house (cents)"), default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("created by")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(condition=models.Q(starting_stack__gt=0), name="tournament_stack_positive"),
            models.CheckConstraint(
                condition=models.Q(table_size__gte=2, table_size__lte=10), name="tournament_table_size"
            ),
            models.CheckConstraint(
                condition=models.Q(bounty_kind="none", bounty_cents=0) | ~models.Q(bounty_kind="none"),
                name="tournament_bounty_kind",
            ),
        ]
        # What an entrant pays and gets never changes once the tournament is under way. A finished tournament may
        # run again: undoing the last bust reopens it (``poker_room.tournaments.eliminations.elimination_undo``,
        # audited).
        triggers = guarded_triggers(
            "poker_room_tournament",
            frozen=("created_by_id", "created_at"),
            state="status",
            final_states=(),
            frozen_from=(
                (
                    "starting_stack",
                    "buy_in_cents",
                    "fee_cents",
                    "bounty_kind",
                    "bounty_cents",
                    "rebuy_cents",
                    "rebuy_fee_cents",
                    "rebuy_chips",
                    "addon_cents",
                    "addon_fee_cents",
                    "addon_chips",
                    "guarantee_cents",
                    "started_at",
                    "format",
                ),
                ("running", "finished"),
            ),
        )

    def __str__(self) -> str:
        return self.name


@audited()
class TournamentTable(models.Model):
    """A table of the tournament: its seats, where the button is, the dealer working it, and when it broke."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="tables", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("table number"))
    seats = models.PositiveSmallIntegerField(_("seats"))
    break_position = models.PositiveSmallIntegerField(_("breaks as"), default=0)  # 1 breaks first; 0: the final
    button = models.PositiveSmallIntegerField(_("button seat"), null=True, blank=True)
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("dealer"),
    )
    broken_at = models.DateTimeField(_("broken at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "number"]
        verbose_name = _("tournament table")
        verbose_name_plural = _("tournament tables")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_tournament_table_number"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: table {self.number}"


@audited()
class Entry(models.Model):
    """One buy-in into the tournament: a player's first entry, or a re-entry after busting (a new entry).

    ``table_number``/``seat_number`` are where the entry sits now (none once busted). ``chips`` counts the chips
    the entry bought (the stack, rebuys, the add-on): the room's chips in play are their sum over entries still in.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", _("playing")
        BUSTED = "busted", _("out")
        WON = "won", _("winner")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="entries", verbose_name=_("tournament")
    )
    number = models.PositiveIntegerField(_("entry number"))
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("player")
    )
    name = models.CharField(_("name"), max_length=120)
    reentry_of = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reentry", verbose_name=_("re-entry of")
    )
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.ACTIVE)
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    seat_number = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    chips = models.PositiveBigIntegerField(_("chips bought"))
    rebuys = models.PositiveSmallIntegerField(_("rebuys"), default=0)
    addon = models.BooleanField(_("add-on taken"), default=False)
    bounty_cents = models.PositiveBigIntegerField(_("bounty on this player (cents)"), default=0)
    place = models.PositiveIntegerField(_("place"), null=True, blank=True)
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("registered by")
    )

    class Meta:
        ordering = ["tournament_id", "number"]
        verbose_name = _("tournament entry")
        verbose_name_plural = _("tournament entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_entry_number"),
            models.UniqueConstraint(
                fields=["tournament", "table_number", "seat_number"],
                condition=models.Q(status="active", table_number__isnull=False),
                name="one_player_a_tournament_seat",
            ),
            models.UniqueConstraint(
                fields=["tournament", "place"], condition=models.Q(place__isnull=False), name="one_entry_a_place"
            ),
            models.CheckConstraint(
                condition=models.Q(status="active", place__isnull=True) | ~models.Q(status="active"),
                name="entry_placed_once_out",
            ),
        ]
        triggers = guarded_triggers(
            "poker_room_entry",
            frozen=("tournament_id", "number", "reentry_of_id", "created_at", "created_by_id"),
        )

    def __str__(self) -> str:
        return f"#{self.number} {self.name}"


@audited()
class Purchase(AppendOnlyModel):
    """What an entrant paid, once: an entry, a re-entry, a rebuy or an add-on, and its posting in the ledger."""

    class Kind(models.TextChoices):
        ENTRY = "entry", _("entry")
        REENTRY = "reentry", _("re-entry")
        REBUY = "rebuy", _("rebuy")
        ADDON = "addon", _("add-on")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="purchases", verbose_name=_("tournament")
    )
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="purchases", verbose_name=_("entry"))
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    prize_cents = models.PositiveBigIntegerField(_("to the prize pool (cents)"))
    fee_cents = models.PositiveBigIntegerField(_("house fee (cents)"))
    bounty_cents = models.PositiveBigIntegerField(_("bounty (cents)"))
    chips = models.PositiveBigIntegerField(_("chips"))
    posting = models.OneToOneField(
        Posting, on_delete=models.PROTECT, null=True, related_name="+", verbose_name=_("posting")
    )
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "pk"]
        verbose_name = _("tournament purchase")
        verbose_name_plural = _("tournament purchases")
        triggers = append_only_triggers()

    @property
    def total_cents(self) -> int:
        return self.prize_cents + self.fee_cents + self.bounty_cents


@audited()
class Elimination(models.Model):
    """A player out of the tournament (or the winner, ``place`` 1, with no eliminator), with what it paid.

    Undone once (a mistaken bust): ``undone_at``/``undone_by``/``undo_reason`` and the reversing posting are set
    together, and nothing else of the row ever changes (database triggers).
    """

    class Status(models.TextChoices):
        IN_FORCE = "in_force", _("in force")
        UNDONE = "undone", _("undone")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="eliminations", verbose_name=_("tournament")
    )
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.IN_FORCE)
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="eliminations", verbose_name=_("entry"))
    eliminated_by = models.ForeignKey(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="knockouts", verbose_name=_("by")
    )
    place = models.PositiveIntegerField(_("place"))
    prize_cents = models.PositiveBigIntegerField(_("prize (cents)"), default=0)
    bounty_paid_cents = models.PositiveBigIntegerField(_("bounty paid to the eliminator (cents)"), default=0)
    bounty_added_cents = models.PositiveBigIntegerField(_("bounty added to the eliminator's (cents)"), default=0)
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    seat_number = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    posting = models.OneToOneField(
        Posting, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("posting")
    )
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("at"), auto_now_add=True)
    undone_at = models.DateTimeField(_("undone at"), null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    undo_reason = models.TextField(_("why undone"), blank=True)
    undo_posting = models.OneToOneField(
        Posting, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("reversal")
    )

    class Meta:
        ordering = ["tournament_id", "pk"]
        verbose_name = _("elimination")
        verbose_name_plural = _("eliminations")
        constraints = [
            models.UniqueConstraint(
                fields=["entry"], condition=models.Q(status="in_force"), name="one_elimination_an_entry"
            ),
        ]
        triggers = guarded_triggers(
            "poker_room_elimination",
            frozen=(
                "tournament_id",
                "entry_id",
                "eliminated_by_id",
                "place",
                "prize_cents",
                "bounty_paid_cents",
                "bounty_added_cents",
                "table_number",
                "seat_number",
                "posting_id",
                "actor_id",
                "created_at",
            ),
            state="status",
            final_states=("undone",),
            final_frozen=("undone_at", "undone_by_id", "undo_reason", "undo_posting_id"),
        )

    def __str__(self) -> str:
        return f"{self.entry} out in place {self.place}"


@audited()
class SeatMove(AppendOnlyModel):
    """A seat change: the draw, a late entry seated, a balance, a table broken, the final table, an undo."""

    class Reason(models.TextChoices):
        DRAW = "draw", _("seat draw")
        BALANCE = "balance", _("balancing")
        TABLE_BREAK = "table_break", _("table broken")
        FINAL_TABLE = "final_table", _("final table")
        UNDO = "undo", _("bust undone")
        ROUND_DRAW = "round_draw", _("round redraw")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="seat_moves", verbose_name=_("tournament")
    )
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seat_moves", verbose_name=_("entry"))
    from_table = models.PositiveSmallIntegerField(_("from table"), null=True, blank=True)
    from_seat = models.PositiveSmallIntegerField(_("from seat"), null=True, blank=True)
    to_table = models.PositiveSmallIntegerField(_("to table"))
    to_seat = models.PositiveSmallIntegerField(_("to seat"))
    reason = models.CharField(_("reason"), max_length=12, choices=Reason.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")
    created_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "pk"]
        verbose_name = _("seat change")
        verbose_name_plural = _("seat changes")
        triggers = append_only_triggers()
