"""Buy-ins and the drop box (started): cash or a marker at a seat goes into the table's drop box; once
the shift is closed the count team counts the box twice, independently, and it is final when two counts by two
people agree.

The personas: Dana deals PGP-1; Paula the Pit boss closes the shift; Carl and Cleo count the boxes.
"""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from casino.errors import ApplicationError, NotAllowed, WrongState
from casino.models import AuditEvent
from casino.roles import Role
from casino.services import shift_close
from tables.drop import buy_in_record, drop_box, drop_count_record
from tables.models import BuyIn, DropCount

pytestmark = pytest.mark.django_db

CASH = {10000: 5, 2000: 10, 500: 4}  # 500.00 + 200.00 + 20.00 = 720.00


@pytest.fixture
def pgp(shift, make_table):  # type: ignore[no-untyped-def]
    return make_table(name="PGP-1", game="paigow_poker", seat_count=6)


@pytest.fixture
def counters(make_user):  # type: ignore[no-untyped-def]
    return make_user("carl_count", Role.COUNT_TEAM), make_user("cleo_count", Role.COUNT_TEAM)


def test_the_dealer_records_a_buy_in_at_a_seat(pgp, dealer, shift) -> None:  # type: ignore[no-untyped-def]
    buy_in = buy_in_record(actor=dealer, table=pgp, seat=3, medium="cash", amount_cents=50_000)
    assert (buy_in.seat_number, buy_in.medium, buy_in.amount_cents, buy_in.shift) == (3, "cash", 50_000, shift)
    assert AuditEvent.objects.filter(event_type="buy_in.recorded").count() == 1


@pytest.mark.parametrize(
    ("seat", "medium", "amount", "message"),
    [
        (7, "cash", 5000, "Table PGP-1 has seats 1 to 6, not 7."),
        (0, "cash", 5000, "Table PGP-1 has seats 1 to 6, not 0."),
        (1, "cheque", 5000, "A buy-in is paid in cash or with a marker, not 'cheque'."),
        (1, "marker", 5_000_000, "A marker is asked for on the Markers page, signed by the player and approved by a"),
        (1, "cash", 0, "A buy-in is a whole number of cents from 1 to 100\u2009000\u2009000, not 0."),
        (1, "cash", -500, "not -500."),
        (1, "cash", 12.5, "not 12.5."),
        (1, "cash", True, "not True."),
    ],
)
def test_a_buy_in_that_cannot_be_is_refused_and_writes_nothing(pgp, dealer, seat, medium, amount, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ApplicationError, match=message.replace(".", r"\.")):
        buy_in_record(actor=dealer, table=pgp, seat=seat, medium=medium, amount_cents=amount)
    assert not BuyIn.objects.exists()


def test_a_box_is_final_when_two_people_count_it_alike(pgp, pit_boss, shift, counters) -> None:  # type: ignore[no-untyped-def]
    carl, cleo = counters
    with pytest.raises(WrongState, match="still open: its drop boxes are counted once it closes"):
        drop_count_record(actor=carl, table=pgp, shift=shift, cash=CASH, markers_cents=0, promo_cents=0)
    shift_close(actor=pit_boss, shift=shift)
    drop_count_record(actor=carl, table=pgp, shift=shift, cash=CASH, markers_cents=10_000, promo_cents=2_500)
    assert drop_box(table=pgp, shift=shift).status == "counted once"
    with pytest.raises(NotAllowed, match="a second, independent count is another person's"):
        drop_count_record(actor=carl, table=pgp, shift=shift, cash=CASH, markers_cents=10_000, promo_cents=2_500)
    # Cleo finds one 20.00 note fewer: the counts disagree, the box is not final.
    short = {**CASH, 2000: 9}
    drop_count_record(actor=cleo, table=pgp, shift=shift, cash=short, markers_cents=10_000, promo_cents=2_500)
    assert drop_box(table=pgp, shift=shift).status == "counts disagree"


def test_a_third_count_that_agrees_with_one_makes_the_box_final_and_no_count_follows(  # type: ignore[no-untyped-def]
    pgp, pit_boss, shift, counters, make_user
) -> None:
    carl, cleo = counters
    dora = make_user("dora_count", Role.COUNT_TEAM)
    shift_close(actor=pit_boss, shift=shift)
    drop_count_record(actor=carl, table=pgp, shift=shift, cash=CASH, markers_cents=10_000, promo_cents=0)
    drop_count_record(actor=cleo, table=pgp, shift=shift, cash={**CASH, 2000: 9}, markers_cents=10_000, promo_cents=0)
    drop_count_record(actor=dora, table=pgp, shift=shift, cash=CASH, markers_cents=10_000, promo_cents=0)
    box = drop_box(table=pgp, shift=shift)
    assert (box.status, box.drop_cents) == ("final", 72_000 + 10_000)
    with pytest.raises(WrongState, match="is already final"):
        drop_count_record(
            actor=make_user("eve_count", Role.COUNT_TEAM),
            table=pgp,
            shift=shift,
            cash=CASH,
            markers_cents=0,
            promo_cents=0,
        )


