"""Back, Forward and another device: the tablet is never kept, and it learns of every change.

The tablet's pages carry ``Cache-Control: no-store`` (Back and Forward ask the server again); the tablet polls
``/dealer/tables/<id>/version/``, a marker that changes when anyone changes the table's round: Dana's own taps, a
second tablet's wager, Paula approving a void from the pit. Olly, another table's dealer, may not poll it.
"""

from __future__ import annotations

from typing import Any

import pytest

from rounds.models import Adjustment, Round
from rounds.services import wager_place
from settlement.services import adjustment_approve, adjustment_request, settle_round
from tables.models import Table
from tests.dealer.conftest import HTMX, signed_in, text


def _version(client: Any, table_id: int) -> str:
    response = client.get(f"/dealer/tables/{table_id}/version/")
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    return response.json()["version"]


@pytest.mark.django_db
def test_the_tablet_page_and_its_redraw_are_never_cached(open_round: Round, dealer: Any) -> None:
    client = signed_in(dealer)
    page = client.get(f"/dealer/tables/{open_round.table_id}/")
    redraw = client.get(f"/dealer/tables/{open_round.table_id}/", **HTMX)
    answer = client.post(f"/dealer/rounds/{open_round.pk}/wager/", {"seat": 2, "amount_cents": 2500}, **HTMX)
    for response in (page, redraw, answer):
        assert response.status_code == 200
        assert "no-store" in response["Cache-Control"]
    assert 'hx-history="false"' in text(page)
    assert "<html" not in text(redraw) and 'id="tablet"' in text(redraw)


@pytest.mark.django_db
def test_the_tablet_carries_the_marker_it_was_drawn_with(open_round: Round, dealer: Any) -> None:
    client = signed_in(dealer)
    version = _version(client, open_round.table_id)
    page = text(client.get(f"/dealer/tables/{open_round.table_id}/"))
    assert f'data-version="{version}"' in page
    assert f'data-version-url="/dealer/tables/{open_round.table_id}/version/"' in page


@pytest.mark.django_db
def test_the_marker_stays_while_nothing_changes_and_moves_with_another_devices_change(
    open_round: Round, dealer: Any, pit_boss: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Each change is another device's request, committed (the marker moves when the write commits, not before)."""
    client = signed_in(dealer)
    table_id = open_round.table_id
    first = _version(client, table_id)
    assert _version(client, table_id) == first
    with django_capture_on_commit_callbacks(execute=True):
        wager_place(actor=dealer, round=open_round, seat=4, amount_cents=1000)  # Dana's second tablet takes a wager
    second = _version(client, table_id)
    assert second != first
    with django_capture_on_commit_callbacks(execute=True):
        asked = adjustment_request(actor=dealer, round=open_round, kind=Adjustment.Kind.VOID, reason="Misdeal")
    third = _version(client, table_id)
    assert third != second
    with django_capture_on_commit_callbacks(execute=True):
        adjustment_approve(actor=pit_boss, adjustment=asked)  # approved from the pit
    assert _version(client, table_id) != third


@pytest.mark.django_db
def test_a_round_settled_elsewhere_moves_the_marker(
    revealed_round: Round, dealer: Any, pit_boss: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = signed_in(dealer)
    before = _version(client, revealed_round.table_id)
    with django_capture_on_commit_callbacks(execute=True):
        settle_round(round=revealed_round, actor=pit_boss, idempotency_key="pit-settles-1")
    assert _version(client, revealed_round.table_id) != before


@pytest.mark.django_db
def test_an_empty_table_has_a_marker_and_another_tables_dealer_may_not_poll_it(
    pgp: Table, dealer: Any, other_dealer: Any
) -> None:
    assert _version(signed_in(dealer), pgp.pk)
    refused = signed_in(other_dealer).get(f"/dealer/tables/{pgp.pk}/version/")
    assert refused.status_code == 403 and "is not your table" in refused.json()["message"]


@pytest.mark.django_db
def test_the_marker_changes_when_the_pit_changes_the_tables_set_up(  # type: ignore[no-untyped-def]
    open_round, dealer, pit_boss, django_capture_on_commit_callbacks
) -> None:
    """New limits from the set-up page redraw the tablet, so its chip pad keeps to them without a reload."""
    from tables.services import table_set_limits

    client = signed_in(dealer)
    before = _version(client, open_round.table_id)
    with django_capture_on_commit_callbacks(execute=True):
        table_set_limits(actor=pit_boss, table=open_round.table, min_wager_cents=2500, max_wager_cents=100000)
    assert _version(client, open_round.table_id) != before
