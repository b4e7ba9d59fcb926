"""In Chromium: a 20-player tournament on two tables, from registration to the last payout.

Tessa directs MSOP Turbo from the console: 18 players register, the seats are drawn, two more enter late, a rebuy,
add-ons at the break where the 25 chips are coloured up, busts that force a balance and then break table 2, a
mistaken bust undone, and the last two players paid. Dana, table 1's dealer, records a bust on her tablet and sees
the seat changes. The room display (the TV's signed address, no sign-in) shows a pause within a second, measured.
At the end the ledger verifies and the tournament's revenue is the fees it took.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from casino.roles import Role
from ledger.verify import ledger_verify
from poker_room.pure.structure import Level, LevelKind
from poker_room.tournaments.models import Elimination, Entry, Purchase, SeatMove, Tournament
from poker_room.tournaments.money import tournament_money

PLAYERS = [f"Player {letter}" for letter in "ABCDEFGHIJKLMNOPQRST"]  # 20 names: A..R register, S and T late


def _console(page: Any, tournament: Tournament) -> None:
    """Open the console. The console draws itself again when the tournament changes (a bust on Dana's tablet): a
    reload the page starts in the same instant as this navigation can leave Chromium's navigation waiting for a load
    that never comes, so a navigation that times out is made once more, from a blank page."""
    address = f"/poker-room/{tournament.pk}/"
    try:
        page.goto(address, timeout=5_000)
    except PlaywrightTimeoutError:
        page.goto("about:blank")
        page.goto(address)


def _register(page: Any, name: str) -> None:
    page.fill("#reg-name", name)
    page.locator("form.register-name button[type=submit]").click()
    expect(page.locator(f'tr[data-entry] td:text-is("{name}")')).to_have_count(1)


def _bust(page: Any, tournament: Tournament, entry: Entry) -> None:
    """The console's bust form: choose the player, confirm."""
    _console(page, tournament)
    page.locator("details.bust-form summary").click()
    page.select_option("#bust-entry", str(entry.pk))
    page.locator("details.bust-form button[type=submit]").click()
    page.wait_for_load_state()
    assert Entry.objects.get(pk=entry.pk).status != Entry.Status.ACTIVE


def _active(tournament: Tournament, table: int | None = None) -> list[Entry]:
    found = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
    if table is not None:
        found = found.filter(table_number=table)
    return list(found.order_by("number"))


def _seated(tournament: Tournament) -> dict[int, int]:
    counts: dict[int, int] = {}
    for entry in _active(tournament):
        counts[entry.table_number] = counts.get(entry.table_number, 0) + 1
    return counts


def _colour_up_break(tournament: Tournament) -> tuple[int, int]:
    """(index of the first break that colours up a chip, the number of the level before it)."""
    levels = [Level.from_dict(row) for row in tournament.levels]
    number = 0
    for index, level in enumerate(levels):
        if level.kind == LevelKind.BREAK and level.colour_up:
            return index, number
        if level.kind == LevelKind.LEVEL:
            number += 1
    raise AssertionError("the generated structure colours up no chip")


@pytest.mark.django_db(transaction=True)
def test_a_twenty_player_tournament_from_registration_to_the_last_payout(
    new_page: Callable[..., Any], shoot: Callable[..., Any], make_user: Callable[..., Any]
) -> None:
    tessa = make_user("tessa_director", Role.TOURNAMENT_DIRECTOR)
    dana = make_user("dana_dealer", Role.DEALER)
    page = new_page(tessa)

    # --- the tournament, from the room's list of events ------------------------------------------------------------
    page.goto("/poker-room/")
    page.check("#tp-msop_turbo")
    page.fill("#new-buy-in", "50.00")
    page.fill("#new-fee", "10.00")
    page.fill("#new-tables", "2")
    page.locator("form.new-form button[type=submit]").click()
    page.wait_for_load_state()
    tournament = Tournament.objects.get()
    assert (tournament.name, tournament.starting_stack, tournament.buy_in_cents, tournament.fee_cents) == (
        "MSOP Turbo",
        3_000,
        5_000,
        1_000,
    )
    colour_up_index, rebuy_until = _colour_up_break(tournament)

    # Ten a table; late registration and rebuys (one an entry, 3,000 chips for 50.00 + 5.00) until the break that
    # colours up the 25 chips, where the add-on (5,000 chips for 50.00 + 5.00) is sold; one re-entry.
    page.locator("details#entry-rules").evaluate("details => details.open = true")
    page.fill("#set-table_size", "10")
    page.fill("#set-late_registration_level", str(rebuy_until))
    page.fill("#set-reentries_max", "1")
    page.fill("#set-rebuys_max", "1")
    page.fill("#set-rebuy_until_level", str(rebuy_until))
    page.locator("form#settings-entries button[type=submit]").click()
    page.wait_for_load_state()
    page.locator("details#entry-rules").evaluate("details => details.open = true")
    for name, value in (
        ("rebuy_cents", "50.00"),
        ("rebuy_fee_cents", "5.00"),
        ("rebuy_chips", "3000"),
        ("addon_cents", "50.00"),
        ("addon_fee_cents", "5.00"),
        ("addon_chips", "5000"),
    ):
        page.fill(f"#set-{name}", value)
    page.locator("form#settings-rebuys button[type=submit]").click()
    page.wait_for_load_state()
    tournament.refresh_from_db()
    assert (tournament.table_size, tournament.rebuys_max, tournament.addon_chips) == (10, 1, 5_000)

    for name in PLAYERS[:18]:
        _register(page, name)
    page.locator("#clock button[type=submit]", has_text="Start the tournament").click()
    page.wait_for_load_state()
    tournament.refresh_from_db()
    assert tournament.status == "running"
    assert _seated(tournament) == {1: 9, 2: 9}
    shoot(page, "poker-room-console")

    # --- the room display on the TV: a pause reaches it within a second -------------------------------------------
    screen_address = page.input_value("#display-url")
    tv = new_page()  # nobody signed in: the TV in the room
    tv.goto(screen_address)
    expect(tv.locator("#display")).to_have_attribute("data-status", "running")
    expect(tv.locator('[data-field="players_left"]')).to_have_text("18")
    # The TV notes the instant its status turns to paused; the director's click is timed on the same machine's clock.
    tv.evaluate(
        """() => {
        const display = document.querySelector('#display');
        new MutationObserver(() => {
            if (display.dataset.status === 'paused' && !window.__pausedAt) { window.__pausedAt = Date.now(); }
        }).observe(display, {attributes: true});
    }"""
    )

    def pause_and_resume() -> int:
        """The director pauses and resumes the clock: how long the pause took to reach the TV, in ms."""
        tv.evaluate("() => { window.__pausedAt = 0; }")
        clicked_at = page.evaluate("() => Date.now()")
        page.locator("#clock button[type=submit]", has_text="Pause").click()
        expect(tv.locator("#display")).to_have_attribute("data-status", "paused", timeout=5_000)
        reached_ms: int = tv.evaluate("() => window.__pausedAt") - clicked_at
        print(f"the pause reached the room display after {reached_ms} ms")
        if not shot:
            shot.append(shoot(tv, "poker-room-display"))
        page.wait_for_load_state()
        page.locator("#clock button[type=submit]", has_text="Resume").click()
        page.wait_for_load_state()
        expect(tv.locator("#display")).to_have_attribute("data-status", "running", timeout=5_000)
        return reached_ms

    shot: list[object] = []
    reached = [pause_and_resume()]
    if reached[0] >= 1000:  # a busy machine (CI runs two test workers and their browsers on two cores): once more
        reached.append(pause_and_resume())
    assert min(reached) < 1000, f"the pause reached the room display after {reached} ms"

    # --- late entries, a rebuy, Dana's tablet --------------------------------------------------------------------
    for name in PLAYERS[18:]:
        _register(page, name)
    assert _seated(tournament) == {1: 10, 2: 10}
    expect(tv.locator('[data-field="players_left"]')).to_have_text("20", timeout=2_000)
    anna = Entry.objects.get(tournament=tournament, name="Player A")
    page.locator(f'tr[data-entry="{anna.number}"] button', has_text="Rebuy").click()
    page.wait_for_load_state()
    expect(page.locator(f'tr[data-entry="{anna.number}"] button', has_text="Rebuy")).to_have_count(0)  # one only
    assert Entry.objects.get(pk=anna.pk).rebuys == 1

    page.locator("#dealer-1").select_option(str(dana.pk))
    page.locator("#table-1 .table-staff form").first.locator("button").click()
    page.wait_for_load_state()
    tablet = new_page(dana)
    tablet.goto(f"/poker-room/{tournament.pk}/tables/1/")
    out_at_one = _active(tournament, 1)[0]
    tablet.locator(f'.t-seat a[href="?bust={out_at_one.pk}#bust"]').click()
    tablet.locator("#bust button[type=submit]").click()
    tablet.wait_for_load_state()
    assert Entry.objects.get(pk=out_at_one.pk).status == Entry.Status.BUSTED
    assert _seated(tournament) == {1: 9, 2: 10}

    # --- busts at table 1 force a balance: table 2's next big blind moves to table 1's worst position ---------------
    _bust(page, tournament, _active(tournament, 1)[0])  # 8 against 10: one moves
    assert _seated(tournament) == {1: 9, 2: 9}
    moved = SeatMove.objects.filter(tournament=tournament, reason=SeatMove.Reason.BALANCE).get()
    assert (moved.from_table, moved.to_table) == (2, 1)
    # Dana's tablet shows who arrives, without her reloading it.
    expect(tablet.locator("#seat-changes")).to_contain_text(
        f"Seat {moved.to_seat}: #{moved.entry.number} {moved.entry.name} from table 2", timeout=6_000
    )
    shoot(tablet, "poker-room-tablet")
    _bust(page, tournament, _active(tournament, 1)[0])
    assert _seated(tournament) == {1: 8, 2: 9}

    # --- a mistaken bust, undone -------------------------------------------------------------------------------------
    wrong = _active(tournament, 2)[0]
    _bust(page, tournament, wrong)
    _console(page, tournament)
    page.locator(".undo-row summary").click()
    page.fill("#undo-reason", "Wrong player: seat 3 still has chips")
    page.locator(".undo-row button[type=submit]").click()
    page.wait_for_load_state()
    assert Entry.objects.get(pk=wrong.pk).status == Entry.Status.ACTIVE
    assert Elimination.objects.get(entry=wrong).status == Elimination.Status.UNDONE
    expect(page.locator(".eliminations .is-undone")).to_contain_text("Wrong player")

    # --- the break with the colour-up: add-ons, registration closes ---------------------------------------------
    _console(page, tournament)
    for _ in range(colour_up_index):
        page.locator("#clock button", has_text="Level ▶").click()
        page.wait_for_load_state()
    chip = Level.from_dict(tournament.levels[colour_up_index]).colour_up
    expect(page.locator(".clock-blinds")).to_contain_text(f"Colour-up of the {chip}")
    expect(tv.locator('[data-field="colour_up"]')).to_be_visible(timeout=2_000)
    for entry in _active(tournament)[:3]:
        page.locator(f'tr[data-entry="{entry.number}"] button', has_text="Add-on").click()
        page.wait_for_load_state()
    assert Purchase.objects.filter(tournament=tournament, kind=Purchase.Kind.ADDON).count() == 3
    page.locator("#clock button", has_text="Level ▶").click()
    page.wait_for_load_state()
    expect(page.locator("#registration")).to_contain_text("closed")
    expect(page.locator("#reg-name")).to_have_count(0)

    # --- busts until table 2 breaks, then to the last two -------------------------------------------------------------
    while len(_active(tournament)) > 10:
        _bust(page, tournament, _active(tournament)[-1])
    assert set(_seated(tournament)) == {1}, "ten players left sit at the final table"
    assert SeatMove.objects.filter(
        tournament=tournament, reason__in=[SeatMove.Reason.TABLE_BREAK, SeatMove.Reason.FINAL_TABLE]
    ).exists()
    _console(page, tournament)
    expect(page.locator("#table-2")).to_contain_text("broken")
    while len(_active(tournament)) > 1:
        _bust(page, tournament, _active(tournament)[-1])

    # --- the results, and the money --------------------------------------------------------------------------------
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    page.goto(f"/poker-room/{tournament.pk}/results/")
    winner = Entry.objects.get(tournament=tournament, place=1)
    expect(page.locator("body")).to_contain_text(winner.name)
    shoot(page, "poker-room-results")
    paid = Elimination.objects.filter(tournament=tournament, status="in_force", prize_cents__gt=0)
    purchases = Purchase.objects.filter(tournament=tournament)
    pool = sum(p.prize_cents for p in purchases)
    fees = sum(p.fee_cents for p in purchases)
    # 20 entries + 1 rebuy + 3 add-ons: 24 × 50.00 to the pool, 20 × 10.00 + 4 × 5.00 in fees.
    assert (pool, fees) == (24 * 5_000, 20 * 1_000 + 4 * 500)
    assert sum(e.prize_cents for e in paid) == pool, "the whole pool was paid out"
    report = ledger_verify()
    assert report.ok, report.problems
    money = tournament_money(tournament)
    assert (money.revenue_cents, money.pool_left_cents) == (fees, 0)
