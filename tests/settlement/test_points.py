"""Settling the points games: Chinese Poker and Open-Face Chinese Poker, every pair at the smaller value a point.

A seat's wager is its value a point; each pair plays at the smaller of the two; what
one loses the other wins, and the house's rake (``rake_bp``) comes off the winners.
"""

from __future__ import annotations

import random

import pytest

from casino.errors import ApplicationError, WrongState
from ledger.models import LedgerEntry, Posting
from ledger.verify import ledger_verify
from rounds.models import Round
from rounds.services import (
    round_close_betting,
    round_deal,
    round_hands_record,
    round_open,
    round_placements_record,
    wager_place,
)
from rules.games.cards import parse_cards
from rules.services import rule_set_create
from settlement.services import settle_round

# --- Chinese Poker ------------------------------------------------------------------------------

# GAME_RULES.md §3's worked example (2-4, seed royalties): seat 2 holds three flushes, a natural
# worth 3 from each; seat 1 beats seat 3 2-1 (+2), collects 3 for front trips, pays 3 for quads: +2.
SEED_EXAMPLE = {
    "seats": {
        "1": {"front": "8s 8h 8d", "middle": "Kh Qh Jd Th 9h", "back": "7s 7h 7d Ts Td"},
        "2": {"front": "Ks Js 4s", "middle": "Kc Qc 8c 7c 5c", "back": "Ad Qd 9d 6d 2d"},
        "3": {"front": "Qs Tc 5h", "middle": "Ah Ac 2h 2c 4d", "back": "3s 3h 3d 3c 6h"},
    }
}


@pytest.fixture
def cp_table(pit_boss, make_table):  # type: ignore[no-untyped-def]
    """A Chinese Poker table raking 5% of each player's net win."""
    rules = rule_set_create(actor=pit_boss, name="CP rake 5%", game="chinese_poker", rake_bp=500)
    return make_table(name="CP-1", game="chinese_poker", seat_count=4, rule_set=rules)


@pytest.fixture
def seed_round(cp_table, play_to_hands) -> Round:  # type: ignore[no-untyped-def]
    """The worked example at 10.00, 20.00 and 15.00 a point."""
    return play_to_hands(cp_table, wagers={1: 1000, 2: 2000, 3: 1500}, hands=SEED_EXAMPLE)


@pytest.mark.django_db
def test_chinese_poker_takes_the_wagers_as_values_a_point_and_moves_no_money_before_settling(
    dealer, shift, seed_round
) -> None:
    assert seed_round.state == "revealed"
    assert not Posting.objects.exists()
    assert not LedgerEntry.objects.exists()


@pytest.mark.django_db
def test_each_pair_plays_at_the_smaller_of_its_two_values_a_point(dealer, shift, seed_round) -> None:
    body = settle_round(round=seed_round, actor=dealer, idempotency_key="cp-1")
    pairs = {(p["seat"], p["opponent"]): (p["points"], p["stake_cents"], p["cents"]) for p in body["pairs"]}
    assert pairs == {
        (1, 2): (-3, 1000, -3000),  # the natural: 3 points at 10.00 (seat 1's value)
        (1, 3): (2, 1000, 2000),  # 2 points at 10.00 (seat 1's value)
        (2, 3): (3, 1500, 4500),  # the natural: 3 points at 15.00 (seat 3's value)
    }


@pytest.mark.django_db
def test_the_rake_comes_off_the_winners_and_the_round_sums_to_zero(dealer, shift, seed_round, balances) -> None:
    body = settle_round(round=seed_round, actor=dealer, idempotency_key="cp-1")
    lines = {s["seat"]: (s["points"], s["won_cents"], s["rake_cents"], s["net_cents"]) for s in body["seats"]}
    assert lines == {
        1: (-1, -1000, 0, -1000),
        2: (6, 7500, 375, 7125),  # 5% of 75.00
        3: (-5, -6500, 0, -6500),
    }
    assert body["house"] == {"bank_won_cents": 0, "commission_cents": 0, "rake_cents": 375, "total_cents": 375}
    assert balances(seed_round, "player") == {1: -1000, 2: 7125, 3: -6500}
    assert balances(seed_round, "rake") == {None: 375}
    assert sum(LedgerEntry.objects.filter(round_id=seed_round.pk).values_list("amount_cents", flat=True)) == 0
    assert ledger_verify().ok


@pytest.mark.django_db
def test_royalties_are_reported_on_the_seats_line(dealer, shift, seed_round) -> None:
    body = settle_round(round=seed_round, actor=dealer, idempotency_key="cp-1")
    assert {s["seat"]: s["royalties"] for s in body["seats"]} == {1: 3, 2: 0, 3: 3}


