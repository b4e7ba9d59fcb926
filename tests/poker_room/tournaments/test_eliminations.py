"""A player out (GAME_RULES.md §5 and the TDA's balancing): placed by the players still in, the seat freed,
the floor balanced (a move to the short table, a table broken, the final table redrawn), the winner placed and the
tournament finished; a mistaken bust undone (the latest first, with a reason); who may record a bust.

Tina directs; Dana deals; Alex audits.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, connection, transaction

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.events import AuditEventType
from casino.models import AuditEvent
from casino.roles import Role
from ledger.models import LedgerEntry, Posting
from ledger.verify import ledger_verify
from poker_room.pure.seating import TableSeats, next_big_blind
from poker_room.tournaments import services
from poker_room.tournaments.models import Elimination, Entry, SeatMove, Tournament, TournamentTable
from tests.poker_room.refusals import refused
from tests.poker_room.tournament_setup import at, entry, everything, fresh, seating


def at_table(tournament: Tournament, number: int) -> list[Entry]:
    return list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE, table_number=number).order_by("number")
    )


def bust(tournament: Tournament, actor: User, player: Entry, minutes: float = 30, **kwargs: object) -> Elimination:
    return services.entry_eliminate(actor=actor, tournament=tournament, entry=player, now=at(minutes), **kwargs)


@pytest.mark.django_db
def test_a_player_out_is_placed_by_the_players_still_in_and_leaves_the_seat(running, director) -> None:
    tournament = running(players=6)
    ben = entry(tournament, 2)
    seat = (ben.table_number, ben.seat_number)
    out = bust(tournament, director, ben, eliminated_by=entry(tournament, 1))
    ben.refresh_from_db()
    assert (out.place, out.prize_cents, out.posting_id, out.eliminated_by.number) == (6, 0, None, 1)
    assert (out.table_number, out.seat_number) == seat
    assert (ben.status, ben.place, ben.table_number, ben.seat_number) == ("busted", 6, None, None)
    event = AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_ELIMINATION).get()
    assert (event.after["entry"], event.after["place"], event.after["postings"]) == (2, 6, [])
    assert fresh(tournament).pool_locked_at is None  # 6 entries pay 3 places


@pytest.mark.django_db
def test_eliminating_a_player_twice_is_refused_and_a_double_tap_writes_once(running, director) -> None:
    tournament = running(players=12, tables=2)
    ben = entry(tournament, 2)
    bust(tournament, director, ben)
    refused(tournament, WrongState, "#2 Ben is already out (12th).", lambda: bust(tournament, director, ben, 31))
    assert Elimination.objects.filter(entry=ben).count() == 1


@pytest.mark.django_db
def test_who_knocks_a_player_out_is_another_player_still_in(running, director) -> None:
    tournament = running(players=5, bounty_cents=2_000, bounty_kind="fixed")
    anna, ben, cem = entry(tournament, 1), entry(tournament, 2), entry(tournament, 3)
    refused(
        tournament,
        ApplicationError,
        "Say who knocked #2 Ben out: MSOP Main Event pays a bounty.",
        lambda: bust(tournament, director, ben),
    )
    refused(
        tournament,
        ApplicationError,
        "A player does not knock themselves out.",
        lambda: bust(tournament, director, ben, eliminated_by=ben),
    )
    bust(tournament, director, cem, eliminated_by=anna)
    refused(
        tournament,
        WrongState,
        "#3 Cem is out: only a player still in knocks someone out.",
        lambda: bust(tournament, director, ben, eliminated_by=cem),
    )


# --- the floor kept balanced -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_bust_that_leaves_a_table_two_short_moves_the_next_big_blind_to_the_worst_position(running, director) -> None:
    tournament = running(players=12, tables=2, table_size=6)
    assert seating(tournament) == {1: 6, 2: 6}
    services.table_button_set(actor=director, tournament=tournament, table_number=2, seat=3)
    first, second = at_table(tournament, 1)[:2]
    bust(tournament, director, first)
    assert not SeatMove.objects.filter(reason="balance").exists()  # 5 and 6: within one
    long_table = TournamentTable.objects.get(tournament=tournament, number=2)
    occupied = {player.seat_number: player.pk for player in at_table(tournament, 2)}
    mover = occupied[next_big_blind(TableSeats(2, 6, occupied, long_table.button))]
    bust(tournament, director, second, 31)
    move = SeatMove.objects.get(reason="balance")
    assert (move.entry_id, move.from_table, move.to_table) == (mover, 2, 1)
    assert seating(tournament) == {1: 5, 2: 5}


@pytest.mark.django_db
def test_tables_break_in_their_order_and_the_final_table_is_redrawn(running, director) -> None:
    tournament = running(players=14, tables=3, table_size=6)
    assert seating(tournament) == {1: 5, 2: 5, 3: 4}
    minutes = 30
    while Entry.objects.filter(tournament=tournament, status="active").count() > 12:
        minutes += 1
        bust(tournament, director, at_table(tournament, 1)[0], minutes)
    # 12 players fit at tables 1 and 2: table 3, the first in the break order, broke.
    table_3 = TournamentTable.objects.get(tournament=tournament, number=3)
    assert table_3.broken_at is not None
    assert SeatMove.objects.filter(tournament=tournament, reason="table_break", from_table=3).count() == 4
    assert seating(tournament) == {1: 6, 2: 6}
    while Entry.objects.filter(tournament=tournament, status="active").count() > 6:
        minutes += 1
        longest = max((1, 2), key=lambda number: len(at_table(tournament, number)))
        bust(tournament, director, at_table(tournament, longest)[0], minutes)
    # Six players fit at the final table: everyone draws a seat there.
    assert seating(tournament) == {1: 6}
    assert TournamentTable.objects.get(tournament=tournament, number=2).broken_at is not None
    redraw = SeatMove.objects.filter(tournament=tournament, reason="final_table")
    assert redraw.count() == 6 and {move.to_table for move in redraw} == {1}
    assert TournamentTable.objects.get(tournament=tournament, number=1).button is None  # placed anew
    event = AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_ELIMINATION).order_by("-seq").first()
    assert event.after["broken_tables"] == [2] and len(event.after["moves"]) == 6


@pytest.mark.django_db
def test_the_last_player_left_wins_and_the_tournament_finishes(running, director) -> None:
    tournament = running(players=3)
    anna, ben, cem = entry(tournament, 1), entry(tournament, 2), entry(tournament, 3)
    third = bust(tournament, director, cem)
    second = bust(tournament, director, ben, 31)
    anna.refresh_from_db()
    winner = Elimination.objects.get(entry=anna)
    assert (third.place, second.place, winner.place, winner.eliminated_by) == (3, 2, 1, None)
    assert (anna.status, anna.place) == ("won", 1)
    # 3 entries of 90.00 to the pool: 50 / 30 / 20 %.
    assert (winner.prize_cents, second.prize_cents, third.prize_cents) == (13_500, 8_100, 5_400)
    finished = fresh(tournament)
    assert (finished.status, finished.finished_at) == ("finished", at(31))
    assert AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_FINISHED).get().after["entry"] == 1
    refused(
        finished,
        WrongState,
        "MSOP Main Event has finished: its results are final.",
        lambda: bust(finished, director, anna, 32),
    )


# --- undo ------------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_mistaken_bust_is_undone_with_its_prize_and_the_player_back_in_the_seat(running, director) -> None:
    tournament = running(players=4)
    dora, cem = entry(tournament, 4), entry(tournament, 3)
    bust(tournament, director, dora)
    seat = (cem.table_number, cem.seat_number)
    mistaken = bust(tournament, director, cem, 31)  # third place: paid
    assert mistaken.prize_cents == 7_200 and fresh(tournament).pool_locked_at is not None
    refused(
        tournament,
        ApplicationError,
        "Say why the bust is undone.",
        lambda: services.elimination_undo(actor=director, tournament=tournament, elimination=mistaken, reason=" "),
    )
    first = Elimination.objects.get(entry=dora)
    refused(
        tournament,
        WrongState,
        "Undo the later bust first: #3 Cem, out in 3rd.",
        lambda: services.elimination_undo(actor=director, tournament=tournament, elimination=first, reason="oops"),
    )
    undone = services.elimination_undo(
        actor=director,
        tournament=tournament,
        elimination=mistaken,
        reason="The dealer pushed the pot to Cem",
        now=at(32),
    )
    cem.refresh_from_db()
    assert (undone.status, undone.undone_by, undone.undo_reason) == (
        "undone",
        director,
        "The dealer pushed the pot to Cem",
    )
    assert (cem.status, cem.place, (cem.table_number, cem.seat_number)) == ("active", None, seat)
    reversal = undone.undo_posting
    assert (reversal.kind, reversal.reverses_id, reversal.idempotency_key) == (
        "t_reversal",
        mistaken.posting_id,
        f"tournament:{tournament.pk}:undo:{mistaken.posting_id}",
    )
    assert SeatMove.objects.filter(entry=cem, reason="undo").count() == 1
    event = AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_ELIMINATION_UNDONE).get()
    assert event.reason == "The dealer pushed the pot to Cem" and event.after["postings"][0]["id"] == reversal.pk
    refused(
        tournament,
        WrongState,
        "The bust of #3 Cem was undone already.",
        lambda: services.elimination_undo(actor=director, tournament=tournament, elimination=undone, reason="again"),
    )
    # Busted again, for real: a new placing, posted under its own key.
    again = bust(tournament, director, cem, 33)
    assert again.place == 3 and again.posting.idempotency_key == f"tournament:{tournament.pk}:prize:3:2"


@pytest.mark.django_db
def test_an_undone_player_whose_seat_was_taken_sits_at_the_shortest_table(running, director) -> None:
    tournament = running(players=12, tables=3, table_size=6, late_registration_level=3)
    assert seating(tournament) == {1: 6, 2: 6, 3: 0}
    ben = entry(tournament, 2)
    out = bust(tournament, director, ben)
    late = services.entry_register(actor=director, tournament=tournament, name="Late Larry", now=at(31))
    assert (late.table_number, late.seat_number) == (out.table_number, out.seat_number)  # the only free seat in play
    services.elimination_undo(actor=director, tournament=tournament, elimination=out, reason="wrong player", now=at(32))
    ben.refresh_from_db()
    # His seat is Larry's now and tables 1 and 2 are full: the shortest table is the empty one, and he does not
    # sit there alone: the floor is balanced at once.
    assert (ben.status, ben.table_number) == ("active", 3)
    move = SeatMove.objects.get(entry=ben, reason="undo")
    assert (move.from_table, move.to_table, move.to_seat) == (None, 3, ben.seat_number)
    assert sorted(seating(tournament).values()) == [4, 4, 5]
    assert SeatMove.objects.filter(tournament=tournament, reason="balance", to_table=3).count() == 3


@pytest.mark.django_db
def test_undoing_the_runner_up_s_bust_takes_the_win_back_and_the_tournament_runs_again(running, director) -> None:
    tournament = running(players=3)
    anna, ben, cem = entry(tournament, 1), entry(tournament, 2), entry(tournament, 3)
    bust(tournament, director, cem)
    second = bust(tournament, director, ben, 31)
    assert fresh(tournament).status == "finished"
    refused(
        tournament,
        ApplicationError,
        "Say why the bust is undone.",
        lambda: services.elimination_undo(actor=director, tournament=tournament, elimination=second, reason=" "),
    )
    services.elimination_undo(actor=director, tournament=tournament, elimination=second, reason="Ben had chips left")
    again = fresh(tournament)
    assert (again.status, again.finished_at) == ("running", None)
    anna.refresh_from_db()
    ben.refresh_from_db()
    assert (anna.status, anna.place, ben.status, ben.place) == ("active", None, "active", None)
    assert anna.table_number is not None and ben.table_number is not None
    # Both the win and the second place are undone, their prizes reversed; the pool holds the two prizes again.
    assert set(Elimination.objects.filter(tournament=tournament, status="undone").values_list("place", flat=True)) == {
        1,
        2,
    }
    reversed_cents = -sum(
        LedgerEntry.objects.filter(posting__kind="t_reversal", account="prize_pool").values_list(
            "amount_cents", flat=True
        )
    )
    assert reversed_cents == -(13_500 + 8_100)
    assert ledger_verify().ok
    # Ben busts again (the real bust), and Anna wins again.
    bust(tournament, director, ben, 40)
    assert fresh(tournament).status == "finished"
    assert ledger_verify().ok


@pytest.mark.django_db
def test_the_win_alone_is_not_undone_the_runner_up_s_bust_takes_it_back(running, director) -> None:
    """Undoing the winner's own row would leave one player in a running tournament that no bust can ever finish."""
    tournament = running(players=3)
    bust(tournament, director, entry(tournament, 3))
    bust(tournament, director, entry(tournament, 2), 31)
    win = Elimination.objects.get(tournament=tournament, place=1)
    refused(
        tournament,
        WrongState,
        "The win of #1 Anna is not undone alone: undo the runner-up's bust, and the win goes with it.",
        lambda: services.elimination_undo(actor=director, tournament=tournament, elimination=win, reason="oops"),
    )
    assert fresh(tournament).status == "finished" and ledger_verify().ok


