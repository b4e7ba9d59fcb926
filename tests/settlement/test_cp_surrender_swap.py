"""Chinese Poker at the table: surrender and the three-player swap (GAME_RULES.md §3), stored with the round's hands
so that settling, a correction and the replay (``verify_ledger --replay``) apply them.

§3: "once all hands are set face down, a player may surrender and loses 0-2 against every player, scored under the
table's points system (2-4: 3 points; 1-6: 2 points); two surrendered players score nothing. Swap (three players
only): a player pays 2 points to each other player and may exchange any number of cards with the 13 undealt cards."
"""

from __future__ import annotations

import random

import pytest

from casino.errors import ApplicationError, WrongState
from casino.models import AuditEvent
from ledger.verify import ledger_verify
from rounds.models import Round
from rounds.services import (
    round_close_betting,
    round_deal,
    round_hands_record,
    round_open,
    round_swap_record,
    wager_place,
)
from rules.games import chinese_poker
from rules.games.cards import cards_text, deck, parse_cards
from rules.hands import dealt_hands_set
from rules.services import rule_set_create
from settlement.replay import ledger_replay
from settlement.services import settle_round

# GAME_RULES.md §3's worked example (2-4, seed royalties): seat 2 holds three flushes (a natural, 3 from each);
# seat 1 beats seat 3 2-1 (+2), collects 3 for front trips, pays 3 for quads. Totals 1: -1, 2: +6, 3: -5.
SEED_EXAMPLE = {
    "1": {"front": "8s 8h 8d", "middle": "Kh Qh Jd Th 9h", "back": "7s 7h 7d Ts Td"},
    "2": {"front": "Ks Js 4s", "middle": "Kc Qc 8c 7c 5c", "back": "Ad Qd 9d 6d 2d"},
    "3": {"front": "Qs Tc 5h", "middle": "Ah Ac 2h 2c 4d", "back": "3s 3h 3d 3c 6h"},
}
VALUE = 1000  # 10.00 a point for every seat


@pytest.fixture
def cp_rules(pit_boss):  # type: ignore[no-untyped-def]
    def make(name: str = "CP surrender and swap", **options):  # type: ignore[no-untyped-def]
        settings = {"surrender_allowed": True, "swap_allowed": True, **options}
        return rule_set_create(actor=pit_boss, name=name, game="chinese_poker", **settings)

    return make


@pytest.fixture
def cp_table(make_table, cp_rules):  # type: ignore[no-untyped-def]
    return make_table(name="CP-S", game="chinese_poker", seat_count=4, rule_set=cp_rules())


def _dealt(dealer, table, *, seats=(1, 2, 3), auto: bool = False, seed: int = 7) -> Round:  # type: ignore[no-untyped-def]
    round_ = round_open(actor=dealer, table=table)
    for seat in seats:
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=VALUE)
    round_close_betting(actor=dealer, round=round_)
    if auto:
        return round_deal(actor=dealer, round=round_, auto=True, rng=random.Random(seed))
    return round_deal(actor=dealer, round=round_, dice=[2, 3, 4])


def _points(body) -> dict[int, int]:  # type: ignore[no-untyped-def]
    return {line["seat"]: line["points"] for line in body["seats"]}


# --- surrender ----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_surrendered_seat_pays_3_points_to_a_player_under_2_4_and_a_natural_collects_its_own(
    dealer, shift, cp_table
) -> None:
    round_ = _dealt(dealer, cp_table)
    round_hands_record(actor=dealer, round=round_, hands={"seats": SEED_EXAMPLE, "surrendered": [3]})
    body = settle_round(round=round_, actor=dealer, idempotency_key="sur-1")
    # 1 v 3: the 0-2 line, 3 points (no royalties: the hand is never shown); 2 v 3: the natural's 3;
    # 1 v 2: the natural's 3 as before.
    assert _points(body) == {1: 0, 2: 6, 3: -6}
    pairs = {(p["seat"], p["opponent"]): p for p in body["pairs"]}
    assert pairs[1, 3]["points"] == 3 and pairs[1, 3]["surrender"] == 3
    assert pairs[2, 3]["points"] == 3 and "surrender" not in pairs[2, 3]  # the natural decides it
    seats = {line["seat"]: line for line in body["seats"]}
    assert seats[3]["surrendered"] is True and seats[3]["royalties"] == 0
    assert {line["seat"]: line["net_cents"] for line in body["seats"]} == {1: 0, 2: 6000, 3: -6000}
    assert body["hands"]["surrendered"] == [3]
    assert body["hands"]["seats"]["3"]["surrendered"] is True
    assert ledger_verify().ok
    assert ledger_replay().ok