# --- Open-Face Chinese Poker ----------------------------------------------------------------------

# Two finished boards, no royalties, no fouls. Seat 1 wins the front (queen-high over jack-high) and
# loses the middle (fives under eights) and the back (kings up under aces up): seat 1 -1, seat 2 +1.
OFC_STREETS = [
    {
        "1": {"front": "Qc", "middle": "5c 5d", "back": "Kc Kd"},
        "2": {"front": "Jc", "middle": "8c 8d", "back": "Ac Ad"},
    },
    {"1": {"front": "3d"}, "2": {"front": "2d"}},
    {"1": {"front": "4h"}, "2": {"front": "6h"}},
    {"1": {"middle": "9h"}, "2": {"middle": "3h"}},
    {"1": {"middle": "Tc"}, "2": {"middle": "4c"}},
    {"1": {"middle": "Js"}, "2": {"middle": "6s"}},
    {"1": {"back": "7h"}, "2": {"back": "9c"}},
    {"1": {"back": "7d"}, "2": {"back": "9d"}},
    {"1": {"back": "2h"}, "2": {"back": "2c"}},
]
OFC_BOARDS = {
    "1": {"front": "Qc 3d 4h", "middle": "5c 5d 9h Tc Js", "back": "Kc Kd 7h 7d 2h"},
    "2": {"front": "Jc 2d 6h", "middle": "8c 8d 3h 4c 6s", "back": "Ac Ad 9c 9d 2c"},
}


@pytest.fixture
def ofc_table(pit_boss, make_table):  # type: ignore[no-untyped-def]
    rules = rule_set_create(actor=pit_boss, name="OFC rake 5%", game="ofc", rake_bp=500)
    return make_table(name="OFC-1", game="ofc", seat_count=3, rule_set=rules)


def _dealt_round(actor, table, *, wagers: dict[int, int], auto: bool = False) -> Round:  # type: ignore[no-untyped-def]
    round_ = round_open(actor=actor, table=table)
    for seat, amount in wagers.items():
        wager_place(actor=actor, round=round_, seat=seat, amount_cents=amount)
    round_close_betting(actor=actor, round=round_)
    if auto:
        return round_deal(actor=actor, round=round_, auto=True, rng=random.Random(2024))
    return round_deal(actor=actor, round=round_, dice=[2, 3, 4])


def _place(actor, round_: Round, streets) -> Round:  # type: ignore[no-untyped-def]
    for street in streets:
        round_ = round_placements_record(actor=actor, round=round_, placements={"seats": street})
    return round_


@pytest.mark.django_db
def test_ofc_boards_are_placed_five_cards_first_then_one_a_street(dealer, shift, ofc_table) -> None:
    round_ = _dealt_round(dealer, ofc_table, wagers={1: 2000, 2: 1000})
    round_ = _place(dealer, round_, OFC_STREETS[:2])
    assert (round_.state, round_.placements["1"]) == ("dealt", {"front": "Qc 3d", "middle": "5c 5d", "back": "Kc Kd"})
    round_ = _place(dealer, round_, OFC_STREETS[2:-1])
    assert round_.state == "dealt"
    assert round_.hands is None


@pytest.mark.django_db
def test_the_round_is_revealed_when_every_board_is_complete(dealer, shift, ofc_table) -> None:
    round_ = _place(dealer, _dealt_round(dealer, ofc_table, wagers={1: 2000, 2: 1000}), OFC_STREETS)
    stored = Round.objects.get(pk=round_.pk)
    assert stored.state == "revealed"
    # Placed in turn from the button (seat 2, the highest in play at the table's first round): seat 1 first.
    turns = [[1, 5], [2, 5]] + [[seat, 1] for _ in range(8) for seat in (1, 2)]
    assert stored.placements == {**OFC_BOARDS, "turns": turns}
    assert stored.hands == {"seats": OFC_BOARDS, "turns": turns, "fantasyland": {}}


@pytest.mark.django_db
def test_ofc_settles_at_the_smaller_value_and_rakes_the_winner(dealer, shift, ofc_table, balances) -> None:
    round_ = _place(dealer, _dealt_round(dealer, ofc_table, wagers={1: 2000, 2: 1000}), OFC_STREETS)
    body = settle_round(round=round_, actor=dealer, idempotency_key="ofc-1")
    (pair,) = body["pairs"]
    assert (pair["seat"], pair["opponent"], pair["rows"], pair["points"]) == (1, 2, [1, -1, -1], -1)
    assert (pair["stake_cents"], pair["cents"]) == (1000, -1000)
    assert {s["seat"]: (s["won_cents"], s["rake_cents"], s["net_cents"]) for s in body["seats"]} == {
        1: (-1000, 0, -1000),
        2: (1000, 50, 950),
    }
    assert balances(round_, "player") == {1: -1000, 2: 950}
    assert balances(round_, "rake") == {None: 50}
    assert ledger_verify().ok


