"""The gaming-day page: supervisors run the gaming day and its shifts from the screens; an Auditor reads.

Personas: Paula the pit boss and Fred the floor supervisor act; Alex the auditor reads; Dana the dealer is refused.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.models import AuditEvent, GamingDay, Shift
from rounds.models import Round
from tables.models import Table
from tests.pit.test_pit_dashboard import PGP_HANDS, play, settle
from tests.settlement.conftest import WINS

pytestmark = pytest.mark.django_db


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _page(client: Client) -> str:
    response = client.get("/pit/day/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_dealer_is_refused_the_page_and_every_form(dealer: User, pit_boss: User) -> None:
    client = signed_in(dealer)

    assert client.get("/pit/day/").status_code == 403
    assert client.post("/pit/day/open/", {"business_date": "2025-03-01"}).status_code == 403
    assert client.post("/pit/day/shifts/open/", {"name": "Day"}).status_code == 403
    assert not GamingDay.objects.exists()


def test_the_auditor_reads_the_day_without_a_single_form(shift: Shift, auditor: User) -> None:
    client = signed_in(auditor)
    page = _page(client)

    assert "Gaming day 2025-03-01" in page and "Day" in page and "Read only" in page
    assert 'action="/pit/day' not in page and "Close shift" not in page
    assert client.post("/pit/day/shifts/open/", {"name": "Swing"}).status_code == 403
    assert client.post(f"/pit/day/shifts/{shift.pk}/close/", {"confirm": "yes"}).status_code == 403
    assert Shift.objects.get(pk=shift.pk).closed_at is None


def test_with_no_gaming_day_the_pit_boss_is_offered_today(pit_boss: User, settings) -> None:  # type: ignore[no-untyped-def]
    from django.utils import timezone

    page = _page(signed_in(pit_boss))

    assert "No gaming day is open" in page
    assert f'name="business_date" value="{timezone.localdate().isoformat()}"' in page


def test_after_closing_todays_gaming_day_the_form_offers_tomorrow_which_opens(pit_boss: User) -> None:
    from django.utils import timezone

    client = signed_in(pit_boss)
    today = timezone.localdate()
    assert client.post("/pit/day/open/", {"business_date": today.isoformat()}).status_code == 302
    day = GamingDay.objects.get(business_date=today)
    assert client.post(f"/pit/day/{day.pk}/close/", {"confirm": "yes"}).status_code == 302

    tomorrow = (today + dt.timedelta(days=1)).isoformat()
    assert f'name="business_date" value="{tomorrow}"' in _page(client)  # not today's, which would be refused
    assert client.post("/pit/day/open/", {"business_date": tomorrow}).status_code == 302
    assert GamingDay.objects.filter(business_date=tomorrow, closed_at__isnull=True).exists()


def test_a_date_that_is_not_one_is_refused_and_kept_in_the_form(pit_boss: User) -> None:
    response = signed_in(pit_boss).post("/pit/day/open/", {"business_date": "2025-02-30"})

    assert response.status_code == 400
    page = response.content.decode()
    assert "2025-02-30&#x27; is not a date: write it YYYY-MM-DD" in page
    assert 'value="2025-02-30"' in page
    assert not GamingDay.objects.exists()


def test_opening_the_shift_twice_opens_one_and_says_why_not_the_second(shift: Shift, floor_supervisor: User) -> None:
    client = signed_in(floor_supervisor)
    Shift.objects.filter(pk=shift.pk).update(closed_at=shift.opened_at)  # the Day shift closed, empty

    first = client.post("/pit/day/shifts/open/", {"name": "Swing"})
    second = client.post("/pit/day/shifts/open/", {"name": "Swing"})

    assert first.status_code == 302 and first["Location"] == "/pit/day/"
    assert second.status_code == 409
    assert "The Swing shift is still open: close it before opening another." in second.content.decode()
    assert Shift.objects.filter(name="Swing").count() == 1


def test_a_shift_name_too_long_is_refused_and_kept(pit_boss: User) -> None:
    client = signed_in(pit_boss)
    client.post("/pit/day/open/", {"business_date": "2025-03-01"})

    response = client.post("/pit/day/shifts/open/", {"name": "G" * 41})

    assert response.status_code == 400
    assert "at most 40 characters" in response.content.decode()
    assert 'value="' + "G" * 41 + '"' in response.content.decode()
    assert not Shift.objects.exists()


def test_closing_asks_twice(shift: Shift, pit_boss: User) -> None:
    client = signed_in(pit_boss)

    response = client.post(f"/pit/day/shifts/{shift.pk}/close/")

    assert response.status_code == 302
    assert Shift.objects.get(pk=shift.pk).closed_at is None
    assert "Confirm to close the shift" in _page(client)


def test_the_whole_day_from_the_screens(
    make_table: Callable[..., Table], pit_boss: User, dealer: User, django_capture_on_commit_callbacks
) -> None:  # type: ignore[no-untyped-def]
    client = signed_in(pit_boss)
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)

    assert client.post("/pit/day/open/", {"business_date": "2025-03-01"}).status_code == 302
    assert "Gaming day 2025-03-01 is open" in _page(client)
    assert client.post("/pit/day/shifts/open/", {"name": "Day"}).status_code == 302
    day_shift = Shift.objects.get()

    round_ = play(table, dealer, wagers={1: 10000}, hands={"banker": PGP_HANDS["banker"], "seats": {"1": WINS}})
    page = _page(client)
    assert "1 round is still being played" in page
    assert f'href="/pit/tables/{table.pk}/#round-1"' in page

    refused = client.post(f"/pit/day/shifts/{day_shift.pk}/close/", {"confirm": "yes"})
    assert refused.status_code == 409
    assert "Table PGP-1 round 1 is still being played (hands revealed, 100.00 wagered)" in refused.content.decode()
    assert Shift.objects.get(pk=day_shift.pk).closed_at is None

    settle(round_, dealer)
    with django_capture_on_commit_callbacks(execute=False):
        assert client.post(f"/pit/day/shifts/{day_shift.pk}/close/", {"confirm": "yes"}).status_code == 302
    page = _page(client)
    assert "The Day shift is closed: its reports are being built." in page
    assert 'href="/reports/"' in page and 'value="Swing"' in page  # the next name suggested

    assert client.post("/pit/day/shifts/open/", {"name": "Swing"}).status_code == 302
    swing = Shift.objects.get(name="Swing")
    second = play(table, dealer, wagers={1: 2500}, hands={"banker": PGP_HANDS["banker"], "seats": {"1": WINS}})
    assert Round.objects.get(pk=second.pk).shift_id == swing.pk
    settle(second, dealer)
    with django_capture_on_commit_callbacks(execute=False):
        assert client.post(f"/pit/day/shifts/{swing.pk}/close/", {"confirm": "yes"}).status_code == 302

    assert client.post(f"/pit/day/{swing.gaming_day_id}/close/", {"confirm": "yes"}).status_code == 302
    page = _page(client)
    assert "Gaming day 2025-03-01 is closed." in page and "No gaming day is open" in page
    assert GamingDay.objects.get().closed_by == pit_boss
    assert list(
        AuditEvent.objects.filter(event_type__startswith="gaming_day").values_list("event_type", flat=True)
    ) == ["gaming_day.opened", "gaming_day.closed"]


def test_the_gaming_day_does_not_close_under_an_open_shift(shift: Shift, pit_boss: User) -> None:
    response = signed_in(pit_boss).post(f"/pit/day/{shift.gaming_day_id}/close/", {"confirm": "yes"})

    assert response.status_code == 409
    assert "still has an open shift: close it first" in response.content.decode()
    assert GamingDay.objects.get().closed_at is None


def test_the_dashboard_and_the_floor_link_to_the_gaming_day(pit_boss: User, make_user: Callable[..., User]) -> None:
    client = signed_in(pit_boss)

    dashboard = client.get("/pit/").content.decode()
    floor = signed_in(make_user("root", is_superuser=True)).get("/").content.decode()  # a supervisor lands on /pit/

    assert "No shift is open: no round can be played." in dashboard and 'href="/pit/day/"' in dashboard
    assert "Open a shift" in dashboard
    assert 'href="/pit/day/"' in floor and "Open a shift on the gaming-day page" in floor


def test_a_day_before_the_first_shift_suggests_day(pit_boss: User) -> None:
    client = signed_in(pit_boss)
    client.post("/pit/day/open/", {"business_date": dt.date(2025, 3, 1).isoformat()})

    page = _page(client)

    assert 'name="name" value="Day"' in page and '<option value="Graveyard">' in page
