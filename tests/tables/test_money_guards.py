"""The table's money held in the database itself (DESIGN.md "Trust"): an attacker with the application's
database login cannot make a slip look signed, received or voided otherwise than the services record it, nor a tray
count confirmed by whoever counted it; and what the rows say is held to the audit events that recorded them, so a
change made past the triggers (by the tables' owner) is named by ``verify_ledger``.

The personas: Dana deals PGP-1; Fred is a Floor supervisor, Paula the Pit boss; Cora a Cage cashier.
"""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from casino.roles import Role
from tables.models import Slip, TrayCount
from tables.slips import slip_issue, slip_request, slip_sign, slip_void
from tables.tray import tray_count_record
from tables.verify import table_money_check

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("house_chips")]

FILL = {10000: 10}


@pytest.fixture
def pgp(shift, make_table):  # type: ignore[no-untyped-def]
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


@pytest.fixture
def cora(make_user):  # type: ignore[no-untyped-def]
    return make_user("cora_cage", Role.CAGE_CASHIER)


def _refused(sql: str, params: list[object]) -> None:
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)


SLIPS = connection.ops.quote_name(Slip._meta.db_table)
COUNTS = connection.ops.quote_name(TrayCount._meta.db_table)


def test_a_received_slip_keeps_its_signatures_and_a_voided_one_its_reason(  # type: ignore[no-untyped-def]
    pgp, dealer, floor_supervisor, pit_boss, cora
) -> None:
    received = slip_issue(actor=cora, slip=slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL))
    received = slip_sign(actor=floor_supervisor, slip=slip_sign(actor=dealer, slip=received))
    for column, value in (
        ("dealer_signed_by_id", cora.pk),
        ("supervisor_signed_by_id", cora.pk),
        ("received_at", None),
        ("voided_by_id", pit_boss.pk),
    ):
        _refused(f"UPDATE {SLIPS} SET {column} = %s WHERE id = %s", [value, received.pk])
    voided = slip_void(actor=pit_boss, slip=slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL), reason="x")
    _refused(f"UPDATE {SLIPS} SET void_reason = %s WHERE id = %s", ["", voided.pk])
    _refused(f"UPDATE {SLIPS} SET voided_by_id = NULL WHERE id = %s", [voided.pk])
    assert table_money_check() == []


def test_a_slip_cannot_be_made_received_issued_or_signed_past_the_services(  # type: ignore[no-untyped-def]
    pgp, dealer, floor_supervisor, cora
) -> None:
    asked = slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL)
    # Received with no cashier and no signatures; issued with no cashier; issued by whoever asked.
    _refused(f"UPDATE {SLIPS} SET status = 'received', received_at = issued_at WHERE id = %s", [asked.pk])
    _refused(f"UPDATE {SLIPS} SET status = 'issued' WHERE id = %s", [asked.pk])
    _refused(f"UPDATE {SLIPS} SET issued_by_id = requested_by_id WHERE id = %s", [asked.pk])
    issued = slip_sign(actor=dealer, slip=slip_issue(actor=cora, slip=asked))
    _refused(f"UPDATE {SLIPS} SET supervisor_signed_by_id = dealer_signed_by_id WHERE id = %s", [issued.pk])
    _refused(f"UPDATE {SLIPS} SET status = 'voided' WHERE id = %s", [issued.pk])  # voided by no one, for nothing
    assert Slip.objects.get(pk=asked.pk).status == "issued"


def test_a_tray_count_is_never_confirmed_by_whoever_counted_it(pgp, dealer) -> None:  # type: ignore[no-untyped-def]
    count = tray_count_record(actor=dealer, table=pgp, kind="opener", counts={2500: 4})
    _refused(
        f"UPDATE {COUNTS} SET status = 'confirmed', confirmed_by_id = counted_by_id, confirmed_at = counted_at "
        "WHERE id = %s",
        [count.pk],
    )
    _refused(f"UPDATE {COUNTS} SET status = 'confirmed' WHERE id = %s", [count.pk])
    assert TrayCount.objects.get(pk=count.pk).status == "counted"


def test_verify_ledger_names_a_signature_changed_past_the_services(  # type: ignore[no-untyped-def]
    pgp, dealer, make_user, cora
) -> None:
    # An issued slip's first signature is not final yet, so the database lets the application's role write it:
    # the audit events, which recorded Dana signing, say otherwise.
    issued = slip_sign(
        actor=dealer, slip=slip_issue(actor=cora, slip=slip_request(actor=dealer, table=pgp, kind="fill", chips=FILL))
    )
    other = make_user("otto_dealer", Role.DEALER)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {SLIPS} SET dealer_signed_by_id = %s WHERE id = %s", [other.pk, issued.pk])
    (problem,) = table_money_check()
    assert problem.startswith("Fill slip 1 is not as audit event #") and problem.endswith(
        ": dealer_signed_by changed since."
    )
