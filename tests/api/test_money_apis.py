"""The table's money over the REST API: the chips, the tray counts, fills and credits, buy-ins and the
drop box; who reads what (``tables.money_apis``' docstring), the services' refusals as ``{"message", "extra"}``,
and malformed bodies refused with a 400 that writes nothing, never a 500.

The personas: Dana deals PGP-1; Otto deals PGP-2; Fred is a Floor supervisor, Paula the Pit boss, Alex an
Auditor; Cora is a Cage cashier; Carl and Cleo count the drop boxes; Nick holds no role.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from casino.models import AuditEvent
from casino.roles import Role
from casino.services import shift_close, shift_open
from ledger.models import LedgerEntry
from tables.drop import buy_in_record, drop_count_record
from tables.models import BuyIn, DropCount, Slip, SlipSequence, TrayCount
from tables.services import table_assign_dealer
from tables.slips import slip_issue, slip_request, slip_sign, slip_void
from tables.tray import tray_count_confirm, tray_count_record
from tests.markers import marker_buy_in

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("house_chips")]

TRAY = {"2500": 20, "10000": 3}  # 800.00
FILL = {"2500": 40, "10000": 10}  # 2,000.00
CASH = {"10000": 5, "2000": 10}  # 700.00


def _client(user: User | None) -> APIClient:
    client = APIClient(raise_request_exception=False)
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def pgp(shift: Any, make_table: Callable[..., Any]) -> Any:
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


@pytest.fixture
def otto(make_user: Callable[..., User], make_table: Callable[..., Any], pit_boss: User, shift: Any) -> User:
    otto = make_user("otto_other_dealer", Role.DEALER)
    table_assign_dealer(actor=pit_boss, table=make_table(name="PGP-2", game="paigow_poker", seat_count=6), dealer=otto)
    return otto


@pytest.fixture
def cora(make_user: Callable[..., User]) -> User:
    return make_user("cora_cage", Role.CAGE_CASHIER)


@pytest.fixture
def carl(make_user: Callable[..., User]) -> User:
    return make_user("carl_count", Role.COUNT_TEAM)


@pytest.fixture
def cleo(make_user: Callable[..., User]) -> User:
    return make_user("cleo_count", Role.COUNT_TEAM)


@pytest.fixture
def nick(make_user: Callable[..., User]) -> User:
    return make_user("nick_nobody")


def written() -> tuple[int, ...]:
    return (
        TrayCount.objects.count(),
        Slip.objects.count(),
        sum(SlipSequence.objects.values_list("last_number", flat=True)),
        BuyIn.objects.count(),
        DropCount.objects.count(),
        LedgerEntry.objects.count(),
        AuditEvent.objects.count(),
    )


def assert_refused(response: Any, status: int, message: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert set(body) == {"message", "extra"} and body["message"]
    if message is not None:
        assert message in body["message"], body["message"]
    return dict(body)


# --- the chips -------------------------------------------------------------------------------------


def test_anyone_signed_in_reads_the_house_chips_lowest_first(nick: User) -> None:
    chips = _client(nick).get("/api/v1/chips/").json()["results"]
    assert [chip["value_cents"] for chip in chips] == [100, 500, 2500, 10000, 50000, 100000, 500000]
    assert set(chips[0]) == {"value_cents", "colour"}
    assert_refused(_client(None).get("/api/v1/chips/"), 401)


# --- the tray --------------------------------------------------------------------------------------


def test_the_dealer_counts_the_opener_and_a_supervisor_confirms_it(
    pgp: Any, dealer: User, floor_supervisor: User
) -> None:
    response = _client(dealer).post(
        f"/api/v1/tables/{pgp.pk}/tray-counts/", {"kind": "opener", "counts": TRAY}, format="json"
    )
    assert response.status_code == 201, response.content
    count = response.json()
    assert {key: count[key] for key in ("table", "table_name", "kind", "status", "counts", "total_cents")} == {
        "table": pgp.pk,
        "table_name": "PGP-1",
        "kind": "opener",
        "status": "counted",
        "counts": {"2500": 20, "10000": 3},
        "total_cents": 80_000,
    }
    assert (count["counted_by"], count["confirmed_by"], count["expected_cents"]) == ("dana_dealer", None, None)
    confirmed = _client(floor_supervisor).post(f"/api/v1/tray-counts/{count['id']}/confirm/")
    assert confirmed.status_code == 200, confirmed.content
    assert (confirmed.json()["status"], confirmed.json()["confirmed_by"]) == ("confirmed", "fred_floor")
    assert_refused(
        _client(floor_supervisor).post(f"/api/v1/tray-counts/{count['id']}/confirm/"), 409, "already confirmed"
    )


def test_the_list_is_newest_first_with_the_openers_discrepancy(
    pgp: Any, dealer: User, floor_supervisor: User, pit_boss: User, auditor: User, otto: User
) -> None:
    closer = tray_count_record(actor=dealer, table=pgp, kind="closer", counts={2500: 20})  # 500.00
    tray_count_confirm(actor=floor_supervisor, count=closer)
    tray_count_record(actor=dealer, table=pgp, kind="opener", counts={2500: 16})  # 400.00: 100.00 short
    for reader in (dealer, pit_boss, auditor):
        counts = _client(reader).get(f"/api/v1/tables/{pgp.pk}/tray-counts/").json()["results"]
        assert [(c["kind"], c["expected_cents"], c["difference_cents"], c["variance_level"]) for c in counts] == [
            ("opener", 50_000, -10_000, "escalate"),
            ("closer", None, 0, "none"),
        ]
    assert_refused(_client(otto).get(f"/api/v1/tables/{pgp.pk}/tray-counts/"), 403, "Table PGP-1 is not your table")
    assert_refused(_client(dealer).get("/api/v1/tables/999999/tray-counts/"), 404)


def test_tray_refusals_come_from_the_service_and_write_nothing(
    pgp: Any, dealer: User, auditor: User, otto: User
) -> None:
    before = written()
    body = {"kind": "opener", "counts": TRAY}
    assert_refused(_client(auditor).post(f"/api/v1/tables/{pgp.pk}/tray-counts/", body, format="json"), 403)
    assert_refused(
        _client(otto).post(f"/api/v1/tables/{pgp.pk}/tray-counts/", body, format="json"), 403, "not your table"
    )
    assert written() == before
    first = _client(dealer).post(f"/api/v1/tables/{pgp.pk}/tray-counts/", body, format="json").json()
    after_first = written()
    assert_refused(
        _client(dealer).post(f"/api/v1/tables/{pgp.pk}/tray-counts/", body, format="json"),
        409,
        "waits for a supervisor",
    )
    assert_refused(_client(dealer).post(f"/api/v1/tray-counts/{first['id']}/confirm/"), 403, "Only a Floor supervisor")
    assert_refused(_client(dealer).post("/api/v1/tray-counts/999999/confirm/"), 404)
    assert written() == after_first


def test_no_tray_is_counted_with_no_shift_open(pgp: Any, dealer: User, pit_boss: User, shift: Any) -> None:
    shift_close(actor=pit_boss, shift=shift)
    response = _client(dealer).post(
        f"/api/v1/tables/{pgp.pk}/tray-counts/", {"kind": "opener", "counts": TRAY}, format="json"
    )
    assert_refused(response, 409, "No shift is open")
    assert not TrayCount.objects.exists()


# --- fills and credits -----------------------------------------------------------------------------


def test_a_fill_from_the_table_to_the_cage_and_back_with_two_signatures(
    pgp: Any, dealer: User, cora: User, floor_supervisor: User, otto: User, carl: User
) -> None:
    requested = _client(dealer).post(f"/api/v1/tables/{pgp.pk}/slips/", {"kind": "fill", "chips": FILL}, format="json")
    assert requested.status_code == 201, requested.content
    slip = requested.json()
    assert (slip["kind"], slip["number"], slip["status"], slip["total_cents"]) == ("fill", 1, "requested", 200_000)
    assert (slip["chips"], slip["requested_by"], slip["table_name"]) == (
        {"2500": 40, "10000": 10},
        "dana_dealer",
        "PGP-1",
    )

    queue = _client(cora).get("/api/v1/slips/", {"status": "requested"}).json()["results"]
    assert [(s["id"], s["table_name"]) for s in queue] == [(slip["id"], "PGP-1")]
    assert (
        _client(otto).get("/api/v1/slips/").json()["results"] == []
    )  # another table's dealer sees only their own table's
    assert _client(carl).get("/api/v1/slips/").json()["results"] == []

    issued = _client(cora).post(f"/api/v1/slips/{slip['id']}/issue/")
    assert (issued.status_code, issued.json()["status"], issued.json()["issued_by"]) == (200, "issued", "cora_cage")
    assert _client(cora).get("/api/v1/slips/", {"status": "requested"}).json()["results"] == []
    assert_refused(_client(cora).post(f"/api/v1/slips/{slip['id']}/sign/"), 403, "A Cage cashier does not sign")

    signed = _client(dealer).post(f"/api/v1/slips/{slip['id']}/sign/").json()
    assert (signed["status"], signed["dealer_signed_by"]) == ("issued", "dana_dealer")
    received = _client(floor_supervisor).post(f"/api/v1/slips/{slip['id']}/sign/").json()
    assert (received["status"], received["supervisor_signed_by"]) == ("received", "fred_floor")
    assert received["received_at"] is not None

    assert _client(dealer).get(f"/api/v1/slips/{slip['id']}/").json()["status"] == "received"
    assert _client(cora).get(f"/api/v1/tables/{pgp.pk}/slips/").json()["results"][0]["id"] == slip["id"]
    assert_refused(_client(otto).get(f"/api/v1/slips/{slip['id']}/"), 403, "Table PGP-1 is not your table")
    assert_refused(_client(otto).get(f"/api/v1/tables/{pgp.pk}/slips/"), 403)
    assert_refused(_client(carl).get(f"/api/v1/slips/{slip['id']}/"), 403)
    assert_refused(
        _client(floor_supervisor).post(f"/api/v1/slips/{slip['id']}/void/", {"reason": "Late"}), 409, "received"
    )


def test_the_slip_refusals_of_the_segregation_of_duties(
    pgp: Any, dealer: User, cora: User, floor_supervisor: User, make_user: Callable[..., User]
) -> None:
    both = make_user("sam_floor_and_cage", Role.FLOOR_SUPERVISOR, Role.CAGE_CASHIER)
    slip = slip_request(actor=both, table=pgp, kind="credit", chips={2500: 4})
    assert_refused(_client(both).post(f"/api/v1/slips/{slip.pk}/issue/"), 403, "another person issues it")
    assert_refused(_client(dealer).post(f"/api/v1/slips/{slip.pk}/issue/"), 403, "Only a Cage cashier")
    assert_refused(_client(dealer).post(f"/api/v1/slips/{slip.pk}/sign/"), 409, "not issued yet")
    slip_issue(actor=cora, slip=slip)
    assert_refused(_client(cora).post(f"/api/v1/slips/{slip.pk}/issue/"), 409, "already issued")
    slip_sign(actor=floor_supervisor, slip=slip)
    assert_refused(_client(floor_supervisor).post(f"/api/v1/slips/{slip.pk}/sign/"), 409, "You already signed")
    assert_refused(_client(dealer).post("/api/v1/slips/999999/sign/"), 404)
    assert Slip.objects.get(pk=slip.pk).status == "issued"


def test_a_supervisor_voids_a_slip_saying_why_and_the_numbers_are_accounted_for(
    pgp: Any, dealer: User, pit_boss: User, auditor: User, cora: User, otto: User, nick: User
) -> None:
    first = slip_request(actor=dealer, table=pgp, kind="fill", chips={2500: 4})
    slip_request(actor=dealer, table=pgp, kind="fill", chips={2500: 8})
    slip_request(actor=dealer, table=pgp, kind="credit", chips={2500: 8})
    assert_refused(
        _client(pit_boss).post(f"/api/v1/slips/{first.pk}/void/", {"reason": "  "}, format="json"), 400, "Say why"
    )
    assert_refused(_client(dealer).post(f"/api/v1/slips/{first.pk}/void/", {"reason": "Mine"}, format="json"), 403)
    voided = _client(pit_boss).post(f"/api/v1/slips/{first.pk}/void/", {"reason": "Asked twice"}, format="json")
    assert voided.status_code == 200, voided.content
    assert (voided.json()["status"], voided.json()["voided_by"], voided.json()["void_reason"]) == (
        "voided",
        "paula_pitboss",
        "Asked twice",
    )
    for reader in (pit_boss, auditor, cora):
        numbers = _client(reader).get("/api/v1/slips/numbers/", {"kind": "fill"}).json()
        assert numbers == {"kind": "fill", "used": [2], "voided": [1], "missing": []}
    assert _client(cora).get("/api/v1/slips/numbers/", {"kind": "credit"}).json()["used"] == [1]
    for outsider in (dealer, otto, nick):
        assert_refused(
            _client(outsider).get("/api/v1/slips/numbers/", {"kind": "fill"}), 403, "may read the slip numbers"
        )
    assert_refused(_client(pit_boss).get("/api/v1/slips/numbers/"), 400, "kind is fill or credit")
    assert_refused(_client(pit_boss).get("/api/v1/slips/numbers/", {"kind": "chips"}), 400, "not 'chips'")


def test_the_slip_lists_filter_by_status_and_kind_and_refuse_any_other(pgp: Any, dealer: User, pit_boss: User) -> None:
    fill = slip_request(actor=dealer, table=pgp, kind="fill", chips={2500: 4})
    credit = slip_request(actor=dealer, table=pgp, kind="credit", chips={2500: 4})
    slip_void(actor=pit_boss, slip=credit, reason="Wrong")
    api = _client(pit_boss)
    assert [s["id"] for s in api.get("/api/v1/slips/").json()["results"]] == [fill.pk, credit.pk]
    assert [s["id"] for s in api.get("/api/v1/slips/", {"kind": "credit"}).json()["results"]] == [credit.pk]
    assert [s["id"] for s in api.get(f"/api/v1/tables/{pgp.pk}/slips/", {"status": "requested"}).json()["results"]] == [
        fill.pk
    ]
    for query in ({"status": "open"}, {"status": ""}, {"kind": "fill\x00"}, {"kind": "FILL"}):
        body = assert_refused(api.get("/api/v1/slips/", query), 400)
        assert body["extra"] == {"field": next(iter(query))}


# --- buy-ins ---------------------------------------------------------------------------------------


def test_the_dealer_records_buy_ins_and_reads_the_shifts(
    pgp: Any, dealer: User, otto: User, auditor: User, floor_supervisor: User
) -> None:
    response = _client(dealer).post(
        f"/api/v1/tables/{pgp.pk}/buy-ins/", {"seat": 3, "medium": "cash", "amount_cents": 50_000}, format="json"
    )
    assert response.status_code == 201, response.content
    buy_in = response.json()
    assert {k: buy_in[k] for k in ("table", "seat", "medium", "amount_cents", "recorded_by", "corrects")} == {
        "table": pgp.pk,
        "seat": 3,
        "medium": "cash",
        "amount_cents": 50_000,
        "recorded_by": "dana_dealer",
        "corrects": None,
    }
    marker_buy_in(table=pgp, seat=1, amount_cents=100_000, asked_by=dealer, issued_by=floor_supervisor)
    for reader in (dealer, auditor):
        listed = _client(reader).get(f"/api/v1/tables/{pgp.pk}/buy-ins/").json()["results"]
        assert [(b["seat"], b["medium"], b["amount_cents"]) for b in listed] == [
            (3, "cash", 50_000),
            (1, "marker", 100_000),
        ]
    assert_refused(_client(otto).get(f"/api/v1/tables/{pgp.pk}/buy-ins/"), 403)
    refused = _client(otto).post(
        f"/api/v1/tables/{pgp.pk}/buy-ins/", {"seat": 3, "medium": "cash", "amount_cents": 500}, format="json"
    )
    assert_refused(refused, 403, "not your table")
    assert BuyIn.objects.count() == 2


def test_a_new_shifts_buy_ins_start_empty(pgp: Any, dealer: User, pit_boss: User, shift: Any) -> None:
    buy_in_record(actor=dealer, table=pgp, seat=1, medium="cash", amount_cents=10_000)
    shift_close(actor=pit_boss, shift=shift)
    assert _client(dealer).get(f"/api/v1/tables/{pgp.pk}/buy-ins/").json()["results"] == []
    shift_open(actor=pit_boss, name="Swing")
    assert _client(dealer).get(f"/api/v1/tables/{pgp.pk}/buy-ins/").json()["results"] == []


# --- the drop box ----------------------------------------------------------------------------------


def test_the_count_team_counts_blind_and_the_box_is_final_when_two_agree(
    pgp: Any, dealer: User, pit_boss: User, shift: Any, carl: User, cleo: User, cora: User, otto: User
) -> None:
    url = f"/api/v1/tables/{pgp.pk}/drop/{shift.pk}/"
    count = {"cash": CASH, "markers_cents": 10_000, "promo_cents": 2_500}
    assert_refused(_client(carl).get(url), 403, "still open")
    assert_refused(_client(carl).post(url, count, format="json"), 409, "still open")
    buy_in_record(actor=dealer, table=pgp, seat=1, medium="cash", amount_cents=70_000)
    shift_close(actor=pit_boss, shift=shift)

    empty = _client(carl).get(url).json()
    assert (empty["status"], empty["counts"], empty["drop_cents"], empty["shift_closed"]) == (
        "not counted",
        [],
        None,
        True,
    )
    first = _client(cleo).post(url, count, format="json")
    assert first.status_code == 201, first.content
    assert first.json()["status"] == "counted once" and first.json()["counts"][0]["cash_cents"] == 70_000

    blind = _client(carl).get(url).json()  # Carl has not counted: he sees that Cleo counted, not what she found
    assert (blind["status"], blind["figures_hidden"]) == ("counted once", True)
    assert blind["counts"][0] == {
        "id": blind["counts"][0]["id"],
        "counted_by": "cleo_count",
        "counted_at": blind["counts"][0]["counted_at"],
        "cash": None,
        "cash_cents": None,
        "markers_cents": None,
        "promo_cents": None,
    }
    for reader in (dealer, pit_boss):  # those who see the table are no counters: they see the figures
        assert _client(reader).get(url).json()["counts"][0]["markers_cents"] == 10_000
    assert_refused(_client(cleo).post(url, count, format="json"), 403, "a second, independent count")

    final = _client(carl).post(url, count, format="json").json()
    assert (final["status"], final["drop_cents"], final["figures_hidden"]) == ("final", 80_000, False)
    assert final["final"] == final["counts"][1]["id"]
    assert_refused(_client(pit_boss).post(url, count, format="json"), 403, "Only a Count team may count a drop box.")
    late = _client(dealer)  # a dealer of the table is not on the count team
    assert late.get(url).json()["status"] == "final"
    for outsider in (otto, cora):
        assert_refused(_client(outsider).get(url), 403, "drop box")
    assert DropCount.objects.count() == 2
    assert_refused(_client(carl).get(f"/api/v1/tables/{pgp.pk}/drop/999999/"), 404)
    assert_refused(_client(carl).get(f"/api/v1/tables/999999/drop/{shift.pk}/"), 404)


def test_a_third_counter_is_blind_to_two_counts_that_disagree(
    pgp: Any, pit_boss: User, shift: Any, carl: User, cleo: User, make_user: Callable[..., User]
) -> None:
    shift_close(actor=pit_boss, shift=shift)
    drop_count_record(actor=carl, table=pgp, shift=shift, cash={10000: 5}, markers_cents=0, promo_cents=0)
    drop_count_record(actor=cleo, table=pgp, shift=shift, cash={10000: 4}, markers_cents=0, promo_cents=0)
    dora = make_user("dora_count", Role.COUNT_TEAM)
    box = _client(dora).get(f"/api/v1/tables/{pgp.pk}/drop/{shift.pk}/").json()
    assert (box["status"], box["figures_hidden"]) == ("counts disagree", True)
    assert [c["cash"] for c in box["counts"]] == [None, None]
    assert [c["cash"] for c in _client(carl).get(f"/api/v1/tables/{pgp.pk}/drop/{shift.pk}/").json()["counts"]] == [
        {"10000": 5},
        {"10000": 4},
    ]


# --- malformed input: a 400 in the project's words, nothing written, never a 500 ----------------------

HUGE = 10**30

TRAY_BODIES = [
    {"kind": "opener", "counts": {"2500": "4"}},
    {"kind": "opener", "counts": {"2500": 4.0}},
    {"kind": "opener", "counts": {"2500": 2.5}},
    {"kind": "opener", "counts": {"2500": -1}},
    {"kind": "opener", "counts": {"2500": HUGE}},
    {"kind": "opener", "counts": {"2500": True}},
    {"kind": "opener", "counts": {"2500": None}},
    {"kind": "opener", "counts": {"2500": {"chips": 4}}},
    {"kind": "opener", "counts": {"700": 4}},
    {"kind": "opener", "counts": {"２５００": 4}},
    {"kind": "opener", "counts": {"-2500": 4}},
    {"kind": "opener", "counts": {}},
    {"kind": "opener", "counts": [["2500", 4]]},
    {"kind": "opener", "counts": "2500:4"},
    {"kind": "opener", "counts": None},
    {"kind": "opener"},
    {"counts": {"2500": 4}},
    {"kind": "middle", "counts": {"2500": 4}},
    {"kind": ["opener"], "counts": {"2500": 4}},
    {"kind": 1, "counts": {"2500": 4}},
]
SLIP_BODIES = [
    {"kind": "fill", "chips": {"2500": "40"}},
    {"kind": "fill", "chips": {"2500": 1.5}},
    {"kind": "fill", "chips": {"2500": -40}},
    {"kind": "fill", "chips": {"2500": HUGE}},
    {"kind": "fill", "chips": {"2500": 0}},
    {"kind": "fill", "chips": {"300": 1}},
    {"kind": "fill", "chips": ["2500"]},
    {"kind": "fill"},
    {"chips": {"2500": 40}},
    {"kind": "marker", "chips": {"2500": 40}},
    {"kind": None, "chips": {"2500": 40}},
]
BUY_IN_BODIES = [
    {"seat": 3, "medium": "cash", "amount_cents": "abc"},
    {"seat": 3, "medium": "cash", "amount_cents": "５００"},
    {"seat": 3, "medium": "cash", "amount_cents": 12.5},
    {"seat": 3, "medium": "cash", "amount_cents": -500},
    {"seat": 3, "medium": "cash", "amount_cents": 0},
    {"seat": 3, "medium": "cash", "amount_cents": HUGE},
    {"seat": 3, "medium": "cash", "amount_cents": True},
    {"seat": 3, "medium": "cash", "amount_cents": [500]},
    {"seat": 3, "medium": "cash", "amount_cents": {"cents": 500}},
    {"seat": 7, "medium": "cash", "amount_cents": 500},
    {"seat": HUGE, "medium": "cash", "amount_cents": 500},
    {"seat": "three", "medium": "cash", "amount_cents": 500},
    {"seat": 3, "medium": "cheque", "amount_cents": 500},
    {"seat": 3, "medium": "cash"},
    {"medium": "cash", "amount_cents": 500},
    {"seat": 3, "amount_cents": 500},
]
DROP_BODIES = [
    {"cash": {"10000": "3"}, "markers_cents": 0, "promo_cents": 0},
    {"cash": {"10000": 2.5}, "markers_cents": 0, "promo_cents": 0},
    {"cash": {"10000": -1}, "markers_cents": 0, "promo_cents": 0},
    {"cash": {"10000": HUGE}, "markers_cents": 0, "promo_cents": 0},
    {"cash": {"700": 1}, "markers_cents": 0, "promo_cents": 0},
    {"cash": [10000, 3], "markers_cents": 0, "promo_cents": 0},
    {"cash": {"10000": 3}, "markers_cents": "x", "promo_cents": 0},
    {"cash": {"10000": 3}, "markers_cents": -1, "promo_cents": 0},
    {"cash": {"10000": 3}, "markers_cents": 1.5, "promo_cents": 0},
    {"cash": {"10000": 3}, "markers_cents": HUGE, "promo_cents": 0},
    {"cash": {"10000": 3}, "markers_cents": 0, "promo_cents": -2500},
    {"cash": {"10000": 3}, "markers_cents": 0},
    {"cash": {"10000": 3}, "promo_cents": 0},
    {"markers_cents": 0, "promo_cents": 0},
]
EVERY_POST = ["tray", "slip", "buy_in", "drop", "void"]


@pytest.fixture
def money_floor(pgp: Any, dealer: User, pit_boss: User, shift: Any, carl: User, cora: User) -> dict[str, Any]:
    """The Day shift closed (its drop box to count) and the Swing shift open, a fill waiting to be voided; the
    user each endpoint's happy path needs."""
    shift_close(actor=pit_boss, shift=shift)
    shift_open(actor=pit_boss, name="Swing")
    slip = slip_request(actor=dealer, table=pgp, kind="fill", chips={2500: 4})
    return {
        "tray": (dealer, f"/api/v1/tables/{pgp.pk}/tray-counts/"),
        "slip": (dealer, f"/api/v1/tables/{pgp.pk}/slips/"),
        "buy_in": (dealer, f"/api/v1/tables/{pgp.pk}/buy-ins/"),
        "drop": (carl, f"/api/v1/tables/{pgp.pk}/drop/{shift.pk}/"),
        "void": (pit_boss, f"/api/v1/slips/{slip.pk}/void/"),
    }