@pytest.mark.django_db
def test_the_first_street_must_place_five_cards(dealer, shift, ofc_table, nothing_written) -> None:
    round_ = _dealt_round(dealer, ofc_table, wagers={1: 2000, 2: 1000})
    four = {"1": {"front": "Qc", "middle": "5c 5d", "back": "Kc"}}
    with nothing_written(round_), pytest.raises(ApplicationError, match="Seat 1, street 1: .*5 cards, got 4"):
        round_placements_record(actor=dealer, round=round_, placements={"seats": four})


@pytest.mark.django_db
def test_a_later_street_places_one_card(dealer, shift, ofc_table, nothing_written) -> None:
    round_ = _place(dealer, _dealt_round(dealer, ofc_table, wagers={1: 2000, 2: 1000}), OFC_STREETS[:1])
    with nothing_written(round_), pytest.raises(ApplicationError, match="Seat 1, street 2: .*1 card.*got 2"):
        round_placements_record(actor=dealer, round=round_, placements={"seats": {"1": {"front": "3d 4h"}}})


@pytest.mark.django_db
def test_a_card_cannot_be_on_two_boards(dealer, shift, ofc_table, nothing_written) -> None:
    round_ = _place(dealer, _dealt_round(dealer, ofc_table, wagers={1: 2000, 2: 1000}), OFC_STREETS[:1])
    with (
        nothing_written(round_),
        pytest.raises(ApplicationError, match=r"J♣ is used 2 times \(Seat 1, Seat 2\); the deck has one."),
    ):
        round_placements_record(actor=dealer, round=round_, placements={"seats": {"1": {"front": "Jc"}}})


@pytest.mark.django_db
def test_nothing_is_placed_on_a_complete_board(dealer, shift, ofc_table, nothing_written) -> None:
    round_ = _dealt_round(dealer, ofc_table, wagers={1: 2000, 2: 1000})
    round_ = _place(dealer, round_, [{"1": street["1"], "2": street["2"]} for street in OFC_STREETS[:-1]])
    round_ = _place(dealer, round_, [{"1": OFC_STREETS[-1]["1"]}])
    assert round_.state == "dealt"  # seat 2 has not placed its last card yet
    with nothing_written(round_), pytest.raises(ApplicationError, match="Seat 1's board is complete: it is seat 2's"):
        round_placements_record(actor=dealer, round=round_, placements={"seats": {"1": {"front": "Ah"}}})


@pytest.mark.django_db
def test_nothing_is_placed_once_the_round_is_revealed(dealer, shift, ofc_table, nothing_written) -> None:
    round_ = _place(dealer, _dealt_round(dealer, ofc_table, wagers={1: 2000, 2: 1000}), OFC_STREETS)
    with (
        nothing_written(round_),
        pytest.raises(WrongState, match="Round 1 is revealed: cards are placed after the deal"),
    ):
        round_placements_record(actor=dealer, round=round_, placements={"seats": {"1": {"front": "Ah"}}})


@pytest.mark.django_db
def test_ofc_hands_are_not_entered_at_once(dealer, shift, ofc_table, nothing_written) -> None:
    round_ = _dealt_round(dealer, ofc_table, wagers={1: 2000, 2: 1000})
    with nothing_written(round_), pytest.raises(ApplicationError, match="placed street by street"):
        round_hands_record(actor=dealer, round=round_, hands={"seats": OFC_BOARDS})


@pytest.mark.django_db
def test_when_the_system_dealt_a_seat_places_the_cards_it_was_dealt(dealer, shift, ofc_table, nothing_written):
    round_ = _dealt_round(dealer, ofc_table, wagers={1: 2000, 2: 1000}, auto=True)
    dealt = parse_cards(round_.dealt["1"])
    assert len(dealt) == 13
    first_five = " ".join(str(card) for card in dealt[:5])
    other = " ".join(str(card) for card in (*dealt[:4], dealt[5]))
    with (
        nothing_written(round_),
        pytest.raises(ApplicationError, match=f"Seat 1, street 1: the cards dealt are {first_five}."),
    ):
        round_placements_record(actor=dealer, round=round_, placements={"seats": {"1": {"back": other}}})
    placed = round_placements_record(actor=dealer, round=round_, placements={"seats": {"1": {"back": first_five}}})
    assert placed.placements["1"]["back"] == first_five
