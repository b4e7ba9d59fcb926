"""The tiles' peer variant at a table (GAME_RULES.md §1, "Peer variant", Czech seed): two to four players at equal
stakes, no banker, each player against each; winning both hands beats the opponent, one of two is a draw."""

from __future__ import annotations

import random

import pytest

from casino.errors import ApplicationError, NotAllowed, WrongState
from ledger.models import Posting
from ledger.verify import ledger_verify
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from rules.services import PEER_RULE_SET_NAMES, rule_set_peer
from settlement.replay import ledger_replay
from settlement.services import settle_round
from tables.services import table_play_peer

# The engine's own example (rules.games.paigow_tiles.peer_results): seat 1's Teens over Day and nine beat seat 2's
# Yun-Tit and Gor-Look on both hands; seat 3's Gee Joon over Mooy-Ping draws with both (one hand each).
HANDS = {
    "1": {"high": "6-6 6-6", "low": "1-1 5-4"},
    "2": {"high": "4-4 6-1", "low": "3-1 5-1"},
    "3": {"high": "4-2 2-1", "low": "5-5 6-4"},
}
STAKE = 2500


@pytest.fixture
def peer_table(pit_boss, make_table):  # type: ignore[no-untyped-def]
    """A seven-seat tiles table the pit boss turned to the peer variant."""
    table = make_table(name="PGT-P", game="paigow_tiles", seat_count=7)
    return table_play_peer(actor=pit_boss, table=table)


def _dealt(dealer, table, seats=(1, 2, 3)):  # type: ignore[no-untyped-def]
    round_ = round_open(actor=dealer, table=table)
    for seat in seats:
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=STAKE)
    round_close_betting(actor=dealer, round=round_)
    return round_deal(actor=dealer, round=round_, dice=[3, 4, 5])


@pytest.mark.django_db
def test_the_pit_boss_turns_a_tiles_table_to_the_peer_variant_with_its_own_rule_set(pit_boss, peer_table) -> None:
    rules = peer_table.rule_set
    assert rules.name == PEER_RULE_SET_NAMES["paigow_tiles"]
    assert (rules.banking_mode, rules.commission_on_player_wins, rules.options["mode"]) == ("none", False, "peer")
    assert rule_set_peer(actor=pit_boss, game="paigow_tiles") == rules  # made once, found after


@pytest.mark.django_db
def test_only_a_game_with_a_peer_variant_and_only_a_supervisor_can_turn_a_table_to_it(
    pit_boss, dealer, make_table
) -> None:
    pgp = make_table(name="PGP-X", game="paigow_poker", seat_count=6)
    with pytest.raises(ApplicationError, match="has no peer variant"):
        table_play_peer(actor=pit_boss, table=pgp)
    tiles = make_table(name="PGT-X", game="paigow_tiles", seat_count=7)
    with pytest.raises(NotAllowed):
        table_play_peer(actor=dealer, table=tiles)


@pytest.mark.django_db
def test_a_peer_round_has_no_banker(dealer, shift, peer_table) -> None:
    with pytest.raises(ApplicationError, match="has no bank: no seat can bank"):
        round_open(actor=dealer, table=peer_table, banker_seat=1, bank_cents=5000)


@pytest.mark.django_db
def test_every_player_wagers_the_same_stake(dealer, shift, peer_table, nothing_written) -> None:
    round_ = round_open(actor=dealer, table=peer_table)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=STAKE)
    with nothing_written(round_), pytest.raises(ApplicationError, match="equal stakes: seat 1 wagers 25.00"):
        wager_place(actor=dealer, round=round_, seat=2, amount_cents=3000)
    wager_place(actor=dealer, round=round_, seat=2, amount_cents=STAKE)


@pytest.mark.django_db
def test_two_to_four_players(dealer, shift, peer_table, nothing_written) -> None:
    round_ = round_open(actor=dealer, table=peer_table)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=STAKE)
    with pytest.raises(WrongState, match="needs two players with a wager"):
        round_close_betting(actor=dealer, round=round_)
    for seat in (2, 3, 4):
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=STAKE)
    with nothing_written(round_), pytest.raises(WrongState, match="two to four players"):
        wager_place(actor=dealer, round=round_, seat=5, amount_cents=STAKE)


@pytest.mark.django_db
def test_a_peer_round_settles_each_against_each_and_the_replay_agrees(dealer, shift, peer_table, balances) -> None:
    round_ = _dealt(dealer, peer_table)
    with pytest.raises(ApplicationError, match="The peer variant has no banker"):
        round_hands_record(actor=dealer, round=round_, hands={"banker": {"tiles": "6-6 5-4 3-1 2-2"}, "seats": HANDS})
    round_hands_record(actor=dealer, round=round_, hands={"seats": HANDS})
    body = settle_round(round=round_, actor=dealer, idempotency_key="peer-1")
    assert body["bank"] is None
    assert {(p["seat"], p["opponent"]): p["outcome"] for p in body["pairs"]} == {
        (1, 2): "win",
        (1, 3): "push",
        (2, 3): "push",
    }
    assert {s["seat"]: s["net_cents"] for s in body["seats"]} == {1: STAKE, 2: -STAKE, 3: 0}
    assert body["house"]["total_cents"] == 0  # no banker, no commission
    assert balances(round_, "player") == {1: STAKE, 2: -STAKE}
    assert not Posting.objects.filter(round_id=round_.pk, kind=Posting.Kind.WAGER).exists()  # wagers move no money
    assert ledger_verify().ok
    report = ledger_replay()
    assert report.ok, report.problems


@pytest.mark.django_db
def test_the_system_deal_gives_the_peer_players_their_stacks_and_the_hands_must_be_those(
    dealer, shift, peer_table
) -> None:
    round_ = round_open(actor=dealer, table=peer_table)
    for seat in (2, 5):
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=STAKE)
    round_close_betting(actor=dealer, round=round_)
    round_ = round_deal(actor=dealer, round=round_, auto=True, rng=random.Random(3))
    with pytest.raises(ApplicationError, match="Seat 2 was dealt"):
        round_hands_record(
            actor=dealer,
            round=round_,
            hands={"seats": {"2": HANDS["1"], "5": HANDS["2"]}},
        )


@pytest.mark.django_db
@pytest.mark.usefixtures("house_chips")
def test_a_rated_player_at_a_peer_table_is_credited_the_stake_and_result_with_no_theo(
    dealer, shift, peer_table
) -> None:
    from players.models import RatingSession
    from players.services import player_create, session_start

    lee = player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")
    session = session_start(actor=dealer, player=lee, table=peer_table, seat=1, chips_cents=10_000)
    round_ = _dealt(dealer, peer_table)
    round_hands_record(actor=dealer, round=round_, hands={"seats": HANDS})
    settle_round(round=round_, actor=dealer, idempotency_key="peer-rated")
    rated = RatingSession.objects.get(pk=session.pk)
    # The peer variant has no bank and no edge; the house takes no rake: theo is the rake paid, nothing.
    assert (rated.rounds, rated.wagered_cents, rated.win_loss_cents, rated.theo_millicents) == (1, STAKE, STAKE, 0)
