"""The table's money on the tablet through Django's test client: the page, the tray count, its
confirmation, fill and credit requests and their signatures, the buy-ins; who may, the refusals, and garbage.

Every form posts and redirects (POST-redirect-GET) with the service's answer as the notice; a refusal draws the page
again with the service's message in the banner, its status and ``REFUSAL_HEADER``, with what was typed kept, and
writes nothing. The personas: Dana deals at PGP-1; Olly deals elsewhere; Fred is a Floor supervisor, Paula the Pit
boss, Alex the auditor, Cora a Cage cashier.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from casino.models import AuditEvent
from casino.roles import Role
from casino.services import shift_close
from dealer.views import REFUSAL_HEADER
from ledger.models import Posting
from tables.models import BuyIn, Slip, Table, TrayCount
from tables.slips import slip_issue, slip_request
from tables.tray import tray_count_confirm, tray_count_record
from tests.caches import cache_clear
from tests.dealer.conftest import signed_in, text
from tests.markers import marker_buy_in

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("house_chips")]

THIN = "\u2009"  # the thousands separator of the ``cents`` filter
KEY = "0123456789abcdef0123456789abcdef"


@pytest.fixture(autouse=True)
def _forms_sent_before_forgotten() -> Iterator[None]:
    """A form's one-time key lives in the cache, which outlives a test's rolled-back database (whose ids come
    again): each test starts with none sent."""

    cache_clear()
    yield
    cache_clear()


def _money(table: Table, rest: str = "") -> str:
    return f"/dealer/tables/{table.pk}/money/{rest}"


def _state() -> dict[str, Any]:
    return {
        "counts": list(TrayCount.objects.order_by("pk").values_list("pk", "status")),
        "slips": list(Slip.objects.order_by("pk").values_list("pk", "status", "dealer_signed_by", "voided_by")),
        "buy_ins": BuyIn.objects.count(),
        "postings": Posting.objects.count(),
        "audit": AuditEvent.objects.count(),
    }


@contextmanager
def nothing_written() -> Iterator[None]:
    before = _state()
    yield
    assert _state() == before


def _refused(response: Any, status: int, message: str) -> str:
    body = text(response)
    assert response.status_code == status, body
    assert response[REFUSAL_HEADER] == "1"
    assert 'class="banner error"' in body and message in body, body
    return body


def _done(response: Any, table: Table, client: Any, notice: str) -> str:
    assert response.status_code == 302, text(response)
    assert response["Location"] == _money(table)
    page = text(client.get(response["Location"]))
    assert notice in page, page
    return page


@pytest.fixture
def cora(make_user):  # type: ignore[no-untyped-def]
    return make_user("cora_cage", Role.CAGE_CASHIER)


@pytest.fixture
def opener(pgp: Table, dealer: Any) -> TrayCount:
    """Dana's opener at PGP-1, waiting for a supervisor: 40 × 25.00 and 10 × 100.00."""
    return tray_count_record(actor=dealer, table=pgp, kind="opener", counts={2500: 40, 10000: 10})


@pytest.fixture
def issued_fill(pgp: Table, dealer: Any, cora: Any) -> Slip:
    slip = slip_request(actor=dealer, table=pgp, kind="fill", chips={2500: 20})
    return slip_issue(actor=cora, slip=slip)


# --- who may ---------------------------------------------------------------------------------------------


def test_the_tables_dealer_sees_its_money_and_the_tablet_links_to_it(pgp: Table, dealer: Any) -> None:
    client = signed_in(dealer)
    tablet = text(client.get(f"/dealer/tables/{pgp.pk}/"))
    assert f'href="{_money(pgp)}"' in tablet and "Table money" in tablet
    page = client.get(_money(pgp))
    assert page.status_code == 200
    body = text(page)
    for heading in ("Tray counts", "Fills and credits", "Buy-in", "Buy-ins this shift"):
        assert heading in body
    assert "No tray count in this shift yet." in body and "Day" in body
    assert "no-store" in page["Cache-Control"]


