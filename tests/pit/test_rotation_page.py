"""The pit's rotation page, the dashboard's time on the box, and the dealer's side of the rotation (the tablet's
relief line, tapping in from the dealer's home): who may see and do what, bad input, double taps, a broken string."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.roles import Role
from tables.models import DealerClockIn, DealerPush, DealerString, Table
from tables.rotation import dealer_clock_in, string_create, string_start
from tests.guards import guards_off

T0 = dt.datetime(2026, 3, 1, 14, 0, tzinfo=dt.UTC)
KEY = "0123456789abcdef0123456789abcdef"


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def at(self, minutes: float) -> None:
        self.now = T0 + dt.timedelta(minutes=minutes)


@pytest.fixture
def clock() -> Iterator[Clock]:
    c = Clock()
    with mock.patch("django.utils.timezone.now", side_effect=lambda: c.now):
        yield c


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response: Any) -> str:
    return response.content.decode()


@pytest.fixture
def dealers(make_user: Any) -> list[User]:
    return [make_user(name, Role.DEALER) for name in ("ann", "bob", "cy", "dee")]


@pytest.fixture
def three(make_table: Any, shift: Any) -> list[Table]:
    return [make_table(name=f"PGP-{n}", game="paigow_poker", seat_count=6) for n in (1, 2, 3)]


@pytest.fixture
def started(pit_boss: User, dealers: list[User], three: list[Table], clock: Clock) -> DealerString:
    for d in dealers:
        dealer_clock_in(actor=pit_boss, dealer=d)
    string = string_create(actor=pit_boss, name="Pai Gow A", tables=three, on_minutes=60, off_minutes=20)
    return string_start(actor=pit_boss, string=string)


@pytest.mark.django_db
def test_a_supervisor_clocks_in_makes_and_starts_a_string_on_the_page(
    floor_supervisor: User, dealers: list[User], three: list[Table], clock: Clock
) -> None:
    client = signed_in(floor_supervisor)
    page = text(client.get("/pit/rotation/"))
    assert "No strings yet" in page and 'name="dealer"' in page
    for d in dealers:
        assert client.post("/pit/rotation/clock-in/", {"dealer": d.pk}).status_code == 302
    made = client.post(
        "/pit/rotation/strings/",
        {"name": "A", "tables": [t.pk for t in three], "pattern": "on_off", "on_minutes": "60", "off_minutes": "20"},
    )
    assert made.status_code == 302
    string = DealerString.objects.get()
    assert client.post(f"/pit/rotation/strings/{string.pk}/start/").status_code == 302
    page = text(client.get("/pit/rotation/"))
    assert "60 on / 20 off" in page and "a push every 20 minutes" in page
    row = re.search(rf'id="rot-table-{three[0].pk}".*?</tr>', page, re.S).group(0)  # type: ignore[union-attr]
    assert "ann" in row and "14:20: dee" in row
    assert "<strong>dee</strong> since 14:00, back at 14:20 on PGP-1" in page
    assert "Order: ann → bob → cy → dee" in page


@pytest.mark.django_db
def test_a_form_sent_twice_clocks_the_dealer_in_once(floor_supervisor: User, dealers: list[User]) -> None:
    client = signed_in(floor_supervisor)
    for _ in range(2):
        assert client.post("/pit/rotation/clock-in/", {"dealer": dealers[0].pk, "form_key": KEY}).status_code == 302
    assert DealerClockIn.objects.count() == 1


@pytest.mark.django_db
def test_bad_input_is_refused_in_the_banner_keeping_what_was_typed_and_writes_nothing(
    floor_supervisor: User, three: list[Table]
) -> None:
    client = signed_in(floor_supervisor)
    answer = client.post(
        "/pit/rotation/strings/",
        {
            "name": "Evening",
            "tables": [three[0].pk, "x"],
            "pattern": "on_off",
            "on_minutes": "sixty",
            "off_minutes": "20",
        },
    )
    assert answer.status_code == 400
    assert "Minutes are a whole number, not &#x27;sixty&#x27;." in text(answer)
    assert 'value="Evening"' in text(answer) and 'value="sixty"' in text(answer)
    answer = client.post("/pit/rotation/strings/", {"name": "Evening", "on_minutes": "60", "off_minutes": "20"})
    assert answer.status_code == 400 and "A string needs at least one table." in text(answer)
    answer = client.post("/pit/rotation/clock-in/", {"dealer": "nobody"})
    assert answer.status_code == 400 and "Choose a dealer." in text(answer)
    assert not DealerString.objects.exists() and not DealerClockIn.objects.exists()


@pytest.mark.django_db
def test_an_id_past_the_databases_integer_is_refused_in_the_banner_or_not_found_never_a_500(
    floor_supervisor: User, three: list[Table]
) -> None:
    client = signed_in(floor_supervisor)
    huge = "99999999999999999999999"
    answer = client.post(
        "/pit/rotation/strings/",
        {
            "name": "Evening",
            "tables": [three[0].pk, huge],
            "pattern": "on_off",
            "on_minutes": "60",
            "off_minutes": "20",
        },
    )
    assert answer.status_code == 400 and "There is no table 999999999999999999999" in text(answer)
    assert 'value="Evening"' in text(answer)
    answer = client.post(
        "/pit/rotation/strings/",
        {"name": "Evening", "tables": [three[0].pk, "999999"], "on_minutes": "60", "off_minutes": "20"},
    )
    assert answer.status_code == 400 and "There is no table 999999." in text(answer)
    for url in ("/pit/rotation/clock-in/", "/pit/rotation/clock-out/"):
        answer = client.post(url, {"dealer": huge})
        assert answer.status_code == 400 and "Choose a dealer." in text(answer)
    assert client.post(f"/pit/rotation/strings/{huge}/start/").status_code == 404
    assert client.post(f"/pit/rotation/tables/{huge}/push/").status_code == 404
    assert not DealerString.objects.exists() and not DealerClockIn.objects.exists()


@pytest.mark.django_db
def test_an_auditor_reads_the_page_and_a_dealer_may_not_and_neither_writes(
    auditor: User, dealers: list[User], started: DealerString, three: list[Table]
) -> None:
    page = signed_in(auditor).get("/pit/rotation/")
    assert page.status_code == 200 and "Read only" in text(page) and "Clock in" not in text(page)
    assert signed_in(auditor).post(f"/pit/rotation/tables/{three[0].pk}/push/").status_code == 403
    assert signed_in(dealers[3]).get("/pit/rotation/").status_code == 403
    assert signed_in(dealers[3]).post("/pit/rotation/clock-out/", {"dealer": dealers[0].pk}).status_code == 403
    assert DealerClockIn.objects.filter(clocked_out_at__isnull=False).count() == 0


@pytest.mark.django_db
def test_an_overdue_push_is_an_alert_and_a_supervisor_pushes_from_the_page(
    floor_supervisor: User, started: DealerString, three: list[Table], clock: Clock
) -> None:
    clock.at(31)
    client = signed_in(floor_supervisor)
    page = text(client.get("/pit/rotation/"))
    assert "The push at PGP-1 is overdue: dee was due at 14:20 (11 min)." in page
    assert "cy is overdue for a break: due at 14:20, still dealing PGP-3 (11 min)." in page
    assert client.post(f"/pit/rotation/tables/{three[0].pk}/push/").status_code == 302
    assert Table.objects.get(pk=three[0].pk).dealer.get_username() == "dee"  # type: ignore[union-attr]
    assert "The push at PGP-1 is overdue" not in text(client.get("/pit/rotation/"))


@pytest.mark.django_db
def test_a_string_that_cannot_be_read_breaks_only_its_own_panel(
    floor_supervisor: User, started: DealerString, make_table: Any
) -> None:
    other = make_table(name="CP-1", game="chinese_poker", seat_count=4)
    string_create(actor=floor_supervisor, name="Points", tables=[other], on_minutes=20, off_minutes=None)
    with guards_off():  # past the application: 50 minutes on over 3 tables
        DealerString.objects.filter(pk=started.pk).update(on_minutes=50)
    answer = signed_in(floor_supervisor).get("/pit/rotation/")
    assert answer.status_code == 200
    assert "This string cannot be read: 50 minutes on do not split over 3 tables" in text(answer)
    assert "round robin, 20 min a table" in text(answer)


@pytest.mark.django_db
def test_the_dashboard_shows_each_tables_dealer_and_time_on_the_box(
    floor_supervisor: User, started: DealerString, three: list[Table]
) -> None:
    page = text(signed_in(floor_supervisor).get("/pit/"))
    cell = re.search(rf'<tr class="table-line" id="table-{three[1].pk}">.*?</tr>', page, re.S).group(0)  # type: ignore[union-attr]
    assert '<td class="t-dealer">bob<span class="t-box" title="On the box since">since 14:00</span></td>' in cell


@pytest.mark.django_db
def test_the_tablet_shows_the_relief_and_the_relief_taps_in_from_home(
    dealers: list[User], started: DealerString, three: list[Table], clock: Clock
) -> None:
    ann, bob, cy, dee = dealers
    tablet = text(signed_in(ann).get(f"/dealer/tables/{three[0].pk}/"))
    assert "relief at 14:20: dee" in tablet
    clock.at(5)
    home = signed_in(dee).get("/dealer/")
    assert "On break until 14:20, then PGP-1." in text(home)
    early = signed_in(dee).post(f"/dealer/tables/{three[0].pk}/tap-in/")
    assert early.status_code == 403 and "You are on break until 14:20" in text(early)
    clock.at(15)
    home = text(signed_in(dee).get("/dealer/"))
    assert "Your table: PGP-1 at 14:20." in home and "Tap in at PGP-1" in home
    tapped = signed_in(dee).post(f"/dealer/tables/{three[0].pk}/tap-in/", {"form_key": KEY})
    assert tapped.status_code == 302 and tapped["Location"] == f"/dealer/tables/{three[0].pk}/"
    assert signed_in(dee).post(f"/dealer/tables/{three[0].pk}/tap-in/", {"form_key": KEY}).status_code == 302
    assert DealerPush.objects.filter(dealer_in=dee).count() == 1
    assert "Tap in at PGP-2" in text(signed_in(ann).get("/dealer/"))
    assert signed_in(ann).get(f"/dealer/tables/{three[0].pk}/").status_code == 403  # no longer her table


@pytest.mark.django_db
def test_the_rotation_page_reads_in_a_fixed_number_of_queries_however_many_strings(
    floor_supervisor: User, started: DealerString, make_table: Any, make_user: Any, pit_boss: User
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = signed_in(floor_supervisor)
    client.get("/pit/rotation/")
    with CaptureQueriesContext(connection) as one:
        assert client.get("/pit/rotation/").status_code == 200
    more = [make_table(name=f"B-{n}", game="paigow_poker", seat_count=6) for n in (1, 2, 3)]
    for name in ("eve", "fay", "gus", "hal"):
        dealer_clock_in(actor=pit_boss, dealer=make_user(name, Role.DEALER))
    string_start(
        actor=pit_boss, string=string_create(actor=pit_boss, name="B", tables=more, on_minutes=60, off_minutes=20)
    )
    with CaptureQueriesContext(connection) as two:
        page = client.get("/pit/rotation/")
    assert "Order: eve → fay → gus → hal" in text(page)
    assert len(two) == len(one)