@pytest.mark.django_db
def test_under_1_6_a_surrender_costs_2_points(dealer, shift, make_table, cp_rules) -> None:
    table = make_table(name="CP-16", game="chinese_poker", seat_count=4, rule_set=cp_rules("CP 1-6", cp_scoring="1-6"))
    round_ = _dealt(dealer, table)
    round_hands_record(actor=dealer, round=round_, hands={"seats": SEED_EXAMPLE, "surrendered": [3]})
    body = settle_round(round=round_, actor=dealer, idempotency_key="sur-16")
    assert {(p["seat"], p["opponent"]): p["points"] for p in body["pairs"]} == {(1, 2): -3, (1, 3): 2, (2, 3): 3}
    assert ledger_replay().ok


@pytest.mark.django_db
def test_two_surrendered_seats_score_nothing_against_each_other(dealer, shift, cp_table) -> None:
    round_ = _dealt(dealer, cp_table)
    round_hands_record(actor=dealer, round=round_, hands={"seats": SEED_EXAMPLE, "surrendered": [1, 3]})
    body = settle_round(round=round_, actor=dealer, idempotency_key="sur-2")
    assert {(p["seat"], p["opponent"]): p["points"] for p in body["pairs"]} == {(1, 2): -3, (1, 3): 0, (2, 3): 3}
    assert _points(body) == {1: -3, 2: 6, 3: -3}
    assert ledger_replay().ok


@pytest.mark.django_db
def test_a_surrender_is_refused_where_the_rules_do_not_allow_it_and_nothing_is_written(
    dealer, shift, make_table, nothing_written
) -> None:
    table = make_table(name="CP-D", game="chinese_poker", seat_count=4)  # the default rules: no surrender
    round_ = _dealt(dealer, table)
    with nothing_written(round_), pytest.raises(ApplicationError, match="does not allow surrender"):
        round_hands_record(actor=dealer, round=round_, hands={"seats": SEED_EXAMPLE, "surrendered": [3]})


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("surrendered", "message"),
    [([4], "Seat 4 has no wager in this round"), ("3", "List the seats"), (["3"], "is not a seat number")],
)
def test_a_surrender_of_a_seat_not_in_play_or_not_a_list_is_refused(
    dealer, shift, cp_table, nothing_written, surrendered, message
) -> None:
    round_ = _dealt(dealer, cp_table)
    with nothing_written(round_), pytest.raises(ApplicationError, match=message):
        round_hands_record(actor=dealer, round=round_, hands={"seats": SEED_EXAMPLE, "surrendered": surrendered})


@pytest.mark.django_db
def test_the_dealer_can_take_a_surrender_back_by_entering_the_hands_again_before_settling(
    dealer, shift, cp_table
) -> None:
    round_ = _dealt(dealer, cp_table)
    round_hands_record(actor=dealer, round=round_, hands={"seats": SEED_EXAMPLE, "surrendered": [3]})
    round_hands_record(actor=dealer, round=round_, hands={"seats": SEED_EXAMPLE})
    body = settle_round(round=round_, actor=dealer, idempotency_key="sur-back")
    assert _points(body) == {1: -1, 2: 6, 3: -5}  # the worked example again
    assert "surrendered" not in body["hands"]


# --- the swap, live deal ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_swap_costs_2_points_to_each_other_player_and_the_replay_re_derives_it(dealer, shift, cp_table) -> None:
    round_ = _dealt(dealer, cp_table)
    # Seat 3 gives the king of diamonds (nobody holds it) for the queen of spades it sets in front.
    round_swap_record(actor=dealer, round=round_, seat=3, gave="Kd", took="qs")
    stored = Round.objects.get(pk=round_.pk)
    assert stored.state == "dealt"
    assert stored.hands == {"seats": {}, "swaps": [{"seat": 3, "gave": "Kd", "took": "Qs"}]}
    assert AuditEvent.objects.filter(event_type="round.swapped").count() == 1
    round_hands_record(actor=dealer, round=round_, hands={"seats": SEED_EXAMPLE})
    body = settle_round(round=round_, actor=dealer, idempotency_key="swap-1")
    assert _points(body) == {1: 1, 2: 8, 3: -9}  # the worked example, seat 3 paying 2 to each
    assert {(p["seat"], p["opponent"]): p.get("swap") for p in body["pairs"]} == {(1, 2): None, (1, 3): 2, (2, 3): 2}
    assert {line["seat"]: line.get("swapped", False) for line in body["seats"]} == {1: False, 2: False, 3: True}
    assert body["hands"]["swaps"] == [{"seat": 3, "gave": "Kd", "took": "Qs"}]
    assert ledger_verify().ok
    report = ledger_replay()
    assert report.ok, report.problems