def _cases() -> list[Any]:
    cases = [pytest.param("tray", body, id=f"tray-{i}") for i, body in enumerate(TRAY_BODIES)]
    cases += [pytest.param("slip", body, id=f"slip-{i}") for i, body in enumerate(SLIP_BODIES)]
    cases += [pytest.param("buy_in", body, id=f"buy_in-{i}") for i, body in enumerate(BUY_IN_BODIES)]
    cases += [pytest.param("drop", body, id=f"drop-{i}") for i, body in enumerate(DROP_BODIES)]
    cases += [
        pytest.param("void", body, id=f"void-{i}")
        for i, body in enumerate([{"reason": 5}, {"reason": ["Misdeal"]}, {"reason": ""}, {}, {"reason": None}])
    ]
    for endpoint in EVERY_POST:  # what is no object at all, and a body that is no JSON
        cases += [
            pytest.param(endpoint, body, id=f"{endpoint}-{name}")
            for name, body in (("list", []), ("number", 7), ("text", "x"), ("null", None))
        ]
    return cases


@pytest.mark.parametrize(("endpoint", "body"), _cases())
def test_a_malformed_body_is_a_400_that_writes_nothing(money_floor: dict[str, Any], endpoint: str, body: Any) -> None:
    user, url = money_floor[endpoint]
    before, slips = written(), list(Slip.objects.values_list("status", flat=True))
    response = _client(user).post(url, data=json.dumps(body), content_type="application/json")
    assert_refused(response, 400)
    assert (written(), list(Slip.objects.values_list("status", flat=True))) == (before, slips)


