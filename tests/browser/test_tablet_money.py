"""In Chromium at 1024×768: the table's money on the tablet. Dana counts the opener by tapping the chip tray,
Fred (a Floor supervisor) confirms it, Dana asks the cage for a fill and records a buy-in, a double tap recording it
once. The pages run under the site's CSP without one refused script or style, and every control is at least 44×44 px
with 14 px text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tables.models import BuyIn, Slip, TrayCount
from tests.browser.test_tablet_refusals import _too_small

THIN = "\u2009"  # the thousands separator of the ``cents`` filter and of money.js


def _watch_csp(page: Any) -> list[str]:
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security" in message.text else None)
    return violations


def _tap_chips(page: Any, value_cents: int, times: int, *, sign: str = "1") -> None:
    button = page.locator(f'[data-tray-col][data-value="{value_cents}"] [data-tray-step="{sign}"]')
    for _ in range(times):
        button.tap()


@pytest.mark.django_db(transaction=True)
def test_a_dealer_counts_the_opener_by_tapping_a_supervisor_confirms_it_then_a_fill_and_a_buy_in(
    new_page: Callable[..., Any],
    shoot: Callable[..., Any],
    make_table: Callable[..., Any],
    shift: Any,
    house_chips: None,
    dealer: Any,
    floor_supervisor: Any,
) -> None:
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    page = new_page(dealer)
    violations = _watch_csp(page)
    page.goto("/dealer/")
    page.locator("[data-money-link]").tap()
    expect(page.get_by_role("heading", name="Tray counts")).to_be_visible()
    page.get_by_role("link", name="Count the tray").first.tap()

    # Seven columns, one per chip in use, each in its colour; tap to count, and one count typed.
    expect(page.locator("[data-tray-col]")).to_have_count(7)
    expect(page.locator('[data-tray-col][data-value="500"]')).to_have_class("tray-col c-red")
    _tap_chips(page, 2500, 5)
    _tap_chips(page, 2500, 1, sign="-1")
    _tap_chips(page, 10000, 2)
    _tap_chips(page, 100000, 1)
    page.fill("#chip-500", "12")
    expect(page.locator("#chip-2500")).to_have_value("4")
    expect(page.locator('[data-tray-col][data-value="2500"] [data-tray-sub]')).to_have_text("100.00")
    expect(page.locator('[data-tray-col][data-value="2500"] .tray-edge')).to_have_count(4)
    expect(page.locator("[data-tray-total]")).to_have_text(f"1{THIN}360.00")
    assert _too_small(page) == []
    shoot(page, "tablet-tray-count")

    page.get_by_role("button", name="Record opener").tap()
    expect(page.locator("#banner")).to_contain_text(f"The opener of 1{THIN}360.00 is recorded")
    count = TrayCount.objects.get(table=table)
    assert (count.kind, count.status, count.total_cents) == ("opener", "counted", 136_000)
    assert count.counts == {"100": 0, "500": 12, "2500": 4, "10000": 2, "50000": 0, "100000": 1, "500000": 0}
    expect(page.locator(f'[data-count="{count.pk}"]')).to_contain_text("Waiting for a supervisor's confirmation.")
    expect(page.locator("[data-confirm]")).to_have_count(0)  # a dealer does not confirm

    # Fred, a Floor supervisor, confirms it on his own tablet.
    fred = new_page(floor_supervisor)
    fred_violations = _watch_csp(fred)
    fred.goto(f"/dealer/tables/{table.pk}/money/")
    fred.locator("[data-confirm]").tap()
    expect(fred.locator("#banner")).to_contain_text("is confirmed")
    expect(fred.locator(f'[data-count="{count.pk}"]')).to_contain_text("confirmed by fred_floor")
    count.refresh_from_db()
    assert (count.status, count.confirmed_by) == ("confirmed", floor_supervisor)

    # A fill: two 100.00 chips and twenty 25.00 chips from the cage.
    page.get_by_role("link", name="Fill or credit").tap()
    _tap_chips(page, 10000, 2)
    page.fill("#chip-2500", "20")
    expect(page.locator("[data-tray-total]")).to_have_text("700.00")
    page.get_by_role("button", name="Request fill").tap()
    expect(page.locator("#banner")).to_contain_text("Fill slip 1 asks for 700.00")
    slip = Slip.objects.get(table=table)
    assert (slip.kind, slip.number, slip.status, slip.chips) == ("fill", 1, "requested", {"2500": 20, "10000": 2})
    expect(page.locator(f'[data-slip="{slip.pk}"]')).to_contain_text("Waiting for the cage to issue it.")

    # A buy-in at seat 3, 500.00 in cash: a double tap records it once.
    page.locator("#buy-in .pick-radio", has_text="3").tap()
    page.fill("#buy-in-amount", "500.00")
    assert _too_small(page) == []
    page.locator("[data-buy-in]").dblclick()
    expect(page.locator("#banner")).to_contain_text("Seat 3 buys in 500.00 (cash).")
    expect(page.locator("#buy-ins tbody tr")).to_have_count(1)
    assert list(BuyIn.objects.values_list("seat_number", "medium", "amount_cents")) == [(3, "cash", 50_000)]
    assert not violations + fred_violations, violations + fred_violations


@pytest.mark.django_db(transaction=True)
def test_a_refused_count_keeps_what_was_tapped_and_says_why(
    new_page: Callable[..., Any],
    make_table: Callable[..., Any],
    shift: Any,
    house_chips: None,
    dealer: Any,
) -> None:
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    page = new_page(dealer)
    page.goto(f"/dealer/tables/{table.pk}/money/tray/")
    _tap_chips(page, 2500, 3)
    page.fill("#chip-500", "x7")
    expect(page.locator('[data-tray-col][data-value="500"]')).to_have_class("tray-col c-red bad")
    expect(page.locator("[data-tray-why]")).to_contain_text("A count is a whole number of chips")
    page.get_by_role("button", name="Record closer").tap()
    expect(page.locator("#banner .banner.error")).to_contain_text("A count is a whole number of chips")
    expect(page.locator("#chip-2500")).to_have_value("3")
    expect(page.locator("#chip-500")).to_have_value("x7")
    expect(page.locator("[data-tray-total]")).to_have_text("75.00")
    assert not TrayCount.objects.exists()
