"""The gaming-day page and a table's set-up page in Chromium at tablet size: a supervisor opens the gaming
day and its shift by tapping, sees a round still being played keep the shift open, and sets a table's limits.

Takes the screenshots docs/screenshots/day.png and table_setup.png.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from casino.models import Shift
from rounds.services import round_open, wager_place
from tables.models import Table


def _fits(page: Any) -> None:
    """Nothing wider than the screen: no sideways scrolling at 1024 px."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.django_db(transaction=True)
def test_the_pit_boss_runs_the_day_and_sets_up_a_table_by_tapping(
    new_page: Callable[..., Any], shoot: Callable[[Any, str], Any], pit_boss: User, dealer: User, make_table
) -> None:  # type: ignore[no-untyped-def]
    table: Table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    page = new_page(pit_boss)

    page.goto("/pit/")
    page.get_by_role("link", name="Open a shift").click()
    page.get_by_role("button", name="Open gaming day").click()
    expect(page.get_by_text("is open: open its first shift")).to_be_visible()
    page.fill("#shift-name", "Day")
    page.get_by_role("button", name="Open shift").click()
    expect(page.get_by_text("The Day shift is open: rounds can be played.")).to_be_visible()

    round_ = round_open(actor=dealer, table=table)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=10000)
    page.reload()
    page.get_by_text("Close shift").click()
    page.get_by_role("button", name="Yes, close it").click()
    expect(page.locator("#day-error")).to_contain_text("Table PGP-1 round 1 is still being played")
    assert Shift.objects.get().closed_at is None
    expect(page.get_by_role("link", name="Table PGP-1, round 1")).to_be_visible()
    _fits(page)
    shoot(page, "day")

    page.goto(f"/pit/tables/{table.pk}/setup/")
    page.fill("#id_min_wager", "600.00")
    page.get_by_role("button", name="Save set-up").click()
    expect(page.get_by_text("The maximum wager (500.00) is below the minimum (600.00).")).to_be_visible()
    expect(page.locator("#id_min_wager")).to_have_value("600.00")
    page.fill("#id_min_wager", "25.00")
    page.fill("#id_big_win", "2500")
    page.get_by_role("button", name="Save set-up").click()
    expect(page.get_by_text("Table PGP-1 is set up.")).to_be_visible()
    expect(page.locator("#id_big_win")).to_have_value("2\u2009500.00")
    assert Table.objects.get(pk=table.pk).min_wager_cents == 2500
    page.fill("#id_max_wager", "10.00")  # a refusal on screen, for the screenshot
    page.get_by_role("button", name="Save set-up").click()
    expect(page.get_by_text("The maximum wager (10.00) is below the minimum (25.00).")).to_be_visible()
    _fits(page)
    shoot(page, "table_setup")
