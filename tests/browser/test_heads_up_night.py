"""In Chromium: an MSOP Heads Up night of six players, seeded, played as a knock-out.

Tessa starts the event and draws the bracket from the console (a first round of four, seeds 1 and 2 have a bye).
Dana, the dealer of table 1, opens her home page, taps the tournament table and lands on the match's tablet: she
counts seven hands (one double tap counts once), sees the blinds go up to level 2 for the 8th hand, takes one hand
back, and records the winner with the confirmation. Tessa plays the rest to the final; the results show the places,
the losers of one round sharing their prizes equally, and the ledger verifies.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from casino.roles import Role
from ledger.verify import ledger_verify
from poker_room.heads_up import services as heads_up
from poker_room.heads_up.models import Match
from poker_room.tournaments import services
from poker_room.tournaments.models import Elimination, Entry, Tournament

NAMES = ["Ada", "Bela", "Cleo", "Dario", "Emil", "Frida"]  # entry numbers 1..6 are the seeds


def _hands(match: Match) -> int:
    return Match.objects.get(pk=match.pk).hands


@pytest.mark.django_db(transaction=True)
def test_a_heads_up_knock_out_of_six_from_the_draw_to_the_final(
    new_page: Callable[..., Any], shoot: Callable[..., Any], make_user: Callable[..., Any]
) -> None:
    tessa = make_user("tessa_director", Role.TOURNAMENT_DIRECTOR)
    dana = make_user("dana_dealer", Role.DEALER)
    tournament = services.tournament_create(
        actor=tessa, template_key="msop_heads_up", buy_in_cents=9_000, fee_cents=1_000, tables=3
    )
    services.tournament_settings_set(actor=tessa, tournament=tournament, heads_up_mode="knockout", seeding="seeded")
    for name in NAMES:
        services.entry_register(actor=tessa, tournament=tournament, name=name)
    services.tournament_start(actor=tessa, tournament=tournament, rng=random.Random(19))
    services.tournament_table_dealer_set(actor=tessa, tournament=tournament, table_number=1, dealer=dana)
    tournament.refresh_from_db()
    assert (tournament.format, tournament.status) == ("heads_up", "running")

    # --- the draw, from the console ---------------------------------------------------------------------------------
    page = new_page(tessa)
    page.goto(f"/poker-room/{tournament.pk}/")
    page.locator("#heads-up button[type=submit]", has_text="Draw the bracket").click()
    page.wait_for_load_state()
    expect(page.locator("#matches-playing tbody tr")).to_have_count(2)
    first = [
        (m.entry_a.number, m.entry_b.number, m.table_number)
        for m in Match.objects.filter(tournament=tournament, round=1).order_by("number")
    ]
    assert sorted((a, b) for a, b, _table in first) == [(3, 6), (4, 5)], first  # seeds 1 and 2 have a bye
    assert sorted(table for _a, _b, table in first) == [1, 2]
    tournament.refresh_from_db()
    assert tournament.prize_tiers == [[3, 4], [5, 6]]
    page.goto(f"/poker-room/{tournament.pk}/bracket/")
    expect(page.locator(".hu-round")).to_have_count(3)
    shoot(page, "poker-room-bracket")

    # --- Dana: her home page, the tournament table, the match's tablet ----------------------------------------------
    match = Match.objects.get(tournament=tournament, table_number=1, status="ready")
    tablet = new_page(dana)
    tablet.goto("/dealer/")
    tablet.locator(f'a.table-tile[href="/poker-room/{tournament.pk}/tables/1/"]').click()
    expect(tablet).to_have_url(re.compile(rf"/poker-room/{tournament.pk}/matches/{match.pk}/$"))
    expect(tablet.locator("#blinds")).to_contain_text("Level 1")

    hand_played = tablet.locator("#hand-played")
    for count in range(1, 7):
        hand_played.click()
        tablet.wait_for_load_state()
        expect(tablet.locator("#hands")).to_have_text(str(count))
    assert _hands(match) == 6
    expect(tablet.locator("#blinds")).to_contain_text("hand 7 of 7")
    expect(tablet.locator("#blinds")).to_contain_text("The blinds go up after this hand.")
    # The 7th hand tapped twice in a row: the same form sent twice counts one hand.
    form = tablet.locator("form", has=hand_played)
    sent = {
        "csrfmiddlewaretoken": form.locator("input[name=csrfmiddlewaretoken]").input_value(),
        "form_key": form.locator("input[name=form_key]").input_value(),
    }
    hand_played.evaluate("button => { button.click(); button.click(); }")
    expect(tablet.locator("#hands")).to_have_text("7")
    again = tablet.request.post(
        f"/poker-room/{tournament.pk}/matches/{match.pk}/hand/",
        form=sent,
        headers={"Referer": tablet.url},
    )
    assert again.ok
    assert _hands(match) == 7, "a double tap counts one hand"
    tablet.reload()
    expect(tablet.locator("#blinds")).to_contain_text("Level 2")  # the 8th hand is played at level 2
    expect(tablet.locator("#blinds")).to_contain_text("hand 1 of 7")
    tablet.locator("form", has_text="Undo last hand").locator("button").click()
    tablet.wait_for_load_state()
    expect(tablet.locator("#hands")).to_have_text("6")
    expect(tablet.locator("#blinds")).to_contain_text("Level 1")
    assert _hands(match) == 6
    shoot(tablet, "poker-room-match")

    # The winner, with the confirmation: the loser is out in the first round's tier (places 5 and 6).
    winner, loser = match.entry_b, match.entry_a
    tablet.locator("#side-2 a.btn", has_text=f"{winner.name} won").click()
    expect(tablet.locator("#confirm")).to_contain_text(f"Did #{winner.number} {winner.name} win the match?")
    tablet.locator("#confirm button[type=submit]").click()
    tablet.wait_for_load_state()
    expect(tablet.locator("body")).to_contain_text(f"{winner.name} won the match.")
    decided = Match.objects.get(pk=match.pk)
    assert (decided.status, decided.winner_id) == ("decided", winner.pk)
    assert Entry.objects.get(pk=loser.pk).place in (5, 6)

    # --- Tessa plays the rest through to the final ------------------------------------------------------------------
    for polling in (tablet, page):  # no page polls while the services write (SQLite locks the tables)
        _leave(polling)
    while (
        open_match := Match.objects.filter(tournament=tournament, status="ready", table_number__isnull=False)
        .order_by("round", "number")
        .first()
    ) is not None:
        heads_up.match_decide(actor=tessa, tournament=tournament, match=open_match, winner=open_match.entry_a_id)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    paid = Elimination.objects.filter(tournament=tournament, status="in_force")
    prizes = {e.place: e.prize_cents for e in paid}
    assert sorted(prizes) == [1, 2, 3, 4, 5, 6]
    assert prizes[3] == prizes[4] and prizes[5] == prizes[6], prizes  # the losers of one round share
    assert sum(prizes.values()) == 6 * 9_000, "the whole pool was paid out"

    page.goto(f"/poker-room/{tournament.pk}/results/")
    rows = page.locator("table tbody tr")
    expect(rows).to_have_count(6)
    shown = {}
    for index in range(6):
        cells = rows.nth(index).locator("td")
        shown[cells.nth(0).inner_text().strip()] = (
            cells.nth(2).inner_text().strip(),
            cells.nth(3).inner_text().strip(),
        )
    assert sorted(shown) == ["1.", "2.", "3.", "4.", "5.", "6."], shown
    for place, entry in ((e.place, e.entry) for e in paid.select_related("entry")):
        assert shown[f"{place}."][0] == entry.name
    assert shown["3."][1] == shown["4."][1] and shown["5."][1] == shown["6."][1], shown
    report = ledger_verify()
    assert report.ok, report.problems


def _leave(page: Any) -> None:
    """Go to a blank page; a page that polls may be reloading itself just then (the bracket follows the
    matches), which interrupts the navigation: go again."""
    for _ in range(5):
        try:
            page.goto("about:blank")
            return
        except PlaywrightError as exc:
            if "interrupted by another navigation" not in str(exc):
                raise
    page.goto("about:blank")
