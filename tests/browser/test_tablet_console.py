"""The tablet's taps leave nothing in the browser's console: Advice, the entry and its preview (an Advice tap
inherited the hands form's hx-disabled-elt and logged an htmx error every time)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_dealer_tablet import TILES_BANK, TILES_WIN, _open_tablet, _play_to_dealt, _tap_hands


@pytest.mark.django_db(transaction=True)
def test_tapping_advice_logs_no_error_in_the_console(
    new_page: Callable[..., Any], make_table: Callable[..., Any], shift: Any, dealer: Any
) -> None:
    make_table(name="PG-1", game="paigow_tiles", seat_count=7)
    page = _open_tablet(new_page, dealer)
    logged: list[str] = []
    page.on("console", lambda message: message.type in ("error", "warning") and logged.append(message.text))
    page.on("pageerror", lambda error: logged.append(str(error)))
    _play_to_dealt(page, {2: (25,), 5: (5, 5)}, (1, 2, 4))
    _tap_hands(page, {2: TILES_WIN}, bank=("hand-bank-tiles", TILES_BANK))
    page.locator('[data-advice="2"]').tap()
    expect(page.locator("#advice-2 .advice-table")).to_contain_text("house way")
    page.wait_for_timeout(300)
    assert logged == []
