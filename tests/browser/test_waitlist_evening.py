"""In Chromium: an evening of the card room's waitlist. Two games (Chinese Poker at 5.00 a point, Open-Face at 2.00),
CP-1 the Chinese Poker main game with CP-2 must-moving into it, OFC-1 dealing Open-Face; ten names put down, eight at
the desk (one a rated player by card number) and two by guests at the room display's kiosk; the first names called
and seated; Fay, called, does not come: once the minutes allowed have passed (a fake clock) the desk marks her a
no-show and the next name is called; Ben leaves the main game and Emil, seated longest at the must-move table, moves
to his seat; the room display shows every list by initials only. The desk and the display in English and German.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from casino.audit_verify import audit_log_verify
from casino.roles import Role
from players.models import RatingSeat
from players.services import player_create
from poker_room.waitlist.models import WaitlistEntry
from poker_room.waitlist.views import screen_address
from tests.caches import cache_clear

CHINESE_POKER = ["Anna Berg", "Ben Carter", "Cleo Dahl", "Dora Engel", "Emil Fors"]  # at the desk, then
OPEN_FACE = ["Hugo Ivers", "Ines Jansen"]


class Clock:
    """The server's clock, moved on by the test (the live server runs in this process)."""

    def __init__(self) -> None:
        self.offset = dt.timedelta(0)
        self.real = timezone.now

    def now(self) -> dt.datetime:
        return self.real() + self.offset


@pytest.fixture
def clock() -> Iterator[Clock]:
    fake = Clock()
    with mock.patch("django.utils.timezone.now", side_effect=fake.now):
        yield fake


def _desk_form(page: Any, list_title: str) -> Any:
    return page.locator("section.cash-game", has=page.get_by_role("heading", name=re.compile(list_title)))


def _click(page: Any, locator: Any) -> None:
    locator.click()
    page.wait_for_load_state()


def _status(name: str) -> str:
    return WaitlistEntry.objects.get(name=name).status


