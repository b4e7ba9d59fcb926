"""The cage's queue: the fills and credits the tables asked for, issued from the screen by a Cage cashier,
never by whoever asked; what was issued and waits for the table's signatures; the day's received and voided slips.

Personas: Dana deals PGP-1 and asks for the slips; Cora is the Cage cashier; Fred the Floor supervisor and Paula the
Pit boss sign and void, and read the queue; Alex the auditor reads; Carl counts the drop and is refused the cage.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from casino.roles import Role
from tables.models import Slip, Table
from tables.slips import slip_issue, slip_request, slip_sign, slip_void

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("house_chips")]

FILL = {2500: 40, 10000: 10}  # 1,000.00 + 1,000.00
CREDIT = {500: 20}  # 100.00


@pytest.fixture
def pgp(shift, make_table) -> Table:  # type: ignore[no-untyped-def]
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


@pytest.fixture
def cora(make_user: Callable[..., User]) -> User:
    return make_user("cora_cage", Role.CAGE_CASHIER)


@pytest.fixture
def carl(make_user: Callable[..., User]) -> User:
    return make_user("carl_count", Role.COUNT_TEAM)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def section(page: str, name: str) -> str:
    """The HTML of one of the queue's sections (waiting, issued, done)."""
    match = re.search(rf'<section class="card" id="{name}".*?</section>', page, re.S)
    assert match is not None, name
    return match.group(0)


def test_the_cashier_sees_the_requests_oldest_first_with_chips_total_and_who_asked(pgp, dealer, cora) -> None:  # type: ignore[no-untyped-def]
    fill = slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL)
    credit = slip_request(actor=dealer, table=pgp, kind="credit", chips=CREDIT)

    response = signed_in(cora).get("/cage/")

    assert response.status_code == 200
    waiting = section(response.content.decode(), "waiting")
    assert waiting.index(f'id="slip-{fill.pk}"') < waiting.index(f'id="slip-{credit.pk}"')
    assert "000001" in waiting and "PGP-1" in waiting and "Pit 1" in waiting and "dana_dealer" in waiting
    assert '<span class="n">40</span> × <span class="value">25.00</span>' in waiting
    assert '<span class="n">10</span> × <span class="value">100.00</span>' in waiting
    assert "2\u2009000.00" in waiting and "100.00" in waiting  # the fill's total, the credit's
    assert 'aria-label="Issue fill slip 1"' in waiting and 'aria-label="Issue credit slip 1"' in waiting
    assert f'href="/slips/{fill.pk}/pdf/"' in waiting
    assert "Read only" not in response.content.decode()


@pytest.mark.parametrize(
    ("persona", "status"),
    [
        ("cora", 200),
        ("floor_supervisor", 200),
        ("pit_boss", 200),
        ("auditor", 200),
        ("dealer", 403),
        ("carl", 403),
    ],
)
def test_who_may_open_the_cage_queue(request, pgp, dealer, persona, status) -> None:  # type: ignore[no-untyped-def]
    slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL)
    user = request.getfixturevalue(persona)

    response = signed_in(user).get("/cage/")

    assert response.status_code == status
    if status == 200 and persona != "cora":  # supervisors and auditors read: no Issue button
        page = response.content.decode()
        assert "Read only" in page and "/issue/" not in page and "000001" in page


def test_the_nav_shows_the_cage_and_the_count_room_to_who_opens_them(cora, carl, dealer, auditor) -> None:  # type: ignore[no-untyped-def]
    assert signed_in(cora).get("/", follow=True).redirect_chain[-1][0] == "/cage/"
    assert signed_in(carl).get("/", follow=True).redirect_chain[-1][0] == "/count/"
    cage_page = signed_in(cora).get("/cage/").content.decode()
    assert 'href="/cage/"' in cage_page and 'href="/count/"' not in cage_page
    auditor_page = signed_in(auditor).get("/").content.decode()
    assert 'href="/cage/"' in auditor_page and 'href="/count/"' in auditor_page
    dealer_page = signed_in(dealer).get("/dealer/", follow=True).content.decode()
    assert 'href="/cage/"' not in dealer_page and 'href="/count/"' not in dealer_page


def test_issuing_moves_the_slip_to_the_issued_list_and_redirects(pgp, dealer, cora) -> None:  # type: ignore[no-untyped-def]
    slip = slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL)
    client = signed_in(cora)

    response = client.post(f"/cage/slips/{slip.pk}/issue/")

    assert response.status_code == 302 and response["Location"] == "/cage/"
    slip.refresh_from_db()
    assert (slip.status, slip.issued_by) == ("issued", cora)
    page = client.get("/cage/").content.decode()
    assert "Fill slip No. 000001 is issued: table PGP-1 signs for it." in page
    assert f'id="slip-{slip.pk}"' in section(page, "issued")
    assert f'id="slip-{slip.pk}"' not in section(page, "waiting")
    assert "No fill or credit is waiting for the cage." in page


def test_whoever_asked_for_a_slip_is_refused_issuing_it_on_the_page(pgp, make_user) -> None:  # type: ignore[no-untyped-def]
    sam = make_user("sam_floor_and_cage", Role.FLOOR_SUPERVISOR, Role.CAGE_CASHIER)
    slip = slip_request(actor=sam, table=pgp, kind="fill", chips=FILL)

    response = signed_in(sam).post(f"/cage/slips/{slip.pk}/issue/")

    assert response.status_code == 403
    page = response.content.decode()
    assert '<p class="pit-message error" role="alert" id="cage-error">You asked for fill slip 1: another person' in page
    assert f'<tr id="slip-{slip.pk}" class="slip-row refused">' in page
    assert Slip.objects.get(pk=slip.pk).status == "requested"