@pytest.mark.parametrize(
    ("method", "rest", "data"),
    [
        ("get", "", {}),
        ("get", "tray/", {}),
        ("get", "slips/new/", {}),
        ("post", "tray/", {"kind": "opener", "chip-2500": "4"}),
        ("post", "slips/new/", {"kind": "fill", "chip-2500": "4"}),
        ("post", "buy-in/", {"seat": "1", "medium": "cash", "amount": "500.00"}),
        ("post", "counts/{count}/confirm/", {}),
        ("post", "slips/{slip}/sign/", {}),
        ("post", "slips/{slip}/void/", {"reason": "wrong table"}),
    ],
)
def test_a_dealer_of_another_table_gets_the_tablets_403_page_and_writes_nothing(
    pgp: Table, opener: TrayCount, issued_fill: Slip, other_dealer: Any, method: str, rest: str, data: dict
) -> None:
    client = signed_in(other_dealer)
    with nothing_written():
        response = getattr(client, method)(_money(pgp, rest.format(count=opener.pk, slip=issued_fill.pk)), data)
    assert response.status_code == 403
    body = text(response)
    assert "Table PGP-1 is not your table" in body and "Back to my tables" in body


def test_an_auditor_and_a_cage_cashier_may_not_act_at_the_table_and_get_403(
    pgp: Table, auditor: Any, cora: Any
) -> None:
    for user in (auditor, cora):
        client = signed_in(user)
        assert client.get(_money(pgp)).status_code == 403
        assert "Table money" not in text(client.get(f"/dealer/tables/{pgp.pk}/"))  # no link where none may act


