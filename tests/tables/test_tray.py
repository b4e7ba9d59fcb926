"""The table's chip tray (started): the opener and the closer counted by denomination and confirmed by
two people, and an opener's discrepancy against the table's last closer.

The personas: Dana deals PGP-1; Olly deals elsewhere; Fred is a Floor supervisor, Paula the Pit boss, Alex an
Auditor. The house's chips are the data migration's: 1, 5, 25, 100, 500, 1,000 and 5,000 units.
"""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.models import AuditEvent
from casino.roles import Role
from tables.models import ChipDenomination, TrayCount
from tables.tray import tray_count_confirm, tray_count_record, tray_counts_read, tray_variance

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("house_chips")]

# A tray worth 1,000.00: 20 × 25.00, 30 × 5.00, 50 × 1.00 and 3 × 100.00.
TRAY = {2500: 20, 500: 30, 100: 50, 10000: 3}  # 500.00 + 150.00 + 50.00 + 300.00 = 1,000.00


@pytest.fixture
def pgp(shift, make_table):  # type: ignore[no-untyped-def]
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


def test_the_house_chips_are_1_5_25_100_500_1000_and_5000_units() -> None:
    assert list(ChipDenomination.objects.values_list("value_cents", flat=True)) == [
        100,
        500,
        2500,
        10000,
        50000,
        100000,
        500000,
    ]


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ({}, "A tray count names the chips of each denomination."),
        ({700: 3}, "There is no 7.00 chip in this house: the chips are 1.00, 5.00, 25.00, 100.00, 500.00, 1"),
        ({"２５００": 3}, "There is no '２５００' chip in this house"),
        ({2500: -3}, "A count is a whole number of chips from 0 to 100\u2009000, not -3 (25.00 chips)."),
        ({2500: 2.5}, "A count is a whole number of chips from 0 to 100\u2009000, not 2.5 (25.00 chips)."),
        ({2500: True}, "not True (25.00 chips)"),
        ({2500: "12"}, "not '12' (25.00 chips)"),
        ({2500: 100_001}, "not 100001 (25.00 chips)"),
        ({2500: 1, "2500": 2}, "The 25.00 chips are counted twice."),
    ],
)
def test_a_count_that_is_not_chips_of_the_house_is_refused_in_the_dealers_words(counts, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ApplicationError) as refused:
        tray_counts_read(counts)
    assert message in refused.value.message


def test_a_chip_taken_out_of_play_is_no_longer_counted() -> None:
    ChipDenomination.objects.filter(value_cents=500_000).update(in_use=False)
    with pytest.raises(ApplicationError, match="There is no 5\u2009000.00 chip"):
        tray_counts_read({500_000: 1})


def test_the_dealer_counts_the_opener_and_a_supervisor_confirms_it(pgp, dealer, floor_supervisor) -> None:  # type: ignore[no-untyped-def]
    count = tray_count_record(actor=dealer, table=pgp, kind="opener", counts=TRAY)
    assert (count.total_cents, count.status, count.expected_cents) == (100_000, "counted", None)
    assert count.counts == {"100": 50, "500": 30, "2500": 20, "10000": 3}
    confirmed = tray_count_confirm(actor=floor_supervisor, count=count)
    assert (confirmed.status, confirmed.confirmed_by) == ("confirmed", floor_supervisor)
    events = list(AuditEvent.objects.filter(subject_type="tables.traycount").values_list("event_type", flat=True))
    assert events == ["tray.counted", "tray.count_confirmed"]


def test_whoever_counted_cannot_confirm_and_a_dealer_or_auditor_cannot_either(  # type: ignore[no-untyped-def]
    pgp, dealer, pit_boss, auditor, make_user
) -> None:
    count = tray_count_record(actor=pit_boss, table=pgp, kind="opener", counts=TRAY)
    with pytest.raises(NotAllowed, match="^You counted this tray: a second person confirms the count.$"):
        tray_count_confirm(actor=pit_boss, count=count)
    for person in (dealer, auditor):
        with pytest.raises(NotAllowed, match="Only a Floor supervisor or Pit boss may confirm a tray count."):
            tray_count_confirm(actor=person, count=count)
    assert TrayCount.objects.get(pk=count.pk).status == "counted"


