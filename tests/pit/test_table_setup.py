"""A table's set-up page: a supervisor sets the limits, the rule set, the dealer and the big-win alert
from the screens; a refusal is shown with what was typed kept and nothing written; an Auditor reads; a Dealer is
refused.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.models import AuditEvent
from casino.roles import Role
from rules.services import rule_set_create
from tables.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _form(table: Table, **changes: str) -> dict[str, str]:
    form = {
        "min_wager": "10.00",
        "max_wager": "500.00",
        "rule_set": str(table.rule_set_id),
        "dealer": str(table.dealer_id),
        "big_win": "",
    }
    return {**form, **changes}


def test_the_floor_supervisor_sets_up_the_table(
    table: Table, floor_supervisor: User, pit_boss: User, make_user
) -> None:  # type: ignore[no-untyped-def]
    other = make_user("dan_dealer", Role.DEALER)
    high_limit = rule_set_create(actor=pit_boss, name="PGP high limit", game="paigow_poker")
    client = signed_in(floor_supervisor)

    response = client.post(
        f"/pit/tables/{table.pk}/setup/",
        _form(
            table,
            min_wager="25",
            max_wager="1000.5",
            rule_set=str(high_limit.pk),
            dealer=str(other.pk),
            big_win="2500.00",
        ),
    )

    assert response.status_code == 302 and response["Location"] == f"/pit/tables/{table.pk}/setup/"
    stored = Table.objects.get(pk=table.pk)
    assert (stored.min_wager_cents, stored.max_wager_cents, stored.big_win_cents) == (2500, 100050, 250000)
    assert (stored.rule_set_id, stored.dealer_id) == (high_limit.pk, other.pk)
    page = client.get(f"/pit/tables/{table.pk}/setup/").content.decode()
    assert "Table PGP-1 is set up." in page and 'value="1\u2009000.50"' in page
    assert set(
        AuditEvent.objects.filter(subject_id=str(table.pk), actor=floor_supervisor).values_list("event_type", flat=True)
    ) == {"table.limits_set", "table.rule_set_assigned", "table.dealer_assigned", "table.big_win_set"}


@pytest.mark.parametrize(
    ("changes", "shown"),
    [
        ({"min_wager": "25,000"}, "Write an amount in units and cents, like 25.00"),
        ({"min_wager": "２５"}, "Write an amount in units and cents, like 25.00"),
        ({"max_wager": "-5"}, "Write an amount in units and cents, like 25.00"),
        ({"min_wager": "0"}, "The minimum wager is an amount in cents above zero, not 0."),
        ({"min_wager": "600.00", "max_wager": "500.00"}, "The maximum wager (500.00) is below the minimum (600.00)."),
        ({"min_wager": ""}, "This field is required."),
        ({"big_win": "abc"}, "Write an amount in units and cents"),
    ],
)
def test_a_refused_set_up_keeps_what_was_typed_and_writes_nothing(
    table: Table, pit_boss: User, changes: dict[str, str], shown: str
) -> None:
    events = AuditEvent.objects.count()
    form = _form(table, max_wager="700.00", **changes) if "max_wager" not in changes else _form(table, **changes)

    response = signed_in(pit_boss).post(f"/pit/tables/{table.pk}/setup/", form)

    assert response.status_code == 400
    page = response.content.decode()
    assert shown in page and "Nothing was changed" in page
    for name, value in changes.items():
        assert f'name="{name}"' in page and f'value="{value}"' in page
    assert 'value="700.00"' in page or "max_wager" in changes
    stored = Table.objects.get(pk=table.pk)
    assert (stored.min_wager_cents, stored.max_wager_cents) == (1000, 50000)
    assert AuditEvent.objects.count() == events


def test_a_rule_set_of_another_game_is_not_offered_nor_taken(table: Table, pit_boss: User) -> None:
    tiles = rule_set_create(actor=pit_boss, name="Tiles house", game="paigow_tiles")
    client = signed_in(pit_boss)

    assert "Tiles house" not in client.get(f"/pit/tables/{table.pk}/setup/").content.decode()
    response = client.post(f"/pit/tables/{table.pk}/setup/", _form(table, rule_set=str(tiles.pk)))
    assert response.status_code == 400
    assert Table.objects.get(pk=table.pk).rule_set_id != tiles.pk


def test_only_dealers_are_offered_as_the_tables_dealer(table: Table, pit_boss: User, auditor: User) -> None:
    client = signed_in(pit_boss)

    page = client.get(f"/pit/tables/{table.pk}/setup/").content.decode()
    response = client.post(f"/pit/tables/{table.pk}/setup/", _form(table, dealer=str(auditor.pk)))

    assert "dana_dealer" in page and "alex_auditor" not in page
    assert response.status_code == 400
    assert Table.objects.get(pk=table.pk).dealer_id != auditor.pk


def test_the_auditor_reads_the_set_up_and_changes_nothing(table: Table, auditor: User) -> None:
    client = signed_in(auditor)

    page = client.get(f"/pit/tables/{table.pk}/setup/").content.decode()
    refused = client.post(f"/pit/tables/{table.pk}/setup/", _form(table, min_wager="25.00"))

    assert "Read only" in page and 'value="10.00"' in page and "disabled" in page and "Save set-up" not in page
    assert refused.status_code == 403
    assert Table.objects.get(pk=table.pk).min_wager_cents == 1000


def test_the_dealer_is_refused_the_set_up(table: Table, dealer: User) -> None:
    assert signed_in(dealer).get(f"/pit/tables/{table.pk}/setup/").status_code == 403


def test_the_dashboard_and_the_table_history_link_to_the_set_up(table: Table, pit_boss: User) -> None:
    client = signed_in(pit_boss)

    for url in ("/pit/", f"/pit/tables/{table.pk}/"):
        assert f'href="/pit/tables/{table.pk}/setup/"' in client.get(url).content.decode()


def test_the_dashboards_recorded_drop_leads_to_the_tables_money_where_the_pit_boss_signs_fills(
    table: Table, pit_boss: User
) -> None:
    client = signed_in(pit_boss)

    assert f'href="/dealer/tables/{table.pk}/money/"' in client.get("/pit/").content.decode()
    assert client.get(f"/dealer/tables/{table.pk}/money/").status_code == 200


def test_the_auditor_is_not_offered_the_table_money_it_may_not_open(table: Table, auditor: User) -> None:
    client = signed_in(auditor)

    assert f'href="/dealer/tables/{table.pk}/money/"' not in client.get("/pit/").content.decode()
    assert client.get(f"/dealer/tables/{table.pk}/money/").status_code == 403


def test_a_german_supervisor_reads_and_types_amounts_with_a_decimal_comma(table: Table, pit_boss: User) -> None:
    table.big_win_cents = 250000
    table.save(update_fields=["big_win_cents"])
    client = signed_in(pit_boss)

    page = client.get(f"/pit/tables/{table.pk}/setup/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'value="10,00"' in page and 'value="500,00"' in page and 'value="2\u2009500,00"' in page

    response = client.post(
        f"/pit/tables/{table.pk}/setup/",
        _form(table, min_wager="25,00", max_wager="1\u2009000,50", big_win="2 500,00"),
        HTTP_ACCEPT_LANGUAGE="de",
    )

    assert response.status_code == 302
    stored = Table.objects.get(pk=table.pk)
    assert (stored.min_wager_cents, stored.max_wager_cents, stored.big_win_cents) == (2500, 100050, 250000)


def test_a_german_supervisor_reads_the_default_rule_sets_name_in_german(table: Table, pit_boss: User) -> None:
    page = signed_in(pit_boss).get(f"/pit/tables/{table.pk}/setup/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Pai Gow Poker — Hausregeln (Golden Nugget)" in page
    assert "Pai Gow Poker — house rules (Golden Nugget)" not in page
