"""A deal at the final table: the players still in agree how the money left is shared, and each is paid
their share when they are placed.

* **The money left** is the prizes of places 1 to *n*, *n* the players still in, from the payout table for the
  field as it stands (``eliminations.prize_table``, places beyond the paid ones paying nothing; heads-up tiers
  shared as ``eliminations.tiered_prizes`` shares them). A *reserve* may be left to play for: it comes out of 1st
  place's prize (at most what 1st pays over 2nd, so the places still pay in order) and goes to the winner on top of
  their share.
* **The methods** (``poker_room.pure.icm``): ICM (Malmuth-Harville) from the stacks the director counted, the chip chop
  (everyone the last place's prize, the rest by chips), or amounts the players agreed on (adding up to the money
  left less the reserve, none negative).
* **Recording** it (the tournament director or a supervisor; a dealer never): the tournament running, a chip
  tournament, 2 to 10 players still in, a stack (whole chips, more than none) for each of them and for nobody else,
  no deal yet. The prize pool is made final (as at the first paid bust: the overlay posted if the guarantee is
  above what came in), the ``Deal`` row written, the event audited with every figure. Play goes on: each player
  out is paid their deal amount by ``eliminations.place_prize``, the winner theirs plus the reserve, so the ledger
  pays out exactly the prize pool.

``deal_propose`` works a deal out for the page and the API without writing anything; ``deal_record`` writes it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit_event_record
from casino.errors import ApplicationError, WrongState
from casino.events import AuditEventType
from poker_room.deals.models import Deal
from poker_room.display.live import tournament_changed
from poker_room.floor import (
    MOST_CENTS,
    MOST_CHIPS,
    Requester,
    entry_name,
    locked_tournament,
    person,
    refuse_finished,
    require_runner,
    said,
    whole,
)
from poker_room.pure.icm import IcmError, chip_chop_cents, custom_check, icm_deal_cents
from poker_room.tournaments.models import Entry, Tournament
from poker_room.tournaments.prizes import pool_lock, prize_table, tiered_prizes

FEWEST_PLAYERS = 2
MOST_PLAYERS = 10  # a final table


@dataclass(frozen=True)
class DealLine:
    """One player in a deal worked out: their stack, its share of the chips, what they would be paid with no deal
    (the prize of the place their stack holds), and each method's amount."""

    entry: int
    name: str
    stack: int
    share_bp: int  # of the chips counted, in basis points (rounded)
    no_deal_cents: int
    icm_cents: int
    chip_chop_cents: int
    amount_cents: int  # by the method chosen (the reserve not included)


@dataclass(frozen=True)
class DealProposal:
    method: str
    lines: tuple[DealLine, ...]
    prizes_left: tuple[int, ...]  # cents, 1st place first
    reserve_cents: int
    money_cents: int  # the prizes left, reserve included

    @property
    def stacks(self) -> dict[str, int]:
        return {str(line.entry): line.stack for line in self.lines}

    @property
    def amounts(self) -> dict[str, int]:
        return {str(line.entry): line.amount_cents for line in self.lines}


def _number(key: object) -> int | None:
    if isinstance(key, bool):
        return None
    if isinstance(key, int):
        return key
    # ASCII digits only, and few of them: "²" is a digit to str.isdigit but no number to int(), and int() refuses
    # thousands of digits; "٣" would be taken for 3.
    if isinstance(key, str) and re.fullmatch(r"[0-9]{1,9}", key.strip()):
        return int(key.strip())
    return None


def _by_entry(values: object, *, field: str, what: str, players: list[Entry], least: int, most: int) -> list[int]:
    """``values`` ({entry number: whole number}) in the order of ``players``: one for each of them, for nobody else."""
    if not isinstance(values, Mapping):
        raise ApplicationError(
            _('%(what)s are given by entry number, e.g. {"7": 120000}.') % {"what": what}, extra={"field": field}
        )
    numbers = {player.number: player for player in players}
    given: dict[int, object] = {}
    for key, value in values.items():
        number = _number(key)
        if number is None or number not in numbers:
            raise ApplicationError(
                _("#%(number)s is not a player still in: the deal is for the players still in.")
                % {"number": str(key)[:12]},
                extra={"field": field, "entry": str(key)[:12]},
            )
        if number in given:
            raise ApplicationError(_("#%(number)s is given twice.") % {"number": number}, extra={"field": field})
        given[number] = value
    missing = [numbers[number] for number in numbers if number not in given]
    if missing:
        raise ApplicationError(
            _("%(what)s: give one for each player still in; missing: %(names)s.")
            % {"what": what, "names": ", ".join(entry_name(player) for player in missing)},
            extra={"field": field, "missing": [player.number for player in missing]},
        )
    return [
        whole(
            given[player.number],
            field=f"{field}.{player.number}",
            what=_("%(what)s of %(entry)s") % {"what": what, "entry": entry_name(player)},
            least=least,
            most=most,
        )
        for player in players
    ]


