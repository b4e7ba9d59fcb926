"""A tournament's money in the ledger (GAME_RULES.md §5 "Payouts" and "Revenue").

Every payment and every payout is a posting (``ledger.services.post``) with no round and no table, keyed by what
it posts so that nothing posts twice. The accounts: ``entrants`` (what the players paid in, negative, and what they
were paid, positive), ``prize_pool``, ``t_fees`` (the house's entry fees), ``bounties`` (the bounties on the players'
heads) and ``overlay`` (what the house adds to reach a guarantee).

* A payment (a ``Purchase``: an entry, a re-entry, a rebuy, an add-on), kind ``t_entry``: the entrant pays the prize
  pool's part, the fee and the bounty (``purchase_lines``).
* A prize, kind ``t_prize``: out of the prize pool to the entrant (``prize_lines``); a bounty, kind ``t_bounty``:
  out of the bounties to the eliminator, or to the winner for their own (``bounty_lines``).
* The overlay, kind ``t_overlay``, when the prize pool is made final below the guarantee (``overlay_lines``).
* A bust undone, kind ``t_reversal``: one posting a prize or bounty posting, its lines negated (``reversal_lines``).

The keys name what each posting is for, by the entry's number (a row's id is not known before the row is written,
and the row names its posting; the natural key also makes a second posting of the same payment impossible):

>>> purchase_key(3, entry_number=7, kind="rebuy", ordinal=2)
'tournament:3:purchase:7:rebuy:2'
>>> prize_key(3, entry_number=12, ordinal=1), bounty_key(3, entry_number=12, ordinal=1)
('tournament:3:prize:12:1', 'tournament:3:bounty:12:1')
>>> [(line.account, line.amount) for line in purchase_lines(prize_cents=9000, fee_cents=1000, bounty_cents=0)]
[('entrants', -10000), ('prize_pool', 9000), ('t_fees', 1000)]

``tournament_money`` reads a tournament's figures back from its postings (by the key prefix ``tournament:<id>:``):
what was collected, the fees, the prizes and bounties paid, the overlay, and the revenue (``payouts.revenue``: the
fees above the overlay; an overlay above the fees is the house's cost, never negative revenue).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Sum

from ledger.lines import Line, negated
from ledger.models import TOURNAMENT_ACCOUNTS, TOURNAMENT_KINDS, LedgerEntry, Posting
from poker_room.pure.payouts import revenue
from poker_room.tournaments.models import Tournament

# The poker room's accounts and posting kinds, as the ledger names them (``ledger.models``), as plain text.
ENTRANTS, PRIZE_POOL, FEES, BOUNTIES, OVERLAY = (account.value for account in TOURNAMENT_ACCOUNTS)
T_ENTRY, T_PRIZE, T_BOUNTY, T_OVERLAY, T_REVERSAL = (kind.value for kind in TOURNAMENT_KINDS)


# --- keys -------------------------------------------------------------------------------------------------------


def tournament_prefix(tournament_id: int) -> str:
    """What every key of the tournament's postings starts with (the colon keeps tournament 1 from matching 11)."""
    return f"tournament:{tournament_id}:"


def purchase_key(tournament_id: int, *, entry_number: int, kind: str, ordinal: int) -> str:
    """A payment's key: the entry, the kind of purchase, and which of its kind (the 2nd rebuy: 2; else 1)."""
    return f"{tournament_prefix(tournament_id)}purchase:{entry_number}:{kind}:{ordinal}"


def prize_key(tournament_id: int, *, entry_number: int, ordinal: int) -> str:
    """A prize's key: the entry placed, and which of its placings (2: placed again after a bust was undone)."""
    return f"{tournament_prefix(tournament_id)}prize:{entry_number}:{ordinal}"


def bounty_key(tournament_id: int, *, entry_number: int, ordinal: int) -> str:
    """A bounty's key: the entry whose bust (or win) paid it, and which of its placings."""
    return f"{tournament_prefix(tournament_id)}bounty:{entry_number}:{ordinal}"


def overlay_key(tournament_id: int) -> str:
    """The overlay's key: a tournament's prize pool is made final once."""
    return f"{tournament_prefix(tournament_id)}overlay"


def undo_key(tournament_id: int, *, posting_id: int) -> str:
    """The key of the reversal of a prize or bounty posting (each is reversed at most once)."""
    return f"{tournament_prefix(tournament_id)}undo:{posting_id}"


# --- lines ------------------------------------------------------------------------------------------------------


