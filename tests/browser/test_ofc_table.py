"""Open-Face at the table on the tablet, by touch: the dealer button, placing in turn, Fantasyland.

Round 1: seats 1 and 2 play street by street in turn, the button on seat 2 (the highest seat
in play at the table's first round), so seat 1 acts first; seat 1 sets queens in front. Round 2:
the button moves to seat 1, seat 2 acts first, and seat 1, in Fantasyland, receives 14 cards at
once, sets 13 (trips in front) and discards one, while seat 2 goes on street by street. Both
rounds settle, and the ledger verifies and replays.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.models import Posting
from ledger.verify import ledger_verify
from rounds.models import Round
from rules.games import ofc_table
from rules.services import rule_set_create
from settlement.replay import ledger_replay

SHOTS = Path("/tmp/shots/ofc")

QUEENS = ("Qs Qd 2c", "Kc Kh 7d 7s 2h", "Ac Ad Ah 3s 3d")  # QQ in front: Fantasyland next round
LOW = ("4s 5d 6c", "9c 9h Jd Ts 2d", "Kd Ks 8c 8d 4h")
TRIPS = ("7c 7d 7h", "8s 8h 8d 2s 2d", "Ac Ad Ah 3s 3d")  # set in Fantasyland: trips in front
BESIDE_TRIPS = ("4c 5d 6c", "9c 9h Jd Ts 2c", "Kd Ks Qc Qd 4h")
DISCARD = "5h"


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".table-bar").scroll_into_view_if_needed()  # the sticky banner back at the top of the page
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _tap_text(page: Any, text: str) -> None:
    page.get_by_role("button", name=text, exact=True).tap()


def _tap_into(page: Any, field: str, items: str) -> None:
    page.locator(f'[data-name="{field}"] .t-label').tap()
    for item in items.split():
        page.locator(f'[data-picker] [data-pick="{item}"]').tap()


def _wager(page: Any, seat: int) -> None:
    page.locator(f'[data-seat-pick="{seat}"]').tap()
    for _ in range(2):
        page.locator('[data-chip="500"]').first.tap()
    page.locator("[data-chip-submit]").tap()
    expect(page.locator(f'[data-seat-pick="{seat}"]')).to_be_disabled()


def _to_dealt(page: Any) -> None:
    _tap_text(page, "Open round")
    expect(page.locator("[data-state-label]")).to_have_text("Betting open")
    for seat in (1, 2):
        _wager(page, seat)
    page.locator("[data-close-betting]").tap()
    expect(page.locator("[data-state-label]")).to_have_text("Betting closed")
    for pad, face in zip(page.locator("[data-die-pad]").all(), (2, 3, 4), strict=True):
        pad.locator(f'[data-face="{face}"]').tap()
    _tap_text(page, "Record dice")
    expect(page.locator("[data-state-label]")).to_have_text("Dealt")


def _streets(board: tuple[str, str, str]) -> list[dict[str, str]]:
    front, middle, back = (row.split() for row in board)
    return [{"back": " ".join(back)}] + [{"front": c} for c in front] + [{"middle": c} for c in middle]


def _expect_turn(page: Any, turn: ofc_table.Turn) -> None:
    expect(page.locator(".how h2")).to_have_text(f"Street {turn.street}")
    expect(page.locator("[data-turn-now]")).to_have_attribute("data-turn-now", str(turn.seat))
    expect(page.locator(f'[data-ring-seat="{turn.seat}"]')).to_have_class(re.compile(r"\bseat has-wager to-act\b"))
    expect(page.locator(f'[data-group="{turn.seat}"]')).to_have_attribute("data-turn", "acting")


def _play(  # type: ignore[no-untyped-def]
    page: Any, order: tuple[int, ...], boards: dict[int, tuple[str, str, str]], fantasyland=(), shot=None
) -> None:
    streets = {seat: _streets(board) for seat, board in boards.items()}
    for turn in ofc_table.turn_sequence(order, fantasyland=fantasyland):
        _expect_turn(page, turn)
        other = next(seat for seat in order if seat != turn.seat)
        expect(page.locator(f'[data-group="{other}"]')).to_have_attribute("data-turn", re.compile("waiting|done"))
        if turn.seat in fantasyland:
            expect(page.locator(f'[data-group="{turn.seat}"] [data-fantasyland]')).to_be_visible()
            for row, cards in zip(("front", "middle", "back"), boards[turn.seat], strict=True):
                _tap_into(page, f"hand-{turn.seat}-{row}", cards)
            _tap_into(page, f"hand-{turn.seat}-discard", DISCARD)
            _shot(page, "fantasyland-set")
        else:
            for row, cards in streets[turn.seat].pop(0).items():
                _tap_into(page, f"hand-{turn.seat}-{row}", cards)
        if shot is not None and turn.street == 2 and turn.seat == order[0]:
            shot(page)
        _tap_text(page, "Place this street")
        if turn.street == 1 and turn.seat == order[0] and not fantasyland:
            # The next seat's rows take no card before its turn: tapping them does nothing.
            expect(page.locator(f'[data-group="{turn.seat}"]')).to_have_attribute("data-turn", "waiting")
    expect(page.locator("[data-state-label]")).to_have_text("Hands revealed")


@pytest.mark.django_db(transaction=True)
def test_an_ofc_table_plays_in_turn_from_the_button_then_deals_fantasyland(
    new_page: Callable[..., Any], shoot: Callable[..., Any], make_table: Callable[..., Any], shift: Any, dealer: Any,
    pit_boss: Any,
) -> None:  # fmt: skip
    rules = rule_set_create(actor=pit_boss, name="OFC Fantasyland", game="ofc", fantasyland=True)
    table = make_table(name="OFC-FL", game="ofc", seat_count=3, rule_set=rules)
    page = new_page(dealer)
    page.goto("/dealer/")
    expect(page.locator(".table-bar")).to_contain_text("Fantasyland")

    # Round 1: the button on seat 2, seat 1 first.
    _to_dealt(page)
    expect(page.locator('[data-ring-seat="2"] [data-button]')).to_have_text("D")
    expect(page.locator("[data-button]")).to_have_count(1)
    _shot(page, "round1-dealt")

    def docs_shot(page: Any) -> None:
        _shot(page, "round1-street2")  # scrolled to the top
        shoot(page, "ofc-table-turn")

    _play(page, (1, 2), {1: QUEENS, 2: LOW}, shot=docs_shot)
    page.locator("[data-settle]").tap()
    expect(page.locator("[data-state-label]")).to_have_text("Settled")
    _shot(page, "round1-settled")

    # Round 2: the button moves to seat 1; seat 1, in Fantasyland, sets 13 of 14 cards at once.
    _to_dealt(page)
    expect(page.locator('[data-ring-seat="1"] [data-button]')).to_have_text("D")
    _play(page, (2, 1), {1: TRIPS, 2: BESIDE_TRIPS}, fantasyland=(1,))
    _shot(page, "round2-revealed")
    page.locator("[data-settle]").tap()
    expect(page.locator("[data-state-label]")).to_have_text("Settled")
    expect(page.locator("[data-fantasyland-row]")).to_have_count(1)  # seat 1's line on the score sheet
    _shot(page, "round2-settled")

    first, second = Round.objects.filter(table=table).order_by("number")
    assert (first.action_order, second.action_order) == ([1, 2], [2, 1])
    assert second.hands["fantasyland"] == {"1": DISCARD}
    assert second.hands["turns"][:3] == [[2, 5], [1, 13], [2, 1]]
    assert Posting.objects.filter(round_id__in=table.rounds.values("pk"), kind="settlement").count() == 2
    assert ledger_verify().ok and ledger_replay().ok
