"""Dealer performance and game protection: each dealer's pace, voids and corrections, and the hold of the rounds
they dealt against the house edge's expectation, with the z-score and its 3σ alert; the dealer report of a closed
shift; who may see what.

The Evening shift, hand-counted. Ann deals PGP-1, Ben deals PGP-2 (Pai Gow Poker, the house banks):

* Ann settles rounds at 18:00, 18:10, 18:20 and 18:30: 4 rounds over 30 minutes on the box, 8.0 rounds an hour. Her
  second round is corrected (a supervisor approves it): 1 correction in 4 rounds dealt, 25.0 per 100.
* Ben settles rounds at 18:00, 18:20, 18:40 and 19:00 and has a fifth voided at 19:20: 4 settled rounds over 80
  minutes, 3.0 an hour; 1 void in 5 rounds dealt, 20.0 per 100.

Each settled round's hold figures are set by hand (what the settle wrote replaced): a handle of 100.00, an expected
house win of 2.00 (a 2% edge) and a variance of (100.00 x 0.5)² = 25,000,000 square cents. Over four rounds: handle
400.00, expected 8.00, variance 100,000,000, standard deviation √100,000,000 = 10,000 cents = 100.00.

* Ann's tables won 77.00 a round, 308.00 in all: z = (308.00 − 8.00) / 100.00 = +3.00, at 3σ: an alert (too little
  paid out: a short pay or a miscount). Hold 308 / 400 = 77.00% against 2.00% expected.
* Ben's lost 72.75 a round, −291.00 in all: z = (−291.00 − 8.00) / 100.00 = −2.99, just under 3σ: no alert. Hold
  −72.75%.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable, Iterator
from importlib import import_module
from typing import Any
from unittest import mock

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from casino.models import AuditEvent, Shift
from casino.roles import Role
from casino.services import gaming_day_open, shift_close, shift_open
from pit import report_files
from pit.dealer_performance import ALERT_Z, DealerFigures, dealer_performance_rows
from pit.services import shift_report_build
from players.models import HoldRound
from rounds.models import Round
from rounds.services import round_open
from settlement.services import adjustment_approve, adjustment_request, settle_round
from tables.models import Table
from tables.services import table_assign_dealer
from tests.settlement.conftest import BANK, LOSES, WINS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("house_chips")]

T0 = dt.datetime(2026, 11, 24, 18, 0, tzinfo=dt.UTC)
HANDLE, THEO_MILLICENTS, VARIANCE = 10_000, 200_000, 25_000_000.0  # one round's hold figures (see the docstring)


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


@pytest.fixture
def ann(make_user: Callable[..., User]) -> User:
    return make_user("ann", Role.DEALER)


@pytest.fixture
def ben(make_user: Callable[..., User]) -> User:
    return make_user("ben", Role.DEALER)


def _settle(play_to_hands: Callable[..., Round], table: Table, by: User, key: str, seats: Any = None) -> Round:
    round_ = play_to_hands(table, wagers={1: 10_000}, hands={"banker": BANK, "seats": seats or {"1": LOSES}}, actor=by)
    settle_round(round=round_, actor=by, idempotency_key=key)
    return round_


def _hold(round_: Round, house_win_cents: int) -> None:
    HoldRound.objects.filter(round=round_).update(
        action_cents=HANDLE, house_win_cents=house_win_cents, theo_millicents=THEO_MILLICENTS, variance_cents2=VARIANCE
    )


@pytest.fixture
def evening(clock, make_table, pit_boss, ann, ben, play_to_hands) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """The Evening shift played as the module's docstring says, not closed yet."""
    gaming_day_open(actor=pit_boss, business_date=dt.date(2026, 11, 24))
    shift = shift_open(actor=pit_boss, name="Evening")
    pgp1 = table_assign_dealer(
        actor=pit_boss, table=make_table(name="PGP-1", game="paigow_poker", seat_count=6), dealer=ann
    )
    pgp2 = table_assign_dealer(
        actor=pit_boss, table=make_table(name="PGP-2", game="paigow_poker", seat_count=6), dealer=ben
    )
    anns, bens = [], []
    for i, minutes in enumerate((0, 10, 20, 30)):
        clock.at(minutes)
        anns.append(_settle(play_to_hands, pgp1, ann, f"ann-{i}"))
    for i, minutes in enumerate((0, 20, 40, 60)):
        clock.at(minutes)
        bens.append(_settle(play_to_hands, pgp2, ben, f"ben-{i}"))
    clock.at(30)
    asked = adjustment_request(
        actor=ann,
        round=anns[1],
        kind="correction",
        reason="Seat 1's hands keyed wrong",
        hands={"banker": BANK, "seats": {"1": WINS}},
    )
    adjustment_approve(actor=pit_boss, adjustment=asked)
    clock.at(80)
    misdealt = round_open(actor=ben, table=pgp2)
    adjustment_approve(
        actor=pit_boss, adjustment=adjustment_request(actor=ben, round=misdealt, kind="void", reason="Misdeal")
    )
    for round_ in anns:
        _hold(round_, 7_700)
    for round_ in bens:
        _hold(round_, -7_275)
    return {"shift": shift, "pgp1": pgp1, "pgp2": pgp2, "anns": anns, "bens": bens}


