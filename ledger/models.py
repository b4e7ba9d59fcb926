"""The one double-entry ledger (DESIGN.md, "Money and numbers", "Ledger and audit").

Money is integer cents. Every movement of money is a ``Posting`` made of ``LedgerEntry`` rows whose amounts sum
to zero. An entry's amount is what its account receives: a player's wager is ``player −2500, wagers +2500``. Both
tables are append-only: a correction is a reversing posting, never an edit.

The ledger sits at the bottom of the house, just above the ground (``casino``): it knows nothing of the tables,
the rounds or the poker room that post to it. A posting carries the keys of what it moved money for, as plain ids
(``round_id``, ``table_id``; an entry's ``seat_id``) and its ``idempotency_key`` (``slip:fill:17``, ``buy-in:42``,
``tournament:3:prize:12:1``); the apps above join their rows to it (on PostgreSQL their migrations also hold
those ids to their rows with foreign keys: ``rounds`` and ``tables``).

The accounts:

* ``player``: the player on a seat (``seat_id`` set); the sum of their entries is their result.
* ``wagers``: the chips on the layout for a round, taken with each wager and released by the settlement or the
  void; it is back to zero when the round ends.
* ``house``: the house as banker (the table's own win or loss); ``banker``: a player banking the round (a seat).
* ``commission``: the house's commission income; ``rake``: its rake in the points games.
* The table's money: ``cage``, ``tray`` (the table's chip tray), ``drop`` (its drop box).
* Credit at the table: ``markers`` (the markers receivable: counted markers not yet redeemed).
* The poker room: ``entrants`` (what the players paid in, what they were paid), ``prize_pool``, ``t_fees`` (the
  house's entry fees), ``bounties`` and ``overlay`` (what the house adds to reach a guarantee).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from django.conf import settings
from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from casino.append_only import AppendOnlyModel, append_only_triggers
from casino.models import Shift

if TYPE_CHECKING:  # the stubs' extensions are a development requirement
    from django_stubs_ext import WithAnnotations

    from ledger.lines import Line


class Kind(models.TextChoices):
    """What a posting moves money for, and what each of its lines is: the one list of the ledger's kinds.

    A posting's kind is one of ``POSTING_KINDS``; a line also names the part of a settlement it
    is (a ``payout``, the ``commission``, the ``bank``'s share, the ``rake``).
    """

    # A round's money: a wager taken, the round settled, its wagers returned, a settlement undone for a correction.
    WAGER = "wager", _("wager")
    SETTLEMENT = "settlement", _("settlement")
    VOID = "void", _("void")
    REVERSAL = "reversal", _("reversal")
    # The table's money: chips from the cage to the tray, from the tray to the cage, a buy-in (cash or a marker
    # into the drop box, chips out of the tray), a counted drop box's cash and markers to the cage.
    FILL = "fill", _("fill")
    CREDIT = "credit", _("credit")
    BUY_IN = "buy_in", _("buy-in")
    DROP = "drop", _("drop")
    # The poker room: an entrant's payment (entry, re-entry, rebuy, add-on), a prize, a bounty, the house's overlay
    # to a guarantee, and the reversal of a prize or bounty when a bust is undone.
    T_ENTRY = "t_entry", _("tournament payment")
    T_PRIZE = "t_prize", _("tournament prize")
    T_BOUNTY = "t_bounty", _("tournament bounty")
    T_OVERLAY = "t_overlay", _("tournament overlay")
    T_REVERSAL = "t_reversal", _("tournament reversal")
    # Credit at the table: a counted marker from the cage's count into the markers receivable, its redemption at the
    # cage (cash, chips or a cheque), and a returned cheque re-opening it.
    MARKER = "marker", _("marker")
    # A settlement's lines only.
    PAYOUT = "payout", _("payout")
    COMMISSION = "commission", _("commission")
    BANK = "bank", _("bank")
    RAKE = "rake", _("rake")


ROUND_KINDS = (Kind.WAGER, Kind.SETTLEMENT, Kind.VOID, Kind.REVERSAL)
TABLE_MONEY_KINDS = (Kind.FILL, Kind.CREDIT, Kind.BUY_IN, Kind.DROP)
TOURNAMENT_KINDS = (Kind.T_ENTRY, Kind.T_PRIZE, Kind.T_BOUNTY, Kind.T_OVERLAY, Kind.T_REVERSAL)
CREDIT_KINDS = (Kind.MARKER,)
POSTING_KINDS = (*ROUND_KINDS, *TABLE_MONEY_KINDS, *TOURNAMENT_KINDS, *CREDIT_KINDS)
# The lines of a posting are of its own kind, but a settlement's, whose lines say what each part is.
LINE_KINDS = (Kind.WAGER, Kind.PAYOUT, Kind.COMMISSION, Kind.BANK, Kind.RAKE, Kind.REVERSAL,
              *TABLE_MONEY_KINDS, *TOURNAMENT_KINDS, *CREDIT_KINDS)  # fmt: skip


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
    ENTRANTS = "entrants", _("tournament entrants")
    PRIZE_POOL = "prize_pool", _("prize pool")
    TOURNAMENT_FEES = "t_fees", _("tournament fees")
    BOUNTIES = "bounties", _("bounties")
    OVERLAY = "overlay", _("guarantee overlay")
    MARKERS = "markers", _("markers receivable")


SEAT_ACCOUNTS = (Account.PLAYER, Account.BANKER)  # an entry of these names its seat; no other does
TOURNAMENT_ACCOUNTS = (Account.ENTRANTS, Account.PRIZE_POOL, Account.TOURNAMENT_FEES, Account.BOUNTIES, Account.OVERLAY)


def _choices(kinds: tuple[Kind, ...]) -> list[tuple[str, str | Promise]]:
    return [(kind.value, kind.label) for kind in kinds]


class Posting(AppendOnlyModel):
    """One balanced movement of money: its entries sum to zero.

    On a round (``round_id``): ``wager`` (a wager taken), ``settlement`` (the round settled, ``result`` holding
    what the settle answered and ``hands`` the hands it settled), ``void`` (the wagers returned), ``reversal`` (a
    settlement undone for a correction; ``reverses`` names it). A correcting settlement names the settlement it
    replaces in ``corrects``.

    The table's money, on a table and a shift with no round: ``fill``, ``credit``, ``buy_in`` and ``drop``; the
    poker room's, on neither: the ``t_*`` kinds. Their ``idempotency_key`` names what they post
    (``slip:fill:17``, ``buy-in:42``, ``drop:3:9``, ``tournament:3:purchase:7:entry:1``), so nothing posts twice.
    """

    Kind = Kind
    audit_subject = "settlement.posting"  # the audit log's name for a posting since its first event

    round_id = models.BigIntegerField(_("round (id)"), null=True, blank=True, db_index=True)
    table_id = models.BigIntegerField(_("table (id)"), null=True, blank=True, db_index=True)
    shift = models.ForeignKey(
        Shift, on_delete=models.PROTECT, null=True, blank=True, related_name="money_postings", verbose_name=_("shift")
    )
    kind = models.CharField(_("kind"), max_length=12, choices=_choices(POSTING_KINDS))
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
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="corrected_by", verbose_name=_("corrects")
    )

    # Kept on a posting as it is read or written, not columns: its entries, each with its seat's number, as
    # ``rounds.selectors.rounds_postings_read`` reads them; the lines ``ledger.services.post`` just wrote.
    entries_read: list[WithAnnotations[LedgerEntry, EntrySeat]]
    lines_written: tuple[Line, ...]

    class Meta:
        ordering = ["round_id", "pk"]
        verbose_name = _("posting")
        verbose_name_plural = _("postings")
        indexes = [
            models.Index(fields=["round_id", "kind"], name="ledger_posting_round_kind"),
            models.Index(fields=["shift", "table_id"], name="ledger_posting_shift_table"),
        ]
        constraints = [
            # A round's money, or the table's money on a shift, or the poker room's or a marker's (keyed, on no table).
            models.CheckConstraint(
                condition=models.Q(round_id__isnull=False, kind__in=[k.value for k in ROUND_KINDS])
                | models.Q(
                    round_id__isnull=True,
                    table_id__isnull=False,
                    shift__isnull=False,
                    kind__in=[k.value for k in TABLE_MONEY_KINDS],
                    idempotency_key__isnull=False,
                )
                | models.Q(
                    round_id__isnull=True,
                    table_id__isnull=True,
                    kind__in=[k.value for k in TOURNAMENT_KINDS],
                    idempotency_key__isnull=False,
                )
                | models.Q(
                    round_id__isnull=True,
                    table_id__isnull=True,
                    kind__in=[k.value for k in CREDIT_KINDS],
                    idempotency_key__isnull=False,
                ),
                name="posting_round_or_table_money",
            ),
        ]
        triggers = append_only_triggers()

    def __str__(self) -> str:
        on = f" on round id {self.round_id}" if self.round_id else ""
        return f"{self.get_kind_display()} {self.pk}{on}"


class EntrySeat(TypedDict):
    """What an entry read with its seat carries besides its columns: the seat's number (None: no seat)."""

    seat_number: int | None


class LedgerEntry(AppendOnlyModel):
    """One line of a posting: ``amount_cents`` into ``account`` (negative: out of it); a player's or a banker's
    line names its seat (``seat_id``)."""

    Account = Account
    Kind = Kind
    audit_subject = "settlement.ledgerentry"  # the audit log's name for an entry since its first event

    posting = models.ForeignKey(Posting, on_delete=models.PROTECT, related_name="entries", verbose_name=_("posting"))
    round_id = models.BigIntegerField(_("round (id)"), null=True, blank=True, db_index=True)
    account = models.CharField(_("account"), max_length=12, choices=Account.choices)
    seat_id = models.BigIntegerField(_("seat (id)"), null=True, blank=True, db_index=True)
    amount_cents = models.BigIntegerField(_("amount (cents)"))
    kind = models.CharField(_("kind"), max_length=12, choices=_choices(LINE_KINDS))
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+", verbose_name=_("actor")
    )
    created_at = models.DateTimeField(_("created at"))
    idempotency_key = models.CharField(_("idempotency key"), max_length=200, blank=True)

    class Meta:
        ordering = ["posting_id", "pk"]
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        indexes = [models.Index(fields=["round_id", "account"], name="ledger_entry_round_account")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(account__in=[a.value for a in SEAT_ACCOUNTS], seat_id__isnull=False)
                | models.Q(account__in=[a.value for a in Account if a not in SEAT_ACCOUNTS], seat_id__isnull=True),
                name="ledger_seat_matches_account",
            ),
        ]
        triggers = append_only_triggers()

    def __str__(self) -> str:
        who = f" seat id {self.seat_id}" if self.seat_id else ""
        return f"{self.account}{who} {self.amount_cents:+d} ({self.kind})"
