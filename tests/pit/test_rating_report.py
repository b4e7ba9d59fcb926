"""The rating report of a shift: each rated session's play in the shift, built with the other reports when
the shift closes, in CSV, HTML and PDF, the same hash every time; and built on demand by a supervisor for a shift
that lacks it.

The Evening shift runs from 18:00 to 20:00 on a clock the test sets. Mr Lee (Gold) plays two rounds at PGP-1, takes a
break (a round goes by without him), moves to PGP-B and banks a round there, and leaves; an anonymous Bronze player
plays four rounds at PGP-1, with a break, and is still playing when the shift closes. Every expected figure is worked
out here from the wagers, the hands and the house edges (``rules.edges``), and held to the players' ``RatedRound``
rows.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.db.models import Sum
from rest_framework.test import APIClient

from casino.services import gaming_day_open, shift_close, shift_open
from pit import report_files, reports
from pit.rating_report import rating_sections
from pit.services import shift_report_build
from players.models import RatedRound, RatingSession
from players.services import player_create, session_end, session_move, session_pause, session_resume, session_start
from rounds.models import Round
from rules.edges import rule_set_edges
from rules.services import rule_set_create
from settlement.models import ShiftReport
from settlement.services import settle_round
from tests.caches import cache_clear
from tests.settlement.conftest import BANK, LOSES, PUSHES, WINS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("house_chips")]

T0 = dt.datetime(2026, 11, 24, 18, 0, tzinfo=dt.UTC)
# Another losing hand, for an unrated seat beside the rated ones: sixes under queens, eight-high under jacks.
LOSES_TOO = {"high": "6s 6h 5c 4c 3h", "low": "8c 7d"}


class Clock:
    """The floor's clock, set by the test: every ``timezone.now()`` reads it."""

    def __init__(self) -> None:
        self.now = T0

    def at(self, minutes: float) -> None:
        self.now = T0 + dt.timedelta(minutes=minutes)


@pytest.fixture
def clock() -> Iterator[Clock]:
    floor_clock = Clock()
    with mock.patch("django.utils.timezone.now", side_effect=lambda: floor_clock.now):
        yield floor_clock


def _half_up(value: float) -> int:
    return int(value + 0.5) if value >= 0 else -int(-value + 0.5)


def _settle(dealer, play_to_hands, table, wagers, seats, key, **bank):  # type: ignore[no-untyped-def]
    round_ = play_to_hands(table, wagers=wagers, hands={"banker": BANK, "seats": seats}, **bank)
    settle_round(round=round_, actor=dealer, idempotency_key=key)
    return round_


@pytest.fixture
def evening(clock, make_table, pit_boss, dealer, play_to_hands) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """The Evening shift played as the module's docstring says, not closed yet."""
    gaming_day_open(actor=pit_boss, business_date=dt.date(2026, 11, 24))
    shift = shift_open(actor=pit_boss, name="Evening")
    house = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    rotation = rule_set_create(actor=pit_boss, name="PGP rotation", game="paigow_poker", banking_mode="player_rotation")
    banked = make_table(name="PGP-B", game="paigow_poker", seat_count=6, rule_set=rotation)
    lee = player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")
    anon = player_create(actor=dealer, tier="Bronze", anonymous=True)
    idle = player_create(actor=dealer, name="Ms Idle", tier="Silver")

    clock.at(10)
    lee_session = session_start(actor=dealer, player=lee, table=house, seat=1, chips_cents=10_000)
    clock.at(15)
    idle_session = session_start(actor=dealer, player=idle, table=house, seat=5)  # seated, never plays a round
    clock.at(20)
    anon_session = session_start(actor=dealer, player=anon, table=house, seat=2)
    clock.at(25)
    _settle(dealer, play_to_hands, house, {1: 2500, 2: 1000, 4: 5000}, {"1": WINS, "2": LOSES, "4": LOSES_TOO}, "r1")
    clock.at(30)
    _settle(dealer, play_to_hands, house, {1: 5000, 2: 2000}, {"1": LOSES, "2": WINS}, "r2")
    clock.at(40)
    session_pause(actor=dealer, session=lee_session)
    clock.at(45)
    _settle(dealer, play_to_hands, house, {1: 2500, 2: 1500}, {"1": WINS, "2": PUSHES}, "r3")  # Lee is on a break
    clock.at(55)
    session_resume(actor=dealer, session=lee_session)
    clock.at(70)
    session_move(actor=dealer, session=lee_session, table=banked, seat=3)
    clock.at(75)
    _settle(
        dealer,
        play_to_hands,
        banked,
        {1: 2000, 2: 1000},
        {"1": LOSES, "2": WINS},
        "b1",
        banker_seat=3,
        bank_cents=50_000,
    )
    clock.at(80)
    session_pause(actor=dealer, session=anon_session)
    clock.at(90)
    session_resume(actor=dealer, session=anon_session)
    clock.at(100)
    session_end(actor=dealer, session=lee_session, walk_with_cents=12_000)
    session_end(actor=dealer, session=idle_session)
    clock.at(110)
    _settle(dealer, play_to_hands, house, {2: 2500}, {"2": WINS}, "r4")
    clock.at(120)
    return {
        "shift": shift,
        "house": house,
        "banked": banked,
        "lee": lee_session,
        "anon": anon_session,
        "anon_player": anon,
    }


