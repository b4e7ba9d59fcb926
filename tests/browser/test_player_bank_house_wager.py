"""A player-banked Pai Gow Poker round on the tablet with the house's wager (GAME_RULES.md §2).

Seat 3 wagered 25.00 in the round before (the house banked it); now seat 3 banks 100.00 and the house
wagers that last bet against the bank. The dealer taps seat 1's hand, the bank's setting and the house's
seven cards, which the house way sets (aces high, kings low): the house wins both hands against the bank's
queens over jacks and is paid 25.00 (the house pays no commission to itself); seat 1 loses 10.00 to the
bank. The pit's round history shows the house's entries against the bank, and the ledger verifies and
replays.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.models import Posting
from ledger.verify import ledger_verify
from rounds.models import HouseWager, Round
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from rules.services import rule_set_create
from settlement.replay import ledger_replay
from settlement.services import settle_round

SHOTS = Path("/tmp/shots/house_wager")
BANK_HIGH, BANK_LOW = "Qs Qd 8s 5d 3c", "Jh Jc"  # seat 3's bank: queens over jacks
HOUSE_CARDS = "As Ad 7s 4d 2c Kh Kc"  # the house way: aces high, kings low
SEAT_1 = {"high": "Ts Td 9h 6c 4h", "low": "9d 2d"}  # tens and nine-deuce: loses both to the bank


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _tap_into(page: Any, field: str, items: str) -> None:
    page.locator(f'[data-name="{field}"] .t-label').tap()
    for item in items.split():
        page.locator(f'[data-picker] [data-pick="{item}"]').tap()


@pytest.mark.django_db(transaction=True)
def test_a_player_bank_plays_against_the_house_wager_on_the_tablet_and_the_ledger_shows_it(
    new_page: Callable[..., Any],
    shoot: Callable[..., Any],
    make_table: Callable[..., Any],
    shift: Any,
    dealer: Any,
    pit_boss: Any,
) -> None:
    rules = rule_set_create(
        actor=pit_boss, name="PGP players bank", game="paigow_poker", banking_mode="player_rotation"
    )
    table = make_table(name="PGP-R", game="paigow_poker", seat_count=6, rule_set=rules)
    # Round 1, the house banks: seat 3 bets 25.00 (its last bet) and loses it.
    first = round_open(actor=dealer, table=table)
    wager_place(actor=dealer, round=first, seat=3, amount_cents=2500)
    round_close_betting(actor=dealer, round=first)
    round_deal(actor=dealer, round=first, dice=[1, 1, 1])
    hands = {"banker": {"cards": "Qh Qc 8h 5c 3s Js Jd"}, "seats": {"3": SEAT_1}}
    round_hands_record(actor=dealer, round=first, hands=hands)
    settle_round(round=first, actor=dealer, idempotency_key="round-1")

    page = new_page(dealer)
    page.goto(f"/dealer/tables/{table.pk}/")
    # Seat 3 takes the bank for 100.00: the house wagers seat 3's last bet against it.
    page.locator('[data-bank-pick="3"]').tap()
    page.locator('[data-bank-amount] [data-chip="10000"]').tap()
    page.get_by_role("button", name="Open round", exact=True).tap()
    expect(page.locator("[data-state-label]")).to_have_text("Betting open")
    expect(page.locator("#banner")).to_contain_text("The house wagers 25.00 against the bank (seat 3's last bet).")
    expect(page.locator("[data-house-wager]")).to_contain_text("seat 3's last bet (round 1)")
    _shot(page, "1-betting-open")
    page.locator('[data-seat-pick="1"]').tap()
    for _ in range(2):  # two 5s: 10.00
        page.locator('[data-chip="500"]').first.tap()
    page.locator("[data-chip-submit]").tap()
    expect(page.locator('[data-seat-pick="1"]')).to_be_disabled()
    # A double tap on Close betting closes it once (the second tap is refused or finds it closed).
    page.locator("[data-close-betting]").dblclick()
    expect(page.locator("[data-state-label]")).to_have_text("Betting closed")
    for pad in page.locator("[data-die-pad]").all():
        pad.locator('[data-face="1"]').tap()
    page.get_by_role("button", name="Record dice", exact=True).tap()
    expect(page.locator("[data-state-label]")).to_have_text("Dealt")
    # The house's position: its wager, its place in the action order (the dice's 3: seat 1, then the dealer).
    house = page.locator('[data-group="house"]')
    expect(house.locator(".pos-wager")).to_have_text("25.00")
    expect(house.locator(".order")).to_have_text("2")
    _tap_into(page, "hand-bank-high", BANK_HIGH)
    _tap_into(page, "hand-bank-low", BANK_LOW)
    _tap_into(page, "hand-house-cards", HOUSE_CARDS)
    _tap_into(page, "hand-1-high", SEAT_1["high"])
    _tap_into(page, "hand-1-low", SEAT_1["low"])
    expect(page.locator("#values-house")).to_contain_text("House way")
    expect(page.locator("#live-preview [data-house-row]")).to_contain_text("Win")
    _shot(page, "2-hands")
    page.get_by_role("button", name="Reveal hands", exact=True).tap()
    expect(page.locator("[data-state-label]")).to_have_text("Hands revealed")
    row = page.locator("#result [data-house-row]")
    expect(row).to_contain_text("Win")
    expect(row.locator(".num").last).to_have_text("+25.00")
    shoot(page, "pgp-house-wager")
    _shot(page, "3-revealed")
    page.locator("[data-settle]").dblclick()  # a double tap settles once (one idempotency key per preview)
    expect(page.locator("[data-state-label]")).to_have_text("Settled")
    expect(page.locator("[data-house-total]")).to_have_text("+25.00")
    expect(page.locator("[data-house-wager-won]")).to_have_text("+25.00")
    _shot(page, "4-settled")

    round_ = Round.objects.get(table=table, number=2)
    assert HouseWager.objects.get(round=round_).amount_cents == 2500
    assert Posting.objects.filter(round_id=round_.pk, kind="settlement").count() == 1
    result = Posting.objects.get(round_id=round_.pk, kind="settlement").result
    assert (result["house_wager"]["outcome"], result["house_wager"]["net_cents"]) == ("win", 2500)
    assert (result["bank"]["won_cents"], result["bank"]["net_cents"]) == (-1500, -1500)

    # The pit's round history: the house's wager and its win against seat 3's bank, entry by entry.
    pit = new_page(pit_boss)
    pit.goto(f"/pit/tables/{table.pk}/")
    latest = pit.locator("article").first
    expect(latest.locator("[data-house-wager-row]")).to_contain_text("win")
    ledger = latest.locator("table.ledger")
    expect(ledger).to_contain_text("house bank")
    expect(ledger).to_contain_text("-25.00")  # the house's chips to the layout, and the bank's payout
    expect(ledger).to_contain_text("player bank")
    _shot(pit, "5-pit-ledger")
    report = ledger_verify()
    assert report.ok, report.problems
    replay = ledger_replay()
    assert replay.ok, replay.problems