def _players_in(tournament: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).order_by("number"))


def deal_refusal(tournament: Tournament, players: int) -> str:
    """Why no deal can be made now ("" when one can): for the console and the page as much as for the service."""
    if Deal.objects.filter(tournament=tournament).exists():
        return _("A deal was recorded already: the money left is shared as it says.")
    if tournament.status == Tournament.Status.FINISHED:
        return _("%(name)s has finished: its results are final.") % {"name": tournament.name}
    if tournament.status != Tournament.Status.RUNNING:
        return _("%(name)s has not started: a deal is made by the players still in.") % {"name": tournament.name}
    if tournament.format != Tournament.Format.CHIPS:
        return _("A deal shares the money by the chips: %(name)s is not played for chips.") % {"name": tournament.name}
    if not FEWEST_PLAYERS <= players <= MOST_PLAYERS:
        return _("A deal is made by 2 to 10 players still in; %(name)s has %(count)s.") % {
            "name": tournament.name,
            "count": players,
        }
    return ""


def prizes_left(tournament: Tournament, players: int) -> tuple[int, ...]:
    """The prizes of places 1 to ``players`` for the field as it stands (0 for a place not paid), in cents."""
    _pool, _overlay, places = prize_table(tournament)
    shared = tiered_prizes(places, tournament.prize_tiers, tournament.payout_unit_cents)
    return tuple((*shared[:players], *(0,) * max(players - len(shared), 0)))


def _no_deal(stacks: list[int], ladder: tuple[int, ...]) -> list[int]:
    """The prize of the place each stack holds (ties: the players listed first placed higher)."""
    order = sorted(range(len(stacks)), key=lambda i: (-stacks[i], i))
    prizes = [0] * len(stacks)
    for place, i in enumerate(order):
        prizes[i] = ladder[place]
    return prizes


def _propose(
    tournament: Tournament, method: object, stacks: object, reserve_cents: object, amounts: object
) -> DealProposal:
    players = _players_in(tournament)
    refusal = deal_refusal(tournament, len(players))
    if refusal:
        raise WrongState(refusal)
    if method not in Deal.Method.values:
        raise ApplicationError(
            _("Choose how the money is shared: ICM, a chip chop or agreed amounts."), extra={"field": "method"}
        )
    chips = _by_entry(stacks, field="stacks", what=_("Stacks"), players=players, least=1, most=MOST_CHIPS)
    reserve = whole(reserve_cents, field="reserve_cents", what=_("The money left to play for"), most=MOST_CENTS)
    ladder = prizes_left(tournament, len(players))
    money = sum(ladder)
    if not money:
        raise WrongState(_("No prize money is left for the players still in: there is nothing to share."))
    if reserve > ladder[0] - ladder[1]:
        raise ApplicationError(
            _(
                "The money left to play for comes out of what 1st place pays over 2nd (%(most)s cents): "
                "it cannot be more."
            )
            % {"most": ladder[0] - ladder[1]},
            extra={"field": "reserve_cents", "most": ladder[0] - ladder[1]},
        )
    try:
        icm = icm_deal_cents(chips, ladder, reserve_cents=reserve)
        chop = chip_chop_cents(chips, ladder, reserve_cents=reserve)
        if method == Deal.Method.ICM:
            chosen = icm
        elif method == Deal.Method.CHIP_CHOP:
            chosen = chop
        else:
            if amounts is None:
                raise ApplicationError(_("Give the amount each player agreed on."), extra={"field": "amounts"})
            agreed = _by_entry(amounts, field="amounts", what=_("Amounts"), players=players, least=0, most=MOST_CENTS)
            if sum(agreed) != money - reserve:
                raise ApplicationError(
                    _("The amounts add up to %(sum)s cents; the money left less the reserve is %(money)s cents.")
                    % {"sum": sum(agreed), "money": money - reserve},
                    extra={"field": "amounts", "sum": sum(agreed), "expected": money - reserve},
                )
            chosen = custom_check(agreed, ladder, reserve_cents=reserve)
    except IcmError as error:  # the checks above leave none: a figure the pure rules refuse all the same
        raise ApplicationError(said(error)) from None
    total = sum(chips)
    no_deal = _no_deal(chips, ladder)
    lines = tuple(
        DealLine(
            entry=player.number,
            name=player.name,
            stack=chips[i],
            share_bp=(chips[i] * 20_000 + total) // (2 * total),
            no_deal_cents=no_deal[i],
            icm_cents=icm[i],
            chip_chop_cents=chop[i],
            amount_cents=chosen[i],
        )
        for i, player in enumerate(players)
    )
    return DealProposal(method=str(method), lines=lines, prizes_left=ladder, reserve_cents=reserve, money_cents=money)


