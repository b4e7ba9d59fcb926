"""The dashboard narrowed to a pit, and its live refresh sending only the tables that changed since it last drew."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from casino import live
from casino.services import pit_create
from pit import selectors
from pit.selectors import pit_dashboard
from settlement.services import adjustment_request
from tables.live import table_changed, tables_changed_since, tables_position, tablet_key
from tables.models import Table
from tests.pit.test_pit_dashboard import PGP_HANDS, PGP_WAGERS, play, settle, signed_in


def poll_url(html: str) -> str:
    found = re.search(r'id="pit-poll" hidden hx-get="([^"]+)"', html)
    assert found, "the live part carries its poll"
    return found.group(1).replace("&amp;", "&")


@pytest.fixture
def two_pits(make_table: Callable[..., Table], shift: Any, pit: Any, pit_boss: User) -> tuple[Table, Table]:
    other = pit_create(actor=pit_boss, name="Pit B")
    return (
        make_table(name="PGP-A", game="paigow_poker", seat_count=6),
        make_table(name="PGP-B", game="paigow_poker", seat_count=6, in_pit=other),
    )


@pytest.mark.django_db
def test_the_dashboard_narrowed_to_a_pit_shows_its_tables_and_its_alerts_only(
    two_pits: tuple[Table, Table], dealer: User, pit_boss: User
) -> None:
    here, there = two_pits
    settle(play(there, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)
    client = signed_in(pit_boss)
    whole = client.get("/pit/").content.decode()
    assert "PGP-A" in whole and "PGP-B" in whole and "All pits" in whole
    narrowed = client.get(f"/pit/?pit={here.pit_id}").content.decode()
    assert "PGP-A" in narrowed and 'id="t-' + str(there.pk) not in narrowed
    assert f"pit={here.pit_id}" in poll_url(narrowed)  # its refresh stays narrowed
    live = client.get(poll_url(narrowed)).content.decode()
    assert f'id="t-{there.pk}"' not in live and "85.00" not in live  # PGP-B's settled round is not this pit's
    for odd in ("abc", "-1", "9" * 30, "", "1.5"):  # not a pit: the whole floor, never an error
        assert client.get(f"/pit/?pit={odd}").status_code == 200
        assert client.get(f"/pit/live/?pit={odd}&since={odd}&shift={odd}&tables={odd}").status_code == 200


@pytest.mark.django_db
def test_without_a_shared_cache_every_refresh_draws_the_whole_live_part(
    two_pits: tuple[Table, Table], pit_boss: User, settings: Any
) -> None:
    """The embedded default's local cache cannot tell what another process changed: all of it, every time."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "x"}}
    client = signed_in(pit_boss)
    page = client.get("/pit/").content.decode()
    assert "since=" not in poll_url(page)
    live = client.get(poll_url(page)).content.decode()
    assert live.lstrip().startswith('<div id="pit-live"') and live.count('class="table-rows"') == 2


