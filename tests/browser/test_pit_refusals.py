"""The dashboard keeps itself when an answer is not the dashboard ("check every form on the tablet and
the dashboard the same way"), in Chromium at 1024×768 with DEBUG on as in ``make demo`` (django-htmx then draws
any 400 or 403 over the whole page): Fred's Floor supervisor role is taken from him while the dashboard is open;
his Approve is refused, the line above the live region says so, and the dashboard and his note stay."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from casino.roles import Role
from rounds.models import Adjustment
from rounds.services import round_open, wager_place
from settlement.services import adjustment_request


@pytest.mark.django_db(transaction=True)
def test_an_approve_refused_with_a_403_keeps_the_dashboard_and_says_so(
    settings: Any,
    new_page: Callable[..., Any],
    make_table: Callable[..., Any],
    shift: Any,
    dealer: Any,
    floor_supervisor: Any,
) -> None:
    settings.DEBUG = True
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    round_ = round_open(actor=dealer, table=table)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=2500)
    asked = adjustment_request(actor=dealer, round=round_, kind="void", reason="Misdeal")
    page = new_page(floor_supervisor)
    page.goto("/pit/")
    alert = page.locator(f"#adjustment-{asked.pk}")
    alert.locator("input[name=note]").fill("Checked the camera")
    floor_supervisor.groups.remove(*floor_supervisor.groups.filter(name=Role.FLOOR_SUPERVISOR.value))
    alert.get_by_role("button", name="Approve").click()
    expect(page.locator("#pit-problem")).to_be_visible()
    expect(page.locator("#pit-problem")).to_contain_text("Refused: you are signed out, or this page is out of date")
    expect(page.locator("h1")).to_have_text("Pit-boss dashboard")  # the dashboard, not Django's 403 page
    expect(alert.locator("input[name=note]")).to_have_value("Checked the camera")
    assert Adjustment.objects.get(pk=asked.pk).status == "pending"
