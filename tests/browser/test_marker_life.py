"""A marker's whole life in Chromium at 1024×768, under the site's CSP: Cora, a Credit manager, gives Mr Lee a line
of 5,000.00 on his credit page; at PGP-1 Dana asks for a marker of 6,000.00 at his seat (refused: over the line,
nothing written), then of 2,000.00, which he signs on the tablet's pad; Fred, the Floor supervisor, approves it and
the chips leave the tray; the shift closes, Carl and Cleo count the box (2,000.00 in markers), and the Master Game
Report counts it in the drop; at the cage Kim redeems it in cash; Mr Lee's line is whole again and the ledger's
verifier finds it sound.

Takes the screenshots docs/screenshots/markers-*.png, in English and German.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from casino.models import AuditEvent
from casino.roles import Role
from casino.services import shift_close
from ledger.models import Posting
from ledger.verify import ledger_verify
from players.models import Marker
from players.services import player_create, session_start
from settlement.models import ShiftReport
from tables.models import BuyIn

THIN = "\u2009"  # the thousands separator of the money shown


def _fits(page: Any) -> None:
    """Nothing wider than the screen: no sideways scrolling at 1024 px."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _csp_watch(page: Any) -> list[str]:
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security" in message.text else None)
    return violations


def _sign(page: Any) -> None:
    """Mr Lee signs on the pad with a finger: a few strokes."""
    pad = page.locator("[data-signature-pad]")
    expect(pad).to_be_visible()
    box = pad.bounding_box()
    x, y = box["x"], box["y"]
    page.mouse.move(x + 40, y + 100)
    page.mouse.down()
    for step in range(1, 30):
        page.mouse.move(x + 40 + step * 12, y + 100 - (step % 6) * 12)
    page.mouse.up()


def _count_box(page: Any, box_id: str) -> None:
    page.goto("/count/")
    box = page.locator(box_id)
    box.get_by_label("Markers").fill("2000.00")
    box.get_by_label("Promotional chips").fill("0.00")
    box.get_by_role("button", name="Record count").click()
    expect(page.get_by_role("status")).to_contain_text("table PGP-1, Day shift")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_celery", "house_chips")