def _by_dealer(shift: Shift) -> dict[str, DealerFigures]:
    return {row.dealer: row for row in dealer_performance_rows(shift=shift)}


def test_each_round_records_the_dealer_on_the_box_when_it_opened_and_its_audit_event_says_so(
    evening: dict[str, Any], ann: User, ben: User
) -> None:
    assert {r.dealer_id for r in evening["anns"]} == {ann.pk}
    assert {r.dealer_id for r in evening["bens"]} == {ben.pk}
    opened = AuditEvent.objects.get(event_type="round.opened", subject_id=str(evening["anns"][0].pk))
    assert opened.after["dealer"] == ann.pk


def test_the_hold_z_scores_of_two_dealers_are_as_worked_out_by_hand_and_only_the_one_at_3_sigma_alerts(
    evening: dict[str, Any],
) -> None:
    rows = _by_dealer(evening["shift"])
    assert set(rows) == {"ann", "ben"}
    a, b = rows["ann"], rows["ben"]
    assert (a.handle_cents, a.theo_cents, a.house_win_cents, a.variance_cents2) == (40_000, 800, 30_800, 1e8)
    assert a.z == pytest.approx(3.00) and a.alert
    assert a.hold_percent == pytest.approx(77.0) and a.expected_hold_percent == pytest.approx(2.0)
    assert (b.handle_cents, b.theo_cents, b.house_win_cents) == (40_000, 800, -29_100)
    assert b.z == pytest.approx(-2.99) and not b.alert
    assert b.hold_percent == pytest.approx(-72.75)


def test_the_pace_voids_and_corrections_are_counted_per_dealer_as_worked_out_by_hand(
    evening: dict[str, Any],
) -> None:
    rows = _by_dealer(evening["shift"])
    a, b = rows["ann"], rows["ben"]
    assert (a.rounds_settled, a.rounds_voided, a.corrections) == (4, 0, 1)
    assert a.seconds_on_box == 30 * 60 and a.rounds_per_hour == pytest.approx(8.0)
    assert a.voids_per_100 == 0 and a.corrections_per_100 == pytest.approx(25.0)
    assert (b.rounds_settled, b.rounds_voided, b.corrections) == (4, 1, 0)
    assert b.seconds_on_box == 80 * 60 and b.rounds_per_hour == pytest.approx(3.0)
    assert b.voids_per_100 == pytest.approx(20.0) and b.corrections_per_100 == 0


@pytest.mark.parametrize(
    ("house_win_cents", "alert"),
    [
        (800 + 30_000, True),  # +3.00σ: at the line
        (800 - 30_000, True),  # −3.00σ: paying too much alerts too
        (800 + 29_999, False),  # +2.9999σ
        (800 - 29_999, False),
        (800, False),  # exactly what was expected
    ],
)
def test_the_alert_is_raised_at_3_sigma_either_way_and_never_below(house_win_cents: int, alert: bool) -> None:
    figures = DealerFigures(
        dealer_id=1,
        dealer="ann",
        game="paigow_poker",
        rounds_settled=4,
        rounds_voided=0,
        corrections=0,
        first_at=T0,
        last_at=T0,
        handle_cents=40_000,
        house_win_cents=house_win_cents,
        theo_millicents=800_000,
        variance_cents2=1e8,
    )
    assert ALERT_Z == 3.0
    assert figures.alert is alert


def test_a_dealer_with_no_settled_round_has_no_z_and_no_rate_rather_than_a_division_by_zero() -> None:
    figures = DealerFigures(1, "ann", "paigow_poker", 0, 1, 0, T0, T0, 0, 0, 0, 0.0)
    assert (figures.z, figures.alert, figures.rounds_per_hour, figures.hold_percent) == (None, False, None, None)
    assert figures.voids_per_100 == 100.0


