"""Every round settled again and held to its postings: ``ledger_replay`` and ``manage.py verify_ledger --replay``.

A balanced edit of a settlement (+999.00 to a player, -999.00 to the house) and an edited
wager keep every posting summing to zero and the layout square; the replay settles the
round again from the hands each settlement was made with, the round's wagers and its
frozen rules, and names the round, the posting and what each account should hold.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ledger.models import Posting
from ledger.verify import ledger_verify
from rounds.models import Round, Wager
from rounds.selectors import seat_value
from rounds.services import (
    round_close_betting,
    round_deal,
    round_hands_record,
    round_open,
    round_placements_record,
    wager_place,
)
from rules.services import rule_set_create
from settlement.replay import ledger_replay
from settlement.services import adjustment_approve, adjustment_request, settle_round
from tests import guards
from tests.settlement.conftest import BANK, LOSES, PUSHES, WINS
from tests.settlement.test_banked import DICE, TILES_BANK, TILES_LOSE, TILES_WIN, TILES_WIN_TOO
from tests.settlement.test_points import OFC_STREETS, SEED_EXAMPLE


def tamper(sql: str, params: Sequence[Any]) -> None:
    """Change stored rows behind the ORM's back, as a superuser with the database could (past the append-only
    triggers and the application's role, ``tests.guards``): every edit goes here."""
    guards.tamper(sql, params)


def _settle(round_: Round, actor: Any, key: str) -> Round:
    settle_round(round=round_, actor=actor, idempotency_key=key)
    return Round.objects.select_related("table").get(pk=round_.pk)


def _name(round_: Round) -> str:
    return f"Round {round_.number} at table {round_.table.name} (round id {round_.pk})"


def _settlement(round_: Round) -> Posting:
    return Posting.objects.get(round_id=round_.pk, kind="settlement", reversed_by__isnull=True)


# --- a settled round of each game ------------------------------------------------------------------


def _pgp_house(dealer, pit_boss, make_table, play_to_hands) -> Round:  # type: ignore[no-untyped-def]
    """Pai Gow Poker, the house banks: seat 1 wins 25.00, seat 2 loses 10.00, seat 3 pushes 50.00."""
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    hands = {"banker": BANK, "seats": {"1": WINS, "2": LOSES, "3": PUSHES}}
    return _settle(play_to_hands(table, wagers={1: 2500, 2: 1000, 3: 5000}, hands=hands), dealer, "pgp")


def _tiles_player_bank(dealer, pit_boss, make_table, play_to_hands) -> Round:  # type: ignore[no-untyped-def]
    """Pai Gow tiles, seat 3 banks 50.00: seat 5 wins 40.00, and the bank cannot cover seats 2 and 1 after it."""
    rules = rule_set_create(actor=pit_boss, name="Tiles rotation", game="paigow_tiles", banking_mode="player_rotation")
    table = make_table(name="PG-1", game="paigow_tiles", seat_count=6, rule_set=rules)
    hands = {"banker": TILES_BANK, "seats": {"5": TILES_WIN, "2": TILES_WIN_TOO, "1": TILES_LOSE}}
    round_ = play_to_hands(
        table, wagers={1: 1000, 2: 2000, 5: 4000}, hands=hands, dice=DICE, banker_seat=3, bank_cents=5000
    )
    return _settle(round_, dealer, "tiles")


def _pgp_co_banking(dealer, pit_boss, make_table, play_to_hands) -> Round:  # type: ignore[no-untyped-def]
    """Pai Gow Poker co-banking, after a house round dealt by the system and set by the house way."""
    rules = rule_set_create(actor=pit_boss, name="PGP co-banking", game="paigow_poker", banking_mode="co_banking")
    table = make_table(name="PGP-C", game="paigow_poker", seat_count=6, rule_set=rules)
    house = round_open(actor=dealer, table=table)
    wager_place(actor=dealer, round=house, seat=2, amount_cents=2000)
    round_close_betting(actor=dealer, round=house)
    round_deal(actor=dealer, round=house, auto=True, rng=random.Random(7))
    _settle(round_hands_record(actor=dealer, round=house, hands={}), dealer, "house-round")
    hands = {"banker": BANK, "seats": {"4": WINS, "1": LOSES}}
    round_ = play_to_hands(table, wagers={1: 3001, 4: 1001}, hands=hands, banker_seat=2, bank_cents=2200)
    return _settle(round_, dealer, "co-bank")