@pytest.mark.parametrize("endpoint", EVERY_POST)
@pytest.mark.parametrize("raw", ["{", '{"kind": NaN}', "\x00", "[" * 2000 + "]" * 2000])
def test_a_body_that_is_no_json_is_a_400_that_writes_nothing(
    money_floor: dict[str, Any], endpoint: str, raw: str
) -> None:
    user, url = money_floor[endpoint]
    before = written()
    assert_refused(_client(user).post(url, data=raw, content_type="application/json"), 400)
    assert written() == before


@pytest.mark.parametrize(
    ("endpoint", "body"),
    [
        ("tray", {"kind": "opener", "counts": TRAY}),
        ("slip", {"kind": "credit", "chips": {"2500": 4}}),
        ("buy_in", {"seat": 3, "medium": "cash", "amount_cents": 100_000}),
        ("drop", {"cash": CASH, "markers_cents": 0, "promo_cents": 0}),
        ("void", {"reason": "Asked at the wrong table"}),
    ],
)
def test_the_same_endpoints_take_a_well_formed_body(money_floor: dict[str, Any], endpoint: str, body: Any) -> None:
    """The malformed cases above are refused for what is wrong with them, not for who sends them or when."""
    user, url = money_floor[endpoint]
    response = _client(user).post(url, body, format="json")
    assert response.status_code in (200, 201), response.content