@pytest.mark.parametrize(
    ("cash", "message"),
    [
        ({300: 1}, "There is no 300 note"),
        ({2000: -1}, "A count is a whole number of notes from 0 to 100\u2009000, not -1 (20.00 notes)."),
        ({2000: 1.5}, "not 1.5 (20.00 notes)"),
        ([2000], "The cash is counted note by note."),
    ],
)
def test_a_count_that_is_not_notes_is_refused(pgp, pit_boss, shift, counters, cash, message) -> None:  # type: ignore[no-untyped-def]
    shift_close(actor=pit_boss, shift=shift)
    with pytest.raises(ApplicationError) as refused:
        drop_count_record(actor=counters[0], table=pgp, shift=shift, cash=cash, markers_cents=0, promo_cents=0)
    assert message in refused.value.message
    assert not DropCount.objects.exists()


def test_only_the_count_team_counts_a_box(pgp, pit_boss, dealer, shift) -> None:  # type: ignore[no-untyped-def]
    shift_close(actor=pit_boss, shift=shift)
    for person in (pit_boss, dealer):
        with pytest.raises(NotAllowed, match="Only a Count team may count a drop box."):
            drop_count_record(actor=person, table=pgp, shift=shift, cash=CASH, markers_cents=0, promo_cents=0)


def test_buy_ins_and_counts_are_append_only_in_the_database(pgp, dealer, pit_boss, shift, counters) -> None:  # type: ignore[no-untyped-def]
    buy_in = buy_in_record(actor=dealer, table=pgp, seat=1, medium="cash", amount_cents=100_000)
    for model, row in ((BuyIn, buy_in.pk),):
        table = connection.ops.quote_name(model._meta.db_table)
        for sql in (f"UPDATE {table} SET amount_cents = 1 WHERE id = %s", f"DELETE FROM {table} WHERE id = %s"):
            with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(sql, [row])


def test_a_buy_in_keyed_wrong_is_voided_by_a_supervisor_and_posted_back(  # type: ignore[no-untyped-def]
    pgp, dealer, floor_supervisor, pit_boss, shift
) -> None:
    from ledger.verify import ledger_verify
    from settlement.table_money import table_money_figures
    from tables.drop import buy_in_void

    wrong = buy_in_record(actor=dealer, table=pgp, seat=3, medium="cash", amount_cents=500_000)  # 5,000.00 for 500.00
    with pytest.raises(NotAllowed, match="may void a buy-in"):
        buy_in_void(actor=dealer, buy_in=wrong, reason="Keyed wrong")
    with pytest.raises(ApplicationError, match="^Say why the buy-in is voided.$"):
        buy_in_void(actor=floor_supervisor, buy_in=wrong, reason="  ")
    assert BuyIn.objects.count() == 1
    voiding = buy_in_void(actor=floor_supervisor, buy_in=wrong, reason="Keyed 5,000.00 for 500.00")
    assert (voiding.amount_cents, voiding.corrects, voiding.seat_number) == (-500_000, wrong, 3)
    with pytest.raises(WrongState, match="^This buy-in is already voided.$"):
        buy_in_void(actor=pit_boss, buy_in=wrong, reason="Again")
    with pytest.raises(WrongState, match="^This row voids another buy-in"):
        buy_in_void(actor=pit_boss, buy_in=voiding, reason="Undo")
    buy_in_record(actor=dealer, table=pgp, seat=3, medium="cash", amount_cents=50_000)
    (money,) = table_money_figures(shifts=[shift])
    assert money.buy_ins_cents == 50_000
    event = AuditEvent.objects.get(event_type="buy_in.voided")
    assert (event.actor, event.reason, event.after["voids"]) == (
        floor_supervisor,
        "Keyed 5,000.00 for 500.00",
        wrong.pk,
    )
    report = ledger_verify()
    assert report.ok, report.problems


def test_a_buy_in_of_a_closed_shift_is_not_voided(pgp, dealer, pit_boss, shift) -> None:  # type: ignore[no-untyped-def]
    from tables.drop import buy_in_void

    taken = buy_in_record(actor=dealer, table=pgp, seat=1, medium="cash", amount_cents=10_000)
    shift_close(actor=pit_boss, shift=shift)
    with pytest.raises(WrongState, match="belongs to a shift that is closed"):
        buy_in_void(actor=pit_boss, buy_in=taken, reason="Late")
    assert BuyIn.objects.count() == 1
