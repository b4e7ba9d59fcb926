"""With Redis down (refused, or accepting and never answering: tests/faults/conftest.py) the floor keeps working:
the pit dashboard and its refresh answer from the database, a dealer plays and settles a round, and
closing a shift answers at once, its reports' task kept in the outbox until the broker is back.

Before: ``/pit/`` and ``/pit/live/`` were a 500 with Redis refused, and a close took 19 s (refused) or never
answered (hanging). Each request here must answer within the fault bound (2 s; the timeouts are 0.5 s).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from casino.models import Shift, TaskOutbox
from casino.outbox import outbox_flush
from rounds.models import Round
from settlement.models import ShiftReport
from tables.models import Table
from tests.faults.conftest import quickly
from tests.pit.test_pit_dashboard import PGP_HANDS, PGP_WAGERS, play, settle

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def played_shift(make_table: Callable[..., Table], shift: Shift, dealer: User) -> Shift:
    """The open Day shift with one settled Pai Gow Poker round at PGP-1: handle 85.00, the players -26.25."""
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    settle(play(table, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)
    return shift


def unsent_reports_task(shift: Shift) -> TaskOutbox:
    (row,) = TaskOutbox.objects.all()
    assert (row.task_name, row.args) == ("settlement.shift_reports_build", [shift.pk])
    assert row.sent_at is None and row.attempts == 1 and row.last_error, row
    assert not ShiftReport.objects.filter(shift=shift).exists()
    return row


def reports_built(shift: Shift) -> None:
    reports = ShiftReport.objects.filter(shift=shift)
    assert sorted(r.kind for r in reports) == ["audit", "commission", "dealers", "ratings", "shift"]
    assert {r.status for r in reports} == {ShiftReport.Status.READY}
    assert TaskOutbox.objects.get().sent_at is not None


def test_the_pit_boss_sees_the_dashboard_and_its_refresh_from_the_database_with_redis_down(
    played_shift: Shift, pit_boss: User, cache_down: str
) -> None:
    client = signed_in(pit_boss)
    page = quickly(lambda: client.get("/pit/"))
    assert page.status_code == 200
    html = page.content.decode()
    for shown in ("PGP-1", "85.00", "-26.25", "1.25"):
        assert shown in html, shown
    live = quickly(lambda: client.get("/pit/live/"))
    assert live.status_code == 200 and "85.00" in live.content.decode()


def test_a_dealer_plays_and_settles_a_round_through_the_api_with_redis_down(
    make_table: Callable[..., Table], shift: Shift, dealer: User, pit_boss: User, cache_down: str, broker_down: str
) -> None:
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    api = APIClient()
    api.force_authenticate(dealer)

    def post(url: str, body: dict[str, Any], status: int = 200, **headers: str) -> Any:
        response = quickly(lambda: api.post(url, body, format="json", **headers))
        assert response.status_code == status, response.content
        return response.json()

    round_id = post(f"/api/tables/{table.pk}/rounds/", {}, 201)["id"]
    for seat, amount in PGP_WAGERS.items():
        post(f"/api/rounds/{round_id}/wagers/", {"seat": seat, "amount_cents": amount}, 201)
    post(f"/api/rounds/{round_id}/close-betting/", {})
    post(f"/api/rounds/{round_id}/deal/", {"dice": [1, 1, 1]})
    post(f"/api/rounds/{round_id}/hands/", PGP_HANDS)
    post(f"/api/rounds/{round_id}/settle/", {}, HTTP_IDEMPOTENCY_KEY="redis-down-1")

    assert Round.objects.get(pk=round_id).state == "settled"
    assert "-26.25" in quickly(lambda: signed_in(pit_boss).get("/pit/")).content.decode()


def test_the_pit_boss_closes_the_shift_from_the_dashboard_with_redis_down_and_the_reports_follow_the_broker(
    played_shift: Shift,
    pit_boss: User,
    cache_down: str,
    broker_down: str,
    broker_back: Callable[[], None],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    client = signed_in(pit_boss)

    def close() -> Any:
        with django_capture_on_commit_callbacks(execute=True):  # the close commits and publishes, as in a request
            return client.post(f"/pit/shifts/{played_shift.pk}/close/", {"confirm": "yes"})

    response = quickly(close)
    assert response.status_code == 302 and response["Location"] == "/pit/day/"
    assert Shift.objects.get(pk=played_shift.pk).closed_at is not None
    unsent_reports_task(played_shift)
    assert "The Day shift is closed" in quickly(lambda: client.get("/pit/day/")).content.decode()

    # Still down: the flush leaves it waiting, one more attempt counted.
    assert outbox_flush().sent == 0
    assert TaskOutbox.objects.get().attempts == 2

    broker_back()
    report = outbox_flush()
    assert (report.sent, report.waiting) == (1, 0)
    reports_built(played_shift)


def test_a_pit_boss_closes_the_shift_through_the_api_with_redis_down_and_outbox_flush_sends_its_reports_later(
    played_shift: Shift,
    pit_boss: User,
    cache_down: str,
    broker_down: str,
    broker_back: Callable[[], None],
    django_capture_on_commit_callbacks: Callable[..., Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    api = APIClient()
    api.force_authenticate(pit_boss)

    def close() -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return api.post(f"/api/shifts/{played_shift.pk}/close/")

    response = quickly(close)
    assert response.status_code == 200, response.content
    assert response.json()["closed_by"] == "paula_pitboss"
    unsent_reports_task(played_shift)

    broker_back()
    call_command("outbox_flush")
    assert "Sent 1 queued task; 0 still waiting." in capsys.readouterr().out
    reports_built(played_shift)


def test_once_redis_failed_every_cache_call_answers_at_once_until_the_back_off_ends(
    cache_down: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The first call waits for the timeouts and fails; the pages' further reads and writes (the dashboard's sealed
    figures, the room display's lines, a form-once key) answer a miss at once, not half a second each, and the log
    holds one traceback for each time Redis was tried and failed, not one for every call not made."""
    import time

    from django.core.cache import cache

    import casino.redis_cache

    start = time.monotonic()
    assert cache.get("first") is None
    first = time.monotonic() - start
    assert casino.redis_cache.backing_off()
    start = time.monotonic()
    for key in range(20):
        assert cache.get(f"k{key}") is None
        cache.set(f"k{key}", key, 60)
        assert cache.get_many([f"k{key}"]) == {}
    assert cache.add("form-once", 1, 60) is None
    assert time.monotonic() - start < 0.5, f"the first failure took {first:.2f} s, the rest should take none"
    casino.redis_cache._down_until[0] = 0.0  # the back-off over: Redis is tried again, and fails again
    assert cache.get("again") is None and casino.redis_cache.backing_off()
    ignored = [r for r in caplog.records if r.name == "django_redis.cache"]
    assert len(ignored) == 2, [r.getMessage() for r in ignored]
