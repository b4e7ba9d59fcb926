"""The pit-boss dashboard in Chromium: a floor of the four games played through the services,
the result of a settled round on the dashboard, and a void asked for by the dealer approved by a tap; the table's
money: the drop recorded, win and hold, fills and credits with one pending, a tray discrepancy, and the
live refresh bringing a new buy-in and a slip received.

Takes the screenshots docs/screenshots/pit-dashboard.png and pit-table-history.png.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from casino.roles import Role
from casino.services import pit_create
from rounds.models import Adjustment, Round
from rounds.services import (
    round_close_betting,
    round_deal,
    round_hands_record,
    round_open,
    round_placements_record,
    wager_place,
)
from rounds.states import RoundState
from rules.services import rule_set_create
from settlement.services import adjustment_request, settle_round
from tables.drop import buy_in_record
from tables.models import Table
from tables.services import table_assign_dealer, table_create, table_open, table_set_big_win
from tables.slips import slip_issue, slip_request, slip_sign
from tables.tray import tray_count_confirm, tray_count_record
from tests.markers import marker_buy_in

# Hands whose outcome the engines' doctests fix (tests/api/test_rounds_api.py).
PGP_HANDS = {
    "banker": {"high": "Qs Qd 8s 5d 3c", "low": "Jh Jc"},
    "seats": {
        "1": {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"},  # wins 25.00, pays 1.25
        "3": {"high": "Ks Kd 9s 6d 3d", "low": "8h 7c"},  # pushes
        "5": {"high": "Ts Td 9h 6c 4h", "low": "9d 2d"},  # loses 50.00
    },
}
PGP_WAGERS = {1: 2500, 3: 1000, 5: 5000}
CP_HANDS = {
    "seats": {
        "1": {"front": "2s 3h 4d", "middle": "Ks Kh Kd 8c 8d", "back": "9s 9h 9d 9c 5c"},
        "2": {"front": "As Kc 7d", "middle": "Qs Qh Jc Js 2c", "back": "8s 7h 6d 5s 4c"},
        "3": {"front": "Jh Jd 3c", "middle": "Th Td 6s 6h 2d", "back": "Ac Ah Ad 7s 7c"},
    }
}
OFC_STREETS = list(
    zip(
        [
            {"back": "Ac Ad Ah", "middle": "Tc Th"},
            *({row: card} for row, card in [("front", "2s"), ("front", "3d"), ("front", "4c"), ("middle", "7d")]),
            *({row: card} for row, card in [("middle", "7s"), ("middle", "2h"), ("back", "3s"), ("back", "3h")]),
        ],
        [
            {"back": "Kc Kd Kh", "middle": "9c 9h"},
            *({row: card} for row, card in [("front", "5s"), ("front", "6d"), ("front", "8c"), ("middle", "Jd")]),
            *({row: card} for row, card in [("middle", "Qs"), ("middle", "2d"), ("back", "Js"), ("back", "Jc")]),
        ],
        strict=True,
    )
)


def _to_dealt(table: Table, dealer: User, wagers: dict[int, int], **bank: Any) -> Round:
    round_ = round_open(actor=dealer, table=table, **bank)
    for seat, amount in wagers.items():
        wager_place(actor=dealer, round=round_, seat=seat, amount_cents=amount)
    round_close_betting(actor=dealer, round=round_)
    return round_


def _settle(round_: Round, dealer: User) -> None:
    settle_round(round=round_, actor=dealer, idempotency_key=f"browser-pit-{round_.pk}")


def _money(table: Table, dealer: User, floor_supervisor: User, cage: User) -> Any:
    """PGP-1's money: left at 3,000.00 and opened at 3,030.00 (30.00 over: a written report), 700.00 bought in,
    a fill of 1,000.00 received and a credit of 100.00 asked for (pending)."""
    for kind, chips in (("closer", {10000: 30}), ("opener", {10000: 30, 500: 6})):
        counted = tray_count_record(actor=dealer, table=table, kind=kind, counts=chips)
        tray_count_confirm(actor=floor_supervisor, count=counted)
    buy_in_record(actor=dealer, table=table, seat=1, medium="cash", amount_cents=50_000)
    marker_buy_in(table=table, seat=5, amount_cents=20_000, asked_by=dealer, issued_by=floor_supervisor)
    fill = slip_issue(actor=cage, slip=slip_request(actor=dealer, table=table, kind="fill", chips={10000: 10}))
    slip_sign(actor=floor_supervisor, slip=slip_sign(actor=dealer, slip=fill))
    return slip_request(actor=dealer, table=table, kind="credit", chips={2500: 4})


@pytest.fixture
def floor(
    pit: Any,
    shift: Any,
    pit_boss: User,
    dealer: User,
    floor_supervisor: User,
    make_user: Callable[..., User],
    make_table: Callable[..., Table],
    house_chips: None,
) -> dict[str, Any]:
    """Two pits, a table of every game and one closed; rounds played through the services; four alerts (a tray
    discrepancy among them) and a credit pending."""
    cage = make_user("cora_cage", Role.CAGE_CASHIER)
    pgp = make_table(name="PGP-1", game="paigow_poker", seat_count=6, max_wager_cents=200000)
    credit = _money(pgp, dealer, floor_supervisor, cage)
    table_set_big_win(actor=pit_boss, table=pgp, big_win_cents=2000)
    pgp_round = _to_dealt(pgp, dealer, PGP_WAGERS)
    round_deal(actor=dealer, round=pgp_round, dice=[3, 5, 6])
    round_hands_record(actor=dealer, round=pgp_round, hands=PGP_HANDS)
    _settle(pgp_round, dealer)
    round_open(actor=dealer, table=pgp)  # round 2: wagers taken, not settled yet
    for seat, amount in {2: 2000, 6: 3000}.items():
        wager_place(actor=dealer, round=Round.objects.get(table=pgp, number=2), seat=seat, amount_cents=amount)

    pgp2 = make_table(name="PGP-2", game="paigow_poker", seat_count=6)
    voidable = _to_dealt(pgp2, dealer, {2: 5000, 4: 2500})
    request = adjustment_request(actor=dealer, round=voidable, kind="void", reason="Card flashed on the deal")

    banks = rule_set_create(
        actor=pit_boss, name="Tiles, players bank", game="paigow_tiles", banking_mode="player_rotation"
    )
    tiles = make_table(
        name="PG-1", game="paigow_tiles", seat_count=7, rule_set=banks, min_wager_cents=2500, max_wager_cents=500000
    )
    for _ in range(2):  # seat 2 banks twice in a row: the bank must pass to seat 1
        round_ = _to_dealt(tiles, dealer, {1: 5000, 4: 10000, 6: 2500}, banker_seat=2, bank_cents=30000)
        round_deal(actor=dealer, round=round_, auto=True, rng=random.Random(round_.number))  # the same every run
        round_hands_record(actor=dealer, round=round_, hands={})  # training: the house way sets every hand
        _settle(round_, dealer)

    poker_room = pit_create(actor=pit_boss, name="Pit 2 · Poker room")

    def poker_table(name: str, game: str, seats: int, rule_set: Any = None) -> Table:
        table = table_create(actor=pit_boss, pit=poker_room, name=name, game=game, min_wager_cents=100,
                             max_wager_cents=10000, seat_count=seats, rule_set=rule_set)  # fmt: skip
        return table_open(actor=pit_boss, table=table_assign_dealer(actor=pit_boss, table=table, dealer=dealer))

    rake = rule_set_create(actor=pit_boss, name="CP rake 5%", game="chinese_poker", options={"rake_bp": 500})
    cp = poker_table("CP-1", "chinese_poker", 4, rake)
    buy_in_record(actor=dealer, table=cp, seat=2, medium="cash", amount_cents=10_000)
    cp_round = _to_dealt(cp, dealer, {1: 1000, 2: 2000, 3: 3000})
    round_deal(actor=dealer, round=cp_round, dice=[2, 4, 5])
    round_hands_record(actor=dealer, round=cp_round, hands=CP_HANDS)
    _settle(cp_round, dealer)

    ofc = poker_table("OFC-1", "ofc", 3)
    ofc_round = _to_dealt(ofc, dealer, {1: 2000, 3: 3000})
    round_deal(actor=dealer, round=ofc_round, dice=[1, 2, 6])
    for ann, bob in OFC_STREETS:
        round_placements_record(actor=dealer, round=ofc_round, placements={"seats": {"1": ann, "3": bob}})
    _settle(ofc_round, dealer)
    round_open(actor=dealer, table=ofc)  # the next round, open for wagers

    make_table(name="PGP-3", game="paigow_poker", seat_count=6, open_it=False)
    return {"pgp": pgp, "pgp2": pgp2, "request": request, "voidable": voidable, "credit": credit, "cage": cage}


@pytest.mark.django_db(transaction=True)
def test_the_pit_boss_sees_the_result_and_approves_a_void_by_tapping(
    new_page: Callable[..., Any],
    shoot: Callable[[Any, str], Any],
    pit_boss: User,
    dealer: User,
    floor_supervisor: User,
    floor: dict[str, Any],
) -> None:
    page = new_page(pit_boss)
    page.goto("/pit/")
    pgp_row = page.locator(f"#table-{floor['pgp'].pk}")
    expect(pgp_row.locator(".t-round")).to_contain_text("#2 open")
    # Round 1: +25.00 - 1.25, 0, -50.00 for the players; round 2's wagers are handle, not yet a result.
    expect(pgp_row.locator(".t-players")).to_have_text("-26.25")
    expect(pgp_row.locator(".t-take")).to_have_text("1.25")
    expect(pgp_row.locator(".t-handle")).to_have_text("135.00")
    alert = page.locator(f"#adjustment-{floor['request'].pk}")
    expect(alert).to_contain_text("Card flashed on the deal")
    expect(page.locator(".alert-bigwin")).to_contain_text("Seat 1 won 25.00")
    expect(page.locator(".alert-bank")).to_contain_text("Seat 2 has banked 2 rounds in a row")
    # The money: 700.00 bought in, the house won 26.25 (3.75% of it), a fill received, the credit pending.
    expect(pgp_row.locator(".t-drop")).to_have_text("700.00")
    expect(pgp_row.locator(".t-win")).to_have_text("26.25")
    expect(pgp_row.locator(".t-hold")).to_have_text("3.75%")
    expect(pgp_row.locator(".t-fills")).to_have_text("1\u2009000.00F")
    expect(pgp_row.locator(".slips-pending")).to_have_text("1 pending")
    expect(page.locator(f"#table-{floor['pgp2'].pk} .t-hold")).to_have_text("—")
    expect(page.locator("#pit-slips .slip-line")).to_have_count(1)
    expect(page.locator("#pit-slips .slip-line")).to_contain_text("Credit")
    expect(page.locator("#pit-slips a.btn")).to_have_attribute("href", "/cage/")
    expect(page.locator(".alert-tray")).to_contain_text("Opener 30.00 over the last closer")
    expect(page.locator(".alert-tray .tray-level")).to_have_text("Written report")
    box = alert.locator(".btn-approve").bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 1024  # nothing overflows the tablet
    shoot(page, "pit-dashboard")

    alert.locator(".btn-approve").tap()
    expect(alert).to_have_count(0)
    expect(page.locator(".pit-message")).to_contain_text("Void approved: table PGP-2, round 1.")
    expect(page.locator(f"#table-{floor['pgp2'].pk} .t-round")).to_contain_text("voided")
    assert Round.objects.get(pk=floor["voidable"].pk).state == RoundState.VOIDED
    assert Adjustment.objects.get(pk=floor["request"].pk).status == Adjustment.Status.APPROVED

    # The live refresh brings the table's money too: a buy-in, and the pending credit issued and received.
    buy_in_record(actor=dealer, table=floor["pgp"], seat=2, medium="cash", amount_cents=30_000)
    credit = slip_issue(actor=floor["cage"], slip=floor["credit"])
    slip_sign(actor=floor_supervisor, slip=slip_sign(actor=dealer, slip=credit))
    expect(pgp_row.locator(".t-drop")).to_have_text("1\u2009000.00", timeout=12_000)
    expect(pgp_row.locator(".t-credits")).to_have_text("100.00C")
    expect(pgp_row.locator(".slips-pending")).to_have_count(0)
    expect(page.locator("#pit-slips")).to_have_count(0)

    page.locator(f"#table-{floor['pgp'].pk} .t-name a").tap()
    expect(page.locator("h1")).to_contain_text("Table PGP-1")
    expect(page.locator("#round-2")).to_contain_text("Not settled yet.")
    expect(page.locator("#round-1")).to_contain_text("win")
    expect(page.locator("#round-1 .ledger")).to_contain_text("house commission")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1024
    shoot(page, "pit-table-history")