@pytest.mark.django_db
def test_the_bust_of_a_player_who_has_re_entered_since_stands(running, director) -> None:
    """The re-entry is a new entry, paid: undoing the bust under it would give the player two stacks."""
    tournament = running(players=6, reentries_max=1, late_registration_level=3)
    ben = entry(tournament, 2)
    out = bust(tournament, director, ben, 10)
    again = services.entry_reenter(actor=director, tournament=tournament, entry=ben, now=at(11))
    refused(
        tournament,
        WrongState,
        "#2 Ben has re-entered as #7 since: that entry plays on, and this bust stands.",
        lambda: services.elimination_undo(
            actor=director, tournament=tournament, elimination=out, reason="wrong player", now=at(12)
        ),
    )
    # The re-entry busted too, and its bust undone first: the first bust still stands.
    second = bust(tournament, director, again, 13)
    services.elimination_undo(actor=director, tournament=tournament, elimination=second, reason="oops", now=at(14))
    refused(
        tournament,
        WrongState,
        "#2 Ben has re-entered as #7 since: that entry plays on, and this bust stands.",
        lambda: services.elimination_undo(
            actor=director, tournament=tournament, elimination=out, reason="wrong player", now=at(15)
        ),
    )
    assert Entry.objects.filter(tournament=tournament, name="Ben", status="active").count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("players", "tables", "size", "after_bust", "after_undo"),
    [
        (10, 2, 9, {1: 9}, [5, 5]),  # the bust redrew the final table
        (13, 3, 6, {1: 6, 2: 6}, [4, 4, 5]),  # the bust broke table 3
    ],
    ids=["final-table-redrawn", "table-broken"],
)
def test_a_bust_that_broke_its_table_is_undone_with_the_table_opened_again(
    running, director, players, tables, size, after_bust, after_undo
) -> None:
    """Every seat left in play is taken: the player's own table opens again, they sit in their seat, and the floor
    is balanced (no table of one)."""
    tournament = running(players=players, tables=tables, table_size=size)
    victim = at_table(tournament, tables)[0]
    seat = (victim.table_number, victim.seat_number)
    out = bust(tournament, director, victim)
    assert seating(tournament) == after_bust
    services.elimination_undo(actor=director, tournament=tournament, elimination=out, reason="misdeal", now=at(31))
    victim.refresh_from_db()
    assert victim.status == "active" and sorted(seating(tournament).values()) == after_undo  # within one
    assert SeatMove.objects.get(entry=victim, reason="undo").to_table == seat[0]
    assert TournamentTable.objects.get(tournament=tournament, number=tables).broken_at is None
    event = AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_ELIMINATION_UNDONE).get()
    assert event.after["reopened_table"] == tables and event.after["seats"][0]["to"] == list(seat)
    assert ledger_verify().ok


