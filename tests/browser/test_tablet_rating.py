"""In Chromium at 1024×768: rated players on the tablet. Dana swipes Mr Lee's card (1001) at PGP-1, seats him
at seat 3 with the chips he brought (a double tap seats him once), sends him on a break and back, moves him to seat 4
of PGP-2, then ends his session there with what he walked with. The tablet's strip says who is rated at which seat;
the pages run under the site's CSP without one refused script or style, and every control is at least 44×44 px with
14 px text.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from players.models import RatingPause, RatingSeat, RatingSession
from players.services import player_create, session_pause, session_start
from tests.browser.test_tablet_refusals import _too_small


def _watch_csp(page: Any) -> list[str]:
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security" in message.text else None)
    return violations


def _row(page: Any, seat: int) -> Any:
    return page.locator(f'#rated [data-rated-seat="{seat}"]')


@pytest.mark.django_db(transaction=True)
def test_a_dealer_seats_a_player_by_card_sends_him_on_a_break_moves_him_and_ends_his_session(
    new_page: Callable[..., Any],
    shoot: Callable[..., Any],
    make_table: Callable[..., Any],
    shift: Any,
    dealer: Any,
) -> None:
    first = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    second = make_table(name="PGP-2", game="paigow_poker", seat_count=6)
    lee = player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")
    wong = player_create(actor=dealer, name="Ms Wong", card_number="2002", tier="Silver")
    session_pause(actor=dealer, session=session_start(actor=dealer, player=wong, table=second, seat=1))
    anonymous = player_create(actor=dealer, tier="Bronze", anonymous=True)
    session_start(actor=dealer, player=anonymous, table=second, seat=6)
    player_create(actor=dealer, name="Mrs Chan", card_number="3003", tier="Platinum")
    # An evening's play so far at PGP-2: Ms Wong 45 minutes before her break, the anonymous player 1 h 20 min.
    RatingSession.objects.filter(player=wong).update(seconds_played=45 * 60)
    RatingSession.objects.filter(player=anonymous).update(running_since=timezone.now() - dt.timedelta(minutes=80))

    page = new_page(dealer)
    violations = _watch_csp(page)
    page.goto(f"/dealer/tables/{first.pk}/")
    expect(page.locator("[data-rating-strip]")).to_contain_text("No rated player at this table.")
    page.locator("[data-players-link]").tap()
    expect(page.get_by_role("heading", name="Rated players at PGP-1")).to_be_visible()

    # The card swiped (a reader types it, then Enter): the one player found is picked.
    page.fill("#player-search", "1001")
    page.press("#player-search", "Enter")
    expect(page.locator("[data-found]")).to_have_count(1)
    expect(page.locator(f'[data-found="{lee.pk}"] input')).to_be_checked()
    page.locator("#seat-form .pick-radio", has_text="3").tap()
    page.fill("#seat-chips", "500")
    assert _too_small(page) == []
    page.locator("[data-seat]").dblclick()
    expect(page.locator("#banner")).to_contain_text("Mr Lee (Gold) is rated at seat 3. Chips brought: 500.00.")
    expect(_row(page, 3)).to_contain_text("Mr Lee")
    expect(_row(page, 3)).to_contain_text("Gold")
    expect(_row(page, 3).locator("[data-status-label]")).to_have_text("playing")
    session = RatingSession.objects.get(player=lee)
    assert (session.chips_in_cents, RatingSession.objects.count()) == (50_000, 3)

    # A break, and back.
    _row(page, 3).locator("[data-break]").tap()
    expect(page.locator("#banner")).to_contain_text("Mr Lee at seat 3 is on a break.")
    expect(_row(page, 3).locator("[data-status-label]")).to_have_text("on a break")
    _row(page, 3).locator("[data-back]").tap()
    expect(page.locator("#banner")).to_contain_text("Mr Lee at seat 3 is back.")
    expect(_row(page, 3).locator("[data-status-label]")).to_have_text("playing")
    assert RatingPause.objects.filter(session=session).exclude(ended_at=None).count() == 1

    # The tablet's strip shows him at seat 3.
    page.get_by_role("link", name="Back to the tablet").tap()
    expect(page.locator('[data-rating-strip] [data-rated-seat="3"]')).to_contain_text("Mr Lee")
    assert _too_small(page) == []
    page.locator("[data-players-link]").tap()

    # A move to seat 4 of PGP-2 (seats 1 and 6 there are rated: not offered).
    _row(page, 3).locator("summary", has_text="Move").tap()
    options = _row(page, 3).locator("[data-move-to] option").all_text_contents()
    assert "PGP-2, seat 4" in options and "PGP-2, seat 1" not in options and "PGP-1, seat 3" not in options
    _row(page, 3).locator("[data-move-to]").select_option(label="PGP-2, seat 4")
    _row(page, 3).locator("[data-move]").tap()
    expect(page.locator("#banner")).to_contain_text("Mr Lee moves to table PGP-2, seat 4.")
    expect(page.locator("#rated [data-rated-seat]")).to_have_count(0)

    # At PGP-2: the end, with what he walked with.
    page.goto(f"/dealer/tables/{second.pk}/")
    strip = page.locator("[data-rating-strip]")
    expect(strip.locator("[data-rated-seat]")).to_have_count(3)
    expect(strip.locator('[data-rated-seat="1"]')).to_contain_text("on a break")
    expect(strip.locator('[data-rated-seat="6"]')).to_contain_text(f"anonymous player {anonymous.pk}")
    page.locator("[data-players-link]").tap()
    page.fill("#player-search", "m")
    page.press("#player-search", "Enter")
    expect(page.locator(f'[data-found="{lee.pk}"]')).to_contain_text("in a session at PGP-2, seat 4")
    expect(page.locator(f'[data-found="{lee.pk}"] input')).to_be_disabled()
    page.locator("#seat-form .found-player", has_text="Mrs Chan").tap()
    _row(page, 4).locator("summary", has_text="End").tap()
    _row(page, 4).locator("input[name=walk_with]").fill("250.50")
    assert _too_small(page) == []
    shoot(page, "tablet-rating")
    _row(page, 4).locator("[data-end]").tap()
    expect(page.locator("#banner")).to_contain_text("Mr Lee leaves seat 4 with 250.50: the session has ended.")
    expect(page.locator("#rated [data-rated-seat]")).to_have_count(2)
    session.refresh_from_db()
    assert (session.status, session.walk_with_cents) == ("ended", 25_050)
    assert list(RatingSeat.objects.filter(session=session).values_list("table__name", "seat_number")) == [
        ("PGP-1", 3),
        ("PGP-2", 4),
    ]
    assert not violations, violations