@pytest.mark.django_db
def test_after_a_live_deal_the_hands_must_hold_what_a_swap_took_and_not_what_it_gave(
    dealer, shift, cp_table, nothing_written
) -> None:
    round_ = _dealt(dealer, cp_table)
    round_swap_record(actor=dealer, round=round_, seat=1, gave="2s", took="Kd")
    with nothing_written(round_), pytest.raises(ApplicationError, match="Seat 1 took K♦ in the swap"):
        round_hands_record(actor=dealer, round=round_, hands={"seats": SEED_EXAMPLE})
    holds_given = {**SEED_EXAMPLE, "1": {**SEED_EXAMPLE["1"], "front": "8s 8h Kd"}, "3": {**SEED_EXAMPLE["3"]}}
    holds_given["3"]["front"] = "2s Tc 5h"  # the two of spades went back among the undealt cards
    with nothing_written(round_), pytest.raises(ApplicationError, match="Seat 3 holds 2♠, which seat 1 gave"):
        round_hands_record(actor=dealer, round=round_, hands={"seats": holds_given})


@pytest.mark.django_db
def test_a_later_swap_may_take_a_card_an_earlier_one_gave_but_not_one_it_took(dealer, shift, cp_table) -> None:
    round_ = _dealt(dealer, cp_table)
    round_swap_record(actor=dealer, round=round_, seat=1, gave="2s", took="Kd")
    with pytest.raises(ApplicationError, match="K♦ is not among the undealt cards: seat 1 took it"):
        round_swap_record(actor=dealer, round=round_, seat=2, gave="3s", took="Kd")
    with pytest.raises(ApplicationError, match="2♠ is not in the hand: an earlier swap left it"):
        round_swap_record(actor=dealer, round=round_, seat=2, gave="2s", took="4h")
    round_swap_record(actor=dealer, round=round_, seat=2, gave="3s", took="2s")
    assert [s["seat"] for s in Round.objects.get(pk=round_.pk).hands["swaps"]] == [1, 2]


# --- the swap, system deal ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_with_the_system_deal_swaps_run_in_order_against_the_undealt_cards_and_settle_as_the_engine_says(
    dealer, shift, cp_table
) -> None:
    round_ = _dealt(dealer, cp_table, auto=True)
    dealt = Round.objects.get(pk=round_.pk).dealt
    undealt = [c for c in deck(joker=False) if c not in {c for h in dealt.values() for c in parse_cards(h)}]
    first, second = sorted(dealt)[:2]
    give = parse_cards(dealt[first])[:2]
    round_swap_record(actor=dealer, round=round_, seat=int(first), gave=cards_text(give), took=cards_text(undealt[:2]))
    # The second swap is against the undealt cards as the first left them: it may take what seat `first` gave.
    give2 = parse_cards(dealt[second])[:1]
    round_swap_record(actor=dealer, round=round_, seat=int(second), gave=cards_text(give2), took=cards_text(give[:1]))
    after = dict(dealt)
    after[first] = cards_text((*parse_cards(dealt[first])[2:], *undealt[:2]))
    after[second] = cards_text((*parse_cards(dealt[second])[1:], give[0]))
    stored = Round.objects.get(pk=round_.pk)
    hands = dealt_hands_set(game="chinese_poker", snapshot=stored.rule_set_snapshot, dealt=after, bank_position=None)
    # The hands as dealt (before the swaps) are refused: they are not what the seats hold now.
    as_dealt = dealt_hands_set(game="chinese_poker", snapshot=stored.rule_set_snapshot, dealt=dealt, bank_position=None)
    with pytest.raises(ApplicationError, match=r"Seat [12] was dealt"):
        round_hands_record(actor=dealer, round=round_, hands=as_dealt)
    round_hands_record(actor=dealer, round=round_, hands=hands)
    body = settle_round(round=round_, actor=dealer, idempotency_key="swap-auto")
    arrangements = {
        int(seat): chinese_poker.Arrangement.parse(h["front"], h["middle"], h["back"])
        for seat, h in hands["seats"].items()
    }
    expected = chinese_poker.score(arrangements, swapped={int(first), int(second)})
    assert _points(body) == expected.totals
    assert {line["seat"]: line["net_cents"] for line in body["seats"]} == {
        s: p * VALUE for s, p in expected.totals.items()
    }
    report = ledger_replay()
    assert report.ok, report.problems


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("gave", "took", "message"),
    [
        ("hand:0", "undealt:0 undealt:1", "1 cards given but 2 taken"),
        ("undealt:0", "undealt:1", "is not in the hand"),
        ("hand:0", "hand:1", "is not among the undealt cards"),
        ("", "", "a swap gives at least one card"),
        ("Jk", "undealt:0", "without the joker"),
        ("Zz", "undealt:0", "cards given"),
    ],
)
def test_a_system_deal_swap_of_cards_not_held_or_not_undealt_is_refused_and_nothing_is_written(
    dealer, shift, cp_table, nothing_written, gave, took, message
) -> None:
    round_ = _dealt(dealer, cp_table, auto=True)
    dealt = Round.objects.get(pk=round_.pk).dealt
    hand = parse_cards(dealt["1"])
    undealt = [c for c in deck(joker=False) if c not in {c for h in dealt.values() for c in parse_cards(h)}]

    def cards(spec: str) -> str:
        named = {"hand": hand, "undealt": undealt}
        return " ".join(
            cards_text([named[t.split(":")[0]][int(t.split(":")[1])]]) if ":" in t else t for t in spec.split()
        )

    with nothing_written(round_), pytest.raises(ApplicationError, match=message):
        round_swap_record(actor=dealer, round=round_, seat=1, gave=cards(gave), took=cards(took))


