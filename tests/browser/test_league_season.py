"""In Chromium: a league season of 3 events producing the Master Class with its starting stacks.

Three small events are played through the services (8, 6 and 7 entries, the regulars in each). Tessa, the tournament
director, then creates the league in the browser (10·√n/√place, best 2 of 3, the top 4 to the Master Class at 100
chips a point, rounded down to a multiple of 25), adds the three events, reads the standings (checked against
``poker_room.pure.league_points``), opens the PDF, and invites the Master Class: its console lists the four invited
players, and its chips in play are the sum of their converted points.

Set ``LEAGUE_SHOTS`` to a folder to keep a screenshot of each page (and the PDF) there.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from casino.roles import Role
from poker_room.leagues.models import League
from poker_room.pure.league_points import Result, master_class_chips, points
from poker_room.tournaments.models import Entry, Tournament
from tests.poker_room import tournament_setup
from tests.poker_room.leagues.play import play

director = tournament_setup.director
make_tournament = tournament_setup.make_tournament
_empty_cache = tournament_setup._empty_cache

SHOTS = os.environ.get("LEAGUE_SHOTS", "")

EVENTS = [
    ["Anna", "Ben", "Cem", "Dora", "Emil", "Fritz", "Gina", "Hans"],
    ["Ben", "Cem", "Anna", "Hans", "Dora", "Ines"],
    ["Cem", "Anna", "Dora", "Ben", "Jonas", "Emil", "Gina"],
]


def _shot(page: Any, name: str, at: str = "") -> None:
    if at:
        page.locator(at).scroll_into_view_if_needed()
    else:
        page.evaluate("window.scrollTo(0, 0)")
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=False)


def _grouped(chips: int) -> str:
    """Chips as the pages write them: 4\u202f675 (``poker_room`` template filter ``chips``)."""
    return f"{chips:,}".replace(",", "\u202f")


def _expected() -> dict[str, Decimal]:
    """Each player's best two results by 10·√n/√place."""
    results: dict[str, list[Decimal]] = {}
    for finish in EVENTS:
        for place, name in enumerate(finish, start=1):
            results.setdefault(name, []).append(points(Result(len(finish), place), formula="sqrt_place"))
    return {name: sum(sorted(found, reverse=True)[:2], Decimal(0)) for name, found in results.items()}


@pytest.mark.django_db(transaction=True)
def test_a_league_season_of_three_events_produces_the_master_class(
    new_page: Callable[..., Any], make_user: Callable[..., Any], make_tournament: Callable[..., Tournament]
) -> None:
    tessa = make_user("tessa_director", Role.TOURNAMENT_DIRECTOR)
    events = []
    for number, finish in enumerate(EVENTS, start=1):
        event = play(tessa, make_tournament, finish)
        Tournament.objects.filter(pk=event.pk).update(name=f"Tuesday #{number}")
        events.append(event)

    page = new_page(tessa)
    page.goto("/poker-room/leagues/")
    expect(page.locator("h1")).to_have_text("Leagues")
    page.fill("#lg-name", "Mainz League")
    page.fill("#lg-season", "2026")
    page.check("input[name=formula][value=sqrt_place]")
    page.fill("#lg-best-of", "2")
    page.fill("#lg-size", "4")
    page.fill("#lg-cpp", "100")
    page.select_option("#lg-rounding", "down")
    _shot(page, "league-list")
    _shot(page, "league-list-form", "#new-title")
    page.locator("form.league-form button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("Mainz League · 2026")
    league = League.objects.get(name="Mainz League")
    assert (league.best_of, league.master_class_size, league.chips_per_point) == (2, 4, 100)

    for event in events:
        page.select_option("#lg-event", str(event.pk))
        page.locator("form.event-add button[type=submit]").click()
        expect(page.locator(f'tr[data-event="{event.pk}"]')).to_have_count(1)

    expected = _expected()
    ranked = sorted(expected.items(), key=lambda item: item[1], reverse=True)
    for name, total in ranked[:5]:
        expect(page.locator(f'tr[data-player="{name}"] td.total')).to_have_text(str(total))
    # Anna played all three: 1st of 8, 3rd of 6, 2nd of 7; the 3rd of 6 (14.14) is dropped.
    expect(page.locator('tr[data-player="Anna"] td.dropped')).to_have_text("3. · 14.14")
    top4 = [name for name, _total in ranked[:4]]
    stacks = {
        name: master_class_chips(expected[name], chips_per_point=100, smallest_chip=25, rounding="down")
        for name in top4
    }
    for name in top4:
        expect(page.locator(f'tr[data-player="{name}"] td.stack')).to_have_text(_grouped(stacks[name]))
    expect(page.locator("#standings")).to_contain_text("100 chips a point, rounded down to a multiple of 25.")
    _shot(page, "league-standings", "#standings-title")

    pdf = page.request.get(page.locator("#standings-pdf").get_attribute("href"))
    assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.body().startswith(b"%PDF")
    if SHOTS:
        (Path(SHOTS) / "league-standings.pdf").write_bytes(pdf.body())

    page.locator("details.invite-form summary").click()
    page.locator("#invite-confirm").click()
    expect(page.locator(".pit-title h1")).to_have_text("Master Class 2026")
    master = League.objects.get(pk=league.pk).master_class
    assert master is not None
    for name in top4:
        expect(page.locator(f'tr[data-entry] td:text-is("{name}")')).to_have_count(1)
    expect(page.locator("dd", has_text=_grouped(sum(stacks.values())))).to_have_count(1)
    assert dict(Entry.objects.filter(tournament=master).values_list("name", "chips")) == stacks
    _shot(page, "league-master-class-console")

    page.goto(f"/poker-room/leagues/{league.pk}/")
    for name in top4:
        expect(page.locator(f'tr[data-invited="{name}"] td.stack')).to_have_text(_grouped(stacks[name]))
    _shot(page, "league-page-after")
