"""The table's money on the pit-boss dashboard: the drop recorded, the house's win and hold, fills and
credits received and pending, and the tray discrepancies, for the open shift, in the dashboard's fixed number of
queries.

A small scripted shift (Dana deals, Fred confirms and signs, Cora issues at the cage), every figure worked out by
hand from DESIGN.md, "The table's money": the drop is what the buy-ins put in the box (it is counted only after the
shift); the win is what the settlements gave the house (its bank result, the commission and the rake); hold is the
one over the other.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from casino.models import Shift
from casino.roles import Role
from pit import shift_figures
from pit.dashboard_rows import PitDashboard
from pit.selectors import floor_lines_forget, pit_dashboard
from settlement.services import settle_round
from tables.drop import buy_in_record
from tables.models import BuyIn, Slip, Table, TrayCount
from tables.slips import slip_issue, slip_request, slip_sign
from tables.tray import tray_count_confirm, tray_count_record
from tests.markers import marker_buy_in
from tests.pit.test_pit_dashboard import fill_floor
from tests.settlement.conftest import BANK, LOSES, WINS
from tests.settlement.test_table_money import chips_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("house_chips")]

FILL = {10000: 10}  # 1,000.00
CREDIT = {2500: 20}  # 500.00


@pytest.fixture
def cage(make_user: Callable[..., User]) -> User:
    return make_user("cora_cage", Role.CAGE_CASHIER)


def count(table: Table, kind: str, cents: int, *, dealer: User, floor: User | None) -> TrayCount:
    """The dealer counts the tray (``cents`` in chips); ``floor`` confirms it (None: it waits)."""
    counted = tray_count_record(actor=dealer, table=table, kind=kind, counts=chips_for(cents))
    return counted if floor is None else tray_count_confirm(actor=floor, count=counted)


def received(table: Table, kind: str, chips: dict[int, int], *, dealer: User, floor: User, cage: User) -> Slip:
    slip = slip_issue(actor=cage, slip=slip_request(actor=dealer, table=table, kind=kind, chips=chips))
    return slip_sign(actor=floor, slip=slip_sign(actor=dealer, slip=slip))


@pytest.fixture
def shift_played(
    shift: Shift,
    pgp_table: Table,
    make_table: Callable[..., Table],
    play_to_hands: Callable[..., Any],
    dealer: User,
    floor_supervisor: User,
    cage: User,
) -> dict[str, Any]:
    """PGP-1: left at 3,000.00, opened at 3,030.00 (30.00 over: a written report); 700.00 bought in; a round the
    house wins 31.00; a fill and a credit received, a fill requested and a credit issued (both pending).
    PGP-2: left at 3,000.00, opened at 2,900.00 (100.00 short: escalated); nothing bought in, nothing played."""
    people = {"dealer": dealer, "floor": floor_supervisor}
    pgp2 = make_table(name="PGP-2", game="paigow_poker", seat_count=6)
    for table, opener in ((pgp_table, 303_000), (pgp2, 290_000)):
        count(table, "closer", 300_000, **people)  # the last shift's closer, what the opener is expected to find
        count(table, "opener", opener, **people)
    buy_in_record(actor=dealer, table=pgp_table, seat=1, medium="cash", amount_cents=50_000)
    marker_buy_in(table=pgp_table, seat=2, amount_cents=20_000, asked_by=dealer, issued_by=floor_supervisor)
    # Seat 1 wins 20.00 (house −20.00, commission +1.00); seat 2 loses 50.00 (house +50.00): the house won 31.00.
    won = play_to_hands(
        pgp_table, wagers={1: 2_000, 2: 5_000}, hands={"banker": BANK, "seats": {"1": WINS, "2": LOSES}}
    )
    settle_round(round=won, actor=dealer, idempotency_key="money-r1")
    received(pgp_table, "fill", FILL, cage=cage, **people)
    received(pgp_table, "credit", CREDIT, cage=cage, **people)
    asked = slip_request(actor=dealer, table=pgp_table, kind="fill", chips={10000: 5})
    issued = slip_issue(actor=cage, slip=slip_request(actor=dealer, table=pgp_table, kind="credit", chips={2500: 4}))
    return {"pgp": pgp_table, "pgp2": pgp2, "asked": asked, "issued": issued}


def line_of(board: PitDashboard, name: str) -> Any:
    return next(line for line in board.lines if line.table.name == name)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- the figures ----------------------------------------------------------------------------------


def test_each_table_shows_its_recorded_drop_win_hold_fills_credits_and_slips_pending(
    shift_played: dict[str, Any],
) -> None:
    board = pit_dashboard()
    pgp = line_of(board, "PGP-1")
    assert (pgp.drop_cents, pgp.win_cents, pgp.players_cents) == (70_000, 3_100, -3_100)
    assert pgp.hold_bp == 443  # 31.00 / 700.00 = 4.428...% → 4.43%
    assert (pgp.fills_cents, pgp.credits_cents, pgp.slips_pending) == (100_000, 50_000, 2)
    pgp2 = line_of(board, "PGP-2")
    assert (pgp2.drop_cents, pgp2.win_cents, pgp2.hold_bp) == (0, 0, None)
    assert (pgp2.fills_cents, pgp2.credits_cents, pgp2.slips_pending) == (0, 0, 0)
    totals = board.totals
    assert (totals.drop_cents, totals.win_cents, totals.hold_bp) == (70_000, 3_100, 443)
    assert (totals.fills_cents, totals.credits_cents, totals.slips_pending) == (100_000, 50_000, 2)


def test_the_slips_pending_are_listed_oldest_first_with_their_table_number_amount_and_status(
    shift_played: dict[str, Any],
) -> None:
    slips = pit_dashboard().slips
    assert [(s.table_name, s.kind, s.number, s.total_cents, s.status) for s in slips] == [
        ("PGP-1", "fill", 2, 50_000, "requested"),
        ("PGP-1", "credit", 2, 10_000, "issued"),
    ]
    assert slips[0].requested_at == shift_played["asked"].requested_at


def test_an_opener_off_the_last_closer_is_a_discrepancy_with_its_amount_and_level(
    shift_played: dict[str, Any],
) -> None:
    board = pit_dashboard()
    found = [(d.table_name, d.difference_cents, d.expected_cents, d.level, d.confirmed) for d in board.discrepancies]
    assert found == [
        ("PGP-2", -10_000, 300_000, "escalate", True),  # 100.00 short: escalated, shown first
        ("PGP-1", 3_000, 300_000, "report", True),  # 30.00 over: a written report
    ]
    assert board.alerts == 2


def test_an_opener_as_expected_is_no_discrepancy_and_one_waiting_for_its_confirmation_is(
    shift: Shift, pgp_table: Table, make_table: Callable[..., Table], dealer: User, floor_supervisor: User
) -> None:
    count(pgp_table, "closer", 300_000, dealer=dealer, floor=floor_supervisor)
    count(pgp_table, "opener", 300_000, dealer=dealer, floor=floor_supervisor)
    first = make_table(name="PGP-2", game="paigow_poker", seat_count=6)
    count(first, "opener", 250_000, dealer=dealer, floor=floor_supervisor)  # a first opening: nothing expected
    assert pit_dashboard().discrepancies == []

    count(pgp_table, "closer", 300_000, dealer=dealer, floor=floor_supervisor)
    count(pgp_table, "opener", 302_500, dealer=dealer, floor=None)  # 25.00 over, not confirmed yet
    (found,) = pit_dashboard().discrepancies
    assert (found.table_name, found.difference_cents, found.level, found.confirmed) == ("PGP-1", 2_500, "none", False)


def test_a_buy_in_after_a_refresh_counts_at_the_next_one(
    shift_played: dict[str, Any], dealer: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shift_figures, "SEAL_MARGIN", -dt.timedelta(hours=1))  # everything sealed at once
    assert line_of(pit_dashboard(), "PGP-1").drop_cents == 70_000
    buy_in_record(actor=dealer, table=shift_played["pgp"], seat=3, medium="cash", amount_cents=30_000)
    pgp = line_of(pit_dashboard(), "PGP-1")
    assert (pgp.drop_cents, pgp.win_cents, pgp.hold_bp) == (100_000, 3_100, 310)


def test_no_open_shift_shows_no_money(make_table: Callable[..., Table]) -> None:
    make_table(name="PGP-9", game="paigow_poker", seat_count=6)
    board = pit_dashboard()
    (line,) = board.lines
    assert (line.drop_cents, line.hold_bp, board.slips, board.discrepancies) == (0, None, [], [])


# --- the page -------------------------------------------------------------------------------------


def test_the_page_shows_the_money_the_pending_slips_and_the_discrepancies(
    shift_played: dict[str, Any], pit_boss: User
) -> None:
    html = signed_in(pit_boss).get("/pit/").content.decode()
    pgp, pgp2 = shift_played["pgp"].pk, shift_played["pgp2"].pk
    row = html[html.index(f'id="table-{pgp}"') :]
    row = row[: row.index("</tr>")]
    for shown in ("700.00", "31.00", "4.43%", "1\u2009000.00", "500.00", 'class="slips-pending"'):
        assert shown in row, shown
    row2 = html[html.index(f'id="table-{pgp2}"') :]
    row2 = row2[: row2.index("</tr>")]
    assert '<td class="num t-hold"><span class="muted">—</span></td>' in row2  # no drop, no hold
    assert "slips-pending" not in row2

    section = html[html.index('id="pit-slips"') :]
    assert "Fills and credits pending" in section and 'href="/cage/"' in section
    for shown in ("Fill", "#2", "500.00", "requested", "Credit", "100.00", "issued by the cage"):
        assert shown in section, shown

    assert "Tray discrepancy" in html
    assert "Opener 100.00 short of the last closer (expected 3\u2009000.00, counted 2\u2009900.00)" in html
    assert "Opener 30.00 over the last closer (expected 3\u2009000.00, counted 3\u2009030.00)" in html
    assert "Escalate" in html and "Written report" in html


def test_without_slips_pending_the_section_is_not_shown(shift: Shift, pgp_table: Table, pit_boss: User) -> None:
    html = signed_in(pit_boss).get("/pit/live/").content.decode()
    assert 'id="pit-slips"' not in html and "Tray discrepancy" not in html
    assert '<td class="num t-hold"><span class="muted">—</span></td>' in html


# --- a fixed number of queries --------------------------------------------------------------------


def money_for_every_table(*, shift: Shift, dealer: User, pit_boss: User) -> None:
    """Each table without money yet: two buy-ins, a received fill, a pending credit and a confirmed opener 30.00
    over its closer. Bulk-created: only the dashboard's reads are under test."""
    tables = list(Table.objects.filter(buy_ins__isnull=True).order_by("pk"))
    now = timezone.now()
    BuyIn.objects.bulk_create(
        BuyIn(
            table=t, shift=shift, seat_number=1, medium=medium, amount_cents=10_000, recorded_by=dealer, recorded_at=now
        )
        for t in tables
        for medium in ("cash", "marker")
    )
    last = Slip.objects.order_by("-number").values_list("number", flat=True).first() or 0
    cage, _ = User.objects.get_or_create(username="cora_cage_bulk")
    Slip.objects.bulk_create(
        Slip(
            kind=kind,
            number=last + i * 2 + offset,
            table=t,
            shift=shift,
            chips={"10000": 1},
            total_cents=10_000,
            status=status,
            requested_by=dealer,
            requested_at=now,
            # As the services leave a received slip: issued by the cage, signed by two people.
            **(
                {"issued_by": cage, "dealer_signed_by": dealer, "supervisor_signed_by": pit_boss, "received_at": now}
                if status == "received"
                else {}
            ),
        )
        for i, t in enumerate(tables, start=1)
        for offset, (kind, status) in enumerate((("fill", "received"), ("credit", "requested")))
    )
    TrayCount.objects.bulk_create(
        TrayCount(
            table=t,
            shift=shift,
            kind="opener",
            counts={},
            total_cents=303_000,
            expected_cents=300_000,
            counted_by=dealer,
            counted_at=now,
            status="confirmed",
            confirmed_by=pit_boss,
            confirmed_at=now,
        )
        for t in tables
    )


