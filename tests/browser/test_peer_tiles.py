"""The tiles' peer variant at a table (GAME_RULES.md §1, "Peer variant", Czech seed) in Chromium at 1024×768: the pit
boss turns a tiles table to it from the table's set-up, and the dealer plays a round by touch: no banker, two to four
players at equal stakes (an unequal wager refused), each player against each, settled and replayed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.models import Posting
from ledger.verify import ledger_verify
from rounds.models import Round
from settlement.replay import ledger_replay
from tables.models import Table
from tests.browser.test_dealer_tablet import _open_tablet, _settle, _tap_hands, _tap_text

SHOTS = Path("/tmp/shots/cp_peer")
# rules.games.paigow_tiles.peer_results's example: seat 1 (Teens, Day and nine) beats seat 2 (Yun-Tit, Gor-Look)
# on both hands; seat 3 (the Gee Joon pair over Mooy-Ping) wins one hand against each: draws.
HANDS = {
    1: {"high": "6-6 6-6", "low": "1-1 5-4"},
    2: {"high": "4-4 6-1", "low": "3-1 5-1"},
    3: {"high": "4-2 2-1", "low": "5-5 6-4"},
}


@pytest.mark.django_db(transaction=True)
def test_a_pit_boss_sets_up_a_peer_table_and_a_dealer_plays_a_round_each_against_each(
    new_page: Callable[..., Any],
    shoot: Callable[..., Any],
    make_table: Callable[..., Any],
    shift: Any,
    dealer: Any,
    pit_boss: Any,
) -> None:
    table = make_table(name="PGT-7", game="paigow_tiles", seat_count=7)
    boss = new_page(pit_boss)
    boss.goto(f"/pit/tables/{table.pk}/setup/")
    boss.locator("[data-play-peer]").click()
    expect(boss.locator(".pit-message.success")).to_contain_text("plays the peer variant from its next round")
    expect(boss.locator("[data-peer-playing]")).to_be_visible()
    boss.screenshot(path=str(SHOTS / "peer-setup.png"), full_page=True)
    assert Table.objects.get(pk=table.pk).rule_set.options["mode"] == "peer"

    page = _open_tablet(new_page, dealer)
    expect(page.locator(".tb-rules")).to_contain_text("peer variant: each player against each, equal stakes")
    expect(page.locator(".tb-bank")).to_contain_text("No bank")
    _tap_text(page, "Open round")
    expect(page.locator("[data-bank-pick]")).to_have_count(0)  # nobody banks
    # Seat 1 wagers 25.00; seat 2's 50.00 is refused: equal stakes.
    page.locator('[data-seat-pick="1"]').tap()
    page.locator('[data-chip="2500"]').first.tap()
    page.locator("[data-chip-submit]").tap()
    expect(page.locator('[data-seat-pick="1"]')).to_be_disabled()
    page.locator('[data-seat-pick="2"]').tap()
    page.locator('[data-chip="2500"]').first.tap()
    page.locator('[data-chip="2500"]').first.tap()
    page.locator("[data-chip-submit]").tap()
    expect(page.locator("#banner")).to_contain_text("equal stakes: seat 1 wagers 25.00")
    _tap_text(page, "Clear")
    page.locator('[data-seat-pick="2"]').tap()
    page.locator('[data-chip="2500"]').first.tap()
    page.locator("[data-chip-submit]").tap()
    expect(page.locator('[data-seat-pick="2"]')).to_be_disabled()
    page.locator('[data-seat-pick="3"]').tap()
    page.locator('[data-chip="2500"]').first.tap()
    page.locator("[data-chip-submit]").tap()
    expect(page.locator('[data-seat-pick="3"]')).to_be_disabled()
    page.locator("[data-close-betting]").tap()
    expect(page.locator("[data-state-label]")).to_have_text("Betting closed")
    for pad, face in zip(page.locator("[data-die-pad]").all(), (3, 4, 5), strict=True):
        pad.locator(f'[data-face="{face}"]').tap()
    _tap_text(page, "Record dice")
    expect(page.locator("[data-state-label]")).to_have_text("Dealt")
    expect(page.locator('[data-group="bank"]')).to_have_count(0)  # no banker's hand to enter
    _tap_hands(page, HANDS)
    expect(page.locator("#live-preview")).to_contain_text("Score sheet preview")
    _tap_text(page, "Reveal hands")
    expect(page.locator("[data-state-label]")).to_have_text("Hands revealed")
    _settle(page)
    expect(page.locator('[data-pair="1-2"]')).to_contain_text("Seat 2 pays seat 1")
    expect(page.locator('[data-pair="1-3"]')).to_contain_text("even")
    expect(page.locator("#result h2")).to_have_text("Score sheet")
    expect(page.locator('[data-seat-row="1"] .face.tile')).to_have_count(4)  # the tiles drawn as tiles
    page.locator(".table-bar").scroll_into_view_if_needed()
    shoot(page, "peer-tiles")
    round_ = Round.objects.get(table=table)
    result = Posting.objects.get(round_id=round_.pk, kind="settlement").result
    assert {s["seat"]: s["net_cents"] for s in result["seats"]} == {1: 2500, 2: -2500, 3: 0}
    assert result["bank"] is None and result["house"]["total_cents"] == 0
    assert ledger_verify().ok
    report = ledger_replay()
    assert report.ok, report.problems