def test_a_supervisor_reads_the_queue_but_the_service_refuses_their_issue(pgp, dealer, floor_supervisor) -> None:  # type: ignore[no-untyped-def]
    slip = slip_request(actor=dealer, table=pgp, kind="credit", chips=CREDIT)

    response = signed_in(floor_supervisor).post(f"/cage/slips/{slip.pk}/issue/")

    assert response.status_code == 403
    assert "Only a Cage cashier may issue a fill or a credit." in response.content.decode()
    assert Slip.objects.get(pk=slip.pk).status == "requested"


def test_a_slip_issued_twice_is_refused_the_second_time_and_bad_addresses_never_fail(  # type: ignore[no-untyped-def]
    pgp, dealer, cora, make_user, carl
) -> None:
    slip = slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL)
    client = signed_in(cora)
    client.post(f"/cage/slips/{slip.pk}/issue/")

    again = client.post(f"/cage/slips/{slip.pk}/issue/")

    assert again.status_code == 409
    assert "Fill slip 1 is already issued." in again.content.decode()
    assert client.post("/cage/slips/999999/issue/").status_code == 404
    assert client.get(f"/cage/slips/{slip.pk}/issue/").status_code == 405
    assert client.post("/cage/slips/abc/issue/").status_code == 404
    assert signed_in(dealer).post(f"/cage/slips/{slip.pk}/issue/").status_code == 403
    assert signed_in(carl).post(f"/cage/slips/{slip.pk}/issue/").status_code == 403
    assert Client().post(f"/cage/slips/{slip.pk}/issue/").status_code == 302  # to the sign-in page
    assert Slip.objects.get(pk=slip.pk).issued_by == cora


def test_the_days_received_and_voided_slips_are_listed_with_who_and_why(  # type: ignore[no-untyped-def]
    pgp, dealer, cora, floor_supervisor, pit_boss
) -> None:
    received = slip_issue(actor=cora, slip=slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL))
    slip_sign(actor=floor_supervisor, slip=slip_sign(actor=dealer, slip=received))
    voided = slip_void(
        actor=pit_boss, slip=slip_request(actor=dealer, table=pgp, kind="credit", chips=CREDIT), reason="Wrong table"
    )
    waiting = slip_issue(actor=cora, slip=slip_request(actor=dealer, table=pgp, kind="fill", chips=CREDIT))
    slip_sign(actor=dealer, slip=waiting)

    page = signed_in(cora).get("/cage/").content.decode()

    done = section(page, "done")
    assert "Received and voided, gaming day 2025-03-01" in done
    assert "Issued by cora_cage, signed by dana_dealer and fred_floor" in done
    assert "Voided by paula_pitboss: Wrong table" in done and f'id="slip-{voided.pk}"' in done
    issued = section(page, "issued")
    assert f'id="slip-{waiting.pk}"' in issued and "Dealer: dana_dealer" in issued


def test_the_queue_takes_the_same_queries_for_two_slips_or_twenty(pgp, dealer, cora) -> None:  # type: ignore[no-untyped-def]
    client = signed_in(cora)
    client.get("/cage/")  # the session, warmed

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/cage/").status_code == 200
        return len(captured)

    for _ in range(2):
        slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL)
    few = queries()
    for _ in range(18):
        slip_issue(actor=cora, slip=slip_request(actor=dealer, table=pgp, kind="credit", chips=CREDIT))
    assert queries() == few <= 8


@pytest.mark.parametrize(
    ("persona", "status"),
    [("cora", 200), ("dealer", 200), ("floor_supervisor", 200), ("auditor", 200), ("carl", 403), ("olly", 403)],
)
def test_the_slip_pdf_is_for_who_may_see_the_tables_money(request, pgp, dealer, make_user, persona, status) -> None:  # type: ignore[no-untyped-def]
    make_user("olly_other", Role.DEALER)
    slip = slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL)
    user = request.getfixturevalue(persona) if persona != "olly" else User.objects.get(username="olly_other")

    response = signed_in(user).get(f"/slips/{slip.pk}/pdf/")

    assert response.status_code == status
    if status == 200:
        assert response["Content-Type"] == "application/pdf"
        assert response["Content-Disposition"] == 'inline; filename="fill-slip-000001.pdf"'
        assert response.content.startswith(b"%PDF")


def test_a_slip_pdf_that_is_not_there_is_a_404(cora) -> None:  # type: ignore[no-untyped-def]
    assert signed_in(cora).get("/slips/424242/pdf/").status_code == 404


def test_the_cage_voids_an_issued_slip_whose_chips_came_back(pgp, dealer, cora, floor_supervisor) -> None:  # type: ignore[no-untyped-def]
    issued = slip_issue(actor=cora, slip=slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL))
    page = signed_in(cora).get("/cage/").content.decode()
    assert f'action="/cage/slips/{issued.pk}/void/"' in page
    # No reason: refused on the queue, nothing written.
    refused = signed_in(cora).post(f"/cage/slips/{issued.pk}/void/", {"reason": "  "})
    assert refused.status_code == 400 and "Say why the slip is voided." in refused.content.decode()
    assert Slip.objects.get(pk=issued.pk).status == "issued"
    # A supervisor may not: the chips are the cage's to take back.
    assert signed_in(floor_supervisor).post(f"/cage/slips/{issued.pk}/void/", {"reason": "x"}).status_code == 403
    done = signed_in(cora).post(f"/cage/slips/{issued.pk}/void/", {"reason": "The table did not need it"})
    assert done.status_code == 302
    voided = Slip.objects.get(pk=issued.pk)
    assert (voided.status, voided.voided_by, voided.void_reason) == ("voided", cora, "The table did not need it")
