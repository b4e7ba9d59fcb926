"""Chinese Poker's surrender and swap at the table (GAME_RULES.md §3), in Chromium at 1024×768, by touch: a round
with a surrender and a round with a swap, each settled with the right points and money, the ledger verified and
replayed (``verify_ledger --replay`` re-derives both from the round's stored hands)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.models import Posting
from ledger.verify import ledger_verify
from rounds.models import Round
from rules.services import rule_set_create
from settlement.replay import ledger_replay
from tests.browser.test_dealer_tablet import (
    CP_1,
    CP_2,
    CP_3,
    _open_tablet,
    _play_to_dealt,
    _settle,
    _tap_hands,
    _tap_text,
)

SHOTS = Path("/tmp/shots/cp_peer")


@pytest.fixture
def cp_table(make_table: Callable[..., Any], pit_boss: Any) -> Any:
    rules = rule_set_create(
        actor=pit_boss, name="CP surrender + swap", game="chinese_poker", surrender_allowed=True, swap_allowed=True
    )
    return make_table(name="CP-9", game="chinese_poker", seat_count=4, rule_set=rules)


def _result(table: Any) -> dict[str, Any]:
    round_ = Round.objects.get(table=table)
    assert round_.state == "settled"
    return Posting.objects.get(round_id=round_.pk, kind="settlement").result  # type: ignore[no-any-return]


@pytest.mark.django_db(transaction=True)
def test_a_seat_surrenders_with_the_hands_and_pays_the_0_2_line(
    new_page: Callable[..., Any], cp_table: Any, shift: Any, dealer: Any
) -> None:
    page = _open_tablet(new_page, dealer)
    expect(page.locator(".tb-rules")).to_contain_text("surrender")
    _play_to_dealt(page, {1: (5, 5), 2: (5, 5), 3: (5, 5)}, (2, 3, 4))
    _tap_hands(page, {1: CP_1, 2: CP_2, 3: CP_3})
    page.locator('input[name="surrender-3"]').check()
    expect(page.locator("#live-preview [data-surrendered]")).to_be_visible()  # the preview follows the tick
    _tap_text(page, "Reveal hands")
    expect(page.locator("[data-state-label]")).to_have_text("Hands revealed")
    _settle(page)
    expect(page.locator('[data-seat-row="3"] [data-surrendered]')).to_be_visible()
    expect(page.locator('[data-pair="1-3"]')).to_contain_text("Seat 3 pays seat 1")
    expect(page.locator('[data-pair="1-3"]')).to_contain_text("surrender +3")
    page.screenshot(path=str(SHOTS / "surrender-settled.png"), full_page=True)
    result = _result(cp_table)
    # 1 v 3 the 0-2 line under 2-4 (3 points); 2 v 3 seat 2's natural (3); 1 v 2 the natural as before.
    assert {s["seat"]: s["points"] for s in result["seats"]} == {1: 0, 2: 6, 3: -6}
    assert {s["seat"]: s["net_cents"] for s in result["seats"]} == {1: 0, 2: 6000, 3: -6000}
    assert ledger_verify().ok
    report = ledger_replay()
    assert report.ok, report.problems


@pytest.mark.django_db(transaction=True)
def test_a_seat_swaps_before_the_hands_and_pays_2_points_to_each_other_player(
    new_page: Callable[..., Any], shoot: Callable[..., Any], cp_table: Any, shift: Any, dealer: Any
) -> None:
    page = _open_tablet(new_page, dealer)
    _play_to_dealt(page, {1: (5, 5), 2: (5, 5), 3: (5, 5)}, (2, 3, 4))
    swap = page.locator("[data-swap]")
    expect(swap).to_be_visible()
    # A card the seat does not give back: refused in the banner, nothing recorded.
    swap.locator("select[name=seat]").select_option("3")
    swap.locator("input[name=gave]").fill("Kh Ah")
    swap.locator("input[name=took]").fill("Qh")
    swap.locator("[data-swap-submit]").tap()
    expect(page.locator("#banner")).to_contain_text("2 cards given but 1 taken")
    # Seat 3 gives the king of hearts (nobody holds it) for the queen of hearts it sets in front.
    swap.locator("input[name=gave]").fill("Kh")
    swap.locator("[data-swap-submit]").tap()
    expect(page.locator('[data-swap-seat="3"]')).to_contain_text("Seat 3 gave Kh, took Qh")
    expect(page.locator("[data-swap] select[name=seat] option")).to_have_count(2)  # seat 3 has swapped
    page.screenshot(path=str(SHOTS / "swap-recorded.png"), full_page=True)
    _tap_hands(page, {1: CP_1, 2: CP_2, 3: CP_3})
    _tap_text(page, "Reveal hands")
    expect(page.locator("[data-state-label]")).to_have_text("Hands revealed")
    _settle(page)
    expect(page.locator('[data-seat-row="3"] [data-swapped]')).to_be_visible()
    expect(page.locator('[data-pair="2-3"]')).to_contain_text("swap +2")
    shoot(page, "cp-swap")
    result = _result(cp_table)
    # GAME_RULES.md §3's worked example (-1, +6, -5), seat 3 paying 2 points to each other player.
    assert {s["seat"]: s["points"] for s in result["seats"]} == {1: 1, 2: 8, 3: -9}
    assert {s["seat"]: s["net_cents"] for s in result["seats"]} == {1: 1000, 2: 8000, 3: -9000}
    assert ledger_verify().ok
    report = ledger_replay()
    assert report.ok, report.problems
