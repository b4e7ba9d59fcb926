"""An attacker past the guard triggers (tests.guards.tamper) changes a deal, an Open-Face hand or a match's winner:
``verify_audit`` names the row and the field changed since its audit event (``casino.verify``), and ``verify_ledger``
what the rules say of it (``poker_room.tournaments.verify_records``), while the untouched records verify clean."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from casino.verify import records_verify
from ledger.verify import ledger_verify
from poker_room.deals import services as deals
from poker_room.deals.models import Deal
from poker_room.heads_up import services as heads_up
from poker_room.heads_up.models import Match
from poker_room.ofc_events import services as ofc_points
from poker_room.ofc_events.models import OfcHand
from poker_room.tournaments import services
from poker_room.tournaments.eliminations import entry_eliminate
from poker_room.tournaments.models import Entry, Tournament
from tests.guards import tamper
from tests.poker_room.ofc_events.play import deal_boards, seated
from tests.poker_room.tournament_setup import PLAYERS, T0, entry

pytestmark = pytest.mark.django_db


def _problems() -> str:
    return "\n".join(ledger_verify().problems)


def _recorded_otherwise() -> str:
    return "\n".join(records_verify().problems)


def test_a_deals_amounts_moved_between_players_are_named(running: Callable[..., Tournament], director: User) -> None:
    tournament = running(players=5)
    entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, 5), now=T0)
    deal = deals.deal_record(
        actor=director, tournament=tournament, method="icm", stacks={1: 40_000, 2: 30_000, 3: 20_000, 4: 10_000}
    )
    assert ledger_verify().ok and records_verify().ok
    amounts = dict(deal.amounts)
    amounts["1"], amounts["4"] = amounts["4"], amounts["1"]  # the same total: only the audit trail tells
    tamper("UPDATE poker_room_deal SET amounts = %s WHERE id = %s", [json.dumps(amounts), deal.pk])
    assert f"Deal #{deal.pk}: paid by entry number (cents) is " in _recorded_otherwise()
    assert ledger_verify().ok  # the rules alone cannot tell: the amounts still add up


def test_a_prize_paid_past_the_deal_is_named(running: Callable[..., Tournament], director: User) -> None:
    tournament = running(players=4)
    deal = deals.deal_record(
        actor=director, tournament=tournament, method="chip_chop", stacks={1: 10_000, 2: 10_000, 3: 10_000, 4: 10_000}
    )
    out = entry_eliminate(actor=director, tournament=tournament, entry=entry(tournament, 4), now=T0)
    assert out.prize_cents == deal.amount_for(4) and ledger_verify().ok
    tamper("UPDATE poker_room_elimination SET prize_cents = prize_cents + 100 WHERE id = %s", [out.pk])
    assert f"entry #4 placed 4 was paid {out.prize_cents + 100} cents; the deal pays {out.prize_cents}." in _problems()


def test_an_open_face_hands_points_rewritten_are_named_by_the_engine_and_the_audit_trail(
    make_tournament: Callable[..., Tournament], director: User
) -> None:
    tournament = make_tournament(tables=1, format="ofc_points", ofc_rounds=1, ofc_hands_per_round=2, table_size=4)
    for name in PLAYERS[:4]:
        services.entry_register(actor=director, tournament=tournament, name=name, now=T0)
    tournament = services.tournament_start(actor=director, tournament=tournament, now=T0, rng=random.Random(3))
    ofc_points.ofc_round_begin(actor=director, tournament=tournament, rng=random.Random(3))
    boards = deal_boards(random.Random(5), seated(tournament, 1))
    hand = ofc_points.ofc_hand_record(actor=director, tournament=tournament, table_number=1, boards=boards)
    assert ledger_verify().ok
    points = {number: -value for number, value in hand.points.items()}  # still zero-sum: the standings turned over
    tamper("UPDATE poker_room_ofchand SET points = %s WHERE id = %s", [json.dumps(points), hand.pk])
    assert f"Open-Face hand #{hand.pk}: points by entry number is " in _recorded_otherwise()
    assert f"Open-Face hand {hand.pk} (tournament {tournament.pk}, round 1, table 1, hand 1): the engine scores" in (
        _problems()
    )
    assert OfcHand.objects.count() == 1


def test_a_matchs_winner_swapped_is_named(director: User) -> None:
    tournament = services.tournament_create(
        actor=director, template_key="msop_heads_up", buy_in_cents=2000, fee_cents=500, tables=2
    )
    for name in PLAYERS[:4]:
        services.entry_register(actor=director, tournament=tournament, name=name, now=T0)
    services.tournament_start(actor=director, tournament=tournament, now=T0)
    heads_up.bracket_draw(actor=director, tournament=tournament, rng=random.Random(7))
    match = Match.objects.filter(tournament=tournament, status=Match.Status.READY).order_by("number").first()
    assert match is not None
    heads_up.match_decide(actor=director, tournament=tournament, match=match, winner=match.entry_a)
    assert ledger_verify().ok
    tamper("UPDATE poker_room_match SET winner_id = %s WHERE id = %s", [match.entry_b_id, match.pk])
    assert f"Heads-up match #{match.pk}: winner is {match.entry_b_id}, but its audit event #" in _recorded_otherwise()
    stranger = Entry.objects.filter(tournament=tournament).exclude(pk__in=[match.entry_a_id, match.entry_b_id]).first()
    assert stranger is not None
    tamper("UPDATE poker_room_match SET winner_id = %s WHERE id = %s", [stranger.pk, match.pk])
    assert f"Match {match.pk} (tournament {tournament.pk}, round 1, match {match.number}) is decided for someone" in (
        _problems()
    )
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    assert Deal.objects.count() == 0