def _chinese_poker(dealer, pit_boss, make_table, play_to_hands) -> Round:  # type: ignore[no-untyped-def]
    """Chinese Poker, GAME_RULES.md §3's worked example at 10.00, 20.00 and 15.00 a point, 5% rake."""
    rules = rule_set_create(actor=pit_boss, name="CP rake 5%", game="chinese_poker", rake_bp=500)
    table = make_table(name="CP-1", game="chinese_poker", seat_count=4, rule_set=rules)
    return _settle(play_to_hands(table, wagers={1: 1000, 2: 2000, 3: 1500}, hands=SEED_EXAMPLE), dealer, "cp")


def _ofc(dealer, pit_boss, make_table, play_to_hands) -> Round:  # type: ignore[no-untyped-def]
    """Open-Face Chinese Poker, boards placed street by street: seat 2 wins one point at 10.00."""
    rules = rule_set_create(actor=pit_boss, name="OFC rake 5%", game="ofc", rake_bp=500)
    table = make_table(name="OFC-1", game="ofc", seat_count=3, rule_set=rules)
    round_ = round_open(actor=dealer, table=table)
    for seat, amount in {1: 2000, 2: 1000}.items():
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=amount)
    round_close_betting(actor=dealer, round=round_)
    round_ = round_deal(actor=dealer, round=round_, dice=[2, 3, 4])
    for street in OFC_STREETS:
        round_ = round_placements_record(actor=dealer, round=round_, placements={"seats": street})
    return _settle(round_, dealer, "ofc")


# game: (how a round is played, settled rounds, settlement postings, wager postings)
GAMES: dict[str, tuple[Callable[..., Round], int, int, int]] = {
    "pai gow poker, the house banks": (_pgp_house, 1, 1, 3),
    "pai gow tiles, a player banks": (_tiles_player_bank, 1, 1, 3),
    "pai gow poker, co-banking": (_pgp_co_banking, 2, 2, 3),
    "chinese poker, a points game": (_chinese_poker, 1, 1, 0),
    "open-face chinese poker": (_ofc, 1, 1, 0),
}


@pytest.fixture(params=list(GAMES))
def game(request) -> str:  # type: ignore[no-untyped-def]
    return str(request.param)


@pytest.fixture
def game_round(game, dealer, pit_boss, shift, make_table, play_to_hands) -> Round:  # type: ignore[no-untyped-def]
    """A settled round of each game (the last one played at its table)."""
    return GAMES[game][0](dealer, pit_boss, make_table, play_to_hands)


@pytest.fixture
def pgp_round(dealer, pit_boss, shift, make_table, play_to_hands) -> Round:  # type: ignore[no-untyped-def]
    return _pgp_house(dealer, pit_boss, make_table, play_to_hands)


# --- a clean ledger ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_clean_ledger_replays_for_every_game(game, game_round) -> None:
    _, rounds, settlements, wagers = GAMES[game]
    report = ledger_replay()
    assert report.problems == []
    assert report.ok
    assert (report.rounds, report.settlements, report.wagers) == (rounds, settlements, wagers)
    assert ledger_verify().ok


@pytest.mark.django_db
def test_verify_ledger_replay_says_every_settlement_matches_to_the_cent(pgp_round, capsys) -> None:
    call_command("verify_ledger", "--replay")
    out = capsys.readouterr().out
    assert "The ledger verifies: 1 rounds, 4 postings" in out
    assert (
        "Replay: 1 settled round recomputed (1 settlement, 3 wager postings); "
        "every settlement matches its postings to the cent." in out
    )


@pytest.mark.django_db
def test_verify_ledger_without_replay_recomputes_nothing(pgp_round, capsys) -> None:
    call_command("verify_ledger")
    assert "Replay" not in capsys.readouterr().out


