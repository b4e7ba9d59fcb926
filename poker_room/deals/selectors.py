"""What the console, the Deal page and the API show of a tournament's deal: the deal as recorded, each
player in it with what they are paid and, once placed, their place; or, with no deal yet, the players still in and
whether a deal can be made now."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TypedDict

from django.contrib.auth.models import AnonymousUser, User

from casino.fields import UNREADABLE, unreadable_row
from poker_room.deals.models import Deal
from poker_room.deals.services import deal_refusal
from poker_room.tournaments.models import Elimination, Entry, Tournament


@dataclass(frozen=True)
class RecordedLine:
    entry: int
    name: str
    stack: int
    share_bp: int
    amount_cents: int  # the deal's amount (the reserve not included)
    place: int | None  # once placed
    paid_cents: int | None  # the prize posted when placed (the winner's includes the reserve)


@dataclass(frozen=True)
class RecordedDeal:
    deal: Deal
    method: str
    method_label: str
    reserve_cents: int
    prizes_left: tuple[int, ...]
    money_cents: int
    lines: tuple[RecordedLine, ...]
    actor: str
    at: dt.datetime
    problem: str = ""  # the deal's row cannot be read (a value written past the application): nothing else is shown


@dataclass(frozen=True)
class DealState:
    """The deal side of a tournament: the deal recorded, or the players who could make one (and why not, if not)."""

    recorded: RecordedDeal | None
    players: tuple[Entry, ...]  # still in, by entry number
    refusal: str  # why no deal can be made now ("" when one can, or one is recorded)

    @property
    def can_deal(self) -> bool:
        return self.recorded is None and not self.refusal


def recorded_deal(tournament: Tournament) -> RecordedDeal | None:
    deal = Deal.objects.filter(tournament=tournament).select_related("actor").first()
    if deal is None:
        return None
    try:
        return _recorded(tournament, deal)
    except UNREADABLE as exc:  # still a deal recorded: no second one is offered
        return RecordedDeal(
            deal=deal,
            method=str(deal.method),
            method_label=str(deal.method),
            reserve_cents=0,
            prizes_left=(),
            money_cents=0,
            lines=(),
            actor=deal.actor.get_username(),
            at=deal.created_at,
            problem=unreadable_row(deal, exc),
        )


def _recorded(tournament: Tournament, deal: Deal) -> RecordedDeal:
    numbers = [int(number) for number in deal.amounts]
    entries = {entry.number: entry for entry in Entry.objects.filter(tournament=tournament, number__in=numbers)}
    placed = {
        number: (place, prize)
        for number, place, prize in Elimination.objects.filter(
            tournament=tournament, status=Elimination.Status.IN_FORCE, entry__number__in=numbers
        ).values_list("entry__number", "place", "prize_cents")
    }
    total = sum(int(chips) for chips in deal.stacks.values()) or 1
    lines = []
    for number in sorted(numbers, key=lambda n: (-int(deal.stacks.get(str(n), 0)), n)):
        stack = int(deal.stacks.get(str(number), 0))
        place, prize = placed.get(number, (None, None))
        lines.append(
            RecordedLine(
                entry=number,
                name=entries[number].name if number in entries else "",
                stack=stack,
                share_bp=(stack * 20_000 + total) // (2 * total),
                amount_cents=int(deal.amounts[str(number)]),
                place=place,
                paid_cents=prize,
            )
        )
    return RecordedDeal(
        deal=deal,
        method=deal.method,
        method_label=str(deal.get_method_display()),
        reserve_cents=deal.reserve_cents,
        prizes_left=tuple(int(prize) for prize in deal.prizes_left),
        money_cents=sum(int(prize) for prize in deal.prizes_left),
        lines=tuple(lines),
        actor=deal.actor.get_username(),
        at=deal.created_at,
    )


def deal_state(tournament: Tournament) -> DealState:
    players = tuple(Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).order_by("number"))
    recorded = recorded_deal(tournament)
    return DealState(
        recorded=recorded, players=players, refusal="" if recorded else deal_refusal(tournament, len(players))
    )


class DealConsoleContext(TypedDict):
    deal_state: DealState


def console_context(tournament: Tournament, user: User | AnonymousUser) -> DealConsoleContext:
    """The console's Deal panel: a way to the Deal page while 2 to 10 players are in with no deal; the deal's
    amounts once there is one."""
    return {"deal_state": deal_state(tournament)}
