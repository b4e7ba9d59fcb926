"""The Master Game Report: built with the other shift reports once the count is done, idempotent; per
table the counted win beside the computed win, the slips and their numbers, win and hold by pit, game, floor, day,
month and year; CSV, HTML and PDF.

The shift is ``play_a_shift`` of tests/settlement/test_table_money.py (every figure worked out there by hand): at
PGP-1 an opener of 3,000.00, buy-ins of 500.00 cash and a 200.00 marker, a round the house wins 31.00 (30.00 bank,
1.00 commission), a fill of 1,000.00, a credit of 500.00, a fill voided ("Asked twice"), a closer of 2,831.00 and a
drop of 700.00 counted by Kim and Lee: win 31.00, hold 4.43 %, variance 0.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from typing import Any

import pytest
from django.test import Client

from casino.errors import NotAllowed
from casino.models import AuditEvent, Shift, TaskOutbox
from casino.services import gaming_day_close, gaming_day_open, shift_close, shift_open
from pit.report_files import report_render
from pit.report_pdf import render_pdf, win_hold_chart_png
from pit.report_selectors import shift_awaits_count, shift_boxes_awaited, shifts_needing_reports
from pit.services import CountPending, shift_report_build
from pit.tasks import shift_boundaries, shift_reports_build
from settlement.models import ShiftReport
from tables.drop import buy_in_record, drop_count_record
from tables.models import Table
from tests.markers import marker_buy_in
from tests.settlement import test_table_money
from tests.settlement.test_table_money import OPENER, _count, chips_for, play_a_shift

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("house_chips", "eager_celery")]

# The personas and the table of the shift played there (fixtures).
people = test_table_money.people
pgp = test_table_money.pgp

MASTER_GAME = ShiftReport.Kind.MASTER_GAME
BOX = {"cash": {10000: 5}, "markers_cents": 20_000, "promo_cents": 0}  # PGP-1's box: 500.00 cash + a 200.00 marker


def _build(shift: Shift) -> ShiftReport:
    return shift_report_build(shift=shift, kind=MASTER_GAME)


def _csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def pb2(make_table):  # type: ignore[no-untyped-def]
    return make_table(name="PGP-2", game="paigow_poker", seat_count=6)


def _quiet_table(people: dict[str, Any], table: Table, *, cash_cents: int = 10_000) -> None:
    """A table that opens, sells ``cash_cents`` of chips for cash, plays no round and closes: its win is 0."""
    _count(people, table, "opener", OPENER)
    buy_in_record(actor=people["dealer"], table=table, seat=1, medium="cash", amount_cents=cash_cents)
    _count(people, table, "closer", chips_for(300_000 - cash_cents))


def _count_box(people: dict[str, Any], table: Table, shift: Shift, cash_cents: int, *, by: str) -> None:
    drop_count_record(
        actor=people[by], table=table, shift=shift, cash={10000: cash_cents // 10_000}, markers_cents=0, promo_cents=0
    )


# --- the figures ---------------------------------------------------------------------------------------------


def test_a_shift_with_no_mistakes_shows_its_win_and_hold_and_a_zero_variance(people, shift, pgp, play_to_hands) -> None:  # type: ignore[no-untyped-def]
    play_a_shift(people, shift, pgp, play_to_hands)
    data = _build(shift).data
    (row,) = data["tables"]
    assert (row["pit"], row["table"], row["game"]) == ("Pit 1", "PGP-1", "paigow_poker")
    assert (row["opener_cents"], row["closer_cents"], row["fills_cents"], row["credits_cents"]) == (
        300_000,
        283_100,
        100_000,
        50_000,
    )
    assert (row["buy_ins_cents"], row["markers_cents"], row["drop_cents"], row["drop_status"]) == (
        70_000,
        20_000,
        70_000,
        "final",
    )
    # win = 700.00 + 2,831.00 + 500.00 − 3,000.00 − 1,000.00 = 31.00; hold 31.00 / 700.00 = 4.43 %
    assert (row["win_cents"], row["hold_bp"]) == (3_100, 443)
    assert (row["computed_win_cents"], row["house_cents"], row["commission_cents"], row["rake_cents"]) == (
        3_100,
        3_000,
        100,
        0,
    )
    assert (row["variance_cents"], row["tray_variance_cents"], row["drop_variance_cents"]) == (0, 0, 0)
    assert (row["box"], row["counted_by"], row["not_in"]) == ("", ["kim_count", "lee_count"], [])
    assert data["drop_variance"] == [] and data["boxes_missing"] == []
    # The slips by kind and number, with who asked, issued, signed or voided them and why.
    assert [(s["kind"], s["number"], s["status"], s["total_cents"]) for s in data["slips"]] == [
        ("fill", 1, "received", 100_000),
        ("fill", 2, "voided", 100_000),
        ("credit", 1, "received", 50_000),
    ]
    fill, voided, _credit = data["slips"]
    assert (fill["requested_by"], fill["issued_by"], fill["dealer_signed_by"], fill["supervisor_signed_by"]) == (
        "dana_dealer",
        "cora_cage",
        "dana_dealer",
        "fred_floor",
    )
    assert (voided["voided_by"], voided["void_reason"], voided["issued_by"]) == ("fred_floor", "Asked twice", "")
    assert data["slip_numbers"] == [
        {"kind": "fill", "first": 1, "last": 2, "used": [1], "voided": [2], "missing": []},
        {"kind": "credit", "first": 1, "last": 1, "used": [1], "voided": [], "missing": []},
    ]
    totals = {
        "table_shifts": 1,
        "incomplete": 0,
        "drop_cents": 70_000,
        "win_cents": 3_100,
        "hold_bp": 443,
        "computed_win_cents": 3_100,
        "variance_cents": 0,
    }
    assert data["pits"] == [{"pit": "Pit 1", **totals}]
    assert data["games"] == [{"game": "paigow_poker", **totals}]
    assert data["floor"] == totals
    assert [(p["period"], p["from"], p["to"], p["shifts"], p["win_cents"]) for p in data["periods"]] == [
        ("gaming_day", "2025-03-01", "2025-03-01", 1, 3_100),
        ("month_to_date", "2025-03-01", "2025-03-01", 1, 3_100),
        ("year_to_date", "2025-01-01", "2025-03-01", 1, 3_100),
    ]


def test_a_chip_taken_from_the_tray_shows_as_the_variance_in_every_format(people, shift, pgp, play_to_hands) -> None:  # type: ignore[no-untyped-def]
    play_a_shift(people, shift, pgp, play_to_hands, short_cents=500)
    report = _build(shift)
    (row,) = report.data["tables"]
    assert (row["win_cents"], row["computed_win_cents"], row["hold_bp"]) == (2_600, 3_100, 371)
    assert (row["variance_cents"], row["tray_variance_cents"], row["drop_variance_cents"]) == (-500, -500, 0)
    assert report.data["floor"]["variance_cents"] == -500
    rows = _csv_rows(report.csv)
    header = next(r for r in rows if r[:1] == ["tables"])
    line = dict(zip(header, next(r for r in rows if r[:1] == ["table"]), strict=True))
    assert (line["win_cents"], line["hold_pct"], line["variance_cents"], line["tray_variance_cents"]) == (
        "26.00",
        "3.71",
        "-5.00",
        "-5.00",
    )
    assert '<td class="num">-5.00</td>' in report.html
    assert report.pdf[:5] == b"%PDF-"


def test_the_csv_html_and_pdf_hold_every_section(people, shift, pgp, play_to_hands) -> None:  # type: ignore[no-untyped-def]
    play_a_shift(people, shift, pgp, play_to_hands)
    report = _build(shift)
    rows = _csv_rows(report.csv)
    assert rows[0] == ["report", "master_game", "gaming_day", "2025-03-01", "shift", "Day"]
    assert [
        "table",
        "Pit 1",
        "PGP-1",
        "paigow_poker",
        "3000.00",
        "2831.00",
        "1000.00",
        "500.00",
        "700.00",
        "200.00",
        "700.00",
        "0.00",
        "31.00",
        "4.43",
        "31.00",
        "30.00",
        "1.00",
        "0.00",
        "0.00",
        "0.00",
        "0.00",
        "final",
        "",
        "kim_count lee_count",
    ] in rows
    assert ["", "floor", "", "1", "0", "700.00", "31.00", "4.43", "31.00", "0.00"] in rows
    assert [
        "",
        "month_to_date",
        "2025-03-01 – 2025-03-01",
        "1",
        "0",
        "700.00",
        "31.00",
        "4.43",
        "31.00",
        "0.00",
    ] in rows
    voided = ["", "fill", "2", "PGP-1", "voided", "1000.00", "dana_dealer", "", "", "", "fred_floor", "Asked twice"]
    assert voided in rows
    assert ["", "fill", "1", "2", "1", "2", ""] in rows and ["", "credit", "1", "1", "1", "", ""] in rows

    html = report.html
    assert html.startswith("<!doctype html>") and "<h1>Master Game Report</h1>" in html
    for shown in ("PGP-1", "2\u2009831.00", "31.00", "4.43", "Asked twice", "fred_floor", "cora_cage", "kim_count"):
        assert shown in html, shown

    pdf = bytes(report.pdf)
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    assert render_pdf(report.data, report.content_hash) == pdf  # the same figures, the same bytes
    chart = win_hold_chart_png(report.data["tables"])
    assert chart.startswith(b"\x89PNG") and chart == win_hold_chart_png(report.data["tables"])


def test_building_twice_gives_the_same_content_hash(people, shift, pgp, play_to_hands) -> None:  # type: ignore[no-untyped-def]
    play_a_shift(people, shift, pgp, play_to_hands)
    first = _build(shift)
    again = _build(shift)
    assert (again.pk, again.content_hash, again.finished_at) == (first.pk, first.content_hash, first.finished_at)
    # Built afresh (a crashed build's empty row, then no row at all): the same figures, files and hash.
    ShiftReport.objects.filter(pk=first.pk).update(status="building", data=None, csv="", html="", content_hash="")
    finished = _build(shift)
    assert (finished.pk, finished.content_hash, finished.csv, finished.html) == (
        first.pk,
        first.content_hash,
        first.csv,
        first.html,
    )
    ShiftReport.objects.filter(pk=first.pk).delete()
    rebuilt = _build(shift)
    assert (rebuilt.content_hash, rebuilt.data, bytes(rebuilt.pdf)) == (
        first.content_hash,
        first.data,
        bytes(first.pdf),
    )
    _data, _csv, _html, digest = report_render(shift=Shift.objects.get(pk=shift.pk), kind=MASTER_GAME)
    assert digest == first.content_hash


# --- waiting for the count -----------------------------------------------------------------------------------


def test_the_report_waits_for_the_count_and_is_built_when_the_last_box_is_final(
    people, shift, pgp, pb2, play_to_hands, django_capture_on_commit_callbacks
) -> None:  # type: ignore[no-untyped-def]
    _quiet_table(people, pb2)
    with django_capture_on_commit_callbacks(execute=True):
        play_a_shift(people, shift, pgp, play_to_hands)  # closes the shift, then counts PGP-1's box twice
    # The close built the others; PGP-2's box is not counted: the Master Game Report waits, with no row.
    assert sorted(ShiftReport.objects.filter(shift=shift).values_list("kind", flat=True)) == [
        "audit",
        "commission",
        "dealers",
        "ratings",
        "shift",
    ]
    assert shift_boxes_awaited(shift=shift) == ["PGP-2"] and shift_awaits_count(shift=shift)
    answer = shift_reports_build(shift.pk)
    assert answer["master_game"].startswith("waiting: The Master Game Report of the Day shift waits for the count:")
    assert "the drop box of table PGP-2 is not final yet" in answer["master_game"]
    assert len(answer["shift"]) == 64
    with pytest.raises(CountPending) as refused:
        _build(shift)
    assert refused.value.extra == {"boxes_awaited": ["PGP-2"]}
    assert not ShiftReport.objects.filter(shift=shift, kind=MASTER_GAME).exists()
    # The beat does not try it again and again: the shift is not listed, and nothing fails.
    assert shift not in shifts_needing_reports()
    assert shift_boundaries() == {"closed_shift": None, "built": {}, "failed": []}
    queued = TaskOutbox.objects.count()

    with django_capture_on_commit_callbacks(execute=True):
        _count_box(people, pb2, shift, 10_000, by="kim")  # counted once: not final, nothing queued
    assert TaskOutbox.objects.count() == queued
    assert not ShiftReport.objects.filter(shift=shift, kind=MASTER_GAME).exists()

    with django_capture_on_commit_callbacks(execute=True):
        _count_box(people, pb2, shift, 10_000, by="lee")  # the last box final: the task is queued and runs
    assert TaskOutbox.objects.count() == queued + 1
    report = ShiftReport.objects.get(shift=shift, kind=MASTER_GAME)
    assert report.status == "ready" and report.data["boxes_missing"] == []
    assert [(r["table"], r["win_cents"], r["variance_cents"]) for r in report.data["tables"]] == [
        ("PGP-1", 3_100, 0),
        ("PGP-2", 0, 0),
    ]
    assert report.data["floor"]["win_cents"] == 3_100 and report.data["floor"]["drop_cents"] == 80_000
    assert shift not in shifts_needing_reports()


def test_a_shift_where_no_table_played_gets_its_report_at_the_close(
    shift, pit_boss, django_capture_on_commit_callbacks
) -> None:  # type: ignore[no-untyped-def]
    with django_capture_on_commit_callbacks(execute=True):
        shift_close(actor=pit_boss, shift=shift)
    report = ShiftReport.objects.get(shift=shift, kind=MASTER_GAME)
    assert report.status == "ready" and report.data["tables"] == [] and report.data["floor"]["table_shifts"] == 0
    assert report.pdf[:5] == b"%PDF-"


def test_the_beat_builds_a_report_whose_count_finished_without_its_task(people, shift, pgp, play_to_hands) -> None:  # type: ignore[no-untyped-def]
    play_a_shift(people, shift, pgp, play_to_hands)  # on commit, which a test never reaches: nothing built
    assert list(shifts_needing_reports()) == [shift]
    result = shift_boundaries()
    assert sorted(result["built"][str(shift.pk)]) == [
        "audit",
        "commission",
        "dealers",
        "master_game",
        "ratings",
        "shift",
    ]
    assert ShiftReport.objects.filter(shift=shift, status="ready").count() == 6
    assert list(shifts_needing_reports()) == []


@pytest.mark.parametrize(
    ("step", "awaited"),
    [
        ("nothing recorded", []),
        ("a round only", ["PGP-1"]),
        ("an opener only", ["PGP-1"]),
        ("a slip only", ["PGP-1"]),
        ("a buy-in, counted once", ["PGP-1"]),
        ("a buy-in, final", []),
        ("an extra box, final", []),
    ],
)
def test_the_two_forms_of_the_wait_agree(step, awaited, people, shift, pgp, play_to_hands, pit_boss) -> None:  # type: ignore[no-untyped-def]
    from settlement.services import settle_round
    from tables.slips import slip_request, slip_void
    from tests.settlement.conftest import BANK, WINS

    if step == "a round only":
        won = play_to_hands(pgp, wagers={1: 2_000}, hands={"banker": BANK, "seats": {"1": WINS}})
        settle_round(round=won, actor=people["dealer"], idempotency_key="r1")
    elif step == "an opener only":
        _count(people, pgp, "opener", OPENER)
    elif step == "a slip only":
        asked = slip_request(actor=people["dealer"], table=pgp, kind="fill", chips={10000: 1})
        slip_void(actor=people["floor"], slip=asked, reason="Asked by mistake")
    elif step.startswith("a buy-in"):
        buy_in_record(actor=people["dealer"], table=pgp, seat=1, medium="cash", amount_cents=10_000)
    shift_close(actor=pit_boss, shift=shift)
    if step.startswith("a buy-in") or step.startswith("an extra"):
        _count_box(people, pgp, shift, 10_000, by="kim")
        if step.endswith("final"):
            _count_box(people, pgp, shift, 10_000, by="lee")
    for kind in ("shift", "commission", "audit", "ratings", "dealers"):
        shift_report_build(shift=shift, kind=kind)
    assert shift_boxes_awaited(shift=shift) == awaited
    assert shift_awaits_count(shift=shift) == bool(awaited)
    assert (shift in shifts_needing_reports()) == (not awaited)


# --- a supervisor builds it with a box missing ---------------------------------------------------------------


def test_a_supervisor_builds_it_now_with_a_box_missing_shown_as_a_drop_variance(
    people, shift, pgp, pb2, play_to_hands, floor_supervisor, auditor, dealer
) -> None:  # type: ignore[no-untyped-def]
    _quiet_table(people, pb2, cash_cents=30_000)
    play_a_shift(people, shift, pgp, play_to_hands)
    shift_reports_build(shift.pk)  # the close's task (on commit, which a test never reaches): three of four built
    # The reports page says it waits, with "Build now" for a supervisor only.
    page = _signed_in(floor_supervisor).get("/reports/").content.decode()
    assert "waiting for the count" in page and f'action="/reports/shifts/{shift.pk}/master-game/"' in page
    auditor_page = _signed_in(auditor).get("/reports/").content.decode()
    assert "waiting for the count" in auditor_page and "/master-game/" not in auditor_page
    for user in (auditor, dealer):
        assert _signed_in(user).post(f"/reports/shifts/{shift.pk}/master-game/").status_code == 403
    with pytest.raises(NotAllowed):
        shift_report_build(shift=shift, kind=MASTER_GAME, force=True, actor=dealer)
    assert not ShiftReport.objects.filter(shift=shift, kind=MASTER_GAME).exists()

    client = _signed_in(floor_supervisor)
    response = client.post(f"/reports/shifts/{shift.pk}/master-game/")
    assert response.status_code == 302 and response["Location"] == "/reports/"
    assert "The Master Game Report of the Day shift is built." in client.get("/reports/").content.decode()

    report = ShiftReport.objects.get(shift=shift, kind=MASTER_GAME)
    data = report.data
    assert data["boxes_missing"] == ["PGP-2"]
    missing = next(row for row in data["tables"] if row["table"] == "PGP-2")
    assert (missing["box"], missing["drop_status"], missing["win_cents"], missing["not_in"]) == (
        "missing",
        "not counted",
        None,
        ["drop"],
    )
    # The box should hold the 300.00 of the buy-in: all of it is the drop variance.
    assert data["drop_variance"] == [
        {
            "pit": "Pit 1",
            "table": "PGP-2",
            "box": "missing",
            "drop_status": "not counted",
            "buy_ins_cents": 30_000,
            "drop_cents": None,
            "drop_variance_cents": -30_000,
        }
    ]
    assert data["floor"]["incomplete"] == 1 and data["floor"]["win_cents"] == 3_100
    assert ["", "Pit 1", "PGP-2", "missing", "not counted", "300.00", "", "-300.00"] in _csv_rows(report.csv)
    assert "these drop boxes are not final" in report.html and "-300.00" in report.html
    event = AuditEvent.objects.filter(event_type="shift_report.built", subject_id=str(report.pk)).get()
    assert event.actor == floor_supervisor and event.after["boxes_missing"] == ["PGP-2"]

    # Built: the box counted later changes nothing (the report stands as built), and a second tap neither.
    _count_box(people, pb2, shift, 30_000, by="kim")
    _count_box(people, pb2, shift, 30_000, by="lee")
    assert _build(shift).content_hash == report.content_hash
    assert client.post(f"/reports/shifts/{shift.pk}/master-game/").status_code == 302
    assert ShiftReport.objects.get(shift=shift, kind=MASTER_GAME).content_hash == report.content_hash


def test_build_now_on_an_open_shift_is_refused_with_the_reason(shift, floor_supervisor) -> None:  # type: ignore[no-untyped-def]
    client = _signed_in(floor_supervisor)
    client.post(f"/reports/shifts/{shift.pk}/master-game/")
    page = client.get("/reports/").content.decode()
    assert "The Day shift is still open: its reports are built once it is closed." in page
    assert not ShiftReport.objects.exists()


# --- month and year to date ----------------------------------------------------------------------------------


def _next_day(pit_boss: Any, shift: Shift, date: dt.date) -> Shift:
    gaming_day_close(actor=pit_boss, gaming_day=shift.gaming_day)
    gaming_day_open(actor=pit_boss, business_date=date)
    return shift_open(actor=pit_boss, name="Day")


def _play_again(people, shift, table, play_to_hands, *, key: str, short_cents: int = 0) -> None:  # type: ignore[no-untyped-def]
    """``play_a_shift`` in a later shift: the same money, the round settled under a key of its own."""
    from settlement.services import settle_round
    from tables.slips import slip_request, slip_void
    from tests.settlement.conftest import BANK, LOSES, WINS
    from tests.settlement.test_table_money import CREDIT, FILL, _slip

    _count(people, table, "opener", OPENER)
    buy_in_record(actor=people["dealer"], table=table, seat=1, medium="cash", amount_cents=50_000)
    marker_buy_in(table=table, seat=2, amount_cents=20_000, asked_by=people["dealer"], issued_by=people["floor"])
    won = play_to_hands(table, wagers={1: 2_000, 2: 5_000}, hands={"banker": BANK, "seats": {"1": WINS, "2": LOSES}})
    settle_round(round=won, actor=people["dealer"], idempotency_key=key)
    _slip(people, table, "fill", FILL)
    _slip(people, table, "credit", CREDIT)
    asked = slip_request(actor=people["dealer"], table=table, kind="fill", chips=FILL)
    slip_void(actor=people["floor"], slip=asked, reason="Asked twice")
    _count(people, table, "closer", chips_for(283_100 - short_cents))
    shift_close(actor=people["floor"], shift=shift)
    for counter in ("kim", "lee"):
        drop_count_record(actor=people[counter], table=table, shift=shift, **BOX)


def test_the_gaming_day_month_and_year_to_date_sum_the_gaming_days_before(
    people, shift, pgp, play_to_hands, pit_boss
) -> None:  # type: ignore[no-untyped-def]
    play_a_shift(people, shift, pgp, play_to_hands)  # 1 March: win 31.00 on a drop of 700.00
    first = _build(shift)
    second = _next_day(pit_boss, shift, dt.date(2025, 3, 2))
    _play_again(people, second, pgp, play_to_hands, key="r2", short_cents=500)  # 2 March: win 26.00 on 700.00
    third = _next_day(pit_boss, second, dt.date(2025, 4, 1))
    _play_again(people, third, pgp, play_to_hands, key="r3")  # 1 April: win 31.00 on 700.00

    def periods(shift: Shift) -> list[tuple[Any, ...]]:
        data = _build(shift).data
        return [
            (p["period"], p["from"], p["shifts"], p["drop_cents"], p["win_cents"], p["hold_bp"])
            for p in data["periods"]
        ]

    assert periods(second) == [
        ("gaming_day", "2025-03-02", 1, 70_000, 2_600, 371),
        ("month_to_date", "2025-03-01", 2, 140_000, 5_700, 407),
        ("year_to_date", "2025-01-01", 2, 140_000, 5_700, 407),
    ]
    assert periods(third) == [
        ("gaming_day", "2025-04-01", 1, 70_000, 3_100, 443),
        ("month_to_date", "2025-04-01", 1, 70_000, 3_100, 443),
        ("year_to_date", "2025-01-01", 3, 210_000, 8_800, 419),
    ]
    # The later days do not change the first day's report: built again, the same figures.
    ShiftReport.objects.filter(pk=first.pk).delete()
    assert _build(shift).content_hash == first.content_hash
    # Slip numbers run on across the shifts: the second shift's fills are 3 and 4 (4 voided), its credit 2.
    numbers = ShiftReport.objects.get(shift=second, kind=MASTER_GAME).data["slip_numbers"]
    assert [(n["kind"], n["first"], n["last"], n["used"], n["voided"], n["missing"]) for n in numbers] == [
        ("fill", 3, 4, [3], [4], []),
        ("credit", 2, 2, [2], [], []),
    ]


def test_an_earlier_shift_not_yet_reported_is_counted_apart_not_guessed(
    people, shift, pgp, play_to_hands, pit_boss
) -> None:  # type: ignore[no-untyped-def]
    play_a_shift(people, shift, pgp, play_to_hands)  # 1 March: counted, but its report not built yet
    second = _next_day(pit_boss, shift, dt.date(2025, 3, 2))
    _play_again(people, second, pgp, play_to_hands, key="r2", short_cents=500)
    ShiftReport.objects.filter(shift=shift).delete()  # as if 1 March's count had been entered after 2 March's
    data = _build(second).data
    assert [(p["period"], p["shifts"], p["unreported"], p["win_cents"]) for p in data["periods"]] == [
        ("gaming_day", 1, 0, 2_600),
        ("month_to_date", 2, 1, 2_600),
        ("year_to_date", 2, 1, 2_600),
    ]
    assert "(1 shift not reported yet)" in _build(second).html


def test_a_number_no_slip_holds_is_reported_missing(people, shift, pgp, play_to_hands) -> None:  # type: ignore[no-untyped-def]
    from django.utils import timezone

    from tables.models import Slip

    play_a_shift(people, shift, pgp, play_to_hands)
    # A slip written past the sequence (which never happens through ``slip_request``): number 3 is given to none.
    Slip.objects.create(
        kind="fill",
        number=4,
        table=pgp,
        shift=shift,
        chips={"10000": 1},
        total_cents=10_000,
        status="voided",
        requested_by=people["dealer"],
        requested_at=timezone.now(),
        voided_by=people["floor"],
        void_reason="Torn",
    )
    numbers = _build(shift).data["slip_numbers"]
    assert numbers[0] == {"kind": "fill", "first": 1, "last": 4, "used": [1], "voided": [2, 4], "missing": [3]}


def test_the_api_builds_it_now_for_a_supervisor_only(
    people, shift, pgp, pb2, play_to_hands, floor_supervisor, dealer
) -> None:  # type: ignore[no-untyped-def]
    from rest_framework.test import APIClient

    _quiet_table(people, pb2, cash_cents=30_000)
    play_a_shift(people, shift, pgp, play_to_hands)
    url = f"/api/shifts/{shift.pk}/reports/master-game/"
    client = APIClient()
    client.force_authenticate(dealer)
    refused = client.post(url)
    assert refused.status_code == 403 and "Floor supervisor or Pit boss" in refused.json()["message"]
    assert not ShiftReport.objects.filter(shift=shift, kind=MASTER_GAME).exists()
    client.force_authenticate(floor_supervisor)
    built = client.post(url)
    assert built.status_code == 200, built.content
    assert (built.json()["kind"], built.json()["status"]) == ("master_game", "ready")
    again = client.post(url)  # built already: answered as it is, the same hash
    assert again.json()["content_hash"] == built.json()["content_hash"]
    assert client.post("/api/shifts/999999/reports/master-game/").status_code == 404