def test_signed_out_is_sent_to_sign_in(pgp: Table, client: Any) -> None:
    response = client.get(_money(pgp, "tray/"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


# --- the tray count ---------------------------------------------------------------------------------------


def test_the_tray_is_one_column_per_chip_in_use_in_its_colour(pgp: Table, dealer: Any) -> None:
    from tables.models import ChipDenomination

    ChipDenomination.objects.filter(value_cents=500_000).update(in_use=False)
    ChipDenomination.objects.filter(value_cents=100_000).update(colour="#12ab34")
    body = text(signed_in(dealer).get(_money(pgp, "tray/")))
    assert body.count("data-tray-col ") == 6
    assert 'class="tray-col c-red"' in body and 'name="chip-500"' in body
    assert 'class="tray-col c-other" data-tray-col data-value="100000" data-chip-colour="#12ab34"' in body
    assert "chip-500000" not in body
    assert "Record opener" in body and "Record closer" in body


def test_the_dealer_records_an_opener_then_a_supervisor_confirms_it(
    pgp: Table, dealer: Any, floor_supervisor: Any
) -> None:
    client = signed_in(dealer)
    response = client.post(
        _money(pgp, "tray/"),
        {"kind": "opener", "chip-2500": "40", "chip-10000": " 10 ", "chip-500": "", "form_key": KEY},
    )
    page = _done(response, pgp, client, f"The opener of 2{THIN}000.00 is recorded: a supervisor confirms it.")
    count = TrayCount.objects.get()
    assert (count.kind, count.counted_by, count.counts) == ("opener", dealer, {"500": 0, "2500": 40, "10000": 10})
    assert "Waiting for a supervisor's confirmation." in page and "data-confirm" not in page

    fred = signed_in(floor_supervisor)
    assert "data-confirm" in text(fred.get(_money(pgp)))
    page = _done(fred.post(_money(pgp, f"counts/{count.pk}/confirm/")), pgp, fred, "is confirmed")
    count.refresh_from_db()
    assert (count.status, count.confirmed_by) == ("confirmed", floor_supervisor)
    assert "confirmed by fred_floor" in page and "No earlier closer to compare with." in page


def test_a_confirmed_opener_shows_its_variance_against_the_last_closer_with_its_level(
    pgp: Table, dealer: Any, floor_supervisor: Any
) -> None:
    closer = tray_count_record(actor=dealer, table=pgp, kind="closer", counts={2500: 40})
    tray_count_confirm(actor=floor_supervisor, count=closer)
    short = tray_count_record(actor=dealer, table=pgp, kind="opener", counts={2500: 35})  # 125.00 short
    client = signed_in(dealer)
    waiting = text(client.get(_money(pgp)))
    assert "Expected 1" + THIN + "000.00 (the last closer)" in waiting and "-125.00" in waiting
    assert "escalate to the pit boss" not in waiting  # the level once confirmed
    tray_count_confirm(actor=floor_supervisor, count=short)
    page = text(client.get(_money(pgp)))
    assert "-125.00" in page and 'class="level level-escalate"' in page and "escalate to the pit boss" in page


def test_the_dealer_who_counted_cannot_confirm_nor_can_a_supervisor_who_counted(
    pgp: Table, opener: TrayCount, dealer: Any, floor_supervisor: Any
) -> None:
    with nothing_written():
        response = signed_in(dealer).post(_money(pgp, f"counts/{opener.pk}/confirm/"), {"form_key": KEY})
    _refused(response, 403, "Only a Floor supervisor or Pit boss may confirm a tray count.")

    fred = signed_in(floor_supervisor)
    tray_count_confirm(actor=floor_supervisor, count=opener)
    closer = tray_count_record(actor=floor_supervisor, table=pgp, kind="closer", counts={2500: 40})
    with nothing_written():
        response = fred.post(_money(pgp, f"counts/{closer.pk}/confirm/"))
    _refused(response, 403, "You counted this tray: a second person confirms the count.")
    with nothing_written():
        response = fred.post(_money(pgp, f"counts/{opener.pk}/confirm/"))
    _refused(response, 409, "is already confirmed")


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"chip-2500": "abc"}, 400, "A count is a whole number of chips from 0 to 100\u2009000, not &#x27;abc&#x27;"),
        ({"chip-2500": "-3"}, 400, "not -3 (25.00 chips)"),
        ({"chip-2500": "1.5"}, 400, "not &#x27;1.5&#x27;"),
        ({"chip-2500": "２"}, 400, "not &#x27;２&#x27;"),
        ({"chip-2500": "100001"}, 400, "not 100001"),
        ({"chip-2500": "9" * 5000}, 400, "A count is a whole number of chips"),
        ({"chip-300": "2"}, 400, "There is no 3.00 chip in this house"),
        ({"chip-abc": "2"}, 400, "There is no &#x27;abc&#x27; chip in this house"),
        ({"chip-500000x": "1"}, 400, "There is no &#x27;500000x&#x27; chip"),
        ({}, 400, "A tray count names the chips of each denomination."),
        ({"chip-2500": "4", "kind": ""}, 400, "A tray count is an opener or a closer, not &#x27;&#x27;."),
        ({"chip-2500": "4", "kind": "drop"}, 400, "not &#x27;drop&#x27;"),
    ],
)
def test_a_bad_tray_count_is_refused_keeping_what_was_typed(
    pgp: Table, dealer: Any, data: dict, status: int, message: str
) -> None:
    posted = {"kind": "opener", **data}
    with nothing_written():
        response = signed_in(dealer).post(_money(pgp, "tray/"), posted)
    body = _refused(response, status, message)
    if "chip-2500" in data:
        assert f'value="{data["chip-2500"]}" data-tray-n' in body


def test_a_second_count_waits_for_the_first_to_be_confirmed(pgp: Table, opener: TrayCount, dealer: Any) -> None:
    with nothing_written():
        response = signed_in(dealer).post(_money(pgp, "tray/"), {"kind": "closer", "chip-2500": "7"})
    body = _refused(response, 409, "waits for a supervisor&#x27;s confirmation: confirm it first")
    assert 'value="7"' in body


