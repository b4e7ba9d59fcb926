"""A table's limits: ``table_set_limits`` and the set-up API. Each limit is above zero, the minimum not
above the maximum; a change is audited; a refusal writes nothing.

Personas: Paula the pit boss sets up tables; Dana the dealer and Alex the auditor are refused.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.models import AuditEvent, Shift
from rounds.services import round_open, wager_place
from rules.services import rule_set_create
from tables.models import Table
from tables.services import table_configure, table_set_limits

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)  # 10.00 to 500.00


def _limits(table: Table) -> tuple[int, int]:
    stored = Table.objects.get(pk=table.pk)
    return stored.min_wager_cents, stored.max_wager_cents


def test_the_pit_boss_sets_the_limits_and_the_change_is_audited(table: Table, pit_boss: User) -> None:
    table_set_limits(actor=pit_boss, table=table, min_wager_cents=2500, max_wager_cents=100000)

    assert _limits(table) == (2500, 100000)
    event = AuditEvent.objects.filter(event_type="table.limits_set").get()
    assert event.actor == pit_boss
    assert event.before == {"min_wager_cents": 1000, "max_wager_cents": 50000}
    assert event.after == {"min_wager_cents": 2500, "max_wager_cents": 100000}


@pytest.mark.parametrize(
    ("low", "high", "message"),
    [
        (0, 1000, "The minimum wager is an amount in cents above zero, not 0."),
        (-500, 1000, "The minimum wager is an amount in cents above zero, not -500."),
        (2500, 1000, "The maximum wager (10.00) is below the minimum (25.00)."),
        (True, 1000, "The minimum wager is an amount in cents above zero, not True."),
        (1000, 2_147_483_648, "The maximum wager is at most 21474836.47, not 21474836.48."),
    ],
)
def test_limits_out_of_order_or_not_amounts_are_refused_and_nothing_is_written(
    table: Table, pit_boss: User, low: int, high: int, message: str
) -> None:
    events = AuditEvent.objects.count()

    with pytest.raises(ApplicationError) as refused:
        table_set_limits(actor=pit_boss, table=table, min_wager_cents=low, max_wager_cents=high)

    assert refused.value.message == message
    assert _limits(table) == (1000, 50000) and AuditEvent.objects.count() == events


def test_the_same_limits_again_are_refused_as_nothing_to_change(table: Table, pit_boss: User) -> None:
    with pytest.raises(WrongState, match="already takes wagers of 10.00 to 500.00"):
        table_set_limits(actor=pit_boss, table=table, min_wager_cents=1000, max_wager_cents=50000)


def test_the_dealer_sets_no_limits(table: Table, dealer: User) -> None:
    with pytest.raises(NotAllowed):
        table_set_limits(actor=dealer, table=table, min_wager_cents=2500, max_wager_cents=100000)
    assert _limits(table) == (1000, 50000)


def test_a_wager_is_checked_against_the_new_limits(table: Table, shift: Shift, dealer: User, pit_boss: User) -> None:
    table_set_limits(actor=pit_boss, table=table, min_wager_cents=2500, max_wager_cents=100000)
    round_ = round_open(actor=dealer, table=table)

    with pytest.raises(ApplicationError, match="A wager at table PGP-1 is 25.00 to 1000.00, not 10.00."):
        wager_place(actor=dealer, round=round_, seat=1, amount_cents=1000)


def test_configure_writes_only_what_changed_and_refuses_all_on_one_bad_setting(table: Table, pit_boss: User) -> None:
    other_game = rule_set_create(actor=pit_boss, name="Tiles house", game="paigow_tiles")
    events = AuditEvent.objects.count()

    with pytest.raises(ApplicationError, match="choose a Pai Gow Poker rule set"):
        table_configure(actor=pit_boss, table=table, min_wager_cents=2500, max_wager_cents=100000, rule_set=other_game)
    assert _limits(table) == (1000, 50000) and AuditEvent.objects.count() == events

    table_configure(actor=pit_boss, table=table, min_wager_cents=1000, max_wager_cents=50000, big_win_cents=500000)
    assert list(AuditEvent.objects.filter(seq__gt=0).order_by("-seq").values_list("event_type", flat=True)[:1]) == [
        "table.big_win_set"
    ]
    assert AuditEvent.objects.count() == events + 1  # the unchanged limits recorded nothing


# --- the API -------------------------------------------------------------------------------------


def _client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_pit_boss_sets_up_a_table_through_the_api(table: Table, pit_boss: User, make_user) -> None:  # type: ignore[no-untyped-def]
    from casino.roles import Role

    make_user("dan_dealer", Role.DEALER)

    response = _client(pit_boss).post(
        f"/api/tables/{table.pk}/setup/",
        {"min_wager_cents": 2500, "max_wager_cents": 100000, "dealer": "dan_dealer", "big_win_cents": None},
        format="json",
    )

    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["min_wager_cents"], body["max_wager_cents"], body["dealer"], body["big_win_cents"]) == (
        2500,
        100000,
        "dan_dealer",
        None,
    )


@pytest.mark.parametrize(
    ("payload", "status", "message"),
    [
        ({"min_wager_cents": 2500}, 400, "Give both limits, the minimum and the maximum wager."),
        (
            {"min_wager_cents": "２５００", "max_wager_cents": 5000},
            400,
            "min_wager_cents: A valid integer is required.",
        ),
        (
            {"min_wager_cents": 5000, "max_wager_cents": 2500},
            400,
            "The maximum wager (25.00) is below the minimum (50.00).",
        ),
        ({"min_wager_cents": 0, "max_wager_cents": 2500}, 400, None),
        ({"dealer": "alex_auditor"}, 400, "'alex_auditor' is not a Dealer."),
        ({"dealer": 5}, 400, "dealer: Not a valid string."),
        ({"rule_set": 99999}, 400, "There is no rule set 99999."),
        ({"big_win_cents": 1.5}, 400, None),
    ],
)
def test_bad_set_up_input_is_refused_and_writes_nothing(
    table: Table, pit_boss: User, auditor: User, payload: dict, status: int, message: str | None
) -> None:
    events = AuditEvent.objects.count()

    refused = _client(pit_boss).post(f"/api/tables/{table.pk}/setup/", payload, format="json")

    assert refused.status_code == status, refused.json()
    if message is not None:
        assert refused.json()["message"] == message
    assert AuditEvent.objects.count() == events and _limits(table) == (1000, 50000)


@pytest.mark.parametrize("persona", ["dealer", "auditor"])
def test_the_dealer_and_the_auditor_set_up_no_table(table: Table, persona: str, request) -> None:  # type: ignore[no-untyped-def]
    refused = _client(request.getfixturevalue(persona)).post(
        f"/api/tables/{table.pk}/setup/", {"min_wager_cents": 2500, "max_wager_cents": 5000}, format="json"
    )

    assert refused.status_code == 403
    assert _limits(table) == (1000, 50000)