# --- who may record a bust -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_dealer_of_the_table_records_its_busts_and_moves_its_button_and_no_other(
    running, director, dealer, auditor, make_user
) -> None:
    tournament = running(players=12, tables=2, table_size=6)
    services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=1, dealer=dealer)
    mine, theirs = at_table(tournament, 1)[0], at_table(tournament, 2)[0]
    refused(
        tournament,
        NotAllowed,
        "Table 2 is not your table: only its dealer or the tournament director may record a bust.",
        lambda: bust(tournament, dealer, theirs),
    )
    refused(
        tournament,
        NotAllowed,
        "Table 2 is not your table: only its dealer or the tournament director may move the button.",
        lambda: services.table_button_set(actor=dealer, tournament=tournament, table_number=2, seat=1),
    )
    for outsider in (auditor, make_user("tom_director_of_nothing", Role.CAGE_CASHIER)):
        before = everything(tournament)
        with pytest.raises(NotAllowed):
            bust(tournament, outsider, mine)
        assert everything(tournament) == before
    out = bust(tournament, dealer, mine)
    assert out.actor == dealer
    table = services.table_button_set(actor=dealer, tournament=tournament, table_number=1, seat=4)
    assert table.button == 4


# --- a double tap at the same instant: the row lock (PostgreSQL) -----------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("real_services")
def test_two_taps_at_once_record_one_bust(running, director) -> None:
    """The first tap holds the tournament's row; the second waits for it, then finds the player out and is refused."""
    tournament = running(players=6)
    ben = entry(tournament, 2)
    holding, release = threading.Event(), threading.Event()
    outcome: list[object] = []
    errors: list[BaseException] = []

    def first() -> None:
        try:
            with transaction.atomic():
                bust(tournament, director, ben)
                holding.set()
                release.wait(10)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    def second() -> None:
        try:
            bust(tournament, director, ben, 31)
            outcome.append("done")
        except (WrongState, DatabaseError) as exc:
            outcome.append(exc)
        finally:
            connection.close()

    holder = threading.Thread(target=first)
    holder.start()
    assert holding.wait(10)
    follower = threading.Thread(target=second)
    follower.start()
    time.sleep(0.5)
    assert outcome == []  # it waits for the first tap
    release.set()
    holder.join(10)
    follower.join(10)
    assert errors == []
    assert len(outcome) == 1 and isinstance(outcome[0], WrongState)
    assert str(outcome[0]) == "#2 Ben is already out (6th)."
    assert Elimination.objects.filter(entry=ben).count() == 1
    assert Posting.objects.filter(idempotency_key__startswith=f"tournament:{tournament.pk}:prize").count() == 0
