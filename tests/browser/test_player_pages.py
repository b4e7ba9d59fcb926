"""Rated play's pit pages in Chromium at tablet size: a supervisor finds a player by card number, opens
their page (totals and sessions), sees the rated players and the alerts on the dashboard; a dealer enrols a player by
tapping and is refused a player's page; a supervisor anonymises one on request, after the confirmation. No page
scrolls sideways at 1024 px, and none breaks a rule of the CSP.

Takes the screenshots docs/screenshots/players.png, player-page.png and pit-dashboard-rated.png.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from players.models import Player, RatingSeat, RatingSession, TableHold
from players.services import player_create, session_pause, session_start
from tables.models import Table


def _fits(page: Any) -> None:
    """Nothing wider than the screen: no sideways scrolling at 1024 px."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _watch_csp(page: Any) -> list[str]:
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security" in message.text else None)
    return violations


def _history(player: Player, by: User, tables: list[Table]) -> None:
    """Twelve ended sessions of Mr Lee over the last weeks, one at two tables, one 3σ up, with their kept figures."""
    now = timezone.now().replace(second=0, microsecond=0)
    for n in range(12):
        started = now - dt.timedelta(days=2 * n + 1, hours=n % 5)
        seconds = 3600 + 600 * (n % 4)
        rounds = 30 + 7 * n
        bet = 2_500 + 500 * (n % 6)
        session = RatingSession.objects.create(
            player=player,
            status="ended",
            started_at=started,
            started_by=by,
            ended_at=started + dt.timedelta(seconds=seconds + 300),
            seconds_played=seconds,
            rounds=rounds,
            wagered_cents=rounds * bet,
            banker_rounds=4 if n % 3 == 0 else 0,
            banker_wagered_cents=4 * 3 * bet if n % 3 == 0 else 0,
            win_loss_cents=(350_000 if n == 4 else (-1) ** n * 3 * bet),
            theo_millicents=rounds * bet * 15,
            variance_cents2=rounds * bet * bet,
            chips_in_cents=0 if n % 2 else 50_000,
            cash_in_cents=100_000 + 10_000 * n,
            markers_in_cents=200_000 if n == 4 else 0,
            walk_with_cents=60_000 + 7_500 * n,
        )
        seats = [(tables[n % 2], 1 + n % 6)] + ([(tables[2], 3)] if n % 4 == 1 else [])
        for k, (table, seat) in enumerate(seats):
            RatingSeat.objects.create(
                session=session,
                table=table,
                seat_number=seat,
                started_at=started + dt.timedelta(seconds=seconds * k / len(seats)),
                ended_at=started + dt.timedelta(seconds=seconds * (k + 1) / len(seats)),
            )


