"""In Chromium at 1024×768: a refusal shows in the tablet's banner and every card, tile and amount entered
stays on screen; Reveal waits until every hand is complete; every control is at least 44×44 px with 14 px text.

The refusals are forced past the tablet's own checks (a duplicate card written into a hand, a wager above the
limit written into the chip pad, a stale CSRF token), as a tablet out of step with the server would send them.
DEBUG is on, as in ``make demo``: django-htmx then draws any 400 or 403 over the whole page, which is the bug.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from rounds.models import Round
from tests.browser.test_dealer_tablet import _open_tablet, _tap_into, _tap_text, _wager

BANK = "Qs Qd 8s 5d 3c Jh Jc"
SEATS = {
    1: {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"},
    2: {"high": "Ts Th 9c 6d 2h", "low": "9h 8d"},
    3: {"high": "4s 4h 6c 7c 8c", "low": "2s 3h"},
}

# Every visible control: at least 44×44 px, and every piece of text in it at least 14 px (measured, not read
# from the style sheet).
TOO_SMALL_JS = """
() => {
  const bad = [];
  const controls = document.querySelectorAll('button, summary, a, [role=button], input[type=text]');
  for (const el of controls) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    const name = (el.getAttribute('data-pick') || el.getAttribute('data-name') || el.textContent || el.className)
      .trim().slice(0, 30);
    if (r.width < 44 || r.height < 44) bad.push(`${name}: ${Math.round(r.width)}×${Math.round(r.height)} px`);
    for (const node of [el, ...el.querySelectorAll('*')]) {
      const own = [...node.childNodes].some(c => c.nodeType === 3 && c.textContent.trim());
      const size = parseFloat(getComputedStyle(node).fontSize);
      if (own && size < 14) bad.push(`${name}: text ${size} px`);
    }
  }
  return bad;
}
"""


def _too_small(page: Any) -> list[str]:
    return page.evaluate(TOO_SMALL_JS)


def _to_dealt(page: Any) -> None:
    _tap_text(page, "Open round")
    for seat in SEATS:
        _wager(page, seat, (25,))
    page.locator("[data-close-betting]").tap()
    expect(page.locator("[data-state-label]")).to_have_text("Betting closed")
    for pad, face in zip(page.locator("[data-die-pad]").all(), (3, 5, 6), strict=True):
        pad.locator(f'[data-face="{face}"]').tap()
    _tap_text(page, "Record dice")
    expect(page.locator("[data-state-label]")).to_have_text("Dealt")


def _entered(page: Any) -> dict[str, str]:
    return page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('#hands-form input[name^=hand-]')]"
        ".map(i => [i.name, i.value]))"
    )


@pytest.fixture
def debug_on(settings: Any) -> None:
    settings.DEBUG = True


@pytest.mark.django_db(transaction=True)
def test_reveal_waits_for_the_28th_card_and_a_refusal_keeps_every_card_on_screen(
    debug_on: None,
    new_page: Callable[..., Any],
    shoot: Callable[..., Any],
    make_table: Callable[..., Any],
    shift: Any,
    dealer: Any,
) -> None:
    make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    page = _open_tablet(new_page, dealer)
    _to_dealt(page)
    _tap_into(page, "hand-bank-cards", BANK)
    for seat, hand in SEATS.items():
        for part, cards in hand.items():
            _tap_into(page, f"hand-{seat}-{part}", cards if (seat, part) != (3, "low") else cards.split()[0])
    # 27 of 28: Reveal waits, saying what is missing.
    expect(page.locator("[data-count]")).to_have_text("27 / 28")
    expect(page.get_by_role("button", name="Reveal hands")).to_be_disabled()
    expect(page.locator("[data-missing]")).to_have_text("Seat 3: low hand needs 1 more card")
    assert _too_small(page) == []
    shoot(page, "tablet_reveal_waits")
    # The 28th card; then a duplicate written past the picker (a tablet out of step): the server refuses it.
    page.locator('[data-picker] [data-pick="3h"]').tap()
    expect(page.get_by_role("button", name="Reveal hands")).to_be_enabled()
    expect(page.locator("[data-missing]")).to_be_hidden()
    page.evaluate("document.querySelector('input[name=hand-3-low]').value = '2s As'")
    entered = _entered(page)
    page.get_by_role("button", name="Reveal hands").tap()
    banner = page.locator("#banner")
    expect(banner).to_contain_text("Refused:")
    expect(banner).to_contain_text("A♠ is used 2 times")
    expect(page.locator(".table-bar")).to_be_visible()  # the tablet, not a bare line of text
    expect(page.locator("[data-state-label]")).to_have_text("Dealt")
    assert _entered(page) == entered  # every card entered is still there
    expect(banner).to_be_in_viewport()  # brought into view where it stands, in the page, over nothing
    shoot(page, "tablet_refused_in_banner")
    assert Round.objects.get().state == "dealt"


@pytest.mark.django_db(transaction=True)
def test_a_wager_above_the_limit_sent_past_the_chip_pad_is_refused_in_the_banner_keeping_the_amount(
    debug_on: None, new_page: Callable[..., Any], make_table: Callable[..., Any], shift: Any, dealer: Any
) -> None:
    make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    page = _open_tablet(new_page, dealer)
    _tap_text(page, "Open round")
    page.locator('[data-seat-pick="2"]').tap()
    page.locator('[data-chip="2500"]').tap()
    assert _too_small(page) == []
    page.evaluate(
        "() => { const f = document.querySelector('.wager-form');"
        " f.querySelector('[data-amount]').value = '60000'; f.querySelector('[data-chip-submit]').disabled = false; }"
    )
    page.locator("[data-chip-submit]").tap()
    expect(page.locator("#banner")).to_contain_text("A wager at table PGP-1 is 10.00 to 500.00, not 600.00.")
    expect(page.locator('[data-seat-pick="2"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".wager-form [data-amount]")).to_have_value("60000")
    assert not Round.objects.get().wagers.exists()


@pytest.mark.django_db(transaction=True)
def test_a_stale_csrf_token_is_said_in_the_banner_and_the_cards_stay(
    debug_on: None, new_page: Callable[..., Any], make_table: Callable[..., Any], shift: Any, dealer: Any
) -> None:
    make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    page = _open_tablet(new_page, dealer)
    _to_dealt(page)
    _tap_into(page, "hand-1-high", "As Ad 7s")
    entered = _entered(page)
    # Signed in again elsewhere: this page's token is no longer the session's.
    page.evaluate(
        "() => { document.body.setAttribute('hx-headers', '{\"X-CSRFToken\": \"stale\"}');"
        " document.querySelectorAll('input[name=csrfmiddlewaretoken]').forEach(i => i.value = 'stale'); }"
    )
    page.evaluate("document.querySelector('[data-entry-submit]').disabled = false")
    page.get_by_role("button", name="Reveal hands").tap()
    expect(page.locator("#banner")).to_contain_text("you are signed out, or this page is out of date")
    expect(page.locator(".table-bar")).to_be_visible()
    assert _entered(page) == entered


@pytest.mark.django_db(transaction=True)
def test_while_the_server_cannot_reach_its_database_the_entries_stay_and_the_retried_settle_settles_once(
    new_page: Callable[..., Any], shoot: Callable[..., Any], make_table: Callable[..., Any], shift: Any, dealer: Any
) -> None:
    """The first answer to Reveal and to Settle is the server's 503 with ``Retry-After: 1`` (what a request gets
    while the database restarts: tests/faults/test_database_down.py); the tablet says so, keeps every card, and sends
    the same request again by itself: the round is revealed, then settled, once."""
    from ledger.models import Posting

    make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    page = _open_tablet(new_page, dealer)
    _to_dealt(page)
    _tap_into(page, "hand-bank-cards", BANK)
    for seat, hand in SEATS.items():
        for part, cards in hand.items():
            _tap_into(page, f"hand-{seat}-{part}", cards)
    entered = _entered(page)
    down = {"hands": 1, "settle": 1}  # the first request to each is met by a server without its database
    sent: dict[str, int] = {"hands": 0, "settle": 0}

    def database_down(what: str) -> Callable[[Any], None]:
        def answer(route: Any) -> None:
            sent[what] += 1
            if down[what]:
                down[what] -= 1
                route.fulfill(
                    status=503,
                    headers={"Retry-After": "1", "Content-Type": "text/html; charset=utf-8"},
                    body="<p>The server cannot reach its database.</p>",
                )
            else:
                route.continue_()

        return answer

    page.route("**/dealer/rounds/*/hands/", database_down("hands"))
    page.route("**/dealer/rounds/*/settle/", database_down("settle"))
    page.get_by_role("button", name="Reveal hands").tap()
    banner = page.locator("#banner")
    expect(banner).to_contain_text("The server cannot reach its database: nothing was recorded")
    assert _entered(page) == entered  # every card still there
    shoot(page, "tablet_database_unreachable")
    expect(page.locator("[data-state-label]")).to_have_text("Hands revealed", timeout=10_000)  # sent again by itself
    page.locator("[data-settle]").tap()
    expect(banner).to_contain_text("The server cannot reach its database")
    expect(page.locator("[data-state-label]")).to_have_text("Settled", timeout=10_000)
    assert sent == {"hands": 2, "settle": 2}
    round_ = Round.objects.get()
    assert round_.state == "settled"
    assert Posting.objects.filter(round_id=round_.pk, kind="settlement").count() == 1
