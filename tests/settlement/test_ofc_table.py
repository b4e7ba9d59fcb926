"""Open-Face Chinese Poker at a table (GAME_RULES.md §4): the dealer button, placing in turn, Fantasyland.

The dealer at OFC-1 (four seats) plays rounds through the services; each board is placed the
way a dealer would tap it: the five back cards on the first street, then the front and the
middle a card a street. A Fantasyland seat sets its 13 cards at once and discards the 14th.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from casino.errors import ApplicationError, WrongState
from ledger.verify import ledger_verify
from rounds import ofc_turns
from rounds.models import Round
from rounds.services import (
    round_close_betting,
    round_deal,
    round_open,
    round_placements_record,
    void_round,
    wager_place,
)
from rules.games import ofc, ofc_table
from rules.games.cards import parse_cards
from rules.services import rule_set_create
from settlement.replay import ledger_replay
from settlement.services import settle_round

# Boards a dealer can read at a glance (each checked by the engine below).
QUEENS = ("Qs Qd 2c", "Kc Kh 7d 7s 2h", "Ac Ad Ah 3s 3d")  # QQ in front: qualifies for Fantasyland
LOW = ("4s 5d 6c", "9c 9h Jd Ts 2d", "Kd Ks 8c 8d 4h")  # no Fantasyland
THIRD = ("5s 6d 8h", "Tc Th Jc Js 3c", "Qc Qh 9d 9s 4c")  # a third player's board, sharing no card
TRIPS = ("7c 7d 7h", "8s 8h 8d 2s 2d", "Ac Ad Ah 3s 3d")  # trips in front: stays in Fantasyland
BESIDE_TRIPS = ("4c 5d 6c", "9c 9h Jd Ts 2c", "Kd Ks Qc Qd 4h")  # no Fantasyland, sharing no card with TRIPS
FOULED = ("Kc Kh 4d", "Js Jc 2s 6h 7c", "Ac Qh 8s 5c 3c")  # kings in front, jacks behind them: a foul


@pytest.fixture
def ofc_fl_table(pit_boss, make_table):  # type: ignore[no-untyped-def]
    rules = rule_set_create(actor=pit_boss, name="OFC Fantasyland", game="ofc", fantasyland=True)
    return make_table(name="OFC-1", game="ofc", seat_count=4, rule_set=rules)


@pytest.fixture
def ofc_plain_table(pit_boss, make_table):  # type: ignore[no-untyped-def]
    return make_table(name="OFC-2", game="ofc", seat_count=4)


def _dealt(actor, table, seats, *, auto: bool = False, seed: int = 20) -> Round:  # type: ignore[no-untyped-def]
    round_ = round_open(actor=actor, table=table)
    for seat in seats:
        wager_place(actor=actor, round=round_, seat=seat, amount_cents=1000)
    round_close_betting(actor=actor, round=round_)
    if auto:
        return round_deal(actor=actor, round=round_, auto=True, rng=random.Random(seed))
    return round_deal(actor=actor, round=round_, dice=[2, 3, 4])


def _streets(board: tuple[str, str, str]) -> list[dict[str, str]]:
    """A board as placed: the back on the first street, then the front and the middle a card a street."""
    front, middle, back = (row.split() for row in board)
    return [{"back": " ".join(back)}] + [{"front": c} for c in front] + [{"middle": c} for c in middle]


def _play(actor, round_: Round, boards: Mapping[int, tuple[str, str, str]], discards=None) -> Round:  # type: ignore[no-untyped-def]
    """Place every board in turn, a seat at a time; a Fantasyland seat all at once with its discard."""
    order = ofc_turns.turn_order(round_)
    assert order is not None
    fantasyland = ofc_turns.fantasyland_seats(round_, order)
    streets = {seat: _streets(board) for seat, board in boards.items()}
    for turn in ofc_table.turn_sequence(order, fantasyland=fantasyland):
        if turn.seat in fantasyland:
            front, middle, back = boards[turn.seat]
            entry = {"front": front, "middle": middle, "back": back, "discard": (discards or {}).get(turn.seat, "")}
        else:
            entry = streets[turn.seat].pop(0)
        round_ = round_placements_record(actor=actor, round=round_, placements={"seats": {str(turn.seat): entry}})
    return round_


def _settled(actor, table, boards, *, key: str) -> Round:  # type: ignore[no-untyped-def]
    round_ = _play(actor, _dealt(actor, table, sorted(boards)), boards)
    settle_round(round=round_, actor=actor, idempotency_key=key)
    return Round.objects.get(pk=round_.pk)


def test_the_boards_are_what_the_dealer_reads() -> None:
    boards = {name: ofc.Board.from_rows(*rows) for name, rows in {"q": QUEENS, "t": TRIPS, "f": FOULED}.items()}
    assert ofc.qualifies_for_fantasyland(boards["q"]) and ofc_table.stays_in_fantasyland(boards["t"])
    assert ofc.is_foul(boards["f"]) and not ofc.is_foul(ofc.Board.from_rows(*LOW))


# --- the button and the turn order --------------------------------------------------------------------


@pytest.mark.django_db
def test_the_first_round_has_the_button_on_the_highest_seat_so_the_lowest_acts_first(
    dealer, shift, ofc_plain_table
) -> None:
    round_ = _dealt(dealer, ofc_plain_table, (1, 3, 4))
    assert round_.action_order == [1, 3, 4] and ofc_turns.button(round_) == 4


@pytest.mark.django_db
def test_the_button_moves_clockwise_after_every_hand_skipping_empty_seats_not_after_a_void(
    dealer, floor_supervisor, shift, ofc_plain_table
) -> None:
    first = _settled(dealer, ofc_plain_table, {1: LOW, 3: QUEENS, 4: THIRD}, key="ofc-b1")
    assert ofc_turns.button(first) == 4
    second = _settled(dealer, ofc_plain_table, {1: LOW, 2: QUEENS}, key="ofc-b2")  # seat 3 and 4 left
    assert (second.action_order, ofc_turns.button(second)) == ([2, 1], 1)
    voided = _dealt(dealer, ofc_plain_table, (1, 2, 3))
    assert (voided.action_order, ofc_turns.button(voided)) == ([3, 1, 2], 2)
    void_round(actor=floor_supervisor, round=voided, reason="Misdeal")
    again = _dealt(dealer, ofc_plain_table, (1, 2, 3))  # the misdeal dealt again: the button stays on seat 2
    assert (again.action_order, ofc_turns.button(again)) == ([3, 1, 2], 2)


@pytest.mark.django_db
def test_a_seat_placing_out_of_its_turn_is_refused_and_nothing_is_written(
    dealer, shift, ofc_plain_table, nothing_written
) -> None:
    round_ = _dealt(dealer, ofc_plain_table, (1, 3))
    early = {"seats": {"3": {"back": "Kd Ks 8c 8d 4h"}}}
    with nothing_written(round_), pytest.raises(WrongState, match=r"It is seat 1's turn \(street 1\): seat 3 places"):
        round_placements_record(actor=dealer, round=round_, placements=early)


@pytest.mark.django_db
def test_a_double_tap_places_once(dealer, shift, ofc_plain_table, nothing_written) -> None:
    round_ = _dealt(dealer, ofc_plain_table, (1, 3))
    street = {"seats": {"1": {"back": "Ac Ad Ah 3s 3d"}}}
    round_ = round_placements_record(actor=dealer, round=round_, placements=street)
    with (
        nothing_written(round_),
        pytest.raises(WrongState, match="Seat 1 has placed street 1: it is seat 3's turn. Nothing was placed."),
    ):
        round_placements_record(actor=dealer, round=round_, placements=street)
    assert Round.objects.get(pk=round_.pk).placements["turns"] == [[1, 5]]


@pytest.mark.django_db
def test_a_street_for_every_seat_at_once_is_placed_in_turn_order(dealer, shift, ofc_plain_table) -> None:
    round_ = _dealt(dealer, ofc_plain_table, (1, 3))
    both = {"seats": {"3": {"back": "Kd Ks 8c 8d 4h"}, "1": {"back": "Ac Ad Ah 3s 3d"}}}
    round_ = round_placements_record(actor=dealer, round=round_, placements=both)
    assert round_.placements["turns"] == [[1, 5], [3, 5]]


@pytest.mark.django_db
def test_the_system_deal_shows_only_the_cards_dealt_so_far(dealer, shift, ofc_plain_table) -> None:
    round_ = _dealt(dealer, ofc_plain_table, (1, 2, 3), auto=True)
    dealt = round_.dealt
    assert ofc_turns.dealt_so_far(round_) == {"1": " ".join(dealt["1"].split()[:5]), "2": "", "3": ""}
    first = dealt["1"].split()[:5]
    round_ = round_placements_record(actor=dealer, round=round_, placements={"seats": {"1": {"back": " ".join(first)}}})
    shown = ofc_turns.dealt_so_far(round_)
    assert shown == {"1": " ".join(first), "2": " ".join(dealt["2"].split()[:5]), "3": ""}


# --- Fantasyland --------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_queens_earn_fantasyland_next_round_only_when_the_rules_have_it(
    dealer, shift, ofc_fl_table, ofc_plain_table
) -> None:
    _settled(dealer, ofc_plain_table, {1: QUEENS, 2: LOW}, key="ofc-plain")
    assert ofc_turns.fantasyland_seats(_dealt(dealer, ofc_plain_table, (1, 2)), (1, 2)) == frozenset()
    _settled(dealer, ofc_fl_table, {1: QUEENS, 2: LOW}, key="ofc-fl")
    assert ofc_turns.fantasyland_seats(_dealt(dealer, ofc_fl_table, (1, 2)), (1, 2)) == {1}


@pytest.mark.django_db
def test_a_fantasyland_seat_gets_fourteen_cards_sets_thirteen_and_discards_one(dealer, shift, ofc_fl_table) -> None:
    _settled(dealer, ofc_fl_table, {1: QUEENS, 2: LOW, 3: THIRD}, key="ofc-q")
    round_ = _dealt(dealer, ofc_fl_table, (1, 2, 3), auto=True)  # the button moves to seat 1: seat 2 acts first
    assert round_.action_order == [2, 3, 1]
    assert {seat: len(cards.split()) for seat, cards in round_.dealt.items()} == {"2": 13, "3": 13, "1": 14}
    mine = parse_cards(round_.dealt["1"])
    for seat in ("2", "3"):  # street 1 for the seats before it
        cards = round_.dealt[seat].split()[:5]
        round_ = round_placements_record(
            actor=dealer, round=round_, placements={"seats": {seat: {"back": " ".join(cards)}}}
        )
    five = {"seats": {"1": {"back": " ".join(str(c) for c in mine[:5])}}}
    with pytest.raises(ApplicationError, match="sets 13 of its 14 cards at once and discards 1; got 5 set"):
        round_placements_record(actor=dealer, round=round_, placements=five)
    rows = {"front": mine[:3], "middle": mine[3:8], "back": mine[8:13]}
    entry = {row: " ".join(str(c) for c in cards) for row, cards in rows.items()}
    wrong = {"seats": {"1": {**entry, "discard": str(mine[0])}}}
    with pytest.raises(ApplicationError, match=f"Seat 1, Fantasyland: {mine[0].symbol} is set and discarded"):
        round_placements_record(actor=dealer, round=round_, placements=wrong)
    round_ = round_placements_record(
        actor=dealer, round=round_, placements={"seats": {"1": {**entry, "discard": str(mine[13])}}}
    )
    assert round_.placements["1"]["discard"] == str(mine[13])
    assert round_.placements["turns"] == [[2, 5], [3, 5], [1, 13]]
    for street in range(1, 9):  # then seats 2 and 3 go on street by street, seat 1 skipped
        for seat in ("2", "3"):
            card = round_.dealt[seat].split()[4 + street]
            row = "front" if street <= 3 else "middle"
            round_ = round_placements_record(actor=dealer, round=round_, placements={"seats": {seat: {row: card}}})
    assert round_.state == "revealed"
    assert round_.hands["fantasyland"] == {"1": str(mine[13])}
    settle_round(round=round_, actor=dealer, idempotency_key="ofc-fl-2")
    assert ledger_verify().ok and ledger_replay().ok


@pytest.mark.django_db
def test_fantasyland_is_kept_with_trips_in_front_and_lost_otherwise(dealer, shift, ofc_fl_table) -> None:
    _settled(dealer, ofc_fl_table, {1: QUEENS, 2: LOW}, key="ofc-1")
    second = _play(dealer, _dealt(dealer, ofc_fl_table, (1, 2)), {1: TRIPS, 2: BESIDE_TRIPS}, {1: "5h"})
    assert second.hands["fantasyland"] == {"1": "5h"}
    settle_round(round=second, actor=dealer, idempotency_key="ofc-2")
    third = _dealt(dealer, ofc_fl_table, (1, 2))
    assert ofc_turns.fantasyland_seats(third, (1, 2)) == {1}  # trips in front: stays
    third = _play(dealer, third, {1: QUEENS, 2: LOW}, {1: "5h"})
    settle_round(round=third, actor=dealer, idempotency_key="ofc-3")
    assert ofc_turns.fantasyland_seats(_dealt(dealer, ofc_fl_table, (1, 2)), (1, 2)) == frozenset()  # QQ: out
    assert ledger_replay().ok


@pytest.mark.django_db
def test_a_fouled_fantasyland_board_pays_as_a_foul_and_leaves_fantasyland(dealer, shift, ofc_fl_table) -> None:
    _settled(dealer, ofc_fl_table, {1: QUEENS, 2: LOW}, key="ofc-1")
    second = _play(dealer, _dealt(dealer, ofc_fl_table, (1, 2)), {1: FOULED, 2: LOW}, {1: "5h"})
    assert second.hands["seats"]["1"]["fouled"] is True
    body = settle_round(round=second, actor=dealer, idempotency_key="ofc-2")
    assert {s["seat"]: s["points"] for s in body["seats"]}[1] < 0
    assert ofc_turns.fantasyland_seats(_dealt(dealer, ofc_fl_table, (1, 2)), (1, 2)) == frozenset()


@pytest.mark.django_db
def test_a_fantasyland_seat_must_name_its_discard_when_the_dealer_deals(
    dealer, shift, ofc_fl_table, nothing_written
) -> None:
    _settled(dealer, ofc_fl_table, {1: QUEENS, 2: LOW}, key="ofc-1")
    round_ = _dealt(dealer, ofc_fl_table, (1, 2))  # button on seat 1: seat 2 first
    round_ = round_placements_record(actor=dealer, round=round_, placements={"seats": {"2": {"back": LOW[2]}}})
    front, middle, back = TRIPS
    no_discard = {"seats": {"1": {"front": front, "middle": middle, "back": back}}}
    with nothing_written(round_), pytest.raises(ApplicationError, match="got 13 set and 0 discarded"):
        round_placements_record(actor=dealer, round=round_, placements=no_discard)


@pytest.mark.django_db
def test_a_stored_history_out_of_turn_is_refused_when_the_round_settles(dealer, shift, ofc_plain_table) -> None:
    round_ = _play(dealer, _dealt(dealer, ofc_plain_table, (1, 2)), {1: LOW, 2: QUEENS})
    hands = dict(round_.hands)
    hands["turns"] = [hands["turns"][1], hands["turns"][0], *hands["turns"][2:]]  # seat 2 before seat 1
    Round.objects.filter(pk=round_.pk).update(hands=hands)
    with pytest.raises(ApplicationError, match="break the turn order: placement 1 is seat 2's, but it is seat 1's"):
        settle_round(round=round_, actor=dealer, idempotency_key="ofc-tampered")
    assert Round.objects.get(pk=round_.pk).state == "revealed"


@pytest.mark.django_db
def test_a_stored_fantasyland_discard_of_the_wrong_count_is_refused(dealer, shift, ofc_fl_table) -> None:
    _settled(dealer, ofc_fl_table, {1: QUEENS, 2: LOW}, key="ofc-1")
    round_ = _play(dealer, _dealt(dealer, ofc_fl_table, (1, 2)), {1: TRIPS, 2: BESIDE_TRIPS}, {1: "5h"})
    Round.objects.filter(pk=round_.pk).update(hands={**round_.hands, "fantasyland": {"1": ""}})
    with pytest.raises(ApplicationError, match="Seat 1 played in Fantasyland: 1 card"):
        settle_round(round=round_, actor=dealer, idempotency_key="ofc-2")
