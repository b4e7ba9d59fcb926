"""The cage's queue and the count room in Chromium at 1024×768: Cora, the Cage cashier, signs in, lands on
the queue and issues the fill PGP-1 asked for by tapping; Cleo of the Count team counts a closed shift's drop box
beside Carl's count, which she never sees, and the box is final. Both pages under the site's CSP.

Takes the screenshots docs/screenshots/cage-queue.png and count-room.png.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from casino.roles import Role
from casino.services import shift_close
from tables.drop import buy_in_record, drop_count_record
from tables.models import DropCount, Slip
from tables.slips import slip_issue, slip_request, slip_sign, slip_void
from tests.markers import marker_buy_in


def _fits(page: Any) -> None:
    """Nothing wider than the screen: no sideways scrolling at 1024 px."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _csp_watch(page: Any) -> list[str]:
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security" in message.text else None)
    return violations


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("house_chips")
def test_the_cage_cashier_issues_a_requested_fill_from_the_queue(
    new_page: Callable[..., Any],
    shoot: Callable[[Any, str], Any],
    make_table: Callable[..., Any],
    make_user: Callable[..., User],
    shift: Any,
    dealer: User,
    floor_supervisor: User,
    pit_boss: User,
) -> None:
    cora = make_user("cora_cage", Role.CAGE_CASHIER)
    pgp1 = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    pgp2 = make_table(name="PGP-2", game="paigow_poker", seat_count=6)
    tiles = make_table(name="PG-1", game="paigow_tiles", seat_count=7)
    received = slip_issue(actor=cora, slip=slip_request(actor=dealer, table=tiles, kind="fill", chips={10000: 20}))
    slip_sign(actor=floor_supervisor, slip=slip_sign(actor=dealer, slip=received))
    slip_void(
        actor=pit_boss,
        slip=slip_request(actor=dealer, table=pgp2, kind="credit", chips={2500: 4}),
        reason="Asked twice",
    )
    signing = slip_issue(actor=cora, slip=slip_request(actor=dealer, table=pgp2, kind="credit", chips={2500: 20}))
    slip_sign(actor=dealer, slip=signing)
    fill = slip_request(actor=dealer, table=pgp1, kind="fill", chips={10000: 10, 2500: 40, 500: 20})
    slip_request(actor=floor_supervisor, table=tiles, kind="fill", chips={50000: 4, 10000: 10})
    slip_request(actor=dealer, table=pgp2, kind="credit", chips={100000: 2})

    page = new_page(cora)
    violations = _csp_watch(page)
    expect(page.locator("h1")).to_have_text("Cage: fills and credits")  # the floor sends the cage to its queue
    assert page.url.endswith("/cage/")
    waiting = page.locator("#waiting")
    expect(waiting.locator("tbody tr")).to_have_count(3)
    expect(waiting.locator("tbody tr").first).to_contain_text("PGP-1")
    expect(page.locator("header.top").get_by_role("link", name="Cage")).to_be_visible()
    _fits(page)
    shoot(page, "cage-queue")

    page.get_by_role("button", name="Issue fill slip 2").click()

    expect(page.get_by_role("status")).to_have_text("Fill slip No. 000002 is issued: table PGP-1 signs for it.")
    expect(waiting.locator("tbody tr")).to_have_count(2)
    expect(page.locator(f"#issued #slip-{fill.pk}")).to_contain_text("cora_cage")
    assert Slip.objects.get(pk=fill.pk).issued_by == cora
    with page.expect_response(lambda response: response.url.endswith(f"/slips/{fill.pk}/pdf/")) as answer:
        page.evaluate(f"fetch('/slips/{fill.pk}/pdf/')")
    assert answer.value.status == 200 and answer.value.header_value("content-type") == "application/pdf"
    assert not violations, violations