def test_every_money_endpoint_is_in_the_schema_with_its_refusals(pit_boss: User) -> None:
    paths = _client(pit_boss).get("/api/v1/schema/", {"format": "json"}).json()["paths"]
    expected = {
        # Every list: 400 for a page size or a cursor it cannot read, or a filter that is not one.
        ("get", "/api/v1/chips/"): {"400", "401", "403", "503"},
        ("get", "/api/v1/tables/{table_id}/tray-counts/"): {"400", "401", "403", "404", "503"},
        ("post", "/api/v1/tables/{table_id}/tray-counts/"): {
            "400",
            "401",
            "403",
            "404",
            "409",
            "413",
            "415",
            "422",
            "503",
        },
        ("post", "/api/v1/tray-counts/{tray_count_id}/confirm/"): {"400", "401", "403", "404", "409", "422", "503"},
        ("get", "/api/v1/tables/{table_id}/slips/"): {"400", "401", "403", "404", "503"},
        ("post", "/api/v1/tables/{table_id}/slips/"): {"400", "401", "403", "404", "409", "413", "415", "422", "503"},
        ("get", "/api/v1/slips/"): {"400", "401", "403", "503"},
        ("get", "/api/v1/slips/numbers/"): {"400", "401", "403", "503"},
        ("get", "/api/v1/slips/{slip_id}/"): {"401", "403", "404", "503"},
        ("post", "/api/v1/slips/{slip_id}/issue/"): {"400", "401", "403", "404", "409", "422", "503"},
        ("post", "/api/v1/slips/{slip_id}/sign/"): {"400", "401", "403", "404", "409", "422", "503"},
        ("post", "/api/v1/slips/{slip_id}/void/"): {"400", "401", "403", "404", "409", "413", "415", "422", "503"},
        ("get", "/api/v1/tables/{table_id}/buy-ins/"): {"400", "401", "403", "404", "503"},
        ("post", "/api/v1/tables/{table_id}/buy-ins/"): {"400", "401", "403", "404", "409", "413", "415", "422", "503"},
        ("get", "/api/v1/tables/{table_id}/drop/{shift_id}/"): {"401", "403", "404", "503"},
        ("post", "/api/v1/tables/{table_id}/drop/{shift_id}/"): {
            "400",
            "401",
            "403",
            "404",
            "409",
            "413",
            "415",
            "422",
            "503",
        },
    }
    # Every write: 400 without the Idempotency-Key it requires (they all move money or chips), 422 with one sent
    # with another request (casino.idempotency).
    for (method, path), refusals in expected.items():
        responses = paths[path][method]["responses"]
        assert {status for status in responses if status >= "400"} == refusals, (method, path)