# --- the swap's refusals -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_seat_swaps_once(dealer, shift, cp_table, nothing_written) -> None:
    round_ = _dealt(dealer, cp_table)
    round_swap_record(actor=dealer, round=round_, seat=2, gave="Kd", took="Ks")
    with nothing_written(round_), pytest.raises(ApplicationError, match="Seat 2 has already swapped"):
        round_swap_record(actor=dealer, round=round_, seat=2, gave="5h", took="5s")


@pytest.mark.django_db
@pytest.mark.parametrize("seats", [(1, 2), (1, 2, 3, 4)])
def test_the_swap_needs_exactly_three_players(dealer, shift, cp_table, nothing_written, seats) -> None:
    round_ = _dealt(dealer, cp_table, seats=seats)
    with (
        nothing_written(round_),
        pytest.raises(ApplicationError, match=f"exactly three players; this round has {len(seats)}"),
    ):
        round_swap_record(actor=dealer, round=round_, seat=1, gave="Kd", took="Ks")


@pytest.mark.django_db
def test_the_swap_is_refused_where_the_rules_do_not_allow_it(
    dealer, shift, make_table, cp_rules, nothing_written
) -> None:
    table = make_table(
        name="CP-NS", game="chinese_poker", seat_count=4, rule_set=cp_rules("CP no swap", swap_allowed=False)
    )
    round_ = _dealt(dealer, table)
    with nothing_written(round_), pytest.raises(ApplicationError, match="does not allow the swap"):
        round_swap_record(actor=dealer, round=round_, seat=1, gave="Kd", took="Ks")


@pytest.mark.django_db
def test_the_swap_is_made_after_the_deal_and_before_the_hands(dealer, shift, cp_table, nothing_written) -> None:
    round_ = round_open(actor=dealer, table=cp_table)
    for seat in (1, 2, 3):
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=VALUE)
    with nothing_written(round_), pytest.raises(WrongState, match="after the deal, before the hands"):
        round_swap_record(actor=dealer, round=round_, seat=1, gave="Kd", took="Ks")
    round_close_betting(actor=dealer, round=round_)
    round_deal(actor=dealer, round=round_, dice=[1, 2, 3])
    round_hands_record(actor=dealer, round=round_, hands={"seats": SEED_EXAMPLE})
    with nothing_written(round_), pytest.raises(WrongState, match="the hands are revealed"):
        round_swap_record(actor=dealer, round=round_, seat=1, gave="Kd", took="Ks")


@pytest.mark.django_db
def test_swaps_in_the_hands_that_differ_from_those_recorded_are_refused(
    dealer, shift, cp_table, nothing_written
) -> None:
    round_ = _dealt(dealer, cp_table)
    round_swap_record(actor=dealer, round=round_, seat=3, gave="Kd", took="Qs")
    forged = {
        "seats": SEED_EXAMPLE,
        "swaps": [{"seat": 3, "gave": "Kd", "took": "Qs"}, {"seat": 1, "gave": "2s", "took": "4h"}],
    }
    with nothing_written(round_), pytest.raises(ApplicationError, match="recorded one at a time"):
        round_hands_record(actor=dealer, round=round_, hands=forged)


@pytest.mark.django_db
def test_a_swap_by_a_dealer_of_another_table_is_refused(shift, cp_table, make_user, nothing_written) -> None:  # type: ignore[no-untyped-def]
    from casino.errors import NotAllowed
    from casino.roles import Role

    other = make_user("olly_other", Role.DEALER)
    round_ = _dealt(cp_table.dealer, cp_table)
    with nothing_written(round_), pytest.raises(NotAllowed):
        round_swap_record(actor=other, round=round_, seat=3, gave="Kd", took="Qs")
