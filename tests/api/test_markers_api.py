"""Credit at the table over the REST API: a credit line set (and one waiting for a second Credit manager), a
marker's whole life (asked for at a seat, issued, counted, redeemed), a returned cheque; the same write sent twice
with one key recorded once; refusals as ``{"message", "extra"}`` writing nothing; who reads credit.

The personas: Dana deals PGP-1; Fred is a Floor supervisor; Paula the Pit boss; Cora and Chris manage credit; Kim
works the cage; Carl and Cleo count; Nick holds no role. Mr Lee plays at seat 2.
"""

from __future__ import annotations

from typing import Any

import pytest

from casino.models import AuditEvent
from casino.roles import Role
from casino.services import shift_close
from ledger.models import Posting
from ledger.verify import ledger_verify
from players.models import CreditLineChange, Marker
from players.services import player_create, session_start
from tables.drop import drop_count_record
from tests.api.clients import api_client, refusal

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor(shift, make_table, make_user, dealer):  # type: ignore[no-untyped-def]
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    lee = player_create(actor=dealer, name="Mr Lee", card_number="1001", tier="Gold")
    session_start(actor=dealer, player=lee, table=table, seat=2)
    return {
        "table": table,
        "lee": lee,
        "cora": make_user("cora_credit", Role.CREDIT_MANAGER),
        "chris": make_user("chris_credit", Role.CREDIT_MANAGER),
        "kim": make_user("kim_cage", Role.CAGE_CASHIER),
        "nick": make_user("nick_nobody"),
    }


def _line(floor: dict[str, Any], cents: int, who: str = "cora") -> Any:
    return api_client(floor[who]).post(
        f"/api/players/{floor['lee'].pk}/credit-line/", {"limit_cents": cents}, format="json"
    )


