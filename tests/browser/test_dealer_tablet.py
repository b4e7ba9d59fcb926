"""The dealer tablet in Chromium at 1024×768, by touch: a round of each game played and settled, and a void request.

Every step is a tap (chip pads, dice pads, the card and tile grid, the action
buttons); the hands are the ones whose outcomes the API tests check by hand
(tests/api/test_rounds_api.py), so the money on screen and in the ledger is known.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.models import Posting
from rounds.models import Adjustment, Round

PGP_BANK = "Qs Qd 8s 5d 3c Jh Jc"  # the house way sets queens high, jacks low
PGP_WIN = {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"}
PGP_LOSS = {"high": "Ts Th 9c 6d 2h", "low": "9h 8d"}

TILES_BANK = "4-2 2-1 6-6 6-5"  # the house way: 6-6 4-2 (8 points) high, 6-5 2-1 (7 points) low
TILES_WIN = {"high": "3-3 3-3", "low": "1-1 4-4"}  # pair of Chongs, Day gong

# GAME_RULES.md §3's worked example: seat 2 holds three flushes (a natural, 3 from each); seat 1 beats
# seat 3 2-1 (+2), collects 3 for front trips and pays 3 for seat 3's quads. Totals: -1, +6, -5.
CP_1 = {"front": "8s 8h 8d", "middle": "Kc Qd Jh Ts 9c", "back": "7s 7h 7d Th Td"}
CP_2 = {"front": "9h 5h 4h", "middle": "Kd Jd 9d 6d 2d", "back": "Ks Qs Js 6s 5s"}
CP_3 = {"front": "Qh Tc 5d", "middle": "As Ac 2h 2c 4d", "back": "3s 3h 3d 3c 6h"}

OFC_ANN = [{"back": "Ac Ad Ah", "middle": "Tc Th"}, *({row: c} for row, c in (
    ("front", "2s"), ("front", "3d"), ("front", "4c"), ("middle", "7d"),
    ("middle", "7s"), ("middle", "2h"), ("back", "3s"), ("back", "3h"),
))]  # fmt: skip
OFC_BOB = [{"back": "Kc Kd Kh", "middle": "9c 9h"}, *({row: c} for row, c in (
    ("front", "5s"), ("front", "6d"), ("front", "8c"), ("middle", "Jd"),
    ("middle", "Qs"), ("middle", "2d"), ("back", "Js"), ("back", "Jc"),
))]  # fmt: skip


# --- taps ---------------------------------------------------------------------------------------------


def _open_tablet(new_page: Callable[..., Any], dealer: Any) -> Any:
    page = new_page(dealer)
    page.goto("/dealer/")
    expect(page.locator(".table-bar")).to_be_visible()
    return page


def _tap_text(page: Any, text: str) -> None:
    page.get_by_role("button", name=text, exact=True).tap()


def _wager(page: Any, seat: int, chips: Iterable[int]) -> None:
    """Tap the seat, the chips (in units), then Place; wait for the seat to show its wager."""
    page.locator(f'[data-seat-pick="{seat}"]').tap()
    for chip in chips:
        page.locator(f'[data-chip="{chip * 100}"]').first.tap()
    page.locator("[data-chip-submit]").tap()
    expect(page.locator(f'[data-seat-pick="{seat}"]')).to_be_disabled()


def _play_to_dealt(page: Any, wagers: dict[int, Iterable[int]], dice: tuple[int, int, int]) -> None:
    _tap_text(page, "Open round")
    expect(page.locator("[data-state-label]")).to_have_text("Betting open")
    for seat, chips in wagers.items():
        _wager(page, seat, chips)
    page.locator("[data-close-betting]").tap()
    expect(page.locator("[data-state-label]")).to_have_text("Betting closed")
    for pad, face in zip(page.locator("[data-die-pad]").all(), dice, strict=True):
        pad.locator(f'[data-face="{face}"]').tap()
    expect(page.locator("[data-dice-total]")).to_have_text(str(sum(dice)))
    _tap_text(page, "Record dice")
    expect(page.locator("[data-state-label]")).to_have_text("Dealt")


def _tap_into(page: Any, field: str, items: str) -> None:
    """Select the row ``field`` (by its label, never a placed card), then tap each card or tile of ``items``."""
    page.locator(f'[data-name="{field}"] .t-label').tap()
    for item in items.split():
        page.locator(f'[data-picker] [data-pick="{item}"]').tap()


def _tap_hands(page: Any, seats: dict[int, dict[str, str]], bank: tuple[str, str] | None = None) -> None:
    if bank is not None:
        _tap_into(page, *bank)
    for seat, hand in seats.items():
        for part, items in hand.items():
            _tap_into(page, f"hand-{seat}-{part}", items)


def _settle(page: Any) -> None:
    page.locator("[data-settle]").tap()
    expect(page.locator("[data-state-label]")).to_have_text("Settled")


def _settlement(table: Any) -> Posting:
    round_ = Round.objects.get(table=table)
    assert round_.state == "settled"
    return Posting.objects.get(round_id=round_.pk, kind="settlement")


# --- the games ----------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_dealer_plays_and_settles_a_round_of_pai_gow_poker_by_tapping(
    new_page: Callable[..., Any],
    shoot: Callable[..., Any],
    make_table: Callable[..., Any],
    shift: Any,
    dealer: Any,
    pit_boss: Any,
) -> None:
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    page = _open_tablet(new_page, dealer)
    _tap_text(page, "Open round")
    # The chip pad enforces the limits as the dealer taps: 600.00 is above the 500.00 maximum.
    page.locator('[data-seat-pick="1"]').tap()
    for chip in (500, 100):
        page.locator(f'[data-chip="{chip * 100}"]').tap()
    expect(page.locator("[data-chip-submit]")).to_be_disabled()
    expect(page.locator("[data-why]")).to_have_text("Above the table maximum of 500.00.")
    _tap_text(page, "Clear")
    for chip in (25,):
        page.locator(f'[data-chip="{chip * 100}"]').tap()
    page.locator("[data-chip-submit]").tap()
    expect(page.locator('[data-seat-pick="1"]')).to_be_disabled()
    _wager(page, 3, (5, 5))
    page.locator("[data-close-betting]").tap()
    expect(page.locator("[data-state-label]")).to_have_text("Betting closed")
    for pad, face in zip(page.locator("[data-die-pad]").all(), (3, 5, 6), strict=True):
        pad.locator(f'[data-face="{face}"]').tap()
    _tap_text(page, "Record dice")
    expect(page.locator(".ring .seat-order").first).to_be_visible()  # the action order on the seat ring
    _tap_hands(page, {1: PGP_WIN, 3: PGP_LOSS}, bank=("hand-bank-cards", PGP_BANK))
    expect(page.locator("#values-bank")).to_contain_text("House way")
    expect(page.locator("#values-1")).to_contain_text("pair of kings")
    expect(page.locator("#live-preview")).to_contain_text("Settlement preview")
    _tap_text(page, "Reveal hands")
    expect(page.locator("[data-state-label]")).to_have_text("Hands revealed")
    expect(page.locator("[data-house-rule]")).not_to_be_empty()
    expect(page.locator('[data-seat-row="1"]')).to_contain_text("Win")
    shoot(page, "tablet-paigow-poker")
    _settle(page)
    expect(page.locator("[data-house-total]")).to_have_text("-13.75")
    result = _settlement(table).result
    assert [(s["seat"], s["outcome"], s["net_cents"]) for s in result["seats"]] == [
        (1, "win", 2375),
        (3, "loss", -1000),
    ]
    assert result["house"]["total_cents"] == -1375
    # The pit boss's dashboard shows the round the dealer has just settled.
    pit = new_page(pit_boss)
    pit.goto("/pit/")
    row = pit.locator(f"#table-{table.pk}")
    expect(row.locator(".t-round")).to_contain_text("settled")
    expect(row.locator(".t-players")).to_have_text("+13.75")  # +23.75 and -10.00
    expect(row.locator(".t-take")).to_have_text("1.25")


@pytest.mark.django_db(transaction=True)
def test_a_dealer_plays_and_settles_a_round_of_pai_gow_tiles_by_tapping(
    new_page: Callable[..., Any], shoot: Callable[..., Any], make_table: Callable[..., Any], shift: Any, dealer: Any
) -> None:
    table = make_table(name="PG-1", game="paigow_tiles", seat_count=7)
    page = _open_tablet(new_page, dealer)
    _play_to_dealt(page, {2: (25,), 5: (5, 5)}, (1, 2, 4))
    _tap_hands(page, {2: TILES_WIN, 5: {"high": "5-5 6-4", "low": "3-1 5-1"}}, bank=("hand-bank-tiles", TILES_BANK))
    expect(page.locator('[data-pick="3-3"]')).to_be_disabled()  # both Chongs are used up
    expect(page.locator("#values-bank")).to_contain_text("House way")
    page.locator('[data-advice="2"]').tap()
    expect(page.locator("#advice-2 .advice-table")).to_contain_text("house way")
    expect(page.locator("#live-preview")).to_contain_text("Settlement preview")
    _tap_text(page, "Reveal hands")
    expect(page.locator("[data-state-label]")).to_have_text("Hands revealed")
    expect(page.locator('#result [data-seat-row="2"]')).to_contain_text("Win")
    expect(page.locator('[data-seat-row="5"]')).to_contain_text("Loss")
    shoot(page, "tablet-paigow-tiles")
    _settle(page)
    # Every seat's deal-order badge stays on top: no result chip (a neighbour's, on this crowded ring) covers it.
    page.evaluate("window.scrollTo(0, 0)")
    covered = page.evaluate(
        """() => Array.from(document.querySelectorAll('.ring .seat-order')).filter((badge) => {
             const r = badge.getBoundingClientRect();
             return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) !== badge;
           }).map((badge) => (badge.closest("[data-ring-seat]")?.dataset.ringSeat ?? "dealer"))"""
    )
    assert covered == []
    result = _settlement(table).result
    assert {s["seat"]: s["outcome"] for s in result["seats"]} == {2: "win", 5: "loss"}
    assert result["house"]["bank_won_cents"] == 1000 - 2500


@pytest.mark.django_db(transaction=True)
def test_a_dealer_plays_and_settles_a_round_of_chinese_poker_by_tapping(
    new_page: Callable[..., Any], shoot: Callable[..., Any], make_table: Callable[..., Any], shift: Any, dealer: Any
) -> None:
    table = make_table(name="CP-1", game="chinese_poker", seat_count=4)
    page = _open_tablet(new_page, dealer)
    _play_to_dealt(page, {1: (5, 5), 2: (5, 5), 3: (5, 5)}, (2, 3, 4))
    _tap_hands(page, {1: CP_1, 2: CP_2, 3: CP_3})
    expect(page.locator("#values-2")).to_contain_text("three flushes")
    expect(page.locator("#live-preview")).to_contain_text("Score sheet preview")
    _tap_text(page, "Reveal hands")
    expect(page.locator("[data-state-label]")).to_have_text("Hands revealed")
    _settle(page)
    expect(page.locator("#result")).to_contain_text("Score sheet")
    expect(page.locator('[data-pair="1-2"]')).to_contain_text("Seat 1 pays seat 2")
    shoot(page, "tablet-chinese-poker")
    result = _settlement(table).result
    assert {s["seat"]: s["points"] for s in result["seats"]} == {1: -1, 2: 6, 3: -5}  # GAME_RULES.md §3's example
    assert {s["seat"]: s["net_cents"] for s in result["seats"]} == {1: -1000, 2: 6000, 3: -5000}


@pytest.mark.django_db(transaction=True)
def test_a_dealer_places_an_ofc_round_street_by_street_and_settles_it_by_tapping(
    new_page: Callable[..., Any], shoot: Callable[..., Any], make_table: Callable[..., Any], shift: Any, dealer: Any
) -> None:
    table = make_table(name="OFC-1", game="ofc", seat_count=3)
    page = _open_tablet(new_page, dealer)
    _play_to_dealt(page, {1: (5, 5), 3: (5, 5)}, (1, 1, 1))
    for street, (ann, bob) in enumerate(zip(OFC_ANN, OFC_BOB, strict=True), start=1):
        # In turn from the button (seat 3, the highest seat in play): seat 1, then seat 3.
        for seat, placement in ((1, ann), (3, bob)):
            expect(page.locator(".how h2")).to_have_text(f"Street {street}")
            expect(page.locator("[data-turn-now]")).to_have_attribute("data-turn-now", str(seat))
            _tap_hands(page, {seat: placement})
            _tap_text(page, "Place this street")
    expect(page.locator("[data-state-label]")).to_have_text("Hands revealed")
    expect(page.locator("#result")).to_contain_text("Score sheet preview")
    _settle(page)
    expect(page.locator('[data-pair="1-3"]')).to_contain_text("Seat 3 pays seat 1")
    shoot(page, "tablet-ofc")
    result = _settlement(table).result
    assert {s["seat"]: s["points"] for s in result["seats"]} == {1: 1, 3: -1}
    assert {s["seat"]: s["net_cents"] for s in result["seats"]} == {1: 1000, 3: -1000}


# --- the void request ---------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_void_goes_from_the_tablet_to_approval_on_the_dashboard(
    new_page: Callable[..., Any], make_table: Callable[..., Any], shift: Any, dealer: Any, pit_boss: Any
) -> None:
    table = make_table(name="PGP-2", game="paigow_poker", seat_count=6)
    page = _open_tablet(new_page, dealer)
    _tap_text(page, "Open round")
    _wager(page, 2, (25,))
    page.locator("summary", has_text="Request a void").tap()
    _tap_text(page, "Dice off the table")
    expect(page.locator("[data-reason-input]")).to_have_value("Dice off the table")
    _tap_text(page, "Send to the pit boss")
    expect(page.locator("#pending")).to_contain_text("Void requested: waiting for a supervisor")
    adjustment = Adjustment.objects.get(round__table=table)
    assert (adjustment.kind, adjustment.status, adjustment.reason) == ("void", "pending", "Dice off the table")
    assert adjustment.requested_by == dealer
    pit = new_page(pit_boss)
    pit.goto("/pit/")
    alert = pit.locator(f"#adjustment-{adjustment.pk}")
    expect(alert).to_contain_text("Dice off the table")
    alert.locator(".btn-approve").tap()
    expect(alert).to_have_count(0)
    expect(pit.locator(f"#table-{table.pk} .t-round")).to_contain_text("voided")
    # The tablet, waiting for the decision, finds the round voided.
    expect(page.locator("[data-state-label]")).to_have_text("Voided", timeout=15_000)


@pytest.mark.django_db(transaction=True)
def test_a_german_tablet_speaks_german(
    new_page: Callable[..., Any], shoot: Callable[..., Any], make_table: Callable[..., Any], shift: Any, dealer: Any
) -> None:
    make_table(name="PG-1", game="paigow_tiles", seat_count=7)
    page = new_page(dealer, locale="de-DE")
    page.goto("/dealer/")
    expect(page.locator(".table-bar")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("button", name="Abmelden")).to_be_visible()
    assert "Pai Gow (Steine)" in page.content()
    shoot(page, "tablet-de")