def test_the_dealer_reports_rounds_per_dealer_sum_to_the_tables_rounds(
    evening: dict[str, Any], clock: Clock, pit_boss: User, dealer: User, play_to_hands: Callable[..., Round]
) -> None:
    # A table with nobody on the box: a supervisor plays it, and its round counts under "no dealer recorded".
    idle = table_assign_dealer(actor=pit_boss, table=evening["pgp1"], dealer=None)
    clock.at(100)
    _settle(play_to_hands, idle, pit_boss, "nobody-1")
    clock.at(120)
    shift = shift_close(actor=pit_boss, shift=evening["shift"])
    dealers = shift_report_build(shift=shift, kind="dealers").data
    tables = shift_report_build(shift=shift, kind="shift").data
    assert [(line["dealer"], line["rounds_settled"]) for line in dealers["dealers"]] == [
        ("ann", 4),
        ("ben", 4),
        ("", 1),
    ]
    assert sum(line["rounds_settled"] for line in dealers["dealers"]) == tables["floor"]["rounds_settled"] == 9
    assert sum(line["rounds_voided"] for line in dealers["dealers"]) == tables["floor"]["rounds_voided"] == 1
    assert dealers["totals"]["rounds_settled"] == 9 and dealers["totals"]["alerts"] == 1


def test_the_dealer_report_is_written_as_csv_html_and_pdf_and_the_same_shift_gives_the_same_hash(
    evening: dict[str, Any], clock: Clock, pit_boss: User
) -> None:
    clock.at(120)
    shift = shift_close(actor=pit_boss, shift=evening["shift"])
    report = shift_report_build(shift=shift, kind="dealers")
    assert report.status == "ready" and report.pdf[:4] == b"%PDF"
    rows = list(csv.reader(io.StringIO(report.csv)))
    assert rows[0] == ["report", "dealers", "gaming_day", "2026-11-24", "shift", "Evening"]
    header = rows[1]
    ann = dict(zip(header, rows[2], strict=False))
    assert (ann["dealer"], ann["rounds_settled"], ann["rounds_per_hour"], ann["z"], ann["alert"]) == (
        "ann",
        "4",
        "8.0",
        "3.00",
        "ALERT",
    )
    assert ann["time_on_box"] == "0:30" and ann["handle_cents"] == "400.00" and ann["hold_percent"] == "77.00"
    ben = dict(zip(header, rows[3], strict=False))
    assert (ben["dealer"], ben["z"], ben["alert"], ben["voids_per_100"]) == ("ben", "-2.99", "", "20.0")
    assert "Dealer report" in report.html and "ann" in report.html and "-2.99" in report.html
    _, _, _, digest = report_files.report_render(shift=shift, kind="dealers")
    assert digest == report.content_hash


def test_the_backfill_names_the_dealer_who_opened_a_round_and_no_one_for_a_supervisors_round(
    evening: dict[str, Any], pit_boss: User, ann: User
) -> None:
    supervisors = round_open(actor=pit_boss, table=evening["pgp1"])
    Round.objects.filter(pk__in=[evening["anns"][0].pk, supervisors.pk]).update(dealer=None)
    import_module("rounds.migrations.0002_round_dealer").dealers_from_openers(apps, None)
    assert Round.objects.get(pk=evening["anns"][0].pk).dealer_id == ann.pk
    assert Round.objects.get(pk=supervisors.pk).dealer_id is None


# --- the pages and the API --------------------------------------------------------------------------------------