def _cents(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{what} is a whole number of cents, 0 or more, not {value!r}")
    return value


def purchase_lines(*, prize_cents: int, fee_cents: int, bounty_cents: int) -> list[Line]:
    """A payment: the entrant pays the prize pool, the house's fee and the bounty; lines of 0 are left out, and a
    payment of nothing (a freeroll) has no line at all.

    >>> [(line.account, line.amount) for line in purchase_lines(prize_cents=5000, fee_cents=500, bounty_cents=2000)]
    [('entrants', -7500), ('prize_pool', 5000), ('t_fees', 500), ('bounties', 2000)]
    """
    parts = (
        (PRIZE_POOL, _cents(prize_cents, "The prize pool's part")),
        (FEES, _cents(fee_cents, "The fee")),
        (BOUNTIES, _cents(bounty_cents, "The bounty")),
    )
    total = sum(cents for _, cents in parts)
    if total == 0:
        return []
    return [Line(ENTRANTS, None, -total, T_ENTRY)] + [
        Line(account, None, cents, T_ENTRY) for account, cents in parts if cents
    ]


def _transfer(source: str, target: str, cents: int, kind: str, what: str) -> list[Line]:
    if _cents(cents, what) == 0:
        return []
    return [Line(source, None, -cents, kind), Line(target, None, cents, kind)]


def prize_lines(cents: int) -> list[Line]:
    """A prize: out of the prize pool to the entrant (none for 0)."""
    return _transfer(PRIZE_POOL, ENTRANTS, cents, T_PRIZE, "A prize")


def bounty_lines(cents: int) -> list[Line]:
    """A bounty paid: out of the bounties to the entrant (none for 0)."""
    return _transfer(BOUNTIES, ENTRANTS, cents, T_BOUNTY, "A bounty")


def overlay_lines(cents: int) -> list[Line]:
    """The overlay: the house tops the prize pool up to the guarantee (none for 0)."""
    return _transfer(OVERLAY, PRIZE_POOL, cents, T_OVERLAY, "The overlay")


def reversal_lines(lines: Iterable[Line]) -> list[Line]:
    """The lines that undo ``lines`` exactly: the same accounts, the amounts negated, kind ``t_reversal``.

    >>> [(line.account, line.amount, line.kind) for line in reversal_lines(prize_lines(2500))]
    [('prize_pool', 2500, 't_reversal'), ('entrants', -2500, 't_reversal')]
    """
    return negated(lines, kind=T_REVERSAL)


# --- reading a tournament's money back ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentMoney:
    """A tournament's money as its postings hold it (cents).

    ``collected_cents``: paid into the prize pool by the entrants; ``fees_cents``: the house's fees;
    ``bounties_in_cents``: paid into the bounties; ``prizes_paid_cents`` and ``bounties_paid_cents``: paid out, less
    what undone busts took back; ``overlay_cents``: added by the house to reach the guarantee; ``pool_cents``: the
    prize pool (collected plus overlay); ``pool_left_cents`` and ``bounties_left_cents``: what the prize pool and the
    bounties still hold (both 0 once the tournament is finished); ``revenue_cents`` and ``house_cost_cents``: as
    ``payouts.revenue`` has them (the fees above the overlay; the overlay above the fees).
    """

    collected_cents: int
    fees_cents: int
    bounties_in_cents: int
    prizes_paid_cents: int
    bounties_paid_cents: int
    overlay_cents: int
    pool_cents: int
    pool_left_cents: int
    bounties_left_cents: int
    revenue_cents: int
    house_cost_cents: int


def tournament_money(tournament: Tournament | int) -> TournamentMoney:
    """The tournament's money from its postings (``tournament`` is a ``Tournament`` or its id), in one query."""
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    sums: dict[tuple[str, str], int] = {}
    for kind, account, summed in (
        LedgerEntry.objects.filter(posting__idempotency_key__startswith=tournament_prefix(tournament_id))
        .values("posting__kind", "account")
        .annotate(total=Sum("amount_cents"))
        .order_by()
        .values_list("posting__kind", "account", "total")
    ):
        sums[(kind, account)] = summed or 0

    def total(account: str, *kinds: str) -> int:
        return sum(sums.get((kind, account), 0) for kind in kinds)

    paid_out = (Posting.Kind.T_PRIZE, Posting.Kind.T_REVERSAL)
    fees = total(FEES, T_ENTRY)
    overlay = -total(OVERLAY, T_OVERLAY)
    collected = total(PRIZE_POOL, T_ENTRY)
    revenue_cents, cost_cents = revenue(fees_cents=fees, overlay_cents=overlay)
    bounties_in = total(BOUNTIES, T_ENTRY)
    bounties_paid = -total(BOUNTIES, T_BOUNTY, T_REVERSAL)
    prizes_paid = -total(PRIZE_POOL, *paid_out)
    return TournamentMoney(
        collected_cents=collected,
        fees_cents=fees,
        bounties_in_cents=bounties_in,
        prizes_paid_cents=prizes_paid,
        bounties_paid_cents=bounties_paid,
        overlay_cents=overlay,
        pool_cents=collected + overlay,
        pool_left_cents=collected + overlay - prizes_paid,
        bounties_left_cents=bounties_in - bounties_paid,
        revenue_cents=revenue_cents,
        house_cost_cents=cost_cents,
    )
