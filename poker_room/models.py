"""The poker room's models, for Django to find: each is defined in the package of its concern (one app,
``poker_room``: the same labels, tables and migrations). Import a model from its package, not from here."""

from __future__ import annotations

from poker_room.deals.models import Deal
from poker_room.heads_up.models import Match
from poker_room.leagues.models import League, LeagueEvent
from poker_room.ofc_events.models import OfcHand
from poker_room.tournaments.models import Elimination, Entry, Purchase, SeatMove, Tournament, TournamentTable
from poker_room.waitlist.models import CashGame, CashTable, WaitlistEntry

__all__ = [
    "CashGame",
    "CashTable",
    "Deal",
    "Elimination",
    "Entry",
    "League",
    "LeagueEvent",
    "Match",
    "OfcHand",
    "Purchase",
    "SeatMove",
    "Tournament",
    "TournamentTable",
    "WaitlistEntry",
]