def test_the_same_form_sent_twice_is_recorded_once(pgp: Table, dealer: Any) -> None:
    client = signed_in(dealer)
    buy_in = {"seat": "2", "medium": "cash", "amount": "100.00", "form_key": KEY}
    _done(client.post(_money(pgp, "buy-in/"), buy_in), pgp, client, "Seat 2 buys in 100.00 (cash).")
    with nothing_written():
        again = client.post(_money(pgp, "buy-in/"), buy_in)
    _done(again, pgp, client, "This form was already sent: it is recorded once.")
    assert BuyIn.objects.count() == 1
    # The same page's key on another form is that form's first time; a refused form may be sent again, corrected.
    client.post(_money(pgp, "slips/new/"), {"kind": "fill", "form_key": KEY})
    fill = {"kind": "fill", "chip-2500": "2", "form_key": KEY}
    _done(client.post(_money(pgp, "slips/new/"), fill), pgp, client, "Fill slip 1 asks for 50.00")
    assert Slip.objects.count() == 1


def test_no_shift_open_is_refused_with_the_services_message(
    make_table: Any, dealer: Any, pit_boss: Any, shift: Any
) -> None:
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    shift_close(actor=pit_boss, shift=shift)
    client = signed_in(dealer)
    assert "No shift is open" in text(client.get(_money(table)))
    with nothing_written():
        counted = client.post(_money(table, "tray/"), {"kind": "opener", "chip-2500": "4"})
        asked = client.post(_money(table, "slips/new/"), {"kind": "credit", "chip-2500": "4"})
        bought = client.post(_money(table, "buy-in/"), {"seat": "1", "medium": "cash", "amount": "25"})
    _refused(counted, 409, "No shift is open: a supervisor opens one before the tray is counted.")
    _refused(asked, 409, "No shift is open: a supervisor opens one before a credit is asked for.")
    body = _refused(bought, 409, "No shift is open: a supervisor opens one before a buy-in is taken.")
    assert 'name="seat" value="1" checked' in body and 'value="25"' in body


# --- fills and credits ---------------------------------------------------------------------------------


def test_a_fill_is_requested_issued_signed_by_the_dealer_then_a_supervisor(
    pgp: Table, dealer: Any, cora: Any, pit_boss: Any
) -> None:
    client = signed_in(dealer)
    response = client.post(_money(pgp, "slips/new/"), {"kind": "fill", "chip-2500": "20", "chip-10000": "0"})
    page = _done(response, pgp, client, "Fill slip 1 asks for 500.00: the cage issues it.")
    slip = Slip.objects.get()
    assert (slip.status, slip.chips, slip.requested_by) == ("requested", {"2500": 20}, dealer)
    assert "Waiting for the cage to issue it." in page and "data-sign" not in page
    assert "data-void" not in page  # a dealer does not void

    slip_issue(actor=cora, slip=slip)
    page = text(client.get(_money(pgp)))
    assert "Sign as dealer" in page
    _done(client.post(_money(pgp, f"slips/{slip.pk}/sign/")), pgp, client, "Fill slip 1 is signed: a supervisor")
    page = text(client.get(_money(pgp)))
    assert "Waiting for a supervisor's signature." in page and "Sign as supervisor" not in page
    with nothing_written():
        twice = client.post(_money(pgp, f"slips/{slip.pk}/sign/"))
    _refused(twice, 409, "You already signed fill slip 1: a second person signs.")

    paula = signed_in(pit_boss)
    assert "Sign as supervisor" in text(paula.get(_money(pgp)))
    _done(paula.post(_money(pgp, f"slips/{slip.pk}/sign/")), pgp, paula, "Fill slip 1 is signed twice: received.")
    slip.refresh_from_db()
    assert (slip.status, slip.dealer_signed_by, slip.supervisor_signed_by) == ("received", dealer, pit_boss)


