"""A shift with dealer rotation, in Chromium at 1024×768, on a fake clock (``django.utils.timezone.now``).

Two strings of three Pai Gow Poker tables, 60 on / 20 off (a push every 20 minutes, one relief each): string A is
A-1, A-2, A-3 dealt by Ann, Bob, Cy with Dee the relief; string B is B-1, B-2, B-3 with Eve, Fay, Gus and Hal. Paula
(Pit boss) clocks the eight dealers in on the rotation page at 14:00, makes both strings there and starts them.

At 14:19 Ann opens a round at A-1; at 14:20 Dee taps in on her tablet's home: the push waits (never mid-round), Ann's
tablet says so, and when Ann settles the round at 14:21 Dee has the table. Ann taps in at A-2, Bob at A-3, and Cy goes
on break; in string B, Paula pushes each table from the page. From then on every 20 minutes each string's dealers
tap in down the string (a round dealt at every table between pushes), until 15:40, one whole cycle and a push more.
At 15:00 string B's push is left undone: at 15:06 the rotation page shows its pushes and Eve's break as overdue, and
Paula pushes B-1 from the page. The rotation page and the tablets show each push at its time; every dealer had
their break of 20 minutes; the dealer report's rounds per dealer add up to the tables' rounds.

Takes the screenshots docs/screenshots/rotation.png (and rotation-de.png), rotation-tablet.png (and -de) and
rotation-dealer-home.png.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from casino.roles import Role
from pit.dealer_performance import dealer_performance_rows
from rounds.models import Round
from rounds.services import round_close_betting, round_deal, round_hands_record, round_open, wager_place
from rounds.states import RoundState
from settlement.services import settle_round
from tables.models import DealerPush, Table
from tables.rotation import rotation_push
from tests.settlement.conftest import BANK, WINS

T0 = dt.datetime(2026, 3, 2, 14, 0, tzinfo=dt.UTC)
STRINGS = {"A": ("ann", "bob", "cy", "dee"), "B": ("eve", "fay", "gus", "hal")}


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def at(self, hhmm: str) -> None:
        hours, minutes = (int(part) for part in hhmm.split(":"))
        self.now = T0.replace(hour=hours, minute=minutes)


@pytest.fixture
def clock() -> Iterator[Clock]:
    c = Clock()
    with mock.patch("django.utils.timezone.now", side_effect=lambda: c.now):
        yield c


def _play(table: Table, dealer: User, n: int) -> Round:
    """A round at ``table`` dealt by ``dealer``, to its settlement (seat 1 beats the house)."""
    round_ = _open(table, dealer)
    return _settle(round_, dealer, n)


def _open(table: Table, dealer: User) -> Round:
    round_ = round_open(actor=dealer, table=Table.objects.get(pk=table.pk))
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=2500)
    return round_


def _settle(round_: Round, dealer: User, n: int) -> Round:
    round_close_betting(actor=dealer, round=round_)
    round_deal(actor=dealer, round=round_, dice=[2, 3, 4])
    round_hands_record(actor=dealer, round=round_, hands={"banker": BANK, "seats": {"1": WINS}})
    settle_round(round=round_, actor=dealer, idempotency_key=f"rotation-{n}")
    return round_


def _dealer_at(table: Table) -> str:
    found = Table.objects.select_related("dealer").get(pk=table.pk).dealer
    return found.get_username() if found is not None else ""


@pytest.mark.usefixtures("eager_celery", "house_chips")
def test_a_shift_of_two_strings_rotating_sixty_on_twenty_off(
    new_page: Callable[..., Any],
    shoot: Callable[[Any, str], Any],
    clock: Clock,
    pit_boss: User,
    shift: Any,
    make_user: Callable[..., User],
    make_table: Callable[..., Table],
) -> None:
    users = {name: make_user(name, Role.DEALER) for names in STRINGS.values() for name in names}
    tables = {
        f"{s}-{n}": make_table(name=f"{s}-{n}", game="paigow_poker", seat_count=6) for s in STRINGS for n in (1, 2, 3)
    }
    by_string = {s: [tables[f"{s}-{n}"] for n in (1, 2, 3)] for s in STRINGS}

    # 14:00 — Paula clocks the dealers in, makes the strings and starts them.
    paula = new_page(pit_boss)
    paula.goto("/pit/")
    paula.get_by_role("link", name="Rotation").click()
    expect(paula.locator("h1")).to_have_text("Dealer rotation")
    for name in (*STRINGS["A"], *STRINGS["B"]):
        paula.select_option("#clock-in-dealer", label=name)
        paula.get_by_role("button", name="Clock in").click()
        expect(paula.locator(".pit-message.success")).to_have_text(f"{name} is clocked in.")
    for s, string_tables in by_string.items():
        paula.fill("input[name=name]", f"Pai Gow {s}")
        for table in string_tables:
            paula.get_by_label(table.name, exact=True).check()
        paula.fill("input[name=on_minutes]", "60")
        paula.fill("input[name=off_minutes]", "20")
        paula.get_by_role("button", name="Make the string").click()
        expect(paula.locator(".pit-message.success")).to_contain_text(f"String Pai Gow {s} is made")
    for s in STRINGS:
        paula.locator(".rot-string", has_text=f"Pai Gow {s}").get_by_role("button", name="Start").click()
        expect(paula.locator(".pit-message.success")).to_contain_text(f"String Pai Gow {s} is started")
    for s, names in STRINGS.items():
        assert [_dealer_at(t) for t in by_string[s]] == list(names[:3])
    string_a = paula.locator(".rot-string", has_text="Pai Gow A")
    expect(string_a.locator(f"#rot-table-{tables['A-1'].pk} .rot-next")).to_have_text("14:20: dee")
    expect(string_a.locator(".rot-break")).to_have_text("dee since 14:00, back at 14:20 on A-1")

    # 14:19 — Ann opens a round at A-1; her tablet shows who relieves her, and when.
    clock.at("14:19")
    ann = new_page(users["ann"])
    ann.goto(f"/dealer/tables/{tables['A-1'].pk}/")
    expect(ann.locator("#tb-relief")).to_contain_text("relief at 14:20: dee")
    in_play = _open(tables["A-1"], users["ann"])
    shoot(ann, "rotation-tablet")

    # 14:20 — Dee taps in at A-1 mid-round: the push waits for the round's end.
    clock.at("14:20")
    dee = new_page(users["dee"])
    dee.goto("/dealer/")
    expect(dee.locator("#my-rotation")).to_contain_text("Your table: A-1 at 14:20.")
    shoot(dee, "rotation-dealer-home")
    dee.locator("#tap-in").click()
    expect(dee.locator(".banner.notice")).to_have_text("You take over A-1 when its round ends.")
    assert _dealer_at(tables["A-1"]) == "ann"
    ann.reload()
    expect(ann.locator("#tb-relief")).to_contain_text("dee takes over when this round ends")
    paula.reload()
    expect(paula.locator(f"#rot-table-{tables['A-1'].pk} .rot-next")).to_have_text("dee at the round's end")

    clock.at("14:21")
    _settle(in_play, users["ann"], 0)
    assert Round.objects.get(pk=in_play.pk).dealer_id == users["ann"].pk  # the dealer when it was opened
    assert _dealer_at(tables["A-1"]) == "dee"
    dee.goto("/dealer/")  # straight to her table's tablet
    expect(dee.locator(".tb-table")).to_have_text("A-1")
    # Ann's tablet of A-1, still open, finds the table is no longer hers and goes to her home, which sends her on.
    expect(ann.locator("#tap-in")).to_have_text("Tap in at A-2", timeout=15_000)
    assert ann.url.endswith("/dealer/")
    ann.locator("#tap-in").click()
    expect(ann.locator(".tb-table")).to_have_text("A-2")
    rotation_push(actor=users["bob"], table=tables["A-3"])  # and Cy goes on break
    # String B: Paula pushes from the page, down the string.
    paula.reload()
    for n in (1, 2, 3):
        paula.locator(f"#rot-table-{tables[f'B-{n}'].pk}").get_by_role("button", name="Push").click()
        expect(paula.locator(".pit-message.success")).to_contain_text(f"deals B-{n} now")
    assert [_dealer_at(t) for t in by_string["A"]] == ["dee", "ann", "bob"]
    assert [_dealer_at(t) for t in by_string["B"]] == ["hal", "eve", "fay"]
    paula.reload()
    expect(paula.locator(".rot-string", has_text="Pai Gow A").locator(".rot-break")).to_have_text(
        "cy since 14:21, back at 14:40 on A-1"
    )
    expect(paula.locator("#rotation-alerts")).to_have_count(0)

    # Every 20 minutes until 15:40: a round at every table, then each string's dealers tap in down the string; the
    # tablet of A-1 names its next relief and when.
    tablets = {"ann": ann, "dee": dee}
    rounds = 1
    for minute in (40, 60, 80, 100):
        due = T0 + dt.timedelta(minutes=minute)
        clock.now = due - dt.timedelta(minutes=10)
        for table in tables.values():
            _play(table, User.objects.get(username=_dealer_at(table)), rounds)
            rounds += 1
        clock.now = due
        step = minute // 20
        for s, names in STRINGS.items():
            order = [names[(place - step) % 4] for place in range(3)]  # whom the rotation has at each table
            if (s, minute) == ("B", 60):
                continue  # left undone until 15:06: overdue
            for n, name in enumerate(order, 1):
                rotation_push(actor=users[name], table=tables[f"{s}-{n}"])
            assert [_dealer_at(t) for t in by_string[s]] == order
        if minute == 60:
            clock.now = due + dt.timedelta(minutes=6)
            paula.reload()
            alerts = paula.locator("#rotation-alerts")
            expect(alerts).to_contain_text("The push at B-1 is overdue: fay was due at 15:00 (6 min).")
            expect(alerts).to_contain_text("The push at B-2 is overdue: gus was due at 15:00 (6 min).")
            expect(alerts).to_contain_text("eve is overdue for a break: due at 15:00, still dealing B-3 (6 min).")
            expect(paula.locator(f"#rot-table-{tables['B-1'].pk}")).to_have_class("rot-overdue")
            shoot(paula, "rotation")
            paula.locator(f"#rot-table-{tables['B-1'].pk}").get_by_role("button", name="Push").click()
            expect(paula.locator(".pit-message.success")).to_have_text("fay deals B-1 now.")
            rotation_push(actor=users["gus"], table=tables["B-2"])
            rotation_push(actor=users["hal"], table=tables["B-3"])  # and Eve goes on break, at 15:06
            paula.reload()
            expect(paula.locator("#rotation-alerts")).to_have_count(0)
        at_a1 = _dealer_at(tables["A-1"])
        if at_a1 not in tablets:
            tablets[at_a1] = new_page(users[at_a1])
        following = due + dt.timedelta(minutes=20)
        relief = STRINGS["A"][(0 - step - 1) % 4]
        tablets[at_a1].goto("/dealer/")  # straight to A-1's tablet
        expect(tablets[at_a1].locator("#tb-relief")).to_contain_text(f"relief at {following:%H:%M}: {relief}")

    # 15:40: one whole cycle and a push more. The page shows the pushes as made, and nobody overdue.
    clock.at("15:45")
    paula.reload()
    expect(paula.locator("#rotation-alerts")).to_have_count(0)
    expect(paula.locator(f"#rot-table-{tables['A-1'].pk} .rot-dealer")).to_have_text("dee")
    expect(paula.locator(f"#rot-table-{tables['A-1'].pk} .rot-next")).to_have_text("16:00: cy")

    # Every dealer had a break of 20 minutes: off their last table at a push, on the first again at a later one.
    pushes = list(DealerPush.objects.filter(done_at__isnull=False).order_by("done_at", "pk"))
    for name, user in users.items():
        off = [p.done_at for p in pushes if p.dealer_out_id == user.pk and p.table.name.endswith("-3")]
        back = [p.done_at for p in pushes if p.dealer_in_id == user.pk and p.table.name.endswith("-1")]
        rested = [min(b for b in back if b > o) - o for o in off if any(b > o for b in back)]  # off to back
        # 19 to 20 minutes each (a push is tapped a minute late at 14:21), but Eve's: her relief came at 15:06 and
        # her break still ended at 15:20, as the rotation has it.
        shortest = dt.timedelta(minutes=14 if name == "eve" else 19)
        assert rested and all(gap >= shortest for gap in rested), (name, rested)

    # Every round was dealt by the table's dealer when it opened, and the dealer report's rounds per dealer add up to
    # the tables' rounds.
    settled = Round.objects.filter(shift=shift, state=RoundState.SETTLED)
    assert settled.count() == rounds == 1 + 4 * 6
    per_table = {t.name: settled.filter(table=t).count() for t in tables.values()}
    assert per_table == {name: 5 if name == "A-1" else 4 for name in tables}
    report = dealer_performance_rows(shift=shift)
    per_dealer = {row.dealer: row.rounds_dealt for row in report}
    assert None not in {row.dealer_id for row in report} and set(per_dealer) <= set(users)
    assert sum(per_dealer.values()) == sum(per_table.values())
    assert per_dealer["ann"] == settled.filter(dealer=users["ann"]).count() == 4  # A-1 at 14:19, then one a step

    # The page and the tablet in German.
    paula_de = new_page(pit_boss, locale="de-DE")
    paula_de.goto("/pit/rotation/")
    expect(paula_de.locator("h1")).to_have_text("Croupier-Rotation")
    shoot(paula_de, "rotation-de")
    dee_de = new_page(users["dee"], locale="de-DE")
    dee_de.goto(f"/dealer/tables/{tables['A-1'].pk}/")
    expect(dee_de.locator("#tb-relief")).to_contain_text("Ablösung um 16:00: cy")
    shoot(dee_de, "rotation-tablet-de")
