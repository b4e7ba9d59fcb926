"""The house's wager against a player bank in Pai Gow Poker (GAME_RULES.md §2).

"The house (dealer) wagers the player's last bet against a player bank": when a player banks a
round, the dealer's own position (0) plays a hand set by the house way against the bank, as a
player would, for what the banker last wagered as a player. Published practice says the same:
"When a player is the banker the dealer will still play, betting an amount equal to the last bet
the player made" (http://www.mountolympuscasino.com/casino-games/paigow-poker.htm), and the
player banker must "have sufficient money on the table to cover all winning bets of other Players
and Dealer" (https://chukchansigold.com/casino/table-games/pai-gow-poker/).

The rules, as Tableside applies them:

* The house wagers when the rule set's ``house_wager`` option is on (the default) and a player
  banks in rotation. Co-banking, the house already covers half of the bank: it does not also
  wager against it. When the house banks there is no bank to wager against.
* "Last bet": the banker's seat's most recent wager on a settled round at this table in this
  shift (by round number; voided and unfinished rounds do not count). A banker with none has
  no last bet: the round opens and the house does not wager (``HouseWagerPlan.why_not`` says so).
* The bank must cover the house's wager (``rules.games.banking.bank_covers``): a bank that puts
  up less is refused at the open, as a seat's wager over what the bank covers is refused.
* The wager is taken with the round's open: a ``HouseWager`` row and a ``wager`` posting from the
  ``house`` account to the layout, with its audit event (``house_wager.placed``). It settles in
  the action order with the seats (``settlement.compute``), and a void returns it with theirs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext as _

from casino.audit import audit_event_record
from casino.errors import ApplicationError
from casino.events import AuditEventType
from casino.money import money_text as _money
from ledger.lines import Line
from ledger.models import Account, Kind, Posting
from ledger.services import post, posting_record
from rounds.models import HouseWager, Round, Wager
from rounds.states import RoundState
from rules import options as rule_options
from rules.games import banking
from tables.models import Seat, Table

OPTION = "house_wager"


@dataclass(frozen=True)
class HouseWagerPlan:
    """What the house wagers on a round about to open: ``amount_cents`` copied from ``last_wager``, or None with
    ``why_not`` (empty when the rules give the house no wager at all: the house banks, or the option is off)."""

    amount_cents: int | None
    last_wager: Wager | None
    why_not: str = ""


def house_wager_applies(snapshot: dict[str, Any]) -> bool:
    """Whether the rules give the house a wager against a player bank: the option on, players banking in rotation."""
    return bool(snapshot["options"].get(OPTION)) and snapshot["banking_mode"] == rule_options.PLAYER_ROTATION


def banker_last_bet(*, table: Table, seat: Seat, shift_id: int) -> Wager | None:
    """The seat's most recent wager on a settled round at ``table`` in the shift: the banker's "last bet"."""
    return (
        Wager.objects.filter(seat=seat, round__table=table, round__shift_id=shift_id, round__state=RoundState.SETTLED)
        .select_related("round")
        .order_by("-round__number")
        .first()
    )


def house_wager_plan(
    *, table: Table, snapshot: dict[str, Any], shift_id: int, bank_seat: Seat | None, bank_cents: int | None
) -> HouseWagerPlan:
    """What the house wagers on the round ``round_open`` is about to open; refused when the bank cannot cover it."""
    if bank_seat is None:
        return HouseWagerPlan(None, None)
    if snapshot["options"].get(OPTION) and snapshot["banking_mode"] == rule_options.CO_BANKING:
        return HouseWagerPlan(
            None, None, "Co-banking: the house covers half of the bank, so it does not also wager against it."
        )
    if not house_wager_applies(snapshot):
        return HouseWagerPlan(None, None)
    last = banker_last_bet(table=table, seat=bank_seat, shift_id=shift_id)
    if last is None:
        return HouseWagerPlan(
            None,
            None,
            f"Seat {bank_seat.number} has no settled wager at table {table.name} this shift: the house has no last "
            "bet to copy and does not wager against the bank this round.",
        )
    covers = banking.bank_covers(bank_cents or 0, co_banking=False)
    if last.amount_cents > covers:
        raise ApplicationError(
            _(
                "The house wagers seat %(seat)s's last bet, %(wager)s (round "
                "%(round)s), against the bank: a bank of %(bank)s cannot cover it. "
                "Put up at least %(wager)s."
            )
            % {
                "seat": bank_seat.number,
                "wager": _money(last.amount_cents),
                "round": last.round.number,
                "bank": _money(covers),
            },
            extra={"field": "bank_cents", "house_wager_cents": last.amount_cents},
        )
    return HouseWagerPlan(last.amount_cents, last)


def house_wager_take(*, actor: User | None, round: Round, plan: HouseWagerPlan) -> HouseWager | None:
    """Take the planned house wager on the round just opened (in ``round_open``'s transaction): the row, the chips
    from the house to the layout, and the audit event that records both."""
    if plan.amount_cents is None or plan.last_wager is None:
        return None
    wager = HouseWager.objects.create(
        round=round,
        amount_cents=plan.amount_cents,
        last_wager=plan.last_wager,
        placed_by=actor if actor is not None and actor.is_authenticated else None,
    )
    posting = post(
        round_id=round.pk,
        kind=Posting.Kind.WAGER,
        lines=[
            Line(Account.HOUSE.value, None, -plan.amount_cents, Kind.WAGER.value),
            Line(Account.WAGERS.value, None, plan.amount_cents, Kind.WAGER.value),
        ],
        actor=actor,
    )
    audit_event_record(
        actor=actor,
        event_type=AuditEventType.HOUSE_WAGER_PLACED,
        subject=wager,
        after={
            "table": round.table.name,
            "round": round.pk,
            "round_number": round.number,
            "bank_seat": round.bank_seat.number if round.bank_seat is not None else None,
            "amount_cents": plan.amount_cents,
            "last_wager": plan.last_wager.pk,
            "last_round_number": plan.last_wager.round.number,
            "postings": [posting_record(posting)],
        },
    )
    return wager


def round_house_wager(round_: Round) -> HouseWager | None:
    """The round's house wager, if the house wagers against its player bank (cached with ``select_related``); a
    round the house banks (most of them) has none, known without a query."""
    if round_.bank_seat_id is None:
        return None
    try:
        return round_.house_wager
    except ObjectDoesNotExist:
        return None


def house_wager_problem(round_: Round) -> str:
    """What is wrong with the round's house wager against the rules, or "": it copies the banker's last bet, a wager
    of the banking seat at this table in this shift on an earlier round that settled (as ``banker_last_bet`` found
    it when the round opened). For the replay: a row changed or written past the services shows here."""
    wager = round_house_wager(round_)
    if wager is None:
        return ""
    last = Wager.objects.select_related("round").get(pk=wager.last_wager_id)
    if last.seat_id != round_.bank_seat_id or last.round.table_id != round_.table_id:
        return f"the house's wager copies wager {last.pk}, which is not the banking seat's at this table"
    if last.round.shift_id != round_.shift_id or last.round.number >= round_.number:
        return f"the house's wager copies wager {last.pk}, not a bet of this shift before round {round_.number}"
    if last.round.state != RoundState.SETTLED:
        return f"the house's wager copies wager {last.pk}, whose round did not settle"
    if wager.amount_cents != last.amount_cents:
        return (
            f"the house wagers {wager.amount_cents} cents, but the banker's last bet (wager {last.pk}) was "
            f"{last.amount_cents} cents"
        )
    return ""


def house_wager_cents(round_: Round) -> int | None:
    """What the house wagers against the round's player bank, in cents; None when it does not."""
    wager = round_house_wager(round_)
    return wager.amount_cents if wager is not None else None