def _edges(table):  # type: ignore[no-untyped-def]
    return rule_set_edges(Round.objects.filter(table=table).latest("pk").rule_set_snapshot)


def _expected(session: RatingSession, *, tier_bp: int, seconds: int, wagers: list[int], bank: list[int], edges, wins):  # type: ignore[no-untyped-def]
    """A line worked out on paper: the player's wagers and the bank's action, their results (``wins``) and edges."""
    player_edge, banker_edge = edges
    theo_millicents = sum(round(w * player_edge.edge * 1000) for w in wagers) + sum(
        round(a * banker_edge.edge * 1000) for a in bank
    )
    variance = sum(w * w * player_edge.sd**2 for w in wagers) + sum(a * a * banker_edge.sd**2 for a in bank)
    # The players' rows say the same.
    rows = RatedRound.objects.filter(session=session).aggregate(
        theo=Sum("theo_millicents"), variance=Sum("variance_cents2"), win=Sum("win_loss_cents")
    )
    assert (rows["theo"], rows["win"]) == (theo_millicents, wins)
    assert rows["variance"] == pytest.approx(variance, rel=1e-12)
    theo = _half_up(theo_millicents / 1000)
    action = sum(wagers) + sum(bank)
    average = _half_up(sum(wagers) / len(wagers))
    return {
        "rounds": len(wagers),
        "average_bet_cents": average,
        "wagered_cents": sum(wagers),
        "banker_rounds": len(bank),
        "banker_wagered_cents": sum(bank),
        "win_loss_cents": wins,
        "theo_cents": theo,
        "classic_theo_cents": _half_up(average * seconds / 3600 * 60 * (theo_millicents / 1000 / action)),
        "comp_cents": _half_up(max(theo, 0) * tier_bp / 10_000),
        "points": max(theo, 0) // 100,
        "z": round((wins + theo_millicents / 1000) / math.sqrt(variance), 2),
        "alert": False,
        "seconds_played": seconds,
    }


def test_the_rating_report_gives_each_rated_sessions_play_in_the_shift(evening, pit_boss) -> None:  # type: ignore[no-untyped-def]
    shift = shift_close(actor=pit_boss, shift=evening["shift"])
    data = reports.BUILDERS[ShiftReport.Kind.RATINGS](shift)
    assert data["kind"] == "ratings" and data["shift"]["name"] == "Evening"
    lee, anon = data["sessions"]  # in the order they sat down; Ms Idle played no round
    house = _edges(evening["house"])
    banked = _edges(evening["banked"])
    assert house.player.edge == banked.player.edge  # the same game and house way: the seats' edge is one

    # Mr Lee: 25.00 won (less 1.25 commission), 50.00 lost; then as the bank of PGP-B he took 20.00 and paid 10.00
    # (a 10.00 win, less 0.50 commission). 90 minutes seated less a 15-minute break: 75 minutes.
    assert RatingSession.objects.get(pk=evening["lee"].pk).seconds_played == 75 * 60
    expected_lee = _expected(
        evening["lee"],
        tier_bp=3000,
        seconds=75 * 60,
        wagers=[2500, 5000],
        bank=[3000],
        edges=(house.player, banked.banker),
        wins=2375 - 5000 + 950,
    )
    assert {name: lee[name] for name in expected_lee} == expected_lee
    assert (lee["name"], lee["anonymous"], lee["tier"], lee["tables"]) == ("Mr Lee", False, "Gold", ["PGP-1", "PGP-B"])
    assert (lee["from"], lee["until"]) == (
        (T0 + dt.timedelta(minutes=10)).isoformat(),
        (T0 + dt.timedelta(minutes=100)).isoformat(),
    )

    # The anonymous player: 10.00 lost, 20.00 won (less 1.00), 15.00 pushed, 25.00 won (less 1.25); seated from 18:20
    # and still playing at the close (20:00): 100 minutes less a 10-minute break.
    expected_anon = _expected(
        evening["anon"],
        tier_bp=2000,
        seconds=90 * 60,
        wagers=[1000, 2000, 1500, 2500],
        bank=[],
        edges=(house.player, house.banker),
        wins=-1000 + 1900 + 0 + 2375,
    )
    assert {name: anon[name] for name in expected_anon} == expected_anon
    assert (anon["name"], anon["anonymous"], anon["player"]) == ("", True, evening["anon_player"].pk)
    assert anon["until"] == shift.closed_at.isoformat()

    totals = data["totals"]
    assert (totals["sessions"], totals["players"], totals["alerts"]) == (2, 2, 0)
    assert totals["seconds_played"] == 165 * 60
    assert (totals["rounds"], totals["wagered_cents"], totals["banker_wagered_cents"]) == (6, 14_500, 3000)
    assert totals["average_bet_cents"] == 2417  # 145.00 over 6 rounds
    for name in ("win_loss_cents", "theo_cents", "classic_theo_cents", "comp_cents", "points"):
        assert totals[name] == expected_lee[name] + expected_anon[name]
    assert data["settings"]["tiers_reinvestment_bp"]["Gold"] == 3000