@pytest.mark.django_db
def test_a_corrected_round_replays_each_settlement_against_its_own_hands(dealer, pit_boss, pgp_round) -> None:
    asked = adjustment_request(
        actor=dealer,
        round=pgp_round,
        kind="correction",
        reason="Seats 2 and 3 keyed the wrong way round",
        hands={"banker": BANK, "seats": {"1": WINS, "2": PUSHES, "3": LOSES}},
    )
    adjustment_approve(actor=pit_boss, adjustment=asked)
    report = ledger_replay()
    assert report.problems == []
    # The reversed settlement is settled again with the hands it was made with, not the round's corrected hands
    # (seats 2 and 3 swapped), and the correction with its own.
    assert (report.rounds, report.settlements) == (1, 2)
    original, correction = Posting.objects.filter(round_id=pgp_round.pk, kind="settlement").order_by("pk")
    assert original.hands != correction.hands == Round.objects.get(pk=pgp_round.pk).hands


# --- a balanced edit of a settlement ---------------------------------------------------------------


@pytest.mark.django_db
def test_a_balanced_edit_of_a_settlement_is_named_with_what_each_account_should_hold(pgp_round) -> None:
    settlement = _settlement(pgp_round)
    player = (
        settlement.entries.annotate(seat_number=seat_value())
        .filter(account="player", seat_number=1)
        .order_by("pk")
        .first()
    )
    house = settlement.entries.filter(account="house").order_by("pk").first()
    tamper("UPDATE ledger_ledgerentry SET amount_cents = amount_cents + %s WHERE id = %s", [99900, player.pk])
    tamper("UPDATE ledger_ledgerentry SET amount_cents = amount_cents - %s WHERE id = %s", [99900, house.pk])
    assert ledger_replay().problems == [
        f"{_name(pgp_round)}: settlement posting {settlement.pk} does not match its recomputation: "
        "player seat 1 expected +4875 cents, found +104775 cents; house expected -1500 cents, found -101400 cents."
    ]


@pytest.mark.django_db
def test_verify_ledger_replay_fails_naming_the_round_and_the_posting(pgp_round) -> None:
    settlement = _settlement(pgp_round)
    player = (
        settlement.entries.annotate(seat_number=seat_value())
        .filter(account="player", seat_number=1)
        .order_by("pk")
        .first()
    )
    house = settlement.entries.filter(account="house").order_by("pk").first()
    tamper("UPDATE ledger_ledgerentry SET amount_cents = amount_cents + %s WHERE id = %s", [99900, player.pk])
    tamper("UPDATE ledger_ledgerentry SET amount_cents = amount_cents - %s WHERE id = %s", [99900, house.pk])
    with pytest.raises(CommandError, match="The replay found 1 difference") as failed:
        call_command("verify_ledger", "--replay")
    assert f"  - {_name(pgp_round)}: settlement posting {settlement.pk} does not match" in str(failed.value)


@pytest.mark.django_db
def test_a_balanced_edit_between_two_accounts_is_named_in_every_game(game_round) -> None:
    settlement = _settlement(game_round)
    first, *others = settlement.entries.exclude(account="wagers").order_by("pk")  # the layout stays square
    second = next(entry for entry in others if (entry.account, entry.seat_id) != (first.account, first.seat_id))
    tamper("UPDATE ledger_ledgerentry SET amount_cents = amount_cents + %s WHERE id = %s", [99900, first.pk])
    tamper("UPDATE ledger_ledgerentry SET amount_cents = amount_cents - %s WHERE id = %s", [99900, second.pk])
    (problem,) = ledger_replay().problems
    named = f"{_name(game_round)}: settlement posting {settlement.pk} does not match its recomputation: "
    assert problem.startswith(named)
    assert problem.count("expected") == 2


@pytest.mark.django_db
def test_lines_changed_with_every_account_total_kept_are_named_line_by_line(pgp_round) -> None:
    settlement = _settlement(pgp_round)
    payout = (
        settlement.entries.annotate(seat_number=seat_value())
        .filter(account="player", seat_number=1, kind="payout")
        .order_by("pk")
        .first()
    )
    commission = settlement.entries.annotate(seat_number=seat_value()).get(
        account="player", seat_number=1, kind="commission"
    )
    tamper("UPDATE ledger_ledgerentry SET amount_cents = %s WHERE id = %s", [2375, payout.pk])
    tamper("UPDATE ledger_ledgerentry SET amount_cents = %s WHERE id = %s", [0, commission.pk])
    assert ledger_replay().problems == [
        f"{_name(pgp_round)}: settlement posting {settlement.pk} does not match its recomputation: every account's "
        "total agrees but the lines differ: expected player seat 1 -125 (commission), player seat 1 +2500 (payout), "
        "found player seat 1 +0 (commission), player seat 1 +2375 (payout)."
    ]