def test_a_slip_not_yet_issued_cannot_be_signed(pgp: Table, dealer: Any) -> None:
    slip = slip_request(actor=dealer, table=pgp, kind="credit", chips={10000: 3})
    with nothing_written():
        response = signed_in(dealer).post(_money(pgp, f"slips/{slip.pk}/sign/"))
    _refused(response, 409, "Credit slip 1 is not issued yet")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "credit"}, "A tray count names the chips of each denomination."),
        ({"kind": "credit", "chip-2500": "0"}, "A credit moves at least one chip."),
        ({"kind": "fill", "chip-2500": "lots"}, "not &#x27;lots&#x27; (25.00 chips)"),
        ({"kind": "fill", "chip-700": "1"}, "There is no 7.00 chip"),
        ({"kind": "marker", "chip-2500": "1"}, "A slip is a fill or a credit, not &#x27;marker&#x27;."),
        ({"chip-2500": "1"}, "A slip is a fill or a credit, not &#x27;&#x27;."),
    ],
)
def test_a_bad_slip_request_is_refused_keeping_what_was_typed(
    pgp: Table, dealer: Any, data: dict, message: str
) -> None:
    with nothing_written():
        response = signed_in(dealer).post(_money(pgp, "slips/new/"), data)
    body = _refused(response, 400, message)
    assert "Request fill" in body
    if "chip-2500" in data:
        assert f'value="{data["chip-2500"]}" data-tray-n' in body


def test_a_supervisor_voids_a_slip_saying_why_and_a_dealer_may_not(
    pgp: Table, dealer: Any, floor_supervisor: Any
) -> None:
    issued_fill = slip_request(actor=dealer, table=pgp, kind="fill", chips={2500: 4})  # asked, not issued yet
    with nothing_written():
        response = signed_in(dealer).post(_money(pgp, f"slips/{issued_fill.pk}/void/"), {"reason": "Wrong chips"})
    _refused(response, 403, "may void a slip.")

    fred = signed_in(floor_supervisor)
    with nothing_written():
        response = fred.post(_money(pgp, f"slips/{issued_fill.pk}/void/"), {"reason": "   "})
    body = _refused(response, 400, "Say why the slip is voided.")
    assert '<details class="void-slip" open>' in body

    page = _done(
        fred.post(_money(pgp, f"slips/{issued_fill.pk}/void/"), {"reason": "Asked twice"}),
        pgp,
        fred,
        "Fill slip 1 is voided.",
    )
    assert "Voided by fred_floor: Asked twice" in page
    with nothing_written():
        again = fred.post(_money(pgp, f"slips/{issued_fill.pk}/void/"), {"reason": "Again"})
    _refused(again, 409, "Fill slip 1 is voided: it cannot be voided.")


def test_a_slip_or_count_of_another_table_is_not_found_here(
    pgp: Table, make_table: Any, issued_fill: Slip, opener: TrayCount, floor_supervisor: Any
) -> None:
    other = make_table(name="PGP-2", game="paigow_poker", seat_count=6)
    fred = signed_in(floor_supervisor)
    with nothing_written():
        assert fred.post(_money(other, f"slips/{issued_fill.pk}/sign/")).status_code == 404
        assert fred.post(_money(other, f"slips/{issued_fill.pk}/void/"), {"reason": "x"}).status_code == 404
        assert fred.post(_money(other, f"counts/{opener.pk}/confirm/")).status_code == 404
        assert fred.post(_money(pgp, "slips/999999/sign/")).status_code == 404
        assert fred.get(f"/dealer/tables/{pgp.pk}/money/slips/abc/sign/").status_code == 404
        assert fred.get(_money(pgp, f"slips/{issued_fill.pk}/sign/")).status_code == 405


# --- buy-ins -------------------------------------------------------------------------------------------


