"""In Chromium: an Open-Face points tournament of 8 players over 2 rounds of 3 hands, scored by the engine.

Tessa directs from the console: an Open-Face points event of two tables of four, 2 rounds of 3 hands; 8 players
register, the seats are drawn, round 1 begins. Dana deals table 1 and types each hand's boards on her tablet (cards
from a seeded deck, laid out the simple way: the three lowest in front, the highest five behind; some foul); Tessa
enters table 2's. Every hand's points on the page are the ones ``rules.games.ofc.score`` gives. A card typed twice is
refused next to its field with nothing written; a double tap and a resent form score a hand once; a hand voided is
entered again. Round 2 redraws the tables; after its hands the standings match the engine's totals, the finish
places everyone by them, the results page shows the places and prizes, and the ledger verifies.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from casino.roles import Role
from ledger.verify import ledger_verify
from poker_room.ofc_events.models import OfcHand
from poker_room.tournaments import services
from poker_room.tournaments.models import Elimination, Entry, SeatMove, Tournament
from tests.poker_room.ofc_events.play import deal_boards, engine_points

PLAYERS = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fritz", "Gina", "Hans"]
SHOTS = Path("/tmp/h/shots")


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _seated(tournament: Tournament, table: int) -> list[int]:
    return list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE, table_number=table)
        .order_by("seat_number")
        .values_list("number", flat=True)
    )


def _fill(page: Any, boards: dict[int, tuple[str, ...] | list[str]]) -> None:
    for number, rows in boards.items():
        for row, cards in zip(("front", "middle", "back"), rows, strict=True):
            page.fill(f"#b-{number}-{row}", cards)


def _score(page: Any, boards: dict[int, tuple[str, str, str]], *, double_tap: bool = False) -> None:
    """Type the boards, score the hand, and check each player's points against the engine's."""
    _fill(page, boards)
    button = page.locator("#ofc-hand-form button[type=submit]")
    # Until the answer's page is in: the last hand's points may be the same, and a page opened meanwhile would be
    # interrupted by the answer's redirect (to #result).
    with page.expect_navigation():
        if double_tap:
            button.dblclick()
        else:
            button.click()
    page.wait_for_load_state()
    for number, points in engine_points(boards).items():
        expect(page.locator(f'#ofc-result tr[data-entry="{number}"] td.points')).to_have_attribute(
            "data-points", str(points)
        )


def _open(page: Any, url: str) -> None:
    """Open a table's page. A hand tapped twice sends its form twice: the second answer's page (the same table, at
    #result) may still be on its way and cut the opening short; then it has arrived, and the page is opened again."""
    try:
        page.goto(url)
    except PlaywrightError as error:
        if "interrupted by another navigation" not in str(error):
            raise
        page.wait_for_load_state()
        page.goto(url)


def _park(page: Any) -> None:
    """Leave the console for a blank page while the other tablet scores: the console draws itself again whenever the
    tournament changes, and that reload, left to run, could cut short this tablet's next page."""
    page.goto("about:blank")


def _hands(tournament: Tournament, table: int) -> int:
    return OfcHand.objects.filter(
        tournament=tournament,
        table_number=table,
        round=Tournament.objects.get(pk=tournament.pk).ofc_round,
        status=OfcHand.Status.IN_FORCE,
    ).count()


@pytest.mark.django_db(transaction=True)
def test_an_open_face_points_tournament_of_eight_over_two_rounds(
    new_page: Callable[..., Any], make_user: Callable[..., Any]
) -> None:
    tessa = make_user("tessa_director", Role.TOURNAMENT_DIRECTOR)
    dana = make_user("dana_dealer", Role.DEALER)
    page = new_page(tessa)
    deck = random.Random(2026)
    totals: dict[int, int] = {}

    # --- the event: Open-Face points, two tables of four, 2 rounds of 3 hands -----------------------------------------
    page.goto("/poker-room/")
    page.check("#tp-msop_turbo")
    page.fill("#new-name", "OFC Night")
    page.fill("#new-buy-in", "50.00")
    page.fill("#new-fee", "10.00")
    page.fill("#new-tables", "2")
    page.select_option("#new-format", "ofc_points")
    page.locator("form.new-form button[type=submit]").click()
    page.wait_for_load_state()
    tournament = Tournament.objects.get()
    assert (tournament.format, tournament.table_size) == ("ofc_points", 4)
    page.locator("details#format-rules").evaluate("details => details.open = true")
    page.fill("#set-ofc_rounds", "2")
    page.fill("#set-ofc_hands_per_round", "3")
    page.locator("form#settings-format button[type=submit]").click()
    page.wait_for_load_state()
    tournament.refresh_from_db()
    assert (tournament.ofc_rounds, tournament.ofc_hands_per_round, tournament.ofc_royalties) == (2, 3, "mainz")
    services.tournament_table_dealer_set(actor=tessa, tournament=tournament, table_number=1, dealer=dana)

    for name in PLAYERS:
        page.fill("#reg-name", name)
        page.locator("form.register-name button[type=submit]").click()
        expect(page.locator(f'tr[data-entry] td:text-is("{name}")')).to_have_count(1)
    page.get_by_role("button", name="Start the tournament").click()
    page.wait_for_load_state()
    expect(page.locator("#ofc-begin button")).to_have_text("Begin round 1")
    page.locator("#ofc-begin button").click()
    page.wait_for_load_state()
    tournament.refresh_from_db()
    assert tournament.ofc_round == 1
    assert sorted(len(_seated(tournament, table)) for table in (1, 2)) == [4, 4]
    expect(page.locator("#ofc-state")).to_contain_text("Round 1 of 2")
    _shot(page, "ofc_console")
    _park(page)

    dana_page = new_page(dana)

    # --- round 1 ------------------------------------------------------------------------------------------------
    # Table 1 on Dana's tablet; the second hand is tapped twice, the third form is sent again: each scored once.
    for hand in range(1, 4):
        _open(dana_page, f"/poker-room/{tournament.pk}/ofc/tables/1/")
        expect(dana_page.locator("#ofc-hand")).to_have_text(f"{hand} of 3")
        boards = deal_boards(deck, _seated(tournament, 1))
        if hand == 3:
            _fill(dana_page, boards)
            sent = dana_page.locator("#ofc-hand-form").evaluate(
                "form => Object.fromEntries(new FormData(form).entries())"
            )
        _score(dana_page, boards, double_tap=hand == 2)
        assert _hands(tournament, 1) == hand
        for number, points in engine_points(boards).items():
            totals[number] = totals.get(number, 0) + points
    again = dana_page.request.post(f"/poker-room/{tournament.pk}/ofc/tables/1/hands/", form=sent)
    assert again.ok and "This hand was scored already." in again.text()
    assert _hands(tournament, 1) == 3
    expect(dana_page.locator("#table-done")).to_be_visible()
    _shot(dana_page, "ofc_table")

    # Table 2 on Tessa's: a card typed twice is refused next to its field, nothing written; then a hand voided.
    _open(page, f"/poker-room/{tournament.pk}/ofc/tables/2/")
    seats = _seated(tournament, 2)
    boards = deal_boards(deck, seats)
    wrong = {number: list(rows) for number, rows in boards.items()}
    twice = wrong[seats[0]][0].split()[0]
    wrong[seats[2]][2] = " ".join([*wrong[seats[2]][2].split()[:4], twice])
    _fill(page, wrong)
    page.locator("#ofc-hand-form button[type=submit]").click()
    page.wait_for_load_state()
    error = page.locator(f"#b-{seats[2]}-back-error")
    expect(error).to_contain_text("is on the table twice")
    expect(page.locator(f"#b-{seats[2]}-back")).to_have_value(wrong[seats[2]][2])
    assert _hands(tournament, 2) == 0
    _shot(page, "ofc_table_refusal")
    _fill(page, {seats[2]: boards[seats[2]]})
    page.locator("#ofc-hand-form button[type=submit]").click()
    page.wait_for_load_state()
    assert _hands(tournament, 2) == 1
    page.fill("#void-reason", "Seat 1's middle was read wrongly")
    page.locator("#ofc-void-form button[type=submit]").click()
    page.wait_for_load_state()
    assert _hands(tournament, 2) == 0
    assert OfcHand.objects.filter(status=OfcHand.Status.VOIDED).count() == 1
    expect(page.locator("#ofc-hand")).to_have_text("1 of 3")
    for _hand in range(3):
        boards = deal_boards(deck, _seated(tournament, 2))
        _score(page, boards)
        for number, points in engine_points(boards).items():
            totals[number] = totals.get(number, 0) + points

    # --- round 2: the tables drawn again ------------------------------------------------------------------------
    before = {e.number: (e.table_number, e.seat_number) for e in Entry.objects.filter(tournament=tournament)}
    page.goto(f"/poker-room/{tournament.pk}/")
    page.locator("#ofc-begin button").click()
    page.wait_for_load_state()
    tournament.refresh_from_db()
    assert tournament.ofc_round == 2
    after = {e.number: (e.table_number, e.seat_number) for e in Entry.objects.filter(tournament=tournament)}
    redraw = SeatMove.objects.filter(tournament=tournament, reason=SeatMove.Reason.ROUND_DRAW)
    assert redraw.count() == 8
    assert {(m.entry.number, (m.from_table, m.from_seat), (m.to_table, m.to_seat)) for m in redraw} == {
        (number, before[number], after[number]) for number in before
    }
    assert before != after  # a fresh draw: 1 in 40,320 to seat everyone where they sat
    assert sorted(len(_seated(tournament, table)) for table in (1, 2)) == [4, 4]
    expect(page.locator("#ofc-finish")).to_have_count(0)
    _park(page)
    for table, tablet in ((1, dana_page), (2, page)):
        for _hand in range(3):
            _open(tablet, f"/poker-room/{tournament.pk}/ofc/tables/{table}/")
            boards = deal_boards(deck, _seated(tournament, table))
            _score(tablet, boards)
            for number, points in engine_points(boards).items():
                totals[number] = totals.get(number, 0) + points

    # --- the standings and the finish -----------------------------------------------------------------------------
    page.goto(f"/poker-room/{tournament.pk}/ofc/standings/")
    for number, total in totals.items():
        expect(page.locator(f'tr[data-entry="{number}"] td.total')).to_have_attribute("data-total", str(total))
    assert sum(totals.values()) == 0
    _shot(page, "ofc_standings")
    page.goto(f"/poker-room/{tournament.pk}/")
    expect(page.locator('#ofc tbody[data-table="2"]')).to_contain_text("3 / 3")
    page.locator("#ofc").screenshot(path=str(SHOTS / "ofc_console_finish.png"))
    page.locator("#ofc-finish button").click()
    page.wait_for_load_state()
    assert page.url.endswith(f"/poker-room/{tournament.pk}/results/")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    placed = sorted(Entry.objects.filter(tournament=tournament), key=lambda e: e.place)
    assert [e.place for e in placed] == list(range(1, 9))
    assert all(totals[a.number] >= totals[b.number] for a, b in zip(placed, placed[1:], strict=False))
    prizes = {el.place: el.prize_cents for el in Elimination.objects.filter(tournament=tournament)}
    assert [prizes[place] for place in range(1, 9)] == [20_000, 12_000, 8_000, 0, 0, 0, 0, 0]  # 50/30/20 of 400.00
    first = page.locator("table.results tbody tr").first
    expect(first).to_contain_text(placed[0].name)
    expect(first).to_contain_text("200.00")
    _shot(page, "ofc_results")
    page.goto(f"/poker-room/{tournament.pk}/ofc/standings/")
    expect(page.locator("table.ofc-standings tbody tr").first).to_contain_text(placed[0].name)
    assert ledger_verify().ok
