"""On PostgreSQL, the table's money and a close never cross (service-backed): a buy-in, a slip or a tray
count holds the table's row and then the open shift's, so a shift close or a table close that comes during it waits,
and one of them that comes during a close waits for the close and then finds no shift open, or the table closed.

Dana deals PGP-1; Fred, a Floor supervisor, closes the shift; Paula, the Pit boss, closes the table.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction

from casino.errors import WrongState
from casino.models import Shift
from casino.services import shift_close
from tables.drop import buy_in_record
from tables.models import BuyIn, Slip, Table
from tables.services import table_close
from tables.slips import slip_request

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("real_services", "house_chips")]


@pytest.fixture
def pgp(shift, make_table):  # type: ignore[no-untyped-def]
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


def _first_holds_then_second(first: Callable[[], Any], second: Callable[[], Any]) -> list[BaseException | str]:
    """Run ``first`` in a transaction kept open until ``second`` (in another thread) has had half a second to get
    past it; answer what ``second`` did: "done", or its refusal. ``second`` must not finish while ``first`` holds."""
    holding, release = threading.Event(), threading.Event()
    outcome: list[BaseException | str] = []
    errors: list[BaseException] = []

    def hold() -> None:
        try:
            with transaction.atomic():
                first()
                holding.set()
                release.wait(10)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    def then() -> None:
        try:
            second()
            outcome.append("done")
        except BaseException as exc:  # noqa: BLE001 - the refusal may be the point
            outcome.append(exc)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert holding.wait(10)
    follower = threading.Thread(target=then)
    follower.start()
    time.sleep(0.5)
    assert outcome == []  # it waits for the first transaction
    release.set()
    holder.join(10)
    follower.join(10)
    assert errors == []
    return outcome


def test_a_shift_close_waits_for_a_buy_in_under_way_which_lands_in_the_shift(
    transactional_db, pgp, shift, dealer, floor_supervisor
) -> None:  # type: ignore[no-untyped-def]
    outcome = _first_holds_then_second(
        lambda: buy_in_record(actor=dealer, table=pgp, seat=1, medium="cash", amount_cents=10_000),
        lambda: shift_close(actor=floor_supervisor, shift=shift),
    )
    assert outcome == ["done"]
    buy_in = BuyIn.objects.get()
    assert buy_in.shift_id == shift.pk and buy_in.recorded_at < Shift.objects.get(pk=shift.pk).closed_at


def test_a_buy_in_during_a_shift_close_waits_and_finds_no_shift_open(
    transactional_db, pgp, shift, dealer, floor_supervisor
) -> None:  # type: ignore[no-untyped-def]
    (outcome,) = _first_holds_then_second(
        lambda: shift_close(actor=floor_supervisor, shift=shift),
        lambda: buy_in_record(actor=dealer, table=pgp, seat=1, medium="cash", amount_cents=10_000),
    )
    assert isinstance(outcome, WrongState)
    assert outcome.message == "No shift is open: a supervisor opens one before a buy-in is taken."
    assert not BuyIn.objects.exists()


def test_a_fill_asked_during_a_table_close_waits_and_finds_the_table_closed(
    transactional_db, pgp, dealer, pit_boss
) -> None:  # type: ignore[no-untyped-def]
    (outcome,) = _first_holds_then_second(
        lambda: table_close(actor=pit_boss, table=pgp),
        lambda: slip_request(actor=dealer, table=pgp, kind="fill", chips={10000: 10}),
    )
    assert isinstance(outcome, WrongState)
    assert outcome.message == "Table PGP-1 is closed: open it before asking for a fill."
    assert not Slip.objects.exists() and Table.objects.get(pk=pgp.pk).status == "closed"