def test_the_dealer_records_buy_ins_in_cash_and_a_markers_chips_come_only_from_the_markers_page(
    pgp: Table, dealer: Any, floor_supervisor: Any
) -> None:
    client = signed_in(dealer)
    page = _done(
        client.post(_money(pgp, "buy-in/"), {"seat": "3", "medium": "cash", "amount": "500.00"}),
        pgp,
        client,
        "Seat 3 buys in 500.00 (cash).",
    )
    assert 'name="seat" value="3" checked' not in page  # a new buy-in starts afresh
    assert 'value="marker"' not in page and "A marker is asked for on the Markers page" in page
    # A marker typed here (a form made by hand) is refused: no line, no signature, no approval, no number.
    with nothing_written():
        marker = client.post(_money(pgp, "buy-in/"), {"seat": "6", "medium": "marker", "amount": "1250.5"})
    _refused(marker, 400, "A marker is asked for on the Markers page, signed by the player and approved by a")
    # The marker asked for at the seat and issued by a supervisor: its chips are the buy-in.
    marker_buy_in(table=pgp, seat=6, amount_cents=125_050, asked_by=dealer, issued_by=floor_supervisor)
    assert list(BuyIn.objects.values_list("seat_number", "medium", "amount_cents", "recorded_by")) == [
        (3, "cash", 50_000, dealer.pk),
        (6, "marker", 125_050, floor_supervisor.pk),
    ]
    page = text(client.get(_money(pgp)))
    assert page.count('<td class="seat-cell">') == 2
    assert "<dt>Cash</dt><dd>500.00</dd>" in page and f"<dt>Markers</dt><dd>1{THIN}250.50</dd>" in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"medium": "cash", "amount": "500.00"}, "Tap the seat that buys in."),
        ({"seat": "7", "medium": "cash", "amount": "500.00"}, "Table PGP-1 has seats 1 to 6, not 7."),
        ({"seat": "0", "medium": "cash", "amount": "500.00"}, "Table PGP-1 has seats 1 to 6, not 0."),
        ({"seat": "three", "medium": "cash", "amount": "5"}, "Table PGP-1 has seats 1 to 6, not &#x27;three&#x27;."),
        ({"seat": "-1", "medium": "cash", "amount": "5"}, "not -1."),
        ({"seat": "9" * 40, "medium": "cash", "amount": "5"}, "Table PGP-1 has seats 1 to 6, not &#x27;99999"),
        ({"seat": "2", "amount": "500.00"}, "Tap cash or marker."),
        ({"seat": "2", "medium": "cheque", "amount": "500.00"}, "A buy-in is paid in cash or with a marker"),
        ({"seat": "2", "medium": "cash"}, "Type the amount, like 500.00."),
        ({"seat": "2", "medium": "cash", "amount": "  "}, "Type the amount, like 500.00."),
        ({"seat": "2", "medium": "cash", "amount": "abc"}, "Write an amount in units and cents, like 25.00"),
        ({"seat": "2", "medium": "cash", "amount": "-5"}, "Write an amount in units and cents, like 25.00"),
        ({"seat": "2", "medium": "cash", "amount": "5.001"}, "Write an amount in units and cents, like 25.00"),
        ({"seat": "2", "medium": "cash", "amount": "1e9"}, "Write an amount in units and cents, like 25.00"),
        ({"seat": "2", "medium": "cash", "amount": "0"}, "A buy-in is a whole number of cents from 1"),
        ({"seat": "2", "medium": "cash", "amount": "9999999999"}, "An amount is at most 1\u2009000\u2009000.00."),
        ({"seat": "2", "medium": "cash", "amount": "9" * 400}, "Write an amount in units and cents"),
    ],
)
def test_a_bad_buy_in_is_refused_keeping_what_was_typed(pgp: Table, dealer: Any, data: dict, message: str) -> None:
    with nothing_written():
        response = signed_in(dealer).post(_money(pgp, "buy-in/"), data)
    body = _refused(response, 400, message)
    if data.get("seat") in ("1", "2", "3", "4", "5", "6"):
        assert f'name="seat" value="{data["seat"]}" checked' in body
    assert '<input type="hidden" name="medium" value="cash">' in body
    if "amount" in data and len(data["amount"]) < 50 and data["amount"].strip():
        assert f'value="{data["amount"]}">' in body


