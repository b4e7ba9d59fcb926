"""Entering a round at 1024×768 needs no scrolling, in every game: once dealt, the tablet brings the entry up, and the
grid and the hand being filled are on the screen together, whichever hand the dealer taps; the status banner sits in
the page, never over it, so it never hides a card or takes a tap meant for a button beneath it.

Takes the screenshots docs/screenshots/tablet-entry-<game>.png (the screen as the dealer sees it, not the whole page).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_dealer_tablet import _open_tablet, _play_to_dealt, _tap_text, _wager

GAMES = [
    # table, game, seats, wagers, dice, the hand tapped last (the furthest down the column)
    ("PGP-1", "paigow_poker", 6, {1: (25,), 3: (5, 5), 5: (25,)}, (3, 5, 6), "hand-5-low"),
    ("PG-1", "paigow_tiles", 7, {2: (25,), 5: (5, 5), 7: (5, 5)}, (1, 2, 4), "hand-7-low"),
    ("CP-1", "chinese_poker", 4, {1: (5, 5), 2: (5, 5), 3: (5, 5), 4: (5, 5)}, (2, 3, 4), "hand-4-back"),
    ("OFC-1", "ofc", 3, {1: (5, 5), 2: (5, 5), 3: (5, 5)}, (1, 1, 1), None),
]

ON_SCREEN = """() => {
  const inside = (el) => { const r = el.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth; };
  const picker = document.querySelector('[data-picker]');
  const target = document.querySelector('[data-target].selected');
  return {picker: Boolean(picker) && inside(picker), target: Boolean(target) && inside(target),
          name: target ? target.dataset.name : null};
}"""


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("name", "game", "seats", "wagers", "dice", "last"), GAMES)
def test_the_grid_and_the_hand_being_filled_are_on_screen_together_without_scrolling(
    new_page: Callable[..., Any],
    make_table: Callable[..., Any],
    shift: Any,
    dealer: Any,
    name: str,
    game: str,
    seats: int,
    wagers: dict[int, tuple[int, ...]],
    dice: tuple[int, int, int],
    last: str | None,
) -> None:
    make_table(name=name, game=game, seat_count=seats, min_wager_cents=500)
    page = _open_tablet(new_page, dealer)
    _play_to_dealt(page, wagers, dice)
    expect(page.locator("[data-target].selected")).to_have_count(1)  # the tablet has chosen the first hand to fill
    page.wait_for_function("() => document.querySelector('.entry-grid').getBoundingClientRect().top < 16")

    shown = page.evaluate(ON_SCREEN)  # nothing scrolled by the test: what the dealer sees once dealt
    assert shown["picker"] and shown["target"], shown
    first = shown["name"]
    if last is not None:
        # The hand at the bottom of the column, tapped with the page where it is; Playwright scrolls only the
        # hands' own column to reach it (the page stays), and the grid is still there beside it.
        page.locator(f'[data-name="{last}"] .t-label').tap()
        shown = page.evaluate(ON_SCREEN)
        assert shown["picker"] and shown["target"] and shown["name"] == last, shown
        page.locator("[data-picker] [data-pick]:not([disabled])").first.tap()  # a card or tile into it
        shown = page.evaluate(ON_SCREEN)
        assert shown["picker"] and shown["target"], shown
    assert first
    assert page.evaluate("getComputedStyle(document.getElementById('banner')).position") == "static"
    page.screenshot(path=str(_screens() / f"tablet-entry-{game}.png"))  # the screen, not the whole page


@pytest.mark.django_db(transaction=True)
def test_the_banner_never_takes_the_tap_meant_for_request_a_void_beneath_it(
    new_page: Callable[..., Any], make_table: Callable[..., Any], shift: Any, dealer: Any
) -> None:
    make_table(name="PGP-2", game="paigow_poker", seat_count=6)
    page = _open_tablet(new_page, dealer)
    _tap_text(page, "Open round")
    _wager(page, 2, (25,))
    expect(page.locator("#banner .banner")).to_be_visible()
    page.mouse.wheel(0, 400)
    page.wait_for_timeout(200)
    void = page.locator("summary", has_text="Request a void")
    box = void.bounding_box()
    assert box is not None
    hit = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.closest('summary')?.textContent.trim() ?? null",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert hit is not None and "Request a void" in hit  # the summary itself is under the finger, not the banner


def _screens() -> Any:
    from tests.browser.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
