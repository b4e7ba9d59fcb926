"""The house's wager against a player bank in Pai Gow Poker (GAME_RULES.md §2).

"The house (dealer) wagers the player's last bet against a player bank": seat 3 wagers 25.00 in a
round the house banks, then takes the bank; the dealer's own position plays seven cards set by the
house way for 25.00 against seat 3's bank, settled like a seat's wager. Every amount is worked out
by hand in cents: a win pays even money less 5% (the player's commission in Pai Gow Poker), a loss or
a copy goes to the bank, the player bank pays 5% of its net win, the wagers in action order while the
bank covers them.

Published practice: "When a player is the banker the dealer will still play, betting an amount equal
to the last bet the player made" (http://www.mountolympuscasino.com/casino-games/paigow-poker.htm).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino.errors import ApplicationError
from casino.models import AuditEvent
from ledger.models import LedgerEntry, Posting
from ledger.verify import ledger_verify
from rounds.models import HouseWager, Round
from rounds.selectors import seat_value
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, void_round, wager_place
from rules import options as rule_options
from rules.services import rule_set_create, rule_set_default
from settlement.replay import ledger_replay
from settlement.services import adjustment_approve, adjustment_request, settle_round, settlement_preview
from settlement.verify import _rules_audited, _rules_problem
from tables.models import Table
from tests import guards
from tests.settlement.conftest import BANK, LOSES, WINS

# The dealer's seven cards, and what the Golden Nugget house way makes of them against BANK (Q-Q over J-J):
HOUSE_WINS = "As Ad 7s 4d 2c Kh Kc"  # aces high, kings low: both beat the bank
HOUSE_LOSES = "Ts Td 9h 6c 4h 9d 2d"  # tens high, nines low: both lose
HOUSE_COPIES = "Qh Qc 8h 5c 3s Js Jd"  # queens high, jacks low: the bank's hands in other suits, copies
HOUSE_PUSHES = "Ks Kd 9s 6d 3d 8h 7c"  # kings high win, nine-eight low loses
# The seats' hands that share no card with the dealer's above.
SEAT_LOSES_TO_BANK = LOSES  # Ts Td 9h 6c 4h / 9d 2d
SEAT_BEATS_BANK = WINS  # As Ad 7s 4d 2c / Kh Kc

DICE = (1, 1, 1)  # 3: counting from the bank (seat 3) counter-clockwise, seat 1 first, then the dealer (0)


@pytest.fixture
def rotation_table(pit_boss, make_table) -> Table:  # type: ignore[no-untyped-def]
    rules = rule_set_create(
        actor=pit_boss, name="PGP players bank", game="paigow_poker", banking_mode="player_rotation"
    )
    return make_table(name="PGP-R", game="paigow_poker", seat_count=6, rule_set=rules)


def _house_banked_round(table: Table, actor: Any, *, wagers: dict[int, int], key: str) -> Round:
    """A settled round the house banks (its queens over jacks): the first seat loses, a second wins; their last bets."""
    round_ = round_open(actor=actor, table=table)
    for seat, amount in wagers.items():
        wager_place(actor=actor, round=round_, seat=seat, amount_cents=amount)
    round_close_betting(actor=actor, round=round_)
    round_deal(actor=actor, round=round_, dice=list(DICE))
    seats = {str(seat): hand for seat, hand in zip(wagers, (LOSES, WINS), strict=False)}
    round_hands_record(actor=actor, round=round_, hands={"banker": {"cards": HOUSE_COPIES}, "seats": seats})
    settle_round(round=round_, actor=actor, idempotency_key=key)
    return round_


def _player_bank(
    table: Table, actor: Any, *, bank_cents: int = 10_000, wagers: dict[int, int] | None = None, banker: int = 3
) -> Round:
    round_ = round_open(actor=actor, table=table, banker_seat=banker, bank_cents=bank_cents)
    for seat, amount in (wagers or {}).items():
        wager_place(actor=actor, round=round_, seat=seat, amount_cents=amount)
    round_close_betting(actor=actor, round=round_)
    round_deal(actor=actor, round=round_, dice=list(DICE))
    return Round.objects.select_related("table", "bank_seat").get(pk=round_.pk)


def _lines(posting: Posting) -> list[tuple[str, int | None, int, str]]:
    return [
        (e.account, e.seat_number, e.amount_cents, e.kind)
        for e in posting.entries.annotate(seat_number=seat_value()).order_by("pk")
    ]


def _balance(round_: Round, account: str, seat: int | None = None) -> int:
    rows = LedgerEntry.objects.filter(round_id=round_.pk, account=account)
    if seat is not None:
        rows = rows.annotate(seat_number=seat_value()).filter(seat_number=seat)
    return sum(rows.values_list("amount_cents", flat=True))


@pytest.fixture
def banked_by_seat_3(dealer, shift, rotation_table) -> Round:  # type: ignore[no-untyped-def]
    """Seat 3 wagers 25.00 in a house-banked round, then banks 100.00; seat 1 wagers 10.00 against that bank."""
    _house_banked_round(rotation_table, dealer, wagers={3: 2500}, key="last-bet")
    return _player_bank(rotation_table, dealer, wagers={1: 1000})


def _reveal(round_: Round, actor: Any, house: str, seat_1: dict[str, str] = SEAT_LOSES_TO_BANK) -> Round:
    hands = {"banker": BANK, "house": {"cards": house}, "seats": {"1": seat_1}}
    return round_hands_record(actor=actor, round=round_, hands=hands)


# --- the wager is taken ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_house_wagers_the_bankers_last_bet_from_the_house_to_the_layout(dealer, banked_by_seat_3) -> None:
    wager = HouseWager.objects.get(round=banked_by_seat_3)
    assert wager.amount_cents == 2500
    assert wager.last_wager.seat.number == 3 and wager.last_wager.round.number == 1
    posting = Posting.objects.get(round_id=banked_by_seat_3.pk, kind="wager", entries__account="house")
    assert _lines(posting) == [("house", None, -2500, "wager"), ("wagers", None, 2500, "wager")]
    event = AuditEvent.objects.get(event_type="house_wager.placed")
    assert event.after["amount_cents"] == 2500 and event.after["bank_seat"] == 3
    opened = AuditEvent.objects.filter(event_type="round.opened").order_by("-seq").first()
    assert opened is not None and opened.after["house_wager_cents"] == 2500
    # 25.00 of the house's and 10.00 of seat 1's on the layout: the ledger holds it so.
    assert _balance(banked_by_seat_3, "wagers") == 3500
    assert ledger_verify().ok


@pytest.mark.django_db
def test_the_last_bet_is_the_newest_settled_one_at_this_table_this_shift(
    dealer, floor_supervisor, shift, rotation_table, make_table
) -> None:
    _house_banked_round(rotation_table, dealer, wagers={3: 2500}, key="r1")
    _house_banked_round(rotation_table, dealer, wagers={3: 4000, 1: 1000}, key="r2")
    # Seat 3 at another table bets more: that is not a bet at this table.
    other = make_table(name="PGP-2", game="paigow_poker", seat_count=6, rule_set=rotation_table.rule_set)
    _house_banked_round(other, dealer, wagers={3: 9000}, key="elsewhere")
    # A voided round's wager never happened.
    voided = round_open(actor=dealer, table=rotation_table)
    wager_place(actor=dealer, round=voided, seat=3, amount_cents=7500)
    void_round(actor=floor_supervisor, round=voided, reason="Misdeal")
    round_ = round_open(actor=dealer, table=rotation_table, banker_seat=3, bank_cents=10_000)
    assert HouseWager.objects.get(round=round_).amount_cents == 4000


# --- the settlement maths ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_house_wins_both_hands_even_money_paid_by_the_bank_and_no_commission_to_itself(
    dealer, banked_by_seat_3
) -> None:
    round_ = _reveal(banked_by_seat_3, dealer, HOUSE_WINS)
    assert round_.hands["house"] == {
        "high": "As Ad 7s 4d 2c",
        "low": "Kh Kc",
        "set_by": "house_way",
        "rule": "two pairs, split: aces with any pair",
    }
    body = settle_round(round=round_, actor=dealer, idempotency_key="house-wins")
    # Action order from the dice: seat 1 first (loses 10.00 to the bank), then the house (wins 25.00).
    assert body["house_wager"] == {
        "seat": 0,
        "action_place": 2,
        "wager_cents": 2500,
        "outcome": "win",
        "won_cents": 2500,
        "commission_cents": 0,
        "net_cents": 2500,
        "fouled": False,
    }
    # The bank: +10.00 from seat 1, -25.00 to the house: a net loss of 15.00 pays no commission.
    assert (body["bank"]["won_cents"], body["bank"]["commission_cents"]) == (-1500, 0)
    # The house: its 25.00 won; it pays no commission to itself, so the commission account (what reports sum as
    # collected from players) is untouched: +25.00 in all.
    assert body["house"] == {
        "bank_won_cents": 0,
        "commission_cents": 0,
        "rake_cents": 0,
        "total_cents": 2500,
        "wager_won_cents": 2500,
    }
    settlement = Posting.objects.get(round_id=round_.pk, kind="settlement")
    assert _lines(settlement) == [
        ("wagers", None, -1000, "bank"),
        ("banker", 3, 1000, "bank"),
        ("wagers", None, -2500, "payout"),
        ("house", None, 2500, "payout"),
        ("banker", 3, -2500, "payout"),
        ("house", None, 2500, "payout"),
    ]
    assert (_balance(round_, "house"), _balance(round_, "banker", 3), _balance(round_, "commission")) == (
        2500,
        -1500,
        0,
    )
    assert _balance(round_, "wagers") == 0


@pytest.mark.django_db
def test_the_house_loses_both_hands_to_the_bank_which_pays_five_percent_of_its_net_win(
    dealer, banked_by_seat_3
) -> None:
    round_ = _reveal(banked_by_seat_3, dealer, HOUSE_LOSES, seat_1=SEAT_BEATS_BANK)
    assert (round_.hands["house"]["high"], round_.hands["house"]["low"]) == ("Ts Td 6c 4h 2d", "9h 9d")
    body = settle_round(round=round_, actor=dealer, idempotency_key="house-loses")
    assert (body["house_wager"]["outcome"], body["house_wager"]["net_cents"]) == ("loss", -2500)
    # The bank: -10.00 to seat 1 (who wins, 0.50 commission), +25.00 from the house: net +15.00, pays 0.75.
    assert body["bank"] == {
        "seat": 3,
        "bank_cents": 10_000,
        "covers_cents": 10_000,
        "co_banking": False,
        "won_cents": 1500,
        "commission_cents": 75,
        "net_cents": 1425,
    }
    assert body["house"]["total_cents"] == -2500 + 50 + 75
    assert (_balance(round_, "house"), _balance(round_, "banker", 3), _balance(round_, "player", 1)) == (
        -2500,
        1425,
        950,
    )


@pytest.mark.django_db
def test_copies_go_to_the_bank_against_the_house_too(dealer, banked_by_seat_3) -> None:
    round_ = _reveal(banked_by_seat_3, dealer, HOUSE_COPIES)
    body = settle_round(round=round_, actor=dealer, idempotency_key="copies")
    assert body["house_wager"]["outcome"] == "loss"
    # The bank wins 10.00 from seat 1 and 25.00 from the house: 35.00, commission 1.75.
    assert (body["bank"]["won_cents"], body["bank"]["commission_cents"]) == (3500, 175)
    assert body["house"]["total_cents"] == -2500 + 175


@pytest.mark.django_db
def test_one_hand_each_is_a_push_and_the_house_takes_its_stake_back(dealer, banked_by_seat_3) -> None:
    round_ = _reveal(banked_by_seat_3, dealer, HOUSE_PUSHES)
    body = settle_round(round=round_, actor=dealer, idempotency_key="push")
    assert (body["house_wager"]["outcome"], body["house_wager"]["net_cents"]) == ("push", 0)
    assert ("wagers", None, -2500, "payout") in _lines(Posting.objects.get(round_id=round_.pk, kind="settlement"))
    assert _balance(round_, "house") == 0
    assert body["bank"]["won_cents"] == 1000


@pytest.mark.django_db
def test_the_bank_covers_in_action_order_and_a_house_wager_it_cannot_cover_is_no_action(
    dealer, shift, rotation_table
) -> None:
    _house_banked_round(rotation_table, dealer, wagers={3: 2500}, key="last-bet")
    # A bank of 30.00: seat 1 acts first and wins 10.00, leaving 20.00, less than the house's 25.00.
    round_ = _player_bank(rotation_table, dealer, bank_cents=3000, wagers={1: 1000})
    round_ = _reveal(round_, dealer, HOUSE_WINS, seat_1={"high": "Ks Kd 9s 6d 3d", "low": "Qh Qc"})
    body = settle_round(round=round_, actor=dealer, idempotency_key="cover")
    assert body["seats"][0]["outcome"] == "win"
    assert body["house_wager"]["outcome"] == "no_action"
    assert _balance(round_, "house") == 0  # the house's 25.00 came back from the layout
    assert body["bank"]["won_cents"] == -1000


# --- refusals and what the house does not do ---------------------------------------------------------


@pytest.mark.django_db
def test_a_banker_with_no_last_bet_this_shift_opens_without_a_house_wager_and_its_hand_is_refused(
    dealer, shift, rotation_table
) -> None:
    round_ = _player_bank(rotation_table, dealer, wagers={1: 1000})
    assert not HouseWager.objects.filter(round=round_).exists()
    opened = AuditEvent.objects.get(event_type="round.opened")
    assert opened.after["house_wager_why_not"] == (
        "Seat 3 has no settled wager at table PGP-R this shift: the house has no last bet to copy and does not "
        "wager against the bank this round."
    )
    with pytest.raises(ApplicationError, match="The house has no wager against the bank this round"):
        _reveal(round_, dealer, HOUSE_WINS)
    body = settle_round(
        round=round_hands_record(actor=dealer, round=round_, hands={"banker": BANK, "seats": {"1": LOSES}}),
        actor=dealer,
        idempotency_key="no-house",
    )
    assert "house_wager" not in body and "wager_won_cents" not in body["house"]


@pytest.mark.django_db
def test_a_bank_too_small_for_the_house_wager_is_refused_and_nothing_is_written(dealer, shift, rotation_table) -> None:
    _house_banked_round(rotation_table, dealer, wagers={3: 2500}, key="last-bet")
    rounds, postings = Round.objects.count(), Posting.objects.count()
    with pytest.raises(ApplicationError) as refused:
        round_open(actor=dealer, table=rotation_table, banker_seat=3, bank_cents=2000)
    assert refused.value.message == (
        "The house wagers seat 3's last bet, 25.00 (round 1), against the bank: a bank of 20.00 cannot cover it. "
        "Put up at least 25.00."
    )
    assert (Round.objects.count(), Posting.objects.count(), HouseWager.objects.count()) == (rounds, postings, 0)


@pytest.mark.django_db
def test_co_banking_the_house_covers_half_and_does_not_wager_against_the_bank(
    dealer, pit_boss, shift, make_table
) -> None:
    rules = rule_set_create(actor=pit_boss, name="PGP co-bank", game="paigow_poker", banking_mode="co_banking")
    table = make_table(name="PGP-C", game="paigow_poker", seat_count=6, rule_set=rules)
    _house_banked_round(table, dealer, wagers={3: 2500}, key="last-bet")
    round_ = _player_bank(table, dealer, bank_cents=2750, wagers={1: 1000})
    assert not HouseWager.objects.filter(round=round_).exists()
    opened = AuditEvent.objects.filter(event_type="round.opened").order_by("-seq").first()
    assert opened is not None and opened.after["house_wager_why_not"].startswith("Co-banking: the house covers half")
    with pytest.raises(ApplicationError, match="The house has no wager against the bank"):
        _reveal(round_, dealer, HOUSE_WINS)


@pytest.mark.django_db
def test_when_the_house_banks_there_is_no_house_wager(dealer, shift, rotation_table) -> None:
    _house_banked_round(rotation_table, dealer, wagers={3: 2500}, key="r1")
    _house_banked_round(rotation_table, dealer, wagers={3: 2500}, key="r2")
    assert HouseWager.objects.count() == 0
    assert not AuditEvent.objects.filter(event_type="house_wager.placed").exists()


@pytest.mark.django_db
def test_with_the_option_off_the_house_does_not_wager(dealer, pit_boss, shift, make_table) -> None:
    rules = rule_set_create(
        actor=pit_boss, name="PGP no house", game="paigow_poker", banking_mode="player_rotation", house_wager=False
    )
    table = make_table(name="PGP-N", game="paigow_poker", seat_count=6, rule_set=rules)
    _house_banked_round(table, dealer, wagers={3: 2500}, key="last-bet")
    round_ = _player_bank(table, dealer, wagers={1: 1000})
    assert not HouseWager.objects.filter(round=round_).exists()
    assert "house_wager_why_not" not in AuditEvent.objects.filter(event_type="round.opened").last().after


@pytest.mark.django_db
def test_the_house_hand_is_checked_like_every_other(dealer, banked_by_seat_3) -> None:
    cases = [
        ({"banker": BANK, "seats": {"1": LOSES}}, "The house's hand is missing: it wagers against the bank"),
        (
            {"banker": BANK, "house": {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"}, "seats": {"1": LOSES}},
            "The house: the house way sets the house's hand: give all 7 cards unset",
        ),
        ({"banker": BANK, "house": {"cards": "As Ad 7s 4d 2c Kh"}, "seats": {"1": LOSES}}, "7 cards expected, got 6"),
        (
            {"banker": BANK, "house": {"cards": "As Ad 7s 4d 2c Kh Ts"}, "seats": {"1": LOSES}},
            r"T♠ is used 2 times \(Seat 1, the house\); the deck has one",
        ),
    ]
    for hands, message in cases:
        with pytest.raises(ApplicationError, match=message):
            round_hands_record(actor=dealer, round=banked_by_seat_3, hands=hands)
    assert Round.objects.get(pk=banked_by_seat_3.pk).hands is None


# --- a double tap, a void, a correction, the replay ---------------------------------------------------


@pytest.mark.django_db
def test_a_double_tap_on_open_or_settle_takes_and_pays_the_house_wager_once(dealer, banked_by_seat_3) -> None:
    # A second tap on Open while the round is in play is refused: the house's wager is not taken twice.
    with pytest.raises(ApplicationError, match="Round 2 at table PGP-R is still"):
        round_open(actor=dealer, table=banked_by_seat_3.table, banker_seat=3, bank_cents=10_000)
    assert HouseWager.objects.count() == 1
    round_ = _reveal(banked_by_seat_3, dealer, HOUSE_WINS)
    first = settle_round(round=round_, actor=dealer, idempotency_key="tap")
    again = settle_round(round=round_, actor=dealer, idempotency_key="tap")
    assert first == again
    assert Posting.objects.filter(round_id=round_.pk, kind="settlement").count() == 1
    assert _balance(round_, "house") == 2500
    assert Posting.objects.filter(round_id=round_.pk, kind="wager", entries__account="house").count() == 1


@pytest.mark.django_db
def test_a_void_returns_the_house_wager_with_the_seats(dealer, floor_supervisor, banked_by_seat_3) -> None:
    void_round(actor=floor_supervisor, round=banked_by_seat_3, reason="Misdeal")
    void = Posting.objects.get(round_id=banked_by_seat_3.pk, kind="void")
    assert ("house", None, 2500, "reversal") in _lines(void)
    assert (_balance(banked_by_seat_3, "house"), _balance(banked_by_seat_3, "wagers")) == (0, 0)
    assert ledger_verify().ok


@pytest.mark.django_db
def test_the_replay_settles_the_house_wager_again_and_a_correction_resettles_it(
    dealer, pit_boss, banked_by_seat_3
) -> None:
    round_ = _reveal(banked_by_seat_3, dealer, HOUSE_WINS)
    settle_round(round=round_, actor=dealer, idempotency_key="replayed")
    report = ledger_replay()
    assert report.ok, report.problems
    assert report.wagers == 3  # seat 3's in round 1; seat 1's and the house's in round 2
    asked = adjustment_request(
        actor=dealer,
        round=round_,
        kind="correction",
        reason="The dealer's cards were misread",
        hands={"banker": BANK, "house": {"cards": HOUSE_LOSES}, "seats": {"1": SEAT_BEATS_BANK}},
    )
    adjustment_approve(actor=pit_boss, adjustment=asked)
    correction = Posting.objects.get(round_id=round_.pk, kind="settlement", reversed_by__isnull=True)
    assert correction.result["house_wager"]["outcome"] == "loss"
    assert _balance(round_, "house") == -2500
    assert ledger_verify().ok
    assert ledger_replay().ok


@pytest.mark.django_db
def test_the_replay_finds_a_house_wager_changed_behind_the_services_back(dealer, banked_by_seat_3) -> None:
    round_ = _reveal(banked_by_seat_3, dealer, HOUSE_WINS)
    settle_round(round=round_, actor=dealer, idempotency_key="tampered")
    guards.tamper("UPDATE settlement_housewager SET amount_cents = 5000 WHERE round_id = %s", [round_.pk])
    problems = ledger_replay().problems
    assert any("takes a wager from the house, but the round holds a house wager of 5000 cents" in p for p in problems)
    assert any("does not match its recomputation" in p for p in problems)
    # Even with its postings changed to agree, the row is held to the banker's last bet (25.00 in round 1).
    assert any(
        "the house wagers 5000 cents, but the banker's last bet" in p and "was 2500 cents" in p for p in problems
    )


@pytest.mark.django_db
def test_the_system_deal_gives_the_dealer_its_cards_and_the_house_way_sets_them(dealer, shift, rotation_table):
    _house_banked_round(rotation_table, dealer, wagers={3: 2500}, key="last-bet")
    round_ = round_open(actor=dealer, table=rotation_table, banker_seat=3, bank_cents=10_000)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=1000)
    round_close_betting(actor=dealer, round=round_)
    round_ = round_deal(actor=dealer, round=round_, auto=True, rng=random.Random(20))
    round_ = round_hands_record(actor=dealer, round=round_, hands={})
    assert round_.hands["house"]["set_by"] == "house_way"
    dealt = set(round_.dealt["0"].split())
    assert set(f"{round_.hands['house']['high']} {round_.hands['house']['low']}".split()) == dealt
    preview = settlement_preview(round=round_, hands={})
    body = settle_round(round=round_, actor=dealer, idempotency_key="auto")
    assert preview["house_wager"] == body["house_wager"]
    assert ledger_replay().ok


@pytest.mark.django_db
def test_the_house_wager_costs_the_settle_one_read_and_a_house_banked_round_none(dealer, shift, rotation_table) -> None:
    house_banked = round_open(actor=dealer, table=rotation_table)
    wager_place(actor=dealer, round=house_banked, seat=3, amount_cents=2500)
    round_close_betting(actor=dealer, round=house_banked)
    round_deal(actor=dealer, round=house_banked, dice=list(DICE))
    round_hands_record(
        actor=dealer, round=house_banked, hands={"banker": {"cards": HOUSE_COPIES}, "seats": {"3": LOSES}}
    )
    with CaptureQueriesContext(connection) as house_banks:
        settle_round(round=house_banked, actor=dealer, idempotency_key="house-banks")
    assert not any("settlement_housewager" in query["sql"] for query in house_banks.captured_queries)
    round_ = _reveal(_player_bank(rotation_table, dealer, wagers={1: 1000}), dealer, HOUSE_WINS)
    with CaptureQueriesContext(connection) as player_banks:
        settle_round(round=round_, actor=dealer, idempotency_key="player-banks")
    assert sum("settlement_housewager" in query["sql"] for query in player_banks.captured_queries) == 1


@pytest.mark.django_db
def test_rounds_frozen_before_the_option_existed_still_verify_under_the_default_rule_set() -> None:
    default = rule_set_default(game="paigow_poker")
    settings = default.settings()
    before = {**settings, "options": {k: v for k, v in settings["options"].items() if k != "house_wager"}}
    old = rule_options.snapshot_build(rule_set_id=default.pk, name=default.name, game="paigow_poker", settings=before)
    assert old["version"] != default.snapshot()["version"]
    assert _rules_problem(old, _rules_audited()) == ""
    altered = {**old, "options": {**old["options"], "house_wager": False}}
    assert "altered" in _rules_problem(altered, _rules_audited())
