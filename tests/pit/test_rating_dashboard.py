"""Rated play on the pit-boss dashboard: under each table the rated players seated now with their live
figures (name, tier, time, rounds, average bet, win/loss, theo) and the table's hold over its last rounds beside its
expectation; a session 3σ above its expectation and a table's hold drift are alerts; the dashboard keeps its fixed
number of queries however many tables have rated players.

Mr Lee (Gold) sits at PGP-1 seat 1. The round played through the services is the dashboard tests' (seat 1 wins 25.00
and pays 1.25 commission, seat 3 pushes its 10.00, seat 5 loses 50.00): the house wins 26.25 on 85.00 of action.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from casino.models import Shift
from pit.selectors import floor_lines_forget, pit_dashboard
from players.figures import session_figures
from players.models import Player, RatingSeat, RatingSession, TableHold
from players.services import player_create, session_end, session_pause, session_start
from tables.models import Table
from tests.caches import cache_clear
from tests.pit.test_pit_dashboard import PGP_HANDS, PGP_WAGERS, fill_floor, play, settle

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache_clear()  # the dashboard's sealed figures outlive a rolled-back test database


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def pgp(make_table: Callable[..., Table], shift: Shift) -> Table:
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


@pytest.fixture
def lee(dealer: User) -> Player:
    return player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")


def rated_box(html: str, table: Table) -> str:
    start = html.index(f'id="rated-{table.pk}"')
    return html[start : html.index("</tr>", start)]


def test_a_rated_players_live_figures_and_the_tables_hold_window_come_from_a_settled_round(
    pgp: Table, lee: Player, dealer: User, pit_boss: User
) -> None:
    session = session_start(actor=dealer, player=lee, table=pgp, seat=1)
    settle(play(pgp, dealer, wagers=PGP_WAGERS, hands=PGP_HANDS), dealer)
    session.refresh_from_db()
    assert (session.rounds, session.wagered_cents, session.win_loss_cents) == (1, 2500, 2375)

    html = signed_in(pit_boss).get("/pit/").content.decode()
    box = rated_box(html, pgp)
    assert "Seat 1" in box and f'href="/players/{lee.pk}/"' in box and "Mr Lee" in box and "Gold" in box
    assert " 1 round " in box and "<small>avg bet</small> 25.00" in box and "+23.75" in box
    theo = session_figures(session, tier="Gold").theo_cents
    assert theo > 0  # the player's edge at Pai Gow Poker, from rules.edges
    assert f"<small>theo</small> {theo // 100}.{theo % 100:02d}" in box
    # The hold window: 26.25 won on 85.00 of action is 30.88%.
    assert "Hold, last 1 round: 30.88% · expected" in box
    window = TableHold.objects.get(table=pgp)
    assert (window.rounds, window.action_cents, window.house_win_cents) == (1, 8500, 2625)


def test_a_player_on_a_break_is_shown_so_and_a_player_who_left_is_gone(
    pgp: Table, lee: Player, dealer: User, auditor: User
) -> None:
    wu = player_create(actor=dealer, tier="Silver", anonymous=True)
    session = session_start(actor=dealer, player=lee, table=pgp, seat=2)
    session_pause(actor=dealer, session=session)
    gone = session_start(actor=dealer, player=wu, table=pgp, seat=4)
    client = signed_in(auditor)
    box = rated_box(client.get("/pit/").content.decode(), pgp)
    assert "on a break" in box and "rated-paused" in box
    assert f"anonymous player {wu.pk}" in box and box.index("Seat 2") < box.index("Seat 4")
    session_end(actor=dealer, session=gone, walk_with_cents=0)
    box = rated_box(client.get("/pit/").content.decode(), pgp)
    assert "Seat 4" not in box and f"anonymous player {wu.pk}" not in box and "Mr Lee" in box


def test_a_table_without_a_rated_player_or_a_settled_round_has_no_line_under_it(pgp: Table, pit_boss: User) -> None:
    html = signed_in(pit_boss).get("/pit/").content.decode()
    assert 'class="table-line"' in html and 'class="rated-row"' not in html


def test_a_session_won_3_sigma_above_its_expectation_is_an_alert(
    pgp: Table, lee: Player, dealer: User, floor_supervisor: User
) -> None:
    session = session_start(actor=dealer, player=lee, table=pgp, seat=3)
    before = pit_dashboard().alerts
    # 60 rounds for 3,000.00, won 2,500.00 on a theo of 75.00, sd 316.23: z = 2,575.00 / 316.23 = 8.1.
    RatingSession.objects.filter(pk=session.pk).update(
        rounds=60, wagered_cents=300_000, win_loss_cents=250_000, theo_millicents=7_500_000,
        variance_cents2=1_000_000_000,
    )  # fmt: skip
    board = pit_dashboard()
    assert board.alerts == before + 1 and [seat.session_id for _, seat in board.rated_alerts] == [session.pk]
    html = signed_in(floor_supervisor).get("/pit/").content.decode()
    alert = html[html.index(f'id="rated-alert-{session.pk}"') :]
    alert = alert[: alert.index("</article>")]
    assert '3<span class="sigma">σ</span> session' in alert and "Mr Lee" in alert and "PGP-1, seat 3" in alert
    assert "Won +2\u2009500.00 against a theo of 75.00: 8.14 standard deviations above the expectation" in alert
    assert "rated-alert" in rated_box(html, pgp)
    # A win within the expectation is no alert.
    RatingSession.objects.filter(pk=session.pk).update(win_loss_cents=50_000)
    assert pit_dashboard().rated_alerts == []


@pytest.mark.parametrize(
    ("rounds", "house_win_cents", "alert"),
    [
        (100, 30_000, True),  # hold 3.00% against 0.50% expected: z = (300.00 - 50.00) / 100.00 = +2.5
        (100, -20_000, True),  # the players took 200.00: z = -2.5
        (100, 15_000, False),  # z = +1.0: within the 95% band
        (20, 30_000, False),  # z = +2.5 but only 20 rounds: not enough to say
    ],
    ids=["house-ahead", "house-behind", "within", "too-few-rounds"],
)
def test_a_tables_hold_off_its_expectation_is_an_alert(
    pgp: Table, pit_boss: User, rounds: int, house_win_cents: int, alert: bool
) -> None:
    TableHold.objects.create(
        table=pgp,
        rounds=rounds,
        action_cents=1_000_000,
        house_win_cents=house_win_cents,
        theo_millicents=5_000_000,
        variance_cents2=100_000_000,
    )
    board = pit_dashboard()
    assert [line.table.pk for line in board.hold_alerts] == ([pgp.pk] if alert else [])
    html = signed_in(pit_boss).get("/pit/").content.decode()
    box = rated_box(html, pgp)
    hold = f"{house_win_cents / 10_000:.2f}"
    assert f"Hold, last {rounds} rounds: {hold}% · expected 0.50%" in box
    z = (house_win_cents - 5_000) / 10_000
    assert f"z {'+' if z > 0 else ''}{z:.2f}" in box
    assert ("drift-alert" in box) is alert and (f'id="hold-alert-{pgp.pk}"' in html) is alert
    if alert:
        assert f"Hold over the last 100 rounds {hold}% against 0.50% expected: z = {z:.2f}" in html


def rated_everywhere(dealer: User) -> None:
    """At every open table with no rated player yet, two rated players seated (one on a break, one 3σ up), and a
    hold window drifting off its expectation. Bulk-created: only the dashboard's reads are under test."""
    now = timezone.now()
    seated = RatingSeat.objects.filter(ended_at__isnull=True).values("table_id")
    tables = list(Table.objects.filter(status=Table.Status.OPEN).exclude(pk__in=seated).order_by("pk"))
    players = Player.objects.bulk_create(
        Player(name=f"Player {table.name}/{seat}", tier="Silver", created_by=dealer)
        for table in tables
        for seat in (1, 2)
    )
    sessions = RatingSession.objects.bulk_create(
        RatingSession(
            player=player,
            status="playing" if n % 2 == 0 else "paused",
            started_at=now - dt.timedelta(hours=1),
            started_by=dealer,
            running_since=now - dt.timedelta(hours=1) if n % 2 == 0 else None,
            rounds=30,
            wagered_cents=30_000,
            win_loss_cents=90_000 if n % 2 == 0 else -1_000,
            theo_millicents=600_000,
            variance_cents2=100_000_000,
        )
        for n, player in enumerate(players)
    )
    RatingSeat.objects.bulk_create(
        RatingSeat(session=session, table=tables[n // 2], seat_number=1 + n % 2, started_at=now)
        for n, session in enumerate(sessions)
    )
    TableHold.objects.bulk_create(
        TableHold(
            table=table,
            rounds=100,
            action_cents=1_000_000,
            house_win_cents=30_000,
            theo_millicents=5_000_000,
            variance_cents2=100_000_000,
        )  # fmt: skip
        for table in tables
    )


def test_the_dashboard_reads_a_fixed_number_of_queries_with_rated_players_at_2_or_10_tables(
    pit: Any, shift: Shift, dealer: User, pit_boss: User
) -> None:
    def count() -> tuple[int, str]:
        floor_lines_forget()  # the whole floor read (a process keeps the lines it read: the live tests)
        client = signed_in(pit_boss)  # a fresh request: its session, its user and its roles are read again
        with CaptureQueriesContext(connection) as captured:
            response = client.get("/pit/")
        assert response.status_code == 200
        return len(captured), response.content.decode()

    fill_floor(tables=2, pit=pit, shift=shift, dealer=dealer)
    none, _ = count()
    rated_everywhere(dealer)
    two, two_html = count()
    fill_floor(tables=8, pit=pit, shift=shift, dealer=dealer, start=3)
    rated_everywhere(dealer)
    ten, html = count()
    assert none == two == ten <= 12  # the twelfth: the poker room's running tournaments
    assert two_html.count('class="rated-seat') == 4 and html.count('class="rated-seat') == 20
    assert len(re.findall(r'id="rated-alert-\d+"', html)) == 10 and len(re.findall(r'id="hold-alert-\d+"', html)) == 10
    assert html.count("on a break") == 10


def test_a_players_name_is_shown_as_text_never_as_markup(pgp: Table, dealer: User, pit_boss: User) -> None:
    sly = player_create(actor=dealer, name='<script>alert("x")</script> & Co', tier="Bronze")
    session_start(actor=dealer, player=sly, table=pgp, seat=6)
    box = rated_box(signed_in(pit_boss).get("/pit/").content.decode(), pgp)
    assert "<script>" not in box and "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co" in box


@pytest.mark.django_db
def test_a_hold_window_with_no_variance_draws_no_hold_line(make_table, shift) -> None:  # type: ignore[no-untyped-def]
    from pit.selectors import _drift
    from players.models import TableHold

    points = make_table(name="CP-1", game="chinese_poker", seat_count=4)
    banked = make_table(name="PGP-7", game="paigow_poker", seat_count=6)
    # The points game's window: the house won its rake, exactly what it expected, with no variance to measure by.
    TableHold.objects.create(table=points, rounds=40, action_cents=80_000, house_win_cents=900, theo_millicents=900_000)
    TableHold.objects.create(
        table=banked,
        rounds=40,
        action_cents=100_000,
        house_win_cents=-30_000,  # the house lost 300.00 where it expected to win 25.88: z about -2.7
        theo_millicents=2_588_000,
        variance_cents2=40 * 2500.0**2 * 0.75**2,
    )
    points.refresh_from_db()
    banked.refresh_from_db()
    assert _drift(points) is None
    drift = _drift(banked)
    assert drift is not None and drift.z is not None and drift.z < -1.96 and drift.alert