def test_a_markers_whole_life_over_the_api(floor, dealer, floor_supervisor, pit_boss, make_user, shift) -> None:  # type: ignore[no-untyped-def]
    assert _line(floor, 500_000).json()["available_cents"] == 500_000
    table, lee = floor["table"], floor["lee"]
    asked = api_client(dealer).post(
        f"/api/tables/{table.pk}/markers/",
        {"seat": 2, "amount_cents": 200_000, "signed_name": "Lee"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="marker-ask-1",
    )
    assert asked.status_code == 201, asked.content
    again = api_client(dealer).post(
        f"/api/tables/{table.pk}/markers/",
        {"seat": 2, "amount_cents": 200_000, "signed_name": "Lee"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="marker-ask-1",
    )
    assert again.json() == asked.json() and Marker.objects.count() == 1  # a double tap records once
    marker = asked.json()
    assert (marker["status"], marker["number"], marker["signed"]) == ("requested", None, "typed")
    issued = api_client(floor_supervisor).post(f"/api/markers/{marker['id']}/issue/", {}, format="json")
    assert issued.status_code == 200, issued.content
    assert (issued.json()["status"], issued.json()["number"]) == ("in_drop", 1)
    shift_close(actor=pit_boss, shift=shift)
    for counter in ("carl_count", "cleo_count"):
        drop_count_record(
            actor=make_user(counter, Role.COUNT_TEAM),
            table=table,
            shift=shift,
            cash={},
            markers_cents=200_000,
            promo_cents=0,
        )
    outstanding = api_client(floor["kim"]).get("/api/markers/").json()
    assert (outstanding["total_cents"], outstanding["at_cage_cents"]) == (200_000, 200_000)
    paid = api_client(floor["kim"]).post(
        f"/api/markers/{marker['id']}/redeem/", {"method": "cheque", "reference": "0042"}, format="json"
    )
    assert paid.status_code == 201, paid.content
    assert (paid.json()["marker"]["status"], paid.json()["amount_cents"]) == ("redeemed", 200_000)
    returned = api_client(floor["cora"]).post(
        f"/api/markers/{marker['id']}/cheque-returned/", {"reason": "Insufficient funds"}, format="json"
    )
    assert (returned.status_code, returned.json()["amount_cents"]) == (201, -200_000)
    credit = api_client(pit_boss).get(f"/api/players/{lee.pk}/credit/").json()
    assert (credit["owing_cents"], credit["available_cents"]) == (200_000, 300_000)
    assert ledger_verify().ok


def test_a_marker_over_the_line_is_refused_over_the_api_and_nothing_is_written(floor, dealer) -> None:  # type: ignore[no-untyped-def]
    _line(floor, 100_000)
    before = (Marker.objects.count(), Posting.objects.count(), AuditEvent.objects.count())
    answer = api_client(dealer).post(
        f"/api/tables/{floor['table'].pk}/markers/",
        {"seat": 2, "amount_cents": 100_001, "signed_name": "Lee"},
        format="json",
    )
    body = refusal(answer, 409, "is over this player's credit")
    assert body["extra"]["available_cents"] == 100_000
    assert (Marker.objects.count(), Posting.objects.count(), AuditEvent.objects.count()) == before


@pytest.mark.parametrize(
    ("body", "contains"),
    [
        ({"seat": "two", "amount_cents": 100, "signed_name": "Lee"}, "seat"),
        ({"seat": 2, "amount_cents": 1.5, "signed_name": "Lee"}, "amount_cents"),
        ({"seat": 2, "amount_cents": 100}, "The player signs the marker"),
        ({"seat": 2, "amount_cents": 100, "signed_name": "Lee", "tip": 5}, "takes no field 'tip'"),
    ],
)
def test_a_bad_marker_body_is_a_400_that_writes_nothing(floor, dealer, body, contains) -> None:  # type: ignore[no-untyped-def]
    _line(floor, 100_000)
    answer = api_client(dealer).post(f"/api/tables/{floor['table'].pk}/markers/", body, format="json")
    refusal(answer, 400, contains)
    assert not Marker.objects.exists()


def test_a_large_line_waits_for_a_second_credit_manager_over_the_api(floor, settings) -> None:  # type: ignore[no-untyped-def]
    settings.TABLESIDE_CREDIT_APPROVAL_ABOVE_CENTS = 1_000_000
    asked = _line(floor, 5_000_000)
    assert (asked.status_code, asked.json()["status"]) == (202, "pending")
    change = asked.json()["id"]
    refusal(api_client(floor["cora"]).post(f"/api/credit-changes/{change}/decide/", {"approve": True}), 403)
    decided = api_client(floor["chris"]).post(f"/api/credit-changes/{change}/decide/", {"approve": True}, format="json")
    assert (decided.status_code, decided.json()["decided_by"]) == (200, "chris_credit")
    assert CreditLineChange.objects.get(pk=change).status == "approved"


def test_credit_is_read_by_credit_managers_the_cage_and_overseers_only(floor, dealer, auditor) -> None:  # type: ignore[no-untyped-def]
    url = f"/api/players/{floor['lee'].pk}/credit/"
    for reader in (floor["cora"], floor["kim"], auditor):
        assert api_client(reader).get(url).status_code == 200
    for outsider in (dealer, floor["nick"]):
        refusal(api_client(outsider).get(url), 403)
        refusal(api_client(outsider).get("/api/markers/"), 403)
    refusal(_line(floor, 100, who="kim"), 403, "Only a Credit manager may set a credit line")
    assert api_client(None).get(url).status_code in (401, 403)


@pytest.mark.parametrize("player", ["²", "٣", "1e3", "-1", "99999999999999999999999"])
def test_an_unreadable_player_in_the_outstanding_markers_is_a_400_not_a_500(floor, player) -> None:  # type: ignore[no-untyped-def]
    answer = api_client(floor["kim"]).get("/api/markers/", {"player": player})
    assert refusal(answer, 400, "player is a record's number")["extra"]["field"] == "player"


def test_a_buy_in_paid_with_a_marker_is_refused_over_the_api_and_nothing_is_written(floor, dealer) -> None:  # type: ignore[no-untyped-def]
    from tables.models import BuyIn

    answer = api_client(dealer).post(
        f"/api/tables/{floor['table'].pk}/buy-ins/",
        {"seat": 2, "medium": "marker", "amount_cents": 5_000_000},
        format="json",
        HTTP_IDEMPOTENCY_KEY="marker-by-the-back-door",
    )
    assert refusal(answer, 400, "a marker is asked for at POST /tables/{id}/markers/")
    assert not BuyIn.objects.exists() and not Posting.objects.exists()