def test_closing_the_shift_builds_the_rating_report_with_the_others_in_every_format(  # type: ignore[no-untyped-def]
    evening, pit_boss, django_capture_on_commit_callbacks, eager_celery
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        shift = shift_close(actor=pit_boss, shift=evening["shift"])
    report = ShiftReport.objects.get(shift=shift, kind="ratings")
    assert report.status == "ready" and len(report.content_hash) == 64
    rows = list(csv.reader(io.StringIO(report.csv)))
    assert rows[0] == ["report", "ratings", "gaming_day", "2026-11-24", "shift", "Evening"]
    assert rows[1][:8] == ["session", "player", "tier", "tables", "from", "until", "time_played", "rounds"]
    lee, anon = rows[2], rows[3]
    assert lee[1:4] == ["Mr Lee", "Gold", "PGP-1 PGP-B"] and lee[6] == "1:15"
    assert lee[7:9] == ["2", "37.50"]  # rounds, average bet
    assert anon[1:4] == [f"anonymous {evening['anon_player'].pk}", "Bronze", "PGP-1"] and anon[6] == "1:30"
    totals = rows[rows.index(["totals", "sessions", "players", "time_played", *rows[1][7:17], "alerts"]) + 1]
    assert totals[1:4] == ["2", "2", "2:45"]
    assert f"anonymous {evening['anon_player'].pk}" in report.html and "Mr Lee" in report.html
    assert "1:15" in report.html and "Rating report" in report.html
    assert bytes(report.pdf).startswith(b"%PDF")
    # Building again changes nothing; building from scratch gives the same figures and hash.
    assert shift_report_build(shift=shift, kind="ratings").content_hash == report.content_hash
    _, _, _, digest = report_files.report_render(shift=shift, kind="ratings")
    assert digest == report.content_hash


def test_a_shift_with_no_rated_play_has_an_empty_rating_report(shift, pit_boss) -> None:  # type: ignore[no-untyped-def]
    closed = shift_close(actor=pit_boss, shift=shift)
    data = rating_sections(closed)
    assert data["sessions"] == []
    assert data["totals"]["sessions"] == 0 and data["totals"]["average_bet_cents"] is None
    report = shift_report_build(shift=closed, kind="ratings")
    assert "No rated player played in this shift." in report.html
    assert bytes(report.pdf).startswith(b"%PDF")


def test_a_supervisor_builds_a_missing_rating_report_on_demand_and_no_one_else(  # type: ignore[no-untyped-def]
    shift, pit_boss, floor_supervisor, dealer, auditor, client
) -> None:
    api = APIClient()
    api.force_authenticate(pit_boss)
    refused = api.post(f"/api/shifts/{shift.pk}/reports/ratings/")
    assert refused.status_code == 409 and "still open" in refused.json()["message"]
    shift_close(actor=pit_boss, shift=shift)  # the reports' task runs on commit: not in this test's transaction
    assert not ShiftReport.objects.filter(shift=shift).exists()
    for who in (dealer, auditor):
        other = APIClient()
        other.force_authenticate(who)
        assert other.post(f"/api/shifts/{shift.pk}/reports/ratings/").status_code == 403
    assert api.post("/api/shifts/999999/reports/ratings/").status_code == 404
    built = api.post(f"/api/shifts/{shift.pk}/reports/ratings/")
    assert built.status_code == 200 and built.json()["kind"] == "ratings" and built.json()["status"] == "ready"
    again = api.post(f"/api/shifts/{shift.pk}/reports/ratings/")  # a double tap: the same report
    assert again.json()["id"] == built.json()["id"] and again.json()["content_hash"] == built.json()["content_hash"]
    assert ShiftReport.objects.filter(shift=shift, kind="ratings").count() == 1


def test_the_reports_page_offers_build_now_for_a_missing_rating_report(  # type: ignore[no-untyped-def]
    shift, pit_boss, floor_supervisor, auditor, client
) -> None:
    cache_clear()
    shift_close(actor=pit_boss, shift=shift)
    for kind in ("shift", "commission", "audit"):  # a shift closed before rated play was reported
        shift_report_build(shift=shift, kind=kind)
    client.force_login(auditor)
    page = client.get("/reports/").content.decode()
    assert f'id="ratings-{shift.pk}"' in page and "Built within a few minutes." in page
    assert client.post(f"/reports/shifts/{shift.pk}/ratings/").status_code == 403
    client.force_login(floor_supervisor)
    page = client.get("/reports/").content.decode()
    assert f'action="/reports/shifts/{shift.pk}/ratings/"' in page
    answer = client.post(f"/reports/shifts/{shift.pk}/ratings/", follow=True)
    assert answer.redirect_chain[-1][0] == "/reports/"
    assert "The rating report of the Day shift is built." in answer.content.decode()
    assert ShiftReport.objects.get(shift=shift, kind="ratings").status == "ready"
    page = client.get("/reports/").content.decode()
    assert f'id="ratings-{shift.pk}"' not in page and "Rating report" in page
    assert client.get(f"/reports/shifts/{shift.pk}/ratings/").status_code == 405


def test_a_session_across_the_close_is_split_between_the_two_shifts_and_its_run_of_wins_flagged(  # type: ignore[no-untyped-def]
    clock, make_table, pit_boss, dealer, play_to_hands
) -> None:
    gaming_day_open(actor=pit_boss, business_date=dt.date(2026, 11, 24))
    early = shift_open(actor=pit_boss, name="Early")
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    lee = player_create(actor=dealer, name="Mr Lee", tier="Gold")
    clock.at(30)
    session = session_start(actor=dealer, player=lee, table=table, seat=1)
    clock.at(40)
    _settle(dealer, play_to_hands, table, {1: 2500}, {"1": LOSES}, "e1")
    clock.at(60)
    early = shift_close(actor=pit_boss, shift=early)
    late = shift_open(actor=pit_boss, name="Late")
    for number in range(8):  # eight wins in a row: beyond three standard deviations
        clock.at(70 + number)
        _settle(dealer, play_to_hands, table, {1: 2500}, {"1": WINS}, f"l{number}")
    clock.at(120)
    session_end(actor=dealer, session=session)
    late = shift_close(actor=pit_boss, shift=late)

    (before,) = rating_sections(early)["sessions"]
    (after,) = rating_sections(late)["sessions"]
    assert (before["rounds"], before["win_loss_cents"], before["seconds_played"]) == (1, -2500, 30 * 60)
    assert (after["rounds"], after["win_loss_cents"], after["seconds_played"]) == (8, 8 * 2375, 60 * 60)
    assert before["until"] == after["from"] == early.closed_at.isoformat() == late.opened_at.isoformat()
    assert before["session"] == after["session"] == session.pk
    # The two halves make the whole session as it kept itself.
    kept = RatingSession.objects.get(pk=session.pk)
    assert (kept.rounds, kept.win_loss_cents, kept.seconds_played) == (9, 8 * 2375 - 2500, 90 * 60)
    assert not before["alert"] and after["alert"] and after["z"] > 3
    report = shift_report_build(shift=late, kind="ratings")
    assert report.data["totals"]["alerts"] == 1
    assert next(csv.reader(io.StringIO(report.csv.splitlines()[2])))[-1] == "ALERT"
    assert 'class="alert"' in report.html


def test_a_name_typed_as_a_formula_is_never_run_by_the_spreadsheet_that_opens_the_csv() -> None:
    from pit.report_files import csv_cell

    assert csv_cell('=HYPERLINK("http://x","Mr Lee")') == '\'=HYPERLINK("http://x","Mr Lee")'
    assert [csv_cell(text) for text in ("@SUM(A1)", "+cmd", "-x")] == ["'@SUM(A1)", "'+cmd", "'-x"]
    assert [csv_cell(text) for text in ("-12.05", "+4\u2009800.00", "12.5%", "1:05", "Mr Lee", 7)] == [
        "-12.05",
        "+4\u2009800.00",
        "12.5%",
        "1:05",
        "Mr Lee",
        7,
    ]
