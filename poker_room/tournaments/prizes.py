"""What a tournament's places pay: its payout table (its own or the house's), the prize pool and the prize of each
paid place for the field as it stands, the prize of a place when places share a tier (heads-up) or a deal covers the
player, and the prize pool made final at the first paid bust (the overlay posted if the guarantee is above what came
in)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db.models import Sum
from django.utils.translation import gettext as _

from casino.audit import audit_event_record
from casino.errors import WrongState
from casino.events import AuditEventType
from ledger.models import Posting
from ledger.services import post, posting_record
from poker_room.deals.models import Deal
from poker_room.floor import said
from poker_room.pure.payouts import HOUSE_PAYOUTS, PayoutBand, PayoutError, bands_from_json, prize_pool, prizes
from poker_room.tournaments import money
from poker_room.tournaments.models import Entry, Purchase, Tournament


def tournament_bands(tournament: Tournament) -> tuple[PayoutBand, ...]:
    """The tournament's payout table: its own, or the house's."""
    if tournament.payouts is None:
        return HOUSE_PAYOUTS
    try:
        return bands_from_json(tournament.payouts)
    except PayoutError as error:
        raise WrongState(_("The payout table cannot be read: %(reason)s") % {"reason": error}) from None


def prize_table(tournament: Tournament) -> tuple[int, int, tuple[int, ...]]:
    """The prize pool, the overlay and the prize of each paid place, for the field as it stands."""
    collected = Purchase.objects.filter(tournament=tournament).aggregate(total=Sum("prize_cents"))["total"] or 0
    entries = Entry.objects.filter(tournament=tournament).count()
    try:
        pool, overlay = prize_pool(collected_cents=collected, guarantee_cents=tournament.guarantee_cents)
        places = prizes(
            pool_cents=pool,
            entries=entries,
            bands=tournament_bands(tournament),
            unit_cents=tournament.payout_unit_cents,
            min_cash_cents=tournament.min_cash_cents,
        )
    except PayoutError as error:
        raise WrongState(said(error)) from None
    return pool, overlay, places


def pool_lock(tournament: Tournament, *, actor: User, now: dt.datetime) -> None:
    """Make the prize pool final (the first paid bust): the overlay posted if the guarantee is above what came in."""
    pool, overlay, places = prize_table(tournament)
    postings = []
    if overlay:
        postings.append(
            post(
                kind=Posting.Kind.T_OVERLAY,
                lines=money.overlay_lines(overlay),
                actor=actor,
                idempotency_key=money.overlay_key(tournament.pk),
            )
        )
    tournament.pool_locked_at = now
    tournament.overlay_cents = overlay
    tournament.save(update_fields=["pool_locked_at", "overlay_cents"])
    audit_event_record(
        actor=actor,
        event_type=AuditEventType.TOURNAMENT_POOL_LOCKED,
        subject=tournament,
        after={
            "postings": [posting_record(posting) for posting in postings],
            "pool_cents": pool,
            "overlay_cents": overlay,
            "guarantee_cents": tournament.guarantee_cents,
            "entries": Entry.objects.filter(tournament=tournament).count(),
            "prizes_cents": list(places),
        },
        rows=[tournament],
    )


def place_prize(tournament: Tournament, entry: Entry, place: int, places: tuple[int, ...]) -> int:
    """What ``entry`` is paid for ``place``: its amount in the deal if one covers it (the winner also gets what was
    left to play for), else the place's prize with the places of one tier (heads-up: the losers of one round)
    sharing their prizes equally, each share rounded down to the payout unit and the odd units to 1st place."""
    deal = Deal.objects.filter(tournament=tournament).first()
    if deal is not None:
        amount = deal.amount_for(entry.number)
        if amount is not None:
            return amount + (deal.reserve_cents if place == 1 else 0)
    shared = tiered_prizes(places, tournament.prize_tiers, tournament.payout_unit_cents)
    return shared[place - 1] if place <= len(shared) else 0


def tiered_prizes(places: tuple[int, ...], tiers: Iterable[Iterable[int]], unit: int) -> tuple[int, ...]:
    """The prize of each place once each tier ``[first, last]`` of places shares its prizes equally (a tier may reach
    past the paid places: the semi-final losers share 3rd prize when only three are paid, so the list grows to the
    tier's end); what the rounding to ``unit`` leaves goes to 1st place, so the prizes still add up to the same
    pool."""
    tiers = [[int(value) for value in tier] for tier in tiers or ()]
    longest = max([len(places), *(last for first, last in tiers if 1 <= first < last)]) if places else 0
    shared = list(places) + [0] * (longest - len(places))
    step = max(unit, 1)
    for first, last in tiers:
        if first < 1 or last <= first or not places:
            continue
        count = last - first + 1
        total = sum(shared[first - 1 : last])
        shared[first - 1 : last] = [total // count // step * step] * count
    if shared:
        shared[0] += sum(places) - sum(shared)
    return tuple(shared)