@pytest.mark.django_db
def test_an_edited_result_is_named(pgp_round) -> None:
    settlement = _settlement(pgp_round)
    result = {**settlement.result, "house": {**settlement.result["house"], "commission_cents": 0}}
    tamper("UPDATE ledger_posting SET result = %s WHERE id = %s", [json.dumps(result), settlement.pk])
    assert ledger_replay().problems == [
        f"{_name(pgp_round)}: settlement posting {settlement.pk} does not match its recomputation: "
        "its stored result differs from the recomputed one in house."
    ]


# --- an edited wager -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_wager_edited_on_a_settled_round_is_named_with_its_posting_and_the_settlement(pgp_round) -> None:
    seat = Wager.objects.get(round=pgp_round, seat__number=1).seat_id
    tamper(
        "UPDATE settlement_wager SET amount_cents = amount_cents * 100 WHERE round_id = %s AND seat_id = %s",
        [pgp_round.pk, seat],
    )
    taken = Posting.objects.get(round_id=pgp_round.pk, kind="wager", entries__seat_id=seat)
    settlement = _settlement(pgp_round)
    # With 2500.00 on seat 1: 2500.00 back and 2500.00 won less 125.00; the house pays it and takes seat 2's 10.00.
    assert ledger_replay().problems == [
        f"{_name(pgp_round)}: wager posting {taken.pk} does not match the wager on seat 1 (250000 cents): "
        "player seat 1 expected -250000 cents, found -2500 cents; wagers expected +250000 cents, found +2500 cents.",
        f"{_name(pgp_round)}: settlement posting {settlement.pk} does not match its recomputation: "
        "player seat 1 expected +487500 cents, found +4875 cents; wagers expected -256000 cents, found -8500 cents; "
        "house expected -249000 cents, found -1500 cents; commission expected +12500 cents, found +125 cents; "
        "its stored result differs from the recomputed one in house, seats.",
    ]


@pytest.mark.django_db
def test_a_wager_edited_on_an_open_round_is_named_by_its_wager_posting(dealer, shift, make_table) -> None:
    table = make_table(name="PGP-2", game="paigow_poker", seat_count=6)
    round_ = round_open(actor=dealer, table=table)
    wager_place(actor=dealer, round=round_, seat=4, amount_cents=2500)
    tamper("UPDATE settlement_wager SET amount_cents = amount_cents * 100 WHERE round_id = %s", [round_.pk])
    taken = Posting.objects.get(round_id=round_.pk, kind="wager")
    report = ledger_replay()
    assert report.problems == [
        f"Round 1 at table PGP-2 (round id {round_.pk}): wager posting {taken.pk} does not match the wager on "
        "seat 4 (250000 cents): player seat 4 expected -250000 cents, found -2500 cents; "
        "wagers expected +250000 cents, found +2500 cents."
    ]
    assert (report.rounds, report.wagers) == (0, 1)


@pytest.mark.django_db
def test_a_wager_posting_moved_to_another_seat_is_named(pgp_round) -> None:
    seat_3 = pgp_round.table.seats.get(number=3)
    taken = Posting.objects.get(round_id=pgp_round.pk, kind="wager", entries__seat_id=seat_3.pk)
    seat_4 = pgp_round.table.seats.get(number=4)
    tamper(
        "UPDATE ledger_ledgerentry SET seat_id = %s WHERE posting_id = %s AND account = 'player'",
        [seat_4.pk, taken.pk],
    )
    assert ledger_replay().problems == [
        f"{_name(pgp_round)}: wager posting {taken.pk} takes a wager from seat 4, which has no wager on the round: "
        "it holds player seat 4 -5000 (wager), wagers +5000 (wager).",
        f"{_name(pgp_round)}: the wager of 5000 cents on seat 3 was never posted (once expected).",
    ]