def _signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _api(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_supervisor_sees_every_dealer_of_the_shift_with_the_alert_and_drills_down_to_one(
    evening: dict[str, Any], pit_boss: User, ann: User
) -> None:
    client = _signed_in(pit_boss)
    page = client.get("/pit/dealers/").content.decode()
    assert 'data-dealer="ann"' in page and 'data-dealer="ben"' in page
    assert 'id="dealer-alerts"' in page and "ann at Pai Gow Poker: z = 3.00" in page
    one = client.get(f"/pit/dealers/{ann.pk}/").content.decode()
    assert 'data-dealer="ann"' in one and 'data-dealer="ben"' not in one and "77.00" in one


def test_an_auditor_reads_the_dealers_page_and_a_dealer_is_refused_it(
    evening: dict[str, Any], auditor: User, ann: User
) -> None:
    assert _signed_in(auditor).get("/pit/dealers/").status_code == 200
    assert _signed_in(ann).get("/pit/dealers/").status_code == 403
    assert _signed_in(ann).get(f"/pit/dealers/{ann.pk}/").status_code == 403


def test_a_dealer_sees_their_own_pace_and_nothing_of_the_hold_or_of_another_dealer(
    evening: dict[str, Any], ann: User
) -> None:
    page = _signed_in(ann).get("/pace/").content.decode()
    assert "8.0" in page and 'class="pace-rounds">4<' in page
    assert "ben" not in page and "77.00" not in page and "3.00" not in page and "3σ" not in page


def test_a_supervisor_has_no_pace_page_of_their_own(evening: dict[str, Any], pit_boss: User) -> None:
    assert _signed_in(pit_boss).get("/pace/").status_code == 403


def test_a_shift_that_is_not_one_is_a_404_not_a_500(evening: dict[str, Any], pit_boss: User) -> None:
    client = _signed_in(pit_boss)
    assert client.get("/pit/dealers/?shift=abc").status_code == 404
    assert client.get("/pit/dealers/?shift=999999").status_code == 404
    assert client.get("/pit/dealers/?shift=３").status_code == 404
    assert client.get("/pit/dealers/999999/").status_code == 404


def test_the_api_gives_supervisors_every_dealers_figures_and_refuses_a_dealer(
    evening: dict[str, Any], pit_boss: User, ann: User
) -> None:
    shift = evening["shift"]
    body = _api(pit_boss).get(f"/api/v1/shifts/{shift.pk}/dealers/").json()
    lines = {line["dealer"]: line for line in body["dealers"]}
    assert body["alert_z"] == 3.0 and lines["ann"]["z"] == 3.0 and lines["ann"]["alert"] is True
    assert lines["ann"]["dealer_id"] == ann.pk and lines["ben"]["z"] == -2.99 and lines["ben"]["alert"] is False
    refused = _api(ann).get(f"/api/v1/shifts/{shift.pk}/dealers/")
    assert refused.status_code == 403 and "dealers' figures" in refused.json()["message"]
    assert _api(pit_boss).get("/api/v1/shifts/999999/dealers/").status_code == 404


def test_a_dealer_refused_the_figures_in_german_reads_the_roles_in_german(evening: dict[str, Any], ann: User) -> None:
    refused = _api(ann).get(f"/api/v1/shifts/{evening['shift'].pk}/dealers/", HTTP_ACCEPT_LANGUAGE="de")
    assert refused.status_code == 403
    assert (
        refused.json()["message"]
        == "Nur ein Supervisor oder Pit Boss oder Revisor darf die Zahlen der Croupiers lesen."
    )


def test_the_api_gives_a_dealer_their_own_pace_only(evening: dict[str, Any], ann: User, pit_boss: User) -> None:
    body = _api(ann).get("/api/v1/dealers/me/pace/").json()
    assert body["dealer"] == "ann"
    assert body["shifts"] == [
        {
            "shift": evening["shift"].pk,
            "games": [{"game": "paigow_poker", "rounds_settled": 4, "seconds_on_box": 1800, "rounds_per_hour": 8.0}],
        }
    ]
    assert _api(pit_boss).get("/api/v1/dealers/me/pace/").status_code == 403


def test_the_dealers_page_reads_as_many_queries_with_more_rounds_and_dealers(
    evening: dict[str, Any],
    clock: Clock,
    pit_boss: User,
    make_user: Callable[..., User],
    make_table: Callable[..., Table],
    play_to_hands: Callable[..., Round],
) -> None:
    client = _signed_in(pit_boss)
    client.get("/pit/dealers/")  # the session and the caches warmed
    with CaptureQueriesContext(connection) as first:
        assert client.get("/pit/dealers/").status_code == 200
    cho = make_user("cho", Role.DEALER)
    pgp3 = table_assign_dealer(
        actor=pit_boss, table=make_table(name="PGP-3", game="paigow_poker", seat_count=6), dealer=cho
    )
    for i in range(3):
        clock.at(90 + i)
        _settle(play_to_hands, pgp3, cho, f"cho-{i}")
        _settle(play_to_hands, evening["pgp1"], evening["anns"][0].dealer, f"ann-more-{i}")
    with CaptureQueriesContext(connection) as then:
        page = client.get("/pit/dealers/").content.decode()
    assert 'data-dealer="cho"' in page
    assert len(then.captured_queries) == len(first.captured_queries)
