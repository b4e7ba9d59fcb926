"""Reads through the API follow the tablet's rule (``tables.permissions.can_view_table``): a dealer sees
their own table, its rounds and its void or correction requests; supervisors and auditors see every table.

A round or a table the dealer may not see answers 403 in the tablet's words, as every write at that table
already does (a 404 would hide nothing the write's 403 does not tell); a list leaves out what the dealer may
not see.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from casino.roles import Role
from rounds.services import round_open
from settlement.services import adjustment_request
from tables.services import table_assign_dealer


def _client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def other_dealer(make_user: Callable[..., User]) -> User:
    return make_user("otto_other_dealer", Role.DEALER)


@pytest.fixture
def floor(make_table: Callable[..., Any], shift: Any, pit_boss: User, dealer: User, other_dealer: User) -> Any:
    """Dana deals PGP 1, Otto deals PGP 2; each has a round open and a void asked for on it."""
    mine = make_table(name="PGP 1", game="paigow_poker", seat_count=6)
    theirs = table_assign_dealer(
        actor=pit_boss, table=make_table(name="PGP 2", game="paigow_poker", seat_count=6), dealer=other_dealer
    )
    rounds = {}
    for table, who in ((mine, dealer), (theirs, other_dealer)):
        round_ = round_open(actor=who, table=table)
        adjustment_request(actor=who, round=round_, kind="void", reason="Misdeal")
        rounds[table.name] = round_
    return rounds


@pytest.mark.django_db
def test_the_tables_dealer_reads_their_round_and_not_anothers(floor: Any, dealer: User) -> None:
    api = _client(dealer)
    assert api.get(f"/api/rounds/{floor['PGP 1'].pk}/").json()["table_name"] == "PGP 1"
    refused = api.get(f"/api/rounds/{floor['PGP 2'].pk}/")
    assert refused.status_code == 403
    assert refused.json() == {
        "message": "Table PGP 2 is not your table: only its dealer, a supervisor or an auditor may see it.",
        "extra": {"table": "PGP 2"},
    }


@pytest.mark.django_db
def test_another_tables_dealer_sees_only_their_own_table_and_requests(floor: Any, other_dealer: User) -> None:
    api = _client(other_dealer)
    assert [t["name"] for t in api.get("/api/tables/").json()["results"]] == ["PGP 2"]
    assert api.get(f"/api/tables/{floor['PGP 1'].table_id}/").status_code == 403
    assert api.get(f"/api/tables/{floor['PGP 2'].table_id}/").json()["name"] == "PGP 2"
    assert api.get(f"/api/rounds/{floor['PGP 1'].pk}/").status_code == 403
    assert [a["table_name"] for a in api.get("/api/adjustments/").json()["results"]] == ["PGP 2"]
    assert [a["table_name"] for a in api.get("/api/adjustments/", {"status": "pending"}).json()["results"]] == ["PGP 2"]


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["floor_supervisor", "pit_boss", "auditor"])
def test_supervisors_and_auditors_read_every_table(floor: Any, persona: str, request: Any) -> None:
    api = _client(request.getfixturevalue(persona))
    assert [t["name"] for t in api.get("/api/tables/").json()["results"]] == ["PGP 1", "PGP 2"]
    for round_ in floor.values():
        assert api.get(f"/api/rounds/{round_.pk}/").status_code == 200
        assert api.get(f"/api/tables/{round_.table_id}/").status_code == 200
    assert sorted(a["table_name"] for a in api.get("/api/adjustments/").json()["results"]) == ["PGP 1", "PGP 2"]


@pytest.mark.django_db
def test_a_user_with_no_role_sees_no_table(floor: Any, make_user: Callable[..., User]) -> None:
    api = _client(make_user("nora_nobody"))
    assert api.get("/api/tables/").json()["results"] == []
    assert api.get("/api/adjustments/").json()["results"] == []
    assert api.get(f"/api/rounds/{floor['PGP 1'].pk}/").status_code == 403


@pytest.mark.django_db
def test_an_unknown_round_is_still_404(floor: Any, dealer: User) -> None:
    assert _client(dealer).get("/api/rounds/999999/").status_code == 404
