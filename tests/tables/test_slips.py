"""Fills and credits (started): serially numbered slips without gaps, the cage issues, two people sign
at the table, a voided slip keeps its number.

The personas: Dana deals PGP-1; Fred is a Floor supervisor, Paula the Pit boss; Cora a Cage cashier.
"""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.models import AuditEvent
from casino.roles import Role
from tables.models import Slip
from tables.slips import slip_issue, slip_numbers, slip_request, slip_sign, slip_void

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("house_chips")]

FILL = {2500: 40, 10000: 10}  # 1,000.00 + 1,000.00


@pytest.fixture
def pgp(shift, make_table):  # type: ignore[no-untyped-def]
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


@pytest.fixture
def cora(make_user):  # type: ignore[no-untyped-def]
    return make_user("cora_cage", Role.CAGE_CASHIER)


def test_a_fill_goes_from_request_to_the_cage_to_two_signatures_at_the_table(  # type: ignore[no-untyped-def]
    pgp, dealer, cora, floor_supervisor
) -> None:
    slip = slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL)
    assert (slip.number, slip.total_cents, slip.status) == (1, 200_000, "requested")
    assert slip.chips == {"2500": 40, "10000": 10}
    slip = slip_issue(actor=cora, slip=slip)
    slip = slip_sign(actor=dealer, slip=slip)
    assert slip.status == "issued" and slip.dealer_signed_by == dealer
    slip = slip_sign(actor=floor_supervisor, slip=slip)
    assert (slip.status, slip.supervisor_signed_by) == ("received", floor_supervisor)
    assert slip.received_at is not None
    events = list(AuditEvent.objects.filter(subject_type="tables.slip").values_list("event_type", flat=True))
    assert events == ["slip.requested", "slip.issued", "slip.signed", "slip.signed"]


def test_numbers_run_per_kind_without_gaps_and_a_voided_slip_keeps_its_number(pgp, dealer, pit_boss) -> None:  # type: ignore[no-untyped-def]
    numbers = [
        slip_request(actor=dealer, table=pgp, kind=kind, chips=FILL).number for kind in ("fill", "credit", "fill")
    ]
    assert numbers == [1, 1, 2]
    with pytest.raises(ApplicationError):  # a refused request gives no number away
        slip_request(actor=dealer, table=pgp, kind="fill", chips={2500: -1})
    voided = slip_void(actor=pit_boss, slip=Slip.objects.get(kind="fill", number=1), reason="Wrong table asked")
    assert (voided.number, voided.voided_by, voided.void_reason) == (1, pit_boss, "Wrong table asked")
    third = slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL)
    assert third.number == 3
    accounted = slip_numbers(kind="fill")
    assert (accounted.used, accounted.voided, accounted.missing) == ([2, 3], [1], [])


def test_whoever_asked_cannot_issue_and_only_the_cage_issues(pgp, dealer, floor_supervisor, make_user) -> None:  # type: ignore[no-untyped-def]
    both = make_user("sam_floor_and_cage", Role.FLOOR_SUPERVISOR, Role.CAGE_CASHIER)
    slip = slip_request(actor=both, table=pgp, kind="fill", chips=FILL)
    with pytest.raises(NotAllowed, match="^You asked for fill slip 1: another person issues it.$"):
        slip_issue(actor=both, slip=slip)
    for person in (dealer, floor_supervisor):
        with pytest.raises(NotAllowed, match="Only a Cage cashier may issue a fill or a credit."):
            slip_issue(actor=person, slip=slip)
    assert Slip.objects.get(pk=slip.pk).status == "requested"


def test_a_cage_cashier_never_signs_at_the_table_and_one_person_never_signs_twice(  # type: ignore[no-untyped-def]
    pgp, dealer, cora, make_user, floor_supervisor
) -> None:
    slip = slip_issue(actor=cora, slip=slip_request(actor=dealer, table=pgp, kind="credit", chips=FILL))
    with pytest.raises(NotAllowed, match="A Cage cashier does not sign at the table"):
        slip_sign(actor=cora, slip=slip)
    slip_sign(actor=dealer, slip=slip)
    with pytest.raises(WrongState, match="^You already signed credit slip 1: a second person signs.$"):
        slip_sign(actor=dealer, slip=slip)
    other_dealer = make_user("olly_other", Role.DEALER)
    with pytest.raises(NotAllowed, match="Table PGP-1 is not your table"):
        slip_sign(actor=other_dealer, slip=slip)
    assert Slip.objects.get(pk=slip.pk).status == "issued"