def test_a_supervisor_voids_a_buy_in_through_the_api(pgp: Any, dealer: User, pit_boss: User) -> None:
    from players.models import Marker

    wrong = marker_buy_in(table=pgp, seat=1, amount_cents=20_000, asked_by=dealer, issued_by=pit_boss)
    url = f"/api/v1/buy-ins/{wrong.pk}/void/"
    assert_refused(_client(dealer).post(url, {"reason": "x"}, format="json"), 403, "may void a buy-in")
    assert_refused(_client(pit_boss).post(url, {}, format="json"), 400)
    assert_refused(_client(pit_boss).post(url, ["x"], format="json"), 400)
    response = _client(pit_boss).post(url, {"reason": "A marker of 200.00 was not signed"}, format="json")
    assert response.status_code == 201, response.content
    assert (response.json()["amount_cents"], response.json()["corrects"]) == (-20_000, wrong.pk)
    assert Marker.objects.get(buy_in=wrong).status == "voided"  # the marker's buy-in voided voids the marker
    assert_refused(_client(pit_boss).post(url, {"reason": "again"}, format="json"), 409, "already voided")
    assert_refused(_client(pit_boss).post("/api/v1/buy-ins/999999/void/", {"reason": "x"}, format="json"), 404)


def test_a_slips_refusal_names_its_own_field_and_a_trays_its_own(pgp: Any, dealer: User) -> None:
    api = _client(dealer)
    fill = assert_refused(
        api.post(f"/api/v1/tables/{pgp.pk}/slips/", {"kind": "fill", "chips": {"333": 2}}, format="json"), 400
    )
    assert fill["extra"]["field"] == "chips.333" and "no 3.33 chip" in fill["message"]
    count = assert_refused(
        api.post(f"/api/v1/tables/{pgp.pk}/tray-counts/", {"kind": "opener", "counts": {"2500": -1}}, format="json"),
        400,
    )
    assert count["extra"]["field"] == "counts.2500"