@pytest.mark.usefixtures("real_services")
@pytest.mark.django_db
def test_a_refresh_sends_the_head_and_only_the_tables_that_changed(
    make_table: Callable[..., Table],
    shift: Any,
    dealer: User,
    pit_boss: User,
    django_capture_on_commit_callbacks: Any,
) -> None:
    tables = [make_table(name=f"PGP-{n:02d}", game="paigow_poker", seat_count=6) for n in range(1, 21)]
    client = signed_in(pit_boss)
    page = client.get("/pit/").content.decode()
    url = poll_url(page)
    assert "since=" in url
    quiet = client.get(url).content.decode()  # nothing changed: the totals, no table, no list
    assert 'id="pit-head" hx-swap-oob="true"' in quiet and "table-rows" not in quiet and "pit-lists" not in quiet
    with django_capture_on_commit_callbacks(execute=True):
        settle(play(tables[6], dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)
    delta = client.get(poll_url(quiet)).content.decode()
    assert re.findall(r'<tbody id="t-(\d+)" class="table-rows" hx-swap-oob="true"', delta) == [str(tables[6].pk)]
    assert "85.00" in delta and len(delta.encode()) < len(page.encode()) / 2
    again = client.get(poll_url(delta)).content.decode()  # the change was sent once
    assert "table-rows" not in again and "pit-lists" not in again
    with django_capture_on_commit_callbacks(execute=True):  # a void asked for: an alert, so the lists come again
        asked = play(tables[3], dealer, wagers=PGP_WAGERS, hands=PGP_HANDS)
        adjustment_request(actor=dealer, round=asked, kind="void", reason="Card flashed")
    alerted = client.get(poll_url(again)).content.decode()
    assert 'id="pit-lists" hx-swap-oob="true"' in alerted and "Card flashed" in alerted
    again = client.get(poll_url(alerted)).content.decode()
    # A table added since the page was drawn: everything again, its row with it.
    make_table(name="PGP-21", game="paigow_poker", seat_count=6)
    whole = client.get(poll_url(again)).content.decode()
    assert whole.lstrip().startswith('<div id="pit-live"') and whole.count('class="table-rows"') == 21
    assert Client().get(url).status_code == 302  # signed out: the sign-in page


@pytest.mark.usefixtures("real_services")
@pytest.mark.django_db
def test_a_refresh_reads_again_only_the_tables_changed_since_and_the_whole_floor_within_five_minutes(
    make_table: Callable[..., Table],
    shift: Any,
    dealer: User,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 2,000 tables a refresh cannot read every table: each process keeps the lines it read and reads again the
    tables the services marked changed since; an edit made past the services shows within ``FLOOR_KEPT_SECONDS``."""
    tables = [make_table(name=f"PGP-{n:02d}", game="paigow_poker", seat_count=6) for n in range(1, 6)]

    def drawn() -> dict[int, Any]:
        return {line.table.pk: line for line in pit_dashboard(position=tables_position()).lines}

    def queries_of_a_refresh_after_one_settle(at: Table) -> int:
        with django_capture_on_commit_callbacks(execute=True):
            settle(play(at, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)
        with CaptureQueriesContext(connection) as captured:
            lines = drawn()
        assert lines[at.pk].rounds_settled == 1
        return len(captured)

    first = drawn()
    Table.objects.filter(pk=tables[0].pk).update(name="Renamed past the services")
    quiet = drawn()
    assert all(quiet[pk] is first[pk] for pk in first)  # nothing changed: the same lines (their rows stay drawn)
    few = queries_of_a_refresh_after_one_settle(tables[1])
    after = drawn()
    assert after[tables[1].pk].players_cents != 0 and after[tables[2].pk] is first[tables[2].pk]
    assert after[tables[0].pk].table.name == "PGP-01"  # not marked: kept as it was
    more = [make_table(name=f"PGP-{n:02d}", game="paigow_poker", seat_count=6) for n in range(6, 31)]
    assert len(drawn()) == 30  # tables added: the whole floor read again
    assert queries_of_a_refresh_after_one_settle(more[-1]) == few  # however many tables there are
    monkeypatch.setattr(selectors, "FLOOR_KEPT_SECONDS", 0)
    assert drawn()[tables[0].pk].table.name == "Renamed past the services"


@pytest.mark.usefixtures("real_services")
@pytest.mark.django_db
def test_a_table_write_raises_its_tablet_and_notes_the_floor_log_in_two_trips_to_redis_after_it_commits(
    make_table: Callable[..., Table],
    shift: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A write at a table tells the tablet (its generation) and the pit (the floor's log): once it commits, one trip
    raises both generations, a second notes the table in the log; nothing goes to Redis before the commit."""

    table = make_table(name="PGP-01", game="paigow_poker", seat_count=6)
    position = tables_position()
    before = live.generation(tablet_key(table.pk))
    assert position is not None and before is not None
    trips: list[int] = []
    sent = live._redis

    def counted(work: Any) -> Any:
        trips.append(1)
        return sent(work)

    monkeypatch.setattr(live, "_redis", counted)
    with django_capture_on_commit_callbacks(execute=True):
        table_changed(table.pk)
        assert trips == []  # not before the commit
    assert len(trips) == 2
    monkeypatch.setattr(live, "_redis", sent)
    assert live.generation(tablet_key(table.pk)) == before + 1
    changed = tables_changed_since(position)
    assert changed is not None and changed[1] == {table.pk}
