"""The dealers' pages in Chromium at tablet size: a supervisor opens the dealers of the shift from the dashboard, sees
the 3σ alert and drills down to one dealer; the same page in German; a dealer reads their own pace from the header
and is refused the others'; the closed shift's dealer report opens from the reports. No page scrolls sideways at
1024 px, and none breaks a rule of the CSP.

Takes the screenshots docs/screenshots/dealers.png, dealers-de.png, dealer.png, dealer-pace.png, dealer-pace-de.png
and dealer-report.png.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from casino.roles import Role
from casino.services import shift_close
from players.models import HoldRound
from rounds.models import Round
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from settlement.models import ShiftReport
from settlement.services import adjustment_approve, adjustment_request, settle_round
from tables.models import Table
from tables.services import table_assign_dealer
from tests.settlement.conftest import BANK, LOSES, WINS

LOSES_TOO = {"high": "6s 6h 5c 4c 3h", "low": "8c 7d"}  # sixes under queens, eight-high under jacks


# The elements of the page's own content (the site's header apart) reaching past the window's right edge, named.
_WIDER = """() => [...document.querySelectorAll('body *')]
  .filter((e) => !e.closest('header') && e.getBoundingClientRect().right > window.innerWidth + 0.5)
  .map((e) => e.tagName.toLowerCase() + '.' + [...e.classList].join('.')).slice(0, 8)"""


def _fits(page: Any) -> None:
    """Nothing of the page's content wider than the screen: no sideways scrolling at 1024 px. (The site's header is
    every page's, and the pages' walk checks it.) Read again for up to three seconds while the page's own
    stylesheet may still be applying on a loaded machine; what is still too wide then fails."""
    wider = page.evaluate(_WIDER)
    for _ in range(30):
        if not wider:
            break
        page.wait_for_timeout(100)
        wider = page.evaluate(_WIDER)
    assert wider == []


def _watch_csp(page: Any) -> list[str]:
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security" in message.text else None)
    return violations


@pytest.fixture
def dealt_shift(
    shift: Any,
    make_table: Callable[..., Table],
    make_user: Callable[..., User],
    pit_boss: User,
    house_chips: None,
) -> dict[str, Any]:
    """Three dealers' rounds over the last hours: Ann's hold far above its expectation (an alert), Ben's a void and
    a correction, Cho at the tiles."""
    ann, ben, cho = (make_user(name, Role.DEALER) for name in ("ann", "ben", "cho"))
    tables = {
        ann: make_table(name="PGP-1", game="paigow_poker", seat_count=6),
        ben: make_table(name="PGP-2", game="paigow_poker", seat_count=6),
        cho: make_table(name="PGP-3", game="paigow_poker", seat_count=6),
    }
    for who, table in tables.items():
        table_assign_dealer(actor=pit_boss, table=table, dealer=who)
    start = timezone.now() - dt.timedelta(hours=3)
    moment = [start]
    with mock.patch("django.utils.timezone.now", side_effect=lambda: moment[0]):
        for who, table, count, every in (
            (ann, tables[ann], 12, 5),
            (ben, tables[ben], 8, 9),
            (cho, tables[cho], 6, 12),
        ):
            for n in range(count):
                moment[0] = start + dt.timedelta(minutes=every * n)
                seats = {"1": WINS if n % 3 == 0 else LOSES, "2": LOSES_TOO}
                round_ = round_open(actor=who, table=table)
                wager_place(actor=who, round=round_, seat=1, amount_cents=5_000)
                wager_place(actor=who, round=round_, seat=2, amount_cents=2_500)
                round_close_betting(actor=who, round=round_)
                round_deal(actor=who, round=round_, dice=[1, 1, 1])
                round_hands_record(actor=who, round=round_, hands={"banker": BANK, "seats": seats})
                settle_round(round=round_, actor=who, idempotency_key=f"{who.username}-{n}")
        moment[0] = start + dt.timedelta(minutes=75)
        asked = adjustment_request(
            actor=ben,
            round=Round.objects.filter(dealer=ben).order_by("number")[1],
            kind="correction",
            reason="Seat 2's hands keyed wrong",
            hands={"banker": BANK, "seats": {"1": LOSES, "2": WINS}},
        )
        adjustment_approve(actor=pit_boss, adjustment=asked)
        misdealt = round_open(actor=ben, table=tables[ben])
        adjustment_approve(
            actor=pit_boss, adjustment=adjustment_request(actor=ben, round=misdealt, kind="void", reason="Misdeal")
        )
    # Ann's tables kept far more than the edge explains: every round's house win set high (a short pay's trace).
    HoldRound.objects.filter(round__dealer=ann).update(house_win_cents=6_000)
    return {"ann": ann, "ben": ben, "cho": cho, "tables": tables}


@pytest.mark.django_db(transaction=True)
def test_a_supervisor_reads_the_dealers_of_the_shift_sees_the_alert_and_drills_down_in_english_and_german(
    new_page: Callable[..., Any], shoot: Callable[[Any, str], Any], pit_boss: User, dealt_shift: dict[str, Any]
) -> None:
    page = new_page(pit_boss)
    violations = _watch_csp(page)
    page.goto("/pit/")
    page.get_by_role("link", name="Dealers").first.click()
    expect(page.locator("h1")).to_have_text("Dealers")
    expect(page.locator(".dealer-line")).to_have_count(3)
    expect(page.locator("#dealer-alerts")).to_contain_text("ann at Pai Gow Poker")
    expect(page.locator('.dealer-line[data-dealer="ann"]')).to_have_class("dealer-line flagged")
    expect(page.locator('.dealer-line[data-dealer="ben"] .settled')).to_have_text("8")
    expect(page.locator("#dealers-total")).to_contain_text("26 rounds settled")
    _fits(page)
    shoot(page, "dealers")

    page.get_by_role("link", name="ann").click()
    expect(page.locator("h1")).to_have_text("ann")
    expect(page.locator(".dealer-line")).to_have_count(1)
    _fits(page)
    shoot(page, "dealer")
    assert violations == []

    german = new_page(pit_boss, locale="de-DE")
    german.goto("/pit/dealers/")
    expect(german.locator("h1")).to_have_text("Croupiers")
    expect(german.locator("#dealer-alerts")).to_contain_text("ann")
    _fits(german)
    shoot(german, "dealers-de")


@pytest.mark.django_db(transaction=True)
def test_a_dealer_reads_only_their_own_pace_and_is_refused_the_dealers_page(
    new_page: Callable[..., Any], shoot: Callable[[Any, str], Any], dealt_shift: dict[str, Any]
) -> None:
    page = new_page(dealt_shift["ben"])
    violations = _watch_csp(page)
    page.goto("/pace/")
    expect(page.locator("h1")).to_have_text("My pace")
    expect(page.locator(".pace-rounds")).to_have_text("8")
    body = page.locator("main").inner_text() if page.locator("main").count() else page.content()
    assert "ann" not in body and "cho" not in body and "Hold" not in body
    _fits(page)
    shoot(page, "dealer-pace")
    assert violations == []
    refused = page.goto("/pit/dealers/")
    assert refused is not None and refused.status == 403

    german = new_page(dealt_shift["ben"], locale="de-DE")
    german.goto("/pace/")
    expect(german.locator("h1")).to_have_text("Mein Tempo")
    _fits(german)
    shoot(german, "dealer-pace-de")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_celery")
def test_the_closed_shifts_dealer_report_opens_from_the_reports_and_its_rounds_add_up_to_the_shifts(
    new_page: Callable[..., Any],
    shoot: Callable[[Any, str], Any],
    pit_boss: User,
    shift: Any,
    dealt_shift: dict[str, Any],
) -> None:
    shift_close(actor=pit_boss, shift=shift)
    dealers = ShiftReport.objects.get(shift=shift, kind="dealers")
    tables = ShiftReport.objects.get(shift=shift, kind="shift")
    assert sum(line["rounds_settled"] for line in dealers.data["dealers"]) == tables.data["floor"]["rounds_settled"]
    page = new_page(pit_boss)
    page.goto("/reports/")
    expect(page.locator("body")).to_contain_text("Dealer report")
    page.goto(f"/reports/{dealers.pk}/html/")
    expect(page.locator("h1")).to_have_text("Dealer report")
    expect(page.locator("tr.alert")).to_have_count(1)
    expect(page.locator("tr.totals")).to_contain_text("26")
    shoot(page, "dealer-report")
