"""The pages of credit at the table: the player's credit page, the cage's markers and the tablet's marker page. Who
may open them; a refusal drawn on the page in the service's words and status, what was typed kept, nothing
written; the same form sent twice recorded once; a large line waiting for a second Credit manager.

The personas: Dana deals PGP-1; Fred is a Floor supervisor; Paula the Pit boss; Cora and Chris manage credit; Kim
works the cage; Nick holds no role. Mr Lee plays at seat 2 with a line of 5,000.00.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.test import Client

from casino.roles import Role
from players.credit import credit_line_set, marker_issue, marker_request
from players.models import CreditLine, CreditLineChange, Marker
from players.services import player_create, session_start

pytestmark = pytest.mark.django_db

THIN = "\u2009"


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _key() -> str:
    return uuid.uuid4().hex


@pytest.fixture
def floor(shift, make_table, make_user, dealer):  # type: ignore[no-untyped-def]
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    lee = player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")
    session_start(actor=dealer, player=lee, table=table, seat=2)
    cora = make_user("cora_credit", Role.CREDIT_MANAGER)
    credit_line_set(actor=cora, player=lee, limit_cents=500_000)
    return {
        "table": table,
        "lee": lee,
        "cora": cora,
        "chris": make_user("chris_credit", Role.CREDIT_MANAGER),
        "kim": make_user("kim_cage", Role.CAGE_CASHIER),
        "nick": make_user("nick_nobody"),
    }


def test_credit_pages_open_for_credit_readers_only(floor, dealer, auditor) -> None:  # type: ignore[no-untyped-def]
    credit = f"/players/{floor['lee'].pk}/credit/"
    for reader in (floor["cora"], floor["kim"], auditor):
        for url in (credit, "/cage/markers/", "/cage/markers.csv"):
            assert _client(reader).get(url).status_code == 200, (reader, url)
    for outsider in (dealer, floor["nick"]):
        for url in (credit, "/cage/markers/", "/cage/markers.csv"):
            assert _client(outsider).get(url).status_code == 403, (outsider, url)
    assert _client(floor["nick"]).get(f"/dealer/tables/{floor['table'].pk}/money/markers/").status_code == 403
    assert _client(floor["cora"]).get("/", follow=False)["Location"].endswith("/cage/markers/")


def test_a_credit_manager_sets_a_line_once_and_a_large_one_waits_for_a_second(floor, settings) -> None:  # type: ignore[no-untyped-def]
    settings.TABLESIDE_CREDIT_APPROVAL_ABOVE_CENTS = 1_000_000
    lee = floor["lee"]
    url = f"/players/{lee.pk}/credit/line/"
    form = {"form_key": _key(), "limit": "20000", "reason": "Good history"}
    answer = _client(floor["cora"]).post(url, form, follow=True)
    assert f"A credit line of 20{THIN}000.00 waits for a second Credit manager" in answer.content.decode()
    again = _client(floor["cora"]).post(url, form, follow=True)  # the same form sent twice
    assert "already sent" in again.content.decode()
    assert CreditLineChange.objects.count() == 1
    change = CreditLineChange.objects.get()
    refused = _client(floor["cora"]).post(
        f"/players/{lee.pk}/credit/changes/{change.pk}/", {"form_key": _key(), "decision": "approve"}
    )
    assert refused.status_code == 403 and "a second Credit manager approves it" in refused.content.decode()
    _client(floor["chris"]).post(
        f"/players/{lee.pk}/credit/changes/{change.pk}/", {"form_key": _key(), "decision": "approve"}
    )
    assert CreditLine.objects.get(player=lee).limit_cents == 2_000_000
    bad = _client(floor["cora"]).post(url, {"form_key": _key(), "limit": "lots"})
    assert bad.status_code == 400 and 'value="lots"' in bad.content.decode()  # what was typed is kept


def test_the_tablet_refuses_a_marker_over_the_line_and_keeps_what_was_typed(floor, dealer) -> None:  # type: ignore[no-untyped-def]
    url = f"/dealer/tables/{floor['table'].pk}/money/markers/new/"
    answer = _client(dealer).post(url, {"form_key": _key(), "seat": "2", "amount": "5000.01", "signed_name": "Lee"})
    html = answer.content.decode()
    assert answer.status_code == 409 and "is over this player&#x27;s credit" in html
    assert 'value="5000.01"' in html and not Marker.objects.exists()
    for form, message in (
        ({"seat": "", "amount": "10", "signed_name": "Lee"}, "Tap the seat of the player"),
        ({"seat": "2", "amount": "", "signed_name": "Lee"}, "Type the marker&#x27;s amount."),
        ({"seat": "2", "amount": "10"}, "The player signs the marker"),
    ):
        refused = _client(dealer).post(url, {"form_key": _key(), **form})
        assert refused.status_code == 400 and message in refused.content.decode(), form
    assert not Marker.objects.exists()


def test_the_cage_refuses_a_marker_still_in_its_drop_box_on_its_page(floor, dealer, floor_supervisor) -> None:  # type: ignore[no-untyped-def]
    marker = marker_issue(
        actor=floor_supervisor,
        marker=marker_request(actor=dealer, table=floor["table"], seat=2, amount_cents=100_000, signed_name="Lee"),
    )
    page = _client(floor["kim"]).get("/cage/markers/").content.decode()
    assert "counted with its drop box" in page and "data-redeem" not in page
    refused = _client(floor["kim"]).post(f"/cage/markers/{marker.pk}/redeem/", {"form_key": _key(), "method": "cash"})
    assert refused.status_code == 409 and "is still in the drop box of table PGP-1" in refused.content.decode()
    csv = _client(floor["kim"]).get("/cage/markers.csv").content.decode()
    assert re.search(r"^1,Mr Lee,PGP-1,2,100000,in_drop,", csv, re.M)


def test_a_name_typed_as_a_formula_is_plain_text_in_the_outstanding_markers_file(
    floor, dealer, floor_supervisor
) -> None:  # type: ignore[no-untyped-def]
    lee = floor["lee"]
    lee.name = '=HYPERLINK("http://evil.example","Mr Lee")'
    lee.save(update_fields=["name"])
    marker_issue(
        actor=floor_supervisor,
        marker=marker_request(actor=dealer, table=floor["table"], seat=2, amount_cents=100_000, signed_name="Lee"),
    )
    csv = _client(floor["kim"]).get("/cage/markers.csv").content.decode()
    assert '\n1,"\'=HYPERLINK(""http://evil.example"",""Mr Lee"")",PGP-1,2,100000,in_drop,' in csv


@pytest.mark.parametrize("seat", ["²", "٣", "2.0", "-"])
def test_the_tablet_refuses_a_seat_that_is_no_number_without_a_500(floor, dealer, seat) -> None:  # type: ignore[no-untyped-def]
    url = f"/dealer/tables/{floor['table'].pk}/money/markers/new/"
    answer = _client(dealer).post(url, {"form_key": _key(), "seat": seat, "amount": "10", "signed_name": "Lee"})
    assert answer.status_code == 400 and "Tap the seat of the player" in answer.content.decode()
    assert not Marker.objects.exists()