@pytest.mark.parametrize("sealed", [False, True], ids=["read-whole", "sealed-then-newer"])
def test_the_money_keeps_the_dashboards_fixed_number_of_queries_as_tables_grow(
    pit: Any, shift: Shift, dealer: User, pit_boss: User, monkeypatch: pytest.MonkeyPatch, sealed: bool
) -> None:
    if sealed:
        monkeypatch.setattr(shift_figures, "SEAL_MARGIN", -dt.timedelta(hours=1))
    fill_floor(tables=4, pit=pit, shift=shift, dealer=dealer)
    money_for_every_table(shift=shift, dealer=dealer, pit_boss=pit_boss)

    def queries(url: str) -> tuple[int, str]:
        floor_lines_forget()  # the whole floor read (a process keeps the lines it read: the live tests)
        client = signed_in(pit_boss)  # a fresh request: its session, its user and its roles are read again
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code == 200
        return len(captured), response.content.decode()

    few_page, _ = queries("/pit/")
    few_live, _ = queries("/pit/live/")
    fill_floor(tables=196, pit=pit, shift=shift, dealer=dealer, start=5)
    money_for_every_table(shift=shift, dealer=dealer, pit_boss=pit_boss)

    page, html = queries("/pit/")
    live, _ = queries("/pit/live/")
    # the tenth: the table money; the eleventh: the rated seats; the twelfth: the poker room's
    # running tournaments (none here: the tournaments' figures come in two more, however many run)
    assert page == few_page <= 12
    assert live == few_live <= 12
    board = pit_dashboard()
    assert (board.totals.drop_cents, board.totals.fills_cents, board.totals.slips_pending) == (
        200 * 20_000,
        200 * 10_000,
        200,
    )
    assert len(board.slips) == 200 and len(board.discrepancies) == 200
    assert html.count('class="slips-pending"') == 200
    # Listed: the 25 oldest slips and the 25 first discrepancies, with how many more (every one in the totals).
    assert html.count('class="slip-line') == 25 and "175 newer slips: the cage's queue lists every one." in html
    assert html.count('class="alert alert-tray') == 25 and "175 more tray discrepancies" in html