@pytest.fixture
def rated_floor(shift: Any, make_table: Callable[..., Table], dealer: User, house_chips: None) -> dict[str, Any]:
    tables = [
        make_table(name="PGP-1", game="paigow_poker", seat_count=6),
        make_table(name="PGP-2", game="paigow_poker", seat_count=6),
        make_table(name="PG-1", game="paigow_tiles", seat_count=7),
    ]
    lee = player_create(actor=dealer, name="Mr Lee Wong", card_number="1001", tier="Gold")
    others = [
        player_create(actor=dealer, name="Ana Ribeiro", card_number="1002", tier="Platinum"),
        player_create(actor=dealer, name="Tommy Chan", card_number="2417", tier="Silver"),
        player_create(actor=dealer, name="Grace O'Neill", tier="Bronze"),
        player_create(actor=dealer, tier="Bronze", anonymous=True),
    ]
    _history(lee, dealer, tables)
    now = timezone.now()
    playing = session_start(actor=dealer, player=lee, table=tables[0], seat=3, chips_cents=50_000)
    RatingSession.objects.filter(pk=playing.pk).update(
        running_since=now - dt.timedelta(minutes=84), rounds=41, wagered_cents=41 * 5_000, win_loss_cents=-32_500,
        theo_millicents=41 * 5_000 * 15, variance_cents2=41 * 5_000 * 5_000, cash_in_cents=150_000,
    )  # fmt: skip
    hot = session_start(actor=dealer, player=others[0], table=tables[0], seat=5)
    RatingSession.objects.filter(pk=hot.pk).update(
        running_since=now - dt.timedelta(minutes=52), rounds=26, wagered_cents=26 * 20_000, win_loss_cents=480_000,
        theo_millicents=26 * 20_000 * 15, variance_cents2=26 * 20_000 * 20_000,
    )  # fmt: skip
    resting = session_start(actor=dealer, player=others[1], table=tables[2], seat=2)
    RatingSession.objects.filter(pk=resting.pk).update(rounds=12, wagered_cents=12 * 2_500, win_loss_cents=4_000,
                                                       theo_millicents=12 * 2_500 * 9)  # fmt: skip
    session_pause(actor=dealer, session=resting)
    session_start(actor=dealer, player=others[3], table=tables[1], seat=1)
    TableHold.objects.create(table=tables[0], rounds=100, action_cents=2_400_000, house_win_cents=21_000,
                             theo_millicents=36_000_000, variance_cents2=2_400_000**2 // 100)  # fmt: skip
    TableHold.objects.create(table=tables[1], rounds=100, action_cents=1_500_000, house_win_cents=350_000,
                             theo_millicents=22_500_000, variance_cents2=1_500_000**2 // 100)  # fmt: skip
    return {"tables": tables, "lee": lee, "others": others}


@pytest.mark.django_db(transaction=True)
def test_a_supervisor_finds_a_player_reads_their_page_and_the_rated_dashboard(
    new_page: Callable[..., Any], shoot: Callable[[Any, str], Any], floor_supervisor: User, rated_floor: dict[str, Any]
) -> None:
    lee = rated_floor["lee"]
    page = new_page(floor_supervisor)
    violations = _watch_csp(page)

    page.goto("/pit/")
    expect(page.locator(f"#rated-{rated_floor['tables'][0].pk}")).to_contain_text("Mr Lee Wong")
    expect(page.locator(".alert-rated")).to_contain_text("Ana Ribeiro")
    expect(page.locator(".alert-hold")).to_contain_text("PGP-2")
    expect(page.locator(".rated-paused")).to_contain_text("on a break")
    _fits(page)
    shoot(page, "pit-dashboard-rated")

    page.get_by_role("link", name="Players").first.click()
    expect(page.locator("h1")).to_have_text("Players")
    _fits(page)
    shoot(page, "players")
    page.fill("#players-q", "1001")
    page.get_by_role("button", name="Search").click()
    expect(page.locator(".player-line")).to_have_count(1)
    page.get_by_role("link", name="Mr Lee Wong").click()
    expect(page.locator("h1")).to_have_text("Mr Lee Wong")
    expect(page.locator("#total-rounds")).to_have_text(str(41 + sum(30 + 7 * n for n in range(12))))
    expect(page.locator(".session-line")).to_have_count(13)
    expect(page.locator(".session-alert")).to_have_count(1)
    _fits(page)
    shoot(page, "player-page")

    page.get_by_text("Anonymise…").click()
    page.get_by_role("button", name="Yes, anonymise").click()
    expect(page.get_by_text("The player is anonymised")).to_be_visible()
    expect(page.locator("h1")).to_have_text(f"anonymous player {lee.pk}")
    assert not violations, violations


@pytest.mark.django_db(transaction=True)
def test_a_dealer_enrols_a_player_by_tapping_and_may_not_open_a_players_page(
    new_page: Callable[..., Any], dealer: User, rated_floor: dict[str, Any]
) -> None:
    page = new_page(dealer)
    violations = _watch_csp(page)
    page.goto("/players/")
    page.fill("#enrol-name", "Ms Wu")
    page.fill("#enrol-card", "1002")  # Ana Ribeiro's
    page.get_by_role("button", name="Enrol").click()
    expect(page.locator("#players-error")).to_have_text("Card number 1002 belongs to another player.")
    expect(page.locator("#enrol-name")).to_have_value("Ms Wu")
    page.fill("#enrol-card", "3003")
    page.select_option("#enrol-tier", "Silver")
    page.get_by_role("button", name="Enrol").click()
    expect(page.get_by_text("Ms Wu (Silver) is enrolled.")).to_be_visible()
    expect(page.locator(".player-line")).to_have_count(1)
    assert Player.objects.filter(name="Ms Wu", card_number="3003", tier="Silver").count() == 1
    _fits(page)

    page.goto(f"/players/{rated_floor['lee'].pk}/")
    expect(page.locator(".player-refusal")).to_contain_text("only a Floor supervisor, a Pit boss or an Auditor")
    assert "Mr Lee" not in page.content()
    assert not violations, violations