# --- the page's cost -----------------------------------------------------------------------------------


def test_the_money_page_costs_the_same_few_queries_however_much_it_shows(
    pgp: Table, dealer: Any, cora: Any, floor_supervisor: Any, django_assert_max_num_queries: Any
) -> None:
    from tables.drop import buy_in_record

    client = signed_in(dealer)
    client.get(_money(pgp))  # the session and the user, read once
    tray_count_confirm(
        actor=floor_supervisor,
        count=tray_count_record(actor=dealer, table=pgp, kind="opener", counts={2500: 4}),
    )
    tray_count_record(actor=dealer, table=pgp, kind="closer", counts={2500: 4})
    for _ in range(3):
        slip_issue(actor=cora, slip=slip_request(actor=dealer, table=pgp, kind="fill", chips={2500: 4}))
    for seat in range(1, 6):
        buy_in_record(actor=dealer, table=pgp, seat=seat, medium="cash", amount_cents=10_000)
    with django_assert_max_num_queries(8):
        assert client.get(_money(pgp)).status_code == 200


def test_a_form_that_failed_on_the_server_is_taken_when_sent_again(pgp: Table, dealer: Any) -> None:
    from unittest import mock

    from django.db import OperationalError

    client = signed_in(dealer)
    client.raise_request_exception = False
    buy_in = {"seat": "2", "medium": "cash", "amount": "100.00", "form_key": KEY}
    with mock.patch("dealer.money_views.buy_in_record", side_effect=OperationalError("database is locked")):
        # A database that cannot answer just now: 503, with Retry-After (casino.errors.unavailable).
        assert client.post(_money(pgp, "buy-in/"), buy_in).status_code == 503
    assert not BuyIn.objects.exists()
    # Sent again, the same form records the buy-in: the dealer's work is not lost to "already sent".
    _done(client.post(_money(pgp, "buy-in/"), buy_in), pgp, client, "Seat 2 buys in 100.00 (cash).")
    assert BuyIn.objects.count() == 1


def test_a_supervisor_voids_a_buy_in_keyed_wrong_and_the_dealer_records_the_right_one(
    pgp: Table, dealer: Any, floor_supervisor: Any
) -> None:
    from tables.drop import buy_in_record

    wrong = buy_in_record(actor=dealer, table=pgp, seat=2, medium="cash", amount_cents=500_000)
    assert "Void the buy-in" not in text(signed_in(dealer).get(_money(pgp)))  # a dealer does not void
    with nothing_written():
        refused = signed_in(dealer).post(_money(pgp, f"buy-ins/{wrong.pk}/void/"), {"reason": "Keyed wrong"})
    _refused(refused, 403, "may void a buy-in")
    fred = signed_in(floor_supervisor)
    with nothing_written():
        refused = fred.post(_money(pgp, f"buy-ins/{wrong.pk}/void/"), {"reason": " "})
    body = _refused(refused, 400, "Say why the buy-in is voided.")
    assert '<details class="void-slip" open>' in body
    page = _done(
        fred.post(_money(pgp, f"buy-ins/{wrong.pk}/void/"), {"reason": "Keyed 5,000.00 for 500.00"}),
        pgp,
        fred,
        "The buy-in of 5\u2009000.00 at seat 2 is voided.",
    )
    assert "voids the buy-in above" in page and "-5\u2009000.00" in page
    assert fred.post(_money(pgp, "buy-ins/999999/void/"), {"reason": "x"}).status_code == 404