def test_another_tables_dealer_and_an_auditor_cannot_count(pgp, make_user, auditor) -> None:  # type: ignore[no-untyped-def]
    olly = make_user("olly_other", Role.DEALER)
    with pytest.raises(NotAllowed, match="Table PGP-1 is not your table"):
        tray_count_record(actor=olly, table=pgp, kind="opener", counts=TRAY)
    with pytest.raises(NotAllowed):
        tray_count_record(actor=auditor, table=pgp, kind="opener", counts=TRAY)
    assert not TrayCount.objects.exists()


def test_one_count_waits_for_confirmation_at_a_time_and_a_confirmed_one_is_not_confirmed_again(  # type: ignore[no-untyped-def]
    pgp, dealer, floor_supervisor, pit_boss
) -> None:
    count = tray_count_record(actor=dealer, table=pgp, kind="opener", counts=TRAY)
    with pytest.raises(WrongState, match="waits for a supervisor's confirmation"):
        tray_count_record(actor=dealer, table=pgp, kind="opener", counts=TRAY)
    tray_count_confirm(actor=floor_supervisor, count=count)
    with pytest.raises(WrongState, match="^This opener of table PGP-1 is already confirmed.$"):
        tray_count_confirm(actor=pit_boss, count=count)
    assert TrayCount.objects.count() == 1


def test_the_closer_of_one_shift_is_the_expected_opener_of_the_next(pgp, dealer, floor_supervisor) -> None:  # type: ignore[no-untyped-def]
    closer = tray_count_record(actor=dealer, table=pgp, kind="closer", counts=TRAY)
    tray_count_confirm(actor=floor_supervisor, count=closer)
    short = {**TRAY, 2500: 19}  # one green chip missing: 25.00 short
    opener = tray_count_confirm(
        actor=floor_supervisor, count=tray_count_record(actor=dealer, table=pgp, kind="opener", counts=short)
    )
    assert opener.expected_cents == 100_000
    variance = tray_variance(opener)
    assert (variance.difference_cents, variance.level) == (-2500, "none")  # 25.00 exactly: no written report


@pytest.mark.parametrize(
    ("greens", "difference", "level"),
    [(20, 0, "none"), (19, -2500, "none"), (21, 2500, "none"), (18, -5000, "report"), (16, -10000, "escalate")],
)
def test_a_discrepancy_over_25_needs_a_report_and_from_100_escalates(  # type: ignore[no-untyped-def]
    pgp, dealer, floor_supervisor, greens, difference, level
) -> None:
    tray_count_confirm(
        actor=floor_supervisor, count=tray_count_record(actor=dealer, table=pgp, kind="closer", counts=TRAY)
    )
    opener = tray_count_record(actor=dealer, table=pgp, kind="opener", counts={**TRAY, 2500: greens})
    variance = tray_variance(opener)
    assert (variance.difference_cents, variance.level) == (difference, level)


def test_a_count_needs_an_open_shift(make_table, dealer) -> None:  # type: ignore[no-untyped-def]
    table = make_table(name="PGP-1", game="paigow_poker", seat_count=6)
    with pytest.raises(WrongState, match="^No shift is open"):
        tray_count_record(actor=dealer, table=table, kind="opener", counts=TRAY)


def test_what_was_counted_cannot_be_changed_or_deleted_in_the_database(pgp, dealer, floor_supervisor) -> None:  # type: ignore[no-untyped-def]
    count = tray_count_confirm(
        actor=floor_supervisor, count=tray_count_record(actor=dealer, table=pgp, kind="opener", counts=TRAY)
    )
    table = connection.ops.quote_name(TrayCount._meta.db_table)
    for sql, params in (
        (f"UPDATE {table} SET total_cents = %s WHERE id = %s", [99_900, count.pk]),
        (f"UPDATE {table} SET counts = %s WHERE id = %s", ['{"2500": 1}', count.pk]),
        (f"UPDATE {table} SET status = %s WHERE id = %s", ["counted", count.pk]),
        (f"DELETE FROM {table} WHERE id = %s", [count.pk]),
    ):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, params)
    assert TrayCount.objects.get(pk=count.pk).total_cents == 100_000