# --- the round's own row ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_hands_changed_on_a_settled_round_are_named_and_the_settlement_still_replays(pgp_round) -> None:
    settlement = _settlement(pgp_round)
    hands = {**settlement.hands, "seats": {**settlement.hands["seats"], "2": {"high": WINS["high"], "low": "Kh Kc"}}}
    tamper("UPDATE tables_round SET hands = %s WHERE id = %s", [json.dumps(hands), pgp_round.pk])
    assert ledger_replay().problems == [
        f"{_name(pgp_round)}: the round's hands are not the hands its settlement in force "
        f"(posting {settlement.pk}) was settled with."
    ]


# --- which rounds, and how they are read -----------------------------------------------------------


@pytest.mark.django_db
def test_the_replay_can_look_at_some_rounds_only(dealer, pit_boss, pgp_round, make_table, play_to_hands) -> None:
    other = _chinese_poker(dealer, pit_boss, make_table, play_to_hands)
    player = _settlement(pgp_round).entries.filter(account="player").order_by("pk").first()
    tamper("UPDATE ledger_ledgerentry SET amount_cents = amount_cents + 1 WHERE id = %s", [player.pk])
    assert not ledger_replay(rounds=[pgp_round.pk]).ok
    assert ledger_replay(rounds=[other.pk]).ok
    assert not ledger_replay().ok


@pytest.mark.django_db
def test_verify_ledger_replay_checks_the_rounds_named(dealer, pit_boss, pgp_round, make_table, play_to_hands, capsys):
    other = _chinese_poker(dealer, pit_boss, make_table, play_to_hands)
    player = _settlement(pgp_round).entries.filter(account="player").order_by("pk").first()
    tamper("UPDATE ledger_ledgerentry SET amount_cents = amount_cents + 1 WHERE id = %s", [player.pk])
    call_command("verify_ledger", "--replay", "--round", str(other.pk))
    assert "Replay: 1 settled round recomputed (1 settlement, 0 wager postings)" in capsys.readouterr().out
    with pytest.raises(CommandError, match=f"round id {pgp_round.pk}"):
        call_command("verify_ledger", "--replay", "--round", str(other.pk), "--round", str(pgp_round.pk))


@pytest.mark.django_db
def test_a_chunk_of_rounds_is_read_in_five_statements_whatever_its_size(
    dealer, pit_boss, shift, make_table, play_to_hands, django_assert_num_queries
) -> None:
    rounds = [build(dealer, pit_boss, make_table, play_to_hands) for build, *_ in GAMES.values()]
    ids = [round_.pk for round_ in rounds]
    with django_assert_num_queries(5):  # the rounds, their postings, entries, wagers and seats
        assert ledger_replay(rounds=ids[:1]).ok
    with django_assert_num_queries(5):
        report = ledger_replay(rounds=ids)
    assert (report.ok, report.rounds) == (True, len(ids))
    with django_assert_num_queries(2 * 5 + 3):  # and the ids of each chunk of rounds, then none left
        assert ledger_replay(chunk_size=3).rounds == len(ids) + 1  # and the co-banking table's house round


@pytest.mark.django_db
def test_an_entry_moved_to_another_round_is_named(dealer, pit_boss, pgp_round, make_table, play_to_hands) -> None:
    other = _chinese_poker(dealer, pit_boss, make_table, play_to_hands)
    settlement = _settlement(pgp_round)
    entry = settlement.entries.filter(account="house").order_by("pk").first()
    tamper("UPDATE ledger_ledgerentry SET round_id = %s WHERE id = %s", [other.pk, entry.pk])
    assert ledger_replay().problems == [
        f"{_name(pgp_round)}: ledger entry {entry.pk} of settlement posting {settlement.pk} is filed under "
        f"round id {other.pk}."
    ]


@pytest.mark.django_db
def test_a_round_id_that_does_not_exist_is_said(pgp_round) -> None:
    assert ledger_replay(rounds=[pgp_round.pk, pgp_round.pk + 1000]).problems == [
        f"There is no round with id {pgp_round.pk + 1000}."
    ]
