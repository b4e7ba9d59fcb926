"""A whole shift at one table from the screens, in Chromium at 1024×768.

Dana deals PGP-1. She counts the opener on her tablet and Fred (Floor supervisor) confirms it; she records a 500.00
cash buy-in at seat 1, a 200.00 marker is issued at seat 2 (Fred approving it), and she plays a round on the tablet
(seat 1 wins 20.00 and pays 1.00 commission, seat 2 loses 50.00: the house wins 31.00); she asks for a fill of
1,000.00, which Cora issues at the cage and Dana and Fred sign for; a credit of 500.00 likewise; a second fill asked
by mistake, which Fred voids. She counts the closer, Fred confirms it, Paula (Pit boss) closes the shift, and Kim
and Lee of the count team count the drop box, independently: 500.00 in notes and the 200.00 marker. The last count
builds the Master Game Report, which Paula reads.

The money, by hand (DESIGN.md, "The table's money"):
  the tray should close at 3,000.00 opener + 1,000.00 fill − 500.00 credit − 700.00 sold at buy-ins + 31.00 won
  = 2,831.00; win = 700.00 drop + 2,831.00 closer + 500.00 credits − 3,000.00 opener − 1,000.00 fills = 31.00;
  hold = 31.00 ÷ 700.00 = 4.43%; the settlements' win is 31.00, so the variance is 0.00.
The second run takes a 5.00 chip from the tray before the closer: win 26.00, hold 3.71%, variance −5.00.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from casino.roles import Role
from ledger.verify import ledger_verify
from rounds.models import Wager
from settlement.models import ShiftReport
from tables.models import Slip
from tests.browser.test_dealer_tablet import _play_to_dealt, _tap_hands
from tests.markers import marker_buy_in
from tests.settlement.test_table_money import chips_for

BANK = "Qs Qd 8s 5d 3c Jh Jc"  # the house way: queens high, jacks low
WINS = {"high": "As Ad 7s 4d 2c", "low": "Kh Kc"}  # aces and kings beat queens and jacks
LOSES = {"high": "Ts Td 9h 6c 4h", "low": "9d 2d"}  # tens and nine-high lose to both
OPENER = {10000: 20, 2500: 40}  # 3,000.00
THIN = "\u2009"  # the thousands separator of the money shown


def _chips(page: Any, chips: dict[int, int]) -> None:
    for value, number in chips.items():
        page.fill(f"#chip-{value}", str(number))


def _count_tray(dana: Any, fred: Any, table: Any, kind: str, chips: dict[int, int]) -> None:
    dana.goto(f"/dealer/tables/{table.pk}/money/tray/")
    _chips(dana, chips)
    dana.get_by_role("button", name=f"Record {kind}").tap()
    expect(dana.locator("#banner")).to_contain_text(f"The {kind} of")
    fred.goto(f"/dealer/tables/{table.pk}/money/")
    fred.locator("[data-confirm]").tap()
    expect(fred.locator("#banner")).to_contain_text("is confirmed")


def _slip(dana: Any, table: Any, kind: str, chips: dict[int, int]) -> Slip:
    dana.goto(f"/dealer/tables/{table.pk}/money/slips/new/")
    _chips(dana, chips)
    dana.get_by_role("button", name=f"Request {kind}").tap()
    expect(dana.locator("#banner")).to_contain_text(f"{kind.capitalize()} slip")
    return Slip.objects.filter(table=table, kind=kind).order_by("-number").first()


def _issue_and_sign(cora: Any, dana: Any, fred: Any, table: Any, slip: Slip) -> None:
    cora.goto("/cage/")
    cora.get_by_role("button", name=f"Issue {slip.kind} slip {slip.number}").click()
    expect(cora.get_by_role("status")).to_contain_text("is issued")
    for who in (dana, fred):
        who.goto(f"/dealer/tables/{table.pk}/money/")
        who.locator(f'[data-slip="{slip.pk}"] [data-sign]').tap()
        expect(who.locator("#banner")).to_contain_text("signed")
    slip.refresh_from_db()
    assert slip.status == "received"


def _count_box(page: Any, box_id: str) -> None:
    page.goto("/count/")
    box = page.locator(box_id)
    box.get_by_label("100.00", exact=True).fill("5")
    box.get_by_label("Markers").fill("200.00")
    box.get_by_label("Promotional chips").fill("0.00")
    box.get_by_role("button", name="Record count").click()
    expect(page.get_by_role("status")).to_contain_text("table PGP-1, Day shift")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_celery", "house_chips")
@pytest.mark.parametrize(
    ("short_cents", "win", "hold", "variance"), [(0, "31.00", "4.43", "0.00"), (500, "26.00", "3.71", "-5.00")]
)
def test_a_whole_shift_of_the_tables_money_from_the_screens(
    new_page: Callable[..., Any],
    shoot: Callable[..., Any],
    make_table: Callable[..., Any],
    make_user: Callable[..., Any],
    shift: Any,
    dealer: Any,
    floor_supervisor: Any,
    pit_boss: Any,
    short_cents: int,
    win: str,
    hold: str,
    variance: str,
) -> None:
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    cora = new_page(make_user("cora_cage", Role.CAGE_CASHIER))
    dana, fred = new_page(dealer), new_page(floor_supervisor)

    # --- the opener, counted by Dana and confirmed by Fred -----------------------------------------------------
    _count_tray(dana, fred, table, "opener", OPENER)

    # --- two buy-ins: cash on the money page, a marker asked for at seat 2 and issued by Fred ----------------
    dana.goto(f"/dealer/tables/{table.pk}/money/")
    dana.locator("#buy-in .pick-radio", has_text="1").first.tap()
    dana.fill("#buy-in-amount", "500.00")
    dana.locator("[data-buy-in]").tap()
    expect(dana.locator("#banner")).to_contain_text("Seat 1 buys in 500.00")
    marker_buy_in(table=table, seat=2, amount_cents=20_000, asked_by=dealer, issued_by=floor_supervisor)

    # --- a round on the tablet: seat 1 wins 20.00, seat 2 loses 50.00 -----------------------------------------
    dana.goto("/dealer/")
    _play_to_dealt(dana, {1: (5, 5, 5, 5), 2: (25, 25)}, (1, 1, 1))
    _tap_hands(dana, {1: WINS, 2: LOSES}, bank=("hand-bank-cards", BANK))
    dana.get_by_role("button", name="Reveal hands").tap()
    expect(dana.locator("[data-state-label]")).to_have_text("Hands revealed")
    dana.locator("[data-settle]").tap()
    expect(dana.locator("[data-state-label]")).to_have_text("Settled")
    # Every chip tapped counted (a tap lost or doubled would move the computed win the report checks below).
    placed = dict(Wager.objects.filter(round__table=table).values_list("seat__number", "amount_cents"))
    assert placed == {1: 2_000, 2: 5_000}, placed

    # --- a fill and a credit through the cage; a fill asked by mistake, voided --------------------------------
    _issue_and_sign(cora, dana, fred, table, _slip(dana, table, "fill", {10000: 10}))
    _issue_and_sign(cora, dana, fred, table, _slip(dana, table, "credit", {2500: 20}))
    mistake = _slip(dana, table, "fill", {10000: 10})
    fred.goto(f"/dealer/tables/{table.pk}/money/")
    fred.locator(f'[data-slip="{mistake.pk}"] details.void-slip > summary').tap()
    fred.fill(f"#reason-{mistake.pk}", "Asked twice")
    fred.get_by_role("button", name=f"Void slip {mistake.number}").tap()
    expect(fred.locator("#banner")).to_contain_text("void")
    mistake.refresh_from_db()
    assert (mistake.status, mistake.void_reason) == ("voided", "Asked twice")

    # --- the closer (a chip short in the second run), and the shift closes -------------------------------------
    _count_tray(dana, fred, table, "closer", chips_for(283_100 - short_cents))
    boss = new_page(pit_boss)
    boss.goto("/pit/day/")
    boss.locator("#open-shift summary", has_text="Close shift").click()
    boss.get_by_role("button", name="Yes, close it").click()
    expect(boss.locator("#next-shift")).to_contain_text("No shift is open")
    assert not ShiftReport.objects.filter(shift=shift, kind="master_game").exists()  # it waits for the count

    # --- the count team counts the box twice; the second count makes it final and builds the report -----------
    for counter in ("kim_count", "lee_count"):
        _count_box(new_page(make_user(counter, Role.COUNT_TEAM)), f"#box-{shift.pk}-{table.pk}")
    report = ShiftReport.objects.get(shift=shift, kind="master_game")
    assert report.status == "ready"
    (row,) = report.data["tables"]
    assert (row["win_cents"], row["variance_cents"]) == (3_100 - short_cents, -short_cents)

    # --- Paula reads the Master Game Report ---------------------------------------------------------------
    boss.goto("/reports/")
    expect(boss.locator(f"#report-{report.pk}")).to_contain_text("Master Game Report")
    boss.goto(f"/reports/{report.pk}/html/")
    line = boss.locator("table.master-game-tables tbody tr", has_text="PGP-1")
    cells = [text.strip().replace(THIN, "") for text in line.locator("td").all_inner_texts()]
    header = [text.strip() for text in boss.locator("table.master-game-tables thead th").all_inner_texts()]
    figures = dict(zip(header, cells, strict=True))
    assert (figures["Win"], figures["Hold %"], figures["Computed win"], figures["Variance"]) == (
        win,
        hold,
        "31.00",
        variance,
    )
    assert (figures["Opener"], figures["Fills"], figures["Credits"], figures["Drop"]) == (
        "3000.00",
        "1000.00",
        "500.00",
        "700.00",
    )
    expect(boss.locator("table.master-game-slips")).to_contain_text("Asked twice")
    if not short_cents:
        boss.set_viewport_size({"width": 1024, "height": 768})
        shoot(boss, "master-game-report")
    report_check = ledger_verify()
    assert report_check.ok, report_check.problems
