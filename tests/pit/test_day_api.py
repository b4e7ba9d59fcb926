"""The gaming-day API: list and open gaming days, close one, open the next shift; refusals are
``{"message", "extra"}`` with 400, 403 or 409 and write nothing.

Personas: Paula the pit boss acts; Alex the auditor reads; Dana the dealer is refused.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from casino.models import AuditEvent, GamingDay, Shift
from rounds.services import round_open, wager_place
from tables.models import Table

pytestmark = pytest.mark.django_db


def _client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_pit_boss_opens_a_gaming_day_and_its_first_shift(pit_boss: User) -> None:
    api = _client(pit_boss)

    day = api.post("/api/gaming-days/", {"business_date": "2025-03-01"}, format="json")
    shift = api.post("/api/shifts/", {"name": "Day"}, format="json")

    assert day.status_code == 201, day.json()
    assert day.json()["business_date"] == "2025-03-01" and day.json()["opened_by"] == "paula_pitboss"
    assert day.json()["closed_at"] is None and day.json()["shifts"] == []
    assert shift.status_code == 201, shift.json()
    assert shift.json()["name"] == "Day" and shift.json()["number"] == 1 and shift.json()["gaming_day"] == "2025-03-01"
    listed = api.get("/api/gaming-days/").json()["results"]
    assert [s["name"] for s in listed[0]["shifts"]] == ["Day"]


def test_the_auditor_lists_the_gaming_days_and_opens_none(shift: Shift, auditor: User) -> None:
    api = _client(auditor)

    listed = api.get("/api/gaming-days/")
    opened = api.post("/api/shifts/", {"name": "Swing"}, format="json")
    closed = api.post(f"/api/gaming-days/{shift.gaming_day_id}/close/")

    assert listed.status_code == 200 and listed.json()["results"][0]["business_date"] == "2025-03-01"
    assert (
        opened.status_code == 403
        and opened.json()["message"] == "Only a Floor supervisor or Pit boss may open a shift."
    )
    assert closed.status_code == 403
    assert Shift.objects.count() == 1 and GamingDay.objects.get().closed_at is None


def test_the_dealer_neither_reads_nor_opens_a_gaming_day(dealer: User) -> None:
    api = _client(dealer)

    assert api.get("/api/gaming-days/").status_code == 403
    refused = api.post("/api/gaming-days/", {"business_date": "2025-03-01"}, format="json")
    assert refused.status_code == 403 and set(refused.json()) == {"message", "extra"}
    assert not GamingDay.objects.exists()


@pytest.mark.parametrize(
    "business_date",
    ["2025-02-30", "１２３４-01-01", "2025-3-1", 20250301, True, None, "", "2025-03-01T00:00"],
)
def test_a_business_date_that_is_not_a_plain_date_is_a_400(pit_boss: User, business_date: object) -> None:
    refused = _client(pit_boss).post("/api/gaming-days/", {"business_date": business_date}, format="json")

    assert refused.status_code == 400, refused.json()
    assert refused.json()["message"].startswith("business_date:")
    assert not GamingDay.objects.exists()


@pytest.mark.parametrize("name", [5, True, ["Day"], "", "   ", "G" * 41])
def test_a_shift_name_that_is_not_a_short_text_is_a_400(shift: Shift, pit_boss: User, name: object) -> None:
    Shift.objects.filter(pk=shift.pk).update(closed_at=shift.opened_at)
    events = AuditEvent.objects.count()

    refused = _client(pit_boss).post("/api/shifts/", {"name": name}, format="json")

    assert refused.status_code == 400, refused.json()
    assert Shift.objects.count() == 1 and AuditEvent.objects.count() == events


def test_a_second_tap_on_open_shift_is_a_409_and_opens_no_second_shift(shift: Shift, pit_boss: User) -> None:
    refused = _client(pit_boss).post("/api/shifts/", {"name": "Day"}, format="json")

    assert refused.status_code == 409
    assert refused.json() == {"message": "The Day shift is still open: close it before opening another.", "extra": {}}
    assert Shift.objects.count() == 1


def test_a_second_gaming_day_while_one_is_open_is_a_409(shift: Shift, pit_boss: User) -> None:
    refused = _client(pit_boss).post("/api/gaming-days/", {"business_date": "2025-03-02"}, format="json")

    assert refused.status_code == 409
    assert refused.json()["message"] == "Gaming day 2025-03-01 is still open: close it before opening another."


def test_closing_a_shift_under_a_round_is_a_409_that_lists_the_round(
    shift: Shift, pgp_table: Table, dealer: User, pit_boss: User
) -> None:
    round_ = round_open(actor=dealer, table=pgp_table)
    wager_place(actor=dealer, round=round_, seat=1, amount_cents=10000)

    refused = _client(pit_boss).post(f"/api/shifts/{shift.pk}/close/")

    assert refused.status_code == 409
    assert refused.json()["message"].startswith("Table PGP-1 round 1 is still being played (betting open, 100.00")
    assert refused.json()["extra"]["unfinished_rounds"][0]["round_id"] == round_.pk


def test_the_gaming_day_closes_after_its_last_shift(shift: Shift, pit_boss: User) -> None:
    api = _client(pit_boss)

    early = api.post(f"/api/gaming-days/{shift.gaming_day_id}/close/")
    api.post(f"/api/shifts/{shift.pk}/close/")
    closed = api.post(f"/api/gaming-days/{shift.gaming_day_id}/close/")
    again = api.post(f"/api/gaming-days/{shift.gaming_day_id}/close/")

    assert early.status_code == 409 and "still has an open shift" in early.json()["message"]
    assert closed.status_code == 200 and closed.json()["closed_by"] == "paula_pitboss"
    assert [s["closed_at"] is not None for s in closed.json()["shifts"]] == [True]
    assert again.status_code == 409 and again.json()["message"] == "Gaming day 2025-03-01 is already closed."
    assert api.post("/api/gaming-days/999/close/").status_code == 404
