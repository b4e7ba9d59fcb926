"""A whole gaming day from the screens, in Chromium at 1024×768.

Paula, the Pit boss, opens the gaming day and its Day shift and sets PGP-1 up (limits, dealer, big-win alert);
Dana deals two rounds' worth of work on her tablet: a hand written past the picker (a tablet out of step) is
refused in the banner and every card stays; she settles, then asks for a correction of seat 2's hand; Fred, a
Floor supervisor, reviews it beside the hands as settled and approves it. Paula closes the shift: its report
reconciles with the dashboard and with the money worked out by hand below. A Swing shift opens and plays.

The money, by hand (Pai Gow Poker, the house banks, players pay 5% commission on a win):
  seat 1, 50.00 on aces-and-kings against the house's queens-and-jacks: wins 50.00, pays 2.50 → +47.50
  seat 2, 25.00: first entered as tens and a nine-high (a loss, −25.00), corrected to kings and an
  eight-high (kings beat queens, eight-high loses to jacks: a push, 0.00)
  players +47.50, the house −50.00, commission +2.50: the ledger sums to zero.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from casino.models import GamingDay, Shift
from ledger.models import Posting
from rounds.models import Adjustment, Round
from settlement.models import ShiftReport
from tables.models import Table
from tables.services import table_create, table_open
from tests.browser.test_dealer_tablet import _open_tablet, _tap_hands, _tap_into, _tap_text, _wager

BANK = "Qs Qd 8s 5d 3c Jh Jc"  # the house way: queens high, jacks low
SEAT_1 = {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"}
SEAT_2_ENTERED = {"high": "Ts Th 9c 6d 2h", "low": "9h 8d"}
SEAT_2_REALLY = {"high": "Ks Kd 9s 6d 3d", "low": "8h 7c"}


def _entered(page: Any) -> dict[str, str]:
    return page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('#hands-form input[name^=hand-]')]"
        ".map(i => [i.name, i.value]))"
    )


def _kpi(page: Any, label: str) -> str:
    return page.locator(".kpi", has_text=label).locator(".kpi-value").inner_text().strip()


def _take_back(page: Any, field: str, count: int) -> None:
    for _ in range(count):
        page.locator(f'[data-name="{field}"] .slot.placed').first.tap()
    expect(page.locator(f'[data-name="{field}"] .slot.placed')).to_have_count(0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_celery")
def test_a_whole_gaming_day_from_the_screens(
    new_page: Callable[..., Any],
    shoot: Callable[..., Any],
    pit: Any,
    pit_boss: Any,
    floor_supervisor: Any,
    dealer: Any,
) -> None:
    table = table_open(
        actor=pit_boss,
        table=table_create(
            actor=pit_boss,
            pit=pit,
            name="PGP-1",
            game="paigow_poker",
            min_wager_cents=1000,
            max_wager_cents=50000,
            seat_count=6,
        ),
    )
    assert not GamingDay.objects.exists()

    # --- Paula opens the gaming day and its first shift --------------------------------------------------
    boss = new_page(pit_boss)
    boss.goto("/pit/day/")
    boss.fill("#business-date", "2026-11-24")
    boss.get_by_role("button", name="Open gaming day").click()
    expect(boss.locator("#gaming-day")).to_contain_text("Gaming day 2026-11-24")
    boss.fill("#shift-name", "Day")
    boss.get_by_role("button", name="Open shift").click()
    expect(boss.locator("#open-shift")).to_contain_text("The Day shift is open")
    day_shift = Shift.objects.get(closed_at__isnull=True)
    assert (day_shift.gaming_day.business_date, day_shift.name) == (dt.date(2026, 11, 24), "Day")

    # --- and sets the table up: limits, its dealer, the big-win alert ---------------------------------------
    boss.goto(f"/pit/tables/{table.pk}/setup/")
    boss.fill("input[name=min_wager]", "25.00")
    boss.fill("input[name=max_wager]", "1000.00")
    boss.select_option("select[name=dealer]", str(dealer.pk))
    boss.fill("input[name=big_win]", "500.00")
    boss.get_by_role("button", name="Save set-up").click()
    expect(boss.get_by_role("status")).to_contain_text("Table PGP-1 is set up")
    table = Table.objects.get(pk=table.pk)
    assert (table.min_wager_cents, table.max_wager_cents, table.dealer, table.big_win_cents) == (
        2500,
        100000,
        dealer,
        50000,
    )

    # --- Dana plays the first round; a refused hand keeps every card ----------------------------------------
    tablet = _open_tablet(new_page, dealer)
    _tap_text(tablet, "Open round")
    _wager(tablet, 1, (25, 25))
    _wager(tablet, 2, (25,))
    tablet.locator("[data-close-betting]").tap()
    expect(tablet.locator("[data-state-label]")).to_have_text("Betting closed")
    for pad, face in zip(tablet.locator("[data-die-pad]").all(), (2, 4, 6), strict=True):
        pad.locator(f'[data-face="{face}"]').tap()
    _tap_text(tablet, "Record dice")
    expect(tablet.locator("[data-state-label]")).to_have_text("Dealt")
    _tap_into(tablet, "hand-bank-cards", BANK)
    _tap_hands(tablet, {1: SEAT_1, 2: SEAT_2_ENTERED})
    expect(tablet.get_by_role("button", name="Reveal hands")).to_be_enabled()
    # Seat 2's low hand arrives as 9h A♠ (a tablet out of step with the picker): the server refuses it.
    tablet.evaluate("document.querySelector('input[name=hand-2-low]').value = '9h As'")
    entered = _entered(tablet)
    tablet.get_by_role("button", name="Reveal hands").tap()
    expect(tablet.locator("#banner")).to_contain_text("A♠ is used 2 times")
    expect(tablet.locator(".table-bar")).to_be_visible()
    assert _entered(tablet) == entered
    tablet.evaluate("document.querySelector('input[name=hand-2-low]').value = '9h 8d'")
    tablet.get_by_role("button", name="Reveal hands").tap()
    expect(tablet.locator("[data-state-label]")).to_have_text("Hands revealed")
    tablet.locator("[data-settle]").tap()
    expect(tablet.locator("[data-state-label]")).to_have_text("Settled")
    first = Round.objects.get(table=table)
    assert first.shift == day_shift

    # --- Dana asks for a correction: seat 2 really held kings and an eight-high -----------------------------
    tablet.locator("details.correction > summary").tap()
    _take_back(tablet, "hand-2-high", 5)
    _take_back(tablet, "hand-2-low", 2)
    _tap_hands(tablet, {2: SEAT_2_REALLY})
    tablet.fill("#correction-reason", "Seat 2 keyed wrong: kings and an eight-high")
    tablet.locator("[data-entry-submit]").tap()
    expect(tablet.locator("body")).to_contain_text("Correction requested: waiting for a supervisor")
    asked = Adjustment.objects.get(round=first, status="pending")
    assert asked.hands["seats"]["2"] == SEAT_2_REALLY

    # --- Fred reviews it on the dashboard and approves it ------------------------------------------------------
    fred = new_page(floor_supervisor)
    fred.goto("/pit/")
    fred.locator(f"#adjustment-{asked.pk}").get_by_role("link", name="Review and decide").click()
    expect(fred.locator('table.hands tr[data-position="2"].changed')).to_have_count(2)
    expect(fred.locator('tr[data-party="seat-2"]')).to_contain_text("+25.00")
    shoot(fred, "gaming_day_correction_review")
    fred.fill("#note", "Checked the camera")
    fred.get_by_role("button", name="Approve").click()
    expect(fred.locator('[data-status="approved"]')).to_contain_text("approved · fred_floor")
    settled = Posting.objects.get(round_id=first.pk, kind="settlement", reversed_by__isnull=True)
    nets = {line["seat"]: line["net_cents"] for line in settled.result["seats"]}
    assert nets == {1: 4750, 2: 0}

    # --- Paula reads the dashboard and closes the shift: the report says what the dashboard said -------------
    boss.goto("/pit/")
    players_on_the_dashboard = _kpi(boss, "Players")
    assert players_on_the_dashboard == "+47.50"
    boss.goto("/pit/day/")
    expect(boss.locator("#open-shift")).to_contain_text("it can close")
    boss.locator("#open-shift summary", has_text="Close shift").click()
    boss.get_by_role("button", name="Yes, close it").click()
    expect(boss.locator("#next-shift")).to_contain_text("No shift is open")
    shoot(boss, "gaming_day_between_shifts")
    report = ShiftReport.objects.get(shift=day_shift, kind="shift")
    assert report.status == "ready"
    floor = report.data["floor"]
    assert (floor["player_cents"], floor["house_cents"], floor["commission_cents"]) == (4750, -5000, 250)
    assert (
        sum(floor[key] for key in ("player_cents", "house_cents", "commission_cents", "rake_cents", "banker_cents"))
        == 0
    )
    assert f"+{floor['player_cents'] / 100:.2f}" == players_on_the_dashboard

    # --- a second shift opens, and the table plays in it ----------------------------------------------------------
    boss.fill("#shift-name", "Swing")
    boss.get_by_role("button", name="Open shift").click()
    expect(boss.locator("#open-shift")).to_contain_text("The Swing shift is open")
    swing = Shift.objects.get(closed_at__isnull=True)
    tablet.goto("/dealer/")
    _tap_text(tablet, "Open round")
    _wager(tablet, 1, (25,))
    tablet.locator("[data-close-betting]").tap()
    expect(tablet.locator("[data-state-label]")).to_have_text("Betting closed")
    for pad, face in zip(tablet.locator("[data-die-pad]").all(), (1, 1, 1), strict=True):
        pad.locator(f'[data-face="{face}"]').tap()
    _tap_text(tablet, "Record dice")
    _tap_into(tablet, "hand-bank-cards", BANK)
    _tap_hands(tablet, {1: SEAT_1})
    tablet.get_by_role("button", name="Reveal hands").tap()
    tablet.locator("[data-settle]").tap()
    expect(tablet.locator("[data-state-label]")).to_have_text("Settled")
    second = Round.objects.get(table=table, number=2)
    assert (second.shift, second.state) == (swing, "settled")