def test_a_markers_whole_life_from_the_seat_to_the_cage(
    new_page: Callable[..., Any],
    shoot: Callable[[Any, str], Any],
    make_table: Callable[..., Any],
    make_user: Callable[..., User],
    shift: Any,
    dealer: User,
    floor_supervisor: User,
    pit_boss: User,
) -> None:
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    lee = player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")
    session_start(actor=dealer, player=lee, table=table, seat=2)
    cora = new_page(make_user("cora_credit", Role.CREDIT_MANAGER))
    violations = _csp_watch(cora)

    # --- Cora sets Mr Lee's line on his credit page -------------------------------------------------------------
    cora.goto(f"/players/{lee.pk}/credit/")
    cora.fill("#line-limit", "5000")
    cora.locator("[data-set-line]").click()
    expect(cora.get_by_role("status")).to_have_text(f"The credit line is 5{THIN}000.00.")
    expect(cora.locator("#credit-available")).to_have_text(f"5{THIN}000.00")

    # --- at the seat: a marker over the line is refused, and nothing is written ---------------------------------
    dana = new_page(dealer)
    violations += _csp_watch(dana)
    dana.goto(f"/dealer/tables/{table.pk}/money/markers/")
    expect(dana.locator("[data-credit-seat='2']")).to_have_text(f"Seat 2: 5{THIN}000.00 of credit left")
    dana.locator("#marker .pick-radio", has_text="Mr Lee").tap()
    dana.fill("#marker-amount", "6000")
    _sign(dana)
    before = (Marker.objects.count(), BuyIn.objects.count(), Posting.objects.count(), AuditEvent.objects.count())
    dana.locator("[data-ask-marker]").tap()
    expect(dana.locator("#banner")).to_contain_text(
        f"A marker of 6{THIN}000.00 is over this player's credit: 5{THIN}000.00 is left of a line of 5{THIN}000.00."
    )
    assert (Marker.objects.count(), BuyIn.objects.count(), Posting.objects.count(), AuditEvent.objects.count()) == (
        before
    )
    expect(dana.locator("#marker-amount")).to_have_value("6000")  # what was typed is kept

    # --- a marker of 2,000.00, signed on the pad ----------------------------------------------------------------
    dana.fill("#marker-amount", "2000")
    _sign(dana)  # the pad is drawn afresh with the page: he signs again
    dana.locator("[data-ask-marker]").tap()
    expect(dana.locator("#banner")).to_contain_text(f"A marker of 2{THIN}000.00 at seat 2 waits for a supervisor.")
    asked = Marker.objects.get()
    assert asked.signature.startswith("data:image/png;base64,") and asked.status == "requested"
    expect(dana.locator(f"[data-marker='{asked.pk}']")).to_contain_text("Waiting for another supervisor's approval.")
    _fits(dana)
    shoot(dana, "markers-tablet")

    # --- Fred approves it: number 1, the chips out of the tray (his tablet in German) ------------------------------
    fred = new_page(floor_supervisor, locale="de-DE")
    violations += _csp_watch(fred)
    fred.goto(f"/dealer/tables/{table.pk}/money/markers/")
    expect(fred.locator("h2#markers-title")).to_have_text("Marker an diesem Tisch")
    _fits(fred)
    shoot(fred, "markers-tablet-de")
    fred.locator(f"[data-marker='{asked.pk}'] [data-issue-marker]").tap()
    expect(fred.locator("#banner")).to_contain_text("Marker 1")
    issued = Marker.objects.get()
    assert (issued.number, issued.status, issued.issued_by) == (1, "in_drop", floor_supervisor)
    assert issued.buy_in is not None and (issued.buy_in.medium, issued.buy_in.amount_cents) == ("marker", 200_000)

    # --- the shift closes; the count team counts the box; the Master Game Report counts the marker in the drop -----
    shift_close(actor=pit_boss, shift=shift)
    for counter in ("carl_count", "cleo_count"):
        _count_box(new_page(make_user(counter, Role.COUNT_TEAM)), f"#box-{shift.pk}-{table.pk}")
    issued.refresh_from_db()
    assert issued.status == "at_cage"
    report = ShiftReport.objects.get(shift=shift, kind="master_game")
    boss = new_page(pit_boss)
    boss.goto(f"/reports/{report.pk}/html/")
    line = boss.locator("table.master-game-tables tbody tr", has_text="PGP-1")
    cells = [text.strip().replace(THIN, "") for text in line.locator("td").all_inner_texts()]
    header = [text.strip() for text in boss.locator("table.master-game-tables thead th").all_inner_texts()]
    figures = dict(zip(header, cells, strict=True))
    assert (figures["Markers"], figures["Drop"]) == ("2000.00", "2000.00")

    # --- at the cage, Kim redeems it in cash --------------------------------------------------------------------
    kim = new_page(make_user("kim_cage", Role.CAGE_CASHIER))
    violations += _csp_watch(kim)
    kim.goto("/cage/")
    kim.locator("#cage-markers-link").click()
    expect(kim.locator("h1")).to_have_text("Markers outstanding")
    expect(kim.locator("#outstanding-cage")).to_have_text(f"2{THIN}000.00")
    row = kim.locator(f"#marker-{issued.pk}")
    expect(row).to_contain_text("Mr Lee")
    _fits(kim)
    shoot(kim, "markers-cage")
    row.locator("select[name=method]").select_option("cash")
    row.locator("[data-redeem]").click()
    expect(kim.get_by_role("status")).to_have_text(f"Marker 1 is redeemed: 2{THIN}000.00 in cash.")
    expect(kim.locator("#outstanding-total")).to_have_text("0.00")
    issued.refresh_from_db()
    assert issued.status == "redeemed"

    # --- Mr Lee's line is whole again; the ledger is sound ------------------------------------------------------
    cora.goto(f"/players/{lee.pk}/credit/")
    expect(cora.locator("#credit-available")).to_have_text(f"5{THIN}000.00")
    expect(cora.locator(f"[data-marker='{issued.pk}']")).to_contain_text("redeemed")
    _fits(cora)
    shoot(cora, "markers-credit")
    cora_de = new_page(User.objects.get(username="cora_credit"), locale="de-DE")
    cora_de.goto(f"/players/{lee.pk}/credit/")
    expect(cora_de.locator("#line-title")).to_have_text("Kreditlinie")
    shoot(cora_de, "markers-credit-de")
    kim_de = new_page(User.objects.get(username="kim_cage"), locale="de-DE")
    kim_de.goto("/cage/markers/")
    shoot(kim_de, "markers-cage-de")
    report_check = ledger_verify()
    assert report_check.ok, report_check.problems
    assert not violations, violations
