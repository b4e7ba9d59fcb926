"""Gaming days, shifts and tables: their lifecycle, their audit events, and refusals that write nothing."""

from __future__ import annotations

import datetime as dt

import pytest

from casino.errors import ApplicationError, WrongState
from casino.models import AuditEvent, GamingDay, Pit, Shift
from casino.services import gaming_day_close, gaming_day_open, pit_create, shift_close, shift_open
from tables.models import Table
from tables.services import table_close, table_create, table_open

DAY = dt.date(2026, 11, 21)


@pytest.fixture
def pit(pit_boss) -> Pit:
    return pit_create(actor=pit_boss, name="Pit 1")


def event_types() -> list[str]:
    return list(AuditEvent.objects.order_by("seq").values_list("event_type", flat=True))


@pytest.mark.django_db
def test_a_supervisor_runs_a_gaming_day_through_two_shifts_and_every_step_is_audited(floor_supervisor) -> None:
    day = gaming_day_open(actor=floor_supervisor, business_date=DAY)
    day_shift = shift_open(actor=floor_supervisor, name="Day")
    shift_close(actor=floor_supervisor, shift=day_shift)
    swing = shift_open(actor=floor_supervisor, name="Swing")
    assert (day_shift.number, swing.number) == (1, 2)
    shift_close(actor=floor_supervisor, shift=swing)
    gaming_day_close(actor=floor_supervisor, gaming_day=day)
    assert event_types() == [
        "gaming_day.opened",
        "shift.opened",
        "shift.closed",
        "shift.opened",
        "shift.closed",
        "gaming_day.closed",
    ]
    closed = AuditEvent.objects.get(event_type="shift.closed", subject_id=str(day_shift.pk))
    assert closed.before["closed_at"] is None and closed.after["closed_at"] is not None
    assert closed.actor_name == "fred_floor"


@pytest.mark.django_db
def test_a_second_shift_cannot_open_while_one_is_open(floor_supervisor) -> None:
    gaming_day_open(actor=floor_supervisor, business_date=DAY)
    shift_open(actor=floor_supervisor, name="Day")
    with pytest.raises(WrongState, match="The Day shift is still open"):
        shift_open(actor=floor_supervisor, name="Swing")
    assert Shift.objects.count() == 1


@pytest.mark.django_db
def test_no_shift_opens_without_an_open_gaming_day(floor_supervisor) -> None:
    with pytest.raises(WrongState, match="No gaming day is open"):
        shift_open(actor=floor_supervisor, name="Day")
    assert not AuditEvent.objects.exists()


@pytest.mark.django_db
def test_a_gaming_day_with_an_open_shift_cannot_close(floor_supervisor) -> None:
    day = gaming_day_open(actor=floor_supervisor, business_date=DAY)
    shift_open(actor=floor_supervisor, name="Day")
    with pytest.raises(WrongState, match="still has an open shift"):
        gaming_day_close(actor=floor_supervisor, gaming_day=day)
    assert GamingDay.objects.get().is_open


@pytest.mark.django_db
def test_a_closed_shift_does_not_close_twice(floor_supervisor) -> None:
    gaming_day_open(actor=floor_supervisor, business_date=DAY)
    shift = shift_close(actor=floor_supervisor, shift=shift_open(actor=floor_supervisor, name="Day"))
    with pytest.raises(WrongState, match="already closed"):
        shift_close(actor=floor_supervisor, shift=shift)


@pytest.mark.django_db
def test_a_table_is_created_closed_then_opened_and_closed_with_before_and_after(pit_boss, pit) -> None:
    table = table_create(
        actor=pit_boss,
        pit=pit,
        name="PGP-1",
        game="paigow_poker",
        min_wager_cents=1000,
        max_wager_cents=50000,
        seat_count=6,
    )
    assert table.status == Table.Status.CLOSED
    table_open(actor=pit_boss, table=table)
    table_close(actor=pit_boss, table=table)
    opened = AuditEvent.objects.get(event_type="table.open")
    assert (opened.before["status"], opened.after["status"]) == ("closed", "open")
    assert AuditEvent.objects.filter(subject_type="tables.table", subject_id=str(table.pk)).count() == 3


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"game": "baccarat"}, "Unknown game 'baccarat'"),
        ({"min_wager_cents": 0}, "The minimum wager must be more than zero"),
        (
            {"min_wager_cents": 5000, "max_wager_cents": 2500},
            r"The maximum wager \(25.00\) is below the minimum \(50.00\)",
        ),
        ({"game": "chinese_poker", "seat_count": 6}, "A Chinese Poker table has 2 to 4 player seats, not 6"),
        ({"game": "paigow_poker", "seat_count": 7}, "A Pai Gow Poker table has 1 to 6 player seats, not 7"),
        ({"name": "  "}, "A table needs a name"),
    ],
)
def test_a_table_with_bad_settings_is_refused_in_plain_words_and_nothing_is_written(
    pit_boss, pit, fields, message
) -> None:
    before = AuditEvent.objects.count()
    values = {
        "name": "T-1",
        "game": "paigow_tiles",
        "min_wager_cents": 2500,
        "max_wager_cents": 100000,
        "seat_count": 7,
    }
    values.update(fields)
    with pytest.raises(ApplicationError, match=message):
        table_create(actor=pit_boss, pit=pit, **values)
    assert not Table.objects.exists()
    assert AuditEvent.objects.count() == before


@pytest.mark.django_db
def test_opening_an_open_table_is_a_wrong_state(pit_boss, pit) -> None:
    table = table_create(
        actor=pit_boss, pit=pit, name="OFC-1", game="ofc", min_wager_cents=100, max_wager_cents=1000, seat_count=3
    )
    table_open(actor=pit_boss, table=table)
    with pytest.raises(WrongState, match="Table OFC-1 is already open"):
        table_open(actor=pit_boss, table=table)


@pytest.mark.django_db
def test_a_dealer_cannot_create_a_table(dealer, pit) -> None:
    from casino.errors import NotAllowed

    with pytest.raises(NotAllowed):
        table_create(
            actor=dealer, pit=pit, name="X", game="ofc", min_wager_cents=100, max_wager_cents=1000, seat_count=3
        )