@pytest.mark.django_db(transaction=True)
def test_a_count_team_member_counts_a_drop_box_without_seeing_the_first_count(
    new_page: Callable[..., Any],
    shoot: Callable[[Any, str], Any],
    make_table: Callable[..., Any],
    make_user: Callable[..., User],
    shift: Any,
    dealer: User,
    pit_boss: User,
) -> None:
    carl = make_user("carl_count", Role.COUNT_TEAM)
    cleo = make_user("cleo_count", Role.COUNT_TEAM)
    pgp1 = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    pgp2 = make_table(name="PGP-2", game="paigow_poker", seat_count=6)
    tiles = make_table(name="PG-1", game="paigow_tiles", seat_count=7)
    chinese = make_table(name="CP-1", game="chinese_poker", seat_count=4)
    for table, cents in ((pgp1, 124_000), (pgp2, 30_000), (tiles, 50_000), (chinese, 20_000)):
        buy_in_record(actor=dealer, table=table, seat=1, medium="cash", amount_cents=cents)
    marker_buy_in(table=pgp1, seat=2, amount_cents=50_000, asked_by=dealer, issued_by=pit_boss)
    shift_close(actor=pit_boss, shift=shift)
    cash = {2000: 37, 10000: 5}  # 1,240.00
    drop_count_record(actor=carl, table=pgp1, shift=shift, cash=cash, markers_cents=50_000, promo_cents=2_500)
    for who in (carl, cleo):
        drop_count_record(actor=who, table=tiles, shift=shift, cash={10000: 5}, markers_cents=0, promo_cents=0)
    for who, fifties in ((carl, 4), (make_user("dora_count", Role.COUNT_TEAM), 3)):  # they disagree
        drop_count_record(actor=who, table=chinese, shift=shift, cash={5000: fifties}, markers_cents=0, promo_cents=0)

    page = new_page(cleo)
    violations = _csp_watch(page)
    expect(page.locator("h1")).to_have_text("Count room: drop boxes")  # the floor sends the count team here
    box = page.locator(f"#box-{shift.pk}-{pgp1.pk}")
    expect(box).to_contain_text("One count is in, by carl_count.")
    expect(box).not_to_contain_text("1\u2009240.00")
    expect(box.get_by_label("20.00")).to_have_value("")
    expect(page.locator(f"#box-{shift.pk}-{tiles.pk}")).to_contain_text("Drop 500.00")
    expect(page.locator(f"#box-{shift.pk}-{chinese.pk} .box-status")).to_have_text("counts disagree")
    _fits(page)
    shoot(page, "count-room")  # every state a box can be in: final, counts disagree, counted once, not counted

    total = box.locator(".count-total")
    expect(total).to_have_text("0.00")
    box.get_by_label("20.00").fill("37")
    expect(total).to_have_text("740.00")  # the running total, as she types
    box.get_by_label("100.00", exact=True).fill("5")
    box.get_by_label("Markers").fill("500")
    box.get_by_label("Promotional chips").fill("25.00")
    expect(total).to_have_text("1\u2009765.00")
    box.get_by_role("button", name="Record count").click()

    expect(page.get_by_role("status")).to_have_text(
        "The drop box of table PGP-1, Day shift, is final: the drop is 1\u2009740.00."
    )
    box = page.locator(f"#box-{shift.pk}-{pgp1.pk}")
    expect(box.locator(".box-status")).to_have_text("final")
    expect(box).to_contain_text("1\u2009740.00")
    assert DropCount.objects.filter(table=pgp1).count() == 2

    other = page.locator(f"#box-{shift.pk}-{pgp2.pk}")
    other.get_by_label("50.00").fill("six")  # a refusal: the service's words, the figures typed kept
    other.get_by_label("Markers").fill("0")
    other.get_by_label("Promotional chips").fill("0")
    other.get_by_role("button", name="Record count").click()
    expect(page.locator("#count-error")).to_contain_text("A count is a whole number of notes from 0 to 100\u2009000")
    other = page.locator(f"#box-{shift.pk}-{pgp2.pk}")
    expect(other.get_by_label("50.00")).to_have_value("six")
    assert not DropCount.objects.filter(table=pgp2).exists()
    assert not violations, violations
