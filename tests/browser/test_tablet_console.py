"""The tablet's taps leave nothing in the browser's console: Advice, the entry and its preview (an Advice tap
inherited the hands form's hx-disabled-elt and logged an htmx error every time; a tap made while the preview was
still on its way aborted that request, and htmx logs every abort as an error)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_dealer_tablet import (
    TILES_BANK,
    TILES_WIN,
    _open_tablet,
    _play_to_dealt,
    _tap_hands,
    _tap_into,
)
from tests.browser.waiting import wait_until


def _tiles_tablet_logging(
    new_page: Callable[..., Any], make_table: Callable[..., Any], dealer: Any
) -> tuple[Any, list[str]]:
    """A tiles table's tablet, and the list its console's errors and warnings and its page errors are logged into."""
    make_table(name="PG-1", game="paigow_tiles", seat_count=7)
    page = _open_tablet(new_page, dealer)
    logged: list[str] = []
    page.on("console", lambda message: message.type in ("error", "warning") and logged.append(message.text))
    page.on("pageerror", lambda error: logged.append(str(error)))
    return page, logged


@pytest.mark.django_db(transaction=True)
def test_tapping_advice_logs_no_error_in_the_console(
    new_page: Callable[..., Any], make_table: Callable[..., Any], shift: Any, dealer: Any
) -> None:
    page, logged = _tiles_tablet_logging(new_page, make_table, dealer)
    _play_to_dealt(page, {2: (25,), 5: (5, 5)}, (1, 2, 4))
    _tap_hands(page, {2: TILES_WIN}, bank=("hand-bank-tiles", TILES_BANK))
    page.locator('[data-advice="2"]').tap()
    expect(page.locator("#advice-2 .advice-table")).to_contain_text("house way")
    page.wait_for_timeout(300)
    assert logged == []


@pytest.mark.django_db(transaction=True)
def test_a_tap_while_the_preview_is_on_its_way_waits_for_it_and_the_last_hands_are_previewed(
    new_page: Callable[..., Any], make_table: Callable[..., Any], shift: Any, dealer: Any
) -> None:
    page, logged = _tiles_tablet_logging(new_page, make_table, dealer)
    _play_to_dealt(page, {2: (25,)}, (1, 2, 4))
    held: list[Any] = []
    sent: list[str] = []

    def hold_the_first(route: Any) -> None:
        sent.append(route.request.url)
        if held:
            route.continue_()
        else:
            held.append(route)  # a slow network: the first preview stays on its way until released

    page.route("**/preview/", hold_the_first)
    _tap_into(page, "hand-bank-tiles", TILES_BANK)
    wait_until(page, lambda: bool(held), "the first tap sent no preview")
    _tap_hands(page, {2: TILES_WIN})  # the dealer goes on tapping while that preview is still out
    page.wait_for_timeout(600)  # past the preview's 120 ms delay: the later taps have asked for their preview
    assert logged == []  # nothing aborted
    assert len(sent) == 1  # the later taps wait for the one on its way, rather than cutting it off
    held[0].continue_()
    expect(page.locator("#live-preview")).to_contain_text("Settlement preview")  # the last hands, all in
    assert len(sent) == 2  # every tap made while waiting is previewed once, by the last one
    page.wait_for_timeout(300)
    assert logged == []