def deal_propose(
    tournament: Tournament,
    method: object,
    stacks: object,
    reserve_cents: object = 0,
    amounts: object = None,
) -> DealProposal:
    """A deal worked out from ``stacks`` ({entry number: chips}, every player still in) by ``method`` ("icm",
    "chip_chop", "custom" with ``amounts``), with each player's prize with no deal; nothing written. Refused as
    ``deal_record`` would refuse it."""
    return _propose(tournament, method, stacks, reserve_cents, amounts)


def deal_record(
    *,
    actor: Requester,
    tournament: Tournament,
    method: object,
    stacks: object,
    reserve_cents: object = 0,
    amounts: object = None,
    worked_out: Mapping[str, int] | None = None,
    now: dt.datetime | None = None,
) -> Deal:
    """Record the deal: the prize pool made final, the ``Deal`` written and audited; each player is paid their
    amount when placed, the winner theirs plus the reserve. The tournament director or a supervisor.

    ``worked_out``: the amounts the players were shown and agreed to ({entry number: cents}); the deal is refused if
    it now works out otherwise (the payouts or the prize pool changed in between), never recorded with figures
    nobody agreed to."""
    require_runner(actor, action=_("record a deal"))
    who = person(actor, what=_("Recording a deal"))
    now = timezone.now() if now is None else now
    with transaction.atomic():
        locked = locked_tournament(tournament)
        refuse_finished(locked)
        proposal = _propose(locked, method, stacks, reserve_cents, amounts)
        if worked_out is not None and dict(worked_out) != proposal.amounts:
            raise WrongState(
                _(
                    "The deal works out otherwise now than when it was shown (the payouts or the prize pool have "
                    "changed since): work it out again and let the players agree to the new figures."
                )
            )
        pool_was_final = locked.pool_locked_at is not None
        if not pool_was_final:
            pool_lock(locked, actor=who, now=now)
        deal = Deal.objects.create(
            tournament=locked,
            method=proposal.method,
            stacks=proposal.stacks,
            prizes_left=list(proposal.prizes_left),
            reserve_cents=proposal.reserve_cents,
            amounts=proposal.amounts,
            actor=who,
        )
        audit_event_record(
            actor=who,
            event_type=AuditEventType.TOURNAMENT_DEAL,
            subject=locked,
            after=deal_audit_record(deal, proposal, pool_made_final=not pool_was_final),
            rows=[deal],
        )
        tournament_changed(locked)
    return deal


class DealRecord(TypedDict):
    """Every figure of a deal as the audit trail keeps it: entries by number (as text, the JSON's keys), never a
    name; money in cents."""

    deal: int
    method: str
    stacks: dict[str, int]
    prizes_left_cents: list[int]
    money_cents: int
    reserve_cents: int
    amounts_cents: dict[str, int]
    icm_cents: dict[str, int]
    chip_chop_cents: dict[str, int]
    no_deal_cents: dict[str, int]
    pool_made_final: bool


def deal_audit_record(deal: Deal, proposal: DealProposal, *, pool_made_final: bool) -> DealRecord:
    return {
        "deal": deal.pk,
        "method": deal.method,
        "stacks": dict(deal.stacks),
        "prizes_left_cents": list(deal.prizes_left),
        "money_cents": proposal.money_cents,
        "reserve_cents": deal.reserve_cents,
        "amounts_cents": dict(deal.amounts),
        "icm_cents": {str(line.entry): line.icm_cents for line in proposal.lines},
        "chip_chop_cents": {str(line.entry): line.chip_chop_cents for line in proposal.lines},
        "no_deal_cents": {str(line.entry): line.no_deal_cents for line in proposal.lines},
        "pool_made_final": pool_made_final,
    }