@pytest.mark.django_db(transaction=True)
def test_a_waitlist_evening_of_ten_names_two_games_and_a_must_move_table(
    new_page: Callable[..., Any],
    shoot: Callable[..., Any],
    make_user: Callable[..., Any],
    make_table: Callable[..., Any],
    shift: Any,
    clock: Clock,
    settings: Any,
) -> None:
    cache_clear()
    settings.TABLESIDE_WAITLIST_NO_SHOW_MINUTES = 10
    fred = make_user("fred_floor", Role.FLOOR_SUPERVISOR)
    for name, game, seats in (("CP-1", "chinese_poker", 4), ("CP-2", "chinese_poker", 4), ("OFC-1", "ofc", 2)):
        make_table(name=name, game=game, seat_count=seats)
    gus = player_create(actor=fred, name="Gus Holt", card_number="1001", tier="Gold")

    # --- the desk opens two lists and gives them their tables ---------------------------------------------------------
    desk = new_page(fred)
    desk.goto("/poker-room/waitlist/")
    expect(desk.get_by_text("No list is open.")).to_be_visible()
    for game, point in (("chinese_poker", "5.00"), ("ofc", "2.00")):
        desk.select_option("#open-game", game)
        desk.fill("#open-points", point)
        _click(desk, desk.get_by_role("button", name="Open the list"))
    cp = _desk_form(desk, "Chinese Poker · 5.00 a point")
    ofc = _desk_form(desk, "Open-Face Chinese Poker · 2.00 a point")
    expect(cp).to_have_count(1)
    for table, must_move in (("CP-1", False), ("CP-2", True)):
        cp.locator("select[name=table]").select_option(label=table)
        if must_move:
            cp.locator("input[name=must_move]").check()
        _click(desk, cp.get_by_role("button", name="Add the table"))
    ofc.locator("select[name=table]").select_option(label="OFC-1")
    _click(desk, ofc.get_by_role("button", name="Add the table"))
    expect(cp.locator(".cash-table")).to_have_count(2)
    expect(cp.locator(".cash-table.must-move h3")).to_contain_text("CP-2")

    # --- ten names: eight at the desk (one by card number), two at the kiosk ---------------------------------------
    for name in CHINESE_POKER:
        cp.locator("input[name=name]").fill(name)
        _click(desk, cp.get_by_role("button", name="Put down"))
        expect(desk.locator(".pit-message.success")).to_contain_text(f"{name} is on the list.")
    kiosk = new_page(None)
    kiosk.goto(screen_address())
    for name, game in (("Fay Gruber", "Chinese Poker"), ("Jon Kraus", "Open-Face")):
        kiosk.fill("#kiosk-name", name)
        kiosk.locator("#kiosk-game").select_option(
            label=next(o for o in kiosk.locator("#kiosk-game option").all_inner_texts() if o.startswith(game))
        )
        _click(kiosk, kiosk.get_by_role("button", name="Put me down"))
        initials = ". ".join(part[0] for part in name.split()) + "."
        expect(kiosk.locator(".kiosk-message")).to_contain_text(f"{initials} is on the list")
        expect(kiosk.locator("body")).not_to_contain_text(name.split()[0])
    cp.locator("input[name=card_number]").fill("1001")
    _click(desk, cp.get_by_role("button", name="Put down"))
    for name in OPEN_FACE:
        ofc.locator("input[name=name]").fill(name)
        _click(desk, ofc.get_by_role("button", name="Put down"))
    # Jon came through the kiosk before Hugo and Ines were put down at the desk: he is first on their list.
    assert WaitlistEntry.objects.count() == 10
    expect(cp.locator("tbody tr[data-entry]")).to_have_count(7)
    expect(ofc.locator("tbody tr[data-entry]")).to_have_count(3)
    expect(cp.locator("tbody tr", has_text="Fay Gruber")).to_contain_text("kiosk")
    expect(cp.locator("tbody tr", has_text="Gus Holt")).to_contain_text("rated")

    # --- calls and seats: the main game fills first, then the must-move table ---------------------------------------
    for name in CHINESE_POKER:
        _click(desk, cp.get_by_role("button", name="Call the next name"))
        called = cp.locator("table.called tr", has_text=name)
        expect(called).to_contain_text("CP-2" if name == "Emil Fors" else "CP-1")
        if name == "Cleo Dahl":  # the room display mid-evening: names called and waiting, initials only
            kiosk.goto(screen_address())
            expect(kiosk.locator(".screen-called")).to_contain_text("C. D. to table CP-1")
            shoot(kiosk, "waitlist-display")
        _click(desk, called.get_by_role("button", name="Seat"))
    for _ in range(2):
        _click(desk, ofc.get_by_role("button", name="Call the next name"))
    for name in ("Jon Kraus", "Hugo Ivers"):
        _click(desk, ofc.locator("table.called tr", has_text=name).get_by_role("button", name="Seat"))
    expect(ofc.get_by_role("button", name="Call the next name")).to_be_disabled()  # OFC-1 is full, Ines waits
    assert [_status(name) for name in CHINESE_POKER] == ["seated"] * 5

    # --- Fay is called and does not come: a no-show once ten minutes have passed, and Gus is called -----------------
    _click(desk, cp.get_by_role("button", name="Call the next name"))
    fay = cp.locator("table.called tr", has_text="Fay Gruber")
    expect(fay).to_contain_text("CP-2")
    expect(fay.get_by_role("button", name="No-show")).to_have_count(0)
    clock.offset = dt.timedelta(minutes=10, seconds=5)
    desk.reload()
    expect(fay).to_contain_text("overdue")
    _click(desk, fay.get_by_role("button", name="No-show"))
    expect(desk.locator(".pit-message.success")).to_contain_text(
        "Fay Gruber is a no-show; Gus Holt is called to table CP-2."
    )
    _click(desk, cp.locator("table.called tr", has_text="Gus Holt").get_by_role("button", name="Seat"))
    assert _status("Fay Gruber") == "no_show" and _status("Gus Holt") == "seated"
    rated = RatingSeat.objects.get(session__player=gus, ended_at__isnull=True)
    assert rated.table.name == "CP-2"

    # --- Ben leaves the main game: Emil, longest at the must-move table, moves to his seat ---------------------------
    clock.offset = dt.timedelta(minutes=40)
    main = cp.locator(".cash-table", has_text="CP-1")
    _click(desk, main.locator("li", has_text="Ben Carter").get_by_role("button", name="Leaves"))
    expect(cp.get_by_role("button", name="Move to the main game")).to_be_visible()
    _click(desk, cp.get_by_role("button", name="Move to the main game"))
    expect(desk.locator(".pit-message.success")).to_contain_text(
        "Emil Fors moves to the main game: table CP-1, seat 2."
    )
    expect(main.locator("li", has_text="Emil Fors")).to_contain_text("Seat 2")
    expect(cp.locator(".cash-table.must-move li")).to_have_count(1)  # Gus, rated, stays at CP-2
    shoot(desk, "waitlist-desk")

    # --- the room display: the lists, initials only -------------------------------------------------------------------
    kiosk.goto(screen_address())
    board = kiosk.locator(".screen-lists")
    expect(board.locator("[data-list]")).to_have_count(2)
    expect(board.locator("[data-list]", has_text="Open-Face").locator(".screen-waiting li")).to_have_text(["I. J."])
    expect(board.locator("[data-list]").first).to_contain_text("Chinese Poker")
    expect(board.locator("[data-list]").first).to_contain_text("No wait")
    for name in [*CHINESE_POKER, *OPEN_FACE, "Fay Gruber", "Jon Kraus", "Gus Holt"]:
        for word in name.split():
            expect(kiosk.locator("body")).not_to_contain_text(word)
    assert audit_log_verify().ok

    # --- the same in German ------------------------------------------------------------------------------------------
    german = new_page(fred, locale="de-DE")
    german.goto("/poker-room/waitlist/")
    expect(german.locator("h1")).to_have_text("Warteliste des Cardrooms")
    shoot(german, "waitlist-desk-de")
    screen_de = new_page(None, locale="de-DE")
    screen_de.goto(screen_address())
    expect(screen_de.locator("h1")).to_have_text("Warteliste des Cardrooms")
    shoot(screen_de, "waitlist-display-de")
