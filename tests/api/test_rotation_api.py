"""Dealer rotation over the REST API: a supervisor clocks dealers in, makes and starts a string and pushes; a dealer
taps in; the rotation is read; writes are idempotent with a key; bad input and the wrong people are refused and
write nothing."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User

from casino.idempotency import REPLAYED_HEADER
from casino.roles import Role
from tables.models import DealerClockIn, DealerPush, DealerString, Table
from tests.api.clients import api_client, refusal

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 3, 1, 14, 0, tzinfo=dt.UTC)


@pytest.fixture
def clock() -> Iterator[list[dt.datetime]]:
    now = [T0]
    with mock.patch("django.utils.timezone.now", side_effect=lambda: now[0]):
        yield now


@pytest.fixture
def dealers(make_user: Any) -> list[User]:
    return [make_user(name, Role.DEALER) for name in ("ann", "bob", "cy", "dee")]


@pytest.fixture
def three(make_table: Any, shift: Any) -> list[Table]:
    return [make_table(name=f"PGP-{n}", game="paigow_poker", seat_count=6) for n in (1, 2, 3)]


def _post(api: Any, url: str, body: dict[str, Any] | None = None, key: str | None = "k") -> Any:
    return api.post(url, body or {}, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_a_shift_of_rotation_over_the_api(
    pit_boss: User, dealers: list[User], three: list[Table], clock: list[dt.datetime]
) -> None:
    api = api_client(pit_boss)
    for d in dealers:
        answer = _post(api, "/api/v1/rotation/clock-ins/", {"dealer": d.pk}, key=f"in-{d.pk}")
        assert answer.status_code == 201, answer.content
    made = _post(
        api,
        "/api/v1/rotation/strings/",
        {"name": "A", "tables": [t.pk for t in three], "on_minutes": 60, "off_minutes": 20},
        key="string-a",
    )
    assert made.status_code == 201, made.content
    started = _post(api, f"/api/v1/rotation/strings/{made.json()['id']}/start/", key="start-a")
    assert started.status_code == 200 and started.json()["generation"] == 1
    clock[0] = T0 + dt.timedelta(minutes=20)
    tapped = _post(api_client(dealers[3]), f"/api/v1/tables/{three[0].pk}/push/", key="tap-1")
    assert tapped.status_code == 201, tapped.content
    assert (tapped.json()["dealer_in"], tapped.json()["dealer_out"]) == (dealers[3].pk, dealers[0].pk)
    read = api.get("/api/v1/rotation/").json()
    (string,) = read["strings"]
    assert string["pattern"] == "60 on / 20 off" and string["push_minutes"] == 20
    assert [(t["table_name"], t["dealer_name"], t["due_name"]) for t in string["tables"]] == [
        ("PGP-1", "dee", "dee"),
        ("PGP-2", "bob", "ann"),
        ("PGP-3", "cy", "bob"),
    ]
    assert [d["dealer_name"] for d in read["clocked_in"]] == ["ann", "bob", "cy", "dee"]


def test_a_write_sent_twice_with_one_key_is_recorded_once(pit_boss: User, dealers: list[User]) -> None:
    api = api_client(pit_boss)
    first = _post(api, "/api/v1/rotation/clock-ins/", {"dealer": dealers[0].pk}, key="clock-ann")
    again = _post(api, "/api/v1/rotation/clock-ins/", {"dealer": dealers[0].pk}, key="clock-ann")
    assert (again.status_code, again.json()) == (201, first.json()) and again[REPLAYED_HEADER] == "true"
    assert DealerClockIn.objects.count() == 1


def test_bad_input_is_refused_naming_the_field_and_writes_nothing(pit_boss: User, three: list[Table]) -> None:
    api = api_client(pit_boss)
    body = {"name": "A", "tables": [three[0].pk, three[1].pk], "on_minutes": 60, "off_minutes": 20}
    refusal(_post(api, "/api/v1/rotation/strings/", body), 400, "not a whole number of pushes")
    refusal(_post(api, "/api/v1/rotation/strings/", {**body, "on_minutes": "60"}, key="k2"), 400)
    refusal(_post(api, "/api/v1/rotation/strings/", {**body, "tables": [999_999]}, key="k3"), 400, "no table 999999")
    refusal(_post(api, "/api/v1/rotation/strings/", {**body, "tabels": []}, key="k4"), 400)
    refusal(_post(api, "/api/v1/rotation/clock-ins/", {"dealer": 999_999}, key="k5"), 400, "no user 999999")
    refusal(_post(api, "/api/v1/rotation/clock-ins/", {"dealer": True}, key="k6"), 400)
    assert not DealerString.objects.exists() and not DealerClockIn.objects.exists()


def test_only_supervisors_write_and_overseers_read(
    dealers: list[User], auditor: User, three: list[Table], pit_boss: User
) -> None:
    refusal(_post(api_client(auditor), "/api/v1/rotation/clock-ins/", {"dealer": dealers[0].pk}), 403)
    refusal(_post(api_client(dealers[0]), "/api/v1/rotation/clock-ins/", {"dealer": dealers[0].pk}), 403)
    refusal(api_client(dealers[0]).get("/api/v1/rotation/"), 403)
    assert api_client(auditor).get("/api/v1/rotation/").status_code == 200
    refusal(_post(api_client(dealers[0]), f"/api/v1/tables/{three[0].pk}/push/"), 409, "in no started string")
    assert not DealerClockIn.objects.exists() and not DealerPush.objects.exists()


HUGE = 99_999_999_999_999_999_999_999  # past any database's integer


def test_an_id_past_the_databases_integer_is_refused_or_not_found_never_a_500(
    pit_boss: User, dealers: list[User], three: list[Table]
) -> None:
    api = api_client(pit_boss)
    body = {"name": "A", "tables": [HUGE], "on_minutes": 60, "off_minutes": 20}
    refusal(_post(api, "/api/v1/rotation/strings/", body, key="s"), 400)
    refusal(_post(api, "/api/v1/rotation/strings/", {**body, "tables": [2**31]}, key="s2"), 400)
    refusal(_post(api, "/api/v1/rotation/clock-ins/", {"dealer": HUGE}, key="in"), 400)
    refusal(_post(api, "/api/v1/rotation/clock-outs/", {"dealer": HUGE}, key="out"), 400)
    refusal(_post(api, f"/api/v1/tables/{three[0].pk}/push/", {"dealer": HUGE}, key="push"), 400)
    refusal(_post(api, f"/api/v1/tables/{HUGE}/push/", key="push-table"), 404)
    refusal(_post(api, f"/api/v1/rotation/strings/{HUGE}/start/", key="start"), 404)
    assert not DealerString.objects.exists() and not DealerClockIn.objects.exists()
    assert not DealerPush.objects.exists()


def test_a_dealer_refused_a_clock_in_in_german_reads_it_all_in_german(dealers: list[User]) -> None:
    answer = api_client(dealers[0]).post(
        "/api/v1/rotation/clock-ins/",
        {"dealer": dealers[0].pk},
        format="json",
        HTTP_IDEMPOTENCY_KEY="de",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    body = refusal(answer, 403)
    assert body["message"] == "Nur Supervisor oder Pit Boss darf einen Croupier einstempeln."
    assert not DealerClockIn.objects.exists()
