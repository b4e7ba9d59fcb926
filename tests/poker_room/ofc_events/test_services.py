"""Open-Face points tournaments (``poker_room.ofc_events``): rounds begun and their tables redrawn, hands entered
and scored by the engine, a hand voided, the finish that places and pays everyone, a tie at the top settled by a lot;
refusals in the dealer's words with nothing written.

Tina directs; Dana deals table 1, Otto table 2. The expected points come from ``rules.games.ofc.score`` itself."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.events import AuditEventType
from casino.models import AuditEvent
from casino.roles import Role
from ledger.verify import ledger_verify
from poker_room.ofc_events import services as ofc_points
from poker_room.ofc_events.models import OfcHand
from poker_room.ofc_events.selectors import console_context, tournament_standings
from poker_room.tournaments import services
from poker_room.tournaments.models import Elimination, Entry, SeatMove, Tournament
from rules.games.cards import CARDS
from rules.games.ofc import Board, score
from tests.poker_room.ofc_events.play import OFC, deal_boards, engine_points, round_begun, seated
from tests.poker_room.tournament_setup import PLAYERS, T0, everything, fresh

pytestmark = pytest.mark.django_db


def play_round(tournament: Tournament, actor: User, rng: random.Random) -> dict[int, int]:
    """Every table plays all its hands of the round; the points each entry scored, by the engine."""
    tournament = fresh(tournament)
    totals: dict[int, int] = {}
    tables = sorted(
        set(Entry.objects.filter(tournament=tournament, status="active").values_list("table_number", flat=True))
    )
    for table in tables:
        for _hand in range(tournament.ofc_hands_per_round):
            boards = deal_boards(rng, seated(tournament, table))
            ofc_points.ofc_hand_record(actor=actor, tournament=tournament, table_number=table, boards=boards)
            for number, points in engine_points(boards).items():
                totals[number] = totals.get(number, 0) + points
    return totals


# --- a round-----------------------------------------------------------------------------------------------------------


def test_round_one_keeps_the_starts_draw_of_two_tables_of_four(ofc, director: User) -> None:
    tournament = ofc(8)
    assert sorted(len(seated(tournament, table)) for table in (1, 2)) == [4, 4]
    moves_before = SeatMove.objects.count()
    ofc_points.ofc_round_begin(actor=director, tournament=tournament, rng=random.Random(1))
    assert fresh(tournament).ofc_round == 1
    assert SeatMove.objects.count() == moves_before
    event = AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_OFC_ROUND).get()
    assert event.after["round"] == 1 and event.after["kept_the_start_draw"] is True


def test_nine_players_play_three_tables_of_three(ofc, director: User) -> None:
    tournament = ofc(9, tables=3)
    ofc_points.ofc_round_begin(actor=director, tournament=tournament, rng=random.Random(2))
    assert sorted(len(seated(tournament, table)) for table in (1, 2, 3)) == [3, 3, 3]


def test_a_seating_that_is_no_open_face_layout_is_redrawn_for_round_one(ofc, director: User) -> None:
    tournament = ofc(9, tables=3)
    # A table of four and one of two (a seat changed by hand on the floor): round 1 draws the tables again.
    mover = Entry.objects.filter(tournament=tournament, table_number=3).order_by("seat_number").first()
    free = ({1, 2, 3, 4} - set(seated_seats(tournament, 1))).pop()
    Entry.objects.filter(pk=mover.pk).update(table_number=1, seat_number=free)
    ofc_points.ofc_round_begin(actor=director, tournament=tournament, rng=random.Random(2))
    assert sorted(len(seated(tournament, table)) for table in (1, 2, 3)) == [3, 3, 3]
    assert SeatMove.objects.filter(tournament=tournament, reason=SeatMove.Reason.ROUND_DRAW).count() == 9
    event = AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_OFC_ROUND).get()
    assert event.after["kept_the_start_draw"] is False and len(event.after["seats"]) == 9


def seated_seats(tournament: Tournament, table: int) -> list[int]:
    return list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE, table_number=table).values_list(
            "seat_number", flat=True
        )
    )


def test_an_odd_field_at_tables_of_two_is_refused_in_the_directors_words(ofc, director: User) -> None:
    tournament = ofc(5, tables=3, table_size=2)
    before = everything(tournament)
    with pytest.raises(WrongState) as refused:
        ofc_points.ofc_round_begin(actor=director, tournament=tournament)
    assert refused.value.message == "5 players do not make tables of 2: one would play alone. Seat 3 or 4 a table."
    assert everything(tournament) == before


def test_the_next_round_waits_for_every_table_then_redraws_everyone(ofc, director: User) -> None:
    tournament = ofc(8)
    ofc_points.ofc_round_begin(actor=director, tournament=tournament)
    deck = random.Random(7)
    boards = deal_boards(deck, seated(tournament, 1))
    ofc_points.ofc_hand_record(actor=director, tournament=tournament, table_number=1, boards=boards)
    before = everything(tournament)
    with pytest.raises(WrongState) as refused:
        ofc_points.ofc_round_begin(actor=director, tournament=tournament)
    assert refused.value.message == "Round 1 is not over: table 1 has played 1 of 3 hands."
    assert everything(tournament) == before
    for _ in range(2):
        ofc_points.ofc_hand_record(
            actor=director, tournament=tournament, table_number=1, boards=deal_boards(deck, seated(tournament, 1))
        )
    for _ in range(3):
        ofc_points.ofc_hand_record(
            actor=director, tournament=tournament, table_number=2, boards=deal_boards(deck, seated(tournament, 2))
        )
    ofc_points.ofc_round_begin(actor=director, tournament=tournament, rng=random.Random(3))
    assert fresh(tournament).ofc_round == 2
    moved = SeatMove.objects.filter(tournament=tournament, reason=SeatMove.Reason.ROUND_DRAW)
    assert moved.count() == 8
    assert sorted(len(seated(tournament, table)) for table in (1, 2)) == [4, 4]
    assert all(move.from_table is not None for move in moved)


def test_a_round_is_begun_only_in_a_running_open_face_tournament(make_tournament, ofc, director: User) -> None:
    chips = make_tournament()
    with pytest.raises(WrongState, match="is not an Open-Face points tournament"):
        ofc_points.ofc_round_begin(actor=director, tournament=chips)
    planned = make_tournament(**OFC)
    with pytest.raises(WrongState, match="has not started"):
        ofc_points.ofc_round_begin(actor=director, tournament=planned)


# --- a hand------------------------------------------------------------------------------------------------------------


def test_a_hand_is_scored_by_the_engine_and_numbered_at_its_table(ofc, director: User) -> None:
    tournament = ofc(8)
    ofc_points.ofc_round_begin(actor=director, tournament=tournament)
    boards = deal_boards(random.Random(11), seated(tournament, 2))
    hand = ofc_points.ofc_hand_record(actor=director, tournament=tournament, table_number=2, boards=boards)
    expected = engine_points(boards)
    assert {int(k): v for k, v in hand.points.items()} == expected and sum(expected.values()) == 0
    assert (hand.round, hand.hand, hand.table_number) == (1, 1, 2)
    sheet = score({str(n): Board.from_rows(*rows) for n, rows in boards.items()})
    assert sorted(hand.fouls) == sorted(int(p) for p in sheet.fouls)
    assert {int(k): v for k, v in hand.royalties.items()} == {int(k): v for k, v in sheet.royalties.items()}
    event = AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_OFC_HAND).get()
    assert event.after["boards"] == hand.boards and event.after["points"] == hand.points
    second = ofc_points.ofc_hand_record(
        actor=director,
        tournament=tournament,
        table_number=2,
        boards=deal_boards(random.Random(12), seated(tournament, 2)),
    )
    assert second.hand == 2


def test_a_fouled_board_is_scored_not_refused(ofc, director: User) -> None:
    tournament = ofc(4, tables=1)
    ofc_points.ofc_round_begin(actor=director, tournament=tournament)
    a, b, c, d = seated(tournament, 1)
    boards = {
        a: ("Qs Qd 4c", "9c 9h 7d 7s 2h", "Ac Ad Ah 3s 3d"),
        b: ("Ks Kd 5c", "Jc Th 8d 7c 2d", "As 6d 6c 6h 4s"),  # fouled
        c: ("2s 3h 4d", "5s 5h 8h 9s Ts", "Kc Kh Jd Js 2c"),
        d: ("6s 7h 8s", "Tc Td 9d 5d 3c", "Qh Qc Jh 8c 4h"),
    }
    hand = ofc_points.ofc_hand_record(actor=director, tournament=tournament, table_number=1, boards=boards)
    assert hand.fouls == [b]
    assert {int(k): v for k, v in hand.points.items()} == engine_points(boards)


@pytest.mark.parametrize(
    ("change", "message", "field"),
    [
        (
            lambda boards, seats: boards[seats[1]].__setitem__(
                0, boards[seats[0]][0].split()[0] + " " + " ".join(boards[seats[1]][0].split()[1:])
            ),
            "is on the table twice: seat",
            "-front",
        ),
        (lambda boards, seats: boards.pop(seats[2]), "has no board: enter all three rows of every player.", "-front"),
        (lambda boards, seats: boards.__setitem__(99, ["2c 3c 4c", "", ""]), "#99 does not sit at table 1.", "boards"),
        (lambda boards, seats: boards[seats[0]].__setitem__(1, "Xx 2c 3c 4c 5c"), "'Xx' is not a card", "-middle"),
        (
            lambda boards, seats: boards[seats[0]].__setitem__(2, boards[seats[0]][2].rsplit(" ", 1)[0]),
            "the back holds 5 cards, not 4.",
            "-back",
        ),
    ],
)
def test_a_hand_entered_wrongly_is_refused_with_nothing_written(ofc, director: User, change, message, field) -> None:
    tournament = ofc(4, tables=1)
    ofc_points.ofc_round_begin(actor=director, tournament=tournament)
    seats = seated(tournament, 1)
    boards: dict[int, list[str]] = {n: list(rows) for n, rows in deal_boards(random.Random(5), seats).items()}
    change(boards, seats)
    before = everything(tournament)
    hands = OfcHand.objects.count()
    with pytest.raises(ApplicationError) as refused:
        ofc_points.ofc_hand_record(actor=director, tournament=tournament, table_number=1, boards=boards)
    assert message in refused.value.message
    assert refused.value.extra["field"].endswith(field)
    assert everything(tournament) == before and OfcHand.objects.count() == hands


def test_a_card_twice_is_named_with_both_places(ofc, director: User) -> None:
    tournament = ofc(4, tables=1)
    ofc_points.ofc_round_begin(actor=director, tournament=tournament)
    seats = seated(tournament, 1)
    boards = {n: list(rows) for n, rows in deal_boards(random.Random(5), seats).items()}
    card = boards[seats[0]][2].split()[-1]
    boards[seats[3]][1] = " ".join([*boards[seats[3]][1].split()[:4], card])
    first, last = (Entry.objects.get(tournament=tournament, number=n) for n in (seats[0], seats[3]))
    with pytest.raises(ApplicationError) as refused:
        ofc_points.ofc_hand_record(actor=director, tournament=tournament, table_number=1, boards=boards)
    symbol = next(c for c in CARDS if str(c) == card).symbol
    assert refused.value.message == (
        f"{symbol} is on the table twice: seat {last.seat_number} (#{last.number} {last.name}) middle and seat "
        f"{first.seat_number} (#{first.number} {first.name}) back. Check the cards."
    )
    assert refused.value.extra == {"field": f"{seats[3]}-middle", "card": card}


def test_no_hand_beyond_the_rounds_hands(ofc, director: User) -> None:
    tournament = ofc(4, tables=1)
    ofc_points.ofc_round_begin(actor=director, tournament=tournament)
    play_round(tournament, director, random.Random(1))
    with pytest.raises(WrongState) as refused:
        ofc_points.ofc_hand_record(
            actor=director,
            tournament=tournament,
            table_number=1,
            boards=deal_boards(random.Random(2), seated(tournament, 1)),
        )
    assert refused.value.message == "Table 1 has played all 3 hands of round 1."


def test_the_tables_dealer_enters_hands_there_and_nowhere_else(ofc, director: User, make_user) -> None:
    dana = make_user("dana_dealer", Role.DEALER)
    alex = make_user("alex_auditor", Role.AUDITOR)
    tournament = ofc(8)
    services.tournament_table_dealer_set(actor=director, tournament=tournament, table_number=1, dealer=dana)
    ofc_points.ofc_round_begin(actor=director, tournament=tournament)
    hand = ofc_points.ofc_hand_record(
        actor=dana, tournament=tournament, table_number=1, boards=deal_boards(random.Random(1), seated(tournament, 1))
    )
    assert hand.actor == dana
    with pytest.raises(NotAllowed, match="Table 2 is not your table"):
        ofc_points.ofc_hand_record(
            actor=dana,
            tournament=tournament,
            table_number=2,
            boards=deal_boards(random.Random(1), seated(tournament, 2)),
        )
    with pytest.raises(NotAllowed):
        ofc_points.ofc_hand_record(
            actor=alex,
            tournament=tournament,
            table_number=2,
            boards=deal_boards(random.Random(1), seated(tournament, 2)),
        )
    with pytest.raises(NotAllowed):
        ofc_points.ofc_round_begin(actor=dana, tournament=tournament)
    with pytest.raises(NotAllowed):
        ofc_points.ofc_hand_void(actor=dana, tournament=tournament, hand=hand, reason="wrong")


def test_before_round_one_no_hand_is_entered(ofc, director: User) -> None:
    tournament = ofc(8)
    with pytest.raises(WrongState, match="Round 1 has not begun"):
        ofc_points.ofc_hand_record(
            actor=director,
            tournament=tournament,
            table_number=1,
            boards=deal_boards(random.Random(1), seated(tournament, 1)),
        )


# --- a hand voided-----------------------------------------------------------------------------------------------------


def test_only_the_latest_hand_is_voided_and_its_number_is_entered_again(ofc, director: User) -> None:
    tournament = ofc(4, tables=1)
    ofc_points.ofc_round_begin(actor=director, tournament=tournament)
    deck = random.Random(9)
    first = ofc_points.ofc_hand_record(
        actor=director, tournament=tournament, table_number=1, boards=deal_boards(deck, seated(tournament, 1))
    )
    second = ofc_points.ofc_hand_record(
        actor=director, tournament=tournament, table_number=1, boards=deal_boards(deck, seated(tournament, 1))
    )
    with pytest.raises(WrongState, match="void hand 2 first"):
        ofc_points.ofc_hand_void(actor=director, tournament=tournament, hand=first, reason="typo")
    with pytest.raises(ApplicationError, match="The reason is required"):
        ofc_points.ofc_hand_void(actor=director, tournament=tournament, hand=second, reason="  ")
    voided = ofc_points.ofc_hand_void(
        actor=director, tournament=tournament, hand=second, reason="Seat 2's back misread"
    )
    assert voided.status == OfcHand.Status.VOIDED and voided.void_reason == "Seat 2's back misread"
    with pytest.raises(WrongState, match="voided already"):
        ofc_points.ofc_hand_void(actor=director, tournament=tournament, hand=second, reason="again")
    again = ofc_points.ofc_hand_record(
        actor=director, tournament=tournament, table_number=1, boards=deal_boards(deck, seated(tournament, 1))
    )
    assert again.hand == 2
    totals = {line.entry.number: line.line.total for line in tournament_standings(fresh(tournament))}
    expected: dict[int, int] = {}
    for hand in (first, again):
        for number, points in hand.points.items():
            expected[int(number)] = expected.get(int(number), 0) + points
    assert totals == expected
    assert AuditEvent.objects.filter(event_type=AuditEventType.TOURNAMENT_OFC_HAND_VOIDED).count() == 1


# --- the whole tournament----------------------------------------------------------------------------------------------


def test_eight_players_two_rounds_of_three_hands_placed_and_paid_by_the_standings(ofc, director: User) -> None:
    tournament = ofc(8)
    with pytest.raises(WrongState, match="finishes after the last round"):
        ofc_points.ofc_finish(actor=director, tournament=tournament)
    ofc_points.ofc_round_begin(actor=director, tournament=tournament)
    deck = random.Random(2026)
    totals = play_round(tournament, director, deck)
    ofc_points.ofc_round_begin(actor=director, tournament=tournament, rng=random.Random(4))
    with pytest.raises(WrongState, match="Round 2 is not over"):
        ofc_points.ofc_finish(actor=director, tournament=tournament)
    for number, points in play_round(tournament, director, deck).items():
        totals[number] = totals.get(number, 0) + points
    with pytest.raises(WrongState, match="All 2 rounds are played"):
        ofc_points.ofc_round_begin(actor=director, tournament=tournament)
    assert console_context(fresh(tournament), director)["ofc"]["may_finish"] is True
    lines = tournament_standings(fresh(tournament))
    assert {line.entry.number: line.line.total for line in lines} == totals
    assert sum(totals.values()) == 0
    finished = ofc_points.ofc_finish(actor=director, tournament=tournament, rng=random.Random(1))
    assert finished.status == Tournament.Status.FINISHED
    final = tournament_standings(finished)
    assert [line.entry.place for line in final] == list(range(1, 9))
    assert [line.line.rank for line in final] == list(range(1, 9))
    # Points never rise down the places.
    assert all(a.line.total >= b.line.total for a, b in zip(final, final[1:], strict=False))
    prizes = {e.place: e.prize_cents for e in Elimination.objects.filter(tournament=tournament)}
    pool = 8 * 9_000
    assert prizes[1] + prizes[2] + prizes[3] == pool and prizes[1] == pool * 50 // 100
    assert all(prizes[place] == 0 for place in range(4, 9))
    assert ledger_verify().ok
    with pytest.raises(WrongState):
        ofc_points.ofc_finish(actor=director, tournament=tournament)


def test_a_tie_at_the_top_on_every_tie_break_is_settled_by_a_lot_kept_in_the_audit(
    make_tournament: Callable[..., Tournament],  # noqa: F811
    director: User,  # noqa: F811
) -> None:
    made = make_tournament(tables=1, **{**OFC, "ofc_rounds": 1, "ofc_hands_per_round": 1})
    for name in PLAYERS[:2]:
        services.entry_register(actor=director, tournament=made, name=name, now=T0)
    event = round_begun(
        services.tournament_start(actor=director, tournament=made, now=T0, rng=random.Random(1)), director
    )
    a, b = seated(event, 1)
    # Mirror boards: the same ranks in other suits, so every row ties and nobody scores.
    boards = {a: ("2s 3s 4d", "5s 6s 7s 8d 9d", "Js Qs Ks Ad Td"), b: ("2h 3h 4c", "5h 6h 7h 8c 9c", "Jh Qh Kh Ac Tc")}
    hand = ofc_points.ofc_hand_record(actor=director, tournament=event, table_number=1, boards=boards)
    assert hand.points == {str(a): 0, str(b): 0}
    ofc_points.ofc_finish(actor=director, tournament=event, rng=random.Random(4))
    places = dict(Entry.objects.filter(tournament=event).values_list("number", "place"))
    assert sorted(places.values()) == [1, 2]
    audit = AuditEvent.objects.filter(event_type="tournament.updated", after__action="ofc_standings").get()
    assert set(audit.after["lots"]) == {str(a), str(b)}
    assert audit.after["standings"][0]["entry"] == next(n for n, p in places.items() if p == 1)