def test_a_slip_is_signed_only_once_issued_and_a_received_one_cannot_be_voided(  # type: ignore[no-untyped-def]
    pgp, dealer, cora, floor_supervisor, pit_boss
) -> None:
    slip = slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL)
    with pytest.raises(WrongState, match="is not issued yet"):
        slip_sign(actor=dealer, slip=slip)
    slip_issue(actor=cora, slip=slip)
    slip_sign(actor=dealer, slip=slip)
    slip_sign(actor=floor_supervisor, slip=slip)
    with pytest.raises(WrongState, match="^Fill slip 1 is received and signed: it cannot be voided.$"):
        slip_void(actor=pit_boss, slip=slip, reason="too late")
    with pytest.raises(ApplicationError, match="^Say why the slip is voided.$"):
        slip_void(actor=pit_boss, slip=slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL), reason=" ")


@pytest.mark.parametrize(
    ("chips", "message"),
    [
        ({2500: 0}, "A fill moves at least one chip."),
        ({700: 1}, "There is no 7.00 chip in this house"),
        ({2500: 1.5}, "A count is a whole number of chips"),
    ],
)
def test_a_request_for_chips_the_house_does_not_have_is_refused(pgp, dealer, chips, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ApplicationError, match=message):
        slip_request(actor=dealer, table=pgp, kind="fill", chips=chips)
    assert not Slip.objects.exists()


def test_what_a_slip_asked_and_its_number_cannot_be_changed_in_the_database(pgp, dealer, pit_boss) -> None:  # type: ignore[no-untyped-def]
    slip = slip_void(actor=pit_boss, slip=slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL), reason="x")
    table = connection.ops.quote_name(Slip._meta.db_table)
    for sql, params in (
        (f"UPDATE {table} SET number = %s WHERE id = %s", [7, slip.pk]),
        (f"UPDATE {table} SET total_cents = %s WHERE id = %s", [1, slip.pk]),
        (f"UPDATE {table} SET status = %s WHERE id = %s", ["requested", slip.pk]),
        (f"DELETE FROM {table} WHERE id = %s", [slip.pk]),
    ):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, params)


def test_an_issued_slip_is_voided_by_the_cage_once_its_chips_are_back_and_a_requested_one_by_a_supervisor(  # type: ignore[no-untyped-def]
    pgp, dealer, cora, pit_boss
) -> None:
    issued = slip_issue(actor=cora, slip=slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL))
    with pytest.raises(NotAllowed, match="^Fill slip 1 is issued: the cage voids it once its chips are back"):
        slip_void(actor=pit_boss, slip=issued, reason="Not needed")
    assert Slip.objects.get(pk=issued.pk).status == "issued"
    voided = slip_void(actor=cora, slip=issued, reason="Not needed: the chips came back")
    assert (voided.status, voided.voided_by) == ("voided", cora)
    asked = slip_request(actor=dealer, table=pgp, kind="credit", chips=FILL)
    with pytest.raises(NotAllowed, match="^Credit slip 1 is not issued yet: a Floor supervisor or Pit boss voids it"):
        slip_void(actor=cora, slip=asked, reason="x")
    for refused_to in (dealer,):
        with pytest.raises(NotAllowed):
            slip_void(actor=refused_to, slip=asked, reason="x")


def test_a_closed_table_takes_no_fill_credit_or_buy_in(pgp, dealer, pit_boss) -> None:  # type: ignore[no-untyped-def]
    from tables.drop import buy_in_record
    from tables.models import BuyIn
    from tables.services import table_close

    table_close(actor=pit_boss, table=pgp)
    for kind in ("fill", "credit"):
        with pytest.raises(WrongState, match=f"^Table PGP-1 is closed: open it before asking for a {kind}."):
            slip_request(actor=pit_boss, table=pgp, kind=kind, chips=FILL)
    with pytest.raises(WrongState, match="^Table PGP-1 is closed: open it before taking a buy-in."):
        buy_in_record(actor=pit_boss, table=pgp, seat=1, medium="cash", amount_cents=10_000)
    assert not Slip.objects.exists() and not BuyIn.objects.exists()
