"""A small floor with a row of every audited record (``casino.records``), built through the services only.

``every_record`` plays a gaming day the way the floor would, each write through its service (which records the
audit event carrying the rows it wrote), never a row written past the application:

* the casino: the gaming day, its Day shift (closed) and the Swing shift (open);
* the tables, PGP-1 and PGP-2 (Pai Gow Poker): PGP-1's opener counted and confirmed; a fill requested, issued and
  signed by two (received), a credit voided, and, in the Swing shift, a fill still requested; a round settled with
  Mr Lee rated at seat 1 (his rated round); his cash buy-in and a marker of his (issued on his line) whose buy-in
  is voided (each a rated buy-in), an unrated cash buy-in at seat 2; the Day shift's drop box at PGP-1 counted once;
* credit: Ms Wu's line raised with a second Credit manager's approval, a marker asked for and voided, and one
  issued at PGP-2, counted with its box (final), redeemed by cheque and its cheque returned;
* the players: Mr Lee's session ended with what he walks with; an anonymous player's session still playing, after a
  break and a move from PGP-1 to PGP-2;
* the poker room: a chip tournament of seven (Mr Lee among them) with a rebuy, a bust that broke table 2 and redrew
  the final table (its seat moves), a chip chop of the six left, then played to the finish; the Floor League with that
  event added; a heads-up tournament with its bracket drawn and one match decided; an Open-Face points tournament in
  round 1 with a hand recorded.

The card room's waitlist (``_waitlist``): a Chinese Poker list with its main game and a must-move table, names
called, seated (one rated), moved to the main game, a no-show, one left and one taken off; an Open-Face list closed
with its table taken off.

It uses the fixtures of ``tests/conftest.py`` and the settlement tests' ``pgp_table`` and ``play_to_hands``
(``tests/trust/conftest.py`` imports them, and this fixture). Its own staff are named ``floor_*``, so a test that
makes the usual personas (``cora_cage``, ``carl_count``, ``tina_director``) beside it does not meet them.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from casino.models import Shift
from casino.roles import Role
from casino.services import shift_close, shift_open
from players.credit import (
    credit_change_decide,
    credit_line_set,
    marker_cheque_returned,
    marker_issue,
    marker_redeem,
    marker_request,
    marker_void,
)
from players.models import CreditLineChange, Player, RatingSession
from players.services import (
    player_create,
    session_end,
    session_move,
    session_pause,
    session_resume,
    session_start,
)
from poker_room.deals.models import Deal
from poker_room.deals.services import deal_record
from poker_room.heads_up.models import Match
from poker_room.heads_up.services import bracket_draw, match_decide
from poker_room.leagues.models import League, LeagueEvent
from poker_room.leagues.services import league_create, league_event_add
from poker_room.ofc_events.models import OfcHand
from poker_room.ofc_events.services import ofc_hand_record, ofc_round_begin
from poker_room.tournaments import services as tournaments
from poker_room.tournaments.models import Entry, Tournament
from poker_room.waitlist import services as waitlist
from poker_room.waitlist.models import WaitlistEntry
from rounds.models import Round
from settlement.services import settle_round
from tables.drop import buy_in_record, buy_in_void, drop_count_record
from tables.models import BuyIn, DropCount, Slip, Table, TrayCount
from tables.rotation import dealer_clock_in, dealer_clock_out, rotation_push, string_create, string_start
from tables.slips import slip_issue, slip_request, slip_sign, slip_void
from tables.tray import tray_count_confirm, tray_count_record
from tests.caches import cache_clear
from tests.poker_room.ofc_events.play import deal_boards, seated
from tests.poker_room.tournament_setup import LEVELS, PLAYERS, T0, at
from tests.settlement.conftest import BANK, LOSES, WINS

TRAY = {2500: 20, 500: 30, 100: 50, 10000: 3}  # 1,000.00
FILL = {2500: 40, 10000: 10}  # 2,000.00
SIGNATURE = "data:image/png;base64,iVBORw0KGgo="  # a signature drawn on the tablet, as it sends it
REBUYS = {"rebuys_max": 2, "rebuy_until_level": 3, "rebuy_cents": 9_000, "rebuy_fee_cents": 500, "rebuy_chips": 20_000}


@dataclass(frozen=True)
class Floor:
    """The key rows of the floor ``every_record`` built (each as its service returned it, or read again where a later
    write changed it), and the staff it made."""

    # the casino and the tables
    day_shift: Shift  # closed: its drop box counted
    swing_shift: Shift  # open: the fill still requested is in it
    table: Table  # PGP-1
    other_table: Table  # PGP-2
    opener: TrayCount  # confirmed
    closer: TrayCount  # PGP-2's, confirmed
    slip_received: Slip
    slip_voided: Slip
    slip_requested: Slip
    settled: Round  # Mr Lee rated at seat 1
    rated_buy_in: BuyIn  # Mr Lee's cash, at seat 1
    voided_buy_in: BuyIn  # Mr Lee's marker (a buy-in never changes: its void is a row of its own)
    buy_in_voiding: BuyIn  # the void: the opposite amount, correcting the marker
    unrated_buy_in: BuyIn  # seat 2, nobody rated there
    drop_count: DropCount
    # the players
    lee: Player
    lee_session: RatingSession  # ended, walking with 120.00
    guest: Player  # anonymous
    guest_session: RatingSession  # playing at PGP-2 seat 1, after a break and a move
    # the poker room
    tournament: Tournament  # chips, finished after a chip chop
    deal: Deal
    league: League
    league_event: LeagueEvent
    heads_up: Tournament  # running, its bracket drawn
    match: Match  # decided
    ofc: Tournament  # running, round 1
    ofc_hand: OfcHand
    # the staff the floor made (beside the personas of tests/conftest.py)
    cage_cashier: User
    counter: User
    director: User


def _tables(
    pit_boss: User,
    dealer: User,
    floor_supervisor: User,
    make_user: Callable[..., User],
    shift: Shift,
    make_table: Callable[..., Any],
    pgp: Table,
    play_to_hands: Callable[..., Round],
) -> dict[str, Any]:
    cage = make_user("floor_cage", Role.CAGE_CASHIER)
    counter = make_user("floor_count", Role.COUNT_TEAM)
    other = make_table(name="PGP-2", game="paigow_poker", seat_count=6)

    opener = tray_count_confirm(
        actor=floor_supervisor, count=tray_count_record(actor=dealer, table=pgp, kind="opener", counts=TRAY)
    )
    received = slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL)
    received = slip_sign(actor=dealer, slip=slip_issue(actor=cage, slip=received))
    received = slip_sign(actor=floor_supervisor, slip=received)
    voided = slip_void(
        actor=pit_boss, slip=slip_request(actor=dealer, table=pgp, kind="credit", chips=FILL), reason="Asked twice"
    )

    lee = player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")
    guest = player_create(actor=dealer, tier="Bronze", anonymous=True)
    lee_session = session_start(actor=dealer, player=lee, table=pgp, seat=1, chips_cents=10_000)
    guest_session = session_start(actor=dealer, player=guest, table=pgp, seat=3)
    round_ = play_to_hands(pgp, wagers={1: 2500, 2: 1000}, hands={"banker": BANK, "seats": {"1": WINS, "2": LOSES}})
    settle_round(round=round_, actor=dealer, idempotency_key="floor-1")
    rated = buy_in_record(actor=dealer, table=pgp, seat=1, medium="cash", amount_cents=50_000)
    # Mr Lee's marker, asked for at his seat on his line and issued, its buy-in voided on the money page (which
    # voids the marker too).
    credit, second_credit = (
        make_user("floor_credit", Role.CREDIT_MANAGER),
        make_user("floor_credit_2", Role.CREDIT_MANAGER),
    )
    credit_line_set(actor=credit, player=lee, limit_cents=100_000)
    lee_marker = marker_issue(
        actor=floor_supervisor,
        marker=marker_request(actor=dealer, table=pgp, seat=1, amount_cents=100_000, signed_name="Lee"),
    )
    assert lee_marker.buy_in is not None
    marker_buy_in = lee_marker.buy_in
    voiding = buy_in_void(actor=floor_supervisor, buy_in=marker_buy_in, reason="Keyed at the wrong seat")
    unrated = buy_in_record(actor=dealer, table=pgp, seat=2, medium="cash", amount_cents=7_000)
    lee_session = session_end(actor=dealer, session=lee_session, walk_with_cents=12_000)
    session_pause(actor=dealer, session=guest_session)
    session_resume(actor=dealer, session=guest_session)
    guest_session = session_move(actor=dealer, session=guest_session, table=other, seat=1)
    # Credit at the table: Ms Wu's line (raised past the threshold, approved by a second Credit manager), a marker
    # asked for and voided, and one issued at PGP-2 seat 2 (counted with its box below).
    wu = player_create(actor=dealer, name="Ms Wu", card_number="2002", tier="Platinum")
    wu_session = session_start(actor=dealer, player=wu, table=other, seat=2)
    credit_line_set(actor=credit, player=wu, limit_cents=500_000)
    raised = credit_line_set(actor=credit, player=wu, limit_cents=2_000_000, reason="Known player")
    assert isinstance(raised, CreditLineChange)
    credit_change_decide(actor=second_credit, change=raised, approve=True)
    asked_twice = marker_request(actor=dealer, table=other, seat=2, amount_cents=50_000, signed_name="Wu")
    marker_void(actor=floor_supervisor, marker=asked_twice, reason="Asked twice")
    marker = marker_issue(
        actor=floor_supervisor,
        marker=marker_request(actor=dealer, table=other, seat=2, amount_cents=200_000, signature=SIGNATURE),
    )
    session_end(actor=dealer, session=wu_session, walk_with_cents=0)

    closer = tray_count_confirm(
        actor=floor_supervisor, count=tray_count_record(actor=dealer, table=other, kind="closer", counts=TRAY)
    )
    day = shift_close(actor=pit_boss, shift=shift)
    drop = drop_count_record(
        actor=counter, table=pgp, shift=day, cash={10000: 5, 2000: 10}, markers_cents=0, promo_cents=0
    )
    for who in (counter, make_user("floor_count_2", Role.COUNT_TEAM)):  # PGP-2's box final: its marker at the cage
        drop_count_record(actor=who, table=other, shift=day, cash={}, markers_cents=200_000, promo_cents=0)
    marker_redeem(actor=cage, marker=marker, method="cheque", reference="000417")
    marker_cheque_returned(actor=credit, marker=marker, reason="Returned unpaid")
    swing = shift_open(actor=pit_boss, name="Swing")
    requested = slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL)
    return {
        "day_shift": Shift.objects.get(pk=day.pk),
        "swing_shift": swing,
        "table": Table.objects.get(pk=pgp.pk),
        "other_table": other,
        "opener": opener,
        "closer": closer,
        "slip_received": received,
        "slip_voided": voided,
        "slip_requested": requested,
        "settled": Round.objects.get(pk=round_.pk),
        "rated_buy_in": rated,
        "voided_buy_in": marker_buy_in,
        "buy_in_voiding": voiding,
        "unrated_buy_in": unrated,
        "drop_count": drop,
        "lee": lee,
        "lee_session": RatingSession.objects.get(pk=lee_session.pk),
        "guest": guest,
        "guest_session": RatingSession.objects.get(pk=guest_session.pk),
        "cage_cashier": cage,
        "counter": counter,
    }


def _made(director: User, *, tables: int, template_key: str = "msop_main_event", **settings: Any) -> Tournament:
    tournament = tournaments.tournament_create(
        actor=director, template_key=template_key, buy_in_cents=9_000, fee_cents=1_000, tables=tables
    )
    if template_key == "msop_main_event":
        tournaments.tournament_structure_set(actor=director, tournament=tournament, levels=LEVELS)
    if settings:
        tournaments.tournament_settings_set(actor=director, tournament=tournament, **settings)
    return Tournament.objects.get(pk=tournament.pk)


def _started(director: User, tournament: Tournament, players: int, lee: Player | None = None) -> Tournament:
    """``players`` registered (Mr Lee, a card holder, in the place of the third) and the tournament started."""
    for i, name in enumerate(PLAYERS[:players]):
        if lee is not None and i == 2:
            tournaments.entry_register(actor=director, tournament=tournament, player_id=lee.pk, now=T0)
        else:
            tournaments.entry_register(actor=director, tournament=tournament, name=name, now=T0)
    return tournaments.tournament_start(actor=director, tournament=tournament, now=T0, rng=random.Random(18))


def _active(tournament: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).order_by("number"))


def _poker_room(director: User, lee: Player) -> dict[str, Any]:
    rng = random.Random(7)
    # Chips: seven at two tables of six, Anna rebuys; a bust breaks the short table and the six left draw
    # their seats at the final table; they chop the chips, then play to the finish.
    chips = _made(director, tables=2, table_size=6, **REBUYS)
    chips = _started(director, chips, 7, lee)
    anna, ben = _active(chips)[:2]
    tournaments.entry_rebuy(actor=director, tournament=chips, entry=anna, now=at(10))
    tournaments.entry_eliminate(actor=director, tournament=chips, entry=ben, now=at(20), rng=rng)
    deal = deal_record(
        actor=director,
        tournament=chips,
        method="chip_chop",
        stacks={entry.number: 10_000 * (7 - i) for i, entry in enumerate(_active(chips))},
        now=at(25),
    )
    minutes = 30
    while len(players := _active(chips)) > 1:
        tournaments.entry_eliminate(actor=director, tournament=chips, entry=players[-1], now=at(minutes), rng=rng)
        minutes += 1
    league = league_create(actor=director, name="Floor League", season="2026", formula="sqrt_place")
    event = league_event_add(actor=director, league=league, tournament_id=chips.pk)

    # Heads-up: four players, the bracket drawn, the first match ready decided for its first player.
    heads_up = _started(director, _made(director, tables=2, template_key="msop_heads_up"), 4)
    bracket_draw(actor=director, tournament=heads_up, rng=random.Random(7))
    # A match ready at a table (which group's match gets a table first is not the floor's concern).
    ready = (
        Match.objects.filter(tournament=heads_up, status=Match.Status.READY, table_number__isnull=False)
        .order_by("number")
        .first()
    )
    assert ready is not None
    match = match_decide(actor=director, tournament=heads_up, match=ready, winner=ready.entry_a, rng=random.Random(5))

    # Open-Face points: four at one table, round 1 begun, its first hand recorded.
    ofc = _made(director, tables=1, format="ofc_points", ofc_rounds=1, ofc_hands_per_round=2, table_size=4)
    ofc = _started(director, ofc, 4)
    ofc_round_begin(actor=director, tournament=ofc, rng=random.Random(3))
    boards = deal_boards(random.Random(5), seated(ofc, 1))
    hand = ofc_hand_record(actor=director, tournament=ofc, table_number=1, boards=boards)
    return {
        "tournament": Tournament.objects.get(pk=chips.pk),
        "deal": deal,
        "league": league,
        "league_event": event,
        "heads_up": Tournament.objects.get(pk=heads_up.pk),
        "match": Match.objects.get(pk=match.pk),
        "ofc": Tournament.objects.get(pk=ofc.pk),
        "ofc_hand": hand,
    }


def _rotation(pit_boss: User, make_user: Callable[..., User], make_table: Callable[..., Any]) -> None:
    """Dealer rotation: four dealers clocked in and one out again, a string of two tables at 40/20 started (its
    tables pushed to its dealers) and a push tapped in."""
    rotation_tables = [make_table(name=f"ROT-{n}", game="paigow_poker", seat_count=6) for n in (1, 2)]
    dealers = [make_user(f"floor_rot_{n}", Role.DEALER) for n in (1, 2, 3, 4)]
    for rotating in dealers:
        dealer_clock_in(actor=pit_boss, dealer=rotating)
    dealer_clock_out(actor=pit_boss, dealer=dealers[3])
    string = string_create(actor=pit_boss, name="Floor string", tables=rotation_tables, on_minutes=40, off_minutes=20)
    string_start(actor=pit_boss, string=string)
    rotation_push(actor=pit_boss, table=rotation_tables[0])  # the relief, early


def _waitlist(floor_supervisor: User, dealer: User, make_table: Callable[..., Any]) -> None:
    """The card room's waitlist: every state of a name, a must-move move, a list closed with its table."""
    main, feeder, ofc = (
        make_table(name=name, game=game, seat_count=2)
        for name, game in (("CP-F1", "chinese_poker"), ("CP-F2", "chinese_poker"), ("OFC-F1", "ofc"))
    )
    game = waitlist.cash_game_open(actor=floor_supervisor, game="chinese_poker", points_cents=500)
    waitlist.cash_table_add(actor=floor_supervisor, cash_game=game, table=main)
    waitlist.cash_table_add(actor=floor_supervisor, cash_game=game, table=feeder, must_move=True)
    kim = player_create(actor=dealer, name="Ms Kim", card_number="3003", tier="Gold")
    waitlist.waitlist_put_down(actor=floor_supervisor, cash_game=game, player=kim)
    for name in ("Ann", "Bo", "Cy", "Di"):
        waitlist.waitlist_put_down(actor=floor_supervisor, cash_game=game, name=name)
    kim_entry, ann, bo, cy, di = WaitlistEntry.objects.filter(cash_game=game).order_by("pk")
    for _ in range(3):  # Kim and Ann at the main game, Bo at the must-move table
        waitlist.waitlist_seat(
            actor=floor_supervisor, entry=waitlist.waitlist_call(actor=floor_supervisor, cash_game=game)
        )
    waitlist.waitlist_leave(actor=floor_supervisor, entry=ann)
    waitlist.waitlist_move(actor=floor_supervisor, cash_game=game)  # Bo to the main game
    waitlist.waitlist_call(actor=floor_supervisor, cash_game=game)  # Cy, to the must-move table
    later = timezone.now() + dt.timedelta(minutes=waitlist.no_show_minutes())
    with mock.patch("poker_room.waitlist.services.timezone.now", return_value=later):
        waitlist.waitlist_no_shows()  # Cy did not come: a no-show, and Di is called
    waitlist.waitlist_remove(actor=floor_supervisor, entry=di)  # Di, called after Cy, taken off
    closed = waitlist.cash_game_open(actor=floor_supervisor, game="ofc", points_cents=200)
    waitlist.cash_table_add(actor=floor_supervisor, cash_game=closed, table=ofc)
    waitlist.cash_game_close(actor=floor_supervisor, cash_game=closed)


@pytest.fixture
def every_record(  # type: ignore[no-untyped-def]
    pit_boss, dealer, floor_supervisor, make_user, shift, make_table, pgp_table, play_to_hands, house_chips
) -> Floor:
    """A floor with at least one row of every audited record, most in more than one state (see the module)."""
    cache_clear()  # a tournament's version outlives a rolled-back test database in the cache
    director = make_user("floor_director", Role.TOURNAMENT_DIRECTOR)
    tables = _tables(pit_boss, dealer, floor_supervisor, make_user, shift, make_table, pgp_table, play_to_hands)
    room = _poker_room(director, tables["lee"])
    _rotation(pit_boss, make_user, make_table)
    _waitlist(floor_supervisor, dealer, make_table)
    return Floor(**tables, **room, director=director)
