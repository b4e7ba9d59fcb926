"""In Chromium: a tablet shows another device's change within seconds, without a reload, and never wipes
what its dealer has entered; Back and Forward never show a finished round as current.

Dana has her table's tablet open on two devices; Paula approves a void on the pit dashboard.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from settlement.services import settle_round
from tests.browser.test_dealer_tablet import _open_tablet, _tap_text, _wager

SOON = 5_000  # the tablet polls every 3 s


def _mark_no_reload(page: Any) -> None:
    page.evaluate("window.__sameDocument = true")


def _not_reloaded(page: Any) -> None:
    assert page.evaluate("window.__sameDocument === true")


@pytest.mark.django_db(transaction=True)
def test_a_second_devices_wager_and_a_void_approved_on_the_dashboard_appear_without_a_reload(
    new_page: Callable[..., Any],
    shoot: Callable[..., Any],
    make_table: Callable[..., Any],
    shift: Any,
    dealer: Any,
    pit_boss: Any,
) -> None:
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    first = _open_tablet(new_page, dealer)
    _tap_text(first, "Open round")
    _mark_no_reload(first)
    second = _open_tablet(new_page, dealer)
    _wager(second, 4, (25,))
    expect(first.locator('[data-ring-seat="4"] .seat-wager')).to_have_text("25.00", timeout=SOON)
    _not_reloaded(first)
    # The dealer asks for a void on the first tablet; Paula approves it on the dashboard.
    first.locator("summary", has_text="Request a void").tap()
    _tap_text(first, "Misdeal")
    _tap_text(first, "Send to the pit boss")
    expect(first.locator("#pending")).to_contain_text("Void requested: waiting for a supervisor")
    expect(first.locator("[data-close-betting]")).to_be_disabled()  # the round is on hold
    _mark_no_reload(first)
    pit = new_page(pit_boss)
    pit.goto("/pit/")
    pit.locator(".alert-request .btn-approve").tap()
    expect(pit.locator(f"#table-{table.pk} .t-round")).to_contain_text("voided")
    expect(first.locator("[data-state-label]")).to_have_text("Voided", timeout=SOON)
    _not_reloaded(first)
    shoot(first, "tablet_live_voided")


@pytest.mark.django_db(transaction=True)
def test_a_change_elsewhere_never_wipes_the_cards_a_dealer_is_entering(
    new_page: Callable[..., Any], shoot: Callable[..., Any], make_table: Callable[..., Any], shift: Any, dealer: Any
) -> None:
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    round_ = round_open(actor=dealer, table=table)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=2500)
    page = _open_tablet(new_page, dealer)
    page.locator('[data-seat-pick="2"]').tap()
    page.locator('[data-chip="500"]').tap()  # 5.00 tapped in, not sent
    wager_place(actor=dealer, round=round_, seat=3, amount_cents=1000)  # the other device
    stale = page.locator("[data-stale]")
    expect(stale).to_be_visible(timeout=SOON)
    expect(stale).to_contain_text("This round changed on another device")
    expect(page.locator(".wager-form [data-amount]")).to_have_value("500")  # still there
    shoot(page, "tablet_live_changed_elsewhere")
    stale.get_by_role("button", name="Reload").tap()
    expect(page.locator('[data-ring-seat="3"] .seat-wager')).to_have_text("10.00")
    expect(page.locator("[data-stale]")).to_be_hidden()


@pytest.mark.django_db(transaction=True)
def test_back_and_forward_never_show_a_settled_round_as_current(
    new_page: Callable[..., Any], make_table: Callable[..., Any], shift: Any, dealer: Any
) -> None:
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    round_ = round_open(actor=dealer, table=table)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=2500)
    round_close_betting(actor=dealer, round=round_)
    round_deal(actor=dealer, round=round_, dice=[3, 5, 6])
    bank = {"cards": "Qs Qd 8s 5d 3c Jh Jc"}
    round_hands_record(
        actor=dealer, round=round_, hands={"banker": bank, "seats": {"1": {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"}}}
    )
    page = _open_tablet(new_page, dealer)
    expect(page.locator("[data-state-label]")).to_have_text("Hands revealed")
    page.goto("/api/docs/")
    settle_round(round=round_, actor=dealer, idempotency_key="other-device-1")  # settled on another device
    page.go_back()
    # At once, not after the next poll: the page is asked for again, never restored from memory.
    expect(page.locator("[data-state-label]")).to_have_text("Settled", timeout=1_500)
    expect(page.locator("[data-settle]")).to_have_count(0)
    page.go_forward()
    page.go_back()
    expect(page.locator("[data-state-label]")).to_have_text("Settled", timeout=1_500)
